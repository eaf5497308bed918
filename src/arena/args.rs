//! The `ysai arena` command line.

use std::path::PathBuf;

use clap::{ArgAction, Args, Subcommand, ValueEnum};
use serde::{Deserialize, Serialize};

use super::referee::TimeControl;
use super::stats::Sprt;
use crate::flag_values::{whole, within};

/// `ysai arena`: play a match, or work with its results and replays.
#[derive(Clone, Debug, PartialEq, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ArenaArgs {
    #[command(subcommand)]
    pub action: Option<ArenaAction>,
    /// Player 0: a shell command, or `self [FLAGS]`, `random`, `greedy` (this binary's AI)
    #[arg(long, value_name = "CMD")]
    pub p0: Option<String>,
    /// Player 1, as --p0
    #[arg(long, value_name = "CMD")]
    pub p1: Option<String>,
    /// A named engine: name=NAME cmd=CMD (CMD as for --p0, quoted), once per engine. Two
    /// engines play a match, three or more a tournament
    #[arg(long = "engine", value_names = ["name=NAME", "cmd=CMD"], num_args = 2,
          action = ArgAction::Append, conflicts_with_all = ["p0", "p1"])]
    pub engines: Vec<String>,
    /// Flags appended to every engine's command (e.g. --each '--threads 1')
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub each: Option<String>,
    /// How three or more engines meet: gauntlet (the first against each other) or
    /// round-robin (every pair) [default: round-robin]
    #[arg(long, value_name = "KIND")]
    pub tournament: Option<TournamentKind>,
    /// Check CMD's protocol compliance in a short game against greedy, instead of a match
    #[arg(long, value_name = "CMD", conflicts_with_all = ["p0", "p1", "engines"])]
    pub check: Option<String>,
    /// Games in the match, or per pairing of a tournament (game k uses packs from seed S+k)
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = whole::<u64>())]
    pub games: u64,
    /// Games played at the same time
    #[arg(short = 'j', long, value_name = "K", default_value_t = 1,
          value_parser = within::<u64>(1, 256))]
    pub concurrency: u64,
    /// Time control in ms: GAME+TURN, GAME (no per-turn limit), or none
    #[arg(long, value_name = "TC", default_value = "180000+20000")]
    pub tc: TimeControl,
    /// Send both players their input at once (default: one after the other)
    #[arg(long)]
    pub simultaneous: bool,
    /// Seed of the first game's packs
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = whole::<u64>())]
    pub seed: u64,
    /// Generate packs as the published rule text describes (default: as the official
    /// generator did)
    #[arg(long, conflicts_with = "packs")]
    pub rule_text_packs: bool,
    /// Read the packs from the files of DIR (game k uses the k-th file in name order)
    #[arg(long, value_name = "DIR")]
    pub packs: Option<PathBuf>,
    /// Append one JSON line per game to FILE; a rerun with the same FILE resumes
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Write a replay (JSON) of every game to DIR
    #[arg(long, value_name = "DIR")]
    pub replays: Option<PathBuf>,
    /// Save every player's stdin (and its stderr) of every game to DIR
    #[arg(long, value_name = "DIR")]
    pub transcripts: Option<PathBuf>,
    /// Stop when an SPRT decides: elo0=E0,elo1=E1[,alpha=A,beta=B,model=normalized|logistic]
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<Sprt>,
    /// Play only games K-1, K-1+N, K-1+2N, ... (0-based; K = 1..N), to spread a match over machines
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
}

