//! Full-search speed: one enemy search and one my-search, both 4 plies deep, from a mid-game
//! official position (`snapshots/error`), on one thread and on all cores.

use criterion::{criterion_group, criterion_main, Criterion};
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::time::Duration;
use ysai::bitboard::BACKEND;
use ysai::params::Params;
use ysai::protocol::{read_all, PlayerView};
use ysai::search::enemy::{self, EnemyLine};
use ysai::search::eval::{dead_ojama, EvalContext, Line};
use ysai::search::full::{EnemyModel, FullSearch};
use ysai::search::tt::TranspositionTable;
use ysai::sim::{Field, PlayerState, PreparedPack, Shift};

const SNAPSHOT: &str = "tests/data/official/snapshots/error.stdin.txt";
const DEPTH: usize = 4;

fn state(view: &PlayerView) -> PlayerState {
    PlayerState {
        field: Field::from_rows(&view.rows).expect("a recorded field"),
        ojama: view.ojama,
        gauge: view.gauge,
        score: view.score,
    }
}

struct Position {
    turn: usize,
    packs: Vec<PreparedPack>,
    me: PlayerState,
    enemy: PlayerState,
}

fn position() -> Position {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(SNAPSHOT);
    let file = File::open(&path).expect("the snapshot");
    let game = read_all(BufReader::new(file))
        .expect("a valid snapshot")
        .remove(0);
    let turn = game.turns.last().expect("one turn");
    let t = turn.turn as usize;
    Position {
        turn: t,
        packs: game.packs[t..]
            .iter()
            .map(|&p| PreparedPack::new(p))
            .collect(),
        me: state(&turn.players[0]),
        enemy: state(&turn.players[1]),
    }
}

fn root_line(p: &Position) -> Line {
    let enemy = &p.enemy.field;
    Line {
        me: p.me,
        enemy_ojama: p.enemy.ojama,
        enemy_gauge: p.enemy.gauge,
        turn: p.turn,
        sent: 0,
        decisive_turn: 0,
        chain: 0,
        max_chain: 0,
        first: None,
        first_chain: 0,
        dead_ojama: [dead_ojama(&p.me.field), dead_ojama(enemy)],
        enemy_bits: 0,
        enemy_may_skill: false,
        enemy_skill_targets: i64::from(enemy.skill_targets().popcount()),
        enemy_no_skill_min_blocks: 0,
        enemy_skill_ojama_gain: 0,
        enemy_min_field_ojama: i64::from(enemy.ojama().popcount()),
        attacked_depths: 0,
        attack_depth: 0,
        spared_depths: 0,
        assumed_attack: 0,
        assumed_gauge_damage: 0,
    }
}

fn searches(c: &mut Criterion) {
    let p = position();
    let tt = TranspositionTable::new(64);
    let enemy_root = EnemyLine::root(&p.enemy, p.me.ojama, p.me.gauge, 0);
    let table =
        enemy::search::<Shift>(enemy_root, &p.packs, DEPTH, None, None).expect("no deadline");
    let ctx = EvalContext::new(&Params::default());
    let model = EnemyModel {
        branch: true,
        branch_on_big_attack: false,
    };
    let root = root_line(&p);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut group = c.benchmark_group(format!("full_search/{BACKEND}"));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for threads in [1, cores] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        group.bench_function(format!("enemy_depth{DEPTH}/threads{threads}"), |b| {
            b.iter(|| {
                pool.install(|| {
                    tt.clear();
                    enemy::search::<Shift>(enemy_root, &p.packs, DEPTH, Some(&tt), None)
                })
            })
        });
        group.bench_function(format!("my_depth{DEPTH}/threads{threads}"), |b| {
            b.iter(|| {
                pool.install(|| {
                    tt.clear();
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
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, searches);
criterion_main!(benches);
