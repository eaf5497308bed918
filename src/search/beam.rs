//! The chain-building beam search (reference §9a, §9b).
//!
//! Every depth plays one pack. Nodes are bucketed by the largest chain their *next* move could
//! fire (their lookahead chain); each depth expands the best nodes of each bucket, highest
//! chain first, up to a width per bucket and a total width. A node is ranked by
//! `oj(c1) * 1000 + oj(c2) * 100 + blocks`, where c1 is the best lookahead chain along its
//! path, c2 its own, and `blocks` the numbered blocks left after firing c2.
//!
//! A depth runs in three parallel passes over compact records, never over stored fields:
//! 1. every move of every frontier node is played, giving a key (field, turn, stocks);
//! 2. duplicates are removed, keeping the copy with the best path, then the stable key;
//! 3. each remaining child is played again and its 36 next moves are tried (the evaluation);
//! 4. under the potential rank, the children of the buckets that keep some of their nodes
//!    are played once more and ranked by potential (most of a child's cost, which the
//!    buckets no frontier takes from are spared).
//!
//! Only the nodes selected for the next depth are materialised. Ties are broken by the key,
//! then by parent and move, so that under a node budget the result does not depend on the
//! number of threads.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use fnv::FnvHashMap;
use rayon::prelude::*;
use ysai_tables::{chain_ojama, MAX_CHAIN};

use super::fire::Fire;
use super::key::WordHasher;
use super::potential::{self, erase_potential};
use super::timeman::Deadline;
use crate::sim::game::{offset_ojama, OJAMA_ROW, SKILL_COST};
use crate::sim::{Action, DropOutcome, Field, Neighbourhood, PlayerState, PreparedPack};

/// Moves per pack: 9 columns x 4 rotations.
const DROPS: u8 = 36;
/// A column this high at turn 0 triggers the height cut-off (17 - 3).
const CUTOFF_HEIGHT: u8 = 14;
/// Skill-mode buckets: destroyed-block counts above this share the top bucket.
const SKILL_BUCKETS: u32 = 82;
/// Total of a node none of whose next moves survives.
const NO_MOVE_TOTAL: i64 = -100_000;
/// Total of a potential-ranked child whose potential was not worked out (yet): its bucket
/// keeps none of its nodes, or no depth follows and no plan is chosen among them.
const UNRANKED: i64 = i64::MIN;

/// The chain the beam aims for, and what happens when it is first available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// `-bcm`: the chain looked for.
    pub chain: u32,
    /// `-bcm-`: once found, only buckets `>= chain + keep_offset` survive at that depth.
    pub keep_offset: i32,
    /// `-sbcm`: stop at the depth where the target is first available.
    pub stop: bool,
}

/// Extra ojama put in my stock after a given move: what the counter and safety beams assume
/// the enemy sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Injection {
    /// After this many moves (1 = after the first move).
    pub after_moves: usize,
    pub ojama: i64,
}

/// What a beam node is ranked by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BeamEval {
    /// Chain building (§9a.2): `oj(c1) * 1000 + oj(c2) * 100 + blocks left`, bucketed by c2.
    Chain,
    /// Skill building (§9a.5): blocks the skill would destroy times the gauge (at most 80),
    /// bucketed by those blocks; with `count_blocks` (the qualifier) the numbered blocks on the
    /// field are added to the destroyed ones.
    Skill { count_blocks: bool },
    /// The 2019 champion's rank (`--beam-eval potential`): the longest chain one erased block
    /// would start and the shape of the field, whatever the packs to come; still bucketed by
    /// what the next real pack can fire.
    Potential,
}

/// How the first beam treats a node with a column of 14 or more blocks (§9a.2): the two
/// versions of the original differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeightCutoff {
    /// No cut-off.
    Off,
    /// The node is worth 0 (the qualifier version, as the write-up describes it).
    Qualifier,
    /// Only the node's own lookahead is zeroed; its path's best chain still counts (final).
    Final,
}

/// What the first and per-turn beams rank nodes by (`--beam-eval`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BeamEvalKind {
    /// The original's: the chains the next real pack can fire (§9a.2).
    Ysai,
    /// The pack-independent "erase one block" potential and shape of the 2019 champion.
    Potential,
}

/// The per-turn beam (§9b): it aims at its target only while my best chain this turn is at
/// most `aim_up_to`.
#[derive(Clone, Debug)]
pub struct TurnBeam {
    pub beam: BeamConfig,
    pub aim_up_to: i64,
}

impl TurnBeam {
    /// The beam for a turn whose best chain is `first_move_chain`.
    pub fn for_chain(&self, first_move_chain: u32) -> BeamConfig {
        let mut beam = self.beam.clone();
        if i64::from(first_move_chain) > self.aim_up_to {
            beam.target = None;
        }
        beam
    }
}

/// Everything one beam search is asked to do.
#[derive(Clone, Debug)]
pub struct BeamConfig {
    /// `-bd`: moves searched at most.
    pub depth: usize,
    /// `-bw`: nodes expanded per depth.
    pub width: usize,
    /// `-bcw`: nodes expanded per depth and chain bucket.
    pub bucket_width: usize,
    pub target: Option<Target>,
    /// `-bcm2`: stop once some node can fire a chain this long.
    pub stop_chain: Option<u32>,
    /// `-bminx` / `-bmaxx`: the pack columns tried (0..=8).
    pub min_x: u8,
    pub max_x: u8,
    /// Turn-0 penalty for tall columns (§9a.2).
    pub height_cutoff: HeightCutoff,
    pub injection: Option<Injection>,
    /// Only this first move is tried (the safety beams ask what follows a given move).
    pub first_move: Option<Action>,
    pub eval: BeamEval,
    /// Wall-clock limit (`-ftl` and friends).
    pub deadline: Option<Instant>,
    /// Stop at the first depth boundary after this many nodes were evaluated; unlike the
    /// deadline, the result then depends on nothing but the input, as long as the deadline
    /// (still kept, for the clock's sake) is not reached first.
    pub node_budget: Option<u64>,
    /// The depth to reach by the deadline: the depths still to come are narrowed when, at the
    /// width given, they would not end by then (past it, the rest of `depth` is fitted to what
    /// is left). On a slower machine the beam then reaches its depth on fewer nodes instead of
    /// stopping halfway with a short plan. `None`: never narrowed.
    pub fit_deadline: Option<usize>,
    /// End by choosing the plan among the last depth's nodes (`plan`, `best_chain`,
    /// `best_fire`). A search that reads only `fires` leaves it out, and then the last
    /// depth's potentials below its top bucket are never worked out.
    pub choose_plan: bool,
}

impl BeamConfig {
    /// A beam over every column with no target, limit or cut-off.
    pub fn new(depth: usize, width: usize, bucket_width: usize) -> Self {
        BeamConfig {
            depth,
            width,
            bucket_width,
            target: None,
            stop_chain: None,
            min_x: 0,
            max_x: DROPS / 4 - 1,
            height_cutoff: HeightCutoff::Off,
            injection: None,
            first_move: None,
            eval: BeamEval::Chain,
            deadline: None,
            node_budget: None,
            fit_deadline: None,
            choose_plan: true,
        }
    }

    /// Sets the width, the width per bucket scaled with it (a non-zero one stays non-zero).
    pub fn set_width(&mut self, width: usize) {
        if self.bucket_width > 0 {
            self.bucket_width = (self.bucket_width * width / self.width.max(1)).max(1);
        }
        self.width = width;
    }

    fn drops(&self) -> Vec<Action> {
        let max_x = self.max_x.min(DROPS / 4 - 1);
        (self.min_x..=max_x)
            .flat_map(|x| (0..4).map(move |rot| Action::Drop { x, rot }))
            .collect()
    }
}

/// The chain the per-turn beam aims at while my chains are small (§9b).
pub const TURN_BEAM_TARGET: u32 = 10;

