//! An anytime chain search in the style of the 2019 champion (champions.md §1.2), a
//! "chokudai search": one priority queue per depth; each pass pops the best node of every
//! depth in turn and expands it, so the search widens for as long as it is given. Nodes are
//! ranked by the pack-independent potential (`search::potential`), fires by what they send.
//!
//! Nodes keep only their parent and move (8 bytes): a popped node's state is played again
//! from the root, which costs a few simulator calls against the dozens of chain simulations
//! its children's potentials take.

use std::collections::BinaryHeap;
use std::time::Instant;

use fnv::FnvHashSet;
use rayon::prelude::*;

use super::fire::{Fire, Fires};
use super::key::WordHasher;
use super::potential::{build_score, score};
use crate::rng::Rng;
use crate::sim::{Action, MoveResult, Neighbourhood, PlayerState, PreparedPack};

/// Nodes kept at most (64 MiB of links and up to as many queue entries).
const MAX_NODES: usize = 8 << 20;
/// On an empty field the first move goes to the middle (its mirror images are equivalent).
const OPENING_COLUMN: u8 = 5;

/// What one search is asked to do.
#[derive(Clone, Debug, Default)]
pub struct ChokudaiConfig {
    /// Moves searched.
    pub horizon: usize,
    pub deadline: Option<Instant>,
    /// Node expansions at most (with no deadline, the search is then reproducible).
    pub expansions: Option<u64>,
    /// `injected[d]`: ojama added to my stock after my (d+1)-th move (an expected attack).
    pub injected: Vec<i64>,
    /// Seed of the random tie-break between equal ranks.
    pub seed: u64,
    /// Only this first move is tried (what follows a given move).
    pub first_move: Option<Action>,
}

#[derive(Clone, Debug, Default)]
pub struct ChokudaiResult {
    /// `fires.by_depth[d]`: the best fire made by the (d+1)-th move (by [`score`]: what it
    /// sends and the field it leaves).
    pub fires: Fires,
    pub expansions: u64,
    pub nodes: usize,
}

impl ChokudaiResult {
    /// The moves made before the earliest fire of `chain` or more.
    pub fn earliest(&self, chain: u32) -> Option<usize> {
        self.fires
            .by_depth
            .iter()
            .position(|f| f.as_ref().is_some_and(|f| f.chains >= chain))
    }

    /// The biggest chain fired at any depth.
    pub fn max_chain(&self) -> u32 {
        self.fires.max_chain().0
    }
}

#[derive(Clone, Copy)]
struct Link {
    parent: u32,
    action: u8,
}

/// A child worth keeping: its link, key, rank, and what it fired.
struct Child {
    link: Link,
    key: u64,
    result: MoveResult,
    state: PlayerState,
}

fn state_key(state: &PlayerState) -> u64 {
    WordHasher::default()
        .word(state.ojama as u64)
        .word(state.gauge as u64)
        .field(&state.field)
        .finish()
}

struct Search<'a, N: Neighbourhood> {
    root: PlayerState,
    packs: &'a [PreparedPack],
    config: &'a ChokudaiConfig,
    links: Vec<Link>,
    queues: Vec<BinaryHeap<(i64, u32)>>,
    visited: FnvHashSet<u64>,
    rng: Rng,
    result: ChokudaiResult,
    /// The score of each depth's fire kept.
    fire_scores: Vec<i64>,
    neighbours: std::marker::PhantomData<N>,
}

/// Searches `config.horizon` moves from `root` (at the start of its turn) with `packs`.
pub fn search<N: Neighbourhood>(
    root: &PlayerState,
    packs: &[PreparedPack],
    config: &ChokudaiConfig,
) -> ChokudaiResult {
    let horizon = config.horizon.min(packs.len());
    let mut search = Search::<N> {
        root: *root,
        packs,
        config,
        links: vec![Link {
            parent: u32::MAX,
            action: 0,
        }],
        queues: (0..horizon).map(|_| BinaryHeap::new()).collect(),
        visited: FnvHashSet::default(),
        rng: Rng::new(config.seed),
        result: ChokudaiResult {
            fires: Fires {
                by_depth: vec![None; horizon],
            },
            ..ChokudaiResult::default()
        },
        fire_scores: vec![i64::MIN; horizon],
        neighbours: std::marker::PhantomData,
    };
    search.visited.insert(state_key(root));
    if horizon > 0 {
        search.queues[0].push((0, 0));
    }
    search.run();
    search.result.nodes = search.links.len();
    search.result
}

