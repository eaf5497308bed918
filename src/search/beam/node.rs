//! A beam's nodes and their children: playing a move from a node, keying the child, trying
//! its next moves (the lookahead) and ranking it.

use rayon::prelude::*;
use ysai_tables::{chain_ojama, MAX_CHAIN};

use crate::search::key::WordHasher;
use crate::search::potential;
use crate::sim::game::{offset_ojama, OJAMA_ROW, SKILL_COST};
use crate::sim::{Action, DropOutcome, Field, Neighbourhood, PlayerState, PreparedPack};

use super::config::*;
use super::progress::*;

/// A column this high at turn 0 triggers the height cut-off (17 - 3).
pub(super) const CUTOFF_HEIGHT: u8 = 14;
/// Skill-mode buckets: destroyed-block counts above this share the top bucket.
pub(super) const SKILL_BUCKETS: u32 = 82;
/// Total of a node none of whose next moves survives.
pub(super) const NO_MOVE_TOTAL: i64 = -100_000;
/// Total of a potential-ranked child whose potential was not worked out (yet): its bucket
/// keeps none of its nodes, or no depth follows and no plan is chosen among them.
pub(super) const UNRANKED: i64 = i64::MIN;

/// A state at some depth, with the best lookahead chain seen along its path.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) state: PlayerState,
    pub(super) enemy_ojama: i64,
    pub(super) path_chain: u8,
}

/// A child of a frontier node, before and after evaluation. 32 bytes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child {
    pub(super) key: u64,
    pub(super) total: i64,
    /// Index of the parent in the frontier.
    pub(super) parent: u32,
    /// The move from the parent, an index into [`Action::ALL`].
    pub(super) action: u8,
    /// Best lookahead chain along the path (c1).
    pub(super) path_chain: u8,
    /// Lookahead chain of this node (c2): its bucket.
    pub(super) chain: u8,
    /// The move that fires `chain`, an index into [`Action::ALL`] (0 = none).
    pub(super) fire: u8,
}

impl Child {
    /// Stable order of equally ranked children: the child of the better parent first (the
    /// frontier is in rank order), then the earlier move.
    pub(super) fn tie_key(&self) -> (u32, u8, u64) {
        (self.parent, self.action, self.key)
    }
}

/// The best next move of a node by the beam's measure `oj(c) * 100 + blocks left`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lookahead {
    pub(super) chain: u8,
    pub(super) fire: u8,
    pub(super) score: i64,
}

pub(super) fn action_index(action: Action) -> u8 {
    action.index() as u8
}

/// The key of a node: its field, turn and both stocks (the original left the stocks out).
pub(super) fn node_key(node: &Node, turn: usize) -> u64 {
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
pub(super) fn replay_child<N: Neighbourhood>(
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
pub(super) fn play<N: Neighbourhood>(
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
pub(super) type DropOutcomes = [DropOutcome; DROPS as usize];

pub(super) fn drop_outcomes<N: Neighbourhood>(field: &Field, pack: &PreparedPack) -> DropOutcomes {
    std::array::from_fn(|i| match Action::drops()[i] {
        Action::Drop { x, rot } => field.drop_outcome::<N>(pack, x, rot),
        Action::Skill => unreachable!("drops only"),
    })
}

/// What a frontier node's field gave the rank: the next pack's drops.
pub(super) struct ParentWork {
    pub(super) drops: DropOutcomes,
}

/// A child's parent's work, and the columns in which the child's field differs from the
/// parent's: what holds beside those columns need not be played again.
#[derive(Clone, Copy)]
pub(super) struct Reference<'r> {
    pub(super) parent: &'r ParentWork,
    pub(super) changed: u16,
}

/// Tries the 36 drops of `pack` on `state`; strictly better wins, in x-major order.
pub(super) fn lookahead<N: Neighbourhood>(
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
pub(super) fn evaluate<N: Neighbourhood>(
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
pub(super) fn rank_by_potential<N: Neighbourhood>(child: &mut Child, node: &Node) {
    child.total = potential::build_score::<N>(&node.state.field);
}

/// The rank of the field `node` is left with once `fire` (an index into [`Action::ALL`]) is
/// played with `pack`, as a build is ranked (the potential's score), or `i64::MIN` if it dies.
pub(super) fn left_after_fire<N: Neighbourhood>(node: &Node, pack: &PreparedPack, fire: u8) -> i64 {
    let Some(after) = play::<N>(node, pack, Action::ALL[usize::from(fire)], 0) else {
        return i64::MIN;
    };
    potential::build_score::<N>(&after.state.field)
}

/// Skill-mode rank (§9a.5): what the skill would destroy, weighed by how full the gauge is.
pub(super) fn evaluate_skill(child: &mut Child, state: &PlayerState, count_blocks: bool) {
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
pub(super) fn parent_work<N: Neighbourhood>(
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
