//! `ysai bench`: a fixed-work benchmark whose signature proves that a build searches exactly
//! as every other build does, and `ysai bench chains`, the chain quality of the first beam.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use std::{fmt, fs, io};

use serde::Serialize;

use crate::params::{Params, PlayerKind};
use crate::protocol::{Event, Reader};
use crate::search::chokudai;
use crate::search::key::WordHasher;
use crate::search::{beam_search, BeamConfig, BeamResult, BeamRoot};
use crate::sim::{Field, Neighbourhood, PlayerState, PreparedPack};
use ysai_tables::chain_ojama;

/// The chain whose first availability `bench chains` reports by default (`depth12`).
pub const REPORTED_CHAIN: u32 = 12;

/// Node budget of each `ysai bench` position.
pub const BENCH_NODES: u64 = 60_000;

/// A recorded turn: the game's packs and both players at the start of the turn.
struct Snapshot {
    name: &'static str,
    text: &'static str,
}

macro_rules! snapshot {
    ($name:literal) => {
        Snapshot {
            name: $name,
            text: include_str!(concat!(
                "../tests/data/official/snapshots/",
                $name,
                ".stdin.txt"
            )),
        }
    };
}

/// The positions of `ysai bench`: official single-turn inputs from the opening to the middle
/// game, with their real packs.
const SNAPSHOTS: [Snapshot; 7] = [
    snapshot!("initial"),
    snapshot!("error"),
    snapshot!("segfault"),
    snapshot!("segfault1"),
    snapshot!("must_not_die"),
    snapshot!("dead"),
    snapshot!("dead1"),
];

/// One position of the fixed benchmark, ready to search.
pub struct BenchPosition {
    pub name: &'static str,
    pub turn: usize,
    pub me: PlayerState,
    pub enemy_ojama: i64,
    pub packs: Vec<PreparedPack>,
}

/// The embedded positions. They are part of the binary, so a failure here is a build defect.
pub fn bench_positions() -> Vec<BenchPosition> {
    SNAPSHOTS.iter().map(parse_snapshot).collect()
}

fn parse_snapshot(snapshot: &Snapshot) -> BenchPosition {
    let mut reader = Reader::new(snapshot.text.as_bytes());
    let mut packs = None;
    while let Some(event) = reader.next_event().expect("embedded snapshot parses") {
        match event {
            Event::GameStart(p) => packs = Some(p),
            Event::Turn(turn) => {
                let packs = packs.expect("packs come before the turn");
                let view = &turn.players;
                let me = PlayerState {
                    field: Field::from_rows_settled(&view[0].rows).expect("valid field"),
                    ojama: view[0].ojama,
                    gauge: view[0].gauge,
                    score: view[0].score,
                };
                let turn = turn.turn as usize;
                return BenchPosition {
                    name: snapshot.name,
                    turn,
                    me,
                    enemy_ojama: view[1].ojama,
                    packs: packs[turn..]
                        .iter()
                        .map(|&p| PreparedPack::new(p))
                        .collect(),
                };
            }
        }
    }
    panic!("embedded snapshot {} has no turn", snapshot.name)
}

/// The beam every bench position runs: a per-turn beam over all columns, narrow enough that
/// the budget reaches several depths, under a node budget.
pub fn bench_config(nodes: u64) -> BeamConfig {
    BeamConfig {
        node_budget: Some(nodes),
        ..BeamConfig::new(10, 300, 100)
    }
}

/// What `ysai bench` measured.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchTotals {
    pub nodes: u64,
    pub sim_calls: u64,
    pub elapsed: Duration,
    pub signature: u64,
}

impl BenchTotals {
    pub fn nodes_per_second(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

impl fmt::Display for BenchTotals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nodes {} nps {} signature {:016x}",
            self.nodes,
            self.nodes_per_second(),
            self.signature
        )
    }
}

