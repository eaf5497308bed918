//! ysai's turn (`--ai full`, the default). Its chain plans come from the beam search,
//! widened to fill the time each plan is given; a plan is a list of moves ending in a fire,
//! followed while the rest of it, played from the real position, still fires its chain. The
//! rules around the plans are those that won their matches: fire the earliest 13-chain (else
//! the biggest at the earliest depth), answer a spike in the opponent's threat with a counter
//! plan, hold fire when the opponent could answer bigger, out-build an opponent waiting on a
//! high trigger, and keep doing all of it below the clock's reserve. From the end of the
//! opening window on, the two-sided full search weighs every move and overrules the plan on
//! what it can prove: a forced win, or the plan's move dying (see [`Guard`]).
//!
//! The rules around the plans are the core it shares with the rush partner
//! ([`super::plan_rules`]); the plan searches are its own (the widening beam). `--style
//! original` plays the 2019 program's own turn instead ([`super::original`]). The searches
//! live in `search/` and never call back here.

mod exchange;
mod guard;

use std::marker::PhantomData;
use std::time::{Duration, Instant};

pub use exchange::Reading;
pub use guard::{overrule, Guard, Overrule, Weighing};

use super::plan_rules::{Plan, PlanRules, Planner, RulesConfig, Search, Threats, Why};
use super::Player;
use crate::search::beam::{BeamConfig, BeamEval, BeamResult, BeamRoot, HeightCutoff, Injection};
use crate::search::chokudai::{self, ChokudaiConfig};
use crate::search::fire::Fires;
use crate::search::full::{FullSearchConfig, TRUSTED_TURNS};
use crate::search::greedy::best_move;
use crate::search::timeman::TurnClock;
use crate::search::widen::{search_fires, BeamNote, PlanSearch};
use crate::sim::game::OJAMA_ROW;
use crate::sim::Position;
use crate::sim::{Action, Neighbourhood};
use exchange::{Line, Source};

/// A refining search's depth (its time is `--refine-ms`).
pub const REFINE_DEPTH: usize = 10;
/// The exchange reader's searches: each side's race (its fires at each depth with nothing
/// coming, at fixed widths: it runs every turn to tell whether an exchange is on), the
/// opponent's answers to my early fires, my counters to its early fire.
const RACE: (usize, u64) = (8, 1_500);
const READ_ANSWER: (usize, u64) = (10, 6_000);
const READ_COUNTER: (usize, u64) = (10, 3_000);
/// My counters are searched from this many first moves that hold (the plan's first), against
/// this many of the opponent's early fires (the biggest).
const READ_HOLDS: usize = 2;
const READ_THREATS: usize = 2;
/// The reader runs from this turn on (no chain worth reading is ready before).
const READ_FROM_TURN: usize = 6;
/// An exchange is on when either side can send this much (a 12-chain) within
/// `EARLY_MOVES` moves.
const LIVE_OJAMA: i64 = 45;
/// Fires of mine this early are read only against the opponent's answer searched for them;
/// later ones, against its race (their answers fall past what the reader plays out).
const EARLY_MOVES: usize = 3;
/// The early fires of mine read, the biggest first: an answer is searched as deep and as long
/// as an opponent's counter plan, or the reader takes fires for safe that are not.
const EARLY_FIRES: usize = 2;
/// The least fire of mine the reader weighs (an 11-chain): smaller ones only delay the
/// opponent, which rebuilds its trigger above their rows.
const OPTION_OJAMA: i64 = 33;
/// A plan search's widths (per depth, per chain bucket) when the clock leaves only fixed work:
/// a few milliseconds a beam, and still a plan where the greedy move would build nothing.
const FIXED_WIDTHS: (usize, usize) = (24, 12);
/// What one turn did, for `-tm` (and tests).
#[derive(Clone, Debug)]
pub struct TurnReport {
    pub action: Action,
    pub why: Why,
    pub beams: Vec<BeamNote>,
    pub reading: Option<Reading>,
    pub weighing: Option<Weighing>,
    pub elapsed: Duration,
}

