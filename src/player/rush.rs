//! `--ai rush`: a sparring partner that plays like the probable 2019 champion (champions.md
//! §1). It keeps one plan, a list of moves ending in a fire, and plays it while replaying the
//! rest from the real position gives the result it expects; otherwise it searches a new one
//! with the anytime search of `search::chokudai`, filling the time it is given. It fires the
//! earliest 13-chain (else the biggest at the earliest depth), answers a spike in the
//! opponent's immediate threat with a counter plan, holds its fire when the opponent could
//! answer bigger, and out-builds an opponent that keeps a high trigger for a counter.

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use super::greedy::best_move;
use super::Player;
use crate::params::Params;
use crate::policy::rules::{high_trigger, Threats};
use crate::policy::{next_move, Plan};
use crate::search::chokudai::{search, ChokudaiConfig};
use crate::search::fire::Fire;
use crate::search::timeman::{at_turn_limit, Clock, RESERVE_MS};
use crate::sim::{Action, Neighbourhood, PlayerState, Position};

/// Search budgets and horizons, set for the qualifier's 180 s + 20 s clock and scaled to the
/// clock actually left, as every budget of this project is.
const OPENING: (usize, u64) = (13, 18_000);
const REPLAN: (usize, u64) = (10, 15_000);
const COUNTER: (usize, u64) = (10, 15_000);
const ANTI_COUNTER: (usize, u64) = (7, 5_000);
const EXTEND: (usize, u64) = (8, 13_000);
const OUTBUILD: (usize, u64) = (8, 15_000);
/// Below the reserve ([`RESERVE_MS`]), every search gets a second (scaled to the turn limit:
/// the champion's fixed second, not a share of the time left) and no counter or
/// anti-counter search runs.
const SHORT_MS: u64 = 1_000;
/// `--late-game`: below the reserve a search takes this share of the time left instead.
const LATE_SHARE: u64 = 8;
/// Turns up to this one plan with the opening horizon.
const OPENING_TURNS: usize = 10;
/// What a normal plan aims at: the ojama of a 13-chain.
const TARGET_OJAMA: i64 = 60;
/// What a plan against a skill builder aims at: one chain big enough to bury it (18).
const BOMBER_TARGET_OJAMA: i64 = 200;
/// On this turn an opponent gauge of this much marks a skill builder.
const BOMBER_TURN: usize = 10;
const BOMBER_GAUGE: i32 = 30;
/// A counter plan aims at this multiple of the threat (in tenths).
const COUNTER_SHARE: i64 = 15;

/// Which of the champion's counter rules run (all of them unless switched off to measure one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CounterRules {
    /// A counter plan when the opponent's threat spikes.
    plan: bool,
    /// The opponent's answer checked before firing.
    hold_fire: bool,
    /// Out-building an opponent that waits on a high trigger.
    outbuild: bool,
}

impl CounterRules {
    fn of(params: &Params) -> Self {
        CounterRules {
            plan: !params.rules.no_counter_plan,
            hold_fire: !params.rules.no_hold_fire,
            outbuild: !params.rules.no_outbuild,
        }
    }
}

pub struct RushPlayer<N: Neighbourhood> {
    turn_limit_ms: u64,
    seed: u64,
    report: bool,
    late_game: bool,
    rules: CounterRules,
    plan: Option<Plan>,
    threats: Threats,
    against_bomber: bool,
    /// The opponent potential the last out-building plan answered.
    outbuilt: Option<u32>,
    neighbours: PhantomData<N>,
}

/// How a turn's move came about, for `-tm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    Plan,
    Replan,
    Counter,
    HoldFire,
    Outbuild,
    Greedy,
}

impl<N: Neighbourhood> RushPlayer<N> {
    pub fn new(params: &Params) -> Self {
        RushPlayer {
            turn_limit_ms: params.clock.turn_limit_ms,
            seed: params.seed,
            report: params.log.turn_debug_msg,
            late_game: params.rush.rush_late_game,
            rules: CounterRules::of(params),
            plan: None,
            threats: Threats::default(),
            against_bomber: false,
            outbuilt: None,
            neighbours: PhantomData,
        }
    }

    /// The time kept back from counter rules and full-length plans, scaled to the turn limit.
    fn reserve_ms(&self) -> u64 {
        at_turn_limit(RESERVE_MS, self.turn_limit_ms)
    }

    /// Enough time left for the counter rules and full-length plans.
    fn time_to_spare(&self, view: &Position<'_>) -> bool {
        view.time_left_ms >= self.reserve_ms() as i64
    }

    /// Whether the counter and anti-counter rules run: above the reserve, and below it too
    /// with `--late-game`.
    fn counters_allowed(&self, view: &Position<'_>) -> bool {
        self.time_to_spare(view) || self.late_game
    }

