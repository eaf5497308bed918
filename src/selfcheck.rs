//! Differential check of the bitboard simulator against the naive oracle: random games with
//! random legal actions (the skill included), random extra ojama and gauge, compared after
//! every turn. `ysai selfcheck` runs it in release mode; the tests run it on every backend.

use crate::bitboard::WIDTH;
use crate::rng::Rng;
use crate::sim::field::{OJAMA_VALUE, VISIBLE_HEIGHT};
use crate::sim::oracle::{self, OracleField, OracleOutcome, OraclePlayer};
use crate::sim::{
    play_turn, Action, Field, Neighbourhood, Pack, PlayerState, PreparedPack, TurnOutcome,
};
use rayon::prelude::*;

/// Turns played per independently seeded batch (batches run in parallel).
const BATCH_TURNS: u64 = 20_000;

/// What a check covered, and the first disagreement if there was one.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub turns: u64,
    pub games: u64,
    pub skills: u64,
    pub ojama_rows: u64,
    pub deaths: u64,
    pub longest_chain: u32,
    pub mismatch: Option<String>,
}

impl Report {
    fn merge(mut self, other: Report) -> Report {
        self.turns += other.turns;
        self.games += other.games;
        self.skills += other.skills;
        self.ojama_rows += other.ojama_rows;
        self.deaths += other.deaths;
        self.longest_chain = self.longest_chain.max(other.longest_chain);
        self.mismatch = self.mismatch.or(other.mismatch);
        self
    }
}

/// Plays about `turns` random turns (in batches seeded from `seed`) on both simulators.
pub fn run<N: Neighbourhood>(turns: u64, seed: u64) -> Report {
    let batches = turns.div_ceil(BATCH_TURNS);
    (0..batches)
        .into_par_iter()
        .map(|b| {
            let length = BATCH_TURNS.min(turns - b * BATCH_TURNS);
            run_batch::<N>(length, seed.wrapping_add(b.wrapping_mul(0x9E37_79B9)))
        })
        .reduce(Report::default, Report::merge)
}

/// One batch: games back to back until `turns` turns have been compared or they disagree.
pub fn run_batch<N: Neighbourhood>(turns: u64, seed: u64) -> Report {
    let mut rng = Rng::new(seed);
    let mut report = Report::default();
    while report.turns < turns && report.mismatch.is_none() {
        report.games += 1;
        play_game::<N>(&mut rng, turns, &mut report);
    }
    report
}

fn play_game<N: Neighbourhood>(rng: &mut Rng, turns: u64, report: &mut Report) {
    let mut fast = [PlayerState::default(); 2];
    if rng.chance(1, 2) {
        for state in &mut fast {
            state.field = random_stable_field(rng);
        }
    }
    let mut naive = [oracle_player(&fast[0]), oracle_player(&fast[1])];
    for turn in 0..crate::sim::PACKS_PER_GAME {
        if report.turns >= turns {
            return;
        }
        disturb(rng, &mut fast, &mut naive);
        let pack = random_pack(rng);
        let prepared = PreparedPack::new(pack);
        let actions = [
            random_action::<N>(rng, &fast[0], &prepared),
            random_action::<N>(rng, &fast[1], &prepared),
        ];
        let before = fast;
        let fast_out = play_turn::<N>(&mut fast, &prepared, actions);
        let naive_out = oracle::play_turn(&mut naive, pack, actions);
        report.turns += 1;
        tally(report, &fast_out, actions);
        if let Some(difference) = compare(&fast, &naive, &fast_out, &naive_out) {
            report.mismatch = Some(format!(
                "turn {turn}, pack {pack:?}, actions {actions:?}: {difference}\nbefore: {before:#?}"
            ));
            return;
        }
        if fast_out.iter().any(TurnOutcome::lost) {
            return;
        }
    }
}

fn tally(report: &mut Report, outcomes: &[TurnOutcome; 2], actions: [Action; 2]) {
    for (outcome, action) in outcomes.iter().zip(actions) {
        report.skills += u64::from(action == Action::Skill);
        report.ojama_rows += u64::from(outcome.ojama_dropped);
        report.deaths += u64::from(outcome.result.dead);
        report.longest_chain = report.longest_chain.max(outcome.result.chains);
    }
}

