//! The results file: one JSON object per game (JSON Lines), appended as games finish, read
//! back to resume an interrupted match and to merge matches played on several machines.
//! Each line also says what was run (the time control, the SPRT, when, on which CPU) and
//! keeps the game's moves, so that its replay can be rebuilt.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::compact::CompactRecord;
use super::packs::PackOrigin;
use super::referee::{BigChain, Reason};
use super::stats::{Sprt, Wdl};
use super::tournament::{match_names, pairing_dir, TournamentKind};

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
    /// The names of the two engines (`--engine name=...`; p0's first), which name the
    /// pairing; absent for the players of `--p0` and `--p1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engines: Option<[String; 2]>,
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
    /// Each player's peak resident set over the game, in KiB (absent from files written
    /// before it was recorded, and where the system does not tell it).
    #[serde(default)]
    pub peak_rss_kib: [Option<u64>; 2],
    /// What the run that played the game ran (absent from files written before it was
    /// recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<RunInfo>,
    /// The game's moves, thinking times and turn lines, from which its replay is rebuilt
    /// (absent from files written before they were kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<CompactRecord>,
}

impl GameLine {
    /// The game from player 0's side: `Some(true)` won, `Some(false)` lost, `None` drawn.
    pub fn p0_won(&self) -> Option<bool> {
        self.winner.map(|w| w == 0)
    }

    /// The names of the game's two engines: as recorded, else a match's players named after
    /// their commands (see [`match_names`]), else `p0` and `p1`.
    pub fn engine_names(&self) -> [String; 2] {
        if let Some(engines) = &self.engines {
            return engines.clone();
        }
        match &self.run {
            Some(run) => match_names([&run.commands[0], &run.commands[1]]),
            None => ["p0".to_string(), "p1".to_string()],
        }
    }

    /// Where the game's replay and transcripts are within their directories: the
    /// pairing's directory in a tournament (`a-vs-b`), `None` in a match.
    pub fn pairing_dir(&self) -> Option<String> {
        self.run.as_ref()?.tournament.as_ref()?;
        let [a, b] = self.engines.as_ref()?;
        Some(pairing_dir([a, b]))
    }
}

/// What one run of `ysai arena` ran: the same in every line it writes. A resumed match has a
/// run per resumption; together with each game's name lines (`names`, the builds), it says
/// what every game was played with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    /// When the run started, in UTC (`2025-01-31T09:05:00Z`).
    pub started: String,
    /// The host's CPU (`model name` in /proc/cpuinfo), or `unknown`.
    pub cpu: String,
    /// The time control the referee enforced, as `--tc` takes it.
    pub tc: String,
    /// The SPRT the run stopped by, as `--sprt` takes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<String>,
    /// The game's two commands as given (`--p0`, `--p1`, or its engines' `cmd=`).
    pub commands: [String; 2],
    /// Where the packs came from.
    pub packs: PackOrigin,
    /// The tournament the game is part of, if it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentRun>,
}

/// A tournament, as a run records it: its kind and its engines, in the order given (the
/// first is the one every Elo is measured from).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentRun {
    pub kind: TournamentKind,
    pub engines: Vec<String>,
}

impl RunInfo {
    /// A run starting now on this host, of games run by `commands` (a tournament gives each
    /// pairing its own, and sets [`RunInfo::tournament`]).
    pub fn now(tc: String, sprt: Option<&Sprt>, commands: [String; 2], packs: PackOrigin) -> Self {
        let seconds = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        RunInfo {
            started: utc_timestamp(seconds),
            cpu: cpu_model(&cpuinfo).unwrap_or_else(|| "unknown".to_string()),
            tc,
            sprt: sprt.map(Sprt::to_string),
            commands,
            packs,
            tournament: None,
        }
    }
}

/// `seconds` after the Unix epoch as an RFC 3339 UTC time (civil from days, H. Hinnant).
fn utc_timestamp(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let second_of_day = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        second_of_day / 3600,
        second_of_day / 60 % 60,
        second_of_day % 60
    )
}

/// The first `model name` of a /proc/cpuinfo text.
fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == "model name" && !value.trim().is_empty()).then(|| value.trim().to_string())
    })
}

/// The build each engine is, as its name line says: what a match must not mix. Fed the
/// name lines of every game (and of an engine asked before a resumed match plays), it refuses
/// the first that differs from what it has seen.
#[derive(Clone, Debug, Default)]
pub struct Builds {
    /// The build seen for each engine, by the label errors name it by.
    seen: BTreeMap<String, String>,
}