/// ysai's plan searches: the beam at the widths and evaluation its flags set, widened to fill
/// the time each search is given.
#[derive(Clone, Debug)]
pub struct BeamPlans {
    /// The widths (per depth, per chain bucket) the opening's plan, a turn's plans and the
    /// opponent's answers start from.
    pub opening: (usize, usize),
    pub turn: (usize, usize),
    pub answer: (usize, usize),
    pub eval: BeamEval,
    /// The opening plan's columns and height cutoff (the first beam's).
    pub opening_columns: (u8, u8, HeightCutoff),
    /// `--beam-nodes`: a fixed number of nodes per beam instead of a time (and as many
    /// expansions of an anytime search).
    pub nodes: Option<u64>,
    /// The searches after the opening's plan are the anytime search (unless `--beam-plans`).
    pub anytime: bool,
    /// The seed of the anytime search's tie-breaks.
    pub seed: u64,
}

/// What ysai's turn reads: its plan searches, the rules around its plans, whether the
/// exchange reader runs, the full search and its time (`--guard-ms`) if it runs, the turn
/// limit and `-tm`.
#[derive(Clone, Debug)]
pub struct YsaiConfig {
    pub plans: BeamPlans,
    pub rules: RulesConfig,
    pub exchange: bool,
    pub guard: Option<(FullSearchConfig, u64)>,
    pub turn_limit_ms: u64,
    pub report: bool,
}

/// ysai: plans, rules and the full search, with what it remembers between turns.
pub struct Ysai<N: Neighbourhood> {
    plans: BeamPlans,
    rules: PlanRules,
    exchange: bool,
    guard: Option<(Guard, u64)>,
    turn_limit_ms: u64,
    report: bool,
    neighbours: PhantomData<N>,
}

/// One turn's working state: its clock and the beams it ran.
struct Turn<'v, 'a> {
    view: &'v Position<'a>,
    clock: TurnClock,
    beams: Vec<BeamNote>,
    reading: Option<Reading>,
}

/// The plan searches of one turn, as the rules ask for them.
struct TurnPlanner<'p, 't, 'v, 'a, N> {
    plans: &'p BeamPlans,
    turn: &'t mut Turn<'v, 'a>,
    neighbours: PhantomData<N>,
}

impl<N: Neighbourhood> Ysai<N> {
    pub fn new(config: YsaiConfig) -> Self {
        Ysai {
            plans: config.plans,
            rules: PlanRules::new(config.rules),
            exchange: config.exchange,
            guard: config
                .guard
                .map(|(full, guard_ms)| (Guard::new(&full, config.turn_limit_ms), guard_ms)),
            turn_limit_ms: config.turn_limit_ms,
            report: config.report,
            neighbours: PhantomData,
        }
    }

    /// The plan being followed, if any.
    pub fn plan(&self) -> Option<&Plan> {
        self.rules.plan()
    }

    /// Decides this turn's move.
    pub fn turn(&mut self, view: &Position<'_>) -> TurnReport {
        let start = Instant::now();
        let mut clock = TurnClock::of(view, self.turn_limit_ms, start);
        if let Some(&(_, guard_ms)) = self.guard.as_ref().filter(|_| view.turn >= TRUSTED_TURNS) {
            clock = clock.keeping_guard(guard_ms);
        }
        let mut turn = Turn {
            view,
            clock,
            beams: Vec::new(),
            reading: None,
        };
        self.rules.note::<N>(view);
        let mut why = if self.read_exchange(&mut turn) {
            Why::Exchange
        } else {
            let mut planner = TurnPlanner::<N> {
                plans: &self.plans,
                turn: &mut turn,
                neighbours: PhantomData,
            };
            self.rules.follow::<N>(&mut planner, view)
        };
        let mut action = match self.rules.next_move::<N>(view) {
            Some(action) => action,
            None => {
                why = Why::Greedy;
                best_move::<N>(view.me, &view.packs[0])
            }
        };
        let weighing = self.weigh(&turn);
        if let Some((better, reason)) = weighing.as_ref().and_then(|w| overrule(&w.values, action))
        {
            action = better;
            why = match reason {
                Overrule::Lethal => Why::Lethal,
                Overrule::Survive => Why::Survive,
            };
            self.rules.set_plan(None);
        }
        TurnReport {
            action,
            why,
            beams: turn.beams,
            reading: turn.reading,
            weighing,
            elapsed: start.elapsed(),
        }
    }

