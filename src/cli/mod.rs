//! The command line: every flag of the original program plus the new engine settings.
//!
//! The flags are declared on [`Params`], one per field; this module adds `-ut` and `-ai`, which
//! set fields in ways a field's own flag cannot, and the subcommands, and spells settings back
//! as flags ([`effective_flags`], what `-tm` prints first).
//!
//! The original read flags with a single dash (`-bw 5000`, `-bcm- -1`); clap reads long flags
//! with two. [`parse`] accepts both by rewriting a token that is `-` + a known long name into
//! `--` + that name before clap sees it, and joins a negative value to its flag. Unlike the
//! original, which skipped unknown tokens silently, an unknown flag is an error that names the
//! closest known one: a typo in a tuning run should not pass unnoticed.

mod spelling;

pub use spelling::display_flag;
use spelling::*;

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use serde_json::Value;

use crate::flag_values::whole;
#[cfg(test)]
use crate::params::NeighbourMode;
use crate::params::{heading, Compatibility, Params, PlayerKind};

/// What the command line asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Cli {
    pub params: Params,
    /// `None`: play the game protocol on stdin/stdout.
    pub command: Option<Command>,
    /// Long names of the flags the user wrote (without dashes), so that the program can say
    /// which of them the chosen player does not use.
    pub given: Vec<String>,
    /// The original's flags that do nothing here, as given.
    pub compatibility: Compatibility,
    /// The qualifier's numeric `-ai N` (aitype), accepted for compatibility.
    pub aitype: Option<u8>,
}

/// Subcommands; without one, ysai plays the game protocol.
#[derive(Clone, Debug, PartialEq, Subcommand)]
pub enum Command {
    /// Compare the simulator with the naive oracle on random turns.
    #[command(args_override_self = true)]
    Selfcheck {
        /// Number of random turns to check.
        #[arg(long, value_name = "N", default_value_t = 1_000_000, value_parser = whole::<u64>())]
        turns: u64,
        /// Seed of the random games.
        #[arg(long, value_name = "S", default_value_t = 0, value_parser = whole::<u64>())]
        seed: u64,
    },
    /// Fixed-work beam benchmark: one line per position, then `nodes N nps M signature H`.
    #[command(args_override_self = true)]
    Bench {
        #[command(subcommand)]
        kind: Option<BenchKind>,
        /// Node budget per position.
        #[arg(long, value_name = "N", default_value_t = crate::bench::BENCH_NODES,
              value_parser = whole::<u64>())]
        nodes: u64,
    },
    /// Play matches and tournaments between AIs under the real rules; results, Elo, SPRT,
    /// replays.
    Arena(Box<crate::arena::ArenaArgs>),
    /// Write a tournament submission: a zip with the binary and a run.sh that starts it with
    /// FLAGS (after `--`); checked by playing a short game through run.sh against greedy.
    Package {
        /// The zip file to write.
        #[arg(long, value_name = "FILE.zip")]
        out: std::path::PathBuf,
        /// Build this tier from the source tree first (default: package this binary).
        #[arg(long, value_enum)]
        tier: Option<crate::package::Tier>,
        /// The flags run.sh gives the AI.
        #[arg(last = true, value_name = "FLAGS")]
        flags: Vec<String>,
    },
}

/// The other benchmarks of `ysai bench`.
#[derive(Clone, Debug, PartialEq, Eq, Subcommand)]
pub enum BenchKind {
    /// Chain quality of the first beam from an empty field, on each pack file of a directory.
    /// Search flags (`-bw 5000 -bcm 12 ...`) may follow.
    #[command(args_override_self = true)]
    Chains {
        /// Directory of pack files in the game-start format (e.g. the official `pack_NNNN.pack`).
        #[arg(long, value_name = "DIR")]
        packs: std::path::PathBuf,
        /// Use only the first N files (in name order).
        #[arg(long, value_name = "N", value_parser = whole::<usize>())]
        limit: Option<usize>,
        /// One JSON object per sequence, then a summary object.
        #[arg(long)]
        json: bool,
        /// Report the first depth at which a chain of C or more is available (`depthC`).
        #[arg(long, value_name = "C", default_value_t = crate::bench::REPORTED_CHAIN,
              value_parser = whole::<u32>())]
        chain: u32,
        /// Search flags, as for playing.
        #[arg(
            value_name = "FLAGS",
            trailing_var_arg = true,
            allow_hyphen_values = true
        )]
        flags: Vec<String>,
    },
}

impl Command {
    /// Search flags written after the subcommand, which configure it like flags before it.
    fn trailing_flags(&self) -> Option<&[String]> {
        match self {
            Command::Bench {
                kind: Some(BenchKind::Chains { flags, .. }),
                ..
            } if !flags.is_empty() => Some(flags),
            _ => None,
        }
    }
}

/// Why [`parse`] did not return a [`Cli`]. Help and version are here too, because they also
/// end the program before it plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CliError {
    /// `--help`: print the text on stdout, exit 0.
    Help(String),
    /// `--version`: print the text on stdout, exit 0.
    Version(String),
    /// A flag no version knows; `suggestion` is the closest known flag, spelled the same way.
    UnknownFlag {
        flag: String,
        suggestion: Option<String>,
    },
    /// A value the flag cannot take.
    InvalidValue {
        flag: String,
        value: String,
        reason: String,
    },
    /// A flag that needs a value was last, or followed by another flag.
    MissingValue { flag: String },
    /// An argument that is not UTF-8 (every valid argument is ASCII).
    NotUtf8 { arg: String },
    /// Any other usage error, as clap describes it.
    Usage(String),
}

