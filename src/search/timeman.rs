//! Time management: how long a search may run this turn, and how deep the full searches go
//! (reference §9i), on any machine and at any time control.
//!
//! Every time flag of the original (`-ftl`, `-nftl`, the helper beams) was set for the
//! qualifier's clock: 180 s per game, 20 s per turn. A budget here is that flag scaled by the
//! share of the clock actually left, and never more than the turn limit minus a safety margin,
//! so that arena matches at a fraction of the time control stay meaningful and nothing ever
//! loses on time.
//!
//! A turn's budgets are one type, [`TurnClock`]: every player that times its searches asks it.
//! Above a reserve of 30 s (scaled to the turn limit) each search gets its time scaled; below
//! it, ysai's turn gives each search an eighth of the time left above a floor of 10 s (scaled),
//! so that plans and counter rules keep running to the game's end, and once that eighth is too
//! short for a plan, a small fixed amount of work: a game that lasts hundreds of turns still
//! plans on its last ones, where spending a share of what was left ran the clock down to
//! nothing and the turns fell back on the greedy move. The rush partner's searches get the
//! champion's fixed second there instead, or an eighth of all that is left (`--late-game`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::sim::Position;

/// The game clock the original's time flags were set for.
pub const GAME_TIME_MS: u64 = 180_000;
/// The per-turn limit the original's (and the champion's) time thresholds assume.
pub const QUALIFIER_TURN_MS: u64 = 20_000;
/// Kept back from every limit: process start-up, input parsing, output and scheduling.
pub const SAFETY_MARGIN_MS: u64 = 300;
/// And this share of the limit, because a busy machine delays a thread in proportion to how
/// long it runs (one tenth: 2.3 s of a 20 s turn, 0.5 s of a 2 s one).
pub const SAFETY_SHARE: u64 = 10;

/// The shortest turn limit that leaves a search any time: below it [`Clock::ceiling`] is zero
/// and every answer would be a fallback move, so `--turn-ms` refuses less.
pub const MIN_TURN_MS: u64 = {
    let mut limit = SAFETY_MARGIN_MS;
    while ceiling_ms(limit) == 0 {
        limit += 1;
    }
    limit
};

/// The most one answer may take within `limit_ms`: the limit less the safety margins.
const fn ceiling_ms(limit_ms: u64) -> u64 {
    limit_ms.saturating_sub(SAFETY_MARGIN_MS + limit_ms / SAFETY_SHARE)
}

/// Below this much time left (at the qualifier's 20 s turns; scaled with [`at_turn_limit`])
/// the players keep to short searches: the reserve that carries a long game to its end.
pub const RESERVE_MS: u64 = 30_000;

/// `ms`, set for the qualifier's 20 s turns, scaled to a turn limit of `turn_limit_ms`: the
/// thresholds on the time left (the 30 s reserves) and the champion's fixed second.
pub fn at_turn_limit(ms: u64, turn_limit_ms: u64) -> u64 {
    ms * turn_limit_ms / QUALIFIER_TURN_MS
}

/// The clock as this turn's input shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Thinking time left in the game.
    pub game_left_ms: i64,
    /// The longest a single answer may take.
    pub turn_limit_ms: u64,
}

impl Clock {
    /// The clock as `view` shows it, with answers limited to `turn_limit_ms`.
    pub fn of(view: &Position<'_>, turn_limit_ms: u64) -> Self {
        Clock {
            game_left_ms: view.time_left_ms,
            turn_limit_ms,
        }
    }

    /// The qualifier's limits with `game_left_ms` left.
    pub fn qualifier(game_left_ms: i64) -> Self {
        Clock {
            game_left_ms,
            turn_limit_ms: QUALIFIER_TURN_MS,
        }
    }

    /// `flag_ms` (set for a full 180 s clock) scaled to the time left, within the turn limit.
    pub fn budget(&self, flag_ms: u64) -> Duration {
        let left = self.game_left_ms.max(0) as u64;
        let scaled = flag_ms.min(left.saturating_mul(flag_ms) / GAME_TIME_MS);
        Duration::from_millis(scaled).min(self.ceiling())
    }

    /// The most one answer may take: the turn limit (or the time left, if less) minus the
    /// safety margins.
    pub fn ceiling(&self) -> Duration {
        let limit = self.turn_limit_ms.min(self.game_left_ms.max(0) as u64);
        Duration::from_millis(ceiling_ms(limit))
    }