    /// The turn's action, its `-tm` line written to stderr when asked for.
    pub fn play(&mut self, view: &Position<'_>) -> Action {
        let report = self.turn(view);
        if self.report {
            eprintln!(
                "{}",
                turn_line(view, &report, self.rules.plan(), self.rules.threats())
            );
        }
        report.action
    }

    /// When either side can send a big attack within a few moves, reads the exchange
    /// ([`exchange`]) and follows the line it chooses (`--exchange`). `false` (and nothing
    /// changed) when no exchange is on, the reader is off or the clock leaves only fixed work.
    fn read_exchange(&mut self, turn: &mut Turn<'_, '_>) -> bool {
        let view = turn.view;
        if !self.exchange || view.turn < READ_FROM_TURN || turn.clock.fixed_work() {
            return false;
        }
        let plan = self
            .rules
            .plan()
            .filter(|p| p.replays::<N>(view.me, view.packs))
            .cloned();
        let plans = &self.plans;
        let my_race = plans.mine::<N>(turn, Search::Race, RACE, i64::MAX, None, None);
        let their_race = plans.theirs::<N>(turn, Search::Race, RACE, None);
        let plan_fire = plan.as_ref().map(Plan::fire);
        let early_ojama = |fires: &Fires| {
            fires
                .by_depth
                .iter()
                .take(EARLY_MOVES)
                .flatten()
                .map(|f| f.ojama)
                .max()
        };
        let live = [early_ojama(&my_race), early_ojama(&their_race)]
            .into_iter()
            .flatten()
            .chain(
                plan_fire
                    .iter()
                    .filter(|f| f.path.len() <= EARLY_MOVES)
                    .map(|f| f.ojama),
            )
            .any(|ojama| ojama >= LIVE_OJAMA);
        if !live {
            return false;
        }
        let mut mine: Vec<Line> = Vec::new();
        let lines = plan_fire.into_iter().map(|f| Line::new(f, Source::Plan));
        for line in lines.chain(race_lines(&my_race)) {
            if line.fire.ojama >= OPTION_OJAMA
                && !mine.iter().any(|m| m.fire.path == line.fire.path)
            {
                mine.push(line);
            }
        }
        // Of the early fires, the biggest (the earlier line among equals) stay.
        let mut early: Vec<usize> = (0..mine.len())
            .filter(|&i| mine[i].fire_depth() < EARLY_MOVES)
            .collect();
        early.sort_by_key(|&i| std::cmp::Reverse(mine[i].fire.ojama));
        early.truncate(EARLY_FIRES);
        let mut i = 0;
        mine.retain(|l| {
            let keep = l.fire_depth() >= EARLY_MOVES || early.contains(&i);
            i += 1;
            keep
        });
        let mut theirs: Vec<Line> = race_lines(&their_race).collect();
        // The opponent's answer to each of my early fires, my attack in its stock.
        for (i, line) in mine.iter().enumerate() {
            let depth = line.fire_depth();
            if depth >= EARLY_MOVES {
                continue;
            }
            let stock = (view.me.ojama - OJAMA_ROW * depth as i64).max(0);
            let attack = (line.fire.ojama - stock).max(0);
            let answers =
                plans.theirs::<N>(turn, Search::Answer, READ_ANSWER, Some((depth + 1, attack)));
            theirs.extend(answer_lines(&answers, i));
        }
        // My counters to the opponent's biggest early fires, its attack in my stock, from each
        // of the first moves that hold: holding is worth what I answer once I see it fire.
        let mut threats: Vec<(usize, &Line)> = theirs
            .iter()
            .enumerate()
            .filter(|(_, l)| {
                l.source == Source::Race
                    && l.fire_depth() < EARLY_MOVES
                    && l.fire.ojama >= LIVE_OJAMA
            })
            .collect();
        threats.sort_by_key(|(_, l)| (std::cmp::Reverse(l.fire.ojama), l.fire_depth()));
        threats.truncate(READ_THREATS);
        let threats: Vec<(usize, usize, i64)> = threats
            .into_iter()
            .map(|(j, line)| {
                let depth = line.fire_depth();
                let stock = (view.opponent.ojama - OJAMA_ROW * depth as i64).max(0);
                (j, depth, (line.fire.ojama - stock).max(0))
            })
            .collect();
        let mut holds: Vec<Action> = Vec::new();
        for line in mine.iter().filter(|l| l.fire_depth() > 0) {
            let first = line.fire.path[0];
            if !holds.contains(&first) && holds.len() < READ_HOLDS {
                holds.push(first);
            }
        }
        for &first in &holds {
            for &(j, depth, attack) in &threats {
                let counters = plans.mine::<N>(
                    turn,
                    Search::Counter,
                    READ_COUNTER,
                    i64::MAX,
                    Some((depth + 1, attack)),
                    Some(first),
                );
                mine.extend(answer_lines(&counters, j).filter(|l| l.fire.ojama >= OPTION_OJAMA));
            }
        }
        let reading = exchange::read::<N>(view.me, view.opponent, view.packs, mine, theirs);
        if let Some(line) = reading.line() {
            self.rules.set_plan(Some(Plan::of(&line.fire)));
        }
        let chose = reading.chosen.is_some();
        turn.reading = Some(reading);
        chose
    }

