//! What the threads of one beam share: node counters and the deadline, read every few
//! checks.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::search::timeman::Deadline;

/// Shared counters and the deadline of one search.
#[derive(Debug)]
pub(super) struct Progress {
    pub(super) sim_calls: AtomicU64,
    pub(super) deadline: Deadline,
}

impl Progress {
    pub(super) fn new(deadline: Option<Instant>) -> Self {
        Progress {
            sim_calls: AtomicU64::new(0),
            deadline: Deadline::new(deadline),
        }
    }

    pub(super) fn out_of_time(&self) -> bool {
        self.deadline.out_of_time()
    }

    pub(super) fn snapshot(&self) -> Self {
        Progress {
            sim_calls: AtomicU64::new(self.sim_calls.load(Ordering::Relaxed)),
            deadline: self.deadline.clone(),
        }
    }

    pub(super) fn count(&self, calls: u64) {
        self.sim_calls.fetch_add(calls, Ordering::Relaxed);
    }

    /// A worker's deadline checks over a run of children.
    pub(super) fn checks(&self) -> DeadlineChecks<'_> {
        DeadlineChecks {
            progress: self,
            count: 0,
        }
    }
}

/// Deadline checks per clock read over a run of children: a clock read costs about a fiftieth
/// of a child's rank, and sixteen ranks take tens of microseconds, which a deadline can spare.
pub(super) const CHECKS_PER_CLOCK_READ: u32 = 16;

/// One worker's deadline checks: the clock is read on the first and every
/// [`CHECKS_PER_CLOCK_READ`]th check; between reads, the flag any read sets is checked.
pub(super) struct DeadlineChecks<'p> {
    pub(super) progress: &'p Progress,
    pub(super) count: u32,
}

impl DeadlineChecks<'_> {
    pub(super) fn out_of_time(&mut self) -> bool {
        let read_clock = self.count.is_multiple_of(CHECKS_PER_CLOCK_READ);
        self.count += 1;
        if read_clock {
            self.progress.out_of_time()
        } else {
            self.progress.deadline.has_passed()
        }
    }
}
