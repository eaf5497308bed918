//! The plan and the rules around it, written once for every player that follows a plan:
//! ysai's turn (its plans come from the beam) and the rush partner (from the anytime search).
//! A plan is followed while the rest of it, played from the real position, still fires its
//! chain; else a new one is searched. Around it, the champion's rules (champions.md §1):
//! fire the earliest 13-chain (else the biggest at the earliest depth), answer a spike in the
//! opponent's threat with a counter plan, hold fire when the opponent could answer bigger,
//! out-build an opponent waiting on a high trigger; and ysai's own: search a followed plan
//! again with the time a turn has to spare.
//!
//! The rules only ask for plan searches ([`Planner`]); how each player searches, and how long
//! its clock lets it, is its own.

mod plan;
mod race;
mod threats;

use crate::search::fire::Fires;
use crate::sim::{Action, Neighbourhood, Position};
pub use plan::{next_move, Plan, READY_MOVES};
pub use threats::{best_immediate_ojama, high_trigger, Threats, SPIKE_EARLY, SPIKE_LATE};

/// How this turn's move came about, for `-tm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    Plan,
    Replan,
    Counter,
    HoldFire,
    Outbuild,
    /// A search from this turn's position found a better fire than the plan's.
    Refine,
    /// A rule would have traded the ready plan for a longer one; the plan was kept
    /// ([`RulesConfig::keep_ready`]).
    Ready,
    /// The plan fires although the opponent could answer longer: my rebuild offsets that
    /// answer ([`RulesConfig::rebuild_race`]).
    Raced,
    /// No plan: the move that sends the most now.
    Greedy,
    /// The full search overruled the plan.
    Lethal,
    Survive,
    /// The exchange reader chose the move.
    Exchange,
}

/// Plan searches: moves searched at most and their time at the qualifier's clock (scaled).
pub const COUNTER: (usize, u64) = (10, 15_000);
/// The opponent's answer to my fire, searched before firing.
pub const ANSWER: (usize, u64) = (7, 5_000);
pub const EXTEND: (usize, u64) = (8, 13_000);
pub const OUTBUILD: (usize, u64) = (8, 15_000);
/// A replan after the opening (the rush partner's; ysai's depth is `-nbd`).
pub const REPLAN: (usize, u64) = (10, 15_000);
/// Turns up to this one plan with the opening's shape.
pub const OPENING_TURNS: usize = 10;
/// What a plan aims at: the ojama of a 13-chain.
pub const TARGET_OJAMA: i64 = 60;
/// What a plan against a skill builder aims at: one chain big enough to bury it.
const BOMBER_TARGET_OJAMA: i64 = 200;
/// On this turn an opponent gauge of this much marks a skill builder.
const BOMBER_TURN: usize = 10;
const BOMBER_GAUGE: i32 = 30;
/// A counter plan aims at this multiple of the threat (in tenths).
const COUNTER_SHARE: i64 = 15;

/// Which plan search a rule asks for: its label in `-tm`, and for ysai the widths it starts
/// from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// The opening's plan (up to `OPENING_TURNS`).
    Open,
    Plan,
    Counter,
    /// The opponent's answer to my fire.
    Answer,
    Extend,
    Outbuild,
    /// A side's fires at each depth with nothing coming, for the exchange reader.
    Race,
    /// My plan searched again while it is followed.
    Refine,
    /// My fires after the plan's fire, for the race the fire starts.
    Rebuild,
}

impl Search {
    pub fn label(self) -> &'static str {
        match self {
            Search::Open => "open",
            Search::Plan => "plan",
            Search::Counter => "counter",
            Search::Answer => "answer",
            Search::Extend => "extend",
            Search::Outbuild => "outbuild",
            Search::Race => "race",
            Search::Refine => "refine",
            Search::Rebuild => "rebuild",
        }
    }
}