impl<N: Neighbourhood> Search<'_, N> {
    fn run(&mut self) {
        loop {
            let mut expanded = false;
            for depth in 0..self.queues.len() {
                if self.stopped() {
                    return;
                }
                if let Some((_, index)) = self.queues[depth].pop() {
                    self.expand(index, depth);
                    expanded = true;
                }
            }
            if !expanded {
                return;
            }
        }
    }

    fn stopped(&self) -> bool {
        self.config
            .expansions
            .is_some_and(|n| self.result.expansions >= n)
            || self.config.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn injected(&self, depth: usize) -> i64 {
        self.config.injected.get(depth).copied().unwrap_or(0)
    }

    /// The moves from the root to node `index`.
    fn path(&self, mut index: u32) -> Vec<Action> {
        let mut path = Vec::new();
        while index != 0 {
            let link = self.links[index as usize];
            path.push(Action::ALL[usize::from(link.action)]);
            index = link.parent;
        }
        path.reverse();
        path
    }

    /// The state of node `index`, played again from the root.
    fn state(&self, index: u32) -> PlayerState {
        let mut state = self.root;
        for (depth, action) in self.path(index).into_iter().enumerate() {
            let injected = self.injected(depth);
            state = state
                .try_play_under::<N>(&self.packs[depth], action, injected)
                .expect("a stored path was played before")
                .0;
        }
        state
    }

    fn moves(&self, state: &PlayerState, depth: usize) -> Vec<Action> {
        if let (0, Some(first)) = (depth, self.config.first_move) {
            return vec![first];
        }
        if depth == 0 && state.field.blocks().is_zero() {
            return (0..4)
                .map(|rot| Action::Drop {
                    x: OPENING_COLUMN,
                    rot,
                })
                .collect();
        }
        Action::ALL.to_vec()
    }

    fn expand(&mut self, index: u32, depth: usize) {
        self.result.expansions += 1;
        let state = self.state(index);
        let pack = &self.packs[depth];
        let injected = self.injected(depth);
        let mut children: Vec<Child> = self
            .moves(&state, depth)
            .into_iter()
            .filter_map(|action| {
                let (next, result) = state.try_play_under::<N>(pack, action, injected)?;
                Some(Child {
                    link: Link {
                        parent: index,
                        action: action.index() as u8,
                    },
                    key: state_key(&next),
                    result,
                    state: next,
                })
            })
            .collect();
        children.retain(|c| self.visited.insert(c.key));
        let last = depth + 1 == self.queues.len();
        let ranked: Vec<(Option<i64>, Option<i64>)> =
            children.par_iter().map(|c| rank::<N>(c, last)).collect();
        for (child, (fire, priority)) in children.into_iter().zip(ranked) {
            if let Some(fire) = fire {
                self.note_fire(&child, fire, depth);
            }
            let Some(priority) = priority else { continue };
            if self.links.len() >= MAX_NODES {
                continue;
            }
            let noisy = priority * 256 + self.rng.below(256) as i64;
            self.links.push(child.link);
            self.queues[depth + 1].push((noisy, (self.links.len() - 1) as u32));
        }
    }

    fn note_fire(&mut self, child: &Child, score: i64, depth: usize) {
        if self.result.fires.by_depth[depth].is_some() && self.fire_scores[depth] >= score {
            return;
        }
        let mut path = self.path(child.link.parent);
        path.push(Action::ALL[usize::from(child.link.action)]);
        self.fire_scores[depth] = score;
        self.result.fires.by_depth[depth] = Some(Fire {
            path,
            chains: child.result.chains,
            ojama: child.result.ojama,
        });
    }
}

