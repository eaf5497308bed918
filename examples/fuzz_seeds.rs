//! Writes the fuzz targets' seed inputs into `<dir>/simulator` and `<dir>/protocol`:
//!
//!     cargo run --example fuzz_seeds -- fuzz/corpus
//!
//! Simulator seeds are random scripted games that often fire the skill or take the longest
//! chain on offer, so that fuzzing starts from chains, skills and ojama rows rather than
//! noise. Protocol seeds are small streams taken from such a game, valid ones in several
//! layouts and malformed ones that stop at different checks of the reader.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use ysai::protocol::{format_game_start, format_turn, PlayerView, TurnInput};
use ysai::rng::Rng;
use ysai::selfcheck::{random_script, scripted_action};
use ysai::sim::{play_turn, Pack, PlayerState, PreparedPack, Shift, PACKS_PER_GAME};

const SIMULATOR_SEEDS: u64 = 40;
/// Longest seed game: long enough for ojama rows and deaths, short enough to mutate quickly.
const MAX_SEED_TURNS: usize = 120;

fn main() -> io::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("fuzz/corpus"));
    write_simulator_seeds(&dir.join("simulator"))?;
    write_protocol_seeds(&dir.join("protocol"))
}

fn write_simulator_seeds(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    for seed in 0..SIMULATOR_SEEDS {
        let mut rng = Rng::new(0xf022_0000 + seed);
        let max_turns = 10 + rng.below(MAX_SEED_TURNS as u64) as usize;
        let script = random_script(&mut rng, max_turns);
        fs::write(dir.join(format!("game-{seed:02}")), script.to_bytes())?;
    }
    Ok(())
}

fn write_protocol_seeds(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    let (packs, turns) = protocol_game(&mut Rng::new(0xf022_1000));
    let start = format_game_start(&packs);
    let turn = format_turn(&turns[1]);
    let blocks: Vec<String> = std::iter::once(start.clone())
        .chain(turns.iter().map(format_turn))
        .collect();
    let game = blocks.concat();
    let seeds = [
        ("game-3turns.txt", game.clone()),
        ("turn-only.txt", turn.clone()),
        (
            "two-games-crlf.txt",
            crlf_with_blank_lines(&[&blocks[..], &blocks[..]].concat()),
        ),
        ("empty.txt", String::new()),
        ("blank-lines.txt", "\n \r\n\t\n".to_string()),
        ("no-final-newline.txt", turn.trim_end().to_string()),
        ("three-values.txt", "1 2 3\n".to_string()),
        ("turn-500.txt", with_line(&turn, 0, "500")),
        (
            "time-beyond-i64.txt",
            with_line(&turn, 1, "9223372036854775808"),
        ),
        (
            "time-beyond-u64.txt",
            with_line(&turn, 1, "99999999999999999999"),
        ),
        ("negative-ojama.txt", with_line(&turn, 2, "-1")),
        ("gauge-101.txt", with_line(&turn, 3, "101")),
        ("cell-10.txt", with_line(&turn, 5, "0 0 0 0 0 0 0 0 0 10")),
        (
            "eleven-cells.txt",
            with_line(&turn, 5, "0 0 0 0 0 0 0 0 0 0 0"),
        ),
        ("missing-end.txt", with_line(&turn, 21, "EN")),
        ("truncated-turn.txt", turn[..turn.len() / 3].to_string()),
        ("truncated-packs.txt", start[..start.len() / 3].to_string()),
        ("pack-value-10.txt", with_line(&start, 3, "10 1")),
    ];
    for (name, text) in seeds {
        fs::write(dir.join(name), text)?;
    }
    let mut invalid_utf8 = turn.into_bytes();
    let row = turn_row_offset(&invalid_utf8);
    invalid_utf8[row] = 0xff;
    fs::write(dir.join("invalid-utf8.txt"), invalid_utf8)
}

/// A game's packs and the input of its first turns, played from a random script.
fn protocol_game(rng: &mut Rng) -> (Box<[Pack; PACKS_PER_GAME]>, Vec<TurnInput>) {
    let script = random_script(rng, PACKS_PER_GAME);
    let mut packs = Box::new([Pack::new([1, 2], [3, 4]); PACKS_PER_GAME]);
    for (pack, turn) in packs.iter_mut().zip(&script.turns) {
        *pack = turn.pack;
    }
    let mut players = [0, 1].map(|p| PlayerState {
        ojama: script.ojama[p],
        gauge: script.gauge[p],
        ..PlayerState::default()
    });
    let mut turns = Vec::new();
    for (number, step) in script.turns.iter().enumerate().take(3) {
        for (player, extra) in players.iter_mut().zip(step.extra_ojama) {
            player.ojama += extra;
        }
        turns.push(TurnInput {
            turn: number as u32,
            players: players.map(|p| view(&p, number)),
        });
        let actions = [0, 1].map(|p| scripted_action(&players[p], step.choices[p]));
        play_turn::<Shift>(&mut players, &PreparedPack::new(step.pack), actions);
    }
    (packs, turns)
}

fn view(player: &PlayerState, turn: usize) -> PlayerView {
    PlayerView {
        time_left_ms: 180_000 - 150 * turn as i64,
        ojama: player.ojama,
        gauge: player.gauge,
        score: player.score,
        rows: player.field.to_rows(),
    }
}

/// The blocks with `\r\n` line ends, a blank line between blocks and no final newline.
fn crlf_with_blank_lines(blocks: &[String]) -> String {
    let crlf: Vec<String> = blocks
        .iter()
        .map(|block| block.trim_end().replace('\n', "\r\n"))
        .collect();
    crlf.join("\r\n\r\n")
}

/// `text` with its 0-based line `index` replaced.
fn with_line(text: &str, index: usize, replacement: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, line)| if i == index { replacement } else { line })
        .map(|line| format!("{line}\n"))
        .collect()
}

/// The offset of the first field row's first cell in a turn block.
fn turn_row_offset(turn: &[u8]) -> usize {
    turn.iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .nth(4)
        .map_or(0, |(i, _)| i + 1)
}
