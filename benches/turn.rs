//! One whole turn of the original's AI (`--style original`: its beams, counter analysis and
//! both full searches) on the official snapshots the C++ final was timed on, one thread. The
//! beams are held to a node budget so that every run does the same work.

#[path = "../tests/common/mod.rs"]
mod common;

use common::Snapshot;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::time::Duration;
use ysai::bitboard::BACKEND;
use ysai::params::{OpeningBeamFlags, Params};
use ysai::player::original::Decider;
use ysai::sim::Shift;

const SNAPSHOTS: [&str; 4] = ["dead", "error", "segfault", "segfault1"];
/// Nodes per beam: about what the original's per-turn beams expand in their time.
const BEAM_NODES: u64 = 20_000;

fn params() -> Params {
    let mut params = Params {
        opening: OpeningBeamFlags {
            beam_nodes: BEAM_NODES,
            ..Params::DEFAULT.opening
        },
        ..Params::default()
    };
    params.original_style(&[]);
    params
}

fn turns(c: &mut Criterion) {
    let params = params();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("thread pool");
    let mut group = c.benchmark_group(format!("original_turn/{BACKEND}/threads1"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for name in SNAPSHOTS {
        let snapshot = Snapshot::load(name);
        group.bench_function(name, |b| {
            b.iter_batched(
                || Decider::<Shift>::new(&params.original_player()),
                |mut decider| pool.install(|| decider.decide(&snapshot.position())),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, turns);
criterion_main!(benches);