/// Which rules run, and the shapes (moves, time at the qualifier's clock) of the plans a
/// player's own flags set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesConfig {
    /// A counter plan when the opponent's threat spikes.
    pub counter_plan: bool,
    /// The opponent's answer checked before firing.
    pub hold_fire: bool,
    /// The fire held only when the opponent's answer wins the race the fire starts: searched
    /// past the turns my rows take to land, against my rebuild (`plan_rules/race.rs`). Else, the
    /// champion's test: any longer answer within `ANSWER`.
    pub rebuild_race: bool,
    /// Out-building an opponent that waits on a high trigger.
    pub outbuild: bool,
    /// The plan searched up to `OPENING_TURNS`, and after.
    pub opening: (usize, u64),
    pub replan: (usize, u64),
    /// A followed plan searched again every turn, if at all.
    pub refine: Option<(usize, u64)>,
    /// A ready chain ([`Plan::ready`]) is not traded for a longer plan unless the opponent
    /// has to wait for it.
    pub keep_ready: bool,
}

/// A player's plan searches from the turn's position, as the rules ask for them.
pub trait Planner {
    /// My fires within `shape`, aiming at `target`, `attack` landing in my stock after my
    /// first move.
    fn mine(&mut self, kind: Search, shape: (usize, u64), target: i64, attack: i64) -> Fires;
    /// The opponent's fires within `shape`, my `attack` landing in its stock after its first
    /// move.
    fn theirs(&mut self, kind: Search, shape: (usize, u64), attack: i64) -> Fires;
    /// My fires within `shape` when `first` is my first move (`by_depth[0]` is its own fire).
    fn after(&mut self, kind: Search, shape: (usize, u64), first: Action) -> Fires;
    /// Whether the counter-plan and hold-fire rules run this turn.
    fn counters_allowed(&self) -> bool;
    /// Whether the clock has time to spare for out-building.
    fn spare(&self) -> bool;
    /// Whether the clock leaves time to search a followed plan again.
    fn can_refine(&self) -> bool;
}

/// The plan being followed and what the rules remember between turns.
#[derive(Clone, Debug)]
pub struct PlanRules {
    config: RulesConfig,
    plan: Option<Plan>,
    threats: Threats,
    against_bomber: bool,
    /// The opponent potential the last out-building plan answered.
    outbuilt: Option<u32>,
    /// This turn a rule would have traded the ready plan for a longer one, and did not.
    kept_ready: bool,
    /// This turn the plan fires into a longer answer that my rebuild offsets.
    raced: bool,
}

impl PlanRules {
    pub fn new(config: RulesConfig) -> Self {
        PlanRules {
            config,
            plan: None,
            threats: Threats::default(),
            against_bomber: false,
            outbuilt: None,
            kept_ready: false,
            raced: false,
        }
    }

    /// The plan being followed, if any.
    pub fn plan(&self) -> Option<&Plan> {
        self.plan.as_ref()
    }

    /// Follows `plan` from now on (none: the next turn plans anew).
    pub fn set_plan(&mut self, plan: Option<Plan>) {
        self.plan = plan;
    }

    pub fn threats(&self) -> &Threats {
        &self.threats
    }

    #[cfg(test)]
    pub fn threats_mut(&mut self) -> &mut Threats {
        &mut self.threats
    }

    pub fn against_bomber(&self) -> bool {
        self.against_bomber
    }

    /// Reads the opponent as a turn starts: its threat, and on the bomber turn whether it
    /// builds its skill (a plan against it aims at one big chain; a ready chain still fires).
    pub fn note<N: Neighbourhood>(&mut self, view: &Position<'_>) {
        self.kept_ready = false;
        self.raced = false;
        self.threats.note::<N>(view);
        if view.turn == BOMBER_TURN && view.opponent.gauge >= BOMBER_GAUGE && !self.against_bomber {
            self.against_bomber = true;
            if self.config.keep_ready && self.plan.as_ref().is_some_and(Plan::ready) {
                self.kept_ready = true;
            } else {
                self.plan = None;
            }
        }
    }

    /// Whether, this turn, a rule would have traded the ready plan for a longer one.
    pub fn kept_ready(&self) -> bool {
        self.kept_ready
    }

