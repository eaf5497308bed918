//! How long each search of a turn may take. Every time is set for the qualifier's 180 s +
//! 20 s clock and scaled to the clock actually left (see `search::timeman`). Above a reserve
//! of 30 s (scaled to the turn limit) each search gets its time scaled; below it, an eighth
//! of the time left, so that plans and counter rules keep running to the game's end.

use std::time::{Duration, Instant};

use crate::search::timeman::{at_turn_limit, Clock, RESERVE_MS};

/// The most all the searches of one turn take together (the opening plan's time).
pub const TURN_MS: u64 = 18_000;
/// Below the reserve a search takes this share of the time left.
pub const LATE_SHARE: u64 = 8;
/// Below the reserve the full search takes this share of the time left: it guards the moves
/// of plans, which matter more.
pub const LATE_GUARD_SHARE: u64 = 32;

/// A full search given less than this does not run: it could not finish the plies that would
/// overrule a plan, and its fixed cost would eat a long game's last seconds.
pub const MIN_GUARD: Duration = Duration::from_millis(50);

/// The clock of one turn.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub clock: Clock,
    /// When the turn began.
    pub start: Instant,
    /// The full search's time this turn, kept back from the plan searches so that the turn
    /// still ends by its ceiling (zero when the search does not run).
    pub kept: Duration,
}

impl Budget {
    pub fn new(time_left_ms: i64, turn_limit_ms: u64, start: Instant) -> Self {
        Budget {
            clock: Clock {
                game_left_ms: time_left_ms,
                turn_limit_ms,
            },
            start,
            kept: Duration::ZERO,
        }
    }

    /// Keeps the full search's time for `flag_ms` back from the plans, if it is worth a search.
    pub fn keeping_guard(mut self, flag_ms: u64) -> Self {
        let time = self.guard(flag_ms);
        self.kept = if time >= MIN_GUARD {
            time
        } else {
            Duration::ZERO
        };
        self
    }

    fn reserve_ms(&self) -> u64 {
        at_turn_limit(RESERVE_MS, self.clock.turn_limit_ms)
    }

    /// Whether the clock is above the reserve.
    pub fn above_reserve(&self) -> bool {
        self.clock.game_left_ms >= self.reserve_ms() as i64
    }

    fn late_share(&self, share: u64) -> Duration {
        let ms = self.clock.game_left_ms.max(0) as u64 / share;
        Duration::from_millis(ms).min(self.clock.ceiling())
    }

    /// How long a plan search with time `flag_ms` may take.
    pub fn search(&self, flag_ms: u64) -> Duration {
        if self.above_reserve() {
            self.clock.budget(flag_ms)
        } else {
            self.late_share(LATE_SHARE)
        }
    }

    /// How long the full search with time `flag_ms` may take.
    pub fn guard(&self, flag_ms: u64) -> Duration {
        if self.above_reserve() {
            self.clock.budget(flag_ms)
        } else {
            self.late_share(LATE_GUARD_SHARE)
        }
    }

    /// The latest the turn may end: its ceiling from its start.
    fn ceiling_end(&self) -> Instant {
        self.start + self.clock.ceiling()
    }

    /// The latest a plan search of this turn may end: all of them take [`TURN_MS`] (scaled)
    /// at most, and leave the full search its time before the ceiling.
    pub fn plans_end(&self) -> Instant {
        let kept = self
            .ceiling_end()
            .checked_sub(self.kept)
            .unwrap_or(self.start);
        (self.start + self.search(TURN_MS)).min(kept)
    }

    /// A plan search of `duration` starting now, never past [`Budget::plans_end`].
    pub fn deadline(&self, duration: Duration) -> Instant {
        (Instant::now() + duration).min(self.plans_end())
    }

    /// The full search's deadline: its kept time from now, never past the ceiling; `None` if
    /// that leaves it less than [`MIN_GUARD`].
    pub fn guard_deadline(&self) -> Option<Instant> {
        let now = Instant::now();
        let end = (now + self.kept).min(self.ceiling_end());
        (end.saturating_duration_since(now) >= MIN_GUARD).then_some(end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn above_the_reserve_times_are_scaled_below_it_a_share_of_what_is_left() {
        let now = Instant::now();
        // 45 s + 5 s: the reserve is 7.5 s.
        let fresh = Budget::new(45_000, 5_000, now);
        assert!(fresh.above_reserve());
        assert_eq!(fresh.search(15_000), Duration::from_millis(3_750));
        let late = Budget::new(7_000, 5_000, now);
        assert!(!late.above_reserve());
        assert_eq!(late.search(15_000), Duration::from_millis(875));
        assert_eq!(late.guard(2_000), Duration::from_millis(218));
        // Never past the turn's ceiling: 5 s less 300 ms and a tenth.
        let rich = Budget::new(45_000, 5_000, now);
        assert_eq!(rich.search(180_000), Duration::from_millis(4_200));
        assert!(rich.deadline(Duration::from_secs(60)) <= now + Duration::from_millis(4_200));
        // Below the reserve every search of the turn ends within the eighth.
        assert!(late.deadline(Duration::from_secs(60)) <= now + Duration::from_millis(875));
    }

    #[test]
    fn the_full_searchs_time_is_kept_back_from_the_plans() {
        let now = Instant::now();
        // 5 s turns: the ceiling is 4.2 s; 1 s scaled to a full clock is 1 s.
        let budget = Budget::new(180_000, 5_000, now).keeping_guard(1_000);
        assert_eq!(budget.kept, Duration::from_millis(1_000));
        assert_eq!(budget.plans_end(), now + Duration::from_millis(3_200));
        let guard_end = budget.guard_deadline().expect("time for a search");
        assert!(guard_end <= now + Duration::from_millis(4_200));
        // 20 ms scaled is not worth a search: nothing is kept, none runs.
        let tiny = Budget::new(180_000, 5_000, now).keeping_guard(20);
        assert_eq!(tiny.kept, Duration::ZERO);
        assert!(tiny.guard_deadline().is_none());
        assert_eq!(tiny.plans_end(), now + Duration::from_millis(4_200));
    }
}
