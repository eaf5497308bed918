//! The recorded official transcripts shared by the integration tests (and the benchmarks,
//! which include this file).

// Each test crate compiles this module and uses only part of it.
#![allow(dead_code)]

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use ysai::protocol::{read_all, Game, PlayerView};
use ysai::sim::{Field, PlayerState, Position, PreparedPack};

/// A file of `tests/data/official/`.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/official")
        .join(name)
}

/// Every game of a transcript.
pub fn load(name: &str) -> Vec<Game> {
    let file = File::open(data(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    read_all(BufReader::new(file)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A player's state as recorded (recorded fields are always valid).
pub fn recorded_state(view: &PlayerView) -> PlayerState {
    PlayerState {
        field: Field::from_rows(&view.rows).expect("recorded field is valid"),
        ojama: view.ojama,
        gauge: view.gauge,
        score: view.score,
    }
}

/// The last turn of an official snapshot (`snapshots/NAME.stdin.txt`), as the searches see it.
pub struct Snapshot {
    pub turn: usize,
    pub packs: Vec<PreparedPack>,
    pub me: PlayerState,
    pub enemy: PlayerState,
    pub time_left_ms: i64,
}

impl Snapshot {
    pub fn load(name: &str) -> Snapshot {
        let game = load(&format!("snapshots/{name}.stdin.txt")).remove(0);
        let turn = game.turns.last().expect("one turn");
        let t = turn.turn as usize;
        Snapshot {
            turn: t,
            packs: game.packs[t..]
                .iter()
                .map(|&p| PreparedPack::new(p))
                .collect(),
            me: recorded_state(&turn.players[0]),
            enemy: recorded_state(&turn.players[1]),
            time_left_ms: turn.players[0].time_left_ms,
        }
    }

    pub fn position(&self) -> Position<'_> {
        Position {
            turn: self.turn,
            packs: &self.packs,
            me: &self.me,
            opponent: &self.enemy,
            time_left_ms: self.time_left_ms,
        }
    }
}
