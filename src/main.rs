//! `ysai`: plays CODE VS Reborn on stdin/stdout, or runs one of its tools.

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use ysai::cli::{self, BenchKind, Command};
use ysai::params::{NeighbourMode, Params, PlayerKind, COMPATIBILITY_FLAGS};
use ysai::with_neighbours;

fn main() -> ExitCode {
    let cli = match cli::parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) if e.is_info() => {
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("ysai: {e}");
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    note_compatibility_flags(&cli.given, cli.aitype);
    if let Err(e) = configure_threads(cli.params.threads) {
        eprintln!(
            "ysai: cannot start {} worker threads: {e}",
            cli.params.threads
        );
        return ExitCode::FAILURE;
    }
    match cli.command {
        None => {
            note_flags_without_effect(&cli.given, &cli.params);
            play(&cli.params)
        }
        Some(Command::Selfcheck { turns, seed }) => selfcheck(turns, seed),
        Some(Command::Bench { kind: None, nodes }) => bench(nodes, &cli.params),
        Some(Command::Bench {
            kind:
                Some(BenchKind::Chains {
                    packs,
                    limit,
                    json,
                    chain,
                    ..
                }),
            ..
        }) => bench_chains(&packs, limit, json, chain, &cli.params),
        Some(Command::Arena(args)) => ysai::arena::main(&args),
        Some(Command::Package { out, tier, flags }) => {
            let packaged = ysai::cli::check_play_flags(&flags).and_then(|()| {
                ysai::package::package(&out, tier, &flags, &mut io::stdout().lock())
            });
            match packaged {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("ysai: package: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// Says when this build uses CPU features the machine does not have.
fn warn_missing_features(out: &mut impl Write) {
    let missing = ysai::selfcheck::missing_cpu_features();
    if !missing.is_empty() {
        let _ = writeln!(
            out,
            "WARNING: this build was compiled for {} which this CPU lacks; build the portable or baseline tier",
            missing.join(" ")
        );
    }
}

/// `ysai bench`: the fixed positions, one line each, then the totals and signature.
fn bench(nodes: u64, params: &Params) -> ExitCode {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{}", ysai::selfcheck::build_description("bench"));
    warn_missing_features(&mut out);
    let result = with_neighbours!(params.neighbours, N => {
        ysai::bench::run_bench::<N>(nodes, &mut out)
    });
    match result.and_then(|totals| writeln!(out, "{totals}")) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ysai: bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `ysai bench chains`: the first beam on each pack sequence of a directory.
fn bench_chains(
    dir: &Path,
    limit: Option<usize>,
    json: bool,
    chain: u32,
    params: &Params,
) -> ExitCode {
    let files = match ysai::bench::pack_files(dir) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("ysai: bench chains: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = io::stdout().lock();
    let mut reports = Vec::new();
    for path in files.iter().take(limit.unwrap_or(usize::MAX)) {
        let sequence = match ysai::bench::read_pack_file(path) {
            Ok(sequence) => sequence,
            Err(e) => {
                eprintln!("ysai: bench chains: {e}");
                return ExitCode::FAILURE;
            }
        };
        let report = with_neighbours!(params.neighbours, N => {
            ysai::bench::chains_one::<N>(&sequence, params, chain)
        });
        let _ = writeln!(out, "{}", if json { report.json() } else { report.line() });
        let _ = out.flush();
        reports.push(report);
    }
    let summary = ysai::bench::ChainsSummary::of(&reports);
    let _ = writeln!(
        out,
        "{}",
        if json { summary.json() } else { summary.line() }
    );
    ExitCode::SUCCESS
}

/// Says which of the user's flags are the original's and do nothing here (see
/// [`ysai::params::Compatibility`]), once, rather than ignoring them silently.
fn note_compatibility_flags(given: &[String], aitype: Option<u8>) {
    let mut accepted: Vec<String> = given
        .iter()
        .filter(|flag| COMPATIBILITY_FLAGS.contains(&flag.as_str()))
        .map(|flag| ysai::cli::display_flag(flag))
        .collect();
    accepted.extend(aitype.map(|n| format!("-ai {n}")));
    if !accepted.is_empty() {
        let (is, does) = if accepted.len() == 1 {
            ("is", "does")
        } else {
            ("are", "do")
        };
        eprintln!(
            "ysai: note: {} {is} accepted for compatibility with the original and {does} nothing here",
            accepted.join(" ")
        );
    }
}

/// Says which of the user's flags the chosen player ignores, rather than ignoring them silently.
fn note_flags_without_effect(given: &[String], params: &Params) {
    let unused: Vec<String> = ysai::params::flags_without_effect(params, given)
        .into_iter()
        .map(ysai::cli::display_flag)
        .collect();
    if unused.is_empty() {
        return;
    }
    let kind = format!("{:?}", params.player).to_lowercase();
    let player = match params.player {
        PlayerKind::Full if params.plays_original() => {
            format!("{kind} player with --style original")
        }
        PlayerKind::Full if !params.full_search_runs() => {
            format!("{kind} player with --guard-ms 0")
        }
        _ => format!("{kind} player"),
    };
    eprintln!(
        "ysai: note: the {player} does not use {}; they configure other players or styles",
        unused.join(" ")
    );
}

/// Sizes the global rayon pool (0 = one worker per core).
fn configure_threads(threads: usize) -> Result<(), rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
}

fn play(params: &Params) -> ExitCode {
    if params.neighbours == NeighbourMode::Table {
        ysai::sim::neighbours::column_table();
    }
    let (stdin, stdout) = (io::stdin().lock(), io::stdout().lock());
    let mut stderr = io::stderr().lock();
    let result = with_neighbours!(params.neighbours, N => {
        ysai::play::play::<N>(params, stdin, stdout, &mut stderr)
    });
    match result {
        Ok(summary) if summary.rejected == 0 && summary.repaired == 0 => ExitCode::SUCCESS,
        Ok(summary) => {
            if summary.repaired > 0 {
                let _ = writeln!(
                    stderr,
                    "ysai: {} turn(s) were played with floating blocks settled",
                    summary.repaired
                );
            }
            if summary.rejected > 0 {
                let _ = writeln!(
                    stderr,
                    "ysai: {} turn(s) could not be played",
                    summary.rejected
                );
            }
            ExitCode::FAILURE
        }
        Err(e) => {
            let _ = writeln!(stderr, "ysai: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Plays `turns` random turns per neighbour mode on the bitboard simulator and the oracle.
fn selfcheck(turns: u64, seed: u64) -> ExitCode {
    let mut out = BufWriter::new(io::stdout().lock());
    let _ = writeln!(out, "{}", ysai::selfcheck::build_description("selfcheck"));
    warn_missing_features(&mut out);
    let _ = out.flush();
    let mut ok = true;
    for mode in [NeighbourMode::Shift, NeighbourMode::Table] {
        let start = Instant::now();
        let report = with_neighbours!(mode, N => ysai::selfcheck::run::<N>(turns, seed));
        let seconds = start.elapsed().as_secs_f64();
        let _ = writeln!(
            out,
            "{}",
            report.summary(&format!("{mode:?}").to_lowercase(), seconds)
        );
        if let Some(mismatch) = &report.mismatch {
            let _ = writeln!(out, "MISMATCH: {mismatch}");
            ok = false;
        }
        let _ = out.flush();
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