    /// The full search of this turn, in the time kept for it, if any.
    fn weigh(&self, turn: &Turn<'_, '_>) -> Option<Weighing> {
        let (guard, _) = self.guard.as_ref()?;
        let deadline = turn.clock.guard_deadline()?;
        guard.weigh::<N>(turn.view, deadline, turn.clock.guard_fixed)
    }
}

impl BeamPlans {
    /// A plan search from `root` of at most `horizon` moves, for its time `flag_ms`, aiming at
    /// `target_ojama`, with `injection`'s ojama added to the stock after its number of moves,
    /// and only `first_move` tried first if given.
    #[allow(clippy::too_many_arguments)]
    fn search<N: Neighbourhood>(
        &self,
        turn: &mut Turn<'_, '_>,
        kind: Search,
        root: BeamRoot<'_>,
        (horizon, flag_ms): (usize, u64),
        target_ojama: i64,
        injection: Option<(usize, i64)>,
        first_move: Option<Action>,
    ) -> Fires {
        let fixed = turn.clock.fixed_work();
        if self.anytime && !fixed && !matches!(kind, Search::Open | Search::Race) {
            return self.anytime::<N>(turn, kind, root, (horizon, flag_ms), injection, first_move);
        }
        let widths = match kind {
            _ if fixed => FIXED_WIDTHS,
            Search::Open => self.opening,
            Search::Answer => self.answer,
            _ => self.turn,
        };
        let mut beam = BeamConfig::new(horizon, widths.0, widths.1);
        beam.eval = self.eval;
        if kind == Search::Open {
            (beam.min_x, beam.max_x, beam.height_cutoff) = self.opening_columns;
        }
        beam.injection = injection
            .filter(|&(_, ojama)| ojama > 0)
            .map(|(after_moves, ojama)| Injection { after_moves, ojama });
        beam.first_move = first_move;
        beam.node_budget = self.nodes;
        let search = PlanSearch {
            beam,
            target_ojama,
            deadline: turn.clock.deadline(turn.clock.search(flag_ms)),
            widen: self.nodes.is_none() && !fixed && kind != Search::Race,
        };
        let (fires, notes) = search_fires::<N>(kind.label(), root, &search);
        turn.beams.extend(notes);
        fires
    }

