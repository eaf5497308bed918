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

mod config;
mod frontier;
mod node;
mod progress;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use ysai_tables::MAX_CHAIN;

use crate::search::fire::Fire;
use crate::sim::{Action, Neighbourhood};

pub use config::*;
use frontier::*;
use node::*;
use progress::*;

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
        let fire = self.fire_leaving_the_best_field(candidates, depth);
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

    /// The fire recorded for the children at `depth` (played with pack `depth - 1`, firing
    /// with pack `depth`): under the potential rank, of the top bucket's best
    /// [`BeamConfig::fires_weighed`] nodes, which all fire the same chain, the one whose fire leaves the
    /// field a build would rank highest (the chain one erased block starts, its shape, the
    /// blocks kept), the first in rank order among equals; the second chain starts from it.
    fn fire_leaving_the_best_field(&self, candidates: &[Child], depth: usize) -> Option<Fire> {
        let first = candidates.first()?;
        let best = self.best_field_left(candidates, depth).unwrap_or(first);
        fire_of(best, self.path_to(best))
    }

    /// Of the top bucket's best nodes that fire (see [`Beam::fire_leaving_the_best_field`]),
    /// the one whose fire leaves the best field; `None` where no field is weighed.
    fn best_field_left<'c>(&self, candidates: &'c [Child], depth: usize) -> Option<&'c Child> {
        let first = candidates.first()?;
        let fire_pack = self.root.packs.get(depth)?;
        let weighs = self.config.eval == BeamEval::Potential && self.config.fires_weighed > 1;
        if !weighs || first.parent == u32::MAX {
            return None;
        }
        let frontier = &self.levels.last().expect("root level").nodes;
        let (pack, injected) = (&self.root.packs[depth - 1], self.injected(depth - 1));
        let top: Vec<&Child> = candidates
            .iter()
            .take_while(|c| c.chain == first.chain && c.fire != 0)
            .take(self.config.fires_weighed)
            .collect();
        let left: Vec<i64> = top
            .par_iter()
            .map(|c| {
                let node = replay_child::<N>(frontier, c, pack, injected);
                left_after_fire::<N>(&node, fire_pack, c.fire)
            })
            .collect();
        top.into_iter()
            .zip(left)
            .reduce(|best, next| if next.1 > best.1 { next } else { best })
            .map(|(c, _)| c)
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

#[cfg(test)]
mod tests;
