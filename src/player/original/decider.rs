//! The original's turn (`--style original`, reference §8): the first plan, the counter-attack analysis (§9e),
//! the per-turn, enemy, safety and skill beams (§9b, 9f, 9g), the enemy's and my full searches
//! (§9c, 9d), and the choice between the beam's move and the search's (§9h), every part inside
//! a time budget scaled to the clock (§9i).

use std::cell::RefCell;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

use ysai_tables::chain_ojama;

use crate::search::beam::{
    search as beam_search, BeamConfig, BeamEval, BeamResult, BeamRoot, Injection, Target, TurnBeam,
};
use crate::search::enemy::{self, EnemyLine, StatusTable, ANY};
use crate::search::eval::{terms, CounterVerdict, EvalContext, Line, SafetyBonus, MAX_DEPTH};
use crate::search::full::{FullSearch, FullSearchConfig, RootValues, LOST, TRUSTED_TURNS};
use crate::search::greedy::survives;
use crate::search::plan::TrackedPlan;
use crate::search::timeman::{search_depths, TurnClock};
use crate::search::tt::TranspositionTable;
use crate::search::widen::BeamNote;
use crate::sim::game::OJAMA_ROW;
use crate::sim::{Action, Neighbourhood, PlayerState, Position, PreparedPack};

mod helpers;

/// "Not reachable" in the earliest-chain tables of the skill decision.
const NEVER: usize = 1000;
/// The counter analysis runs only when my best chain now is at least this long.
const COUNTER_MIN_CHAIN: u32 = 7;
/// Depth of the counter analysis's second beam.
const COUNTER_BEAM_DEPTH: usize = 10;
/// Above this chain a first move is penalised when the enemy's counter is bigger.
const COUNTER_PENALTY_CHAIN: u32 = 5;
/// Plies searched to find the move that survives longest when every move loses.
const SURVIVAL_PLIES: usize = 3;

/// Why the move was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The first plan, in its trusted opening window.
    Plan,
    /// The plan's move, kept after the search.
    PlanKept,
    /// The per-turn or skill beam's move, close enough to the search's best.
    Beam,
    /// The full search's best move.
    Search,
    /// Every move loses: the one that survives longest.
    Survival,
}

/// What the AI decided and why: the answer and what `-tm` prints.
#[derive(Clone, Debug)]
pub struct Decision {
    pub action: Action,
    pub reason: Reason,
    pub my_first_chain: u32,
    pub enemy_first_chain: u32,
    pub value: f64,
    pub beam_value: Option<f64>,
    pub depths: (usize, usize),
    pub skill_mode: bool,
    pub situation_changed: bool,
    pub elapsed: Duration,
    /// The plan was given up this turn.
    pub plan_cancelled: bool,
    /// The counter analysis's verdict, when it ran its beams.
    pub counter: Option<CounterVerdict>,
    /// Every beam of the turn, in the order they ran.
    pub beams: Vec<BeamNote>,
    /// Positions the enemy's and my full search valued at their deepest finished depth.
    pub nodes: (u64, u64),
    /// Time the enemy's and my full search took, every depth they deepened through included.
    pub search_times: (Duration, Duration),
    /// What only `-m` asks for (computed only then).
    pub detail: Option<Detail>,
}

/// `-m`: the line the search expects after the chosen move, the state after each of its
/// moves, and the evaluation of its last state term by term.
#[derive(Clone, Debug)]
pub struct Detail {
    pub line: Vec<(Action, Line)>,
    pub terms: Vec<(&'static str, f64)>,
}

/// What was assumed at the end of the last turn, to notice that the game took a turn nobody
/// planned for (§9g).
#[derive(Clone, Copy, Debug, Default)]
struct Situation {
    stock: [i64; 2],
    field_ojama: [u32; 2],
    score: [i64; 2],
}

impl Situation {
    fn expect_after(players: [&PlayerState; 2]) -> Self {
        let mut next = Situation::default();
        for (i, p) in players.iter().enumerate() {
            let falls = p.ojama >= OJAMA_ROW;
            next.stock[i] = if falls { p.ojama - OJAMA_ROW } else { p.ojama };
            next.field_ojama[i] =
                p.field.ojama().popcount() + if falls { OJAMA_ROW as u32 } else { 0 };
            next.score[i] = p.score;
        }
        next
    }

