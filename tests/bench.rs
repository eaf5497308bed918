//! End-to-end tests of `ysai bench` and `ysai bench chains`.

mod common;
use common::data;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn ysai(args: &[&str]) -> (String, String, Option<i32>) {
    let output = Command::new(env!("CARGO_BIN_EXE_ysai"))
        .args(args)
        .output()
        .expect("ysai runs");
    (
        String::from_utf8(output.stdout).expect("UTF-8 stdout"),
        String::from_utf8(output.stderr).expect("UTF-8 stderr"),
        output.status.code(),
    )
}

/// The signature recorded in the repository: every build, backend and thread count must
/// search exactly as the one that recorded it.
fn recorded_signature() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench-signature.txt");
    fs::read_to_string(path)
        .expect("recorded signature")
        .trim()
        .to_string()
}

#[test]
fn bench_signature_matches_the_recorded_one_at_any_thread_count() {
    let expected = recorded_signature();
    for threads in ["1", "2"] {
        let (stdout, stderr, code) = ysai(&["--threads", threads, "bench"]);
        assert_eq!(code, Some(0), "{stderr}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(
            lines.len(),
            1 + 7 + 1,
            "header, 7 positions, totals:\n{stdout}"
        );
        let last = lines.last().unwrap();
        let fields: Vec<&str> = last.split_whitespace().collect();
        assert_eq!(fields[0], "nodes");
        assert_eq!(fields[2], "nps");
        assert_eq!(fields[4], "signature");
        assert_eq!(fields[5], expected, "threads {threads}: {last}");
        let nodes: u64 = fields[1].parse().expect("node count");
        let per_position: u64 = lines[1..8]
            .iter()
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let at = words.iter().position(|w| *w == "nodes").unwrap();
                words[at + 1].parse::<u64>().unwrap()
            })
            .sum();
        assert_eq!(nodes, per_position);
    }
}

#[test]
fn a_smaller_budget_gives_another_signature() {
    let (stdout, _, code) = ysai(&["bench", "--nodes", "3000"]);
    assert_eq!(code, Some(0));
    let last = stdout.lines().last().unwrap();
    assert!(!last.ends_with(&recorded_signature()), "{last}");
}

/// A directory holding the pack blocks of two recorded games as pack files.
fn pack_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ysai-bench-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    for (k, game) in ["game-17turns.stdin.txt", "game-48turns.stdin.txt"]
        .iter()
        .enumerate()
    {
        let text = fs::read_to_string(data(game)).unwrap();
        let packs: Vec<&str> = text.lines().take(1500).collect();
        fs::write(
            dir.join(format!("pack_{k:04}.pack")),
            packs.join("\n") + "\n",
        )
        .unwrap();
    }
    fs::write(dir.join("README"), "not a pack file").unwrap();
    dir
}

const SMALL_BEAM: [&str; 8] = ["-bw", "300", "-bcw", "100", "-bd", "10", "-bcm", "12"];

/// `bench chains --packs DIR --json` with a small beam.
fn json_chains_args(dir: &std::path::Path) -> Vec<&str> {
    let mut args = vec![
        "bench",
        "chains",
        "--packs",
        dir.to_str().unwrap(),
        "--json",
    ];
    args.extend(SMALL_BEAM);
    args
}

