//! The recorded official transcripts shared by the integration tests.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use ysai::protocol::{read_all, Game};

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
