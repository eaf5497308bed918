//! Time management: how long a search may run this turn, and how deep the full searches go
//! (reference §9i), on any machine and at any time control.
//!
//! Every time flag of the original (`-ftl`, `-nftl`, the helper beams) was set for the
//! qualifier's clock: 180 s per game, 20 s per turn. A budget here is that flag scaled by the
//! share of the clock actually left, and never more than the turn limit minus a safety margin,
//! so that arena matches at a fraction of the time control stay meaningful and nothing ever
//! loses on time.

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
}