/// A child's fire score (if it sent ojama) and its priority in the next depth's queue (unless
/// it is at the horizon): the same score, of what it sent and of what it could fire next.
fn rank<N: Neighbourhood>(child: &Child, last: bool) -> (Option<i64>, Option<i64>) {
    let field = &child.state.field;
    let fire = (child.result.ojama > 0).then(|| score(field, child.result.ojama));
    let priority = (!last).then(|| build_score::<N>(field));
    (fire, priority)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Pack, Shift};

    fn packs(seed: u64, n: usize) -> Vec<PreparedPack> {
        let mut rng = Rng::new(seed);
        (0..n)
            .map(|_| {
                let mut cell = || (1 + rng.below(9)) as u8;
                PreparedPack::new(Pack {
                    cells: [[cell(), cell()], [cell(), cell()]],
                })
            })
            .collect()
    }

    fn config(horizon: usize, expansions: u64) -> ChokudaiConfig {
        ChokudaiConfig {
            horizon,
            expansions: Some(expansions),
            ..ChokudaiConfig::default()
        }
    }

    /// Plays `path` from `root` with the search's own rules.
    fn replay(root: &PlayerState, packs: &[PreparedPack], path: &[Action]) -> MoveResult {
        let mut state = *root;
        let mut last = MoveResult::default();
        for (d, &action) in path.iter().enumerate() {
            let (next, result) = state
                .try_play_under::<Shift>(&packs[d], action, 0)
                .expect("legal");
            state = next;
            last = result;
        }
        last
    }

    #[test]
    fn every_fire_replays_to_what_it_reports() {
        let packs = packs(3, 10);
        let root = PlayerState::default();
        let result = search::<Shift>(&root, &packs, &config(10, 400));
        assert_eq!(result.expansions, 400);
        let fires: Vec<&Fire> = result.fires.by_depth.iter().flatten().collect();
        assert!(!fires.is_empty());
        for (d, fire) in result.fires.by_depth.iter().enumerate() {
            let Some(fire) = fire else { continue };
            assert_eq!(fire.path.len(), d + 1);
            let last = replay(&root, &packs, &fire.path);
            assert_eq!((last.chains, last.ojama), (fire.chains, fire.ojama));
        }
        // The opening move goes to the middle.
        assert!(fires
            .iter()
            .all(|f| matches!(f.path[0], Action::Drop { x: 5, .. })));
    }

    #[test]
    fn a_first_move_given_starts_every_fire() {
        let packs = packs(3, 10);
        let first = Action::Drop { x: 1, rot: 2 };
        let config = ChokudaiConfig {
            first_move: Some(first),
            ..config(10, 400)
        };
        let result = search::<Shift>(&PlayerState::default(), &packs, &config);
        let fires: Vec<&Fire> = result.fires.by_depth.iter().flatten().collect();
        assert!(!fires.is_empty());
        assert!(fires.iter().all(|f| f.path[0] == first), "{fires:?}");
    }

    #[test]
    fn more_expansions_find_at_least_as_much() {
        let packs = packs(11, 10);
        let root = PlayerState::default();
        let best = |n| {
            let r = search::<Shift>(&root, &packs, &config(10, n));
            r.fires
                .by_depth
                .iter()
                .flatten()
                .map(|f| f.ojama)
                .max()
                .unwrap_or(0)
        };
        let (small, large) = (best(50), best(1500));
        assert!(large >= small, "{small} then {large}");
        assert!(large > 0);
    }

    #[test]
    fn the_same_seed_and_budget_give_the_same_result() {
        let packs = packs(5, 8);
        let root = PlayerState::default();
        let a = search::<Shift>(&root, &packs, &config(8, 300));
        let b = search::<Shift>(&root, &packs, &config(8, 300));
        assert_eq!(a.fires, b.fires);
    }

    #[test]
    fn an_expected_attack_lands_in_the_stock() {
        let packs = packs(7, 4);
        let root = PlayerState::default();
        let (after, _) = root
            .try_play_under::<Shift>(&packs[0], Action::drops()[10], 25)
            .unwrap();
        assert_eq!(after.ojama, 25);
        let (next, _) = after
            .try_play_under::<Shift>(&packs[1], Action::drops()[10], 0)
            .unwrap();
        assert_eq!(next.ojama, 15, "a row fell");
        assert_eq!(next.field.ojama().popcount(), 10);
    }
}