/// Runs every bench position with `nodes` per position, writing one line per position to
/// `out`. The signature hashes each plan, its best chain and the node count.
pub fn run_bench<N: Neighbourhood>(
    nodes: u64,
    out: &mut impl io::Write,
) -> io::Result<BenchTotals> {
    let mut totals = BenchTotals::default();
    let mut signature = WordHasher::default();
    for position in bench_positions() {
        let root = BeamRoot {
            state: position.me,
            enemy_ojama: position.enemy_ojama,
            packs: &position.packs,
        };
        let start = Instant::now();
        let result = beam_search::<N>(root, &bench_config(nodes));
        totals.elapsed += start.elapsed();
        totals.nodes += result.nodes;
        totals.sim_calls += result.sim_calls;
        signature = sign(signature, &result);
        writeln!(
            out,
            "{:<13} turn {:>2}: depth {:>2} nodes {:>6} best chain {:>2} max chain {:>2} plan {}",
            position.name,
            position.turn,
            result.depth,
            result.nodes,
            result.best_chain,
            result.max_chain,
            plan_text(&result)
        )?;
    }
    totals.signature = signature.finish();
    Ok(totals)
}

fn sign(hasher: WordHasher, result: &BeamResult) -> WordHasher {
    let hasher = hasher
        .word(result.nodes)
        .word(u64::from(result.best_chain))
        .word(result.plan.len() as u64);
    result
        .plan
        .iter()
        .fold(hasher, |h, action| h.word(action_code(*action)))
}

fn action_code(action: crate::sim::Action) -> u64 {
    match action {
        crate::sim::Action::Skill => 0,
        crate::sim::Action::Drop { x, rot } => 1 + 4 * u64::from(x) + u64::from(rot),
    }
}

fn plan_text(result: &BeamResult) -> String {
    let moves: Vec<String> = result
        .plan
        .iter()
        .map(|a| a.to_string().replace(' ', ""))
        .collect();
    moves.join(",")
}

/// A pack directory that cannot be used.
#[derive(Debug)]
pub enum PackError {
    Read { path: PathBuf, error: io::Error },
    Parse { path: PathBuf, message: String },
    Empty { dir: PathBuf },
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::Read { path, error } => write!(f, "{}: {error}", path.display()),
            PackError::Parse { path, message } => write!(f, "{}: {message}", path.display()),
            PackError::Empty { dir } => {
                write!(f, "{}: no pack files (*.pack) found", dir.display())
            }
        }
    }
}

impl std::error::Error for PackError {}

/// A pack sequence and the file it came from.
pub struct PackSequence {
    pub file: String,
    pub packs: Vec<PreparedPack>,
}

/// The pack files of `dir` (`*.pack`, or every regular file if there is none), in name order.
pub fn pack_files(dir: &Path) -> Result<Vec<PathBuf>, PackError> {
    let read = |error| PackError::Read {
        path: dir.to_path_buf(),
        error,
    };
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(read)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(read)?;
    files.retain(|p| p.is_file());
    if files
        .iter()
        .any(|p| p.extension().is_some_and(|e| e == "pack"))
    {
        files.retain(|p| p.extension().is_some_and(|e| e == "pack"));
    }
    files.sort();
    if files.is_empty() {
        return Err(PackError::Empty {
            dir: dir.to_path_buf(),
        });
    }
    Ok(files)
}

/// Reads one pack file: the 500-pack block that starts a game.
pub fn read_pack_file(path: &Path) -> Result<PackSequence, PackError> {
    let text = fs::read(path).map_err(|error| PackError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    let parse = |message: String| PackError::Parse {
        path: path.to_path_buf(),
        message,
    };
    let mut reader = Reader::new(text.as_slice());
    match reader.next_event().map_err(|e| parse(e.to_string()))? {
        Some(Event::GameStart(packs)) => Ok(PackSequence {
            file: path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            packs: packs.iter().map(|&p| PreparedPack::new(p)).collect(),
        }),
        _ => Err(parse("expected a block of 500 packs".to_string())),
    }
}

/// The chain quality of one first beam.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainsReport {
    pub file: String,
    /// The chain whose first availability is reported (12 unless `--chain` says otherwise).
    pub chain: u32,
    /// The first depth at which some node could fire that chain or more next (`depth12`).
    pub depth: Option<usize>,
    /// The chain the best node of the last depth can fire next.
    pub best_chain: u32,
    /// The largest chain some node could fire next, at any depth.
    pub max_chain: u32,
    /// Simulator move applications (the beam counts them; the anytime search does not).
    pub sim_calls: Option<u64>,
    pub seconds: f64,
}

