//! How long each search of a turn may take. Every time is set for the qualifier's 180 s +
//! 20 s clock and scaled to the clock actually left (see `search::timeman`). Above a reserve
//! of 30 s (scaled to the turn limit) each search gets its time scaled; below it, an eighth
//! of the time left above a floor of 10 s (scaled), so that plans and counter rules keep
//! running to the game's end. Once that eighth is too short for a plan, each search does a
//! small fixed amount of work instead: a game that lasts hundreds of turns still plans on its
//! last ones, where spending a share of what was left ran the clock down to nothing and the
//! turns fell back on the greedy move.

use std::time::{Duration, Instant};

use crate::search::timeman::{at_turn_limit, Clock, RESERVE_MS};

/// The most all the searches of one turn take together (the opening plan's time).
pub const TURN_MS: u64 = 18_000;
/// Below the reserve a search takes this share of the time left.
pub const LATE_SHARE: u64 = 8;
/// Below the reserve the full search takes this share of the time left: it guards the moves
/// of plans, which matter more.
pub const LATE_GUARD_SHARE: u64 = 32;

/// A full search given less than this does not deepen against a deadline: it runs its fewest
/// plies (a millisecond or two), within this time. With less than this before the turn's
/// ceiling it does not run.
pub const MIN_GUARD: Duration = Duration::from_millis(50);
/// Below the reserve, searches share only the time left above this (scaled to the turn limit).
pub const FLOOR_MS: u64 = 10_000;
/// A plan search whose share would be shorter than this does fixed work instead: a beam this
/// short could not reach a plan's depth at its widths.
pub const FIXED_WORK_BELOW: Duration = Duration::from_millis(25);

/// The clock of one turn.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub clock: Clock,
    /// When the turn began.
    pub start: Instant,
    /// The full search's time this turn, kept back from the plan searches so that the turn
    /// still ends by its ceiling (zero when the search does not run).
    pub kept: Duration,
    /// The full search runs its fewest plies: its share of the clock is under `MIN_GUARD`.
    pub guard_fixed: bool,
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
            guard_fixed: false,
        }
    }

    /// Keeps the full search's time for `flag_ms` back from the plans: its share of the clock,
    /// or when that is under `MIN_GUARD`, that much for its fewest plies.
    pub fn keeping_guard(mut self, flag_ms: u64) -> Self {
        let time = self.guard(flag_ms);
        self.guard_fixed = time < MIN_GUARD;
        self.kept = time.max(MIN_GUARD).min(self.clock.ceiling());
        self
    }

    fn reserve_ms(&self) -> u64 {
        at_turn_limit(RESERVE_MS, self.clock.turn_limit_ms)
    }

    /// Whether the clock is above the reserve.
    pub fn above_reserve(&self) -> bool {
        self.clock.game_left_ms >= self.reserve_ms() as i64
    }

    /// `1 / share` of the time left above the floor.
    fn late_share(&self, share: u64) -> Duration {
        let floor = at_turn_limit(FLOOR_MS, self.clock.turn_limit_ms) as i64;
        let ms = (self.clock.game_left_ms - floor).max(0) as u64 / share;
        Duration::from_millis(ms).min(self.clock.ceiling())
    }

    /// Whether this turn's searches do a fixed small amount of work, bounded by their size
    /// rather than by a time: below the reserve, once a plan search's share of the time above
    /// the floor is too short to plan with.
    pub fn fixed_work(&self) -> bool {
        !self.above_reserve() && self.late_share(LATE_SHARE) < FIXED_WORK_BELOW
    }

    /// How long a plan search with time `flag_ms` may take; doing fixed work, up to the
    /// turn's ceiling (the search's size ends it long before).
    pub fn search(&self, flag_ms: u64) -> Duration {
        if self.above_reserve() {
            self.clock.budget(flag_ms)
        } else if self.fixed_work() {
            self.clock.ceiling()
        } else {
            self.late_share(LATE_SHARE)
        }
    }

    /// The full search's share of the clock for time `flag_ms`.
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

    /// The latest a plan search of this turn may end: all of them take `TURN_MS` (scaled)
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
    /// that leaves it less than `MIN_GUARD`.
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
    fn above_the_reserve_times_are_scaled_below_it_a_share_of_what_is_left_above_the_floor() {
        let now = Instant::now();
        // 45 s + 5 s: the reserve is 7.5 s, the floor 2.5 s.
        let fresh = Budget::new(45_000, 5_000, now);
        assert!(fresh.above_reserve() && !fresh.fixed_work());
        assert_eq!(fresh.search(15_000), Duration::from_millis(3_750));
        let late = Budget::new(7_000, 5_000, now);
        assert!(!late.above_reserve() && !late.fixed_work());
        assert_eq!(late.search(15_000), Duration::from_millis(562));
        assert_eq!(late.guard(2_000), Duration::from_millis(140));
        // Never past the turn's ceiling: 5 s less 300 ms and a tenth.
        let rich = Budget::new(45_000, 5_000, now);
        assert_eq!(rich.search(180_000), Duration::from_millis(4_200));
        assert!(rich.deadline(Duration::from_secs(60)) <= now + Duration::from_millis(4_200));
        // Below the reserve every search of the turn ends within the eighth.
        assert!(late.deadline(Duration::from_secs(60)) <= now + Duration::from_millis(562));
    }

    #[test]
    fn near_the_floor_the_searches_do_fixed_work_within_the_ceiling() {
        let now = Instant::now();
        // An eighth of 200 ms above the 2.5 s floor is the least a timed plan search gets.
        let timed = Budget::new(2_700, 5_000, now);
        assert!(!timed.fixed_work());
        assert_eq!(timed.search(15_000), Duration::from_millis(25));
        for left in [2_699, 2_500, 1_000] {
            let fixed = Budget::new(left, 5_000, now).keeping_guard(1_000);
            assert!(fixed.fixed_work(), "{left} ms left");
            assert_eq!(
                fixed.search(15_000),
                fixed.clock.ceiling(),
                "{left} ms left"
            );
            assert!(fixed.guard_fixed, "{left} ms left");
        }
        // With nothing left past the safety margins nothing runs.
        let spent = Budget::new(330, 5_000, now).keeping_guard(1_000);
        assert_eq!(spent.search(15_000), Duration::ZERO);
        assert!(spent.guard_deadline().is_none());
    }

    #[test]
    fn a_full_search_whose_share_is_under_the_least_runs_its_fewest_plies() {
        let now = Instant::now();
        // 5 s turns: 1 s at a full clock is 1 s, timed; at 8.5 s left, 47 ms, still above the
        // 7.5 s reserve; just above the 2.5 s floor, nothing.
        let timed = Budget::new(180_000, 5_000, now).keeping_guard(1_000);
        assert!(!timed.guard_fixed);
        for left in [8_500, 2_600] {
            let fixed = Budget::new(left, 5_000, now).keeping_guard(1_000);
            assert!(fixed.guard_fixed, "{left} ms left");
            assert_eq!(fixed.kept, MIN_GUARD, "{left} ms left");
            assert!(fixed.guard_deadline().is_some(), "{left} ms left");
        }
        let late = Budget::new(7_000, 5_000, now).keeping_guard(1_000);
        assert!(!late.guard_fixed && late.kept == Duration::from_millis(140));
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
        // 20 ms scaled is too short to deepen: the search's fewest plies get the least time.
        let tiny = Budget::new(180_000, 5_000, now).keeping_guard(20);
        assert!(tiny.guard_fixed);
        assert_eq!(tiny.kept, MIN_GUARD);
        assert_eq!(tiny.plans_end(), now + Duration::from_millis(4_150));
    }
}