impl CliError {
    /// The process exit code: 0 for help and version, 2 for usage errors (clap's convention).
    pub fn exit_code(&self) -> i32 {
        if self.is_info() {
            0
        } else {
            2
        }
    }

    /// Whether the message belongs on stdout (help, version) rather than stderr.
    pub fn is_info(&self) -> bool {
        matches!(self, CliError::Help(_) | CliError::Version(_))
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Help(text) | CliError::Version(text) => f.write_str(text),
            CliError::UnknownFlag {
                flag,
                suggestion: Some(s),
            } => write!(f, "unknown flag `{flag}`; did you mean `{s}`?"),
            CliError::UnknownFlag {
                flag,
                suggestion: None,
            } => write!(f, "unknown flag `{flag}`; see `ysai --help`"),
            CliError::InvalidValue {
                flag,
                value,
                reason,
            } => write!(f, "invalid value `{value}` for `{flag}`: {reason}"),
            CliError::MissingValue { flag } => write!(f, "flag `{flag}` needs a value"),
            CliError::NotUtf8 { arg } => write!(f, "argument `{arg}` is not valid UTF-8"),
            CliError::Usage(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for CliError {}

/// Parses a full argument list (`args[0]` is the program name).
pub fn parse<I, S>(args: I) -> Result<Cli, CliError>
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    let args = utf8_args(args)?;
    let args = normalise(args, &known_flags())?;
    let matches = RawCli::command()
        .try_get_matches_from(&args)
        .map_err(from_clap)?;
    let given = given_flags(&matches);
    let raw = RawCli::from_arg_matches(&matches).map_err(from_clap)?;
    let mut cli = raw.into_cli();
    if cli.params.plays_original() {
        cli.params.original_style(&given);
    }
    cli.given = given;
    if let Some(trailing) = cli.command.as_ref().and_then(Command::trailing_flags) {
        let flags = known_flags();
        let mut args = args[..subcommand_index(&args, &flags)].to_vec();
        args.extend(trailing.iter().cloned());
        let inner = parse(args)?;
        if inner.command.is_some() {
            return Err(CliError::Usage(
                "only search flags may follow `bench chains` and its options".to_string(),
            ));
        }
        cli.params = inner.params;
        cli.given = inner.given;
        cli.compatibility = inner.compatibility;
        cli.aitype = inner.aitype;
    }
    Ok(cli)
}

/// Checks that `flags` (without the program name) are valid flags to play with, as
/// `ysai package` writes them into `run.sh`.
pub fn check_play_flags(flags: &[String]) -> Result<(), String> {
    let args = std::iter::once("ysai".to_string()).chain(flags.iter().cloned());
    match parse(args) {
        Ok(cli) if cli.command.is_none() => Ok(()),
        Ok(_) => Err("the packaged flags must play, not start a subcommand".into()),
        Err(e) => Err(format!("the packaged flags are not valid: {e}")),
    }
}

/// The flags that give `params`, each setting whose flag's long name `shown` accepts spelled
/// out (`-d 4 ... -tm ... -ai full`): what `-tm` prints first, so that a turn can be replayed
/// with the settings that played it.
pub fn effective_flags(params: &Params, shown: impl Fn(&str) -> bool) -> String {
    let settings = settings_by_id(params);
    let name = |arg: &clap::Arg, value: &Value| -> String {
        let text = value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string);
        // A setting whose type knows nothing of the command line is named by its variant.
        arg.get_possible_values()
            .into_iter()
            .map(|v| v.get_name().to_string())
            .find(|v| v.eq_ignore_ascii_case(&text))
            .unwrap_or(text)
    };
    let command = RawCli::command();
    let mut words = Vec::new();
    for arg in command.get_arguments() {
        let id = arg.get_id().as_str();
        let (Some(long), Some(value)) = (arg.get_long(), settings.get(id)) else {
            continue;
        };
        if !shown(long) {
            continue;
        }
        let flag = display_flag(long);
        match (arg.get_action(), value) {
            (clap::ArgAction::SetTrue, Value::Bool(on)) => words.extend(on.then_some(flag)),
            (clap::ArgAction::SetFalse, Value::Bool(on)) => words.extend((!on).then_some(flag)),
            (_, Value::Bool(on)) => words.extend([flag, u8::from(*on).to_string()]),
            (_, value) => words.extend([flag, name(arg, value)]),
        }
    }
    words.join(" ")
}

/// Every setting of `params` by its field's name, which is also its flag's id (`-ai` stands
/// for `player`).
fn settings_by_id(params: &Params) -> HashMap<String, Value> {
    fn leaves(value: Value, into: &mut HashMap<String, Value>) {
        let Value::Object(fields) = value else { return };
        for (name, value) in fields {
            if value.is_object() {
                leaves(value, into);
            } else {
                into.insert(name, value);
            }
        }
    }
    let mut settings = HashMap::new();
    let tree = serde_json::to_value(params).expect("settings are numbers, switches and names");
    leaves(tree, &mut settings);
    settings.remove("player");
    if let Some(player) = params.player.to_possible_value() {
        settings.insert("ai".to_string(), Value::from(player.get_name()));
    }
    settings
}

/// Where the subcommand starts in normalised `args`: the first token that is neither a flag
/// nor the value of the flag before it.
fn subcommand_index(args: &[String], flags: &[KnownFlag]) -> usize {
    let mut i = 1;
    while i < args.len() {
        let Some(rest) = args[i].strip_prefix("--") else {
            return i;
        };
        let inline = rest.contains('=');
        let name = rest.split('=').next().unwrap_or(rest);
        let takes_value = flags.iter().any(|f| f.name == name && f.takes_value);
        i += if takes_value && !inline { 2 } else { 1 };
    }
    args.len()
}

/// The long names of the flags written on the command line (not defaulted), in clap's order.
fn given_flags(matches: &clap::ArgMatches) -> Vec<String> {
    let command = RawCli::command();
    matches
        .ids()
        .filter(|id| matches.value_source(id.as_str()) == Some(ValueSource::CommandLine))
        .filter_map(|id| command.get_arguments().find(|a| a.get_id() == id))
        .filter_map(|arg| arg.get_long().map(str::to_string))
        .collect()
}

const AFTER_HELP: &str = "\
Every flag can also be written with a single dash, as the original program read them \
(`-bw 5000`, `-bcm- -1`, `-ut`). Without a subcommand, ysai plays the game protocol on \
stdin/stdout.";

#[derive(Parser, Debug)]
#[command(
    name = "ysai",
    version = concat!(env!("CARGO_PKG_VERSION"), "-", env!("YSAI_COMMIT")),
    about = "Tournament AI for CODE VS Reborn",
    after_help = AFTER_HELP,
    args_override_self = true
)]
struct RawCli {
    #[command(flatten)]
    params: Params,
    #[command(flatten)]
    compatibility: Compatibility,
    // `--help` lists these two after `--threads` (display order 1) and before `--neighbours` (4).
    /// Use all cores (same as --threads 0)
    #[arg(long = "ut", overrides_with = "threads", help_heading = heading::ENGINE,
          display_order = 2)]
    use_all_cores: bool,
    /// Player (full, beam, rush, counter, greedy, random), or the qualifier's aitype: 0 full search only, 1 no beams, 2 chain beams
    #[arg(long = "ai", value_name = "PLAYER|0..2", value_parser = parse_ai,
          default_value_t = AiChoice::Player(Params::DEFAULT.player),
          help_heading = heading::ENGINE, display_order = 3)]
    ai: AiChoice,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The one `-ai` flag names either a player (new) or the qualifier's numeric aitype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AiChoice {
    Player(PlayerKind),
    Type(u8),
}

