//! Beam speed: one depth at width 5000 (`-bw 5000 -bcw 1500`, all columns) from the frontier
//! the search holds after six moves of an official opening, on one thread and on all cores,
//! ranked as the original does and by the erase-one-block potential; and the potential alone
//! on the fields of the `ysai bench` positions.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::time::Duration;
use ysai::bench::bench_positions;
use ysai::bitboard::BACKEND;
use ysai::search::beam::{Beam, BeamEval};
use ysai::search::potential::erase_potential;
use ysai::search::{BeamConfig, BeamRoot};
use ysai::sim::Shift;

/// Moves made before the timed depth: enough for the frontier to be the full width.
const WARM_DEPTHS: usize = 6;

fn one_depth(c: &mut Criterion) {
    let opening = bench_positions()
        .into_iter()
        .find(|p| p.turn == 0)
        .expect("an opening position");
    let root = BeamRoot {
        state: opening.me,
        enemy_ojama: opening.enemy_ojama,
        packs: &opening.packs,
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut group = c.benchmark_group(format!("beam_depth/{BACKEND}"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for (name, eval) in [("", BeamEval::Chain), ("-potential", BeamEval::Potential)] {
        let config = BeamConfig {
            eval,
            ..BeamConfig::new(16, 5000, 1500)
        };
        let mut warm = Beam::<Shift>::new(root, config);
        for _ in 0..WARM_DEPTHS {
            assert!(warm.step(), "the opening search goes on");
        }
        let before = warm.clone().finish().nodes;
        let mut once = warm.clone();
        once.step();
        eprintln!(
            "width5000{name}: {} nodes in the timed depth",
            once.finish().nodes - before
        );
        for threads in [1, cores] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("thread pool");
            group.bench_function(format!("width5000{name}/threads{threads}"), |b| {
                b.iter_batched(
                    || warm.clone(),
                    |mut beam| pool.install(|| beam.step()),
                    BatchSize::LargeInput,
                )
            });
        }
    }
    group.finish();
}

/// The potential of the field of each `ysai bench` position, one after the other.
fn potential(c: &mut Criterion) {
    let fields: Vec<_> = bench_positions().into_iter().map(|p| p.me.field).collect();
    let mut group = c.benchmark_group(format!("potential/{BACKEND}"));
    group.bench_function(format!("erase_one_block/{}_fields", fields.len()), |b| {
        b.iter(|| {
            fields
                .iter()
                .map(|f| erase_potential::<Shift>(f).chain)
                .sum::<u32>()
        })
    });
    group.finish();
}

criterion_group!(benches, one_depth, potential);
criterion_main!(benches);
