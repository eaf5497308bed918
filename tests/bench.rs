//! End-to-end tests of `ysai bench` and `ysai bench chains`.

mod common;
use common::data;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Map, Value};

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

/// Each line of `--json` output as a JSON object.
fn objects(stdout: &str) -> Vec<Map<String, Value>> {
    stdout
        .lines()
        .map(|line| match serde_json::from_str(line) {
            Ok(Value::Object(object)) => object,
            other => panic!("not a JSON object: {line}: {other:?}"),
        })
        .collect()
}

/// The keys of `object`, sorted.
fn keys(object: &Map<String, Value>) -> Vec<&str> {
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.sort();
    keys
}

/// `object` without its timing, which differs from run to run.
fn without_time(mut object: Map<String, Value>) -> Map<String, Value> {
    object.remove("seconds");
    object.remove("seconds_mean");
    object.remove("sim_calls_per_s");
    object
}

#[test]
fn chains_json_has_one_object_per_file_and_a_summary() {
    let dir = pack_dir("json");
    let args = json_chains_args(&dir);
    let (stdout, stderr, code) = ysai(&args);
    assert_eq!(code, Some(0), "{stderr}");
    let lines = objects(&stdout);
    assert_eq!(lines.len(), 3, "{stdout}");
    for (k, report) in lines[..2].iter().enumerate() {
        assert_eq!(report["file"], format!("pack_{k:04}.pack"), "{stdout}");
        assert_eq!(
            keys(report),
            [
                "best_chain",
                "depth12",
                "file",
                "max_chain",
                "seconds",
                "sim_calls"
            ]
        );
        assert!(report["sim_calls"].as_u64().unwrap() > 0, "{stdout}");
    }
    let summary = &lines[2];
    assert_eq!(
        (&summary["summary"], &summary["n"]),
        (&json!(true), &json!(2))
    );
    assert_eq!(
        keys(summary),
        [
            "best_chain_mean",
            "depth12_mean",
            "depth12_missing",
            "max_chain_mean",
            "n",
            "seconds_mean",
            "sim_calls_per_s",
            "summary"
        ]
    );
    let limited_args = [&args[..4], &["--limit", "1", "--json"], &SMALL_BEAM[..]].concat();
    let (limited, _, _) = ysai(&limited_args);
    let limited = objects(&limited);
    assert_eq!(limited.len(), 2, "--limit 1: one file and the summary");
    assert_eq!(
        without_time(limited[0].clone()),
        without_time(lines[0].clone())
    );
    // Another chain is reported under its own keys; the search itself is unchanged.
    let thirteen_args = [&args[..5], &["--chain", "13"], &SMALL_BEAM[..]].concat();
    let (thirteen, _, _) = ysai(&thirteen_args);
    let thirteen = objects(&thirteen);
    assert!(thirteen[0].contains_key("depth13"), "{:?}", thirteen[0]);
    assert!(
        thirteen[2].contains_key("depth13_mean"),
        "{:?}",
        thirteen[2]
    );
    for key in ["best_chain", "max_chain", "sim_calls"] {
        assert_eq!(thirteen[0][key], lines[0][key], "{key}");
    }
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
        without_time(objects(&stdout).remove(0))
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
    let out = objects(&run("300"));
    assert_eq!(out.len(), 3, "{out:?}");
    assert_eq!(out[0]["sim_calls"], Value::Null, "{:?}", out[0]);
    assert_eq!(out[2]["sim_calls_per_s"], Value::Null, "{:?}", out[2]);
    let reports = |objects: &[Map<String, Value>]| -> Vec<_> {
        objects[..2].iter().cloned().map(without_time).collect()
    };
    assert_eq!(reports(&out), reports(&objects(&run("300"))));
    let more = objects(&run("3000"));
    for (small, big) in out.iter().zip(&more).take(2) {
        let max_chain = |report: &Map<String, Value>| report["max_chain"].as_u64().unwrap();
        assert!(max_chain(small) <= max_chain(big), "{small:?} vs {big:?}");
    }
    fs::remove_dir_all(dir).unwrap();
}