    /// The anytime search in place of [`BeamPlans::search`]'s beam: the same horizon, time
    /// and injection; with a first move given, only what follows it is searched.
    fn anytime<N: Neighbourhood>(
        &self,
        turn: &mut Turn<'_, '_>,
        kind: Search,
        root: BeamRoot<'_>,
        (horizon, flag_ms): (usize, u64),
        injection: Option<(usize, i64)>,
        first_move: Option<Action>,
    ) -> Fires {
        let began = Instant::now();
        let mut injected = Vec::new();
        if let Some((after_moves, ojama)) = injection.filter(|&(m, _)| m > 0) {
            injected.resize(after_moves, 0);
            injected[after_moves - 1] = ojama;
        }
        let config = ChokudaiConfig {
            horizon,
            deadline: Some(turn.clock.deadline(turn.clock.search(flag_ms))),
            expansions: self.nodes,
            injected,
            seed: self.seed ^ turn.view.turn as u64,
            first_move,
        };
        let found = chokudai::search::<N>(&root.state, root.packs, &config);
        let (max_chain, at) = found.fires.max_chain();
        turn.beams.push(BeamNote {
            label: format!("{}-anytime", kind.label()),
            result: BeamResult {
                depth: horizon.min(root.packs.len()),
                max_chain,
                max_chain_depth: at,
                ..BeamResult::default()
            },
            elapsed: began.elapsed(),
        });
        found.fires
    }

    /// My plan search from the turn's position, `attack` landing after my first move.
    fn mine<N: Neighbourhood>(
        &self,
        turn: &mut Turn<'_, '_>,
        kind: Search,
        shape: (usize, u64),
        target_ojama: i64,
        attack: Option<(usize, i64)>,
        first_move: Option<Action>,
    ) -> Fires {
        let root = my_root(turn.view);
        self.search::<N>(turn, kind, root, shape, target_ojama, attack, first_move)
    }

    /// The opponent's plan search from the turn's position, aiming at its biggest chain.
    fn theirs<N: Neighbourhood>(
        &self,
        turn: &mut Turn<'_, '_>,
        kind: Search,
        shape: (usize, u64),
        attack: Option<(usize, i64)>,
    ) -> Fires {
        let root = BeamRoot {
            state: *turn.view.opponent,
            enemy_ojama: turn.view.me.ojama,
            packs: turn.view.packs,
        };
        self.search::<N>(turn, kind, root, shape, i64::MAX, attack, None)
    }
}

/// My side of the turn's position, as a plan search's root.
fn my_root<'p>(view: &Position<'p>) -> BeamRoot<'p> {
    BeamRoot {
        state: *view.me,
        enemy_ojama: view.opponent.ojama,
        packs: view.packs,
    }
}

/// An attack landing after the first move, if any.
fn after_first(attack: i64) -> Option<(usize, i64)> {
    (attack > 0).then_some((1, attack))
}

impl<N: Neighbourhood> Planner for TurnPlanner<'_, '_, '_, '_, N> {
    fn mine(&mut self, kind: Search, shape: (usize, u64), target: i64, attack: i64) -> Fires {
        let attack = after_first(attack);
        self.plans
            .mine::<N>(self.turn, kind, shape, target, attack, None)
    }

    fn theirs(&mut self, kind: Search, shape: (usize, u64), attack: i64) -> Fires {
        self.plans
            .theirs::<N>(self.turn, kind, shape, after_first(attack))
    }

    fn after(&mut self, kind: Search, shape: (usize, u64), first: Action) -> Fires {
        self.plans
            .mine::<N>(self.turn, kind, shape, i64::MAX, None, Some(first))
    }

    fn counters_allowed(&self) -> bool {
        true
    }

    fn spare(&self) -> bool {
        self.turn.clock.above_reserve()
    }

    fn can_refine(&self) -> bool {
        !self.turn.clock.fixed_work()
    }
}

/// Each depth's fire of a race, as lines of its side.
fn race_lines(fires: &Fires) -> impl Iterator<Item = Line> + '_ {
    fires
        .by_depth
        .iter()
        .flatten()
        .map(|f| Line::new(f.clone(), Source::Race))
}