    fn changed(&self, players: [&PlayerState; 2]) -> bool {
        players.iter().enumerate().any(|(i, p)| {
            self.stock[i] / OJAMA_ROW != p.ojama / OJAMA_ROW
                || self.field_ojama[i] != p.field.ojama().popcount()
                || self.score[i] + 10 <= p.score
        })
    }
}

/// A helper beam's shape: its depth, widths, and time at the qualifier's clock (scaled).
#[derive(Clone, Copy, Debug)]
pub struct HelperBeam {
    pub depth: usize,
    pub width: usize,
    pub chain_width: usize,
    pub ms: u64,
}

impl HelperBeam {
    fn beam(&self) -> BeamConfig {
        BeamConfig::new(self.depth, self.width, self.chain_width)
    }
}

/// What the original's turn reads: its full searches, the first and per-turn beams, the
/// helper beams (counter analysis, enemy, safety, skill), the switches and margins of its
/// decision (§9), the clock, and what `-tm` and `-m` print.
#[derive(Clone, Debug)]
pub struct OriginalConfig {
    pub full: FullSearchConfig,
    /// The first beam and its time; the chain its plan aims at (`-bcm`).
    pub first_beam: BeamConfig,
    pub first_ms: u64,
    pub target_chain: u32,
    /// The per-turn beam and its time.
    pub turn_beam: TurnBeam,
    pub turn_ms: u64,
    /// The counter analysis' beams (the answer's depth is its own), the enemy's per-turn beam,
    /// the safety beams after an attack, the skill beam.
    pub enemy_beam: HelperBeam,
    pub next_enemy_beam: HelperBeam,
    pub dropped_beam: HelperBeam,
    pub skill_beam: HelperBeam,
    /// `-bcm-`: the enemy beam's target offset.
    pub keep_offset: i32,
    /// `--beam-nodes`: every helper beam's node budget.
    pub beam_nodes: Option<u64>,
    /// `-ncfc` off, `-nc`, `-fsm`, `-smf`, `-nbminc`, `-nbihd`, `-bihmax -bihmin -bihd`.
    pub check_first_chain: bool,
    pub next_chain: bool,
    pub first_skill_mode: bool,
    pub skill_mode_final: bool,
    pub next_beam_min_chain: i32,
    pub next_beam_ignore_eval_diff: i32,
    pub beam_ignore_eval_max: i32,
    pub beam_ignore_eval_min: i32,
    pub beam_ignore_eval_diff: i32,
    pub turn_limit_ms: u64,
    /// `-tm`, `-m`.
    pub report: bool,
    pub detail: bool,
}

/// The AI's memory between turns of one game.
pub struct Decider<N: Neighbourhood> {
    config: OriginalConfig,
    plan: Option<TrackedPlan>,
    /// The plan is followed before this turn (`firstbeamdepth`).
    plan_end: usize,
    skill_mode: bool,
    expected: Option<Situation>,
    tt: Option<TranspositionTable>,
    /// The beams run so far this turn.
    beams: RefCell<Vec<BeamNote>>,
    neighbours: PhantomData<N>,
}

/// The largest chain a move can fire now (after the turn's ojama row) and that move, ranked
/// as §6.2 does: `oj(chain) * 100 + numbered blocks left`.
pub fn first_max_chain<N: Neighbourhood>(
    state: &PlayerState,
    pack: &PreparedPack,
) -> (u32, Option<Action>) {
    let mut best: Option<(i64, u32, Action)> = None;
    for &action in Action::drops() {
        let (after, result) = state.play::<N>(pack, action);
        if result.dead {
            continue;
        }
        let rank = chain_ojama(result.chains) * 100 + i64::from(after.field.number_blocks());
        if best.is_none_or(|(r, _, _)| rank > r) {
            best = Some((rank, result.chains, action));
        }
    }
    best.map_or((0, None), |(_, chain, action)| (chain, Some(action)))
}

impl<N: Neighbourhood> Decider<N> {
    pub fn new(config: &OriginalConfig) -> Self {
        Decider {
            config: config.clone(),
            plan: None,
            plan_end: 0,
            skill_mode: config.first_skill_mode,
            expected: None,
            tt: config.full.table(),
            beams: RefCell::new(Vec::new()),
            neighbours: PhantomData,
        }
    }

    /// The counter analysis if `-ncfc` is off and the clock allows beams.
    fn counter_verdict(
        &self,
        pos: &Position<'_>,
        beams: bool,
        my_first: u32,
        my_fire: Option<Action>,
        enemy_first: u32,
    ) -> Option<CounterVerdict> {
        (beams && self.config.check_first_chain)
            .then(|| self.counter_analysis(pos, my_first, my_fire, enemy_first))
            .flatten()
    }