    /// How long a search with time flag `flag_ms` may take: the flag scaled to the clock.
    /// Below the reserve, whatever the flag: the short search, or with `--late-game` a share
    /// of the time left.
    fn budget(&self, view: &Position<'_>, flag_ms: u64) -> Duration {
        let clock = Clock::of(view, self.turn_limit_ms);
        if self.time_to_spare(view) {
            return clock.budget(flag_ms);
        }
        let ms = if self.late_game {
            view.time_left_ms.max(0) as u64 / LATE_SHARE
        } else {
            at_turn_limit(SHORT_MS, self.turn_limit_ms)
        };
        Duration::from_millis(ms).min(clock.ceiling())
    }

    /// Searches `horizon` moves of `state` for at most the scaled `flag_ms` (see
    /// [`RushPlayer::budget`]; every shape but the anti-counter's plans my moves), ending no
    /// later than `turn_end`, with `attack` landing after the first move.
    fn search(
        &self,
        view: &Position<'_>,
        state: &PlayerState,
        shape: (usize, u64),
        attack: i64,
        turn_end: Instant,
    ) -> crate::search::chokudai::ChokudaiResult {
        let (horizon, flag_ms) = shape;
        let deadline = (Instant::now() + self.budget(view, flag_ms)).min(turn_end);
        let config = ChokudaiConfig {
            horizon,
            deadline: Some(deadline),
            expansions: None,
            injected: vec![attack],
            seed: self.seed ^ view.turn as u64,
        };
        search::<N>(state, view.packs, &config)
    }

    fn adopt(&mut self, fire: Option<&Fire>) -> bool {
        self.plan = fire.map(|f| Plan {
            moves: f.path.clone(),
            chains: f.chains,
            ojama: f.ojama,
        });
        self.plan.is_some()
    }

    fn target(&self) -> i64 {
        if self.against_bomber {
            BOMBER_TARGET_OJAMA
        } else {
            TARGET_OJAMA
        }
    }

    fn replan(&mut self, view: &Position<'_>, turn_end: Instant) {
        let shape = if view.turn <= OPENING_TURNS {
            OPENING
        } else {
            REPLAN
        };
        let result = self.search(view, view.me, shape, 0, turn_end);
        let target = self.target();
        self.adopt(result.fires.choose(target));
    }

    /// Answers a new spike in the opponent's threat with a plan that sends 1.5 times as much.
    fn counter(&mut self, view: &Position<'_>, turn_end: Instant) -> bool {
        if !self.rules.plan {
            return false;
        }
        let Some(threat) = self.threats.spike(view.turn) else {
            return false;
        };
        let result = self.search(view, view.me, COUNTER, threat, turn_end);
        self.adopt(result.fires.choose(threat * COUNTER_SHARE / 10))
    }

    /// The plan fires now: would the opponent, my attack in its stock, answer bigger? Then
    /// build on for the biggest chain within reach instead.
    fn hold_fire(&mut self, view: &Position<'_>, plan: &Plan, turn_end: Instant) -> bool {
        if !self.rules.hold_fire {
            return false;
        }
        let attack = (plan.ojama - view.me.ojama).max(0);
        let theirs = self.search(view, view.opponent, ANTI_COUNTER, attack, turn_end);
        let answer = theirs
            .fires
            .by_depth
            .iter()
            .flatten()
            .map(|f| f.chains)
            .max();
        if answer.is_none_or(|c| c < plan.chains + 1) {
            return false;
        }
        let result = self.search(view, view.me, EXTEND, 0, turn_end);
        self.adopt(result.fires.choose(i64::MAX))
    }

    /// An opponent keeping a high trigger is waiting to counter: out-build it.
    fn outbuild(&mut self, view: &Position<'_>, plan_chains: u32, turn_end: Instant) -> bool {
        if !self.rules.outbuild {
            return false;
        }
        let Some(potential) = high_trigger::<N>(&view.opponent.field) else {
            return false;
        };
        if plan_chains >= potential + 2 || self.outbuilt == Some(potential) {
            return false;
        }
        self.outbuilt = Some(potential);
        let result = self.search(view, view.me, OUTBUILD, 0, turn_end);
        self.adopt(result.fires.choose(i64::MAX))
    }

    fn decide(&mut self, view: &Position<'_>) -> (Action, Why) {
        let start = Instant::now();
        let turn_end = start + self.budget(view, OPENING.1);
        self.threats.note::<N>(view);
        if view.turn == BOMBER_TURN && view.opponent.gauge >= BOMBER_GAUGE && !self.against_bomber {
            self.against_bomber = true;
            self.plan = None;
        }
        let spare = self.time_to_spare(view);
        let counters = self.counters_allowed(view);
        let mut why = Why::Plan;
        if counters && self.counter(view, turn_end) {
            why = Why::Counter;
        } else if !self
            .plan
            .as_ref()
            .is_some_and(|p| p.replays::<N>(view.me, view.packs))
        {
            self.replan(view, turn_end);
            why = Why::Replan;
        } else if let Some(plan) = self.plan.clone().filter(|p| counters && p.moves.len() == 1) {
            if self.hold_fire(view, &plan, turn_end) {
                why = Why::HoldFire;
            }
        }
        if let Some(chains) = self.plan.as_ref().map(|p| p.chains).filter(|_| spare) {
            if self.outbuild(view, chains, turn_end) {
                why = Why::Outbuild;
            }
        }
        match next_move::<N>(&mut self.plan, view.me, &view.packs[0]) {
            Some(action) => (action, why),
            None => (best_move::<N>(view.me, &view.packs[0]), Why::Greedy),
        }
    }
}