/// Each depth's fire of a search made against the other side's line `answered`.
fn answer_lines(fires: &Fires, answered: usize) -> impl Iterator<Item = Line> + '_ {
    fires
        .by_depth
        .iter()
        .flatten()
        .map(move |f| Line::new(f.clone(), Source::Answer(answered)))
}

/// `-tm`: turn, clock, every beam (`[label bd depth mch chain/depth ms]`), the full search's
/// depths and nodes (`d enemy/mine n enemy/mine`) with its table's hit rate and the searches'
/// milliseconds (`ms enemy/mine`), why, the move, the plan left and the opponent's latest
/// threat.
pub fn turn_line(
    view: &Position<'_>,
    report: &TurnReport,
    plan: Option<&Plan>,
    threats: &Threats,
) -> String {
    use std::fmt::Write as _;
    let mut line = format!(
        "Turn {} timeleft {} elapsed {}",
        view.turn,
        view.time_left_ms,
        report.elapsed.as_millis()
    );
    for note in &report.beams {
        let _ = write!(line, "{note}");
    }
    if let Some(reading) = &report.reading {
        let _ = write!(line, "{reading}");
    }
    match &report.weighing {
        Some(w) => {
            let _ = write!(
                line,
                " d {}/{} n {}/{} tt {:.0}% ms {}/{}",
                w.depths.0,
                w.depths.1,
                w.nodes.0,
                w.nodes.1,
                w.hit_rate() * 100.0,
                w.times.0.as_millis(),
                w.times.1.as_millis()
            );
        }
        None => line.push_str(" d 0/0 n 0/0"),
    }
    let plan = plan.map_or("-".to_string(), |p| {
        format!(
            "{} moves to {} ({} ojama)",
            p.moves.len(),
            p.chains,
            p.ojama
        )
    });
    let _ = write!(
        line,
        " {:?} {} plan {} threat {}",
        report.why,
        report.action,
        plan,
        threats.latest()
    );
    line
}