/// Where a beam starts: my state at the start of a turn (before its ojama row) and the packs
/// from that turn on.
#[derive(Clone, Copy, Debug)]
pub struct BeamRoot<'a> {
    pub state: PlayerState,
    /// Ojama I have sent that has not fallen on the enemy yet (offsets what I receive).
    pub enemy_ojama: i64,
    pub packs: &'a [PreparedPack],
}

/// What a beam search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BeamResult {
    /// The moves leading to the best node of the last depth (the plan).
    pub plan: Vec<Action>,
    /// The chain the best node can fire next, and the move that fires it.
    pub best_chain: u32,
    pub best_fire: Option<Action>,
    /// `earliest[c]`: the first depth (moves made) at which some node could fire a chain of
    /// `c` or more with its next move.
    pub earliest: Vec<Option<usize>>,
    /// The largest chain some node could fire next, and the first depth it appeared at.
    pub max_chain: u32,
    pub max_chain_depth: usize,
    /// The depth at which the target was first available.
    pub target_depth: Option<usize>,
    /// `fires[d]`: the biggest fire made by the (d+1)-th move, from the best node of the top
    /// bucket at depth d (what a plan that ends in a fire is chosen from).
    pub fires: Vec<Option<Fire>>,
    /// Depths completed.
    pub depth: usize,
    /// The width of the last depth: the one asked for, unless fitting the deadline narrowed it.
    pub width: usize,
    /// The deadline cut the search short.
    pub timed_out: bool,
    /// Nodes evaluated (each costs one evaluation of up to 36 moves).
    pub nodes: u64,
    /// Moves applied by the simulator.
    pub sim_calls: u64,
    /// Per depth reached, its buckets, highest chain first (what `-m` shows of the first beam).
    pub buckets: Vec<Vec<Bucket>>,
}

/// The nodes of one depth that can fire the same chain next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bucket {
    pub chain: u8,
    /// Nodes in the bucket, and how many of them go on to the next depth.
    pub nodes: u32,
    pub kept: u32,
    /// The rank of its best node; `None` where a potential-ranked bucket was not ranked: it
    /// keeps no node, or no depth follows and it is not the top one.
    pub best: Option<i64>,
}

impl BeamResult {
    /// The first depth at which a chain of `chain` or more could be fired next.
    pub fn earliest_depth(&self, chain: u32) -> Option<usize> {
        self.earliest.get(chain as usize).copied().flatten()
    }
}

/// A state at some depth, with the best lookahead chain seen along its path.
#[derive(Clone, Copy)]
struct Node {
    state: PlayerState,
    enemy_ojama: i64,
    path_chain: u8,
}

/// A child of a frontier node, before and after evaluation. 32 bytes.
#[derive(Clone, Copy, Debug)]
struct Child {
    key: u64,
    total: i64,
    /// Index of the parent in the frontier.
    parent: u32,
    /// The move from the parent, an index into [`Action::ALL`].
    action: u8,
    /// Best lookahead chain along the path (c1).
    path_chain: u8,
    /// Lookahead chain of this node (c2): its bucket.
    chain: u8,
    /// The move that fires `chain`, an index into [`Action::ALL`] (0 = none).
    fire: u8,
}

impl Child {
    /// Stable order of equally ranked children: the child of the better parent first (the
    /// frontier is in rank order), then the earlier move.
    fn tie_key(&self) -> (u32, u8, u64) {
        (self.parent, self.action, self.key)
    }
}

/// The best next move of a node by the beam's measure `oj(c) * 100 + blocks left`.
#[derive(Clone, Copy, Debug)]
struct Lookahead {
    chain: u8,
    fire: u8,
    score: i64,
}

/// Shared counters and the deadline of one search.
#[derive(Debug)]
struct Progress {
    sim_calls: AtomicU64,
    deadline: Deadline,
}

impl Progress {
    fn new(deadline: Option<Instant>) -> Self {
        Progress {
            sim_calls: AtomicU64::new(0),
            deadline: Deadline::new(deadline),
        }
    }

    fn out_of_time(&self) -> bool {
        self.deadline.out_of_time()
    }

    fn snapshot(&self) -> Self {
        Progress {
            sim_calls: AtomicU64::new(self.sim_calls.load(Ordering::Relaxed)),
            deadline: self.deadline.clone(),
        }
    }

    fn count(&self, calls: u64) {
        self.sim_calls.fetch_add(calls, Ordering::Relaxed);
    }

    /// A worker's deadline checks over a run of children.
    fn checks(&self) -> DeadlineChecks<'_> {
        DeadlineChecks {
            progress: self,
            count: 0,
        }
    }
}

/// Deadline checks per clock read over a run of children: a clock read costs about a fiftieth
/// of a child's rank, and sixteen ranks take tens of microseconds, which a deadline can spare.
const CHECKS_PER_CLOCK_READ: u32 = 16;

/// One worker's deadline checks: the clock is read on the first and every
/// [`CHECKS_PER_CLOCK_READ`]th check; between reads, the flag any read sets is checked.
struct DeadlineChecks<'p> {
    progress: &'p Progress,
    count: u32,
}

impl DeadlineChecks<'_> {
    fn out_of_time(&mut self) -> bool {
        let read_clock = self.count.is_multiple_of(CHECKS_PER_CLOCK_READ);
        self.count += 1;
        if read_clock {
            self.progress.out_of_time()
        } else {
            self.progress.deadline.has_passed()
        }
    }
}

fn action_index(action: Action) -> u8 {
    action.index() as u8
}

/// The key of a node: its field, turn and both stocks (the original left the stocks out).
fn node_key(node: &Node, turn: usize) -> u64 {
    WordHasher::default()
        .word(turn as u64)
        .word(node.state.ojama as u64)
        .word(node.enemy_ojama as u64)
        .field(&node.state.field)
        .finish()
}

/// The node of `child`, a move of a `frontier` node that was played when the child was made:
/// the beam keeps children as records and plays them again where it needs their state.
#[inline]
fn replay_child<N: Neighbourhood>(
    frontier: &[Node],
    child: &Child,
    pack: &PreparedPack,
    injected: i64,
) -> Node {
    let parent = &frontier[child.parent as usize];
    let action = Action::ALL[child.action as usize];
    play::<N>(parent, pack, action, injected).expect("a child's move was played before")
}

/// Plays `action` from `node` and the turn's ends: the ojama exchange, the injected stock,
/// the offset, and the next turn's ojama rows. `None` if the move loses.
#[inline]
fn play<N: Neighbourhood>(
    node: &Node,
    pack: &PreparedPack,
    action: Action,
    injected: i64,
) -> Option<Node> {
    let mut child = *node;
    let result = child.state.act::<N>(pack, action);
    if result.dead {
        return None;
    }
    child.enemy_ojama += result.ojama;
    child.state.ojama += injected;
    offset_ojama(&mut child.state.ojama, &mut child.enemy_ojama);
    child.state.drop_pending_ojama();
    if child.enemy_ojama >= OJAMA_ROW {
        child.enemy_ojama -= OJAMA_ROW;
    }
    Some(child)
}

/// The outcome of every drop of a pack on one field, in [`Action::drops`] order.
type DropOutcomes = [DropOutcome; DROPS as usize];

fn drop_outcomes<N: Neighbourhood>(field: &Field, pack: &PreparedPack) -> DropOutcomes {
    std::array::from_fn(|i| match Action::drops()[i] {
        Action::Drop { x, rot } => field.drop_outcome::<N>(pack, x, rot),
        Action::Skill => unreachable!("drops only"),
    })
}

/// What a frontier node's field gave the rank: the next pack's drops.
struct ParentWork {
    drops: DropOutcomes,
}

