//! `--ai rush`: a sparring partner that plays like the probable 2019 champion (champions.md
//! §1). It keeps one plan, a list of moves ending in a fire, and plays it while replaying the
//! rest from the real position gives the result it expects; otherwise it searches a new one
//! with the anytime search of `search::chokudai`, filling the time it is given. It fires the
//! earliest 13-chain (else the biggest at the earliest depth), answers a spike in the
//! opponent's immediate threat with a counter plan, holds its fire when the opponent could
//! answer bigger, and out-builds an opponent that keeps a high trigger for a counter.

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use super::plan_rules::{PlanRules, Planner, RulesConfig, Search, Why};
use super::ysai::{turn_line, TurnReport};
use super::Player;
use crate::search::chokudai::{search, ChokudaiConfig};
use crate::search::fire::Fires;
use crate::search::greedy::best_move;
use crate::search::timeman::{LateTime, TurnClock, TURN_MS};
use crate::sim::{Action, Neighbourhood, PlayerState, Position};

/// The opening plan's horizon and time, at the qualifier's 180 s + 20 s clock (scaled, as
/// every budget of this project is).
pub const RUSH_OPENING: (usize, u64) = (13, TURN_MS);
/// Below the reserve ([`crate::search::timeman::RESERVE_MS`]), every search gets a second (scaled to the turn limit:
/// the champion's fixed second, not a share of the time left) and no counter or
/// anti-counter search runs.
const SHORT_MS: u64 = 1_000;

/// What the rush partner reads: the clock, the seed of its searches' tie-breaks, `-tm`,
/// `--late-game`, and its rules (the champion's, as switched).
#[derive(Clone, Debug)]
pub struct RushConfig {
    pub turn_limit_ms: u64,
    pub seed: u64,
    pub report: bool,
    pub late_game: bool,
    pub rules: RulesConfig,
}

pub struct RushPlayer<N: Neighbourhood> {
    turn_limit_ms: u64,
    seed: u64,
    report: bool,
    late_game: bool,
    rules: PlanRules,
    neighbours: PhantomData<N>,
}

/// The rush partner's clock and searches on one turn.
struct RushTurn<'v, 'a, N> {
    view: &'v Position<'a>,
    /// Below the reserve a search gets the champion's second, or with `--late-game` a share
    /// of the time left; no search of the turn ends past the opening plan's time.
    clock: TurnClock,
    seed: u64,
    late_game: bool,
    neighbours: PhantomData<N>,
}

impl<N: Neighbourhood> RushTurn<'_, '_, N> {
    /// Enough time left for the counter rules and full-length plans.
    fn time_to_spare(&self) -> bool {
        self.clock.above_reserve()
    }

    /// How long a search with time flag `flag_ms` may take: the flag scaled to the clock.
    /// Below the reserve, whatever the flag: the short search, or with `--late-game` a share
    /// of the time left.
    fn budget(&self, flag_ms: u64) -> Duration {
        self.clock.search(flag_ms)
    }

    /// Searches `horizon` moves of `state` for at most the scaled `flag_ms` (see
    /// [`RushTurn::budget`]), ending no later than the turn, with `attack` landing after the
    /// first move, and only `first_move` tried first if given.
    fn search(
        &self,
        state: &PlayerState,
        (horizon, flag_ms): (usize, u64),
        attack: i64,
        first_move: Option<Action>,
    ) -> Fires {
        let deadline = self.clock.deadline(self.budget(flag_ms));
        let config = ChokudaiConfig {
            horizon,
            deadline: Some(deadline),
            expansions: None,
            injected: vec![attack],
            seed: self.seed ^ self.view.turn as u64,
            first_move,
        };
        search::<N>(state, self.view.packs, &config).fires
    }
}

impl<N: Neighbourhood> Planner for RushTurn<'_, '_, N> {
    fn mine(&mut self, _: Search, shape: (usize, u64), _: i64, attack: i64) -> Fires {
        self.search(self.view.me, shape, attack, None)
    }

    fn theirs(&mut self, _: Search, shape: (usize, u64), attack: i64) -> Fires {
        self.search(self.view.opponent, shape, attack, None)
    }

    fn after(&mut self, _: Search, shape: (usize, u64), first: Action) -> Fires {
        self.search(self.view.me, shape, 0, Some(first))
    }

    /// Above the reserve, and below it too with `--late-game`.
    fn counters_allowed(&self) -> bool {
        self.time_to_spare() || self.late_game
    }

    fn spare(&self) -> bool {
        self.time_to_spare()
    }

    fn can_refine(&self) -> bool {
        self.time_to_spare()
    }
}