impl<N: Neighbourhood> Player for RushPlayer<N> {
    fn choose(&mut self, view: &Position<'_>) -> Action {
        let start = Instant::now();
        let (action, why) = self.decide(view);
        if self.report {
            eprintln!("{}", turn_line(view, action, why, self, start.elapsed()));
        }
        action
    }
}

/// `-tm`: turn, clock, why, the move, the plan's remaining length and expected chain, and
/// the opponent's latest threat.
fn turn_line<N: Neighbourhood>(
    view: &Position<'_>,
    action: Action,
    why: Why,
    player: &RushPlayer<N>,
    elapsed: Duration,
) -> String {
    let plan = player.plan.as_ref().map_or("-".to_string(), |p| {
        format!(
            "{} moves to {} ({} ojama)",
            p.moves.len(),
            p.chains,
            p.ojama
        )
    });
    format!(
        "Turn {} timeleft {} elapsed {} {:?} {} plan {} threat {}{}",
        view.turn,
        view.time_left_ms,
        elapsed.as_millis(),
        why,
        action,
        plan,
        player.threats.latest(),
        if player.against_bomber { " bomber" } else { "" },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::packs::{generate, Signature};
    use crate::params::{ClockFlags, RuleFlags, RushFlags};
    use crate::policy::rules::SPIKE_EARLY;
    use crate::search::potential::erase_potential;
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
        let player = RushPlayer::<Shift>::new(&params);
        let ms = |left| player.budget(&at(left), REPLAN.1).as_millis();
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
        let mut player = RushPlayer::<Shift>::new(&champion);
        v.time_left_ms = RESERVE_MS as i64;
        assert!(player.counters_allowed(&v));
        v.time_left_ms = RESERVE_MS as i64 - 1;
        assert!(!player.counters_allowed(&v));
        let short = player.budget(&v, REPLAN.1);
        assert_eq!(short, Duration::from_millis(SHORT_MS));
        player.late_game = true;
        assert!(player.counters_allowed(&v));
        let late = player.budget(&v, REPLAN.1);
        assert_eq!(late, Duration::from_millis((RESERVE_MS - 1) / LATE_SHARE));
        assert!(late > short * 3, "{late:?} against {short:?}");
        v.time_left_ms = RESERVE_MS as i64;
        assert_eq!(
            player.budget(&v, REPLAN.1),
            Clock::qualifier(RESERVE_MS as i64).budget(REPLAN.1),
            "above the reserve nothing changes"
        );
    }

    /// Runs a counter rule on a fresh player with its switch on, then off: it must act, and
    /// adopt a plan, exactly when on. `params` gives the parameters for "on" or "off".
    fn acts_only_when_switched_on(
        params: impl Fn(bool) -> Params,
        rule: impl Fn(&mut RushPlayer<Shift>) -> bool,
    ) {
        for on in [true, false] {
            let mut player = RushPlayer::<Shift>::new(&params(on));
            assert_eq!(rule(&mut player), on, "rule on: {on}");
            assert_eq!(player.plan.is_some(), on, "rule on: {on}");
        }
    }

    #[test]
    fn a_threat_spike_is_answered_only_with_the_counter_plan_rule_on() {
        let me = PlayerState::default();
        let packs: Vec<PreparedPack> = generate(3, Signature::Measured)[..20]
            .iter()
            .map(|&p| PreparedPack::new(p))
            .collect();
        let v = view(5, &packs, &me, &me);
        let params = |on: bool| Params {
            rules: RuleFlags {
                no_counter_plan: !on,
                ..Params::DEFAULT.rules
            },
            ..Params::default()
        };
        acts_only_when_switched_on(params, |player| {
            player.threats.push(0);
            player.threats.push(SPIKE_EARLY);
            player.counter(&v, Instant::now() + Duration::from_millis(500))
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
        // The plan says it fires a one-chain; the opponent answers with a 3-chain, and I can
        // build one too.
        let (me, packs) = three_chain_ready();
        let mut v = view(5, &packs, &me, &me);
        // Late in the game each search gets an eighth of the 8 s left: both fit in the turn,
        // with time to find the answer on a loaded machine.
        v.time_left_ms = 8_000;
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
        acts_only_when_switched_on(params, |player| {
            player.hold_fire(&v, &plan, Instant::now() + Duration::from_secs(3))
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
        acts_only_when_switched_on(params, |player| {
            player.outbuild(&v, 0, Instant::now() + Duration::from_millis(300))
        });
        assert_eq!(
            CounterRules::of(&Params::default()),
            CounterRules {
                plan: true,
                hold_fire: true,
                outbuild: true,
            }
        );
    }
}
