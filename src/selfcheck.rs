//! Differential check of the bitboard simulator against the naive oracle: random games with
//! random legal actions (the skill included), random extra ojama and gauge, compared after
//! every turn. `ysai selfcheck` runs it in release mode; the tests run it on every backend.
//! Scripted games ([`Script`]) replay a given sequence of packs and moves the same way, for
//! the fuzzer and its corpus.

use crate::bitboard::WIDTH;
use crate::rng::Rng;
use crate::sim::field::{OJAMA_VALUE, VISIBLE_HEIGHT};
use crate::sim::oracle::{self, OracleField, OracleOutcome, OraclePlayer};
use crate::sim::{
    play_turn, Action, Field, Neighbourhood, Pack, PlayerState, PreparedPack, Shift, Table,
    TurnOutcome,
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
        if let Some(mismatch) = fast
            .iter()
            .find_map(|s| quiet_drop_mismatch::<N>(&s.field, &prepared))
        {
            report.mismatch = Some(format!("turn {turn}: {mismatch}"));
            return;
        }
        let actions = [
            random_action::<N>(rng, &fast[0], &prepared),
            random_action::<N>(rng, &fast[1], &prepared),
        ];
        report.turns += 1;
        match play_both::<N>(turn, &mut fast, &mut naive, pack, actions) {
            Ok(outcomes) => {
                tally(report, &outcomes, actions);
                if outcomes.iter().any(TurnOutcome::lost) {
                    return;
                }
            }
            Err(mismatch) => {
                report.mismatch = Some(mismatch);
                return;
            }
        }
    }
}

/// The first drop whose outcome [`Field::quiet_drop`] gets wrong: a drop it answers must
/// vanish nothing and leave the blocks and life it says, one it declines must pair a block
/// (or overflow).
fn quiet_drop_mismatch<N: Neighbourhood>(field: &Field, pack: &PreparedPack) -> Option<String> {
    Action::drops().iter().find_map(|&action| {
        let Action::Drop { x, rot } = action else {
            return None;
        };
        let quiet = field.quiet_drop(pack, x, rot);
        let mut after = *field;
        let result = after.apply::<N>(pack, action);
        let agrees = match quiet {
            Some(q) => {
                result.chains == 0
                    && result.dead == q.dead
                    && (q.dead || after.number_blocks() == field.number_blocks() + q.placed)
            }
            None => result.chains > 0 || result.dead,
        };
        (!agrees).then(|| format!("quiet drop {action}: {quiet:?}, played: {result:?}"))
    })
}

/// Plays one turn on both simulators and compares everything they hold afterwards: the
/// bitboard simulator's outcomes, or the first difference with the state before the turn.
pub fn play_both<N: Neighbourhood>(
    turn: usize,
    fast: &mut [PlayerState; 2],
    naive: &mut [OraclePlayer; 2],
    pack: Pack,
    actions: [Action; 2],
) -> Result<[TurnOutcome; 2], String> {
    let before = *fast;
    let fast_out = play_turn::<N>(fast, &PreparedPack::new(pack), actions);
    let naive_out = oracle::play_turn(naive, pack, actions);
    match compare(fast, naive, &fast_out, &naive_out) {
        None => Ok(fast_out),
        Some(difference) => Err(format!(
            "turn {turn}, pack {pack:?}, actions {actions:?}: {difference}\nbefore: {before:#?}"
        )),
    }
}

/// A game to replay on both simulators, as decoded from arbitrary bytes by
/// [`script_from_bytes`]: every byte string is a valid script, so a fuzzer can drive it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Script {
    /// Starting ojama stocks.
    pub ojama: [i64; 2],
    /// Starting gauges, 0..=100.
    pub gauge: [i32; 2],
    pub turns: Vec<ScriptTurn>,
}

/// One scripted turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScriptTurn {
    pub pack: Pack,
    /// Each player's action as an index into its legal actions at that point, taken modulo
    /// their number, so that a script can only play legal moves.
    pub choices: [u8; 2],
    /// Ojama added to each stock at the start of the turn, as if received earlier.
    pub extra_ojama: [i64; 2],
}

/// Header flag: two starting ojama stocks follow the header byte.
const SCRIPT_OJAMA: u8 = 1;
/// Header flag: two starting gauges follow (after the stocks, if any).
const SCRIPT_GAUGE: u8 = 2;
/// Bytes per scripted turn: four pack cells, two action choices, the extra ojama.
pub const SCRIPT_TURN_BYTES: usize = 7;