impl<N: Neighbourhood> RushPlayer<N> {
    pub fn new(config: RushConfig) -> Self {
        RushPlayer {
            turn_limit_ms: config.turn_limit_ms,
            seed: config.seed,
            report: config.report,
            late_game: config.late_game,
            rules: PlanRules::new(config.rules),
            neighbours: PhantomData,
        }
    }

    /// This turn's clock and searches; all of them end within the opening plan's time.
    fn planner<'v, 'a>(&self, view: &'v Position<'a>, start: Instant) -> RushTurn<'v, 'a, N> {
        let late = if self.late_game {
            LateTime::Share {
                floor_ms: 0,
                fixed_work: false,
            }
        } else {
            LateTime::Fixed(SHORT_MS)
        };
        RushTurn {
            view,
            clock: TurnClock::of(view, self.turn_limit_ms, start).with_late(late),
            seed: self.seed,
            late_game: self.late_game,
            neighbours: PhantomData,
        }
    }

    fn decide(&mut self, view: &Position<'_>, start: Instant) -> (Action, Why) {
        let mut planner = self.planner(view, start);
        self.rules.note::<N>(view);
        let why = self.rules.follow::<N>(&mut planner, view);
        match self.rules.next_move::<N>(view) {
            Some(action) => (action, why),
            None => (best_move::<N>(view.me, &view.packs[0]), Why::Greedy),
        }
    }
}

