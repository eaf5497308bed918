//! The README sends users to files of the repository: every one of them must be in it, so that
//! a fresh clone is all a user needs to follow the README. Its first five minutes run as
//! written, and it stays a user's document: at most 400 lines, one table of where ysai stands.
//!
//! What counts as a path the README names:
//! - the target of every relative Markdown link, `[text](target)`, without its `#fragment`;
//! - inside inline code (`` `...` ``) and fenced code blocks, every word that starts with one of
//!   the repository's top-level directories ([`ROOTS`]) and a `/`, e.g. `docs/arena.md`,
//!   `src/policy/` or the `data/packs521.tar.gz` of a `tar` command. A word ends at a character
//!   that cannot be part of a plain path (space, quote, `=`, `(`, `,`, `:` ...), and a trailing
//!   `.` is dropped, so `src/sim/oracle.rs:42` names `src/sim/oracle.rs`.
//!
//! - any word or link target that starts with `../`: it leaves the repository, so it is reported
//!   as missing even where the file happens to exist beside the clone.
//!
//! Not paths: URLs (`scheme://...`), absolute paths (`/tmp/...`), words that start elsewhere
//! (`target/release/ysai`, `packs/pack`, which commands create) and patterns (a word with
//! `*`, `?`, `[`, `{`, `<` or `...`). Paths are resolved from the repository root.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

/// The top-level directories of the repository that the README may point into.
const ROOTS: &[&str] = &[
    "bench-results",
    "benches",
    "data",
    "docs",
    "examples",
    "fuzz",
    "scripts",
    "src",
    "tables",
    "tests",
];

/// Characters a plain path is made of; any other character ends a word.
fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_-./*?[]{}<>".contains(c)
}

fn is_pattern(word: &str) -> bool {
    word.contains(['*', '?', '[', ']', '{', '}', '<', '>']) || word.contains("...")
}

/// The repository paths named by the words of a piece of code.
fn paths_in_code(code: &str, paths: &mut Vec<String>) {
    for word in code.split(|c: char| !is_path_char(c)) {
        if is_pattern(word) {
            continue;
        }
        let word = word.trim_end_matches('.');
        let in_repository = ROOTS.iter().any(|root| {
            word.strip_prefix(root)
                .is_some_and(|rest| rest.starts_with('/'))
        });
        if in_repository || word.starts_with("../") {
            paths.push(word.to_string());
        }
    }
}

/// The path of a Markdown link's target, if it points into the repository.
fn path_of_link(target: &str) -> Option<String> {
    let target = target.split_whitespace().next()?; // drop a `"title"`
    let path = target.split('#').next()?.trim_start_matches("./");
    let external = path.contains("://") || path.starts_with("mailto:");
    let outside = path.starts_with('/') || path.starts_with("target/");
    (!path.is_empty() && !external && !outside && !is_pattern(path)).then(|| path.to_string())
}

/// Every repository path that `markdown` names, in order of appearance (see the module docs).
fn referenced_paths(markdown: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut in_fence = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            paths_in_code(line, &mut paths);
            continue;
        }
        for code in line.split('`').skip(1).step_by(2) {
            paths_in_code(code, &mut paths);
        }
        for (start, _) in line.match_indices("](") {
            let rest = &line[start + 2..];
            if let Some(end) = rest.find(')') {
                paths.extend(path_of_link(&rest[..end]));
            }
        }
    }
    paths
}

/// The paths `markdown` names that are not under `root`, each once.
fn missing_paths(root: &Path, markdown: &str) -> Vec<String> {
    let mut missing: Vec<String> = referenced_paths(markdown)
        .into_iter()
        .filter(|path| path.starts_with("../") || !root.join(path).exists())
        .collect();
    missing.dedup();
    missing
}

#[test]
fn every_path_the_readme_names_is_in_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let named = referenced_paths(&readme);
    assert!(
        named.len() > 20,
        "the README should name its docs and sources; found only {named:?}"
    );
    let missing = missing_paths(root, &readme);
    assert!(
        missing.is_empty(),
        "README.md names paths that are not in the repository: {missing:?}"
    );
}

#[test]
fn a_missing_path_in_code_a_fence_or_a_link_is_reported() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = "\
Rules in `docs/no-such-rules.md`, the design in [the notes](docs/no-such-notes.md#top).
```sh
tar xzf data/no-such-packs.tar.gz -C packs
tar xzf ../shared/data/official/packs521.tar.gz -C packs
```
The README itself is [here](README.md) and `src/sim/` holds the simulator.
";
    assert_eq!(
        missing_paths(root, text),
        [
            "docs/no-such-rules.md",
            "docs/no-such-notes.md",
            "data/no-such-packs.tar.gz",
            "../shared/data/official/packs521.tar.gz",
        ]
    );
}

#[test]
fn urls_outputs_absolute_paths_and_patterns_are_not_paths() {
    let text = "\
See <https://example.com/docs/x.md> and [the site](https://example.com/src/y.rs).
`target/release/ysai --packs packs/pack --results /tmp/docs/r.jsonl`
`bench-results/*/results.jsonl`, `docs/<name>.md`, `tests/...`
`src/sim/oracle.rs:42`, then `scripts/tiers`.
";
    assert_eq!(
        referenced_paths(text),
        ["src/sim/oracle.rs", "scripts/tiers"]
    );
}

/// The part of `markdown` under the heading `heading`, to the next heading of its level.
fn section<'a>(markdown: &'a str, heading: &str) -> &'a str {
    let start = markdown
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no section `{heading}`"))
        + heading.len()
        + 2;
    let rest = &markdown[start..];
    let level = &heading[..=heading.find(' ').unwrap()];
    let end = rest.find(&format!("\n{level}")).unwrap_or(rest.len());
    &rest[..end]
}

/// The lines of the first fenced code block of `text`, and the text after it.
fn first_fence(text: &str) -> (Vec<&str>, &str) {
    let open = text.find("```").expect("a code block");
    let body = &text[open + text[open..].find('\n').unwrap() + 1..];
    let close = body.find("```").expect("the code block's end");
    (body[..close].lines().collect(), &body[close + 3..])
}