/// Runs the opening plan's search from an empty field on `sequence` (`-ftl` is its limit):
/// the first beam, or with `--ai rush` the rush player's anytime search; reports when a
/// chain of `chain` or more is first available.
pub fn chains_one<N: Neighbourhood>(
    sequence: &PackSequence,
    params: &Params,
    chain: u32,
) -> ChainsReport {
    match params.player {
        PlayerKind::Rush => chains_anytime::<N>(sequence, params, chain),
        _ => chains_beam::<N>(sequence, params, chain),
    }
}

fn chains_beam<N: Neighbourhood>(
    sequence: &PackSequence,
    params: &Params,
    chain: u32,
) -> ChainsReport {
    let start = Instant::now();
    let mut config = params.first_beam();
    config.deadline = Some(start + Duration::from_millis(params.opening.first_time_limit_ms));
    let root = BeamRoot {
        state: PlayerState::default(),
        enemy_ojama: 0,
        packs: &sequence.packs,
    };
    let result = beam_search::<N>(root, &config);
    ChainsReport {
        file: sequence.file.clone(),
        chain,
        depth: result.earliest_depth(chain),
        best_chain: result.best_chain,
        max_chain: result.max_chain,
        sim_calls: Some(result.sim_calls),
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// The anytime search's figures: `best_chain` is the chain of the fire it would plan.
fn chains_anytime<N: Neighbourhood>(
    sequence: &PackSequence,
    params: &Params,
    chain: u32,
) -> ChainsReport {
    let start = Instant::now();
    let deadline = start + Duration::from_millis(params.opening.first_time_limit_ms);
    let config = params.first_plan(deadline);
    let result = chokudai::search::<N>(&PlayerState::default(), &sequence.packs, &config);
    ChainsReport {
        file: sequence.file.clone(),
        chain,
        depth: result.earliest(chain),
        best_chain: result
            .fires
            .choose(chain_ojama(params.target_chain()))
            .map_or(0, |f| f.chains),
        max_chain: result.max_chain(),
        sim_calls: None,
        seconds: start.elapsed().as_secs_f64(),
    }
}

impl ChainsReport {
    /// The report as one JSON object (`--json`).
    pub fn json(&self) -> String {
        let json = ReportJson {
            file: &self.file,
            depth: BTreeMap::from([(format!("depth{}", self.chain), self.depth)]),
            best_chain: self.best_chain,
            max_chain: self.max_chain,
            sim_calls: self.sim_calls,
            seconds: thousandths(self.seconds),
        };
        serde_json::to_string(&json).expect("a report serializes")
    }

    pub fn line(&self) -> String {
        format!(
            "{:<16} depth{} {:>4} best_chain {:>2} max_chain {:>2} sim_calls {:>10} seconds {:>6.2}",
            self.file,
            self.chain,
            self.depth.map_or("-".to_string(), |d| d.to_string()),
            self.best_chain,
            self.max_chain,
            self.sim_calls.map_or("-".to_string(), |n| n.to_string()),
            self.seconds
        )
    }
}

/// Averages over a set of [`ChainsReport`]s.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainsSummary {
    pub n: usize,
    /// The reported chain, the mean of its first depth where it was found, and where not.
    pub chain: u32,
    pub depth_mean: f64,
    pub depth_missing: usize,
    pub best_chain_mean: f64,
    pub max_chain_mean: f64,
    pub seconds_mean: f64,
    /// Over the reports that count simulator calls.
    pub sim_calls_per_s: Option<f64>,
}

impl ChainsSummary {
    pub fn of(reports: &[ChainsReport]) -> Self {
        let n = reports.len();
        let mean =
            |f: &dyn Fn(&ChainsReport) -> f64| reports.iter().map(f).sum::<f64>() / n.max(1) as f64;
        let found: Vec<f64> = reports
            .iter()
            .filter_map(|r| r.depth)
            .map(|d| d as f64)
            .collect();
        let counted = || reports.iter().filter(|r| r.sim_calls.is_some());
        let seconds: f64 = counted().map(|r| r.seconds).sum();
        let calls: u64 = counted().filter_map(|r| r.sim_calls).sum();
        ChainsSummary {
            n,
            chain: reports.first().map_or(REPORTED_CHAIN, |r| r.chain),
            depth_mean: found.iter().fold(0.0, |sum, d| sum + d) / found.len().max(1) as f64,
            depth_missing: n - found.len(),
            best_chain_mean: mean(&|r| f64::from(r.best_chain)),
            max_chain_mean: mean(&|r| f64::from(r.max_chain)),
            seconds_mean: mean(&|r| r.seconds),
            sim_calls_per_s: (counted().count() > 0).then(|| calls as f64 / seconds.max(1e-9)),
        }
    }

    /// The summary as one JSON object (`--json`), marked `"summary": true`.
    pub fn json(&self) -> String {
        let depth = format!("depth{}", self.chain);
        let json = SummaryJson {
            summary: true,
            n: self.n,
            depth: BTreeMap::from([
                (format!("{depth}_mean"), thousandths(self.depth_mean).into()),
                (format!("{depth}_missing"), self.depth_missing.into()),
            ]),
            best_chain_mean: thousandths(self.best_chain_mean),
            max_chain_mean: thousandths(self.max_chain_mean),
            seconds_mean: thousandths(self.seconds_mean),
            sim_calls_per_s: self.sim_calls_per_s.map(|r| r.round() as u64),
        };
        serde_json::to_string(&json).expect("a summary serializes")
    }

    pub fn line(&self) -> String {
        let rate = self
            .sim_calls_per_s
            .map_or("null".to_string(), |r| format!("{r:.0}"));
        format!(
            "summary: n {} depth{c}_mean {:.3} depth{c}_missing {} best_chain_mean {:.3} max_chain_mean {:.3} seconds_mean {:.3} sim_calls_per_s {rate}",
            self.n,
            self.depth_mean,
            self.depth_missing,
            self.best_chain_mean,
            self.max_chain_mean,
            self.seconds_mean,
            c = self.chain,
        )
    }
}

/// A [`ChainsReport`] as `--json` writes it. The depth's key names the reported chain
/// (`depth12`), hence a one-entry map flattened in its place.
#[derive(Serialize)]
struct ReportJson<'a> {
    file: &'a str,
    #[serde(flatten)]
    depth: BTreeMap<String, Option<usize>>,
    best_chain: u32,
    max_chain: u32,
    sim_calls: Option<u64>,
    seconds: f64,
}

