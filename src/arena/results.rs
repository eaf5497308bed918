//! The results file: one JSON object per game (JSON Lines), appended as games finish, read
//! back to resume an interrupted match and to merge matches played on several machines.

use std::collections::BTreeSet;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::referee::{BigChain, Reason};
use super::stats::Wdl;

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// Describes the match (players, packs, time control), so that a resumed run or a merge
    /// can tell results of another match apart.
    #[serde(rename = "match")]
    pub match_id: String,
    /// Index of the game in the match (0-based); its packs depend only on it.
    pub game: u64,
    /// Seed of the generated packs, if generated.
    pub seed: Option<u64>,
    /// Pack file, if read from a directory.
    pub pack_file: Option<String>,
    /// Name lines of the two players.
    pub names: [Option<String>; 2],
    /// The names the players are shown by (see [`super::shown_name`]); absent from files
    /// written before they were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<[String; 2]>,
    pub winner: Option<usize>,
    pub reason: Reason,
    pub losers: [Option<Reason>; 2],
    pub turn: u32,
    pub scores: [i64; 2],
    pub max_chains: [u32; 2],
    /// Each player's first chain of `BIG_CHAIN` or more, if any (absent from files written
    /// before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_big_chains: Option<[Option<BigChain>; 2]>,
    /// Total thinking time of each player over the game.
    pub think_ms: [f64; 2],
    /// Longest single answer of each player.
    pub max_think_ms: [f64; 2],
}

impl GameLine {
    /// The game from player 0's side: `Some(true)` won, `Some(false)` lost, `None` drawn.
    pub fn p0_won(&self) -> Option<bool> {
        self.winner.map(|w| w == 0)
    }
}

/// A results file that cannot be used.
#[derive(Debug)]
pub struct ResultsError(pub String);

impl fmt::Display for ResultsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ResultsError {}

/// The games of a results file. A last line without its newline (a write interrupted by a
/// crash or power cut) is ignored and reported in `torn`; any other bad line is an error.
#[derive(Debug, Default)]
pub struct Loaded {
    pub games: Vec<GameLine>,
    /// The length of the file's valid part, when a torn last line follows it.
    pub torn: Option<u64>,
}

/// Reads a results file.
pub fn load(path: &Path) -> Result<Loaded, ResultsError> {
    let text = fs::read_to_string(path)
        .map_err(|e| ResultsError(format!("results file {}: {e}", path.display())))?;
    parse(&text, path)
}

fn parse(text: &str, path: &Path) -> Result<Loaded, ResultsError> {
    let mut loaded = Loaded::default();
    let mut offset = 0usize;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let complete = line.ends_with('\n');
        let content = line.trim();
        if !content.is_empty() {
            match serde_json::from_str::<GameLine>(content) {
                Ok(game) => loaded.games.push(game),
                Err(_) if !complete => {
                    loaded.torn = Some(offset as u64);
                    break;
                }
                Err(e) => {
                    return Err(ResultsError(format!(
                        "results file {} line {}: not a game record ({e})",
                        path.display(),
                        index + 1
                    )))
                }
            }
        }
        offset += line.len();
    }
    Ok(loaded)
}

/// Appends one line per game, flushed at once, so that an interruption loses at most the game
/// being written.
pub struct ResultsWriter {
    file: File,
    path: PathBuf,
}

impl ResultsWriter {
    /// Opens `path` for appending, cutting off a torn last line first.
    pub fn open(path: &Path, torn: Option<u64>) -> Result<Self, ResultsError> {
        let error = |e: io::Error| ResultsError(format!("results file {}: {e}", path.display()));
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(error)?;
        if let Some(length) = torn {
            file.set_len(length).map_err(error)?;
        }
        Ok(ResultsWriter {
            file,
            path: path.to_path_buf(),
        })
    }

    pub fn append(&mut self, game: &GameLine) -> Result<(), ResultsError> {
        let mut line = serde_json::to_string(game)
            .map_err(|e| ResultsError(format!("cannot encode a result: {e}")))?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| ResultsError(format!("results file {}: {e}", self.path.display())))
    }
}

/// An error if `games` (of a results file being resumed) include games of another match.
pub fn check_same_match(games: &[GameLine], match_id: &str) -> Result<(), ResultsError> {
    match games.iter().find(|g| g.match_id != match_id) {
        Some(other) => Err(ResultsError(format!(
            "the results file holds games of another match ({}); this match is {}; use another --results file",
            other.match_id, match_id
        ))),
        None => Ok(()),
    }
}

/// Results of several files merged: each (match, game) counted once.
#[derive(Debug, Default)]
pub struct Merged {
    pub wdl: Wdl,
    pub matches: BTreeSet<String>,
    pub duplicates: usize,
    pub games: Vec<GameLine>,
}

pub fn merge(files: impl IntoIterator<Item = Vec<GameLine>>) -> Merged {
    let mut merged = Merged::default();
    let mut seen = BTreeSet::new();
    for game in files.into_iter().flatten() {
        if !seen.insert((game.match_id.clone(), game.game)) {
            merged.duplicates += 1;
            continue;
        }
        merged.wdl.add(game.p0_won());
        merged.matches.insert(game.match_id.clone());
        merged.games.push(game);
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(game: u64, winner: Option<usize>) -> GameLine {
        GameLine {
            match_id: "m".into(),
            game,
            seed: Some(game),
            pack_file: None,
            names: [Some("a".into()), Some("b".into())],
            players: None,
            winner,
            reason: Reason::Dead,
            losers: [None, Some(Reason::Dead)],
            turn: 40,
            scores: [10, 3],
            max_chains: [4, 2],
            first_big_chains: Some([
                None,
                Some(BigChain {
                    turn: 12,
                    chains: 13,
                }),
            ]),
            think_ms: [100.5, 200.0],
            max_think_ms: [10.25, 20.0],
        }
    }

    fn text(games: &[GameLine]) -> String {
        games
            .iter()
            .map(|g| serde_json::to_string(g).unwrap() + "\n")
            .collect()
    }

    #[test]
    fn round_trip_and_torn_last_line() {
        let games = [line(0, Some(0)), line(1, None)];
        let mut body = text(&games);
        let loaded = parse(&body, Path::new("r")).unwrap();
        assert_eq!(loaded.games, games);
        assert_eq!(loaded.torn, None);
        let full = body.len() as u64;
        body.push_str("{\"match\":\"m\",\"ga");
        let loaded = parse(&body, Path::new("r")).unwrap();
        assert_eq!(loaded.games.len(), 2);
        assert_eq!(loaded.torn, Some(full));
    }

    #[test]
    fn corrupt_middle_line_is_an_error_naming_it() {
        let body = format!(
            "{}garbage\n{}",
            text(&[line(0, Some(0))]),
            text(&[line(1, None)])
        );
        let err = parse(&body, Path::new("r.jsonl")).unwrap_err().to_string();
        assert!(err.contains("r.jsonl line 2"), "{err}");
    }

    #[test]
    fn another_match_is_refused() {
        let games = [line(0, Some(0))];
        assert!(check_same_match(&games, "m").is_ok());
        let err = check_same_match(&games, "other").unwrap_err().to_string();
        assert!(err.contains("another match"), "{err}");
    }

    #[test]
    fn merge_counts_each_game_once() {
        let a = vec![line(0, Some(0)), line(1, Some(1))];
        let b = vec![line(1, Some(1)), line(2, None)];
        let merged = merge([a, b]);
        assert_eq!(
            merged.wdl,
            Wdl {
                wins: 1,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(merged.duplicates, 1);
    }
}