    /// Whether the clock allows beams: the original's 30 s reserve, scaled to the turn limit.
    fn beams_allowed(&self, pos: &Position<'_>) -> bool {
        TurnClock::of(pos, self.config.turn_limit_ms, Instant::now()).above_reserve()
    }

    /// Limits a helper beam to its time flag scaled to the clock, and to `--beam-nodes` if
    /// set (which makes the whole decision reproducible).
    fn limit(&self, pos: &Position<'_>, config: &mut BeamConfig, flag_ms: u64) {
        config.deadline = Some(
            TurnClock::of(pos, self.config.turn_limit_ms, Instant::now()).scaled_deadline(flag_ms),
        );
        if let Some(nodes) = self.config.beam_nodes {
            config.node_budget = Some(nodes);
        }
    }

    /// This turn's move: the first plan's while it is trusted, else the full search's best
    /// unless the plan's or the per-turn beam's move is close enough to it (§9h).
    pub fn decide(&mut self, pos: &Position<'_>) -> Decision {
        let start = Instant::now();
        let pack = &pos.packs[0];
        let (my_first, my_fire) = first_max_chain::<N>(pos.me, pack);
        let (enemy_first, _) = first_max_chain::<N>(pos.opponent, pack);
        let situation_changed = self.note_situation(pos);
        let beams = self.beams_allowed(pos);
        let mut decision = Decision {
            action: Action::drops()[0],
            reason: Reason::Search,
            my_first_chain: my_first,
            enemy_first_chain: enemy_first,
            value: LOST,
            beam_value: None,
            depths: (0, 0),
            skill_mode: self.skill_mode,
            situation_changed,
            elapsed: Duration::ZERO,
            plan_cancelled: false,
            counter: None,
            beams: Vec::new(),
            nodes: (0, 0),
            search_times: (Duration::ZERO, Duration::ZERO),
            detail: None,
        };
        let had_plan = self.plan.is_some();
        if pos.turn == 0 {
            self.first_plan(pos, start);
        }
        let planned = self.planned_move(pos);
        if let Some(action) = planned.filter(|_| pos.turn < TRUSTED_TURNS) {
            decision.action = action;
            decision.reason = Reason::Plan;
            return self.finish(decision, start, had_plan);
        }
        decision.counter = self.counter_verdict(pos, beams, my_first, my_fire, enemy_first);
        let counter = decision.counter.unwrap_or_default();
        // The search's flag is the turn limit, scaled like every flag: at a short time control
        // that is scaled twice, which keeps long games inside the clock.
        let deadline = TurnClock::of(pos, self.config.turn_limit_ms, start)
            .scaled_deadline(self.config.turn_limit_ms);
        let (my_depth, enemy_depth) = self.depths(pos);
        let unsearched = |mut decision: Decision| {
            (decision.action, decision.reason) = (survival_move::<N>(pos), Reason::Survival);
            decision
        };
        let enemy_start = Instant::now();
        let Some(table) = self.enemy_search(pos, enemy_depth, deadline) else {
            return self.finish(unsearched(decision), start, had_plan);
        };
        decision.search_times.0 = enemy_start.elapsed();
        let mut ctx = self.config.full.eval.clone();
        ctx.enemy_field_ojama = i64::from(pos.opponent.field.ojama().popcount());
        ctx.counter = counter;
        let beam_move = match planned {
            Some(action) => Some(action),
            None if self.config.next_chain && beams => {
                self.turn_beams(pos, my_first, enemy_first, &table, &mut ctx)
            }
            None => None,
        };
        ctx.skill_mode = self.skill_mode;
        decision.skill_mode = self.skill_mode;
        let my_start = Instant::now();
        let Some((values, depth)) = self.my_search(pos, &table, &ctx, my_depth, deadline) else {
            return self.finish(unsearched(decision), start, had_plan);
        };
        decision.search_times.1 = my_start.elapsed();
        decision.depths = (table.depth(), depth);
        decision.nodes = (table.nodes, values.nodes);
        self.choose(&values, planned, beam_move, &mut decision);
        let decision = self.finish(decision, start, had_plan);
        if !self.config.detail {
            return decision;
        }
        let search = self.full_search(pos, &table, &ctx, depth, None);
        Decision {
            detail: Some(detail::<N>(pos, &search, decision.action)),
            ..decision
        }
    }

