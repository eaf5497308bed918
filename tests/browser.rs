//! The replay viewer in a real browser: a short game between the built-in players, its page
//! (`ysai arena replay FILE --html OUT`) opened in headless Chromium, and what the page
//! draws checked against the replay: the turn counter, the blocks on each field, the result.
//! A screenshot is kept as `target/test-artifacts/replay.png`.
//!
//! Needs `/usr/bin/chromium` (`apt-get install -y chromium`); where it is missing the test
//! fails, unless `YSAI_SKIP_BROWSER=1` says to skip it.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::TempDir;

const CHROMIUM: &str = "/usr/bin/chromium";
/// Longer than Chromium ever needs for this page; a hung browser fails the test instead of
/// hanging it.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(90);

#[test]
fn the_replay_page_draws_the_recorded_game() {
    if !browser_available() {
        return;
    }
    let dir = TempDir::new().unwrap();
    let replay_file = play_one_game(dir.path());
    let page = dir.path().join("replay.html");
    ysai(&[
        "arena",
        "replay",
        replay_file.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    let replay: Value = serde_json::from_str(&fs::read_to_string(&replay_file).unwrap()).unwrap();
    let turns = replay["turns"].as_array().unwrap();
    let last = turns.len() - 1;
    assert!(
        last >= 3,
        "the game is too short to check: {} turns",
        turns.len()
    );

    // The last turn is checked for its result only: a field that died there may hold blocks
    // above the 16 recorded rows, which the page draws too.
    for turn in [1, last / 2, last - 1] {
        let dom = dump_dom(dir.path(), &page, turn);
        assert_eq!(element_text(&dom, "turn"), format!("{turn} / {last}"));
        let states = turns[turn]["state"].as_array().unwrap();
        for (player, state) in states.iter().enumerate() {
            let expected = recorded_blocks(&state["field"]);
            let drawn = element_text(&dom, &format!("blocks{player}"));
            assert_eq!(drawn, expected.to_string(), "turn {turn}, player {player}");
        }
        assert_eq!(element_text(&dom, "result"), "", "turn {turn}");
    }
    let dom = dump_dom(dir.path(), &page, last);
    assert_eq!(element_text(&dom, "turn"), format!("{last} / {last}"));
    assert_eq!(element_text(&dom, "result"), result_text(&replay["result"]));

    let screenshot = artifacts_dir().join("replay.png");
    take_screenshot(dir.path(), &page, last, &screenshot);
    let png = fs::read(&screenshot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG"),
        "{} is not a PNG",
        screenshot.display()
    );
    eprintln!("screenshot: {}", screenshot.display());
}

/// Whether Chromium is installed; without it the test fails, or is skipped on request.
fn browser_available() -> bool {
    if Path::new(CHROMIUM).exists() {
        return true;
    }
    if std::env::var("YSAI_SKIP_BROWSER").as_deref() == Ok("1") {
        eprintln!("skipped: {CHROMIUM} is missing and YSAI_SKIP_BROWSER=1");
        return false;
    }
    panic!(
        "{CHROMIUM} is missing: install it (`apt-get install -y chromium`) to run the browser \
         test, or set YSAI_SKIP_BROWSER=1 to skip it"
    );
}

/// Runs `ysai ARGS` and returns its stdout, failing the test if it fails.
fn ysai(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_ysai"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("ysai runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "ysai {args:?} failed:\n{stderr}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Plays greedy against random and returns the game's replay file.
fn play_one_game(dir: &Path) -> PathBuf {
    let replays = dir.join("replays");
    ysai(&[
        "arena",
        "--p0",
        "greedy",
        "--p1",
        "random",
        "--games",
        "1",
        "--tc",
        "none",
        "--replays",
        replays.to_str().unwrap(),
    ]);
    replays.join("game-000000.json")
}

/// The page's DOM after its script ran, opened at the end of `turn`.
fn dump_dom(dir: &Path, page: &Path, turn: usize) -> String {
    let out = dir.join(format!("dom-{turn}.html"));
    let mut command = chromium(dir);
    command.arg("--dump-dom").arg(page_url(page, turn));
    run_browser(command, Some(&out));
    fs::read_to_string(&out).unwrap()
}

fn take_screenshot(dir: &Path, page: &Path, turn: usize, png: &Path) {
    fs::create_dir_all(png.parent().unwrap()).unwrap();
    let _ = fs::remove_file(png);
    let mut command = chromium(dir);
    command
        .arg(format!("--screenshot={}", png.display()))
        .arg("--window-size=1200,800")
        .arg(page_url(page, turn));
    run_browser(command, None);
}

/// Headless Chromium with a fresh profile, kept off the network; the virtual time budget
/// lets the page's script run before the DOM is dumped or the screenshot taken.
fn chromium(dir: &Path) -> Command {
    let profile = tempfile::tempdir_in(dir).unwrap().keep();
    let mut command = Command::new(CHROMIUM);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=2000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .stdin(Stdio::null())
        .stderr(Stdio::null());
    command
}

fn page_url(page: &Path, turn: usize) -> String {
    format!("file://{}#turn={turn}", page.display())
}

/// Runs the browser (stdout to `stdout`, if given) and waits for it, within a time limit.
fn run_browser(mut command: Command, stdout: Option<&Path>) {
    match stdout {
        Some(path) => command.stdout(File::create(path).unwrap()),
        None => command.stdout(Stdio::null()),
    };
    let mut child = command.spawn().expect("chromium starts");
    let status = wait_within(&mut child, BROWSER_TIMEOUT);
    assert!(status.success(), "chromium failed: {status}");
}

fn wait_within(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within {limit:?}");
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// The text of the element with `id` in a dumped DOM (a leaf element: no markup inside).
fn element_text(dom: &str, id: &str) -> String {
    let marker = format!("id=\"{id}\"");
    let start = dom
        .find(&marker)
        .unwrap_or_else(|| panic!("no element `{id}` in the page"));
    let text = &dom[start..];
    let open = text.find('>').unwrap() + 1;
    let close = text[open..].find('<').unwrap();
    text[open..open + close].trim().to_string()
}

/// Blocks (numbers and ojama) in a recorded field.
fn recorded_blocks(field: &Value) -> usize {
    field
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .filter(|cell| cell.as_u64() != Some(0))
        .count()
}

/// The result as the page words it, from the replay's `result`.
fn result_text(result: &Value) -> String {
    let verdict = match result["winner"].as_u64() {
        Some(w) => format!("p{w} wins"),
        None => "draw".to_string(),
    };
    format!(
        "{verdict} ({}, turn {})",
        result["reason"].as_str().unwrap(),
        result["turn"]
    )
}

/// `target/test-artifacts`, next to the directory Cargo gives integration tests.
fn artifacts_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("test-artifacts")
}
