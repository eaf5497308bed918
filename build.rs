//! Build facts the program reports about itself:
//! - the backend choice, as cfgs the code can test: `ysai_avx2` (AVX2 bitboards), `ysai_pext`
//!   (BMI2 gravity) and `ysai_avx512` (the chain loop on AVX-512 lane boards); all are off with
//!   the `scalar` feature, which forces the portable code on any CPU;
//! - the build tier (`YSAI_TIER`: the `target-cpu` the build was given) and the CPU features
//!   the code was compiled to use (`YSAI_TARGET_FEATURES`);
//! - the commit (`YSAI_COMMIT`, short hash, `-dirty` for uncommitted changes), so that the
//!   name line ties every game to the source that played it.

use std::path::Path;
use std::process::Command;

/// Features worth reporting (and checking at run time) among those the compiler enables.
const REPORTED_FEATURES: &[&str] = &[
    "avx2",
    "bmi2",
    "fma",
    "avx512f",
    "avx512vbmi",
    "avx512vpopcntdq",
    "popcnt",
    "sse4.2",
];

/// What the chain loop on lane boards (`ysai_avx512`) needs.
const LANE_FEATURES: &[&str] = &["avx512f", "avx512vbmi", "avx512vpopcntdq"];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(ysai_avx2)");
    println!("cargo::rustc-check-cfg=cfg(ysai_pext)");
    println!("cargo::rustc-check-cfg=cfg(ysai_avx512)");
    for input in [
        "build.rs",
        "Cargo.toml",
        "Cargo.lock",
        "src",
        "tables/src",
        "benches",
        "tests",
    ] {
        println!("cargo::rerun-if-changed={input}");
    }
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let forced_scalar = std::env::var_os("CARGO_FEATURE_SCALAR").is_some();
    let has = |feature: &str| features.split(',').any(|f| f == feature);
    if arch == "x86_64" && !forced_scalar {
        if has("avx2") {
            println!("cargo::rustc-cfg=ysai_avx2");
        }
        if has("bmi2") {
            println!("cargo::rustc-cfg=ysai_pext");
        }
        if has("avx2") && LANE_FEATURES.iter().all(|f| has(f)) {
            println!("cargo::rustc-cfg=ysai_avx512");
        }
    }
    let compiled: Vec<&str> = REPORTED_FEATURES
        .iter()
        .copied()
        .filter(|f| has(f))
        .collect();
    println!(
        "cargo::rustc-env=YSAI_TARGET_FEATURES={}",
        compiled.join(" ")
    );
    println!("cargo::rustc-env=YSAI_TIER={}", tier());
    println!("cargo::rustc-env=YSAI_COMMIT={}", commit());
}

/// The `target-cpu` of this build, named by the tiers of the README (`native`, `portable`
/// for x86-64-v3, `baseline` for plain x86-64), or as given.
fn tier() -> String {
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let cpu = flags
        .split('\x1f')
        .zip(flags.split('\x1f').skip(1).chain([""]))
        .find_map(|(flag, next)| {
            let value = flag.strip_prefix("-C").map_or(flag, str::trim_start);
            let value = if value.is_empty() { next } else { value };
            value.strip_prefix("target-cpu=").map(str::to_string)
        })
        .unwrap_or_default();
    match cpu.as_str() {
        "native" => "native".to_string(),
        "x86-64-v3" => "portable".to_string(),
        "" | "x86-64" => "baseline".to_string(),
        other => other.to_string(),
    }
}

/// The short commit hash, `-dirty` if tracked files changed, or `unknown` outside git.
///
/// Git runs without optional locks: a plain `git status` refreshes the index and writes it
/// back, and a file that changes under the build makes the next `cargo build` run this script
/// and compile the crate again on an unchanged tree.
fn commit() -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .env("GIT_OPTIONAL_LOCKS", "0")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let Some(hash) = git(&["rev-parse", "--short=7", "HEAD"]) else {
        return "unknown".to_string();
    };
    // A new commit moves HEAD or the branch it names (loose or packed). A missing file would
    // count as changed on every build, so only those that exist are watched.
    let mut watched = Vec::new();
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        watched.push(format!("{dir}/HEAD"));
    }
    if let Some(common) = git(&["rev-parse", "--git-common-dir"]) {
        watched.push(format!("{common}/packed-refs"));
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watched.push(format!("{common}/{head}"));
        }
    }
    for file in watched.iter().filter(|f| Path::new(f).exists()) {
        println!("cargo::rerun-if-changed={file}");
    }
    // `main` watches the sources; whether they differ from HEAD is asked here.
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    if dirty {
        format!("{hash}-dirty")
    } else {
        hash
    }
}