impl<N: Neighbourhood> Player for RushPlayer<N> {
    fn choose(&mut self, view: &Position<'_>) -> Action {
        let start = Instant::now();
        let (action, why) = self.decide(view, start);
        if self.report {
            let report = TurnReport {
                action,
                why,
                beams: Vec::new(),
                reading: None,
                weighing: None,
                elapsed: start.elapsed(),
            };
            let mut line = turn_line(view, &report, self.rules.plan(), self.rules.threats());
            if self.rules.against_bomber() {
                line.push_str(" bomber");
            }
            eprintln!("{line}");
        }
        action
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::packs::prepared;
    use crate::params::Params;
    use crate::params::{ClockFlags, RuleFlags, RushFlags};
    use crate::player::plan_rules::{Plan, REPLAN, SPIKE_EARLY};
    use crate::search::potential::erase_potential;
    use crate::search::timeman::{Clock, LATE_SHARE, RESERVE_MS};
    use crate::sim::{Field, PreparedPack, Shift};
    use ysai_tables::chain_ojama as ojama_of;

    use crate::player::tests::{packs, view};

    #[test]
    fn plan_searches_are_scaled_to_the_clock_and_short_below_the_reserve() {
        let params = Params {
            clock: ClockFlags {
                turn_limit_ms: 5_000,
            },
            ..Params::default()
        };
        let me = PlayerState::default();
        let packs = packs([[1, 2], [3, 4]], 2);
        let at = |left| {
            let mut v = view(20, &packs, &me, &me);
            v.time_left_ms = left;
            v
        };
        let player = RushPlayer::<Shift>::new(params.rush_player());
        let ms = |left| {
            let view = at(left);
            player
                .planner(&view, Instant::now())
                .budget(REPLAN.1)
                .as_millis()
        };
        // Scaled to the clock: 15 s x 45/180, and x 20/180.
        assert_eq!(ms(45_000), 3_750);
        assert_eq!(ms(20_000), 1_666);
        // Below the 7.5 s reserve: the champion's second, scaled to the 5 s turn limit (not
        // to the time left, which would leave 38 ms).
        assert_eq!(ms(7_000), 250);
    }

    #[test]
    fn the_late_game_keeps_the_counter_rules_and_longer_searches_below_the_reserve() {
        let me = PlayerState::default();
        let packs = packs([[1, 2], [3, 4]], 2);
        let mut v = view(20, &packs, &me, &me);
        let champion = Params {
            rush: RushFlags {
                rush_late_game: false,
            },
            ..Params::default()
        };
        let mut player = RushPlayer::<Shift>::new(champion.rush_player());
        let now = Instant::now();
        v.time_left_ms = RESERVE_MS as i64;
        assert!(player.planner(&v, now).counters_allowed());
        v.time_left_ms = RESERVE_MS as i64 - 1;
        assert!(!player.planner(&v, now).counters_allowed());
        let short = player.planner(&v, now).budget(REPLAN.1);
        assert_eq!(short, Duration::from_millis(SHORT_MS));
        player.late_game = true;
        assert!(player.planner(&v, now).counters_allowed());
        let late = player.planner(&v, now).budget(REPLAN.1);
        assert_eq!(late, Duration::from_millis((RESERVE_MS - 1) / LATE_SHARE));
        assert!(late > short * 3, "{late:?} against {short:?}");
        v.time_left_ms = RESERVE_MS as i64;
        assert_eq!(
            player.planner(&v, now).budget(REPLAN.1),
            Clock::qualifier(RESERVE_MS as i64).budget(REPLAN.1),
            "above the reserve nothing changes"
        );
    }

    /// Runs a counter rule of a fresh player on `view` with its switch on, then off: it must
    /// act, and adopt a plan, exactly when on. `params` gives the parameters for "on" or
    /// "off"; the rule is given the player's rules and its planner for the turn.
    fn acts_only_when_switched_on(
        view: &Position<'_>,
        params: impl Fn(bool) -> Params,
        rule: impl Fn(&mut PlanRules, &mut RushTurn<'_, '_, Shift>) -> bool,
    ) {
        for on in [true, false] {
            let mut player = RushPlayer::<Shift>::new(params(on).rush_player());
            let mut planner = player.planner(view, Instant::now());
            assert_eq!(rule(&mut player.rules, &mut planner), on, "rule on: {on}");
            assert_eq!(player.rules.plan().is_some(), on, "rule on: {on}");
        }
    }

    #[test]
    fn a_threat_spike_is_answered_only_with_the_counter_plan_rule_on() {
        let me = PlayerState::default();
        let packs = prepared(3, 20);
        let v = view(5, &packs, &me, &me);
        let params = |on: bool| Params {
            rules: RuleFlags {
                no_counter_plan: !on,
                ..Params::DEFAULT.rules
            },
            ..Params::default()
        };
        acts_only_when_switched_on(&v, params, |rules, planner| {
            rules.threats_mut().push(0);
            rules.threats_mut().push(SPIKE_EARLY);
            rules.counter::<Shift>(planner, &v)
        });
    }

    /// A field on which a lone 3 dropped into column 1 fires a 3-chain (3 + 7, then the 9
    /// falls beside the 1, then the 5 beside the 5), and the packs that bring only 3s.
    fn three_chain_ready() -> (PlayerState, Vec<PreparedPack>) {
        let state = PlayerState {
            field: Field::from_picture(&["..95", "..72", "..51"]).unwrap(),
            ..PlayerState::default()
        };
        let packs = packs([[0, 0], [3, 0]], 20);
        let mut after = state;
        let fired = after.act::<Shift>(&packs[0], Action::Drop { x: 1, rot: 0 });
        assert_eq!((fired.chains, fired.ojama), (3, ojama_of(3)));
        assert!(fired.ojama > 0, "a fire the searches count");
        (state, packs)
    }

    #[test]
    fn fire_is_held_against_a_bigger_answer_only_with_the_hold_fire_rule_on() {
        // The plan says it fires a one-chain; I can build a 3-chain. The opponent answers
        // with a 2-chain on its third move: its third 3 in column 1 reaches the 7, and the 9
        // falls onto a 1.
        let (me, packs) = three_chain_ready();
        let opponent = PlayerState {
            field: Field::from_picture(&["..9", "..7", "..1", "..1", "..1"]).unwrap(),
            ..PlayerState::default()
        };
        let mut v = view(5, &packs, &me, &opponent);
        // At the reserve, the answer's search gets 0.8 s and the extension 2.2 s of the turn's
        // 3 s: time to find both on a loaded machine.
        v.time_left_ms = RESERVE_MS as i64;
        let plan = Plan {
            moves: vec![Action::Drop { x: 0, rot: 0 }],
            chains: 1,
            ojama: ojama_of(1),
        };
        let params = |on: bool| Params {
            rules: RuleFlags {
                no_hold_fire: !on,
                ..Params::DEFAULT.rules
            },
            ..Params::default()
        };
        acts_only_when_switched_on(&v, params, |rules, planner| {
            rules.hold_fire(planner, &v, &plan)
        });
    }

    #[test]
    fn a_high_trigger_is_outbuilt_only_with_the_outbuild_rule_on() {
        let (me, packs) = three_chain_ready();
        // Erasing the 5 lets the 8 fall onto the 2: a one-chain triggered five rows above the
        // empty column beside it.
        let opponent = PlayerState {
            field: Field::from_picture(&["1", "8", "5", "2", "1", "1", "1", "1"]).unwrap(),
            ..PlayerState::default()
        };
        let potential = erase_potential::<Shift>(&opponent.field);
        assert_eq!((potential.chain, potential.trigger), (1, Some((0, 5))));
        let v = view(5, &packs, &me, &opponent);
        let params = |on: bool| Params {
            rules: RuleFlags {
                no_outbuild: !on,
                ..Params::DEFAULT.rules
            },
            ..Params::default()
        };
        acts_only_when_switched_on(&v, params, |rules, planner| {
            rules.outbuild::<Shift>(planner, &v, 0)
        });
        let RulesConfig {
            counter_plan,
            hold_fire,
            outbuild,
            ..
        } = Params::default().rush_rules();
        assert!(counter_plan && hold_fire && outbuild, "all on by default");
    }
}