impl Builds {
    /// Takes the name lines of one game (`None`: the engine gave none), played by the engines
    /// `engines` name (see [`super::tournament::Lineup::label`]); an error naming the engine
    /// and both builds if one is not the build seen before.
    pub fn check(
        &mut self,
        names: &[Option<String>; 2],
        engines: [&str; 2],
    ) -> Result<(), ResultsError> {
        for player in 0..2 {
            self.check_one(names[player].as_deref(), engines[player])?;
        }
        Ok(())
    }

    /// As [`Builds::check`], for one engine's name line.
    pub fn check_one(&mut self, name: Option<&str>, engine: &str) -> Result<(), ResultsError> {
        let Some(name) = name else {
            return Ok(());
        };
        match self.seen.get(engine) {
            None => {
                self.seen.insert(engine.to_string(), name.to_string());
                Ok(())
            }
            Some(seen) if seen == name => Ok(()),
            Some(seen) => Err(ResultsError(format!(
                "{engine} is build `{name}`, but the match's earlier games were played by build `{seen}`; a match must not mix two builds: run the build that played them, or use another --results file"
            ))),
        }
    }
}

/// The SPRTs the games were played under (their runs' `--sprt`), each once, in the order
/// the games give them; an error if one cannot be read.
pub fn recorded_sprts(games: &[GameLine]) -> Result<Vec<Sprt>, ResultsError> {
    let mut sprts: Vec<Sprt> = Vec::new();
    for game in games {
        let Some(spec) = game.run.as_ref().and_then(|r| r.sprt.as_deref()) else {
            continue;
        };
        let sprt = spec.parse::<Sprt>().map_err(|e| {
            ResultsError(format!(
                "game {}: the recorded SPRT `{spec}` cannot be read: {e}",
                game.game
            ))
        })?;
        if !sprts.contains(&sprt) {
            sprts.push(sprt);
        }
    }
    Ok(sprts)
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

/// An error if `games` (of a results file being resumed) include games of another match
/// than those of `match_ids` (a match's one, or a tournament's pairings).
pub fn check_same_match(games: &[GameLine], match_ids: &[String]) -> Result<(), ResultsError> {
    let Some(other) = games.iter().find(|g| !match_ids.contains(&g.match_id)) else {
        return Ok(());
    };
    let this = match match_ids {
        [one] => format!("this match is {one}"),
        many => format!("this tournament's {} pairings are not", many.len()),
    };
    Err(ResultsError(format!(
        "the results file holds games of another match ({}); {this}; use another --results file",
        other.match_id
    )))
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
            engines: None,
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
            peak_rss_kib: [None; 2],
            run: None,
            record: None,
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
        let ids = |ids: &[&str]| -> Vec<String> { ids.iter().map(|s| s.to_string()).collect() };
        assert!(check_same_match(&games, &ids(&["m"])).is_ok());
        assert!(check_same_match(&games, &ids(&["a", "m"])).is_ok());
        let err = check_same_match(&games, &ids(&["other"]))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("another match (m); this match is other"),
            "{err}"
        );
        let err = check_same_match(&games, &ids(&["a", "b", "c"]))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("this tournament's 3 pairings are not"),
            "{err}"
        );
    }

    #[test]
    fn a_line_written_before_runs_and_records_were_kept_still_reads() {
        let old = r#"{"match":"m","game":3,"seed":4,"pack_file":null,"names":["a",null],"winner":0,"reason":"dead","losers":[null,"dead"],"turn":40,"scores":[10,3],"max_chains":[4,2],"think_ms":[1.5,2.0],"max_think_ms":[1.0,1.0]}"#;
        let loaded = parse(&format!("{old}\n"), Path::new("r")).unwrap();
        let game = &loaded.games[0];
        assert_eq!(
            (game.game, game.run.is_none(), game.record.is_none()),
            (3, true, true)
        );
        assert!(recorded_sprts(&loaded.games).unwrap().is_empty());
    }

    #[test]
    fn timestamps_are_utc_calendar_times() {
        assert_eq!(utc_timestamp(0), "1970-01-01T00:00:00Z");
        // 2000-02-29 (a leap day of a century leap year) 23:59:59, and the next second.
        assert_eq!(utc_timestamp(951_868_799), "2000-02-29T23:59:59Z");
        assert_eq!(utc_timestamp(951_868_800), "2000-03-01T00:00:00Z");
        assert_eq!(utc_timestamp(1_735_689_600), "2025-01-01T00:00:00Z");
        assert_eq!(utc_timestamp(4_107_542_400), "2100-03-01T00:00:00Z");
    }

    #[test]
    fn the_cpu_model_is_the_first_model_name() {
        let cpuinfo = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n\nprocessor\t: 1\nmodel name\t: other\n";
        assert_eq!(cpu_model(cpuinfo).as_deref(), Some("AMD EPYC 7B13"));
        assert_eq!(cpu_model("processor\t: 0\nmodel name\t:\n"), None);
        assert_eq!(cpu_model(""), None);
    }

    #[test]
    fn a_second_build_of_a_player_is_refused_naming_both() {
        let players = ["p0 (`self`)", "p1 (`./old`)"];
        let names = |a: &str, b: Option<&str>| [Some(a.to_string()), b.map(str::to_string)];
        let mut builds = Builds::default();
        builds
            .check(&names("ysai-1", Some("old")), players)
            .unwrap();
        builds.check(&names("ysai-1", None), players).unwrap();
        builds.check(&[None, Some("old".into())], players).unwrap();
        let err = builds
            .check(&names("ysai-1", Some("old-2")), players)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("p1 (`./old`) is build `old-2`") && err.contains("played by build `old`;"),
            "{err}"
        );
        // An engine keeps its build whichever seat it plays.
        let err = builds
            .check(&names("old-3", None), ["p1 (`./old`)", "p0 (`self`)"])
            .unwrap_err()
            .to_string();
        assert!(err.contains("p1 (`./old`) is build `old-3`"), "{err}");
    }

    #[test]
    fn a_game_names_its_engines() {
        let mut game = line(0, Some(0));
        assert_eq!(game.engine_names(), ["p0", "p1"]);
        game.run = Some(RunInfo {
            started: "2025-01-01T00:00:00Z".into(),
            cpu: "cpu".into(),
            tc: "none".into(),
            sprt: None,
            commands: ["greedy".into(), "random --seed 2".into()],
            packs: PackOrigin::Files { dir: "p".into() },
            tournament: None,
        });
        assert_eq!(game.engine_names(), ["greedy", "random --seed 2"]);
        assert_eq!(game.pairing_dir(), None);
        game.engines = Some(["a".into(), "b".into()]);
        assert_eq!(game.engine_names(), ["a", "b"]);
        assert_eq!(game.pairing_dir(), None, "a match of two named engines");
        if let Some(run) = game.run.as_mut() {
            run.tournament = Some(TournamentRun {
                kind: TournamentKind::Gauntlet,
                engines: vec!["a".into(), "b".into(), "c".into()],
            });
        }
        assert_eq!(game.pairing_dir().as_deref(), Some("a-vs-b"));
    }

    #[test]
    fn recorded_sprts_are_listed_once_each() {
        let with_sprt = |game: u64, sprt: Option<&str>| {
            let mut line = line(game, Some(0));
            line.run = Some(RunInfo {
                started: "2025-01-01T00:00:00Z".into(),
                cpu: "cpu".into(),
                tc: "1000+100".into(),
                sprt: sprt.map(str::to_string),
                commands: ["a".into(), "b".into()],
                packs: PackOrigin::Files { dir: "p".into() },
                tournament: None,
            });
            line
        };
        let games = [
            with_sprt(
                0,
                Some("elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized"),
            ),
            with_sprt(1, None),
            with_sprt(2, Some("elo0=0,elo1=10")),
            with_sprt(3, Some("elo0=0,elo1=5")),
        ];
        let sprts = recorded_sprts(&games).unwrap();
        let specs: Vec<String> = sprts.iter().map(Sprt::to_string).collect();
        assert_eq!(
            specs,
            [
                "elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized",
                "elo0=0,elo1=5,alpha=0.05,beta=0.05,model=normalized"
            ]
        );
        let bad = [with_sprt(7, Some("elo0=5,elo1=1"))];
        let err = recorded_sprts(&bad).unwrap_err().to_string();
        assert!(
            err.contains("game 7") && err.contains("elo0=5,elo1=1"),
            "{err}"
        );
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