/// A child's parent's work, and the columns in which the child's field differs from the
/// parent's: what holds beside those columns need not be played again.
#[derive(Clone, Copy)]
struct Reference<'r> {
    parent: &'r ParentWork,
    changed: u16,
}

/// Tries the 36 drops of `pack` on `state`; strictly better wins, in x-major order.
fn lookahead<N: Neighbourhood>(
    state: &PlayerState,
    pack: &PreparedPack,
    flat: bool,
    reference: Option<Reference<'_>>,
) -> Option<Lookahead> {
    let mut best: Option<Lookahead> = None;
    let blocks_now = i64::from(state.field.number_blocks());
    for (i, &action) in Action::drops().iter().enumerate() {
        let outcome = match reference {
            Some(r) if r.parent.drops[i].holds_beside(r.changed) => r.parent.drops[i],
            _ => match action {
                Action::Drop { x, rot } => state.field.drop_outcome::<N>(pack, x, rot),
                Action::Skill => continue,
            },
        };
        if outcome.dead {
            continue;
        }
        let chains = u32::from(outcome.chains);
        let score = if flat {
            0
        } else {
            chain_ojama(chains) * 100 + blocks_now + i64::from(outcome.blocks_change)
        };
        if best.is_none_or(|b| score > b.score) {
            best = Some(Lookahead {
                chain: chains.min(MAX_CHAIN as u32) as u8,
                fire: action_index(action),
                score,
            });
        }
    }
    best
}

/// Ranks a child from its state (after its ojama row) and the next pack.
fn evaluate<N: Neighbourhood>(
    child: &mut Child,
    node: &Node,
    next_pack: Option<&PreparedPack>,
    cutoff: HeightCutoff,
    eval: BeamEval,
    reference: Option<Reference<'_>>,
) {
    if let BeamEval::Skill { count_blocks } = eval {
        evaluate_skill(child, &node.state, count_blocks);
        return;
    }
    let tall = cutoff != HeightCutoff::Off && node.state.field.columns_at_least(CUTOFF_HEIGHT) > 0;
    let best = next_pack.and_then(|pack| lookahead::<N>(&node.state, pack, tall, reference));
    let Some(best) = best else {
        child.chain = 0;
        child.fire = 0;
        child.total = NO_MOVE_TOTAL;
        return;
    };
    child.chain = best.chain;
    child.fire = best.fire;
    child.path_chain = child.path_chain.max(best.chain);
    if eval == BeamEval::Potential {
        // Ranked later, and only where a bucket keeps some of its nodes.
        child.total = UNRANKED;
        return;
    }
    let path_part = chain_ojama(u32::from(child.path_chain)) * 1000;
    child.total = match (tall, cutoff) {
        (true, HeightCutoff::Qualifier) => 0,
        _ => path_part + best.score,
    };
}

/// The potential rank of a child whose lookahead is known: the longest chain one erased
/// block starts, and the field's shape.
fn rank_by_potential<N: Neighbourhood>(child: &mut Child, node: &Node) {
    let field = &node.state.field;
    let potential = erase_potential::<N>(field);
    child.total = potential::score(field, chain_ojama(potential.chain));
}

/// Skill-mode rank (§9a.5): what the skill would destroy, weighed by how full the gauge is.
fn evaluate_skill(child: &mut Child, state: &PlayerState, count_blocks: bool) {
    let destroyed = state.field.skill_targets().popcount();
    let worth = destroyed
        + if count_blocks {
            state.field.number_blocks()
        } else {
            0
        };
    child.chain = destroyed.min(SKILL_BUCKETS) as u8;
    child.fire = 0;
    child.total = i64::from(worth) * i64::from(state.gauge.min(SKILL_COST));
}

/// The rank's work on every frontier field, which the frontier's children, differing from
/// their parent in a few columns, read instead of playing again what happens far from those
/// columns. Empty when the rank tries no drops (skill mode) or no pack follows.
fn parent_work<N: Neighbourhood>(
    frontier: &[Node],
    next_pack: Option<&PreparedPack>,
    eval: BeamEval,
    progress: &Progress,
) -> Vec<Option<ParentWork>> {
    let Some(pack) = next_pack.filter(|_| !matches!(eval, BeamEval::Skill { .. })) else {
        return Vec::new();
    };
    frontier
        .par_iter()
        .map(|node| {
            // Past the deadline no child is evaluated, and none reads this.
            if progress.out_of_time() {
                return None;
            }
            progress.count(u64::from(DROPS));
            let field = &node.state.field;
            Some(ParentWork {
                drops: drop_outcomes::<N>(field, pack),
            })
        })
        .collect()
}

/// One depth's frontier and how each node was reached.
#[derive(Clone)]
struct Level {
    nodes: Vec<Node>,
    /// `(parent index in the previous level, action index)` per node.
    links: Vec<(u32, u8)>,
}

/// The beam search itself; see the module documentation.
pub struct Beam<'a, N: Neighbourhood> {
    root: BeamRoot<'a>,
    config: BeamConfig,
    drops: Vec<Action>,
    progress: Progress,
    levels: Vec<Level>,
    /// The children of the deepest level, ranked as [`sort_buckets`] says.
    candidates: Vec<Child>,
    result: BeamResult,
    /// What the last depth cost, which the widths of the depths to come are fitted to.
    last_cost: Option<DepthCost>,
    /// Ranks every child by potential, also in buckets that keep none: the reference that
    /// ranking only the kept buckets is checked against.
    rank_every_bucket: bool,
    neighbours: std::marker::PhantomData<N>,
}

/// The time one depth took over the frontier it expanded.
#[derive(Clone, Copy, Debug)]
struct DepthCost {
    took: Duration,
    frontier: usize,
}

/// The share of the time left that the depths to come are fitted into: later depths hold
/// fuller fields whose drops chain more, so each costs a little more than the last.
const FIT_SHARE: f64 = 0.8;
/// A depth over fewer nodes than this is too short to say what a node costs.
const MIN_COST_SAMPLE: usize = 64;
/// Narrowing stops here: a beam this wide still plans, and a narrower one hardly does.
const MIN_FIT_WIDTH: usize = 48;

/// The width at which `depths` more depths end within [`FIT_SHARE`] of `left`, where the
/// last one took `cost`; `None` when `width` already fits (a beam is never widened here).
fn width_that_fits(width: usize, cost: DepthCost, left: Duration, depths: usize) -> Option<usize> {
    if cost.frontier < MIN_COST_SAMPLE || depths == 0 {
        return None;
    }
    let per_node = cost.took.as_secs_f64() / cost.frontier as f64;
    let fits = left.as_secs_f64() * FIT_SHARE / (per_node.max(1e-9) * depths as f64);
    (fits < width as f64).then(|| (fits as usize).max(MIN_FIT_WIDTH).min(width))
}

/// A copy that continues independently (benchmarks time one depth from the same start).
impl<N: Neighbourhood> Clone for Beam<'_, N> {
    fn clone(&self) -> Self {
        Beam {
            root: self.root,
            config: self.config.clone(),
            drops: self.drops.clone(),
            progress: self.progress.snapshot(),
            levels: self.levels.clone(),
            candidates: self.candidates.clone(),
            result: self.result.clone(),
            last_cost: self.last_cost,
            rank_every_bucket: self.rank_every_bucket,
            neighbours: std::marker::PhantomData,
        }
    }
}

/// Runs a beam search from `root` with `config` on the current rayon pool.
pub fn search<N: Neighbourhood>(root: BeamRoot<'_>, config: &BeamConfig) -> BeamResult {
    Beam::<N>::new(root, config.clone()).run()
}