    /// The rules of a turn after [`PlanRules::note`]: a counter plan, else a replan when the
    /// plan no longer fires, else holding fire or refining; then out-building.
    pub fn follow<N: Neighbourhood>(
        &mut self,
        planner: &mut impl Planner,
        view: &Position<'_>,
    ) -> Why {
        let counters = planner.counters_allowed();
        let mut why = Why::Plan;
        if counters && self.counter::<N>(planner, view) {
            why = Why::Counter;
        } else if !self
            .plan
            .as_ref()
            .is_some_and(|p| p.replays::<N>(view.me, view.packs))
        {
            self.replan(planner, view);
            why = Why::Replan;
        } else if let Some(plan) = self.plan.clone().filter(|p| p.moves.len() == 1) {
            if counters && self.hold_fire(planner, view, &plan) {
                why = Why::HoldFire;
            }
        } else if self.refine(planner) {
            why = Why::Refine;
        }
        if let Some(chains) = self.plan.as_ref().map(|p| p.chains) {
            if planner.spare() && self.outbuild::<N>(planner, view, chains) {
                why = Why::Outbuild;
            }
        }
        if why == Why::Plan && self.kept_ready {
            why = Why::Ready;
        } else if why == Why::Plan && self.raced {
            why = Why::Raced;
        }
        why
    }

    /// The plan's next move if it is legal and survives the turn (see [`next_move`]).
    pub fn next_move<N: Neighbourhood>(&mut self, view: &Position<'_>) -> Option<Action> {
        next_move::<N>(&mut self.plan, view.me, &view.packs[0])
    }

    fn adopt(&mut self, fires: &Fires, target_ojama: i64) -> bool {
        self.plan = fires.choose(target_ojama).map(Plan::of);
        self.plan.is_some()
    }

    fn target(&self) -> i64 {
        if self.against_bomber {
            BOMBER_TARGET_OJAMA
        } else {
            TARGET_OJAMA
        }
    }

    /// A new plan, with the opening's shape up to `OPENING_TURNS`.
    pub fn replan(&mut self, planner: &mut impl Planner, view: &Position<'_>) {
        let (kind, shape) = if view.turn <= OPENING_TURNS {
            (Search::Open, self.config.opening)
        } else {
            (Search::Plan, self.config.replan)
        };
        let target = self.target();
        let fires = planner.mine(kind, shape, target, 0);
        self.adopt(&fires, target);
    }

    /// Answers a new spike in the opponent's threat with a plan that sends 1.5 times as much,
    /// unless the plan is a ready chain that meets the threat itself.
    pub fn counter<N: Neighbourhood>(
        &mut self,
        planner: &mut impl Planner,
        view: &Position<'_>,
    ) -> bool {
        if !self.config.counter_plan {
            return false;
        }
        let Some(threat) = self.threats.spike(view.turn) else {
            return false;
        };
        let plan = self.plan.as_ref().filter(|_| self.config.keep_ready);
        if plan.is_some_and(|p| p.meets::<N>(view.me, view.packs, threat)) {
            self.kept_ready = true;
            return false;
        }
        let target = threat * COUNTER_SHARE / 10;
        let fires = planner.mine(Search::Counter, COUNTER, target, threat);
        self.adopt(&fires, target)
    }

    /// The plan fires now: would the opponent, my attack in its stock, answer bigger, and not
    /// before my next move? With the rebuild race, only if that answer would still land a row
    /// on me after my rebuild. Then build on for the biggest chain within reach instead.
    pub fn hold_fire(
        &mut self,
        planner: &mut impl Planner,
        view: &Position<'_>,
        plan: &Plan,
    ) -> bool {
        if !self.config.hold_fire {
            return false;
        }
        let attack = (plan.ojama - view.me.ojama).max(0);
        let shape = if self.config.rebuild_race {
            race::RACE_ANSWER
        } else {
            ANSWER
        };
        let answer = planner.theirs(Search::Answer, shape, attack);
        // A bigger chain the opponent fires this move or the next does not wait for mine:
        // holding would only hand it the first fire.
        let first = if self.config.keep_ready {
            READY_MOVES
        } else {
            0
        };
        let Some(bigger) = answer.earliest_chain(plan.chains + 1) else {
            return false;
        };
        if bigger < first {
            self.kept_ready = true;
            return false;
        }
        if self.config.rebuild_race {
            let rebuild = planner.after(Search::Rebuild, race::REBUILD, plan.moves[0]);
            if !race::answer_outraces(&answer, &rebuild, attack, plan.chains, first) {
                self.raced = true;
                return false;
            }
        }
        let fires = planner.mine(Search::Extend, EXTEND, i64::MAX, 0);
        self.adopt(&fires, i64::MAX)
    }