/// Decodes a script: a header byte of flags, the optional starting stocks and gauges (one byte
/// per player each), then turns of [`SCRIPT_TURN_BYTES`] bytes: the pack cells top-left,
/// top-right, bottom-left, bottom-right (each modulo 10), the two choices, and one byte whose
/// low and high nibbles are the extra ojama of players 0 and 1. Missing header bytes count as
/// 0; an incomplete last turn and turns beyond one game are ignored.
pub fn script_from_bytes(data: &[u8]) -> Script {
    let mut bytes = data.iter().copied();
    let mut next = || bytes.next().unwrap_or(0);
    let flags = next();
    let mut script = Script::default();
    if flags & SCRIPT_OJAMA != 0 {
        script.ojama = [i64::from(next()), i64::from(next())];
    }
    if flags & SCRIPT_GAUGE != 0 {
        script.gauge = [gauge_from_byte(next()), gauge_from_byte(next())];
    }
    let header = data.len() - bytes.len();
    script.turns = data[header..]
        .chunks_exact(SCRIPT_TURN_BYTES)
        .take(crate::sim::PACKS_PER_GAME)
        .map(script_turn_from_bytes)
        .collect();
    script
}

fn gauge_from_byte(byte: u8) -> i32 {
    i32::from(byte % 101)
}

fn script_turn_from_bytes(chunk: &[u8]) -> ScriptTurn {
    let cell = |i: usize| chunk[i] % 10;
    ScriptTurn {
        pack: Pack::new([cell(0), cell(1)], [cell(2), cell(3)]),
        choices: [chunk[4], chunk[5]],
        extra_ojama: [i64::from(chunk[6] & 0x0F), i64::from(chunk[6] >> 4)],
    }
}

impl Script {
    /// The bytes [`script_from_bytes`] decodes back into this script, for writing seed inputs.
    /// Panics on a stock, gauge or extra ojama that does not fit its byte or nibble.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = vec![SCRIPT_OJAMA | SCRIPT_GAUGE];
        bytes.extend(self.ojama.map(|v| script_byte(v, u8::MAX)));
        bytes.extend(self.gauge.map(|g| script_byte(i64::from(g), 100)));
        for turn in &self.turns {
            bytes.extend(turn.pack.cells.iter().flatten());
            bytes.extend(turn.choices);
            let [low, high] = turn.extra_ojama.map(|v| script_byte(v, 15));
            bytes.push(low | high << 4);
        }
        bytes
    }
}

fn script_byte(value: i64, max: u8) -> u8 {
    u8::try_from(value)
        .ok()
        .filter(|&v| v <= max)
        .unwrap_or_else(|| panic!("{value} is outside the script's range 0..={max}"))
}

/// A random game as a script, in the style of [`run`] but from empty fields: often the skill
/// or the longest chain on offer, sometimes extra ojama. Ends after `max_turns` turns or when
/// a player loses.
pub fn random_script(rng: &mut Rng, max_turns: usize) -> Script {
    let mut script = Script::default();
    for p in 0..2 {
        if rng.chance(1, 3) {
            script.ojama[p] = rng.below(30) as i64;
        }
        if rng.chance(1, 2) {
            script.gauge[p] = 60 + rng.below(41) as i32;
        }
    }
    let mut players = [0, 1].map(|p| PlayerState {
        ojama: script.ojama[p],
        gauge: script.gauge[p],
        ..PlayerState::default()
    });
    while script.turns.len() < max_turns.min(crate::sim::PACKS_PER_GAME) {
        let extra_ojama = [0, 1].map(|_| {
            if rng.chance(1, 12) {
                rng.below(16) as i64
            } else {
                0
            }
        });
        for (player, extra) in players.iter_mut().zip(extra_ojama) {
            player.ojama += extra;
        }
        let pack = random_pack(rng);
        let prepared = PreparedPack::new(pack);
        let actions = [0, 1].map(|p| random_action::<Shift>(rng, &players[p], &prepared));
        script.turns.push(ScriptTurn {
            pack,
            choices: [0, 1].map(|p| choice_for(&players[p], actions[p])),
            extra_ojama,
        });
        if play_turn::<Shift>(&mut players, &prepared, actions)
            .iter()
            .any(TurnOutcome::lost)
        {
            break;
        }
    }
    script
}

/// The legal action a script's choice byte stands for.
pub fn scripted_action(state: &PlayerState, choice: u8) -> Action {
    let legal = state.legal_actions().count();
    state
        .legal_actions()
        .nth(usize::from(choice) % legal)
        .expect("the 36 drops are always legal")
}

/// The choice byte that makes [`scripted_action`] pick `action` (which must be legal).
pub fn choice_for(state: &PlayerState, action: Action) -> u8 {
    let index = state.legal_actions().position(|a| a == action);
    u8::try_from(index.expect("the action is legal")).expect("at most 37 actions")
}