/// The README's first five minutes, run as written in an empty directory: the release build
/// aside (this test's build of ysai stands for `target/release/ysai`), its commands play the
/// game and write the page the reader is told to open next.
#[test]
fn the_first_five_minutes_run_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let section = section(&readme, "## First five minutes");
    let (commands, after) = first_fence(section);
    assert_eq!(
        commands.first(),
        Some(&"cargo build --release"),
        "{commands:?}"
    );
    let dir = tempfile::tempdir().unwrap();
    for command in &commands[1..] {
        let args = command
            .strip_prefix("target/release/ysai ")
            .unwrap_or_else(|| panic!("`{command}` does not run ysai"));
        // Split on spaces, as a shell splits a command without quotes.
        assert!(!args.contains(['\'', '"', '\\', '$']), "{command}");
        let output = Command::new(env!("CARGO_BIN_EXE_ysai"))
            .args(args.split_whitespace())
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "`{command}` failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let page = after
        .split('`')
        .nth(1)
        .filter(|name| name.ends_with(".html"))
        .unwrap_or_else(|| panic!("the section opens no page after its commands: {after}"));
    let html = fs::read_to_string(dir.path().join(page)).unwrap();
    assert!(html.contains("<title>ysai replay</title>"), "{page}");
}

/// The most lines the README may have: it is a user's document, the rest is in `docs/`.
const MAX_README_LINES: usize = 400;

/// The README stays a user's document: short, with where ysai stands in one table (today's
/// build against the field and its previous release; every other match in
/// `docs/experiments.md`).
#[test]
fn the_readme_is_short_and_shows_where_ysai_stands_in_one_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= MAX_README_LINES,
        "README.md has {lines} lines, more than {MAX_README_LINES}"
    );
    let standing = section(&readme, "## Where it stands");
    // A Markdown table has one line of `|---|` under its header.
    let tables = standing
        .lines()
        .filter(|line| line.starts_with("|---"))
        .count();
    assert_eq!(tables, 1, "tables under `## Where it stands`:\n{standing}");
}