impl<'a, N: Neighbourhood> Beam<'a, N> {
    pub fn new(root: BeamRoot<'a>, config: BeamConfig) -> Self {
        let drops = config.drops();
        let progress = Progress::new(config.deadline);
        let width = config.width;
        let mut beam = Beam {
            root,
            config,
            drops,
            progress,
            levels: Vec::new(),
            candidates: Vec::new(),
            result: BeamResult {
                earliest: vec![None; MAX_CHAIN + 1],
                width,
                ..BeamResult::default()
            },
            last_cost: None,
            rank_every_bucket: false,
            neighbours: std::marker::PhantomData,
        };
        beam.candidates = beam.start();
        beam
    }

    /// Searches to the end and returns what was found.
    pub fn run(mut self) -> BeamResult {
        while self.step() {}
        self.finish()
    }

    /// Searches one more depth; returns whether another one may follow.
    pub fn step(&mut self) -> bool {
        let depth = self.result.depth;
        if self.at_its_end() {
            return false;
        }
        if self.progress.out_of_time() {
            self.result.timed_out = true;
            return false;
        }
        let began = Instant::now();
        if depth > 0 {
            self.fit_deadline(depth);
            let candidates = std::mem::take(&mut self.candidates);
            self.select(&candidates);
        }
        let mut children = self.expand(depth);
        if children.is_empty() {
            // No child: the field allows no move, or the deadline stopped every one.
            self.result.timed_out = self.progress.out_of_time();
            return false;
        }
        self.result.depth = depth + 1;
        let stop = self.record(&mut children, depth + 1);
        if self.rank_every_bucket || !(stop || self.at_its_end()) {
            self.rank_kept_buckets(&mut children, depth);
        }
        self.last_cost = Some(DepthCost {
            took: began.elapsed(),
            frontier: self.levels.last().map_or(0, |level| level.nodes.len()),
        });
        self.result.buckets.push(bucket_summary(
            &children,
            self.config.width,
            self.config.bucket_width,
        ));
        self.candidates = children;
        if self.progress.out_of_time() {
            self.result.timed_out = true;
            return false;
        }
        !stop
    }

    /// The root level (after its ojama row), its own lookahead recorded at depth 0. Returns the
    /// root as the only candidate, so that a search that cannot move still has a best node.
    fn start(&mut self) -> Vec<Child> {
        let mut root = Node {
            state: self.root.state,
            enemy_ojama: self.root.enemy_ojama,
            path_chain: 0,
        };
        root.state.drop_pending_ojama();
        let mut child = Child {
            key: node_key(&root, 0),
            total: 0,
            parent: u32::MAX,
            action: 0,
            path_chain: 0,
            chain: 0,
            fire: 0,
        };
        evaluate::<N>(
            &mut child,
            &root,
            self.root.packs.first(),
            self.config.height_cutoff,
            self.config.eval,
            None,
        );
        if child.total == UNRANKED {
            rank_by_potential::<N>(&mut child, &root);
        }
        self.progress.count(u64::from(DROPS));
        // The root's own chain is reported, but the target and stop rules, like the node
        // totals, look only at what the moves build.
        for slot in &mut self.result.earliest[..=usize::from(child.chain)] {
            slot.get_or_insert(0);
        }
        self.result.fires.push(fire_of(&child, Vec::new()));
        self.levels.push(Level {
            nodes: vec![root],
            links: vec![(u32::MAX, 0)],
        });
        vec![child]
    }