/// `ysai arena` subcommands.
#[derive(Clone, Debug, PartialEq, Subcommand)]
pub enum ArenaAction {
    /// Statistics of one or more results files (shards of a match merge into one verdict; a
    /// tournament's give its standings: Elo per engine and the cross table)
    Stats {
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// Run this SPRT on the merged results: elo0=E0,elo1=E1[,alpha=A,beta=B,model=M]
        /// (default: the one the match ran, if any)
        #[arg(long, value_name = "SPEC")]
        sprt: Option<Sprt>,
    },
    /// Write a match's results as one self-contained HTML page: what was run, the verdict,
    /// Elo and LLR game by game, how the games ended, game lengths, first big chains,
    /// thinking time, and a replay page per game (a tournament's: its standings instead of
    /// the verdict and the match's charts)
    Report {
        #[arg(value_name = "RESULTS", required = true)]
        files: Vec<PathBuf>,
        /// The page to write; each game's replay page goes to OUT's name with `-replays`
        /// (report.html: report-replays/game-000042.html)
        #[arg(long, value_name = "OUT")]
        html: PathBuf,
        /// Where the replays are (default: `replays/` beside each results file); a game
        /// without one has its replay rebuilt from its results line
        #[arg(long, value_name = "DIR")]
        replays: Option<PathBuf>,
        /// The SPRT whose LLR the page follows: elo0=E0,elo1=E1[,alpha=A,beta=B,model=M]
        /// (default: the one the match ran, else elo0=0,elo1=20)
        #[arg(long, value_name = "SPEC")]
        sprt: Option<Sprt>,
    },
    /// Show a replay turn by turn, and check that it re-simulates exactly; with --game, the
    /// replay is rebuilt from a results file
    Replay(ReplayArgs),
}

/// `ysai arena replay`.
#[derive(Clone, Debug, PartialEq, Args)]
pub struct ReplayArgs {
    /// A replay (`--replays`), or with --game a results file (`--results`)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Rebuild game K of the results file FILE from its moves, on its packs
    #[arg(long, value_name = "K", value_parser = whole::<u64>())]
    pub game: Option<u64>,
    /// With --game, of a tournament: the pairing whose game K it is (`a-vs-b`, as its
    /// replays' directory is named)
    #[arg(long, value_name = "A-vs-B", requires = "game")]
    pub pairing: Option<String>,
    /// With --game: read the pack files from DIR instead of the directory the match used
    #[arg(long, value_name = "DIR", requires = "game")]
    pub packs: Option<PathBuf>,
    /// Write the replay to OUT as JSON (as `--replays` would have)
    #[arg(long, value_name = "OUT", conflicts_with = "input_of")]
    pub json: Option<PathBuf>,
    /// Write the game to OUT as one self-contained HTML page that animates every chain,
    /// instead of printing it
    #[arg(long, value_name = "OUT", conflicts_with = "input_of")]
    pub html: Option<PathBuf>,
    /// Print the stdin player P (0 or 1) was sent, to replay its decisions with
    /// `ysai -t T < FILE`; the clock lines are rebuilt from the recorded thinking times
    #[arg(long, value_name = "P", value_parser = within::<u8>(0, 1))]
    pub input_of: Option<u8>,
    /// The time control to rebuild those clock lines at (default: the replay's own)
    #[arg(long, value_name = "TC", requires = "input_of")]
    pub tc: Option<TimeControl>,
}

/// Part K (1-based) of N of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Whether game `game` (0-based) belongs to this shard.
    pub fn has(&self, game: u64) -> bool {
        game % self.count == self.index - 1
    }
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("expected K/N with 1 <= K <= N, e.g. 2/4; got `{text}`");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let index = k.trim().parse::<u64>().map_err(|_| bad())?;
    let count = n.trim().parse::<u64>().map_err(|_| bad())?;
    if index == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// How the engines of a tournament meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TournamentKind {
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

impl TournamentKind {
    /// The kind as `--tournament` takes it.
    pub fn name(self) -> &'static str {
        match self {
            TournamentKind::Gauntlet => "gauntlet",
            TournamentKind::RoundRobin => "round-robin",
        }
    }

    /// The kind as a heading says it.
    pub fn title(self) -> &'static str {
        match self {
            TournamentKind::Gauntlet => "Gauntlet",
            TournamentKind::RoundRobin => "Round robin",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_games() {
        let shards: Vec<Shard> = ["1/3", "2/3", "3/3"]
            .iter()
            .map(|s| parse_shard(s).unwrap())
            .collect();
        for game in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.has(game)).count(), 1);
        }
        assert!(shards[0].has(0) && shards[1].has(1) && shards[2].has(5));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
