//! Making the pages of `ysai arena`: the replay page of a recorded game of this AI against
//! greedy (every chain frame, and every turn's longest chain on offer, worked out on the
//! simulator), and the report page of a 300-game match.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use ysai::arena::html;
use ysai::arena::referee::{BigChain, Reason};
use ysai::arena::replay::Replay;
use ysai::arena::report::{self, ReportGame};
use ysai::arena::results::GameLine;

/// A recorded game of `self --turn-ms 500` against greedy, with its `-tm` lines.
const REPLAY: &str = "tests/data/replays/self-greedy.json";
const MATCH_GAMES: u64 = 300;

fn replay_page(c: &mut Criterion) {
    let replay = Replay::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(REPLAY))
        .expect("the recorded game loads");
    let name = format!("replay_page/{}_turns", replay.turns.len());
    c.bench_function(&name, |b| {
        b.iter(|| {
            html::page(black_box(&replay), &html::PageContext::default())
                .expect("the game re-simulates")
        })
    });
}

fn report_page(c: &mut Criterion) {
    let games: Vec<ReportGame> = (0..MATCH_GAMES).map(game).collect();
    let sprt = report::DEFAULT_SPRT
        .parse()
        .expect("the default SPRT parses");
    c.bench_function(&format!("report_page/{MATCH_GAMES}_games"), |b| {
        b.iter(|| report::page(black_box(&games), &sprt, report::SprtSource::Default))
    });
}

/// Game `index` of a made-up match: every outcome, lengths and first chains spread out.
fn game(index: u64) -> ReportGame {
    let spread = |n: u64| (index * 7919 % n) as u32;
    ReportGame {
        line: GameLine {
            match_id: "p0=self | p1=greedy".into(),
            game: index,
            seed: Some(index + 1),
            pack_file: None,
            names: [None, None],
            players: Some(["self".into(), "greedy".into()]),
            engines: None,
            winner: [Some(0), Some(1), None][(index % 3) as usize],
            reason: Reason::Dead,
            losers: [None, None],
            turn: 30 + spread(120),
            scores: [400, 300],
            max_chains: [10 + spread(6), 8 + spread(5)],
            first_big_chains: Some([
                Some(BigChain {
                    turn: 10 + spread(8),
                    chains: 12,
                }),
                None,
            ]),
            think_ms: [60_000.0 + f64::from(spread(40_000)), 20.0],
            max_think_ms: [4_000.0, 1.0],
            peak_rss_kib: [None; 2],
            run: None,
            record: None,
        },
        replay_page: Some(format!("m-replays/game-{index:06}.html")),
    }
}

criterion_group!(benches, replay_page, report_page);
criterion_main!(benches);