    /// Narrows the depths from `depth` on when, at the width the last one was expanded at,
    /// they would not all end by the deadline (see [`BeamConfig::fit_deadline`]).
    fn fit_deadline(&mut self, depth: usize) {
        let (Some(aim), Some(deadline), Some(cost)) = (
            self.config.fit_deadline,
            self.config.deadline,
            self.last_cost,
        ) else {
            return;
        };
        let last = self.config.depth.min(self.root.packs.len());
        let depths = if depth < aim {
            aim.min(last) - depth
        } else {
            last - depth
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if let Some(width) = width_that_fits(self.config.width, cost, left, depths) {
            self.config.set_width(width);
            self.result.width = width;
        }
    }

    /// No depth follows the last one searched: the depth or the node budget is reached.
    fn at_its_end(&self) -> bool {
        self.result.depth >= self.config.depth.min(self.root.packs.len()) || self.budget_spent()
    }

    fn budget_spent(&self) -> bool {
        self.config
            .node_budget
            .is_some_and(|budget| self.result.nodes >= budget)
    }

    /// Chooses the next frontier among `candidates` (see [`sort_buckets`]): the best of
    /// each bucket, highest chain first, within both widths; and plays their moves again.
    fn select(&mut self, candidates: &[Child]) {
        let chosen = choose_frontier(candidates, self.config.width, self.config.bucket_width);
        let parents = &self.levels.last().expect("root level").nodes;
        let depth = self.levels.len() - 1;
        let pack = &self.root.packs[depth];
        let injected = self.injected(depth);
        let nodes: Vec<Node> = chosen
            .par_iter()
            .map(|c| {
                let mut node = replay_child::<N>(parents, c, pack, injected);
                node.path_chain = c.path_chain;
                node
            })
            .collect();
        self.progress.count(nodes.len() as u64);
        let links = chosen.iter().map(|c| (c.parent, c.action)).collect();
        self.levels.push(Level { nodes, links });
    }

    /// Ojama injected after the move made at `depth`.
    fn injected(&self, depth: usize) -> i64 {
        match self.config.injection {
            Some(inj) if inj.after_moves == depth + 1 => inj.ojama,
            _ => 0,
        }
    }

    /// Plays every move of the frontier, removes duplicates and evaluates the rest: the
    /// children at `depth + 1`, ranked as [`sort_buckets`] says; under the potential rank only
    /// the top bucket (what the depth's fire is read from), the rest once it is known that
    /// another depth follows ([`Beam::rank_kept_buckets`]).
    fn expand(&mut self, depth: usize) -> Vec<Child> {
        let mut children = self.generate(depth);
        dedup_by_key(&mut children);
        let children = self.evaluate_all(children, depth);
        let mut grouped = group_by_chain(children);
        let ranked = if self.config.eval == BeamEval::Potential {
            top_bucket_len(&grouped)
        } else {
            grouped.len()
        };
        self.rank_unranked(&mut grouped[..ranked], depth);
        sort_buckets(&mut grouped[..ranked], self.config.bucket_width);
        grouped
    }

    /// Ranks by potential the buckets of `children` (of `depth`) that the next frontier takes
    /// from, as [`sort_buckets`] says, below the top one [`Beam::expand`] ranked; the others are
    /// never chosen and stay unranked.
    fn rank_kept_buckets(&self, children: &mut [Child], depth: usize) {
        if self.config.eval != BeamEval::Potential {
            return;
        }
        let ranked = if self.rank_every_bucket {
            children.len()
        } else {
            frontier_buckets(children, self.config.width, self.config.bucket_width)
                .take_while(|&(_, take)| take > 0)
                .map(|(bucket, _)| bucket.len())
                .sum()
        };
        self.rank_unranked(&mut children[..ranked], depth);
        let top = top_bucket_len(children);
        sort_buckets(&mut children[top..], self.config.bucket_width);
    }

    /// Ranks by potential the `children` of `depth` (children of the last level) that are
    /// not ranked yet. A depth ranks its top bucket, and the buckets that keep some of their
    /// nodes when another depth follows: the potential is most of a child's cost, and the
    /// other buckets are never chosen (the last depth's are ranked when the plan is chosen
    /// among them).
    fn rank_unranked(&self, children: &mut [Child], depth: usize) {
        if self.config.eval != BeamEval::Potential {
            return;
        }
        let frontier = &self.levels.last().expect("root level").nodes;
        let pack = &self.root.packs[depth];
        let injected = self.injected(depth);
        let progress = &self.progress;
        children
            .par_iter_mut()
            .filter(|child| child.total == UNRANKED && child.parent != u32::MAX)
            .for_each_init(
                || progress.checks(),
                |checks, child| {
                    if checks.out_of_time() {
                        return;
                    }
                    let node = replay_child::<N>(frontier, child, pack, injected);
                    rank_by_potential::<N>(child, &node);
                },
            );
    }

    fn generate(&self, depth: usize) -> Vec<Child> {
        let frontier = &self.levels.last().expect("root level").nodes;
        let pack = &self.root.packs[depth];
        let injected = self.injected(depth);
        let forced = self.config.first_move.filter(|_| depth == 0);
        let drops: &[Action] = match &forced {
            Some(action) => std::slice::from_ref(action),
            None => &self.drops,
        };
        let progress = &self.progress;
        frontier
            .par_iter()
            .enumerate()
            .flat_map_iter(|(parent, node)| {
                let live = !progress.out_of_time();
                if live {
                    progress.count(drops.len() as u64);
                }
                drops
                    .iter()
                    .filter(move |_| live)
                    .filter_map(move |&action| {
                        let child = play::<N>(node, pack, action, injected)?;
                        Some(Child {
                            key: node_key(&child, depth + 1),
                            total: 0,
                            parent: parent as u32,
                            action: action_index(action),
                            path_chain: node.path_chain,
                            chain: 0,
                            fire: 0,
                        })
                    })
            })
            .collect()
    }

    fn evaluate_all(&mut self, mut children: Vec<Child>, depth: usize) -> Vec<Child> {
        let frontier = &self.levels.last().expect("root level").nodes;
        let pack = &self.root.packs[depth];
        let next_pack = self.root.packs.get(depth + 1);
        let injected = self.injected(depth);
        let cutoff = self.config.height_cutoff;
        let eval = self.config.eval;
        let progress = &self.progress;
        let parents = parent_work::<N>(frontier, next_pack, eval, progress);
        let evaluated: Vec<bool> = children
            .par_iter_mut()
            .map_init(
                || progress.checks(),
                |checks, child| {
                    if checks.out_of_time() {
                        return false;
                    }
                    let parent = &frontier[child.parent as usize];
                    let node = replay_child::<N>(frontier, child, pack, injected);
                    let work = parents.get(child.parent as usize).and_then(Option::as_ref);
                    let reference = work.map(|work| Reference {
                        parent: work,
                        changed: parent.state.field.changed_columns(&node.state.field),
                    });
                    evaluate::<N>(child, &node, next_pack, cutoff, eval, reference);
                    progress.count(1 + u64::from(DROPS));
                    true
                },
            )
            .collect();
        if evaluated.iter().all(|&e| e) {
            self.result.nodes += children.len() as u64;
            return children;
        }
        let kept: Vec<Child> = children
            .into_iter()
            .zip(evaluated)
            .filter_map(|(c, e)| e.then_some(c))
            .collect();
        self.result.nodes += kept.len() as u64;
        kept
    }

    /// Records the chains available at `depth` and applies the target and stop rules. Returns
    /// whether the search stops here.
    fn record(&mut self, candidates: &mut Vec<Child>, depth: usize) -> bool {
        let deepest = candidates.first().map_or(0, |c| u32::from(c.chain));
        self.note_chain(deepest, depth);
        let fire = candidates
            .first()
            .and_then(|best| fire_of(best, self.path_to(best)));
        self.result.fires.push(fire);
        if let Some(target) = self.config.target {
            if self.result.target_depth.is_none() && self.result.max_chain >= target.chain {
                self.result.target_depth = Some(depth);
                if target.stop {
                    return true;
                }
                let keep = target.chain as i64 + i64::from(target.keep_offset);
                candidates.retain(|c| i64::from(c.chain) >= keep);
            }
        }
        self.config
            .stop_chain
            .is_some_and(|stop| self.result.max_chain >= stop)
    }

    fn note_chain(&mut self, chain: u32, depth: usize) {
        for slot in &mut self.result.earliest[..=chain as usize] {
            slot.get_or_insert(depth);
        }
        if chain > self.result.max_chain {
            self.result.max_chain = chain;
            self.result.max_chain_depth = depth;
        }
    }

    /// The best candidate of the last depth (highest total; among equals the higher bucket,
    /// then the stable order) and the path to it. With a stop chain (`-bcm2`) only the highest
    /// bucket competes, as in the qualifier version: otherwise a node whose path once held a
    /// big chain can win with a small one left. Without [`BeamConfig::choose_plan`], only what
    /// the depths recorded.
    pub fn finish(mut self) -> BeamResult {
        self.result.sim_calls = self.progress.sim_calls.load(Ordering::Relaxed);
        if !self.config.choose_plan {
            return self.result;
        }
        let mut candidates = std::mem::take(&mut self.candidates);
        let top = candidates.first().map_or(0, |c| c.chain);
        let competing = candidates
            .iter()
            .take_while(|c| self.config.stop_chain.is_none() || c.chain == top)
            .count();
        if self.result.depth > 0 {
            self.rank_unranked(&mut candidates[..competing], self.result.depth - 1);
        }
        let best =
            candidates[..competing]
                .iter()
                .reduce(|best, c| if c.total > best.total { c } else { best });
        if let Some(best) = best {
            self.result.best_chain = u32::from(best.chain);
            self.result.best_fire = (best.fire != 0).then(|| Action::ALL[best.fire as usize]);
            self.result.plan = self.path_to(best);
        }
        self.result
    }

    /// The moves from the root to `child` (a child of the last level).
    fn path_to(&self, child: &Child) -> Vec<Action> {
        if child.parent == u32::MAX {
            return Vec::new();
        }
        let mut path = vec![Action::ALL[child.action as usize]];
        let mut index = child.parent;
        for level in self.levels.iter().skip(1).rev() {
            let (parent, action) = level.links[index as usize];
            path.push(Action::ALL[action as usize]);
            index = parent;
        }
        path.reverse();
        path
    }
}

/// The fire `child` (reached by `path`) can make next, if it can fire at all.
fn fire_of(child: &Child, mut path: Vec<Action>) -> Option<Fire> {
    if child.chain == 0 || child.fire == 0 {
        return None;
    }
    path.push(Action::ALL[child.fire as usize]);
    let chains = u32::from(child.chain);
    Some(Fire {
        path,
        chains,
        ojama: chain_ojama(chains),
    })
}

/// The buckets of `candidates` (see [`sort_buckets`]), highest chain first, each with
/// how many of its best nodes go on: at most `bucket_width` per bucket and `width` in all.
fn frontier_buckets(
    candidates: &[Child],
    width: usize,
    bucket_width: usize,
) -> impl Iterator<Item = (&[Child], usize)> {
    let mut left = width;
    candidates
        .chunk_by(|a, b| a.chain == b.chain)
        .map(move |bucket| {
            let take = bucket.len().min(bucket_width).min(left);
            left -= take;
            (bucket, take)
        })
}

/// The best nodes of each bucket that go on to the next depth.
fn choose_frontier(candidates: &[Child], width: usize, bucket_width: usize) -> Vec<Child> {
    let mut chosen = Vec::with_capacity(width.min(candidates.len()));
    for (bucket, take) in frontier_buckets(candidates, width, bucket_width) {
        chosen.extend_from_slice(&bucket[..take]);
    }
    chosen
}

fn bucket_summary(candidates: &[Child], width: usize, bucket_width: usize) -> Vec<Bucket> {
    frontier_buckets(candidates, width, bucket_width)
        .map(|(bucket, take)| Bucket {
            chain: bucket[0].chain,
            nodes: bucket.len() as u32,
            kept: take as u32,
            best: (bucket[0].total != UNRANKED).then_some(bucket[0].total),
        })
        .collect()
}

/// Removes children with equal keys, keeping the best path chain, then the earliest in frontier
/// order (parent, then move): the order `children` come in from the expansion and stay in,
/// which is also the order the evaluation is cut at on a deadline.
fn dedup_by_key(children: &mut Vec<Child>) {
    debug_assert!(children.is_sorted_by_key(|c| (c.parent, c.action)));
    let mut kept = vec![false; children.len()];
    let mut holders = FnvHashMap::with_capacity_and_hasher(children.len(), Default::default());
    for (i, child) in children.iter().enumerate() {
        let index = i as u32;
        let holder = holders.entry(child.key).or_insert(index);
        if *holder == index {
            kept[i] = true;
        } else if child.path_chain > children[*holder as usize].path_chain {
            kept[*holder as usize] = false;
            kept[i] = true;
            *holder = index;
        }
    }
    let mut kept = kept.into_iter();
    children.retain(|_| kept.next().unwrap_or(false));
}

/// Orders children grouped by chain ([`group_by_chain`]) for the frontier choice: in each
/// bucket its `bucket_width` best (at least its best) in rank order at the front. The rest
/// of a bucket, which no frontier takes and no rule reads, stays unsorted: sorting every child
/// of a depth cost more than choosing among them.
fn sort_buckets(grouped: &mut [Child], bucket_width: usize) {
    for bucket in grouped.chunk_by_mut(|a, b| a.chain == b.chain) {
        sort_best(bucket, bucket_width.max(1));
    }
}

/// The children in the first bucket of `grouped` (grouped by chain, highest first).
fn top_bucket_len(grouped: &[Child]) -> usize {
    grouped
        .chunk_by(|a, b| a.chain == b.chain)
        .next()
        .map_or(0, <[Child]>::len)
}

/// `children` grouped by bucket, highest chain first (a counting sort).
fn group_by_chain(children: Vec<Child>) -> Vec<Child> {
    let mut next = [0usize; 256];
    for child in &children {
        next[usize::from(child.chain)] += 1;
    }
    let mut start = 0;
    for slot in next.iter_mut().rev() {
        let count = *slot;
        *slot = start;
        start += count;
    }
    let mut grouped = children.clone();
    for child in children {
        let at = &mut next[usize::from(child.chain)];
        grouped[*at] = child;
        *at += 1;
    }
    grouped
}

/// Puts the `count` best of `bucket` at its front in rank order: highest total first, then the
/// stable order of [`Child::tie_key`] (unique after deduplication, so the order is total).
fn sort_best(bucket: &mut [Child], count: usize) {
    let by_rank = |a: &Child, b: &Child| b.total.cmp(&a.total).then(a.tie_key().cmp(&b.tie_key()));
    if bucket.len() > count {
        bucket.select_nth_unstable_by(count, by_rank);
    }
    let top = count.min(bucket.len());
    bucket[..top].sort_unstable_by(by_rank);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::bench_positions;
    use crate::sim::Shift;

    fn child(chain: u8, total: i64, key: u64) -> Child {
        Child {
            key,
            total,
            parent: 0,
            action: 1,
            path_chain: chain,
            chain,
            fire: 0,
        }
    }

    #[test]
    fn frontier_takes_exactly_the_bucket_width_highest_chain_first() {
        let mut candidates: Vec<Child> = (0..5).map(|k| child(9, 100 - k, k as u64)).collect();
        candidates.extend((0..3).map(|k| child(7, 50, 10 + k)));
        candidates.extend((0..10).map(|k| child(2, 10, 20 + k)));
        let chosen = choose_frontier(&candidates, 8, 4);
        let chains: Vec<u8> = chosen.iter().map(|c| c.chain).collect();
        assert_eq!(chains, [9, 9, 9, 9, 7, 7, 7, 2]);
        assert_eq!(chosen[0].total, 100, "the best of a bucket goes first");
        assert!(choose_frontier(&candidates, 0, 4).is_empty());
    }

    /// Every drop the lookahead takes from the parent's field does on the child exactly what
    /// it did there; and a drop that only misses the changed columns, without a column
    /// between them, may not.
    #[test]
    fn a_drop_far_from_a_childs_changes_does_on_it_what_it_did_on_the_parent() {
        let (mut reused, mut reused_chains, mut adjacent_differs) = (0, 0, 0);
        for position in bench_positions() {
            // The position, and the same with a row of ojama about to fall.
            let mut pending = position.me;
            pending.ojama += OJAMA_ROW;
            for me in [position.me, pending] {
                let parent = Node {
                    state: me,
                    enemy_ojama: 0,
                    path_chain: 0,
                };
                let (pack, next) = (&position.packs[0], &position.packs[1]);
                let outcomes = drop_outcomes::<Shift>(&me.field, next);
                for &action in Action::drops() {
                    let Some(child) = play::<Shift>(&parent, pack, action, 0) else {
                        continue;
                    };
                    let field = &child.state.field;
                    let changed = me.field.changed_columns(field);
                    for (i, &drop) in Action::drops().iter().enumerate() {
                        let Action::Drop { x: dx, rot } = drop else {
                            continue;
                        };
                        let own = field.drop_outcome::<Shift>(next, dx, rot);
                        let kept = outcomes[i];
                        if kept.holds_beside(changed) {
                            assert_eq!(own, kept, "{}: {action} then {drop}", position.name);
                            reused += 1;
                            reused_chains += usize::from(kept.chains > 0);
                        } else if kept.columns & changed == 0 && own != kept {
                            adjacent_differs += 1;
                        }
                    }
                }
            }
        }
        assert!(
            reused > 1000 && reused_chains > 100,
            "{reused} reused, {reused_chains} chains"
        );
        assert!(adjacent_differs > 0, "a neighbouring column changes a drop");
    }

    /// Children in frontier order with keys, path chains and ranks from a fixed scramble.
    fn scrambled_children(count: u32, keys: u64) -> Vec<Child> {
        (0..count)
            .map(|i| {
                let mix = u64::from(i).wrapping_mul(0x2545_F491_4F6C_DD1D) >> 7;
                Child {
                    // Keys that differ only above bit 40, so that their low bits all collide.
                    key: (mix % keys) << 40,
                    total: (mix >> 20) as i64 % 50,
                    parent: i / 20,
                    action: (i % 20) as u8 + 1,
                    path_chain: (mix >> 30) as u8 % 4,
                    chain: (mix >> 40) as u8 % 6,
                    fire: 0,
                }
            })
            .collect()
    }

    #[test]
    fn dedup_keeps_the_best_path_chain_then_the_earliest_in_frontier_order() {
        let children = scrambled_children(3000, 700);
        let mut deduped = children.clone();
        dedup_by_key(&mut deduped);
        let mut expected = children.clone();
        expected.sort_by(|a, b| {
            a.key
                .cmp(&b.key)
                .then(b.path_chain.cmp(&a.path_chain))
                .then((a.parent, a.action).cmp(&(b.parent, b.action)))
        });
        expected.dedup_by_key(|c| c.key);
        expected.sort_by_key(|c| (c.parent, c.action));
        assert!(expected.len() < children.len() / 2, "the keys repeat");
        let order =
            |v: &[Child]| -> Vec<(u32, u8)> { v.iter().map(|c| (c.parent, c.action)).collect() };
        assert_eq!(order(&deduped), order(&expected));
    }

    #[test]
    fn ranking_fronts_each_bucket_with_its_best_in_rank_order() {
        let children = scrambled_children(3000, u64::MAX);
        let mut sorted = children.clone();
        sorted.sort_by(|a, b| {
            b.chain
                .cmp(&a.chain)
                .then(b.total.cmp(&a.total))
                .then(a.tie_key().cmp(&b.tie_key()))
        });
        let width = 37;
        let mut ranked = group_by_chain(children);
        sort_buckets(&mut ranked, width);
        assert_eq!(ranked.len(), sorted.len());
        let ranked_buckets: Vec<&[Child]> = ranked.chunk_by(|a, b| a.chain == b.chain).collect();
        let sorted_buckets: Vec<&[Child]> = sorted.chunk_by(|a, b| a.chain == b.chain).collect();
        assert_eq!(ranked_buckets.len(), 6);
        assert_eq!(ranked_buckets.len(), sorted_buckets.len());
        let ids =
            |v: &[Child]| -> Vec<(u32, u8)> { v.iter().map(|c| (c.parent, c.action)).collect() };
        for (got, want) in ranked_buckets.iter().zip(&sorted_buckets) {
            assert_eq!(got.len(), want.len());
            assert_eq!(ids(&got[..width]), ids(&want[..width]));
            let mut rest = ids(&got[width..]);
            rest.sort();
            let mut want_rest = ids(&want[width..]);
            want_rest.sort();
            assert_eq!(rest, want_rest, "the rest of a bucket is the same children");
        }
        assert_eq!(
            ids(&choose_frontier(&ranked, 100, width)),
            ids(&choose_frontier(&sorted, 100, width))
        );
    }

    fn position(name: &str) -> crate::bench::BenchPosition {
        bench_positions()
            .into_iter()
            .find(|p| p.name == name)
            .expect("bench position")
    }

    fn root(p: &crate::bench::BenchPosition) -> BeamRoot<'_> {
        BeamRoot {
            state: p.me,
            enemy_ojama: p.enemy_ojama,
            packs: &p.packs,
        }
    }

