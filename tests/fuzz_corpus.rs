//! Replays the committed fuzz corpora with the fuzz targets' own checks, so that every input
//! the fuzzers were seeded with (and every crash added to them) stays checked on stable.

use std::fs;
use std::path::{Path, PathBuf};

use ysai::protocol::check_reader;
use ysai::selfcheck::{check_script, script_from_bytes};

/// The files of `fuzz/corpus/<target>`, sorted; libFuzzer's hidden lock files are skipped.
fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("readable corpus entry").path())
        .filter(|path| path.is_file() && !is_hidden(path))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no inputs", dir.display());
    files
}

fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| name.to_string_lossy().starts_with('.'))
}

fn read(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn protocol_corpus_reads_consistently() {
    let files = corpus("protocol");
    let (mut accepted, mut rejected) = (0, 0);
    for path in &files {
        match check_reader(&read(path)) {
            Ok(check) if check.error.is_none() => accepted += 1,
            Ok(_) => rejected += 1,
            Err(problem) => panic!("{}: {problem}", path.display()),
        }
    }
    println!(
        "protocol corpus: {} files checked, {accepted} read to the end, {rejected} rejected",
        files.len()
    );
}

#[test]
fn simulator_corpus_agrees_with_the_oracle() {
    let files = corpus("simulator");
    let mut turns = 0;
    for path in &files {
        match check_script(&script_from_bytes(&read(path))) {
            Ok(played) => turns += played,
            Err(mismatch) => panic!("{}: {mismatch}", path.display()),
        }
    }
    println!(
        "simulator corpus: {} files checked, {turns} turns on both neighbourhoods",
        files.len()
    );
}