impl<N: Neighbourhood> Player for Ysai<N> {
    fn choose(&mut self, view: &Position<'_>) -> Action {
        self.play(view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::packs::prepared;
    use crate::params::{ClockFlags, Params};
    use crate::sim::{Field, PlayerState, Shift, PACKS_PER_GAME};

    /// A turn of `ysai` on `view`, on a pool of its own: on the shared one, the turn's beams
    /// would queue behind other tests' work and the clock would run out waiting.
    fn turn_alone(ysai: &mut Ysai<Shift>, view: &Position<'_>) -> TurnReport {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool");
        pool.install(|| ysai.turn(view))
    }

    #[test]
    fn a_followed_plan_that_sends_nothing_is_refined_only_when_refining_is_on() {
        let packs = prepared(11, PACKS_PER_GAME);
        let me = PlayerState::default();
        let view = Position {
            turn: 2,
            packs: &packs[2..],
            me: &me,
            opponent: &PlayerState::default(),
            time_left_ms: 45_000,
        };
        // Three moves into one column fire nothing: a plan any search improves on.
        let idle = vec![Action::Drop { x: 8, rot: 0 }; 3];
        let last = crate::search::plan::replay::<Shift>(&me, view.packs, &idle).expect("legal");
        let plan = Plan {
            moves: idle,
            chains: last.chains,
            ojama: last.ojama,
        };
        assert_eq!(plan.ojama, 0, "the idle plan sends nothing");
        let params = |refine_ms| Params {
            clock: ClockFlags {
                turn_limit_ms: 5_000,
            },
            exchange: crate::params::ExchangeFlags {
                exchange: false,
                refine_ms,
                beam_plans: false,
            },
            ..Params::default()
        };
        for refine_ms in [0, 4_000] {
            let mut ysai = Ysai::<Shift>::new(params(refine_ms).ysai());
            ysai.rules.set_plan(Some(plan.clone()));
            let report = turn_alone(&mut ysai, &view);
            if refine_ms == 0 {
                assert_eq!(report.why, Why::Plan);
                assert_eq!(ysai.plan().map(|p| p.moves.len()), Some(2));
                continue;
            }
            assert_eq!(report.why, Why::Refine, "{:?}", report.beams);
            let refined = ysai.plan().expect("a plan that fires past its first move");
            assert!(refined.ojama > 0, "{refined:?}");
            assert!(report.beams.iter().any(|b| b.label.starts_with("refine")));
        }
    }

    #[test]
    fn only_the_opening_plan_is_a_beam_unless_beam_plans_are_asked_for() {
        let packs = prepared(5, PACKS_PER_GAME);
        let me = PlayerState {
            field: Field::from_picture(&["..4...", "..73..", ".2618.", "19352."]).unwrap(),
            ..PlayerState::default()
        };
        let mut params = Params {
            clock: ClockFlags {
                turn_limit_ms: 5_000,
            },
            ..Params::default()
        };
        for (beam_plans, turn, label) in [
            (false, 2, "open-w"),
            (false, 20, "plan-anytime"),
            (true, 20, "plan-w"),
        ] {
            params.exchange.beam_plans = beam_plans;
            let view = Position {
                turn,
                packs: &packs[turn..],
                me: &me,
                opponent: &PlayerState::default(),
                time_left_ms: 45_000,
            };
            let mut ysai = Ysai::<Shift>::new(params.ysai());
            let report = turn_alone(&mut ysai, &view);
            assert_eq!(report.why, Why::Replan, "turn {turn}");
            let plan = ysai
                .plan()
                .unwrap_or_else(|| panic!("turn {turn}: no plan"));
            assert!(plan.ojama > 0, "turn {turn}: {plan:?}");
            assert!(
                report.beams.iter().all(|b| b.label.starts_with(label)),
                "turn {turn}: {:?}",
                report.beams.iter().map(|b| &b.label).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn near_the_end_of_its_clock_a_turn_still_plans_and_weighs_with_fixed_work() {
        let packs = prepared(7, PACKS_PER_GAME);
        let me = PlayerState {
            field: Field::from_picture(&["..4...", "..73..", ".2618.", "19352."]).unwrap(),
            ..PlayerState::default()
        };
        let params = Params {
            clock: ClockFlags {
                turn_limit_ms: 5_000,
            },
            ..Params::default()
        };
        // At 45 s + 5 s the floor is 2.5 s: 2.6 s left leaves a timed plan search 12 ms, too
        // short to plan with; 330 ms left leaves nothing past the safety margins, not even the
        // full search's fewest plies.
        for (time_left_ms, plans) in [(2_600, true), (1_000, true), (330, false)] {
            let view = Position {
                turn: 60,
                packs: &packs[60..],
                me: &me,
                opponent: &PlayerState::default(),
                time_left_ms,
            };
            let mut ysai = Ysai::<Shift>::new(params.ysai());
            let report = turn_alone(&mut ysai, &view);
            let case = format!("{time_left_ms} ms left");
            if plans {
                assert_eq!(report.why, Why::Replan, "{case}");
                assert!(ysai.plan().is_some(), "{case}");
                assert!(!report.beams.is_empty(), "{case}");
                assert!(
                    report.beams.iter().all(|b| b.label == "plan-w24"),
                    "{case}: one fixed beam"
                );
                // Its fewest plies, or fewer where a slow build runs out of the least time.
                let weighing = report.weighing.as_ref();
                let (enemy, mine) = weighing
                    .unwrap_or_else(|| panic!("{case}: no full search after {:?}", report.beams))
                    .depths;
                let (fewest_mine, fewest_enemy) = guard::FIXED_DEPTHS;
                assert!(
                    (1..=fewest_enemy).contains(&enemy) && (1..=fewest_mine).contains(&mine),
                    "{case}: depths {enemy}/{mine}"
                );
            } else {
                assert!(report.weighing.is_none(), "{case}");
            }
        }
    }
}