    #[test]
    fn earliest_depth_counts_every_chain_at_least_that_long() {
        let p = position("initial");
        let mut beam = Beam::<Shift>::new(root(&p), BeamConfig::new(1, 10, 10));
        beam.note_chain(12, 5);
        beam.note_chain(14, 7);
        let r = &beam.result;
        assert_eq!(r.earliest_depth(10), Some(5));
        assert_eq!(r.earliest_depth(12), Some(5));
        assert_eq!(r.earliest_depth(13), Some(7));
        assert_eq!(r.earliest_depth(15), None);
        assert_eq!((r.max_chain, r.max_chain_depth), (14, 7));
    }

    #[test]
    fn keys_tell_stocks_apart() {
        let node = Node {
            state: PlayerState::default(),
            enemy_ojama: 0,
            path_chain: 0,
        };
        let mut stocked = node;
        stocked.state.ojama = 3;
        let mut sent = node;
        sent.enemy_ojama = 3;
        let keys = [
            node_key(&node, 4),
            node_key(&stocked, 4),
            node_key(&sent, 4),
        ];
        assert_ne!(keys[0], keys[1]);
        assert_ne!(keys[0], keys[2]);
        assert_ne!(keys[1], keys[2]);
        assert_ne!(node_key(&node, 4), node_key(&node, 5));
    }

