//! Simulator speed: single drops, a 10-chain, the skill, all 37 actions of a mid-game turn,
//! and the column-table build. Names carry the bitboard backend (run again with
//! `--features scalar` for the portable one) and the neighbour mode.

mod positions;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use positions::{field, prepared, MID_GAME, SKILL_FIELD, TEN_CHAIN};
use std::time::{Duration, Instant};
use ysai::bitboard::BACKEND;
use ysai::sim::neighbours::column_table;
use ysai::sim::{Action, Field, Neighbourhood, PlayerState, PreparedPack, Shift, Table};
use ysai_tables::ColumnNeighbourTable;

/// The first drop (x-major, rotation-minor) of `pack` on `field` that makes exactly `chains` chains.
fn drop_with_chains<N: Neighbourhood>(field: &Field, pack: &PreparedPack, chains: u32) -> Action {
    *Action::drops()
        .iter()
        .find(|&&action| field.clone().apply::<N>(pack, action).chains == chains)
        .unwrap_or_else(|| panic!("no drop makes {chains} chains"))
}

/// `what/backend/mode`, so that runs of both backends and modes sit side by side.
/// Fields reset between timed passes: 64 x 384 bytes stay in L1, as a search's freshly copied
/// child does, so the timing is the simulator's work rather than cache misses on cold inputs.
const POOL: usize = 64;

/// Times `run` on copies of `start`, in place, excluding the resets.
fn bench_in_place<R>(c: &mut Criterion, name: &str, start: Field, run: impl Fn(&mut Field) -> R) {
    c.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let mut pool = vec![start; POOL];
            let mut total = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let n = POOL.min((iters - done) as usize);
                pool[..n].fill(start);
                let timer = Instant::now();
                for field in &mut pool[..n] {
                    black_box(run(black_box(field)));
                }
                total += timer.elapsed();
                done += n as u64;
            }
            total
        })
    });
}

fn id<N: Neighbourhood>(what: &str) -> String {
    format!("{what}/{BACKEND}/{}", N::NAME)
}

fn bench_drops<N: Neighbourhood>(c: &mut Criterion) {
    let (rows, pack) = MID_GAME;
    let (start, pack) = (field(rows), prepared(pack));
    for (name, chains) in [("drop_no_vanish", 0), ("drop_vanish_once", 1)] {
        let action = drop_with_chains::<N>(&start, &pack, chains);
        bench_in_place(c, &id::<N>(name), start, |next| {
            next.apply::<N>(&pack, black_box(action))
        });
    }
}

fn bench_ten_chain<N: Neighbourhood>(c: &mut Criterion) {
    let (rows, pack) = TEN_CHAIN;
    let (start, pack) = (field(rows), prepared(pack));
    let action = drop_with_chains::<N>(&start, &pack, 10);
    bench_in_place(c, &id::<N>("chain_10"), start, |next| {
        next.apply::<N>(&pack, black_box(action))
    });
}

fn bench_skill<N: Neighbourhood>(c: &mut Criterion) {
    let start = field(SKILL_FIELD);
    bench_in_place(c, &id::<N>("skill"), start, |next| next.fire_skill::<N>());
}

fn bench_all_actions<N: Neighbourhood>(c: &mut Criterion) {
    let (rows, pack) = MID_GAME;
    let me = PlayerState {
        field: field(rows),
        ojama: 0,
        gauge: 100,
        score: 0,
    };
    let pack = prepared(pack);
    c.bench_function(&id::<N>("all_37_actions"), |b| {
        b.iter(|| {
            let me = black_box(me);
            for action in Action::ALL {
                let mut next = me;
                black_box(next.act::<N>(&pack, action));
                black_box(&next);
            }
        })
    });
}

/// What every search node pays before it moves: a copy of its parent's field.
fn bench_field_copy(c: &mut Criterion) {
    let (rows, _) = MID_GAME;
    let start = field(rows);
    c.bench_function(&format!("field_copy/{BACKEND}"), |b| {
        b.iter(|| {
            let copy = black_box(start);
            black_box(&copy);
        })
    });
}

fn bench_table_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("tables");
    group.sample_size(10);
    group.bench_function("column_table_build_160MiB", |b| {
        b.iter(|| black_box(ColumnNeighbourTable::build()))
    });
    group.finish();
}

fn bench_mode<N: Neighbourhood>(c: &mut Criterion) {
    bench_drops::<N>(c);
    bench_ten_chain::<N>(c);
    bench_skill::<N>(c);
    bench_all_actions::<N>(c);
}

fn benches(c: &mut Criterion) {
    column_table();
    bench_mode::<Shift>(c);
    bench_mode::<Table>(c);
    bench_field_copy(c);
    bench_table_build(c);
}

criterion_group!(sim, benches);
criterion_main!(sim);