    /// The deadline of [`Clock::budget`] counted from `start`.
    pub fn deadline(&self, start: Instant, flag_ms: u64) -> Instant {
        start + self.budget(flag_ms)
    }
}

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

/// What a plan search gets below the reserve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LateTime {
    /// `1 / LATE_SHARE` of the time left above a floor (set for the qualifier's turn limit,
    /// scaled); with `fixed_work`, a search whose share is under `FIXED_WORK_BELOW` does a
    /// fixed small amount of work instead, within the turn's ceiling (ysai's turn).
    Share { floor_ms: u64, fixed_work: bool },
    /// A fixed time, set for the qualifier's turn limit and scaled: the champion's second.
    Fixed(u64),
}

/// ysai's turns below the reserve: an eighth of the time left above the floor, then fixed work.
pub const PLAN_LATE: LateTime = LateTime::Share {
    floor_ms: FLOOR_MS,
    fixed_work: true,
};

/// The clock of one turn: how long each search of it may take, and when it must end. Every
/// player that times its searches reads its turn's budgets here.
#[derive(Clone, Copy, Debug)]
pub struct TurnClock {
    pub clock: Clock,
    /// When the turn began.
    pub start: Instant,
    /// The full search's time this turn, kept back from the plan searches so that the turn
    /// still ends by its ceiling (zero when the search does not run).
    pub kept: Duration,
    /// The full search runs its fewest plies: its share of the clock is under `MIN_GUARD`.
    pub guard_fixed: bool,
    /// What a plan search gets below the reserve.
    pub late: LateTime,
}

impl TurnClock {
    /// A turn begun at `start` with `time_left_ms` on the game clock, answers limited to
    /// `turn_limit_ms`; below the reserve, ysai's late time ([`PLAN_LATE`]).
    pub fn new(time_left_ms: i64, turn_limit_ms: u64, start: Instant) -> Self {
        TurnClock {
            clock: Clock {
                game_left_ms: time_left_ms,
                turn_limit_ms,
            },
            start,
            kept: Duration::ZERO,
            guard_fixed: false,
            late: PLAN_LATE,
        }
    }

    /// The turn of `view`, begun at `start`.
    pub fn of(view: &Position<'_>, turn_limit_ms: u64, start: Instant) -> Self {
        Self::new(view.time_left_ms, turn_limit_ms, start)
    }

    /// The same turn with `late` below the reserve.
    pub fn with_late(self, late: LateTime) -> Self {
        TurnClock { late, ..self }
    }

    /// `flag_ms` scaled to the clock, within the ceiling, whatever the reserve
    /// ([`Clock::budget`]).
    pub fn scaled(&self, flag_ms: u64) -> Duration {
        self.clock.budget(flag_ms)
    }

    /// [`TurnClock::scaled`] from the turn's start.
    pub fn scaled_deadline(&self, flag_ms: u64) -> Instant {
        self.start + self.scaled(flag_ms)
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
        let floor_ms = match self.late {
            LateTime::Share { floor_ms, .. } => floor_ms,
            LateTime::Fixed(_) => FLOOR_MS,
        };
        let floor = at_turn_limit(floor_ms, self.clock.turn_limit_ms) as i64;
        let ms = (self.clock.game_left_ms - floor).max(0) as u64 / share;
        Duration::from_millis(ms).min(self.clock.ceiling())
    }

    /// Whether this turn's searches do a fixed small amount of work, bounded by their size
    /// rather than by a time: below the reserve, once a plan search's share of the time above
    /// the floor is too short to plan with.
    pub fn fixed_work(&self) -> bool {
        let fixed_work = matches!(
            self.late,
            LateTime::Share {
                fixed_work: true,
                ..
            }
        );
        fixed_work && !self.above_reserve() && self.late_share(LATE_SHARE) < FIXED_WORK_BELOW
    }