    #[test]
    fn the_search_stops_at_the_last_pack() {
        let p = position("initial");
        let r = search::<Shift>(
            BeamRoot {
                packs: &p.packs[..3],
                ..root(&p)
            },
            &BeamConfig::new(16, 50, 20),
        );
        assert_eq!(r.depth, 3);
        assert_eq!(r.plan.len(), 3);
    }

    /// Plays `plan` from `root` as the beam does and returns the state reached.
    fn replay(root: &BeamRoot<'_>, plan: &[Action]) -> PlayerState {
        let mut node = Node {
            state: root.state,
            enemy_ojama: root.enemy_ojama,
            path_chain: 0,
        };
        node.state.drop_pending_ojama();
        for (action, pack) in plan.iter().zip(root.packs) {
            node = play::<Shift>(&node, pack, *action, 0).expect("the plan survives");
        }
        node.state
    }

    #[test]
    fn the_plan_reaches_a_field_that_fires_the_reported_chain() {
        for name in ["initial", "segfault", "dead"] {
            let p = position(name);
            let r = search::<Shift>(root(&p), &BeamConfig::new(6, 200, 60));
            assert_eq!(r.plan.len(), r.depth, "{name}");
            let mut end = replay(&root(&p), &r.plan);
            let fire = r.best_fire.expect("the best node has a move");
            let fired = end.act::<Shift>(&p.packs[r.plan.len()], fire);
            assert_eq!(fired.chains, r.best_chain, "{name}");
            assert!(r.max_chain >= r.best_chain);
            assert!(r.earliest_depth(r.max_chain).is_some());
        }
    }

    #[test]
    fn injected_ojama_falls_after_the_given_move() {
        let p = position("initial");
        let free = search::<Shift>(root(&p), &BeamConfig::new(3, 30, 10));
        assert_eq!(free.depth, 3);
        let buried = BeamConfig {
            injection: Some(Injection {
                after_moves: 1,
                ojama: 10,
            }),
            ..BeamConfig::new(3, 30, 10)
        };
        let first = nodes_after_one_move(&p, buried);
        assert!(first.iter().all(|n| n.state.field.ojama().popcount() == 10));
        let heavy = BeamConfig {
            injection: Some(Injection {
                after_moves: 1,
                ojama: 200,
            }),
            ..BeamConfig::new(3, 30, 10)
        };
        let first = nodes_after_one_move(&p, heavy);
        assert!(first
            .iter()
            .all(|n| n.state.ojama == 190 && n.state.field.ojama().popcount() == 10));
    }

    /// The frontier after the first move, from a root that holds no ojama.
    fn nodes_after_one_move(p: &crate::bench::BenchPosition, config: BeamConfig) -> Vec<Node> {
        let mut beam = Beam::<Shift>::new(root(p), config);
        assert!(beam.levels[0].nodes[0].state.field.ojama().is_zero());
        assert!(beam.step() && beam.step());
        beam.levels[1].nodes.clone()
    }

    #[test]
    fn once_the_target_is_found_only_the_kept_buckets_survive() {
        let p = position("initial");
        let config = BeamConfig {
            target: Some(Target {
                chain: 6,
                keep_offset: -1,
                stop: false,
            }),
            ..BeamConfig::new(10, 300, 80)
        };
        let mut beam = Beam::<Shift>::new(root(&p), config);
        while beam.result.target_depth.is_none() {
            assert!(beam.step(), "a 6-chain is reachable from this position");
        }
        assert!(!beam.candidates.is_empty());
        assert!(beam.candidates.iter().all(|c| c.chain >= 5));
        let stopping = BeamConfig {
            target: Some(Target {
                chain: 6,
                keep_offset: -1,
                stop: true,
            }),
            ..BeamConfig::new(10, 300, 80)
        };
        let r = search::<Shift>(root(&p), &stopping);
        assert_eq!(Some(r.depth), r.target_depth);
        let stop_chain = BeamConfig {
            stop_chain: Some(6),
            ..BeamConfig::new(10, 300, 80)
        };
        let r = search::<Shift>(root(&p), &stop_chain);
        assert!(r.max_chain >= 6);
        assert_eq!(r.depth, r.earliest_depth(6).unwrap());
    }

    #[test]
    fn with_a_stop_chain_the_plan_ends_in_the_highest_bucket() {
        let p = position("dead");
        for stop_chain in [None, Some(40)] {
            let config = BeamConfig {
                stop_chain,
                ..BeamConfig::new(6, 200, 60)
            };
            let mut beam = Beam::<Shift>::new(root(&p), config);
            while beam.step() {}
            let top = beam.candidates[0].chain;
            let best_total = beam.candidates.iter().map(|c| c.total).max().unwrap();
            let overall = beam
                .candidates
                .iter()
                .find(|c| c.total == best_total)
                .unwrap()
                .chain;
            let result = beam.finish();
            let expected = if stop_chain.is_some() { top } else { overall };
            assert_eq!(
                result.best_chain,
                u32::from(expected),
                "stop chain {stop_chain:?}"
            );
        }
    }

