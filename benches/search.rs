//! Full-search speed: one enemy search and one my-search, both 4 plies deep, from a mid-game
//! official position (`snapshots/error`), on one thread and on all cores.

#[path = "../tests/common/mod.rs"]
mod common;

use common::Snapshot;
use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use ysai::bitboard::BACKEND;
use ysai::params::Params;
use ysai::search::enemy::{self, EnemyLine};
use ysai::search::eval::Line;
use ysai::search::full::{EnemyModel, FullSearch};
use ysai::search::tt::TranspositionTable;
use ysai::sim::Shift;

const DEPTH: usize = 4;

fn searches(c: &mut Criterion) {
    let p = Snapshot::load("error");
    let tt = TranspositionTable::new(64);
    let enemy_root = EnemyLine::root(&p.enemy, p.me.ojama, p.me.gauge, 0);
    let table =
        enemy::search::<Shift>(enemy_root, &p.packs, DEPTH, None, None).expect("no deadline");
    let ctx = Params::default().eval.context();
    let model = EnemyModel {
        branch: true,
        branch_on_big_attack: false,
    };
    let root = Line::root(p.turn, &p.me, &p.enemy);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut group = c.benchmark_group(format!("full_search/{BACKEND}"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    // One run of each search, each a new search of the table, as timed below.
    let run_enemy = || {
        tt.renew();
        enemy::search::<Shift>(enemy_root, &p.packs, DEPTH, Some(&tt), None)
    };
    let run_mine = || {
        tt.renew();
        let search = FullSearch {
            packs: &p.packs,
            depth: DEPTH,
            enemy: &table,
            model,
            eval: &ctx,
            tt: Some(&tt),
            deadline: None,
        };
        search.run::<Shift>(&root)
    };
    for threads in [1, cores] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        // The positions each search values, so that nodes per second can be read off the
        // times below.
        let enemy_nodes = pool.install(run_enemy).map(|t| t.nodes);
        let my_nodes = pool.install(run_mine).map(|v| v.nodes);
        eprintln!("threads {threads}: positions valued: enemy {enemy_nodes:?}, mine {my_nodes:?}");
        group.bench_function(format!("enemy_depth{DEPTH}/threads{threads}"), |b| {
            b.iter(|| pool.install(run_enemy))
        });
        group.bench_function(format!("my_depth{DEPTH}/threads{threads}"), |b| {
            b.iter(|| pool.install(run_mine))
        });
    }
    group.finish();
}

criterion_group!(benches, searches);
criterion_main!(benches);
