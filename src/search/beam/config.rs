//! What a beam is asked to do ([`BeamConfig`], its target, injection, evaluation and root) and
//! what it returns ([`BeamResult`]).

use std::time::Instant;

use crate::search::fire::Fire;
use crate::sim::{Action, PlayerState, PreparedPack};

/// Moves per pack: 9 columns x 4 rotations.
pub(super) const DROPS: u8 = 36;

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
    /// Under the potential rank, how many of the nodes that fire a depth's biggest chain have
    /// the field their fire leaves weighed, the depth's fire being the one that leaves the
    /// best; at most 1: the first in rank order.
    pub fires_weighed: usize,
}

/// The nodes weighed by the field their fire leaves, unless a search says otherwise.
pub const FIRES_WEIGHED: usize = 64;

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
            fires_weighed: FIRES_WEIGHED,
        }
    }

    /// Sets the width, the width per bucket scaled with it (a non-zero one stays non-zero).
    pub fn set_width(&mut self, width: usize) {
        if self.bucket_width > 0 {
            self.bucket_width = (self.bucket_width * width / self.width.max(1)).max(1);
        }
        self.width = width;
    }

    pub(super) fn drops(&self) -> Vec<Action> {
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