    /// Stops the clock on `decision`; notes the turn's beams and whether the plan was lost.
    fn finish(&self, mut decision: Decision, start: Instant, had_plan: bool) -> Decision {
        decision.elapsed = start.elapsed();
        decision.plan_cancelled = had_plan && self.plan.is_none();
        decision.beams = self.beams.take();
        decision
    }

    /// Runs a beam and notes it for `-tm`.
    fn beam(
        &self,
        label: impl Into<String>,
        root: BeamRoot<'_>,
        config: &BeamConfig,
    ) -> BeamResult {
        let start = Instant::now();
        let result = beam_search::<N>(root, config);
        self.beams.borrow_mut().push(BeamNote {
            label: label.into(),
            result: result.clone(),
            elapsed: start.elapsed(),
        });
        result
    }

    fn full_search<'s>(
        &'s self,
        pos: &Position<'s>,
        table: &'s StatusTable,
        ctx: &'s EvalContext,
        depth: usize,
        deadline: Option<Instant>,
    ) -> FullSearch<'s> {
        FullSearch {
            packs: pos.packs,
            depth,
            enemy: table,
            model: self.config.full.model,
            eval: ctx,
            tt: if deadline.is_some() {
                self.tt.as_ref()
            } else {
                None
            },
            deadline,
        }
    }

    /// Leaves skill mode when the game took an unplanned turn; remembers what to expect next.
    fn note_situation(&mut self, pos: &Position<'_>) -> bool {
        let players = [pos.me, pos.opponent];
        let changed = self.expected.is_some_and(|e| e.changed(players));
        if changed {
            self.skill_mode = false;
        }
        self.expected = Some(Situation::expect_after(players));
        changed
    }

    /// The first beam (§9a.3): the plan, followed until `firstbeamdepth`.
    fn first_plan(&mut self, pos: &Position<'_>, start: Instant) {
        let mut config = self.config.first_beam.clone();
        config.deadline = Some(
            TurnClock::of(pos, self.config.turn_limit_ms, start)
                .scaled_deadline(self.config.first_ms),
        );
        let root = beam_root(pos.me, pos.opponent, pos.packs);
        let result = self.beam("first", root, &config);
        let reach = result
            .earliest_depth(self.config.target_chain)
            .unwrap_or(result.depth);
        self.plan_end = pos.turn + reach;
        self.plan = Some(TrackedPlan::new::<N>(
            pos.turn,
            pos.me,
            pos.packs,
            result.plan,
        ));
    }

    /// This turn's plan move while the plan is active and on track; the plan is dropped
    /// otherwise.
    fn planned_move(&mut self, pos: &Position<'_>) -> Option<Action> {
        if pos.turn >= self.plan_end {
            self.plan = None;
        }
        let action = self.plan.as_ref().and_then(|p| p.next(pos.turn, pos.me));
        let safe = action.filter(|&a| survives::<N>(pos.me, &pos.packs[0], a));
        if safe.is_none() {
            self.plan = None;
        }
        safe
    }

    /// Search depths, capped by the time left (§9i) unless `-it`.
    fn depths(&self, pos: &Position<'_>) -> (usize, usize) {
        let (mine, enemy) = self.config.full.depths;
        if self.config.full.ignore_time {
            return (mine, enemy);
        }
        let limit = self.config.turn_limit_ms;
        search_depths(pos.time_left_ms, limit, pos.turn, (mine, enemy))
    }

    /// The enemy's full search, deepened one ply at a time until `depth` or the deadline.
    fn enemy_search(
        &self,
        pos: &Position<'_>,
        depth: usize,
        deadline: Instant,
    ) -> Option<StatusTable> {
        let root = EnemyLine::root(pos.opponent, pos.me.ojama, pos.me.gauge, 0);
        enemy::deepen::<N>(root, pos.packs, depth, self.tt.as_ref(), deadline)
    }

    /// My full search, deepened until `depth` or the deadline: the values of the deepest
    /// depth that finished with a surviving move.
    fn my_search(
        &self,
        pos: &Position<'_>,
        table: &StatusTable,
        ctx: &EvalContext,
        depth: usize,
        deadline: Instant,
    ) -> Option<(RootValues, usize)> {
        let root = Line::root(pos.turn, pos.me, pos.opponent);
        self.full_search(pos, table, ctx, depth, Some(deadline))
            .deepen::<N>(&root)
    }

    /// The move to play (§9h) among the search's best, the plan's and the beam's.
    fn choose(
        &mut self,
        values: &RootValues,
        planned: Option<Action>,
        beam_move: Option<Action>,
        decision: &mut Decision,
    ) {
        let (best, best_value) = values
            .best()
            .expect("my_search keeps only surviving depths");
        decision.action = best;
        decision.value = best_value;
        decision.reason = Reason::Search;
        let p = &self.config;
        if let Some(plan_move) = planned {
            let bh = values.value_of(plan_move);
            decision.beam_value = Some(bh);
            if self.plan_stands(best_value, bh) {
                decision.action = plan_move;
                decision.value = bh;
                decision.reason = Reason::PlanKept;
            } else if best != plan_move {
                self.plan = None;
            }
        } else if let Some(beam) = beam_move {
            let bh = values.value_of(beam);
            decision.beam_value = Some(bh);
            if bh > LOST && best_value - bh < f64::from(p.next_beam_ignore_eval_diff) {
                decision.action = beam;
                decision.value = bh;
                decision.reason = Reason::Beam;
            }
        }
    }

    /// §9h: the plan's move, worth `bh`, stands against the search's best unless it loses, or
    /// the best reaches `-bihmax` where it does not, or it is below `-bihmin` and `-bihd`
    /// behind.
    fn plan_stands(&self, best_value: f64, bh: f64) -> bool {
        let p = &self.config;
        let (max, min, diff) = (
            f64::from(p.beam_ignore_eval_max),
            f64::from(p.beam_ignore_eval_min),
            f64::from(p.beam_ignore_eval_diff),
        );
        best_value == bh
            || (!(best_value >= max && bh < max)
                && bh > LOST
                && !(bh < min && best_value - bh >= diff))
    }
}