#[test]
fn chains_json_has_one_object_per_file_and_a_summary() {
    let dir = pack_dir("json");
    let args = json_chains_args(&dir);
    let (stdout, stderr, code) = ysai(&args);
    assert_eq!(code, Some(0), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    for (k, line) in lines[..2].iter().enumerate() {
        assert!(
            line.starts_with(&format!("{{\"file\": \"pack_{k:04}.pack\", \"depth12\": ")),
            "{line}"
        );
        for key in [
            "\"best_chain\": ",
            "\"max_chain\": ",
            "\"sim_calls\": ",
            "\"seconds\": ",
        ] {
            assert!(line.contains(key), "{key} in {line}");
        }
    }
    let summary = lines[2];
    assert!(
        summary.starts_with("{\"summary\": true, \"n\": 2, \"depth12_mean\": "),
        "{summary}"
    );
    for key in [
        "depth12_missing",
        "best_chain_mean",
        "max_chain_mean",
        "seconds_mean",
        "sim_calls_per_s",
    ] {
        assert!(
            summary.contains(&format!("\"{key}\": ")),
            "{key} in {summary}"
        );
    }
    let limited_args = [&args[..4], &["--limit", "1", "--json"], &SMALL_BEAM[..]].concat();
    let (limited, _, _) = ysai(&limited_args);
    assert_eq!(
        limited.lines().count(),
        2,
        "--limit 1: one file and the summary"
    );
    let without_time = |line: &str| line.split(", \"seconds\"").next().unwrap().to_string();
    assert_eq!(
        without_time(limited.lines().next().unwrap()),
        without_time(lines[0])
    );
    // Another chain is reported under its own keys; the search itself is unchanged.
    let thirteen_args = [&args[..5], &["--chain", "13"], &SMALL_BEAM[..]].concat();
    let (thirteen, _, _) = ysai(&thirteen_args);
    let first = thirteen.lines().next().unwrap();
    assert!(first.contains("\"depth13\": "), "{first}");
    let summary13 = thirteen.lines().last().unwrap();
    assert!(summary13.contains("\"depth13_mean\": "), "{summary13}");
    let tail = |line: &str| {
        without_time(line)
            .split("\"best_chain\"")
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert_eq!(tail(first), tail(lines[0]));
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn chains_with_the_potential_rank_another_way() {
    let dir = pack_dir("potential");
    let run = |eval: &str| {
        let mut args = json_chains_args(&dir);
        args.extend(["--beam-eval", eval]);
        let (stdout, stderr, code) = ysai(&args);
        assert_eq!(code, Some(0), "{stderr}");
        stdout
            .lines()
            .next()
            .unwrap()
            .split(", \"seconds\"")
            .next()
            .unwrap()
            .to_string()
    };
    let (ysai_rank, potential) = (run("ysai"), run("potential"));
    assert_ne!(ysai_rank, potential, "the rank changes what the beam keeps");
    let (_, stderr, code) = ysai(&[
        "bench",
        "chains",
        "--packs",
        dir.to_str().unwrap(),
        "--beam-eval",
        "kmyk",
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn chains_flags_after_the_subcommand_change_the_search() {
    let dir = pack_dir("flags");
    let run = |width: &str| {
        let (stdout, stderr, code) = ysai(&[
            "bench",
            "chains",
            "--packs",
            dir.to_str().unwrap(),
            "--limit",
            "1",
            "-bw",
            width,
            "-bcw",
            width,
            "-bd",
            "6",
        ]);
        assert_eq!(code, Some(0), "{stderr}");
        let line = stdout.lines().next().unwrap().to_string();
        let calls = line
            .split_whitespace()
            .skip_while(|w| *w != "sim_calls")
            .nth(1)
            .unwrap();
        calls.parse::<u64>().unwrap()
    };
    assert!(
        run("20") < run("200"),
        "a wider beam costs more simulator calls"
    );
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn chains_reports_unusable_directories_and_files() {
    let (_, stderr, code) = ysai(&["bench", "chains", "--packs", "/nonexistent/packs"]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("/nonexistent/packs"), "{stderr}");
    let dir = pack_dir("bad");
    fs::write(dir.join("pack_0001.pack"), "1 2\n3 4\nEND\n").unwrap();
    let (_, stderr, code) = ysai(&["bench", "chains", "--packs", dir.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("pack_0001.pack") && stderr.contains("line"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    fs::remove_dir_all(dir).unwrap();
}

/// `--ai rush` reports the rush player's opening search: reproducible under an expansion
/// budget, with no simulator-call count (it does not keep one) rather than a made-up one.
#[test]
fn chains_with_the_rush_players_opening_search() {
    let dir = pack_dir("anytime");
    let run = |expansions: &str| {
        let mut args = json_chains_args(&dir);
        args.extend(["--ai", "rush", "--beam-nodes", expansions]);
        let (stdout, stderr, code) = ysai(&args);
        assert_eq!(code, Some(0), "{stderr}");
        stdout
    };
    let out = run("300");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].contains("\"sim_calls\": null"), "{}", lines[0]);
    assert!(
        lines[2].contains("\"sim_calls_per_s\": null"),
        "{}",
        lines[2]
    );
    let without_time = |text: &str| {
        text.lines()
            .map(|l| l.split(", \"seconds").next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(without_time(&out)[..2], without_time(&run("300"))[..2]);
    let more = run("3000");
    let max_chain = |line: &str| {
        line.split("\"max_chain\": ")
            .nth(1)
            .unwrap()
            .split(',')
            .next()
            .unwrap()
            .parse::<u32>()
            .unwrap()
    };
    for (small, big) in out.lines().zip(more.lines()).take(2) {
        assert!(max_chain(small) <= max_chain(big), "{small} vs {big}");
    }
    fs::remove_dir_all(dir).unwrap();
}
