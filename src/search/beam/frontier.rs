//! Choosing the next depth's frontier: children deduplicated, grouped by lookahead chain into
//! buckets, the best of each bucket kept up to the widths; and the fire a child can make.

use fnv::FnvHashMap;
use ysai_tables::chain_ojama;

use crate::search::fire::Fire;
use crate::sim::Action;

use super::config::*;
use super::node::*;

/// The fire `child` (reached by `path`) can make next, if it can fire at all.
pub(super) fn fire_of(child: &Child, mut path: Vec<Action>) -> Option<Fire> {
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
pub(super) fn frontier_buckets(
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
pub(super) fn choose_frontier(
    candidates: &[Child],
    width: usize,
    bucket_width: usize,
) -> Vec<Child> {
    let mut chosen = Vec::with_capacity(width.min(candidates.len()));
    for (bucket, take) in frontier_buckets(candidates, width, bucket_width) {
        chosen.extend_from_slice(&bucket[..take]);
    }
    chosen
}

pub(super) fn bucket_summary(
    candidates: &[Child],
    width: usize,
    bucket_width: usize,
) -> Vec<Bucket> {
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
pub(super) fn dedup_by_key(children: &mut Vec<Child>) {
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
pub(super) fn sort_buckets(grouped: &mut [Child], bucket_width: usize) {
    for bucket in grouped.chunk_by_mut(|a, b| a.chain == b.chain) {
        sort_best(bucket, bucket_width.max(1));
    }
}

/// The children in the first bucket of `grouped` (grouped by chain, highest first).
pub(super) fn top_bucket_len(grouped: &[Child]) -> usize {
    grouped
        .chunk_by(|a, b| a.chain == b.chain)
        .next()
        .map_or(0, <[Child]>::len)
}

/// `children` grouped by bucket, highest chain first (a counting sort).
pub(super) fn group_by_chain(children: Vec<Child>) -> Vec<Child> {
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
pub(super) fn sort_best(bucket: &mut [Child], count: usize) {
    let by_rank = |a: &Child, b: &Child| b.total.cmp(&a.total).then(a.tie_key().cmp(&b.tie_key()));
    if bucket.len() > count {
        bucket.select_nth_unstable_by(count, by_rank);
    }
    let top = count.min(bucket.len());
    bucket[..top].sort_unstable_by(by_rank);
}