fn oracle_player(state: &PlayerState) -> OraclePlayer {
    OraclePlayer {
        field: OracleField::from_top_rows(&state.field.to_rows()),
        ojama: state.ojama,
        gauge: state.gauge,
        score: state.score,
    }
}

/// Random attacks and gauge gifts, applied to both simulators alike, so that ojama rows,
/// offsets and the skill come up often.
fn disturb(rng: &mut Rng, fast: &mut [PlayerState; 2], naive: &mut [OraclePlayer; 2]) {
    for (state, player) in fast.iter_mut().zip(naive.iter_mut()) {
        if rng.chance(1, 12) {
            state.ojama += rng.below(25) as i64;
        }
        if rng.chance(1, 15) {
            state.gauge = 60 + rng.below(41) as i32;
        }
        player.ojama = state.ojama;
        player.gauge = state.gauge;
    }
}

/// Any pack of 1 to 4 blocks, empty cells anywhere (the in-pack fall gets exercised too).
fn random_pack(rng: &mut Rng) -> Pack {
    loop {
        let mut cell = || {
            if rng.chance(1, 5) {
                0
            } else {
                1 + rng.below(9) as u8
            }
        };
        let pack = Pack::new([cell(), cell()], [cell(), cell()]);
        if pack.cells.iter().flatten().any(|&v| v != 0) {
            return pack;
        }
    }
}

/// Mostly uniform, sometimes the longest chain on offer, so that long chains come up too.
fn random_action<N: Neighbourhood>(
    rng: &mut Rng,
    state: &PlayerState,
    pack: &PreparedPack,
) -> Action {
    if state.is_legal(Action::Skill) && rng.chance(1, 3) {
        Action::Skill
    } else if rng.chance(1, 3) {
        longest_chain_action::<N>(state, pack)
    } else {
        Action::drops()[rng.below(36) as usize]
    }
}

fn longest_chain_action<N: Neighbourhood>(state: &PlayerState, pack: &PreparedPack) -> Action {
    let chains = |action: Action| {
        let mut next = *state;
        next.drop_pending_ojama();
        next.act::<N>(pack, action).chains
    };
    *Action::drops()
        .iter()
        .max_by_key(|&&action| chains(action))
        .unwrap_or(&Action::drops()[0])
}

/// A dense field with no pair summing to 10: columns of 4 to 14 random blocks, each value
/// drawn among those that pair with no neighbour below or beside (ojama when none fits).
fn random_stable_field(rng: &mut Rng) -> Field {
    let mut rows = [[0u8; WIDTH]; VISIBLE_HEIGHT];
    let heights: [usize; WIDTH] = std::array::from_fn(|_| 4 + rng.below(11) as usize);
    for y in 0..VISIBLE_HEIGHT {
        for x in 0..WIDTH {
            if y < heights[x] {
                let value = stable_value(rng, &rows, x, y);
                rows[VISIBLE_HEIGHT - 1 - y][x] = value;
            }
        }
    }
    Field::from_rows(&rows).unwrap_or_default()
}

/// A value for (x, y) that sums to 10 with none of the cells already filled around it.
fn stable_value(rng: &mut Rng, rows: &[[u8; WIDTH]; VISIBLE_HEIGHT], x: usize, y: usize) -> u8 {
    let at = |x: usize, y: usize| rows[VISIBLE_HEIGHT - 1 - y][x];
    let mut forbidden = [false; 10];
    for dx in [-1i32, 0, 1] {
        for dy in [-1i32, 0, 1] {
            let (nx, ny) = (x as i32 + dx, y as i32 + dy);
            if (0..WIDTH as i32).contains(&nx) && (0..VISIBLE_HEIGHT as i32).contains(&ny) {
                let value = at(nx as usize, ny as usize);
                if (1..=9).contains(&value) {
                    forbidden[usize::from(10 - value)] = true;
                }
            }
        }
    }
    let allowed: Vec<u8> = (1..=9).filter(|&v| !forbidden[usize::from(v)]).collect();
    if allowed.is_empty() || rng.chance(1, 20) {
        OJAMA_VALUE
    } else {
        allowed[rng.below(allowed.len() as u64) as usize]
    }
}