/// Plays `script` on the oracle and the bitboard simulator with neighbourhood `N`, until it
/// ends or a player loses: the number of turns played, or the first disagreement.
pub fn play_script<N: Neighbourhood>(script: &Script) -> Result<usize, String> {
    let mut fast = [0, 1].map(|p| PlayerState {
        ojama: script.ojama[p],
        gauge: script.gauge[p],
        ..PlayerState::default()
    });
    let mut naive = fast.each_ref().map(oracle_player);
    for (turn, step) in script.turns.iter().enumerate() {
        for p in 0..2 {
            fast[p].ojama += step.extra_ojama[p];
            naive[p].ojama += step.extra_ojama[p];
        }
        let actions = [0, 1].map(|p| scripted_action(&fast[p], step.choices[p]));
        let outcomes = play_both::<N>(turn, &mut fast, &mut naive, step.pack, actions)?;
        if outcomes.iter().any(TurnOutcome::lost) {
            return Ok(turn + 1);
        }
    }
    Ok(script.turns.len())
}

/// [`play_script`] with both neighbourhoods; the turns played, or the first disagreement.
pub fn check_script(script: &Script) -> Result<usize, String> {
    let turns = play_script::<Shift>(script).map_err(|m| format!("{}: {m}", Shift::NAME))?;
    play_script::<Table>(script).map_err(|m| format!("{}: {m}", Table::NAME))?;
    Ok(turns)
}

fn tally(report: &mut Report, outcomes: &[TurnOutcome; 2], actions: [Action; 2]) {
    for (outcome, action) in outcomes.iter().zip(actions) {
        report.skills += u64::from(action == Action::Skill);
        report.ojama_rows += u64::from(outcome.ojama_dropped);
        report.deaths += u64::from(outcome.result.dead);
        report.longest_chain = report.longest_chain.max(outcome.result.chains);
    }
}

/// The oracle's copy of a bitboard player.
pub fn oracle_player(state: &PlayerState) -> OraclePlayer {
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
    let chains = |action: Action| state.play::<N>(pack, action).1.chains;
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

/// The first difference between the two simulators after a turn, if any.
pub fn compare(
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

/// The build (version, commit, tier, compiled-in features), the backend it uses, and the CPU
/// features the machine has.
pub fn build_description(tool: &str) -> String {
    format!(
        "{} {tool}: bitboard backend {}, gravity {}, chains on {}, CPU features: {}, {} threads",
        crate::build_info::build(),
        crate::bitboard::BACKEND,
        crate::bitboard::COMPRESS_BACKEND,
        crate::bitboard::CHAIN_BOARDS,
        cpu_features().join(" "),
        rayon::current_num_threads()
    )
}

/// The features this build was compiled to use that this CPU lacks: any of them can stop the
/// program with an illegal instruction.
pub fn missing_cpu_features() -> Vec<&'static str> {
    let found = cpu_features();
    env!("YSAI_TARGET_FEATURES")
        .split_whitespace()
        .filter(|f| !found.contains(f))
        .collect()
}

/// The vector and bit-manipulation features this CPU reports (among those builds use).
pub fn cpu_features() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as detected;
        let features = [
            ("avx2", detected!("avx2")),
            ("bmi2", detected!("bmi2")),
            ("fma", detected!("fma")),
            ("avx512f", detected!("avx512f")),
            ("avx512vbmi", detected!("avx512vbmi")),
            ("avx512vpopcntdq", detected!("avx512vpopcntdq")),
            ("popcnt", detected!("popcnt")),
            ("sse4.2", detected!("sse4.2")),
        ];
        features
            .iter()
            .filter(|(_, on)| *on)
            .map(|(name, _)| *name)
            .collect()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_survive_encoding() {
        let mut rng = Rng::new(3);
        for _ in 0..20 {
            let script = random_script(&mut rng, 60);
            assert_eq!(script_from_bytes(&script.to_bytes()), script);
        }
    }

    #[test]
    fn short_and_partial_inputs_decode() {
        assert_eq!(script_from_bytes(&[]), Script::default());
        let header_only = script_from_bytes(&[SCRIPT_OJAMA | SCRIPT_GAUGE, 12]);
        assert_eq!((header_only.ojama, header_only.gauge), ([12, 0], [0, 0]));
        // Flags 0, one whole turn, then a turn cut short.
        let script = script_from_bytes(&[0, 11, 2, 3, 4, 40, 41, 0x2f, 9, 9]);
        assert_eq!(script.turns.len(), 1);
        let turn = script.turns[0];
        assert_eq!(turn.pack, Pack::new([1, 2], [3, 4]));
        assert_eq!(turn.choices, [40, 41]);
        assert_eq!(turn.extra_ojama, [15, 2]);
    }

    #[test]
    fn every_choice_is_a_legal_action() {
        for gauge in [0, 79, 80, 100] {
            let state = PlayerState {
                gauge,
                ..PlayerState::default()
            };
            for choice in 0..=u8::MAX {
                let action = scripted_action(&state, choice);
                assert!(state.is_legal(action));
                assert_eq!(scripted_action(&state, choice_for(&state, action)), action);
            }
        }
    }
}
