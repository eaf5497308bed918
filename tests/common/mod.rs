//! The recorded official transcripts shared by the integration tests.

// Each test crate compiles this module and uses only part of it.
#![allow(dead_code)]

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use ysai::protocol::{read_all, Game, PlayerView};
use ysai::sim::{Field, PlayerState};

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