impl fmt::Display for AiChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AiChoice::Player(kind) => match kind.to_possible_value() {
                Some(v) => f.write_str(v.get_name()),
                None => write!(f, "{kind:?}"),
            },
            AiChoice::Type(n) => write!(f, "{n}"),
        }
    }
}

fn parse_ai(s: &str) -> Result<AiChoice, String> {
    if let Ok(kind) = PlayerKind::from_str(s, true) {
        return Ok(AiChoice::Player(kind));
    }
    match s.parse::<u8>() {
        Ok(n) if n <= 2 => Ok(AiChoice::Type(n)),
        _ => Err(
            "expected full, beam, rush, counter, greedy, random, or an aitype 0, 1 or 2"
                .to_string(),
        ),
    }
}

impl RawCli {
    fn into_cli(self) -> Cli {
        let mut params = self.params;
        if self.use_all_cores {
            params.threads = 0;
        }
        params.apply_off_switches();
        let mut aitype = None;
        match self.ai {
            AiChoice::Player(kind) => params.player = kind,
            AiChoice::Type(n) => aitype = Some(n),
        }
        Cli {
            params,
            command: self.command,
            given: Vec::new(),
            compatibility: self.compatibility,
            aitype,
        }
    }
}

/// Every flag of both original versions, as the original spelled them: shown with one dash,
/// the flags this implementation added with two.
pub(crate) const ORIGINAL_FLAGS: &[&str] = &[
    "d", "ed", "ut", "tt", "bd", "bw", "bcw", "bcm", "bcm-", "bcm2", "sbcm", "bminx", "bmaxx",
    "ftl", "btl", "bihmax", "bihmin", "bihd", "nbihd", "nc", "nbw", "nbcw", "nbd", "nftl",
    "nbminc", "ebw", "ebcw", "ebd", "ebt", "nebw", "nebcw", "nebt", "dbw", "dbcw", "dbd", "dbt",
    "sbw", "sbcw", "sbd", "sbt", "hl", "hl0", "hl1", "hl2", "emdh", "endh", "fmcn", "fmcm", "smcn",
    "smcm", "ai2", "ai3", "ncfc", "nes", "fsm", "m", "tm", "sc", "cb", "g", "t", "bx", "br", "bx2",
    "br2", "it", "sma", "es", "ai", "nfb", "brtl", "nubhm", "bhm", "nbhm",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::COMPATIBILITY_FLAGS;
    use crate::params::{
        AnswerBeamFlags, EvalFlags, HelperBeamFlags, OpeningBeamFlags, OriginalTurnFlags,
        PlanTargetFlags, SearchFlags, Style, TurnBeamFlags, TurnBeamLimitFlags, TurnFlags,
    };

    /// Flags that take no value.
    const SWITCHES: &[&str] = &[
        "ut", "sbcm", "nc", "ai2", "ai3", "ncfc", "nes", "fsm", "m", "tm", "sc", "cb", "it", "sma",
        "es", "nfb", "nubhm",
    ];

    const FINAL_RUN_SH: &str = "-bw 5000 -bcw 1500 -bd 16 -bcm 12 -bcm2 16 -bcm- -1 -bminx 2 \
        -bmaxx 6 -nc -nbw 700 -nbcw 350 -nbihd 10 -nftl 1350 -bihmax 70 -bihmin 70 -bihd 35 \
        -emdh -5 -ai2 -ai3 -fmcn 10 -fmcm -10 -smcm -5 -nbminc 9 -nebw 500 -nebcw 200 -dbw 200 \
        -dbcw 75 -dbt 350 -ebw 500 -ebcw 200 -ebt 500";

    const QUAL_RECOMMENDED: &str = "-bw 5000 -bcw 1500 -bd 16 -bcm 12 -bcm- 1 -bcm2 -1 -bminx 2 \
        -bmaxx 6 -bhm 0 -nbhm 0 -nc -nbw 700 -nbcw 350 -nbihd 10 -nftl 1350 -bihmax 70 \
        -bihmin 70 -bihd 35 -hl1 -20 -hl2 -10 -emdh -5 -ai2 -ai3 -fmcn 10 -fmcm -10 -smcm -5 \
        -nbminc 9 -nfb -ut";

    fn run(line: &str) -> Result<Cli, CliError> {
        parse(std::iter::once("ysai").chain(line.split_whitespace()))
    }

    fn params(line: &str) -> Params {
        match run(line) {
            Ok(cli) => cli.params,
            Err(e) => panic!("`{line}` failed: {e}"),
        }
    }

    fn error(line: &str) -> CliError {
        match run(line) {
            Ok(cli) => panic!("`{line}` parsed: {cli:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn clap_definition_is_consistent() {
        RawCli::command().debug_assert();
    }

    #[test]
    fn no_arguments_give_the_defaults() {
        let cli = run("").unwrap();
        assert_eq!(cli.params, Params::default());
        assert_eq!(cli.command, None);
    }

    /// What both versions' recommended command lines set alike.
    fn run_sh_common() -> Params {
        Params {
            opening: OpeningBeamFlags {
                beam_width: 5000,
                beam_chain_width: 1500,
                beam_depth: 16,
                beam_min_x: 2,
                beam_max_x: 6,
                ..Params::DEFAULT.opening
            },
            original: OriginalTurnFlags {
                next_chain: true,
                next_beam_ignore_eval_diff: 10,
                beam_ignore_eval_max: 70,
                beam_ignore_eval_min: 70,
                beam_ignore_eval_diff: 35,
                next_beam_min_chain: 9,
                ..Params::DEFAULT.original
            },
            turn_beams: TurnBeamFlags {
                next_beam_width: 700,
                next_beam_chain_width: 350,
                ..Params::DEFAULT.turn_beams
            },
            turn_beam_limits: TurnBeamLimitFlags {
                next_beam_time_ms: 1350,
                ..Params::DEFAULT.turn_beam_limits
            },
            eval: EvalFlags {
                enemy_may_drop_eval: -5.0,
                first_min_chain_num: 10,
                first_min_chain_minus: -10.0,
                second_min_chain_minus: -5.0,
                ..Params::DEFAULT.eval
            },
            search: SearchFlags {
                ai2_minimax: true,
                ai3_min_over_drops: true,
                ..Params::DEFAULT.search
            },
            ..Params::default()
        }
    }

    #[test]
    fn final_run_sh_line() {
        let expected = Params {
            target: PlanTargetFlags {
                beam_chain_max: 12,
                beam_chain_max2: 16,
                beam_chain_max_minus: -1,
                ..Params::DEFAULT.target
            },
            helpers: HelperBeamFlags {
                next_enemy_beam_width: 500,
                next_enemy_beam_chain_width: 200,
                dropped_beam_width: 200,
                dropped_beam_chain_width: 75,
                dropped_beam_time_ms: 350,
                enemy_beam_time_ms: 500,
                ..Params::DEFAULT.helpers
            },
            answer_beam: AnswerBeamFlags {
                enemy_beam_width: 500,
                enemy_beam_chain_width: 200,
            },
            ..run_sh_common()
        };
        assert_eq!(params(FINAL_RUN_SH), expected);
    }

    #[test]
    fn qualifier_line() {
        let expected = Params {
            target: PlanTargetFlags {
                beam_chain_max: 12,
                beam_chain_max_minus: 1,
                beam_chain_max2: -1,
                ..Params::DEFAULT.target
            },
            threads: 0,
            ..run_sh_common()
        };
        assert_eq!(params(QUAL_RECOMMENDED), expected);
        let compatibility = run(QUAL_RECOMMENDED).unwrap().compatibility;
        let qualifier_only = Compatibility {
            first_beam_eval_mul: Some(0.0),
            next_beam_eval_mul: Some(0.0),
            eval_limit_1: Some(-20),
            eval_limit_2: Some(-10),
            no_new_first_beam: true,
            ..Compatibility::default()
        };
        assert_eq!(compatibility, qualifier_only);
    }

    #[test]
    fn double_dash_equals_single_dash() {
        assert_eq!(params("--bw 5000"), params("-bw 5000"));
        assert_eq!(params("--bw 1234").opening.beam_width, 1234);
        assert_eq!(params("--bcm- -1"), params("-bcm- -1"));
        assert_eq!(params("-bcm- -1").target.beam_chain_max_minus, -1);
        assert_eq!(params("-bw=77").opening.beam_width, 77);
        assert_eq!(params("--bcm-=-3").target.beam_chain_max_minus, -3);
        assert_eq!(params("--nc"), params("-nc"));
        assert!(params("--nc").original.next_chain);
    }

    #[test]
    fn negative_values() {
        let line = "-emdh -5.5 -fmcm -10 -hl -300 -bx -1 -br2 -1 -g -1 -bcm2 -3";
        let p = params(line);
        assert_eq!(p.eval.enemy_may_drop_eval, -5.5);
        assert_eq!(p.eval.first_min_chain_minus, -10.0);
        assert_eq!(p.eval.eval_limit, -300);
        let compatibility = run(line).unwrap().compatibility;
        assert_eq!(compatibility.forced_x, Some(-1));
        assert_eq!(compatibility.forced_r2, Some(-1));
        assert_eq!(p.input.check_game, -1);
        assert_eq!(p.target.beam_chain_max2, -3);
        let p = params("-t -1 -bcm- -2 -nc");
        assert_eq!(
            (
                p.input.check_turn,
                p.target.beam_chain_max_minus,
                p.original.next_chain
            ),
            (-1, -2, true)
        );
    }

    #[test]
    fn single_letter_flags() {
        let cli = run("-d 3 -g 2 -t 5 -bx 4 -br 3 -sc").unwrap();
        assert_eq!(cli.params.search.search_depth, 3);
        assert_eq!(cli.params.input.check_game, 2);
        assert_eq!(cli.params.input.check_turn, 5);
        let compatibility = cli.compatibility;
        assert_eq!(
            (compatibility.forced_x, compatibility.forced_r),
            (Some(4), Some(3))
        );
        assert!(compatibility.show_chain);
    }

    #[test]
    fn debug_msg_implies_turn_debug_msg() {
        let p = params("-m");
        assert!(p.detail.debug_msg && p.log.turn_debug_msg);
        let p = params("-tm");
        assert!(!p.detail.debug_msg && p.log.turn_debug_msg);
    }

    #[test]
    fn tt_zero_turns_the_tables_off() {
        assert!(!params("-tt 0").search.use_tt);
        assert!(params("-tt 1").search.use_tt);
        assert!(params("-tt 7").search.use_tt);
    }

    #[test]
    fn search_time_and_ablation_flags() {
        assert_eq!(params("--guard-ms 500").guard.guard_ms, 500);
        assert_eq!(Params::default().guard.guard_ms, 1_000);
        let ablated = params("--no-counter-plan --no-hold-fire --no-outbuild --no-keep-ready");
        assert!(
            ablated.rules.no_counter_plan
                && ablated.rules.no_hold_fire
                && ablated.rules.no_outbuild
                && ablated.rules.no_keep_ready
        );
        assert!(!ablated.ysai_rules().keep_ready);
        let d = Params::default();
        assert!(!d.rules.no_counter_plan && !d.rules.no_hold_fire && !d.rules.no_outbuild);
        assert!(d.ysai_rules().keep_ready && !d.rush_rules().keep_ready);
    }

    #[test]
    fn the_full_search_runs_in_the_original_turn_or_with_a_guard_time() {
        assert!(
            params("").full_search_runs(),
            "the default weighs its moves"
        );
        assert!(!params("--guard-ms 0").full_search_runs());
        assert!(params("--guard-ms 500").full_search_runs());
        assert!(params("--style original --guard-ms 0").full_search_runs());
    }

    #[test]
    fn retired_experiment_switches_are_errors() {
        for retired in [
            "--planner rush",
            "--first-plan anytime",
            "--replan anytime",
            "--counter-search anytime",
            "--fire 13",
            "--widen",
            "--refine",
            "--refine-plan",
            "--spend",
            "--no-late-game",
        ] {
            assert!(run(retired).is_err(), "{retired} is accepted");
        }
    }

    #[test]
    fn the_full_ai_plans_with_beams_and_the_sparring_partner_keeps_its_rules() {
        let full = params("");
        assert!(!full.plays_original());
        assert_eq!(
            full.opening.beam_eval,
            crate::params::BeamEvalKind::Potential
        );
        assert!(
            !params("--ai rush").rush.rush_late_game,
            "the champion's rules"
        );
        assert!(params("--ai rush --late-game").rush.rush_late_game);
        assert!(params("--late-game --ai rush").rush.rush_late_game);
    }

    #[test]
    fn the_original_style_keeps_only_given_flags() {
        let p = params("--style original -bcm 13 --beam-eval potential");
        assert!(p.plays_original());
        assert_eq!(p.target.beam_chain_max, 13);
        assert_eq!(p.opening.beam_eval, crate::params::BeamEvalKind::Potential);
        let mut original = Params::default();
        original.original_style(&[]);
        let p = params("--style original");
        assert_eq!(
            p,
            Params {
                turn: TurnFlags {
                    style: Style::Original
                },
                ..original
            }
        );
        assert_eq!(
            (p.target.beam_chain_max, p.target.beam_chain_max2),
            (12, 16)
        );
        assert_eq!(p.opening.beam_eval, crate::params::BeamEvalKind::Ysai);
    }

    #[test]
    fn inverted_switches() {
        let cli = run("-ncfc -nes -nfb -nubhm").unwrap();
        assert!(!cli.params.original.check_first_chain);
        assert!(!cli.params.eval.calc_enemy_skill);
        assert!(cli.compatibility.no_new_first_beam);
        assert!(cli.compatibility.no_beam_eval_mul);
    }

    #[test]
    fn run_sh_switches_are_on_and_can_be_turned_off() {
        let p = params("");
        assert!(p.search.ai2_minimax && p.search.ai3_min_over_drops && p.original.next_chain);
        let p = params("--no-ai2 --no-ai3 --no-nc");
        assert!(!p.search.ai2_minimax && !p.search.ai3_min_over_drops && !p.original.next_chain);
        assert!(params("-ai3").search.ai3_min_over_drops);
    }

    #[test]
    fn threads() {
        assert_eq!(Params::default().threads, 0);
        assert_eq!(params("-ut").threads, 0);
        assert_eq!(params("--threads 3").threads, 3);
        assert_eq!(params("-ut --threads 3").threads, 3);
        assert_eq!(params("--threads 3 -ut").threads, 0);
    }

    #[test]
    fn ai_takes_a_name_or_an_aitype() {
        let cli = run("--ai random").unwrap();
        assert_eq!((cli.params.player, cli.aitype), (PlayerKind::Random, None));
        let cli = run("-ai 1").unwrap();
        assert_eq!((cli.params.player, cli.aitype), (PlayerKind::Full, Some(1)));
        assert_eq!(params("--ai full").player, PlayerKind::Full);
        assert_eq!(params("-ai greedy").player, PlayerKind::Greedy);
        assert_eq!(run("-ai 0").unwrap().aitype, Some(0));
        assert!(matches!(error("-ai 3"), CliError::InvalidValue { .. }));
    }

    #[test]
    fn neighbours_and_seed() {
        let p = params("--neighbours table --seed 42");
        assert_eq!(p.neighbours, NeighbourMode::Table);
        assert_eq!(p.seed, 42);
        assert_eq!(params("").neighbours, NeighbourMode::Shift);
    }

    #[test]
    fn later_flags_override_earlier_ones() {
        assert_eq!(params("-bw 10 -bw 20").opening.beam_width, 20);
        assert!(params("-nc -nc").original.next_chain);
    }

    #[test]
    fn unknown_flag_names_the_nearest() {
        assert_eq!(
            error("-bww 5"),
            CliError::UnknownFlag {
                flag: "-bww".into(),
                suggestion: Some("-bw".into())
            }
        );
        assert_eq!(
            error("--nbwx"),
            CliError::UnknownFlag {
                flag: "--nbwx".into(),
                suggestion: Some("--nbw".into())
            }
        );
        // `-ed` is as close as `-emdh`, but shares less of the typed prefix.
        assert_eq!(
            error("-emd -5").to_string(),
            "unknown flag `-emd`; did you mean `-emdh`?"
        );
        let e = error("-bw 5 -bihmx 3");
        assert_eq!(
            e.to_string(),
            "unknown flag `-bihmx`; did you mean `-bihmax`?"
        );
        assert_eq!(e.exit_code(), 2);
    }

    #[test]
    fn far_off_flag_gets_no_suggestion() {
        assert_eq!(
            error("-zzzzzzzzzz"),
            CliError::UnknownFlag {
                flag: "-zzzzzzzzzz".into(),
                suggestion: None
            }
        );
    }

    #[test]
    fn bad_value_names_flag_and_value() {
        let e = error("-bw abc");
        match &e {
            CliError::InvalidValue { flag, value, .. } => {
                assert_eq!((flag.as_str(), value.as_str()), ("-bw", "abc"));
            }
            other => panic!("unexpected {other:?}"),
        }
        let msg = e.to_string();
        assert!(msg.contains("-bw") && msg.contains("abc"), "{msg}");
        assert!(matches!(error("-bw -5"), CliError::InvalidValue { .. }));
        match error("-bcm- x") {
            CliError::InvalidValue { flag, .. } => assert_eq!(flag, "-bcm-"),
            other => panic!("unexpected {other:?}"),
        }
        assert!(matches!(error("-emdh x"), CliError::InvalidValue { .. }));
        match error("--neighbours grid") {
            CliError::InvalidValue { flag, value, .. } => {
                assert_eq!((flag.as_str(), value.as_str()), ("--neighbours", "grid"));
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    /// Every long flag of `command` and its subcommands, after the subcommands that lead to it.
    fn all_flags(command: &clap::Command, path: &[String]) -> Vec<(Vec<String>, clap::Arg)> {
        let mut flags: Vec<_> = command
            .get_arguments()
            .filter(|arg| arg.get_long().is_some())
            .map(|arg| (path.to_vec(), arg.clone()))
            .collect();
        for sub in command.get_subcommands() {
            let path = [path, &[sub.get_name().to_string()]].concat();
            flags.extend(all_flags(sub, &path));
        }
        flags
    }

    /// Whether `arg` takes a number: `Some(true)` for a whole number of 0 or more.
    fn takes_number(arg: &clap::Arg) -> Option<bool> {
        use std::any::TypeId;
        let value = arg.get_value_parser().type_id();
        let is = |types: &[TypeId]| types.iter().any(|t| value == *t);
        let unsigned = [
            TypeId::of::<u8>(),
            TypeId::of::<u32>(),
            TypeId::of::<u64>(),
            TypeId::of::<usize>(),
        ];
        if is(&unsigned) {
            Some(true)
        } else if is(&[TypeId::of::<i32>(), TypeId::of::<f64>()]) {
            Some(false)
        } else {
            None
        }
    }

    #[test]
    fn every_numeric_flag_says_what_it_takes() {
        let mut checked = 0;
        for (path, arg) in all_flags(&RawCli::command(), &[]) {
            let Some(unsigned) = takes_number(&arg).filter(|_| arg.get_action().takes_values())
            else {
                continue;
            };
            let flag = format!("--{}", arg.get_long().unwrap());
            let bad_values: &[&str] = if unsigned { &["x", "-5"] } else { &["x"] };
            for bad in bad_values {
                let line = [&path[..], &[flag.clone(), bad.to_string()]].concat();
                match parse(std::iter::once("ysai".to_string()).chain(line)) {
                    Err(CliError::InvalidValue { reason, .. }) => assert!(
                        reason.starts_with("expected a "),
                        "{path:?} {flag} {bad}: {reason}"
                    ),
                    other => panic!("{path:?} {flag} {bad}: {other:?}"),
                }
            }
            checked += 1;
        }
        assert!(checked > 60, "{checked} numeric flags");
    }

    #[test]
    fn a_turn_limit_needs_time_to_think() {
        use crate::search::timeman::MIN_TURN_MS;
        let e = error(&format!("--turn-ms {}", MIN_TURN_MS - 1));
        assert!(
            e.to_string().contains(&format!(
                "expected a whole number, at least {MIN_TURN_MS} ms"
            )),
            "{e}"
        );
        let shortest = params(&format!("--turn-ms {MIN_TURN_MS}"));
        assert_eq!(shortest.clock.turn_limit_ms, MIN_TURN_MS);
    }

    #[test]
    fn depths_are_those_the_searches_have_room_for() {
        let p = params("-d 6 -ed 0");
        assert_eq!((p.search.search_depth, p.search.enemy_search_depth), (6, 0));
        for bad in ["-d 0", "-d 7", "-ed 7"] {
            let e = error(bad).to_string();
            assert!(e.contains("expected a whole number from"), "{bad}: {e}");
        }
    }

    #[test]
    fn subcommand_flags_are_shown_with_two_dashes() {
        for (path, arg) in all_flags(&RawCli::command(), &[]) {
            let flag = arg.get_long().unwrap();
            if !path.is_empty() {
                assert_eq!(display_flag(flag), format!("--{flag}"), "{path:?}");
            }
        }
    }

    #[test]
    fn the_effective_flags_give_the_same_settings() {
        for line in [
            "",
            FINAL_RUN_SH,
            QUAL_RECOMMENDED,
            "--style original -bcm 13 --no-ai2 --no-nc -nes -ncfc -tt 0 -m -it -sbcm",
            "--ai rush --late-game --no-hold-fire --neighbours table --height-cutoff final",
            "-ai 1 -d 6 -ed 0 --threads 3 --turn-ms 334 -t 9 -g 2 --seed 7 -emdh 0.25",
        ] {
            let settings = params(line);
            let flags = effective_flags(&settings, |_| true);
            assert_eq!(params(&flags), settings, "`{line}` gave `{flags}`");
        }
        let shown = effective_flags(&Params::default(), |flag| flag != "bw");
        assert!(
            shown.contains(" -bcw 1500 ") && !shown.contains(" -bw "),
            "{shown}"
        );
        assert!(shown.ends_with(" -ai full"), "{shown}");
    }

    #[test]
    fn missing_value() {
        assert_eq!(
            error("-nc -bw"),
            CliError::MissingValue { flag: "-bw".into() }
        );
        assert_eq!(
            error("-bw -nc"),
            CliError::MissingValue { flag: "-bw".into() }
        );
    }

    #[test]
    fn stray_words_are_errors() {
        let e = error("-bw 5 junk");
        assert!(matches!(e, CliError::Usage(_)), "{e:?}");
        assert_eq!(e.exit_code(), 2);
    }

    #[test]
    fn misplaced_flags_are_explained() {
        assert_eq!(
            error("--turns 5 selfcheck").to_string(),
            "`--turns` belongs to `selfcheck`: write it after the subcommand"
        );
        assert_eq!(
            error("selfcheck -bw 5").to_string(),
            "`-bw` must come before the subcommand"
        );
    }

    #[test]
    fn selfcheck_subcommand() {
        let cli = run("-bw 7 selfcheck --turns 5").unwrap();
        assert_eq!(cli.command, Some(Command::Selfcheck { turns: 5, seed: 0 }));
        assert_eq!(cli.params.opening.beam_width, 7);
        let cli = run("selfcheck -seed 9").unwrap();
        assert_eq!(
            cli.command,
            Some(Command::Selfcheck {
                turns: 1_000_000,
                seed: 9
            })
        );
    }

    fn arena(args: &[&str]) -> crate::arena::ArenaArgs {
        let line = ["ysai", "arena"].iter().chain(args);
        match parse(line.copied()) {
            Ok(Cli {
                command: Some(Command::Arena(args)),
                ..
            }) => *args,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn arena_subcommand() {
        let args = arena(&[
            "--p0",
            "self -bw 2000 -bcm- -1",
            "--p1",
            "greedy",
            "-j",
            "2",
            "--tc",
            "none",
            "--seed",
            "9",
        ]);
        assert_eq!(args.p0.as_deref(), Some("self -bw 2000 -bcm- -1"));
        assert_eq!(args.p1.as_deref(), Some("greedy"));
        assert_eq!((args.concurrency, args.seed, args.games), (2, 9, 100));
        assert_eq!(args.tc.game_ms, None);
        assert_eq!(arena(&["--concurrency", "3"]).concurrency, 3);
        assert_eq!(arena(&["-j=4"]).concurrency, 4);
        let stats = arena(&["stats", "a.jsonl", "b.jsonl"]);
        assert!(
            matches!(stats.action, Some(crate::arena::ArenaAction::Stats { files, sprt: None }) if files.len() == 2)
        );
        assert!(matches!(
            run("arena --tc 1+x"),
            Err(CliError::InvalidValue { ref flag, .. }) if flag == "--tc"
        ));
        assert_eq!(
            error("--games 5 arena").to_string(),
            "`--games` belongs to `arena`: write it after the subcommand"
        );
    }

    #[test]
    fn arena_engines_take_a_name_and_a_command_and_common_flags() {
        let args = arena(&[
            "--engine",
            "name=wide",
            "cmd=self -bw 7000",
            "--engine",
            "cmd=greedy",
            "name=g",
            "--each",
            "--threads 1 -bcm- -1",
            "--tournament",
            "gauntlet",
        ]);
        assert_eq!(
            args.engines,
            ["name=wide", "cmd=self -bw 7000", "cmd=greedy", "name=g"]
        );
        assert_eq!(args.each.as_deref(), Some("--threads 1 -bcm- -1"));
        assert_eq!(
            args.tournament,
            Some(crate::arena::tournament::TournamentKind::Gauntlet)
        );
        assert_eq!(arena(&["--each", "-tm"]).each.as_deref(), Some("-tm"));
        assert!(matches!(
            run("arena --engine name=a"),
            Err(CliError::Usage(ref m)) if m.contains("2 values required")
        ));
        assert!(run("arena --tournament knockout").is_err());
    }

    #[test]
    fn help_and_version_go_to_stdout() {
        for line in ["--help", "-h"] {
            let e = error(line);
            assert!(matches!(e, CliError::Help(_)), "{line}: {e:?}");
            assert_eq!(e.exit_code(), 0);
        }
        let e = error("-V");
        assert!(matches!(e, CliError::Version(ref v) if v.contains(env!("CARGO_PKG_VERSION"))));
        assert_eq!(e.exit_code(), 0);
    }

    #[test]
    fn help_lists_every_flag_with_defaults() {
        let CliError::Help(text) = error("--help") else {
            panic!("no help");
        };
        for name in ORIGINAL_FLAGS
            .iter()
            .chain(["threads", "neighbours", "seed"].iter())
        {
            let shown = format!("--{name} ");
            let line = text
                .lines()
                .find(|l| l.trim_start().starts_with(&shown) || l.trim() == shown.trim())
                .unwrap_or_else(|| panic!("--{name} missing from help:\n{text}"));
            // A flag that does nothing has no default worth showing.
            if !SWITCHES.contains(name) && !COMPATIBILITY_FLAGS.contains(name) {
                assert!(
                    line.contains("[default: "),
                    "no default for --{name}: {line}"
                );
            }
        }
        assert!(text.contains("[default: 5000]"));
        assert!(text.contains("selfcheck"));
    }

    #[test]
    fn every_original_flag_is_accepted() {
        for name in ORIGINAL_FLAGS {
            let line = if SWITCHES.contains(name) {
                format!("-{name}")
            } else {
                format!("-{name} 1")
            };
            assert!(run(&line).is_ok(), "{line}: {:?}", run(&line));
        }
    }

    /// Switches the original's run.sh gives, on by default here: given alone they change
    /// nothing, and `--no-nc`, `--no-ai2`, `--no-ai3`, `--threads N` are what turn them off.
    const ON_BY_DEFAULT: &[&str] = &["nc", "ai2", "ai3", "ut"];

    /// A value for flag `name` other than its default.
    fn other_value(name: &str) -> String {
        match name {
            "ai" => return "1".to_string(),
            // Any value but 0 means on, the default.
            "tt" => return "0".to_string(),
            // The searches go 6 plies deep at most.
            "d" | "ed" => return "3".to_string(),
            _ => {}
        }
        let command = RawCli::command();
        let arg = command
            .get_arguments()
            .find(|a| a.get_long() == Some(name))
            .unwrap_or_else(|| panic!("no flag {name}"));
        let default = arg.get_default_values().first().and_then(|v| v.to_str());
        if default == Some("7") { "8" } else { "7" }.to_string()
    }

    #[test]
    fn every_original_flag_changes_the_settings_or_is_compatibility_only() {
        for name in ORIGINAL_FLAGS {
            let line = if SWITCHES.contains(name) {
                format!("-{name}")
            } else {
                format!("-{name} {}", other_value(name))
            };
            let cli = run(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            let changed = cli.params != Params::default();
            let compatibility =
                COMPATIBILITY_FLAGS.contains(name) || (*name == "ai" && cli.aitype.is_some());
            if ON_BY_DEFAULT.contains(name) {
                assert!(!changed && !compatibility, "{line}");
                continue;
            }
            assert!(
                changed != compatibility,
                "{line}: changes the settings {changed}, compatibility-only {compatibility}"
            );
        }
        for off in ["--no-nc", "--no-ai2", "--no-ai3", "--threads 3"] {
            assert_ne!(params(off), Params::default(), "{off}");
        }
        assert_eq!(params("--threads 3 -ut"), Params::default());
    }

    #[test]
    fn given_flags_are_the_ones_written() {
        let mut given = parse(["ysai", "-bw", "10", "--bcm-", "-1", "-ut", "-m"])
            .unwrap()
            .given;
        given.sort();
        assert_eq!(given, ["bcm-", "bw", "m", "ut"]);
        assert!(parse(["ysai"]).unwrap().given.is_empty());
    }
}
