//! The beam's duplicate removal, as it runs (one thread, an `FnvHashMap` from key to the
//! child that holds it) against the same rule run by the rayon workers together on a
//! `DashMap`. One depth of the first beam at `-bw 5000`: 5,000 parents times 36 drops, with
//! a share of the children repeating an earlier key (two orders of drops that reach the same
//! field). Both keep the same children: the best path chain, then the earliest in frontier
//! order; the benchmark checks that before it times anything.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dashmap::DashMap;
use fnv::{FnvBuildHasher, FnvHashMap};
use rayon::prelude::*;

/// A child as the beam holds it (32 bytes): the fields the rule reads, and the rest.
#[derive(Clone, Copy, Debug)]
struct Child {
    key: u64,
    _total: i64,
    _parent: u32,
    _action: u8,
    path_chain: u8,
    _chain: u8,
    _fire: u8,
}

const CHILDREN: usize = 5_000 * 36;

/// `CHILDREN` children in frontier order, `duplicate_percent` of them repeating an earlier
/// key, path chains spread over 0..8 (a small generator, so that every run sees the same).
fn children(duplicate_percent: u64) -> Vec<Child> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        state >> 11
    };
    let mut made: Vec<Child> = Vec::with_capacity(CHILDREN);
    for i in 0..CHILDREN {
        let repeat = !made.is_empty() && next() % 100 < duplicate_percent;
        let key = if repeat {
            made[(next() as usize) % made.len()].key
        } else {
            next() | 1
        };
        made.push(Child {
            key,
            _total: 0,
            _parent: (i / 36) as u32,
            _action: (i % 36) as u8,
            path_chain: (next() % 8) as u8,
            _chain: 0,
            _fire: 0,
        });
    }
    made
}

/// The beam's rule on one thread: the first holder of a key gives way only to a child with
/// a longer path chain.
fn sequential(children: &[Child]) -> Vec<bool> {
    let mut kept = vec![false; children.len()];
    let mut holders: FnvHashMap<u64, u32> =
        FnvHashMap::with_capacity_and_hasher(children.len(), Default::default());
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
    kept
}

/// The same rule by every worker at once: each key's holder is the child with the longest
/// path chain, then the lowest index, whatever order the workers reach them in.
fn concurrent(children: &[Child]) -> Vec<bool> {
    let holders: DashMap<u64, u32, FnvBuildHasher> =
        DashMap::with_capacity_and_hasher(children.len(), Default::default());
    let better = |a: u32, b: u32| {
        let (ca, cb) = (&children[a as usize], &children[b as usize]);
        ca.path_chain > cb.path_chain || (ca.path_chain == cb.path_chain && a < b)
    };
    children.par_iter().enumerate().for_each(|(i, child)| {
        let index = i as u32;
        holders
            .entry(child.key)
            .and_modify(|holder| {
                if better(index, *holder) {
                    *holder = index;
                }
            })
            .or_insert(index);
    });
    children
        .par_iter()
        .enumerate()
        .map(|(i, child)| holders.get(&child.key).is_some_and(|h| *h == i as u32))
        .collect()
}

fn dedup(c: &mut Criterion) {
    let mut group = c.benchmark_group("beam_dedup/180000_children");
    group.sample_size(30);
    for duplicate_percent in [10, 40] {
        let children = children(duplicate_percent);
        assert_eq!(
            sequential(&children),
            concurrent(&children),
            "both keep the same children"
        );
        group.bench_with_input(
            BenchmarkId::new("fnv_one_thread", duplicate_percent),
            &children,
            |b, children| b.iter(|| sequential(black_box(children))),
        );
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("thread pool");
            group.bench_with_input(
                BenchmarkId::new(format!("dashmap_threads{threads}"), duplicate_percent),
                &children,
                |b, children| b.iter(|| pool.install(|| concurrent(black_box(children)))),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, dedup);
criterion_main!(benches);