/// A [`ChainsSummary`] as `--json` writes it; the depth's keys name the reported chain
/// (`depth12_mean`, `depth12_missing`, in that order).
#[derive(Serialize)]
struct SummaryJson {
    summary: bool,
    n: usize,
    #[serde(flatten)]
    depth: BTreeMap<String, serde_json::Value>,
    best_chain_mean: f64,
    max_chain_mean: f64,
    seconds_mean: f64,
    sim_calls_per_s: Option<u64>,
}

/// `x` rounded to three decimals (a millisecond, for the seconds).
fn thousandths(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_json_keeps_its_keys_in_order_and_names_the_chain() {
        let report = ChainsReport {
            file: "a \"b\".pack".to_string(),
            chain: 13,
            depth: None,
            best_chain: 11,
            max_chain: 12,
            sim_calls: Some(42),
            seconds: 1.23456,
        };
        assert_eq!(
            report.json(),
            r#"{"file":"a \"b\".pack","depth13":null,"best_chain":11,"max_chain":12,"sim_calls":42,"seconds":1.235}"#
        );
        let summary = ChainsSummary::of(&[ChainsReport {
            depth: Some(9),
            ..report
        }]);
        assert_eq!(
            summary.json(),
            r#"{"summary":true,"n":1,"depth13_mean":9.0,"depth13_missing":0,"best_chain_mean":11.0,"max_chain_mean":12.0,"seconds_mean":1.235,"sim_calls_per_s":34}"#
        );
    }
}