/// The `-m` detail of the chosen move: the line the search expects and its last state's terms.
fn detail<N: Neighbourhood>(pos: &Position<'_>, search: &FullSearch<'_>, action: Action) -> Detail {
    let root = Line::root(pos.turn, pos.me, pos.opponent);
    let line = search.principal_line::<N>(&root, action);
    let terms = line
        .last()
        .map_or(Vec::new(), |(_, last)| terms(last, search.eval).to_vec());
    Detail { line, terms }
}

fn beam_root<'a>(me: &PlayerState, enemy: &PlayerState, packs: &'a [PreparedPack]) -> BeamRoot<'a> {
    BeamRoot {
        state: *me,
        enemy_ojama: enemy.ojama,
        packs,
    }
}

/// When every move loses: the legal move after which I survive the most turns (my moves only,
/// a few plies deep), the first in search order among equals.
pub fn survival_move<N: Neighbourhood>(pos: &Position<'_>) -> Action {
    let mut best = (0, Action::drops()[0]);
    for action in pos.me.legal_actions() {
        let turns = survival::<N>(pos.me, pos.packs, action, SURVIVAL_PLIES);
        if turns > best.0 {
            best = (turns, action);
        }
    }
    best.1
}

/// Turns survived by playing `action` now and the best moves after it, up to `plies` more.
fn survival<N: Neighbourhood>(
    state: &PlayerState,
    packs: &[PreparedPack],
    action: Action,
    plies: usize,
) -> usize {
    let Some(pack) = packs.first() else {
        return 0;
    };
    let Some((next, _)) = state.try_play::<N>(pack, action) else {
        return 0;
    };
    if plies == 0 {
        return 1;
    }
    let rest = next
        .legal_actions()
        .map(|a| survival::<N>(&next, &packs[1..], a, plies - 1))
        .max()
        .unwrap_or(0);
    1 + rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_move_stands_within_the_acceptance_thresholds() {
        let decider =
            Decider::<crate::sim::Shift>::new(&crate::params::Params::default().original_player());
        // -bihmax 70 -bihmin 70 -bihd 35.
        assert!(decider.plan_stands(60.0, 40.0), "20 behind, both below 70");
        assert!(decider.plan_stands(100.0, 90.0), "both above 70");
        assert!(!decider.plan_stands(500.0, -300.0), "far behind");
        assert!(
            !decider.plan_stands(80.0, 60.0),
            "the best reaches 70, the plan does not"
        );
        assert!(!decider.plan_stands(100.0, LOST), "the plan's move loses");
    }
}