    /// The plan fires later than this move: searches again from here, its horizon a move
    /// further on, and takes what [`Plan::refined_by`] finds better.
    fn refine(&mut self, planner: &mut impl Planner) -> bool {
        let Some((depth, refine_ms)) = self.config.refine else {
            return false;
        };
        let Some(moves) = self.plan.as_ref().map(|p| p.moves.len()).filter(|&m| m > 1) else {
            return false;
        };
        if !planner.can_refine() {
            return false;
        }
        let target = self.target();
        let fires = planner.mine(Search::Refine, (depth.max(moves), refine_ms), target, 0);
        let better = self
            .plan
            .as_ref()
            .and_then(|p| p.refined_by(&fires, target, self.config.keep_ready));
        let Some(better) = better.map(Plan::of) else {
            return false;
        };
        self.plan = Some(better);
        true
    }

    /// An opponent keeping a high trigger is waiting to counter: out-build it.
    pub fn outbuild<N: Neighbourhood>(
        &mut self,
        planner: &mut impl Planner,
        view: &Position<'_>,
        plan_chains: u32,
    ) -> bool {
        if !self.config.outbuild {
            return false;
        }
        let Some(potential) = high_trigger::<N>(&view.opponent.field) else {
            return false;
        };
        if plan_chains >= potential + 2 || self.outbuilt == Some(potential) {
            return false;
        }
        self.outbuilt = Some(potential);
        let fires = planner.mine(Search::Outbuild, OUTBUILD, i64::MAX, 0);
        self.adopt(&fires, i64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::threats::SPIKE_LATE;
    use super::*;
    use crate::arena::packs::prepared;
    use crate::params::Params;
    use crate::search::beam::{BeamConfig, BeamRoot};
    use crate::search::fire::tests::{fire, fires};
    use crate::search::fire::Fire;
    use crate::search::widen::{search_fires, PlanSearch};
    use crate::sim::{PlayerState, PreparedPack, Shift};
    use std::time::{Duration, Instant};
    use ysai_tables::chain_ojama;

    /// A planner that answers every search with the fires it is given and notes what was asked.
    #[derive(Default)]
    struct Scripted {
        mine: Fires,
        theirs: Fires,
        after: Fires,
        asked: Vec<Search>,
    }

    impl Planner for Scripted {
        fn mine(&mut self, kind: Search, _: (usize, u64), _: i64, _: i64) -> Fires {
            self.asked.push(kind);
            self.mine.clone()
        }
        fn theirs(&mut self, kind: Search, _: (usize, u64), _: i64) -> Fires {
            self.asked.push(kind);
            self.theirs.clone()
        }
        fn after(&mut self, kind: Search, _: (usize, u64), _: Action) -> Fires {
            self.asked.push(kind);
            self.after.clone()
        }
        fn counters_allowed(&self) -> bool {
            true
        }
        fn spare(&self) -> bool {
            true
        }
        fn can_refine(&self) -> bool {
            true
        }
    }

    /// ysai's rules, with ready chains kept or not.
    fn rules(keep_ready: bool) -> RulesConfig {
        RulesConfig {
            keep_ready,
            ..Params::default().ysai_rules()
        }
    }

    fn view<'a>(turn: usize, packs: &'a [PreparedPack], me: &'a PlayerState) -> Position<'a> {
        Position {
            turn,
            packs,
            me,
            opponent: me,
            time_left_ms: 180_000,
        }
    }

    /// A position `moves` moves before a chain of at least `ojama` fires, its packs and the
    /// plan that fires it: found by a beam from an empty field.
    fn ready_chain(ojama: i64, moves: usize) -> (PlayerState, Vec<PreparedPack>, Plan) {
        let packs = prepared(5, 40);
        let root = BeamRoot {
            state: PlayerState::default(),
            enemy_ojama: 0,
            packs: &packs,
        };
        let search = PlanSearch {
            beam: BeamConfig::new(16, 400, 100),
            target_ojama: ojama,
            deadline: Instant::now() + Duration::from_secs(120),
            widen: false,
        };
        let (found, _) = search_fires::<Shift>("t", root, &search);
        let chain = found.choose(ojama).expect("a fire").clone();
        assert!(chain.ojama >= ojama, "{chain:?}");
        let (before, last) = chain.path.split_at(chain.path.len() - moves);
        let mut me = PlayerState::default();
        for (pack, &action) in packs.iter().zip(before) {
            me = me.play::<Shift>(pack, action).0;
        }
        let plan = Plan {
            moves: last.to_vec(),
            chains: chain.chains,
            ojama: chain.ojama,
        };
        let packs = packs[before.len()..].to_vec();
        assert!(plan.replays::<Shift>(&me, &packs));
        (me, packs, plan)
    }

    #[test]
    fn fire_is_held_against_a_bigger_answer_only_when_the_opponent_must_wait_for_mine() {
        let me = PlayerState::default();
        let packs = [];
        let view = view(20, &packs, &me);
        let plan = Plan::of(&fire(1, 13));
        let extension = fires(&[None, None, None, Some(fire(4, 16))]);
        let hold_with = |keep_ready: bool, answer: &[Option<Fire>]| {
            let mut rules = PlanRules::new(rules(keep_ready));
            let mut planner = Scripted {
                mine: extension.clone(),
                theirs: fires(answer),
                ..Scripted::default()
            };
            let held = rules.hold_fire(&mut planner, &view, &plan);
            assert_eq!(held, rules.plan().is_some_and(|p| p.chains == 16));
            let waited = answer.iter().flatten().any(|f| f.chains > 13);
            assert_eq!(rules.kept_ready(), keep_ready && waited && !held);
            held
        };
        let hold = |answer: &[Option<Fire>]| hold_with(true, answer);
        assert!(!hold(&[None, None, Some(fire(3, 13))]), "no bigger answer");
        assert!(
            hold(&[None, None, Some(fire(3, 14))]),
            "it must wait two moves"
        );
        assert!(!hold(&[None, Some(fire(2, 14))]), "ready next move");
        assert!(!hold(&[Some(fire(1, 15)), Some(fire(2, 16))]), "ready now");
        assert!(hold_with(false, &[Some(fire(1, 15))]), "keep_ready off");
    }

    #[test]
    fn with_the_rebuild_race_fire_is_held_only_against_an_answer_my_rebuild_cannot_offset() {
        let me = PlayerState::default();
        let packs = [];
        let view = view(20, &packs, &me);
        let plan = Plan::of(&fire(1, 13));
        // The opponent answers with a 14 on its tenth move, after my six rows have fallen.
        let mut late = vec![None; 10];
        late[9] = Some(fire(10, 14));
        let hold_with = |race: bool, rebuild: &[Option<Fire>]| {
            let config = RulesConfig {
                rebuild_race: race,
                ..rules(true)
            };
            let mut rules = PlanRules::new(config);
            let mut planner = Scripted {
                mine: fires(&[None, None, None, Some(fire(4, 16))]),
                theirs: fires(&late),
                after: fires(rebuild),
                ..Scripted::default()
            };
            let held = rules.hold_fire(&mut planner, &view, &plan);
            assert_eq!(
                planner.asked.contains(&Search::Rebuild),
                race,
                "the rebuild is searched only for the race"
            );
            assert_eq!(rules.raced, race && !held);
            held
        };
        let no_rebuild = [Some(fire(1, 13))];
        let rebuilt_12 = [Some(fire(1, 13)), None, None, None, None, Some(fire(6, 12))];
        let rebuilt_14 = [Some(fire(1, 13)), None, None, None, None, Some(fire(6, 14))];
        assert!(hold_with(true, &no_rebuild), "79 lands");
        assert!(hold_with(true, &rebuilt_12), "79 - 45 lands");
        assert!(!hold_with(true, &rebuilt_14), "79 - 79 lands nothing");
        assert!(
            hold_with(false, &rebuilt_14),
            "the champion's test holds on any longer answer"
        );
    }

    #[test]
    fn a_ready_chain_that_meets_a_threat_spike_is_not_traded_for_a_counter_plan() {
        let counter_with = |keep_ready: bool, moves: usize, threat: i64| {
            let (me, packs, plan) = ready_chain(chain_ojama(11), moves);
            let view = view(20, &packs, &me);
            let mut rules = PlanRules::new(rules(keep_ready));
            rules.set_plan(Some(plan.clone()));
            rules.threats_mut().push(0);
            rules.threats_mut().push(threat);
            let mut planner = Scripted {
                mine: fires(&[None, None, Some(fire(3, 15))]),
                ..Scripted::default()
            };
            let countered = rules.counter::<Shift>(&mut planner, &view);
            assert_eq!(countered, planner.asked == [Search::Counter]);
            assert_eq!(rules.kept_ready(), !countered);
            assert_eq!(countered, rules.plan().is_some_and(|p| p.chains == 15));
            (countered, plan.ojama)
        };
        let counter = |moves, threat| counter_with(true, moves, threat);
        let (countered, ojama) = counter(1, SPIKE_LATE);
        assert!(!countered, "a chain of {ojama} fires now");
        assert!(counter_with(false, 1, SPIKE_LATE).0, "keep_ready off");
        assert!(counter(1, ojama + 1).0, "a smaller chain is countered");
        assert!(counter(READY_MOVES + 1, SPIKE_LATE).0, "not ready");
        // Fired on the next move, it meets a threat only if no row of it falls first.
        let (me, packs, plan) = ready_chain(chain_ojama(11), 2);
        let row = crate::sim::game::OJAMA_ROW;
        assert!(plan.meets::<Shift>(&me, &packs, row - 1));
        assert!(!plan.meets::<Shift>(&me, &packs, row), "the row breaks it");
    }

    #[test]
    fn a_turn_that_keeps_a_ready_chain_against_a_rule_says_so() {
        let (me, packs, plan) = ready_chain(chain_ojama(11), 1);
        let empty = PlayerState::default();
        let view = Position {
            opponent: &empty,
            ..view(20, &packs, &me)
        };
        for (keep_ready, why) in [(true, Why::Ready), (false, Why::HoldFire)] {
            let mut rules = PlanRules::new(rules(keep_ready));
            rules.set_plan(Some(plan.clone()));
            let mut planner = Scripted {
                mine: fires(&[None, None, Some(fire(3, plan.chains + 3))]),
                theirs: fires(&[None, Some(fire(2, plan.chains + 1))]),
                ..Scripted::default()
            };
            rules.note::<Shift>(&view);
            assert_eq!(rules.follow::<Shift>(&mut planner, &view), why);
        }
    }

    #[test]
    fn on_the_bomber_turn_a_ready_chain_is_kept_and_any_other_plan_dropped() {
        let me = PlayerState::default();
        let opponent = PlayerState {
            gauge: BOMBER_GAUGE,
            ..PlayerState::default()
        };
        let packs = prepared(5, 2);
        let view = Position {
            opponent: &opponent,
            ..view(BOMBER_TURN, &packs, &me)
        };
        let cases = [(true, READY_MOVES, true), (true, READY_MOVES + 1, false)];
        for (keep_ready, moves, kept) in cases.into_iter().chain([(false, 1, false)]) {
            let mut rules = PlanRules::new(rules(keep_ready));
            rules.set_plan(Some(Plan::of(&fire(moves, 13))));
            rules.note::<Shift>(&view);
            assert!(rules.against_bomber());
            assert_eq!(rules.plan().is_some(), kept, "{moves} moves, {keep_ready}");
            assert_eq!(rules.kept_ready(), kept);
        }
    }
}