fn compare(
    fast: &[PlayerState; 2],
    naive: &[OraclePlayer; 2],
    fast_out: &[TurnOutcome; 2],
    naive_out: &[OracleOutcome; 2],
) -> Option<String> {
    (0..2).find_map(|p| {
        compare_player(&fast[p], &naive[p], &fast_out[p], &naive_out[p])
            .map(|difference| format!("player {p}: {difference}"))
    })
}

fn compare_player(
    fast: &PlayerState,
    naive: &OraclePlayer,
    out: &TurnOutcome,
    expected: &OracleOutcome,
) -> Option<String> {
    let got = (
        out.result.chains,
        out.result.score,
        out.result.ojama,
        out.result.vanished,
    );
    let want = (
        expected.chains,
        expected.score,
        expected.ojama_sent,
        expected.vanished,
    );
    if got != want {
        return Some(format!(
            "(chains, score, ojama, vanished) {got:?} != oracle {want:?}"
        ));
    }
    let got = (out.result.skill_destroyed, out.result.dead, out.illegal);
    let want = (expected.skill_destroyed, expected.dead, expected.illegal);
    if got != want {
        return Some(format!(
            "(destroyed, dead, illegal) {got:?} != oracle {want:?}"
        ));
    }
    let got = (fast.ojama, fast.gauge, fast.score);
    let want = (naive.ojama, naive.gauge, naive.score);
    if got != want {
        return Some(format!("(stock, gauge, score) {got:?} != oracle {want:?}"));
    }
    compare_fields(fast, &naive.field)
}

fn compare_fields(fast: &PlayerState, naive: &OracleField) -> Option<String> {
    for y in 0..crate::bitboard::HEIGHT {
        for x in 0..crate::bitboard::WIDTH {
            let (got, want) = (fast.field.cell(x, y), naive.cells[y][x]);
            if got != want {
                return Some(format!(
                    "cell ({x}, {y}) is {got}, oracle {want}\n{:?}",
                    fast.field
                ));
            }
        }
    }
    (0..crate::bitboard::WIDTH)
        .find(|&x| usize::from(fast.field.height(x)) != naive.height(x))
        .map(|x| format!("column {x} height differs from the oracle"))
}

impl Report {
    /// One line: what was covered, how fast, and whether the simulators agreed.
    pub fn summary(&self, mode: &str, seconds: f64) -> String {
        format!(
            "{mode}: {} turns in {} games ({:.0} turns/s): {} skills, {} ojama rows, {} deaths, longest chain {}: {}",
            self.turns,
            self.games,
            self.turns as f64 / seconds.max(1e-9),
            self.skills,
            self.ojama_rows,
            self.deaths,
            self.longest_chain,
            if self.mismatch.is_none() { "agree" } else { "MISMATCH" }
        )
    }
}

/// The backend this build uses and the CPU features the machine has.
pub fn build_description() -> String {
    format!(
        "ysai {} selfcheck: bitboard backend {}, gravity {}, CPU features: {}, {} threads",
        env!("CARGO_PKG_VERSION"),
        crate::bitboard::BACKEND,
        crate::bitboard::COMPRESS_BACKEND,
        cpu_features(),
        rayon::current_num_threads()
    )
}

/// The vector and bit-manipulation features this CPU reports.
pub fn cpu_features() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        let features = [
            ("avx2", std::arch::is_x86_feature_detected!("avx2")),
            ("bmi2", std::arch::is_x86_feature_detected!("bmi2")),
            ("avx512f", std::arch::is_x86_feature_detected!("avx512f")),
            ("popcnt", std::arch::is_x86_feature_detected!("popcnt")),
        ];
        let found: Vec<&str> = features
            .iter()
            .filter(|(_, on)| *on)
            .map(|(name, _)| *name)
            .collect();
        if found.is_empty() {
            "none".to_string()
        } else {
            found.join(" ")
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        std::env::consts::ARCH.to_string()
    }
}