    #[test]
    fn a_node_budget_ends_the_search_at_a_depth_boundary() {
        let p = position("error");
        let full = search::<Shift>(root(&p), &BeamConfig::new(6, 200, 60));
        let budget = full.nodes / 2;
        let cut = search::<Shift>(
            root(&p),
            &BeamConfig {
                node_budget: Some(budget),
                ..BeamConfig::new(6, 200, 60)
            },
        );
        assert!(cut.nodes >= budget && cut.nodes < full.nodes);
        assert!(cut.depth < full.depth);
        assert!(!cut.timed_out);
    }

    #[test]
    fn a_past_deadline_returns_the_root_at_once() {
        let p = position("error");
        let config = BeamConfig {
            deadline: Some(Instant::now()),
            ..BeamConfig::new(6, 200, 60)
        };
        let r = search::<Shift>(root(&p), &config);
        assert!(r.timed_out);
        assert_eq!((r.depth, r.plan.len(), r.nodes), (0, 0, 0));
    }

    #[test]
    fn the_width_that_fits_shares_the_time_left_among_the_depths_to_come() {
        let cost = DepthCost {
            took: Duration::from_millis(100),
            frontier: 1000,
        };
        let ms = Duration::from_millis;
        // 0.1 ms a node: 4 depths in 800 ms of 1,000 ms hold 2,000 nodes each.
        assert_eq!(width_that_fits(5000, cost, ms(1000), 4), Some(2000));
        assert_eq!(width_that_fits(1500, cost, ms(1000), 4), None, "it fits");
        assert_eq!(width_that_fits(5000, cost, ms(0), 4), Some(MIN_FIT_WIDTH));
        let small = DepthCost {
            frontier: 22,
            ..cost
        };
        assert_eq!(
            width_that_fits(5000, small, ms(10), 4),
            None,
            "too few to tell"
        );
    }

    #[test]
    fn a_beam_fitted_to_its_deadline_narrows_and_searches_deeper() {
        let p = position("initial");
        let config = |fit_deadline| BeamConfig {
            deadline: Some(Instant::now() + Duration::from_millis(800)),
            fit_deadline,
            ..BeamConfig::new(8, 20_000, 6_000)
        };
        let cut = search::<Shift>(root(&p), &config(None));
        let fitted = search::<Shift>(root(&p), &config(Some(8)));
        assert!(
            cut.timed_out && cut.depth < 8,
            "20,000 wide is too wide here"
        );
        assert_eq!(cut.width, 20_000);
        assert!(fitted.width < 20_000);
        assert!(
            fitted.depth > cut.depth,
            "fitted {} against {}",
            fitted.depth,
            cut.depth
        );
    }

    /// Ranking by potential only the buckets that keep some of their nodes finds what ranking
    /// every child finds: the same frontiers, fires and plan.
    #[test]
    fn ranking_only_the_kept_buckets_changes_nothing_the_beam_finds() {
        let mut unranked = 0;
        for p in bench_positions() {
            for (stop_chain, bucket_width) in [(None, 40), (None, 12), (Some(11), 40)] {
                let config = BeamConfig {
                    eval: BeamEval::Potential,
                    stop_chain,
                    ..BeamConfig::new(6, 120, bucket_width)
                };
                let kept = Beam::<Shift>::new(root(&p), config.clone()).run();
                let mut every = Beam::<Shift>::new(root(&p), config);
                every.rank_every_bucket = true;
                let mut every = every.run();
                for (depth, buckets) in kept.buckets.iter().enumerate() {
                    for (i, bucket) in buckets.iter().enumerate() {
                        if bucket.best.is_none() {
                            unranked += 1;
                            every.buckets[depth][i].best = None;
                        }
                    }
                }
                assert_eq!(kept, every, "{}, {stop_chain:?}, {bucket_width}", p.name);
            }
        }
        assert!(unranked > 10, "{unranked} buckets left unranked");
    }

    /// A beam that chooses no plan records what one that does records, depth by depth.
    #[test]
    fn a_beam_that_chooses_no_plan_records_the_same_depths() {
        for p in bench_positions() {
            let config = BeamConfig {
                eval: BeamEval::Potential,
                ..BeamConfig::new(6, 120, 40)
            };
            let planned = search::<Shift>(root(&p), &config);
            let recorded = search::<Shift>(
                root(&p),
                &BeamConfig {
                    choose_plan: false,
                    ..config
                },
            );
            assert!(
                recorded.plan.is_empty() && recorded.best_fire.is_none(),
                "{}",
                p.name
            );
            assert_eq!(recorded.fires, planned.fires, "{}", p.name);
            assert_eq!(
                (
                    recorded.earliest,
                    recorded.max_chain,
                    recorded.depth,
                    recorded.nodes
                ),
                (
                    planned.earliest,
                    planned.max_chain,
                    planned.depth,
                    planned.nodes
                ),
                "{}",
                p.name
            );
        }
    }

    #[test]
    fn the_plan_does_not_depend_on_the_number_of_threads() {
        for name in ["initial", "must_not_die"] {
            let p = position(name);
            let config = BeamConfig {
                node_budget: Some(15_000),
                ..BeamConfig::new(8, 250, 70)
            };
            let run = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("thread pool");
                pool.install(|| search::<Shift>(root(&p), &config))
            };
            let one = run(1);
            assert!(one.depth >= 2, "{name}: the budget covers several depths");
            for threads in [2, 16] {
                assert_eq!(run(threads), one, "{name} at {threads} threads");
            }
        }
    }

    #[test]
    fn a_turn_zero_tall_column_is_worth_nothing_under_the_qualifier_cutoff() {
        let tall = crate::sim::Field::from_picture(&[
            "1.........",
            "1.........",
            "1.........",
            "1.........",
            "1.........",
            "1.........",
            "1.........",
            "1.........",
            "1.........",
            "1.........",
            "1.........",
            "1.........",
            "1.........",
            "1.........",
        ])
        .expect("picture");
        let node = Node {
            state: PlayerState {
                field: tall,
                ..PlayerState::default()
            },
            enemy_ojama: 0,
            path_chain: 9,
        };
        let p = position("initial");
        let score = |cutoff| {
            let mut c = child(0, 0, 0);
            c.path_chain = 9;
            evaluate::<Shift>(
                &mut c,
                &node,
                Some(&p.packs[0]),
                cutoff,
                BeamEval::Chain,
                None,
            );
            c.total
        };
        assert_eq!(score(HeightCutoff::Qualifier), 0);
        assert_eq!(score(HeightCutoff::Final), chain_ojama(9) * 1000);
        assert!(score(HeightCutoff::Off) > chain_ojama(9) * 1000);
    }

    #[test]
    fn a_forced_first_move_starts_every_path() {
        let p = position("initial");
        let forced = Action::Drop { x: 7, rot: 2 };
        let config = BeamConfig {
            first_move: Some(forced),
            ..BeamConfig::new(4, 100, 40)
        };
        let r = search::<Shift>(root(&p), &config);
        assert_eq!(r.plan.first(), Some(&forced));
    }

    #[test]
    fn the_skill_evaluation_ranks_by_destroyable_blocks_and_gauge() {
        let field = crate::sim::Field::from_picture(&["15", "55"]).expect("picture");
        let node = Node {
            state: PlayerState {
                field,
                gauge: 90,
                ..PlayerState::default()
            },
            enemy_ojama: 0,
            path_chain: 0,
        };
        let mut c = child(0, 0, 0);
        evaluate::<Shift>(
            &mut c,
            &node,
            None,
            HeightCutoff::Off,
            BeamEval::Skill {
                count_blocks: false,
            },
            None,
        );
        assert_eq!((c.chain, c.total), (4, 4 * 80), "the gauge counts up to 80");
        evaluate::<Shift>(
            &mut c,
            &node,
            None,
            HeightCutoff::Off,
            BeamEval::Skill { count_blocks: true },
            None,
        );
        assert_eq!(
            c.total,
            (4 + 4) * 80,
            "the qualifier adds the numbered blocks"
        );
    }
}