    /// How long a plan search with time `flag_ms` may take; doing fixed work, up to the
    /// turn's ceiling (the search's size ends it long before).
    pub fn search(&self, flag_ms: u64) -> Duration {
        if self.above_reserve() {
            self.clock.budget(flag_ms)
        } else if let LateTime::Fixed(ms) = self.late {
            let ms = at_turn_limit(ms, self.clock.turn_limit_ms);
            Duration::from_millis(ms).min(self.clock.ceiling())
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

    /// A plan search of `duration` starting now, never past [`TurnClock::plans_end`].
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

/// A search's deadline, shared by its threads: once one of them sees it pass, all stop.
#[derive(Debug)]
pub struct Deadline {
    at: Option<Instant>,
    passed: AtomicBool,
}

impl Deadline {
    pub fn new(at: Option<Instant>) -> Self {
        Deadline {
            at,
            passed: AtomicBool::new(false),
        }
    }

    /// Whether the deadline has passed (and remembers it, so later checks are cheap).
    pub fn out_of_time(&self) -> bool {
        if self.has_passed() {
            return true;
        }
        let late = self.at.is_some_and(|d| Instant::now() >= d);
        if late {
            self.passed.store(true, Ordering::Relaxed);
        }
        late
    }

    /// Whether some check already saw the deadline pass (no clock read).
    pub fn has_passed(&self) -> bool {
        self.passed.load(Ordering::Relaxed)
    }
}

impl Clone for Deadline {
    fn clone(&self) -> Self {
        Deadline {
            at: self.at,
            passed: AtomicBool::new(self.has_passed()),
        }
    }
}

/// My and the enemy's full-search depths on `turn` with `game_left_ms` left at a turn limit
/// of `turn_limit_ms`: the flags, capped as [`depth_caps`] says for the qualifier's clock.
pub fn search_depths(
    game_left_ms: i64,
    turn_limit_ms: u64,
    turn: usize,
    (mine, enemy): (usize, usize),
) -> (usize, usize) {
    let remaining = crate::sim::PACKS_PER_GAME as i64 - turn as i64;
    let scaled = game_left_ms * QUALIFIER_TURN_MS as i64 / turn_limit_ms.max(1) as i64;
    depth_caps(scaled, remaining, mine, enemy)
}

/// Caps on my and the enemy's full-search depth by the time left (§9i), where `remaining_turns`
/// is 500 - turn. Returns `(mine, enemy)`, never above the given depths.
pub fn depth_caps(
    game_left_ms: i64,
    remaining_turns: i64,
    mine: usize,
    enemy: usize,
) -> (usize, usize) {
    let per_turn = |ms_per_turn: i64| game_left_ms < ms_per_turn * remaining_turns;
    let (my_cap, enemy_cap) = if game_left_ms < 100 || per_turn(5) {
        (2, 2)
    } else if per_turn(10) {
        (3, 2)
    } else if per_turn(30) {
        (3, 3)
    } else if per_turn(100) {
        (4, 3)
    } else {
        (mine, enemy)
    };
    (mine.min(my_cap), enemy.min(enemy_cap))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_clock_gives_the_flag_and_a_short_one_its_share() {
        assert_eq!(
            Clock::qualifier(180_000).budget(1350),
            Duration::from_millis(1350)
        );
        assert_eq!(
            Clock::qualifier(45_000).budget(1350),
            Duration::from_millis(337)
        );
        assert_eq!(Clock::qualifier(0).budget(1350), Duration::ZERO);
        assert_eq!(Clock::qualifier(-5).budget(1350), Duration::ZERO);
    }

    #[test]
    fn no_budget_reaches_the_turn_limit_or_the_clock() {
        let clock = Clock::qualifier(180_000);
        assert_eq!(clock.budget(25_000), Duration::from_millis(17_700));
        let quick = Clock {
            game_left_ms: 30_000,
            turn_limit_ms: 2_000,
        };
        assert_eq!(quick.budget(19_000), Duration::from_millis(1_500));
        let nearly_out = Clock::qualifier(250);
        assert_eq!(nearly_out.budget(19_000), Duration::ZERO);
        assert_eq!(quick.ceiling(), Duration::from_millis(1_500));
        assert_eq!(clock.ceiling(), Duration::from_millis(17_700));
    }

    #[test]
    fn the_shortest_turn_limit_is_the_first_with_time_to_think() {
        let at = |turn_limit_ms| Clock {
            game_left_ms: 180_000,
            turn_limit_ms,
        };
        assert_eq!(MIN_TURN_MS, 334);
        assert!(at(MIN_TURN_MS).ceiling() > Duration::ZERO);
        assert_eq!(at(MIN_TURN_MS - 1).ceiling(), Duration::ZERO);
    }

    #[test]
    fn depth_caps_follow_the_original_table() {
        // Turn 50: R = 450.
        let caps = |left| depth_caps(left, 450, 4, 4);
        assert_eq!(caps(100_000), (4, 4));
        assert_eq!(caps(44_999), (4, 3), "below 100 ms per turn");
        assert_eq!(caps(13_499), (3, 3), "below 30 ms per turn");
        assert_eq!(caps(4_499), (3, 2), "below 10 ms per turn");
        assert_eq!(caps(2_249), (2, 2), "below 5 ms per turn");
        assert_eq!(depth_caps(99, 1, 4, 4), (2, 2), "below 100 ms left");
        assert_eq!(
            depth_caps(100_000, 450, 2, 1),
            (2, 1),
            "never deeper than asked"
        );
    }

    #[test]
    fn above_the_reserve_times_are_scaled_below_it_a_share_of_what_is_left_above_the_floor() {
        let now = Instant::now();
        // 45 s + 5 s: the reserve is 7.5 s, the floor 2.5 s.
        let fresh = TurnClock::new(45_000, 5_000, now);
        assert!(fresh.above_reserve() && !fresh.fixed_work());
        assert_eq!(fresh.search(15_000), Duration::from_millis(3_750));
        let late = TurnClock::new(7_000, 5_000, now);
        assert!(!late.above_reserve() && !late.fixed_work());
        assert_eq!(late.search(15_000), Duration::from_millis(562));
        assert_eq!(late.guard(2_000), Duration::from_millis(140));
        // Never past the turn's ceiling: 5 s less 300 ms and a tenth.
        let rich = TurnClock::new(45_000, 5_000, now);
        assert_eq!(rich.search(180_000), Duration::from_millis(4_200));
        assert!(rich.deadline(Duration::from_secs(60)) <= now + Duration::from_millis(4_200));
        // Below the reserve every search of the turn ends within the eighth.
        assert!(late.deadline(Duration::from_secs(60)) <= now + Duration::from_millis(562));
    }

    #[test]
    fn near_the_floor_the_searches_do_fixed_work_within_the_ceiling() {
        let now = Instant::now();
        // An eighth of 200 ms above the 2.5 s floor is the least a timed plan search gets.
        let timed = TurnClock::new(2_700, 5_000, now);
        assert!(!timed.fixed_work());
        assert_eq!(timed.search(15_000), Duration::from_millis(25));
        for left in [2_699, 2_500, 1_000] {
            let fixed = TurnClock::new(left, 5_000, now).keeping_guard(1_000);
            assert!(fixed.fixed_work(), "{left} ms left");
            assert_eq!(
                fixed.search(15_000),
                fixed.clock.ceiling(),
                "{left} ms left"
            );
            assert!(fixed.guard_fixed, "{left} ms left");
        }
        // With nothing left past the safety margins nothing runs.
        let spent = TurnClock::new(330, 5_000, now).keeping_guard(1_000);
        assert_eq!(spent.search(15_000), Duration::ZERO);
        assert!(spent.guard_deadline().is_none());
    }

    #[test]
    fn a_full_search_whose_share_is_under_the_least_runs_its_fewest_plies() {
        let now = Instant::now();
        // 5 s turns: 1 s at a full clock is 1 s, timed; at 8.5 s left, 47 ms, still above the
        // 7.5 s reserve; just above the 2.5 s floor, nothing.
        let timed = TurnClock::new(180_000, 5_000, now).keeping_guard(1_000);
        assert!(!timed.guard_fixed);
        for left in [8_500, 2_600] {
            let fixed = TurnClock::new(left, 5_000, now).keeping_guard(1_000);
            assert!(fixed.guard_fixed, "{left} ms left");
            assert_eq!(fixed.kept, MIN_GUARD, "{left} ms left");
            assert!(fixed.guard_deadline().is_some(), "{left} ms left");
        }
        let late = TurnClock::new(7_000, 5_000, now).keeping_guard(1_000);
        assert!(!late.guard_fixed && late.kept == Duration::from_millis(140));
    }

    #[test]
    fn the_full_searchs_time_is_kept_back_from_the_plans() {
        let now = Instant::now();
        // 5 s turns: the ceiling is 4.2 s; 1 s scaled to a full clock is 1 s.
        let clock = TurnClock::new(180_000, 5_000, now).keeping_guard(1_000);
        assert_eq!(clock.kept, Duration::from_millis(1_000));
        assert_eq!(clock.plans_end(), now + Duration::from_millis(3_200));
        let guard_end = clock.guard_deadline().expect("time for a search");
        assert!(guard_end <= now + Duration::from_millis(4_200));
        // 20 ms scaled is too short to deepen: the search's fewest plies get the least time.
        let tiny = TurnClock::new(180_000, 5_000, now).keeping_guard(20);
        assert!(tiny.guard_fixed);
        assert_eq!(tiny.kept, MIN_GUARD);
        assert_eq!(tiny.plans_end(), now + Duration::from_millis(4_150));
    }
}
