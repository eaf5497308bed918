//! End-to-end tests of `ysai arena`: the referee against scripted fake AIs (every way to
//! lose), whole games between the built-in players re-simulated from their replays, the
//! transcripts, resume, shards, SPRT, `--check`, Ctrl-C, and bad input.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{RwLock, RwLockReadGuard};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tempfile::TempDir;
use ysai::protocol::{format_game_start, read_all, PlayerView, TurnInput};
use ysai::search::timeman::MIN_TURN_MS;
use ysai::sim::{play_turn, Action, Field, Pack, PlayerState, PreparedPack, Shift};

/// A fast time control for tests: 20 s per game, 1 s per turn (name wait: 1 s).
const FAST_TC: &str = "20000+1000";
/// Lines of a game-start block, and of a turn block.
const PACK_LINES: usize = 1500;
const TURN_LINES: usize = 43;

struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

impl From<Output> for Run {
    fn from(output: Output) -> Self {
        Run {
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            code: output.status.code(),
        }
    }
}

impl Run {
    fn assert_ok(&self) {
        assert_eq!(
            self.code,
            Some(0),
            "stdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
    }

    fn assert_no_panic(&self) {
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
    }
}

fn ysai(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ysai"));
    command.args(args).stdin(Stdio::null());
    command
}

/// Runs `ysai` to the end, sharing the cores with the other tests but never with a clocked game.
fn run(args: &[&str]) -> Run {
    let _sharing = sharing_the_cores();
    run_now(args)
}

/// Runs `ysai` to the end at once: for callers that already hold the cores' lock.
fn run_now(args: &[&str]) -> Run {
    let run: Run = ysai(args).output().expect("ysai runs").into();
    run.assert_no_panic();
    run
}

/// A fake AI as a shell script: prints `name` (a shell command), skips the packs, answers
/// `x 0` with x = turn mod 9 (it survives a few turns), except on `bad_turn`, where it runs
/// `bad` instead.
fn fake_ai(dir: &Path, file: &str, name: &str, bad_turn: u32, bad: &str) -> String {
    script_ai(dir, file, name, "echo \"$((turn % 9)) 0\"", bad_turn, bad)
}

/// A shell-script AI that runs `name` first, then `answer` each turn (`bad` on `bad_turn`).
fn script_ai(dir: &Path, file: &str, name: &str, answer: &str, bad_turn: u32, bad: &str) -> String {
    let script = format!(
        r#"{name}
i=0
while [ $i -lt {PACK_LINES} ]; do read -r line || exit 0; i=$((i+1)); done
turn=0
while :; do
  n=0
  while [ $n -lt {TURN_LINES} ]; do read -r line || exit 0; n=$((n+1)); done
  if [ $turn -eq {bad_turn} ]; then
    {bad}
  else
    {answer}
  fi
  turn=$((turn+1))
done
"#
    );
    let path = dir.join(file);
    fs::write(&path, script).unwrap();
    format!("sh '{}'", path.display())
}

/// A fake that misbehaves with `bad` on turn 3, named `fake`.
fn faulty(dir: &Path, bad: &str) -> String {
    fake_ai(dir, "fake.sh", "echo fake", 3, bad)
}

/// The result lines of a results file.
fn results(path: &Path) -> Vec<Value> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// Plays one game of `p0` against `p1` and returns its result line.
fn one_game(dir: &Path, p0: &str, p1: &str, tc: &str) -> Value {
    game_line(dir, p0, p1, tc, run)
}

fn game_line(dir: &Path, p0: &str, p1: &str, tc: &str, runner: fn(&[&str]) -> Run) -> Value {
    let file = dir.join("results.jsonl");
    let _ = fs::remove_file(&file);
    let run = runner(&[
        "arena",
        "--p0",
        p0,
        "--p1",
        p1,
        "--games",
        "1",
        "--tc",
        tc,
        "--results",
        file.to_str().unwrap(),
    ]);
    run.assert_ok();
    let mut lines = results(&file);
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    lines.remove(0)
}

/// Games whose players think against the clock have the cores to themselves: sharing them,
/// with another clocked game or any other test's run, would shrink their searches, and with
/// them the play a test asserts.
static CORES: RwLock<()> = RwLock::new(());

/// Waits until no clocked game holds the cores, then shares them until the guard drops.
fn sharing_the_cores() -> RwLockReadGuard<'static, ()> {
    CORES
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Plays one clocked game of `p0` against `p1` while no other test runs `ysai` to the end.
fn one_game_alone(p0: &str, p1: &str, tc: &str) -> Value {
    // A poisoned lock only means another test failed; the cores are still free.
    let _alone = CORES
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = TempDir::new().unwrap();
    game_line(dir.path(), p0, p1, tc, run_now)
}

/// Asserts that `p0` lost on `turn` for `reason` against greedy.
fn assert_p0_loses(p0: &str, reason: &str, turn: u64) -> Value {
    let dir = TempDir::new().unwrap();
    let line = one_game(dir.path(), p0, "greedy", FAST_TC);
    assert_p0_lost(&line, reason, turn);
    line
}

/// Asserts that the game of `line` ended on `turn` with p0 losing for `reason`.
fn assert_p0_lost(line: &Value, reason: &str, turn: u64) {
    assert_eq!(line["winner"], 1, "{line}");
    assert_eq!(line["reason"], reason, "{line}");
    assert_eq!(line["losers"][0], reason, "{line}");
    assert_eq!(line["losers"][1], Value::Null, "{line}");
    assert_eq!(line["turn"], turn, "{line}");
}

#[test]
fn illegal_move_loses() {
    let dir = TempDir::new().unwrap();
    assert_p0_loses(&faulty(dir.path(), "echo '9 0'"), "illegal-move", 3);
}

#[test]
fn garbage_output_loses() {
    let dir = TempDir::new().unwrap();
    assert_p0_loses(&faulty(dir.path(), "echo 'hello world'"), "bad-output", 3);
}

#[test]
fn skill_without_gauge_loses() {
    let dir = TempDir::new().unwrap();
    let p0 = fake_ai(dir.path(), "skill.sh", "echo fake", 0, "echo S");
    assert_p0_loses(&p0, "illegal-skill", 0);
}

#[test]
fn crash_loses() {
    let dir = TempDir::new().unwrap();
    assert_p0_loses(&faulty(dir.path(), "kill -KILL $$"), "crash", 3);
}

#[test]
fn exiting_early_loses() {
    let dir = TempDir::new().unwrap();
    assert_p0_loses(&faulty(dir.path(), "exit 0"), "crash", 3);
}

#[test]
fn no_name_line_loses() {
    let dir = TempDir::new().unwrap();
    let p0 = fake_ai(dir.path(), "anonymous.sh", ":", 99, ":");
    let line = assert_p0_loses(&p0, "no-name", 0);
    assert_eq!(line["names"][0], Value::Null);
}

#[test]
fn forbidden_name_loses() {
    let dir = TempDir::new().unwrap();
    let p0 = fake_ai(dir.path(), "slash.sh", "echo 'a/b'", 99, ":");
    assert_p0_loses(&p0, "bad-name", 0);
}

#[test]
fn timeout_loses_and_the_hung_ai_is_killed_with_its_children() {
    let dir = TempDir::new().unwrap();
    let pid_file = dir.path().join("sleeper.pid");
    let hang = format!("sleep 60 & echo $! > '{}'; wait", pid_file.display());
    let p0 = faulty(dir.path(), &hang);
    // Timed from when no clocked game holds the cores, not from when the test started.
    let _sharing = sharing_the_cores();
    let start = Instant::now();
    let line = game_line(dir.path(), &p0, "greedy", FAST_TC, run_now);
    assert!(start.elapsed() < Duration::from_secs(20));
    assert_p0_lost(&line, "timeout", 3);
    let max_think: f64 = line["max_think_ms"][0].as_f64().unwrap();
    assert!((1000.0..1001.0).contains(&max_think), "{line}");
    let pid = fs::read_to_string(&pid_file).unwrap();
    assert_gone(pid.trim());
}

/// Waits a little for process `pid` to disappear (or be a zombie of init, reaped soon).
fn assert_gone(pid: &str) {
    let stat = PathBuf::from(format!("/proc/{pid}/stat"));
    for _ in 0..100 {
        match fs::read_to_string(&stat) {
            Err(_) => return,
            Ok(s) if s.contains(") Z ") => return,
            Ok(_) => thread::sleep(Duration::from_millis(20)),
        }
    }
    panic!("process {pid} is still running");
}

#[test]
fn both_illegal_on_the_same_turn_draw() {
    let dir = TempDir::new().unwrap();
    let p0 = fake_ai(dir.path(), "a.sh", "echo a", 2, "echo '9 9'");
    let p1 = fake_ai(dir.path(), "b.sh", "echo b", 2, "echo nonsense");
    let line = one_game(dir.path(), &p0, &p1, FAST_TC);
    assert_eq!(line["winner"], Value::Null, "{line}");
    assert_eq!(line["losers"][0], "illegal-move");
    assert_eq!(line["losers"][1], "bad-output");
    assert_eq!(line["turn"], 2);
}

#[test]
fn both_crashing_on_the_same_turn_is_decided_by_score() {
    let dir = TempDir::new().unwrap();
    // Identical players: identical scores, so a draw by score.
    let p0 = fake_ai(dir.path(), "a.sh", "echo a", 4, "exit 1");
    let p1 = fake_ai(dir.path(), "b.sh", "echo b", 4, "exit 1");
    let line = one_game(dir.path(), &p0, &p1, FAST_TC);
    assert_eq!(line["winner"], Value::Null, "{line}");
    assert_eq!(line["reason"], "score");
    assert_eq!(line["losers"], serde_json::json!(["crash", "crash"]));
    assert_eq!(line["scores"][0], line["scores"][1]);
}

#[test]
fn a_late_answer_is_a_timeout_even_when_both_think_at_once() {
    // p0 hangs on turn 1; p1 answers turn 1 after 1.2 s (the limit is 1 s), while the referee
    // is still busy with p0's timeout. Both lose on time; equal scores draw.
    let dir = TempDir::new().unwrap();
    let p0 = fake_ai(dir.path(), "hang.sh", "echo hang", 1, "sleep 60");
    let p1 = fake_ai(
        dir.path(),
        "slow.sh",
        "echo slow",
        1,
        "sleep 1.2; echo '1 0'",
    );
    let file = dir.path().join("out/results.jsonl");
    let run = run(&[
        "arena",
        "--p0",
        &p0,
        "--p1",
        &p1,
        "--games",
        "1",
        "--tc",
        FAST_TC,
        "--simultaneous",
        "--results",
        file.to_str().unwrap(),
    ]);
    run.assert_ok();
    let line = &results(&file)[0];
    assert_eq!(
        line["losers"],
        serde_json::json!(["timeout", "timeout"]),
        "{line}"
    );
    assert_eq!(line["winner"], Value::Null);
    assert_eq!(line["turn"], 1);
}

/// Plays `games` games of greedy against random with replays and transcripts.
fn builtin_match(dir: &Path, games: &str, extra: &[&str]) -> Run {
    builtin_match_at(dir, games, "none", extra)
}

/// As [`builtin_match`], at time control `tc`.
fn builtin_match_at(dir: &Path, games: &str, tc: &str, extra: &[&str]) -> Run {
    match_between(dir, ["greedy", "random --seed 5"], games, tc, extra)
}

/// A match of `players` with its results, replays and transcripts in `dir`.
fn match_between(dir: &Path, players: [&str; 2], games: &str, tc: &str, extra: &[&str]) -> Run {
    let run = try_match_between(dir, players, games, tc, extra);
    run.assert_ok();
    run
}

/// As [`match_between`], whether it succeeds or not.
fn try_match_between(dir: &Path, players: [&str; 2], games: &str, tc: &str, extra: &[&str]) -> Run {
    let mut args = vec![
        "arena", "--p0", players[0], "--p1", players[1], "--games", games, "--tc", tc,
    ];
    let paths = ["out/results.jsonl", "replays", "transcripts"].map(|p| dir.join(p));
    let flags = ["--results", "--replays", "--transcripts"];
    for (flag, path) in flags.iter().zip(&paths) {
        args.push(flag);
        args.push(path.to_str().unwrap());
    }
    args.extend_from_slice(extra);
    run(&args)
}

fn pack_of(cells: &Value) -> Pack {
    let cell = |r: usize, c: usize| cells[r][c].as_u64().unwrap() as u8;
    Pack::new([cell(0, 0), cell(0, 1)], [cell(1, 0), cell(1, 1)])
}

fn action_of(text: &str) -> Action {
    if text == "S" {
        return Action::Skill;
    }
    let mut words = text.split(' ').map(|w| w.parse::<u8>().unwrap());
    Action::Drop {
        x: words.next().unwrap(),
        rot: words.next().unwrap(),
    }
}

/// The recorded end-of-turn state of one player, in the simulator's terms.
fn state_json(state: &PlayerState) -> Value {
    serde_json::json!({
        "field": state.field.to_rows().to_vec(),
        "stock": state.ojama,
        "gauge": state.gauge,
        "score": state.score,
    })
}

#[test]
fn a_whole_game_replays_exactly_and_its_transcripts_reproduce_every_input() {
    let dir = TempDir::new().unwrap();
    builtin_match(dir.path(), "1", &[]);
    let result = &results(&dir.path().join("out/results.jsonl"))[0];
    let replay: Value = serde_json::from_str(
        &fs::read_to_string(dir.path().join("replays/game-000000.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(replay["format"], "ysai-replay/1");
    assert_eq!(replay["players"][0]["command"], "greedy");
    assert_eq!(replay["players"][1]["name"], ysai::play::NAME);
    // Both give this binary's name; the results name them by what they are.
    assert_eq!(
        result["players"],
        serde_json::json!(["greedy", "random --seed 5"])
    );
    let packs: Vec<Pack> = replay["packs"]
        .as_array()
        .unwrap()
        .iter()
        .map(pack_of)
        .collect();
    assert_eq!(packs.len(), 500);

    // Re-simulate from the moves alone and compare every recorded position.
    let turns = replay["turns"].as_array().unwrap();
    let mut states = [PlayerState::default(); 2];
    let mut positions = Vec::new();
    for (index, turn) in turns.iter().enumerate() {
        assert_eq!(turn["turn"], index as u64);
        let moves = [0, 1].map(|p| action_of(turn["moves"][p].as_str().unwrap()));
        let outcomes = play_turn::<Shift>(&mut states, &PreparedPack::new(packs[index]), moves);
        for player in 0..2 {
            assert_eq!(
                turn["state"][player],
                state_json(&states[player]),
                "turn {index}"
            );
            assert_eq!(turn["chains"][player], outcomes[player].result.chains);
        }
        positions.push(states);
    }
    // The game ended when someone died (greedy and random make only legal moves).
    let last = turns.len() - 1;
    assert_eq!(result["turn"], last as u64);
    assert_eq!(replay["result"]["turn"], last as u64);
    assert!(positions[last].iter().any(|s| s.field.is_dead()));
    assert!(positions[..last]
        .iter()
        .all(|p| p.iter().all(|s| !s.field.is_dead())));
    let scores = positions[last].map(|s| s.score);
    assert_eq!(result["scores"], serde_json::json!(scores));
    // The first chain of 10 or more of each player, as the replay shows it.
    for player in 0..2 {
        let first = turns
            .iter()
            .find(|t| t["chains"][player].as_u64().unwrap() >= 10)
            .map(|t| serde_json::json!({"turn": t["turn"], "chains": t["chains"][player]}));
        assert_eq!(
            result["first_big_chains"][player],
            first.unwrap_or(Value::Null)
        );
    }

    // Each transcript is the packs, then every turn's input from that player's side, showing
    // the position at the end of the turn before.
    for player in 0..2 {
        let path = dir
            .path()
            .join(format!("transcripts/game-000000.p{player}.stdin.txt"));
        let text = fs::read(&path).unwrap();
        let games = read_all(&text[..]).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(&games[0].packs[..], &packs[..]);
        assert_eq!(games[0].turns.len(), turns.len());
        for (index, input) in games[0].turns.iter().enumerate() {
            let before = if index == 0 {
                [PlayerState::default(); 2]
            } else {
                positions[index - 1]
            };
            assert_input_shows(input, &before[player], &before[1 - player]);
            assert_eq!(
                input.players[0].time_left_ms, 180_000,
                "--tc none shows 180000"
            );
        }
    }

    // `ysai -t T < transcript` gives greedy's move of turn T.
    let transcript = dir.path().join("transcripts/game-000000.p0.stdin.txt");
    assert_greedy_answers_as_recorded(&transcript, turns);
}

/// `ysai --ai greedy -t T < input` gives p0's recorded move of turn T, on the first, middle and
/// last turns of the game.
fn assert_greedy_answers_as_recorded(input: &Path, turns: &[Value]) {
    let last = turns.len() - 1;
    for turn in [0, last / 2, last] {
        let t = turn.to_string();
        let output = ysai(&["--ai", "greedy", "-t", &t])
            .stdin(fs::File::open(input).unwrap())
            .output()
            .unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        let answer = stdout.lines().nth(1).unwrap_or_default();
        assert_eq!(answer, turns[turn]["moves"][0], "turn {turn}");
    }
}

fn assert_input_shows(input: &TurnInput, me: &PlayerState, opponent: &PlayerState) {
    for (view, state) in input.players.iter().zip([me, opponent]) {
        assert_eq!(view.rows, state.field.to_rows(), "turn {}", input.turn);
        assert_eq!(
            (view.ojama, view.gauge, view.score),
            (state.ojama, state.gauge, state.score),
            "turn {}",
            input.turn
        );
    }
}

#[test]
fn replay_command_shows_and_checks_a_game() {
    let dir = TempDir::new().unwrap();
    builtin_match(dir.path(), "1", &[]);
    let file = dir.path().join("replays/game-000000.json");
    let shown = run(&["arena", "replay", file.to_str().unwrap()]);
    shown.assert_ok();
    assert!(shown.stdout.contains("turn 0   pack "), "{}", shown.stdout);
    // Fields are drawn as `-m` draws them: rows above the top as `!`, heights below.
    assert!(
        shown.stdout.contains("\n  !!!!!!!!!!   !!!!!!!!!!\n"),
        "{}",
        shown.stdout
    );
    assert!(shown.stdout.contains("re-simulates exactly"));
    assert!(shown.stdout.contains(" wins (dead, turn "));

    // A tampered replay is caught; a file that is no replay is a clear error.
    let mut replay: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    replay["turns"][1]["state"][0]["score"] = Value::from(999);
    let tampered = dir.path().join("tampered.json");
    fs::write(&tampered, replay.to_string()).unwrap();
    let bad = run(&["arena", "replay", tampered.to_str().unwrap()]);
    assert_eq!(bad.code, Some(1));
    assert!(bad.stderr.contains("turn 1: player 0"), "{}", bad.stderr);
    let junk = dir.path().join("junk.json");
    fs::write(&junk, "{\"format\": 3").unwrap();
    let bad = run(&["arena", "replay", junk.to_str().unwrap()]);
    assert_eq!(bad.code, Some(1));
    assert!(bad.stderr.contains("not a replay"), "{}", bad.stderr);
}

#[test]
fn a_replay_gives_back_the_input_each_player_was_sent() {
    let dir = TempDir::new().unwrap();
    // A long game: greedy beats random within a few turns, and on a fast machine that game
    // moves the clock by less than the millisecond a rebuilt clock line may be off by; two
    // greedy players play to the turn cap, and their clocks move by tens of milliseconds.
    let players = ["greedy", "greedy"];
    match_between(dir.path(), players, "1", "600000+20000", &[]);
    let file = dir.path().join("replays/game-000000.json");
    let replay: Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(replay["tc"], "600000+20000");
    for player in ["0", "1"] {
        let rebuilt = run(&[
            "arena",
            "replay",
            file.to_str().unwrap(),
            "--input-of",
            player,
        ]);
        rebuilt.assert_ok();
        let sent = fs::read(
            dir.path()
                .join(format!("transcripts/game-000000.p{player}.stdin.txt")),
        )
        .unwrap();
        assert_same_input(rebuilt.stdout.as_bytes(), &sent);
        fs::write(dir.path().join(format!("p{player}.txt")), &rebuilt.stdout).unwrap();
    }

    // `ysai -t T` on the rebuilt input gives greedy's recorded move of turn T.
    let turns = replay["turns"].as_array().unwrap();
    assert_greedy_answers_as_recorded(&dir.path().join("p0.txt"), turns);

    // A replay that does not record its time control needs --tc, and says so.
    let mut old = replay.clone();
    old.as_object_mut().unwrap().remove("tc");
    let old_file = dir.path().join("old.json");
    fs::write(&old_file, old.to_string()).unwrap();
    let refused = run(&[
        "arena",
        "replay",
        old_file.to_str().unwrap(),
        "--input-of",
        "1",
    ]);
    assert_eq!(refused.code, Some(1));
    assert!(
        refused.stderr.contains("give it with --tc"),
        "{}",
        refused.stderr
    );
    let old_file = old_file.to_str().unwrap();
    let told = run(&[
        "arena",
        "replay",
        old_file,
        "--input-of",
        "1",
        "--tc",
        "600000+20000",
    ]);
    told.assert_ok();
    let sent = fs::read(dir.path().join("transcripts/game-000000.p1.stdin.txt")).unwrap();
    assert_same_input(told.stdout.as_bytes(), &sent);
}

/// The same packs and turns, each clock line within the millisecond the recorded thinking
/// times are rounded to.
fn assert_same_input(rebuilt: &[u8], sent: &[u8]) {
    let rebuilt = read_all(rebuilt).unwrap();
    let sent = read_all(sent).unwrap();
    assert_eq!(rebuilt.len(), 1);
    assert_eq!(rebuilt[0].packs, sent[0].packs);
    assert_eq!(rebuilt[0].turns.len(), sent[0].turns.len());
    let mut clock_moved = false;
    for (mine, theirs) in rebuilt[0].turns.iter().zip(&sent[0].turns) {
        for (a, b) in mine.players.iter().zip(&theirs.players) {
            assert!(
                (a.time_left_ms - b.time_left_ms).abs() <= 1,
                "turn {}: clock {} against {}",
                mine.turn,
                a.time_left_ms,
                b.time_left_ms
            );
            // More than the tolerance, so a clock never rebuilt would fail.
            clock_moved |= b.time_left_ms < 600_000 - 2;
            let clockless = |v: &PlayerView| PlayerView {
                time_left_ms: 0,
                ..v.clone()
            };
            assert_eq!(clockless(a), clockless(b), "turn {}", mine.turn);
        }
        assert_eq!(mine.turn, theirs.turn);
    }
    assert!(clock_moved, "the game's clock lines never moved");
}

#[test]
fn an_interrupted_match_resumes_where_it_stopped() {
    let dir = TempDir::new().unwrap();
    builtin_match(dir.path(), "4", &[]);
    let file = dir.path().join("out/results.jsonl");
    let full = fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 4);
    // Keep two games and half of a third line, as a crash while writing would leave.
    let kept = format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..20]);
    fs::write(&file, kept).unwrap();
    let rerun = builtin_match(dir.path(), "4", &[]);
    assert!(
        rerun
            .stderr
            .contains("2 game(s) already in the results file, 2 to play"),
        "{}",
        rerun.stderr
    );
    let games: BTreeSet<u64> = results(&file)
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    assert_eq!(games, BTreeSet::from([0, 1, 2, 3]));
    assert_eq!(results(&file).len(), 4);
    // The same games give the same verdict as the uninterrupted run.
    let again = builtin_match(dir.path(), "4", &[]);
    assert!(again.stderr.contains("0 to play"), "{}", again.stderr);
    assert_eq!(results(&file).len(), 4);
}

/// Rebuilds every game of the match in `dir` (played by [`match_between`]) from its results
/// line alone and asserts that it is the game's replay, byte for byte; returns the lines.
fn assert_every_game_rebuilds_as_its_replay(dir: &Path) -> Vec<Value> {
    let file = dir.join("out/results.jsonl");
    let lines = results(&file);
    for line in &lines {
        let game = line["game"].as_u64().unwrap();
        let rebuilt = dir.join(format!("rebuilt-{game}.json"));
        run(&[
            "arena",
            "replay",
            file.to_str().unwrap(),
            "--game",
            &game.to_string(),
            "--json",
            rebuilt.to_str().unwrap(),
        ])
        .assert_ok();
        let kept = dir.join(format!("replays/game-{game:06}.json"));
        assert_eq!(
            fs::read_to_string(&rebuilt).unwrap(),
            fs::read_to_string(&kept).unwrap(),
            "game {game} of {}",
            dir.display()
        );
    }
    lines
}

/// The most a game may take in a results file, on average: every game of every match is
/// kept.
const MAX_BYTES_PER_GAME: usize = 16 * 1024;

#[test]
fn every_game_of_a_20_game_match_rebuilds_from_its_results_line_as_its_full_replay() {
    let dirs: Vec<TempDir> = (0..3).map(|_| TempDir::new().unwrap()).collect();
    let thinking = dirs[0].path();
    // ysai as it plays, its `-tm` line every turn, on node budgets instead of its clock and
    // without its timed searches: it builds and fires chains, a game in a second or so.
    let quick_self = "self --threads 1 --turn-ms 2000 --beam-nodes 20000 --guard-ms 0 \
                      --refine-ms 0";
    match_between(thinking, [quick_self, "greedy"], "20", "none", &["-j", "2"]);
    // A command that is no move (the turn shows none) and a crash (an answer never timed).
    let nonsense = faulty(dirs[1].path(), "echo nonsense");
    match_between(dirs[1].path(), [&nonsense, "greedy"], "1", FAST_TC, &[]);
    let crash = faulty(dirs[2].path(), "exit 0");
    match_between(dirs[2].path(), [&crash, "greedy"], "1", FAST_TC, &[]);

    let lines = assert_every_game_rebuilds_as_its_replay(thinking);
    let games = lines.len();
    assert_eq!(games, 20);
    let bytes = fs::metadata(thinking.join("out/results.jsonl"))
        .unwrap()
        .len() as usize;
    let turns: u64 = lines.iter().map(|l| l["turn"].as_u64().unwrap()).sum();
    eprintln!(
        "{games} games of `{quick_self}` against greedy ({:.0} turns on average): {:.1} KB a \
         game in the results file",
        turns as f64 / games as f64,
        bytes as f64 / games as f64 / 1024.0
    );
    assert!(
        bytes <= games * MAX_BYTES_PER_GAME,
        "{bytes} bytes for {games} games"
    );
    for line in &lines {
        let record = &line["record"];
        let turns = record["think_us"][1].as_array().unwrap().len();
        let tm = record["turn_lines"][0].as_array().unwrap();
        assert_eq!(tm.len(), turns, "{record}");
        assert!(
            tm[0].as_str().unwrap().starts_with("Turn 0 timeleft "),
            "{record}"
        );
        assert!(
            record["turn_lines"][1].is_null(),
            "greedy writes no turn lines"
        );
        let run = &line["run"];
        assert_eq!(run["tc"], "none");
        assert_eq!(run["commands"][0], quick_self);
        let started = run["started"].as_str().unwrap();
        assert!(started.len() == 20 && started.ends_with('Z'), "{started}");
        assert!(!run["cpu"].as_str().unwrap().is_empty());
        assert!(run.get("sprt").is_none(), "{run}");
    }
    let [bad] = &assert_every_game_rebuilds_as_its_replay(dirs[1].path())[..] else {
        panic!("one game");
    };
    assert!(
        bad["record"]["moves"][0].as_str().unwrap().ends_with("-"),
        "{bad}"
    );
    let [crashed] = &assert_every_game_rebuilds_as_its_replay(dirs[2].path())[..] else {
        panic!("one game");
    };
    let times = crashed["record"]["think_us"][0].as_array().unwrap();
    assert!(times.last().unwrap().is_null(), "{crashed}");

    // The replay page made from the results line is the one made from the replay.
    let pages = ["kept.html", "rebuilt.html"].map(|p| thinking.join(p));
    let kept = thinking.join("replays/game-000001.json");
    let results = thinking.join("out/results.jsonl");
    run(&[
        "arena",
        "replay",
        kept.to_str().unwrap(),
        "--html",
        pages[0].to_str().unwrap(),
    ])
    .assert_ok();
    write_game_page(&results, 1, None, &pages[1]);
    let [kept, rebuilt] = pages.map(|p| game_of_page(&fs::read_to_string(p).unwrap()));
    assert_eq!(kept, rebuilt);
}

/// `ysai arena report RESULTS --html PAGE`.
fn write_report(results: &Path, page: &Path) -> Run {
    run(&[
        "arena",
        "report",
        results.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ])
}

/// Writes the report of `results` to `page` and asserts that its summary on stdout says
/// `says`.
fn report_saying(results: &Path, page: &Path, says: &str) {
    let reported = write_report(results, page);
    reported.assert_ok();
    assert!(reported.stdout.contains(says), "{}", reported.stdout);
}

/// `ysai arena replay RESULTS --game GAME [--pairing PAIRING] --html PAGE`.
fn write_game_page(results: &Path, game: u64, pairing: Option<&str>, page: &Path) {
    let game = game.to_string();
    let mut args = vec![
        "arena",
        "replay",
        results.to_str().unwrap(),
        "--game",
        &game,
    ];
    args.extend(pairing.map(|p| ["--pairing", p]).into_iter().flatten());
    args.extend(["--html", page.to_str().unwrap()]);
    run(&args).assert_ok();
}

/// The links of game `game`'s replay page in `dir` (see [`links_of`]).
fn page_links(dir: &Path, game: u64) -> [Value; 3] {
    links_of(&dir.join(format!("game-{game:06}.html")))
}

/// The links of the replay page `page`: to the previous game, the next game and the report,
/// `null` where it has none.
fn links_of(page: &Path) -> [Value; 3] {
    let context = context_of_page(&fs::read_to_string(page).unwrap());
    ["previous", "next", "report"].map(|link| context[link].clone())
}

/// A page's link to the page of game `game` beside it.
fn page_link(game: u64) -> Value {
    json!({"game": game, "address": format!("game-{game:06}.html")})
}

/// A replay page without its header's context (the file, game number, report and games
/// beside it, which differ with where it was made): what is left is the game itself.
fn game_of_page(page: &str) -> String {
    let (start, end) = context_span(page);
    format!("{}{}", &page[..start], &page[end..])
}

/// Where a replay page's context is in it: `,"context":{...}`, the last member of the
/// page's data.
fn context_span(page: &str) -> (usize, usize) {
    let start = page.find(",\"context\":{").expect("a page with a context");
    let end = start + page[start..].find("}</script>").expect("the data's end");
    (start, end)
}

/// A replay page's context, as JSON.
fn context_of_page(page: &str) -> Value {
    let (start, end) = context_span(page);
    let member = &page[start + ",\"context\":".len()..end];
    serde_json::from_str(member).expect("the context is JSON")
}

#[test]
fn a_results_line_whose_moves_do_not_give_its_result_is_refused() {
    let dir = TempDir::new().unwrap();
    builtin_match(dir.path(), "1", &[]);
    let file = dir.path().join("out/results.jsonl");
    let mut line = results(&file).remove(0);
    let score = line["scores"][0].as_i64().unwrap();
    line["scores"][0] = Value::from(score + 1);
    fs::write(&file, format!("{line}\n")).unwrap();
    let rebuilt = run(&["arena", "replay", file.to_str().unwrap(), "--game", "0"]);
    assert_eq!(rebuilt.code, Some(1));
    assert!(
        rebuilt.stderr.contains(&format!(
            "game 0: its moves played again give scores [{score}, "
        )),
        "{}",
        rebuilt.stderr
    );
    let missing = run(&["arena", "replay", file.to_str().unwrap(), "--game", "5"]);
    assert!(missing.stderr.contains("no game 5"), "{}", missing.stderr);
    let unnamed = run(&["arena", "replay", file.to_str().unwrap()]);
    assert!(unnamed.stderr.contains("--game K"), "{}", unnamed.stderr);
}

#[test]
fn resuming_with_another_build_under_the_same_command_is_refused() {
    let dir = TempDir::new().unwrap();
    builtin_match(dir.path(), "1", &[]);
    let file = dir.path().join("out/results.jsonl");
    let mut line = results(&file).remove(0);
    let build = line["names"][1].as_str().unwrap().to_string();
    line["names"][1] = Value::from("ysai-0.0.0-other");
    fs::write(&file, format!("{line}\n")).unwrap();
    let resumed = try_match_between(dir.path(), ["greedy", "random --seed 5"], "3", "none", &[]);
    assert_eq!(resumed.code, Some(1), "{}", resumed.stderr);
    assert!(
        resumed.stderr.contains(&format!(
            "p1 (`random --seed 5`) is build `{build}`, but the match's earlier games were played by build `ysai-0.0.0-other`"
        )),
        "{}",
        resumed.stderr
    );
    assert_eq!(results(&file).len(), 1);
}

#[test]
fn a_player_whose_build_changes_during_a_match_stops_it() {
    let dir = TempDir::new().unwrap();
    // Its name changes from game to game, as a binary rebuilt during the match would.
    let changing = fake_ai(dir.path(), "changing.sh", "echo fake-$$", 999, "exit 0");
    let played = try_match_between(dir.path(), [&changing, "greedy"], "3", FAST_TC, &[]);
    assert_eq!(played.code, Some(1), "{}", played.stderr);
    assert!(
        played.stderr.contains("game 1: p0 (`sh ") && played.stderr.contains("is build `fake-"),
        "{}",
        played.stderr
    );
    assert_eq!(results(&dir.path().join("out/results.jsonl")).len(), 1);
}

/// The first LLR `text` gives (`LLR 2.95 ...`), as written.
fn llr(text: &str) -> String {
    let at = text.find("LLR ").expect("an LLR") + 4;
    text[at..].split(' ').next().unwrap().to_string()
}

#[test]
fn stats_and_the_report_follow_the_sprt_the_match_ran() {
    let dir = TempDir::new().unwrap();
    builtin_match(dir.path(), "3", &["--sprt", "elo0=0,elo1=10"]);
    let file = dir.path().join("out/results.jsonl");
    let stats = run(&["arena", "stats", file.to_str().unwrap()]);
    stats.assert_ok();
    let sprt_line = stats
        .stdout
        .lines()
        .find(|l| l.starts_with("SPRT: elo0=0 elo1=10 alpha=0.05 beta=0.05 (normalized Elo)"))
        .unwrap_or_else(|| panic!("{}", stats.stdout));
    let recorded_llr = llr(sprt_line);
    let report = |extra: &[&str]| {
        let page = dir.path().join("report.html");
        let mut args = vec!["arena", "report", file.to_str().unwrap(), "--html"];
        args.push(page.to_str().unwrap());
        args.extend_from_slice(extra);
        run(&args).assert_ok();
        fs::read_to_string(page).unwrap()
    };
    let page = report(&[]);
    assert!(
        page.contains(&format!(
            "elo0=0 elo1=10 alpha=0.05 beta=0.05 (normalized Elo; as the match ran it): LLR {recorded_llr} "
        )),
        "{page}"
    );
    let given = report(&["--sprt", "elo0=0,elo1=20"]);
    let at = given
        .find("(normalized Elo; given to the report): ")
        .unwrap();
    assert_ne!(llr(&given[at..]), recorded_llr, "another SPRT, another LLR");
}

#[test]
fn an_old_results_file_still_resumes_reports_and_sums_up() {
    let dir = TempDir::new().unwrap();
    builtin_match(dir.path(), "2", &["--sprt", "elo0=0,elo1=10"]);
    let file = dir.path().join("out/results.jsonl");
    // As an older ysai wrote it: no run, no record.
    let old: String = results(&file)
        .into_iter()
        .map(|mut line| {
            let fields = line.as_object_mut().unwrap();
            fields.remove("run");
            fields.remove("record");
            format!("{line}\n")
        })
        .collect();
    fs::write(&file, old).unwrap();
    let stats = run(&["arena", "stats", file.to_str().unwrap()]);
    stats.assert_ok();
    assert!(stats.stdout.starts_with("Games: 2"), "{}", stats.stdout);
    assert!(
        !stats.stdout.contains("SPRT"),
        "none recorded: {}",
        stats.stdout
    );
    let page = dir.path().join("old.html");
    report_saying(&file, &page, "no replays found");
    let page = fs::read_to_string(page).unwrap();
    assert!(
        page.contains("Elo; the default, as the match ran none)"),
        "{page}"
    );
    assert!(!page.contains("replay</a>"), "no game links a replay page");
    let resumed = builtin_match(dir.path(), "3", &[]);
    assert!(
        resumed
            .stderr
            .contains("2 game(s) already in the results file, 1 to play"),
        "{}",
        resumed.stderr
    );
    let lines = results(&file);
    assert_eq!(lines.len(), 3);
    assert!(lines[2]["record"].is_object() && lines[1].get("record").is_none());
}

#[test]
fn a_results_file_of_another_match_is_refused() {
    let dir = TempDir::new().unwrap();
    builtin_match(dir.path(), "1", &[]);
    let file = dir.path().join("out/results.jsonl");
    let other = run(&[
        "arena",
        "--p0",
        "random",
        "--p1",
        "greedy",
        "--games",
        "1",
        "--tc",
        "none",
        "--results",
        file.to_str().unwrap(),
    ]);
    assert_eq!(other.code, Some(1));
    assert!(other.stderr.contains("another match"), "{}", other.stderr);
}

#[test]
fn shards_merge_into_the_verdict_of_the_whole_match() {
    let whole = TempDir::new().unwrap();
    let run_whole = builtin_match(whole.path(), "4", &["-j", "2"]);
    let shards: Vec<TempDir> = (0..2).map(|_| TempDir::new().unwrap()).collect();
    for (k, shard) in shards.iter().enumerate() {
        let spec = format!("{}/2", k + 1);
        builtin_match(shard.path(), "4", &["--shard", &spec]);
        let games: Vec<u64> = results(&shard.path().join("out/results.jsonl"))
            .iter()
            .map(|g| g["game"].as_u64().unwrap())
            .collect();
        assert_eq!(games, [k as u64, k as u64 + 2]);
    }
    let files: Vec<String> = shards
        .iter()
        .map(|s| s.path().join("out/results.jsonl").display().to_string())
        .collect();
    let merged = run(&[
        "arena",
        "stats",
        &files[0],
        &files[1],
        "--sprt",
        "elo0=0,elo1=20",
    ]);
    merged.assert_ok();
    assert!(
        merged.stdout.contains("SPRT: elo0=0 elo1=20"),
        "{}",
        merged.stdout
    );
    let verdict = |text: &str| text.lines().take(2).collect::<Vec<_>>().join("\n");
    assert_eq!(verdict(&merged.stdout), verdict(&run_whole.stdout));
    assert!(merged.stdout.starts_with("Games: 4"), "{}", merged.stdout);
}

#[test]
fn sprt_stops_a_decided_match_and_its_report_shows_the_bounds_and_llr_it_stopped_at() {
    let dir = TempDir::new().unwrap();
    let loser = fake_ai(dir.path(), "loser.sh", "echo loser", 0, "echo nonsense");
    let file = dir.path().join("out/results.jsonl");
    let run = run(&[
        "arena",
        "--p0",
        "greedy",
        "--p1",
        &loser,
        "--games",
        "200",
        "--tc",
        FAST_TC,
        "--sprt",
        "elo0=0,elo1=10",
        "--results",
        file.to_str().unwrap(),
    ]);
    run.assert_ok();
    let played = results(&file).len();
    assert!(played < 200, "{played} games");
    assert!(run.stdout.contains("H1 accepted"), "{}", run.stdout);
    assert!(run.stdout.contains("normalized Elo"), "{}", run.stdout);

    // Its report shows the SPRT that stopped it (not the report's default, elo1=20), with
    // the LLR it stopped at.
    let page = dir.path().join("report.html");
    report_saying(&file, &page, &format!("({played} games;"));
    let sprt = format!(
        "elo0=0 elo1=10 alpha=0.05 beta=0.05 (normalized Elo; as the match ran it): LLR {} in \
         (-2.94, 2.94), H1 accepted",
        llr(&run.stdout)
    );
    let html = fs::read_to_string(&page).unwrap();
    assert!(html.contains(&sprt), "{sprt}\n{html}");
}

#[test]
fn packs_from_files_are_sent_byte_for_byte() {
    let dir = TempDir::new().unwrap();
    let pack_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/packs");
    builtin_match(dir.path(), "3", &["--packs", pack_dir.to_str().unwrap()]);
    let lines = results(&dir.path().join("out/results.jsonl"));
    let files: Vec<&str> = lines
        .iter()
        .map(|g| g["pack_file"].as_str().unwrap())
        .collect();
    assert_eq!(
        files,
        ["pack_0000.pack", "pack_0001.pack", "pack_0000.pack"]
    );
    assert!(lines.iter().all(|g| g["seed"].is_null()));
    for (game, file) in files.iter().enumerate() {
        let packs = fs::read(pack_dir.join(file)).unwrap();
        let transcript = fs::read(
            dir.path()
                .join(format!("transcripts/game-{game:06}.p1.stdin.txt")),
        )
        .unwrap();
        assert_eq!(&transcript[..packs.len()], &packs[..]);
        assert!(transcript[packs.len()..].starts_with(b"0\n180000\n0\n0\n0\n0 0 0"));
    }
}

#[test]
fn simultaneous_thinking_plays_the_same_deterministic_games() {
    let sequential = TempDir::new().unwrap();
    let simultaneous = TempDir::new().unwrap();
    builtin_match(sequential.path(), "2", &[]);
    builtin_match(simultaneous.path(), "2", &["--simultaneous"]);
    let outcome = |dir: &TempDir| -> Vec<(Value, Value, Value)> {
        results(&dir.path().join("out/results.jsonl"))
            .into_iter()
            .map(|g| (g["winner"].clone(), g["turn"].clone(), g["scores"].clone()))
            .collect()
    };
    assert_eq!(outcome(&sequential), outcome(&simultaneous));
}

#[test]
fn check_passes_a_compliant_ai_and_lists_violations() {
    let good = run(&["arena", "--check", "self", "--tc", FAST_TC]);
    good.assert_ok();
    assert!(
        good.stdout.contains("no protocol violations"),
        "{}",
        good.stdout
    );

    let dir = TempDir::new().unwrap();
    let sloppy = fake_ai(dir.path(), "sloppy.sh", "echo sloppy", 1, "echo ' 1 0 '");
    let report = run(&["arena", "--check", &sloppy, "--tc", FAST_TC]);
    assert_eq!(report.code, Some(1), "{}", report.stdout);
    assert!(
        report
            .stdout
            .contains("turn 1: answer \" 1 0 \" has extra whitespace"),
        "{}",
        report.stdout
    );

    let skill = fake_ai(dir.path(), "skill.sh", "echo skill", 2, "echo S");
    let report = run(&["arena", "--check", &skill, "--tc", FAST_TC]);
    assert_eq!(report.code, Some(1));
    assert!(
        report.stdout.contains("turn 2: skill with gauge 16 (< 80)"),
        "{}",
        report.stdout
    );
    assert!(
        report.stdout.contains("it lost (illegal-skill)"),
        "{}",
        report.stdout
    );
}

#[test]
fn check_lists_a_violation_repeated_on_every_line_once() {
    let dir = TempDir::new().unwrap();
    // Answers every `END` it reads, the 500 of the game start included.
    let chatty = dir.path().join("chatty.sh");
    fs::write(
        &chatty,
        "echo chatty\nwhile read -r line; do [ \"$line\" = END ] && echo garbage; done\n",
    )
    .unwrap();
    let command = format!("sh '{}'", chatty.display());
    let report = run(&["arena", "--check", &command, "--tc", FAST_TC]);
    assert_eq!(report.code, Some(1), "{}", report.stdout);
    let listed: Vec<&str> = report
        .stdout
        .lines()
        .filter(|l| l.starts_with("  "))
        .collect();
    let repeated: Vec<&str> = listed
        .iter()
        .copied()
        .filter(|l| l.ends_with(": unrequested output \"garbage\""))
        .collect();
    assert_eq!(repeated.len(), 1, "{}", report.stdout);
    assert!(
        repeated[0].starts_with("  turn 0 (") && repeated[0].contains(" times): "),
        "{}",
        report.stdout
    );
    assert!(listed.len() <= 2, "{}", report.stdout);
}

#[test]
fn check_explains_missing_flush_and_bad_flags() {
    let dir = TempDir::new().unwrap();
    // `sed` buffers its output when writing to a pipe: the name comes only at exit.
    let unflushed = format!(
        "{} | sed ''",
        fake_ai(dir.path(), "buffered.sh", "echo late", 99, ":")
    );
    let report = run(&["arena", "--check", &unflushed, "--tc", FAST_TC]);
    assert_eq!(report.code, Some(1));
    assert!(
        report
            .stdout
            .contains("only when stdin was closed (missing flush?)"),
        "{}",
        report.stdout
    );

    let report = run(&["arena", "--check", "self -bww 5", "--tc", FAST_TC]);
    assert_eq!(report.code, Some(1));
    assert!(
        report.stdout.contains("exited before printing its name"),
        "{}",
        report.stdout
    );
    assert!(
        report
            .stdout
            .contains("unknown flag `-bww`; did you mean `-bw`?"),
        "{}",
        report.stdout
    );
}

#[test]
fn ctrl_c_stops_the_match_and_kills_every_ai() {
    let dir = TempDir::new().unwrap();
    let pid_file = dir.path().join("sleeper.pid");
    let hang = format!("sleep 60 & echo $! > '{}'; wait", pid_file.display());
    let p0 = fake_ai(dir.path(), "hang.sh", "echo hang", 1, &hang);
    let file = dir.path().join("out/results.jsonl");
    let args = [
        "arena",
        "--p0",
        &p0,
        "--p1",
        "greedy",
        "--games",
        "3",
        "--tc",
        "none",
        "--results",
        file.to_str().unwrap(),
    ];
    let run = interrupted_once(&args, || pid_file.exists());
    let pid = fs::read_to_string(&pid_file).unwrap();
    assert_eq!(run.code, Some(130), "{}", run.stderr);
    assert!(run.stderr.contains("resume"), "{}", run.stderr);
    assert_gone(pid.trim());
    assert!(
        results(&file).is_empty(),
        "no result for an interrupted game"
    );
}

/// Starts `ysai args` and stops it with Ctrl-C (SIGINT) as soon as `ready` holds (or after
/// a minute), as a user stops a match; returns how it ended.
fn interrupted_once(args: &[&str], ready: impl Fn() -> bool) -> Run {
    let _sharing = sharing_the_cores();
    let arena = ysai(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !ready() && start.elapsed() < Duration::from_secs(60) {
        thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: sends SIGINT to the arena child this test started.
    unsafe {
        libc::kill(arena.id() as i32, libc::SIGINT);
    }
    let run: Run = arena.wait_with_output().unwrap().into();
    run.assert_no_panic();
    run
}

#[cfg(target_os = "linux")]
#[test]
fn an_ai_dies_with_a_killed_referee() {
    // `kill -9` gives the arena no chance to clean up; the kernel kills its AIs.
    let dir = TempDir::new().unwrap();
    let pid_file = dir.path().join("ai.pid");
    let script = dir.path().join("ai.sh");
    fs::write(
        &script,
        format!("echo $$ > '{}'; exec sleep 60\n", pid_file.display()),
    )
    .unwrap();
    let p1 = format!("sh '{}'", script.display());
    let mut arena = ysai(&[
        "arena", "--p0", "greedy", "--p1", &p1, "--games", "1", "--tc", "none",
    ])
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let start = Instant::now();
    while fs::read_to_string(&pid_file).map_or(true, |p| p.trim().is_empty())
        && start.elapsed() < Duration::from_secs(20)
    {
        thread::sleep(Duration::from_millis(20));
    }
    let pid = fs::read_to_string(&pid_file).unwrap();
    arena.kill().unwrap();
    arena.wait().unwrap();
    assert_gone(pid.trim());
}

#[test]
fn bad_input_gives_clear_errors() {
    let dir = TempDir::new().unwrap();
    let cases: [(&[&str], i32, &str); 7] = [
        (
            &["arena", "--p0", "greedy", "--p1", "greedy", "--tc", "fast"],
            2,
            "GAME_MS+TURN_MS",
        ),
        (
            &[
                "arena",
                "--p0",
                "greedy",
                "--p1",
                "greedy",
                "--packs",
                "/no/such/dir",
            ],
            1,
            "/no/such/dir",
        ),
        (
            &[
                "arena",
                "--p0",
                "greedy",
                "--p1",
                "greedy",
                "--sprt",
                "elo0=5,elo1=1",
            ],
            2,
            "below",
        ),
        (
            &[
                "arena", "--p0", "greedy", "--p1", "greedy", "--shard", "3/2",
            ],
            2,
            "K/N",
        ),
        (&["arena", "--p0", "greedy"], 1, "--p1"),
        (
            &["arena", "stats", "/no/such/results.jsonl"],
            1,
            "/no/such/results.jsonl",
        ),
        (
            &["arena", "replay", "/no/such/replay.json"],
            1,
            "/no/such/replay.json",
        ),
    ];
    for (args, code, needle) in cases {
        let run = run(args);
        assert_eq!(run.code, Some(code), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
    }
    let corrupt = dir.path().join("corrupt.jsonl");
    fs::write(&corrupt, "{\"not\": \"a game\"}\n").unwrap();
    let run = run(&["arena", "stats", corrupt.to_str().unwrap()]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.contains("line 1: not a game record"),
        "{}",
        run.stderr
    );
}

/// A fake AI that sends the moves of `moves` (one a line), then `0 0`.
fn scripted_ai(dir: &Path, file: &str, moves: &[String]) -> String {
    fs::write(dir.join(format!("{file}.moves")), moves.join("\n") + "\n").unwrap();
    let name = "exec 3< \"$0.moves\"; echo scripted";
    let answer = "read -r mv <&3 || mv='0 0'; echo \"$mv\"";
    script_ai(dir, file, name, answer, u32::MAX, ":")
}

fn state_of(view: &PlayerView) -> PlayerState {
    PlayerState {
        field: Field::from_rows(&view.rows).unwrap(),
        ojama: view.ojama,
        gauge: view.gauge,
        score: view.score,
    }
}

/// Player 1's moves of a recorded game: for each turn, an action that, with player 0's
/// recorded move, leads to the next recorded turn.
fn opponent_moves(turns: &[TurnInput], packs: &[Pack], my_moves: &[Action]) -> Vec<Action> {
    (0..my_moves.len())
        .map(|t| {
            let before = [0, 1].map(|p| state_of(&turns[t].players[p]));
            let after = [0, 1].map(|p| state_of(&turns[t + 1].players[p]));
            let pack = PreparedPack::new(packs[t]);
            *Action::ALL
                .iter()
                .find(|&&theirs| {
                    let mut states = before;
                    play_turn::<Shift>(&mut states, &pack, [my_moves[t], theirs]);
                    states == after
                })
                .unwrap_or_else(|| panic!("no move explains turn {t}"))
        })
        .collect()
}

/// `text` without the two clock lines of each turn block (time is the one thing that differs).
fn without_clocks(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let (packs, turns) = lines.split_at(PACK_LINES);
    let mut kept: Vec<String> = packs.iter().map(|l| l.to_string()).collect();
    for (index, line) in turns.iter().enumerate() {
        if !matches!(index % TURN_LINES, 1 | 22) {
            kept.push(line.to_string());
        }
    }
    kept
}

#[test]
fn the_referee_sends_what_the_official_client_sent() {
    // Replay an official game with both players' moves; player 0's input must be the
    // recorded transcript, line for line, apart from the clocks.
    let official = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/official");
    let transcript = fs::read_to_string(official.join("game-21turns.stdin.txt")).unwrap();
    let game = read_all(transcript.as_bytes()).unwrap().remove(0);
    let my_moves: Vec<Action> = fs::read_to_string(official.join("game-21turns.player0-moves.txt"))
        .unwrap()
        .lines()
        .map(action_of)
        .collect();
    let their_moves = opponent_moves(&game.turns, &game.packs[..], &my_moves);

    let dir = TempDir::new().unwrap();
    let pack_dir = dir.path().join("packs");
    fs::create_dir(&pack_dir).unwrap();
    fs::write(pack_dir.join("game.pack"), format_game_start(&game.packs)).unwrap();
    let text = |moves: &[Action]| -> Vec<String> { moves.iter().map(|m| m.to_string()).collect() };
    let p0 = scripted_ai(dir.path(), "p0.sh", &text(&my_moves));
    let p1 = scripted_ai(dir.path(), "p1.sh", &text(&their_moves));
    let transcripts = dir.path().join("transcripts");
    let run = run(&[
        "arena",
        "--p0",
        &p0,
        "--p1",
        &p1,
        "--games",
        "1",
        "--tc",
        "none",
        "--packs",
        pack_dir.to_str().unwrap(),
        "--transcripts",
        transcripts.to_str().unwrap(),
    ]);
    run.assert_ok();
    let ours = fs::read_to_string(transcripts.join("game-000000.p0.stdin.txt")).unwrap();
    let recorded_lines = PACK_LINES + game.turns.len() * TURN_LINES;
    assert!(
        ours.lines().count() >= recorded_lines,
        "the game ended early"
    );
    let ours: String = ours
        .lines()
        .take(recorded_lines)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(without_clocks(&ours), without_clocks(&transcript));
}

#[test]
fn the_beam_player_fires_first_against_greedy_at_a_short_time_control_without_losing_on_time() {
    // The chain builder alone has no defence once its chain is gone: whether it then outlasts
    // greedy's small chains depends on how wide its clock let the beams grow on this machine.
    // What it guarantees is the plan itself, fired long before greedy builds one, in time.
    // The node budget keeps the opening plan from shrinking on a slow build or a busy machine
    // (its deadline still applies, but is not reached): with only a deadline, the scalar build
    // beside two busy processes narrowed it until no 10-chain was left, where alone it fired
    // on turn 10. With the budget it fired on turn 16 there, on 10 or 12 on a quiet machine.
    let beam = "beam -bw 1500 -bcw 500 -bd 14 -bcm 10 -bcm- -1 -bcm2 14 -bminx 2 -bmaxx 6 \
                --beam-nodes 20000";
    let line = one_game_alone(beam, "greedy", "30000+2000");
    assert_ne!(line["losers"][0], "timeout", "{line}");
    let fired = &line["first_big_chains"][0];
    assert!(
        fired["turn"].as_u64().is_some_and(|turn| turn <= 30),
        "{line}"
    );
    assert_eq!(line["first_big_chains"][1], Value::Null, "{line}");
}

#[test]
fn the_original_turn_beats_greedy_at_a_short_time_control_without_losing_on_time() {
    let full = "self --style original -bw 1500 -bcw 500 -bd 14 -bcm 10 -bcm2 14";
    let line = one_game_alone(full, "greedy", "30000+2000");
    assert_eq!(line["winner"], 0, "{line}");
    assert_eq!(line["reason"], "dead", "{line}");
}

#[test]
fn the_default_ai_beats_greedy_at_a_short_time_control_without_losing_on_time() {
    let line = one_game_alone("self", "greedy", "30000+2000");
    assert_eq!(line["winner"], 0, "{line}");
    assert_eq!(line["reason"], "dead", "{line}");
}

/// Processes that keep cores busy until dropped: the load of a shared tournament machine.
struct BusyCores(Vec<std::process::Child>);

impl BusyCores {
    fn start(cores: usize) -> Self {
        let spin = || {
            std::process::Command::new("sh")
                .args(["-c", "while :; do :; done"])
                .spawn()
                .expect("sh starts")
        };
        BusyCores((0..cores).map(|_| spin()).collect())
    }
}

impl Drop for BusyCores {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn the_default_ai_keeps_to_its_clock_while_another_process_keeps_both_cores_busy() {
    let _alone = CORES
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = TempDir::new().unwrap();
    let load = BusyCores::start(2);
    let line = game_line(dir.path(), "self", "greedy", "30000+2000", run_now);
    drop(load);
    assert_ne!(line["losers"][0], "timeout", "{line}");
    assert_ne!(line["losers"][0], "illegal", "{line}");
    // Every search of a turn ends by the turn's ceiling: the 2 s limit less 300 ms and a tenth.
    let budget_ms = 2_000.0 - 300.0 - 200.0;
    let longest = line["max_think_ms"][0].as_f64().expect("a thinking time");
    eprintln!(
        "under load: longest answer {longest:.0} ms against a budget of {budget_ms:.0} ms \
         (overrun {:+.0} ms), limit 2000 ms",
        longest - budget_ms
    );
    assert!(longest < 2_000.0, "{line}");
}

#[test]
fn a_self_player_leaves_its_turn_lines_in_the_replay() {
    let dir = TempDir::new().unwrap();
    let replays = dir.path().join("replays");
    // The shortest turn it accepts: a quick game that still thinks every turn.
    let quick_self = format!("self --turn-ms {MIN_TURN_MS}");
    run(&[
        "arena",
        "--p0",
        "random --seed 5",
        "--p1",
        &quick_self,
        "--games",
        "1",
        "--tc",
        "none",
        "--replays",
        replays.to_str().unwrap(),
    ])
    .assert_ok();
    let replay: Value =
        serde_json::from_str(&fs::read_to_string(replays.join("game-000000.json")).unwrap())
            .unwrap();
    let turns = replay["turns"].as_array().unwrap();
    for turn in turns {
        let lines = &turn["turn_lines"];
        // Random writes nothing on stderr; self writes its `-tm` line for every turn.
        assert!(lines[0].is_null(), "{lines}");
        let line = lines[1].as_str().unwrap();
        assert!(
            line.starts_with(&format!("Turn {} timeleft ", turn["turn"])),
            "{line}"
        );
    }
}

#[test]
fn a_report_links_every_game_to_its_replay_page() {
    let dir = TempDir::new().unwrap();
    builtin_match(dir.path(), "20", &[]);
    let report = dir.path().join("out/match.html");
    let reported = run(&[
        "arena",
        "report",
        dir.path().join("out/results.jsonl").to_str().unwrap(),
        "--replays",
        dir.path().join("replays").to_str().unwrap(),
        "--html",
        report.to_str().unwrap(),
    ]);
    reported.assert_ok();
    assert!(
        reported.stdout.contains("(20 games; 20 replay pages in "),
        "{}",
        reported.stdout
    );
    let page = fs::read_to_string(&report).unwrap();
    // The game table in game order; the other orders and the headers' links repeat its rows.
    let links: Vec<&str> = table_html(&page, "games")
        .split("<a href=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .filter(|link| !link.starts_with('#'))
        .collect();
    let expected: Vec<String> = (0..20)
        .map(|game| format!("match-replays/game-{game:06}.html"))
        .collect();
    assert_eq!(links, expected);
    for link in links {
        let replay_page = fs::read_to_string(dir.path().join("out").join(link)).unwrap();
        assert!(replay_page.contains("<title>ysai replay</title>"), "{link}");
    }
    // Without the replays, each game's page is rebuilt from its results line.
    fs::remove_dir_all(dir.path().join("replays")).unwrap();
    let bare = dir.path().join("out/bare.html");
    let results = dir.path().join("out/results.jsonl");
    report_saying(&results, &bare, "(20 games; 20 replay pages in ");
    let page = |name: &str| {
        let path = dir.path().join("out").join(name).join("game-000007.html");
        game_of_page(&fs::read_to_string(path).unwrap())
    };
    assert_eq!(page("bare-replays"), page("match-replays"));

    // Each page links to the report, and to the games before and after it.
    let pages = dir.path().join("out/match-replays");
    for game in 0..20u64 {
        let previous = game.checked_sub(1).map_or(Value::Null, page_link);
        let next = if game < 19 {
            page_link(game + 1)
        } else {
            Value::Null
        };
        let report = json!("../match.html");
        assert_eq!(
            page_links(&pages, game),
            [previous, next, report],
            "game {game}"
        );
    }
}

#[test]
fn a_replay_page_links_past_a_game_without_a_page() {
    let dir = TempDir::new().unwrap();
    builtin_match(dir.path(), "4", &[]);
    fs::remove_dir_all(dir.path().join("replays")).unwrap();
    // Game 2's line keeps no moves (as an older ysai wrote it), and its replay is gone.
    let file = dir.path().join("out/results.jsonl");
    let lines: Vec<String> = results(&file)
        .into_iter()
        .map(|mut line| {
            if line["game"] == 2 {
                line.as_object_mut().unwrap().remove("record");
            }
            line.to_string()
        })
        .collect();
    fs::write(&file, lines.join("\n") + "\n").unwrap();
    report_saying(
        &file,
        &dir.path().join("out/m.html"),
        "(4 games; 3 replay pages in ",
    );
    let pages = dir.path().join("out/m-replays");
    assert!(!pages.join("game-000002.html").exists());
    let report = json!("../m.html");
    assert_eq!(
        page_links(&pages, 1),
        [page_link(0), page_link(3), report.clone()]
    );
    assert_eq!(
        page_links(&pages, 3),
        [page_link(1), Value::Null, report.clone()]
    );

    // A page written alone links to the pages beside it only under its game's name, and to
    // the report only where the report's layout puts it.
    write_game_page(&file, 1, None, &pages.join("game-000001.html"));
    assert_eq!(page_links(&pages, 1), [page_link(0), page_link(3), report]);
    let page = fs::read_to_string(pages.join("game-000001.html")).unwrap();
    assert_eq!(context_of_page(&page)["source"], file.to_str().unwrap());
    let none = [Value::Null, Value::Null, Value::Null];
    let renamed = pages.join("one.html");
    write_game_page(&file, 1, None, &renamed);
    assert_eq!(links_of(&renamed), none);
    write_game_page(&file, 1, None, &dir.path().join("game-000001.html"));
    assert_eq!(page_links(dir.path(), 1), none);
}

#[test]
fn a_report_of_a_missing_results_file_is_an_error() {
    let dir = TempDir::new().unwrap();
    let missing = dir.path().join("none.jsonl");
    let failed = write_report(&missing, &dir.path().join("r.html"));
    assert_eq!(failed.code, Some(1));
    assert!(failed.stderr.contains("none.jsonl"), "{}", failed.stderr);
    assert!(!dir.path().join("r.html").exists());
}

/// The engines of the tournament tests: two random players and greedy, each answering at
/// once.
const TRIO: [(&str, &str); 3] = [
    ("r1", "random --seed 1"),
    ("r2", "random --seed 2"),
    ("greedy", "greedy"),
];

/// The arguments of a tournament of `engines` (name, command) with `games` games per pairing
/// at time control `tc`, its results in `dir/results.jsonl` and its replays in `dir/replays`.
fn tournament_args(
    dir: &Path,
    engines: &[(&str, &str)],
    games: &str,
    tc: &str,
    extra: &[&str],
) -> Vec<String> {
    let mut args: Vec<String> = ["arena", "--games", games, "--tc", tc]
        .map(String::from)
        .into();
    for (name, command) in engines {
        args.extend([
            "--engine".into(),
            format!("name={name}"),
            format!("cmd={command}"),
        ]);
    }
    for (flag, path) in [("--results", "results.jsonl"), ("--replays", "replays")] {
        args.extend([flag.to_string(), dir.join(path).display().to_string()]);
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// A tournament of `engines` with no clock (see [`tournament_args`]).
fn try_tournament(dir: &Path, engines: &[(&str, &str)], games: &str, extra: &[&str]) -> Run {
    try_tournament_at(dir, engines, games, "none", extra)
}

/// A tournament of `engines` at time control `tc` (see [`tournament_args`]).
fn try_tournament_at(
    dir: &Path,
    engines: &[(&str, &str)],
    games: &str,
    tc: &str,
    extra: &[&str],
) -> Run {
    let args = tournament_args(dir, engines, games, tc, extra);
    run(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

fn tournament(dir: &Path, engines: &[(&str, &str)], games: &str, extra: &[&str]) -> Run {
    tournament_at(dir, engines, games, "none", extra)
}

fn tournament_at(
    dir: &Path,
    engines: &[(&str, &str)],
    games: &str,
    tc: &str,
    extra: &[&str],
) -> Run {
    let played = try_tournament_at(dir, engines, games, tc, extra);
    played.assert_ok();
    played
}

/// A game line's pairing (its engines' names, p0's first) and game.
fn pairing_game(line: &Value) -> (String, String, u64) {
    let name = |p: usize| line["engines"][p].as_str().unwrap().to_string();
    (name(0), name(1), line["game"].as_u64().unwrap())
}

/// Points as the standings show them: `2`, `1.5`.
fn points_text(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{points:.0}")
    } else {
        format!("{points:.1}")
    }
}

/// What engine `a` scored against engine `b` in `lines`, and in how many games.
fn score_between(lines: &[Value], a: &str, b: &str) -> (f64, u64) {
    let mut points = 0.0;
    let mut games = 0;
    for line in lines {
        let engines = [&line["engines"][0], &line["engines"][1]];
        let Some(seat) = engines.iter().position(|e| *e == a) else {
            continue;
        };
        if engines[1 - seat] != b {
            continue;
        }
        games += 1;
        points += match line["winner"].as_u64() {
            Some(w) if w == seat as u64 => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    (points, games)
}

/// The cross table of standings `text`: each (row, column) engine pair's cell.
fn cross_table(text: &str) -> BTreeMap<(String, String), String> {
    let mut lines = text.lines().skip_while(|l| !l.starts_with("Cross table"));
    lines.next().expect("a cross table");
    let columns: Vec<String> = lines
        .next()
        .unwrap()
        .split_whitespace()
        .map(String::from)
        .collect();
    let rows: Vec<Vec<String>> = lines
        .map(|row| row.split_whitespace().map(String::from).collect())
        .collect();
    cells_by_pair(&columns, &rows)
}

/// The cross table of a report page, as [`cross_table`] reads it from text.
fn cross_table_of_page(html: &str) -> BTreeMap<(String, String), String> {
    let rows = page_table(html, "cross");
    // The header's first cell, above the rows' engines, is empty.
    cells_by_pair(&rows[0][1..], &rows[1..])
}

/// Each (row, column) engine pair's cell of a cross table's `rows`, each its engine first.
fn cells_by_pair(columns: &[String], rows: &[Vec<String>]) -> BTreeMap<(String, String), String> {
    let mut table = BTreeMap::new();
    for cells in rows {
        assert_eq!(cells.len(), columns.len() + 1, "{cells:?}");
        for (column, cell) in columns.iter().zip(&cells[1..]) {
            table.insert((cells[0].clone(), column.clone()), cell.clone());
        }
    }
    table
}

/// The table `id` of a report page, up to its end.
fn table_html<'h>(html: &'h str, id: &str) -> &'h str {
    let start = html
        .find(&format!("<table id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no table {id}"));
    let end = start + html[start..].find("</table>").unwrap();
    &html[start..end]
}

/// The rows of cells, its header first, of the table `id` of a report page.
fn page_table(html: &str, id: &str) -> Vec<Vec<String>> {
    table_html(html, id)
        .split("<tr>")
        .skip(1)
        .map(|row| {
            // `<th>Rank</th><th class="left">Engine</th>...`: each cell's text follows its tag.
            row.split("<t")
                .skip(1)
                .map(|cell| {
                    let text = &cell[cell.find('>').unwrap() + 1..];
                    text[..text.find("</").unwrap()].to_string()
                })
                .collect()
        })
        .collect()
}

/// Asserts that the cross table and the ranking of standings `text` count the games of
/// `lines` between `engines`.
fn assert_standings_count(text: &str, lines: &[Value], engines: &[&str]) {
    let table = cross_table(text);
    assert_eq!(table.len(), engines.len() * engines.len(), "{text}");
    for a in engines {
        let (mut points, mut games) = (0.0, 0);
        for b in engines {
            let cell = &table[&(a.to_string(), b.to_string())];
            if a == b {
                assert_eq!(cell, "-");
                continue;
            }
            let (scored, met) = score_between(lines, a, b);
            let expected = match met {
                0 => ".".to_string(),
                n => format!("{}/{n}", points_text(scored)),
            };
            assert_eq!(*cell, expected, "{a} against {b}:\n{text}");
            points += scored;
            games += met;
        }
        let row = ranking_row(text, a);
        assert_eq!(row[4], games.to_string(), "{text}");
        assert_eq!(row[5], points_text(points), "{text}");
    }
}

/// The ranking of standings `text` as rows of cells, its header first: rank, engine, Elo,
/// its interval, games, points, score, thinking time per game (columns are two spaces apart
/// at least; a cell such as `12.8 ms` has one).
fn ranking_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip_while(|l| !l.starts_with("Rank "))
        .take_while(|l| !l.starts_with("Elo: "))
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|cell| !cell.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// The row of `engine` in the ranking of standings `text`.
fn ranking_row(text: &str, engine: &str) -> Vec<String> {
    ranking_rows(text)
        .into_iter()
        .skip(1)
        .find(|cells| cells[1] == engine)
        .unwrap_or_else(|| panic!("no ranking row for {engine}:\n{text}"))
}

/// Asserts that the ranking of standings `text` gives each engine an Elo: `reference` 0 by
/// definition, each other a number with its interval or, with no finite estimate, +inf or
/// -inf without one; the engines ranked from the highest Elo down.
fn assert_elo_per_engine(text: &str, engines: &[&str], reference: &str) {
    let rows = ranking_rows(text);
    assert_eq!(rows.len(), engines.len() + 1, "{text}");
    let mut ranked = Vec::new();
    for engine in engines {
        let row = ranking_row(text, engine);
        let elo: f64 = row[2]
            .parse()
            .unwrap_or_else(|_| panic!("Elo of {engine}:\n{text}"));
        if *engine == reference {
            assert_eq!(row[2..4], ["0.0", "ref"], "{text}");
        } else if elo.is_finite() {
            let interval = row[3].parse::<f64>();
            assert!(interval.is_ok_and(|e| e > 0.0), "{engine}:\n{text}");
        } else {
            assert_eq!(row[3], "-", "{engine}:\n{text}");
        }
        ranked.push((row[0].parse::<usize>().unwrap(), elo));
    }
    ranked.sort_by_key(|&(rank, _)| rank);
    assert!(
        ranked.windows(2).all(|pair| pair[0].1 >= pair[1].1),
        "ranked by Elo:\n{text}"
    );
}

#[test]
fn a_round_robin_plays_every_pairing_as_a_match_of_the_two_would() {
    let dir = TempDir::new().unwrap();
    let played = tournament(dir.path(), &TRIO, "2", &["-j", "2"]);
    let file = dir.path().join("results.jsonl");
    let lines = results(&file);
    let games: BTreeSet<(String, String, u64)> = lines.iter().map(pairing_game).collect();
    let mut expected = BTreeSet::new();
    for (a, b) in [("r1", "r2"), ("r1", "greedy"), ("r2", "greedy")] {
        for game in 0..2 {
            expected.insert((a.to_string(), b.to_string(), game));
            let replay = format!("replays/{a}-vs-{b}/game-{game:06}.json");
            assert!(dir.path().join(&replay).is_file(), "{replay}");
        }
    }
    assert_eq!((lines.len(), games), (6, expected));
    let commands: BTreeMap<&str, &str> = TRIO.into_iter().collect();
    for line in &lines {
        assert_eq!(line["players"], line["engines"], "{line}");
        let run = &line["run"];
        assert_eq!(
            run["tournament"],
            serde_json::json!({"kind": "round-robin", "engines": ["r1", "r2", "greedy"]})
        );
        for p in 0..2 {
            let engine = line["engines"][p].as_str().unwrap();
            assert_eq!(run["commands"][p], commands[engine], "{line}");
        }
    }

    // A pairing's games are those a match of its two engines plays on the same seed.
    let single = TempDir::new().unwrap();
    match_between(
        single.path(),
        ["random --seed 1", "greedy"],
        "2",
        "none",
        &[],
    );
    for matched in results(&single.path().join("out/results.jsonl")) {
        let game = matched["game"].as_u64().unwrap();
        let paired = lines
            .iter()
            .find(|l| pairing_game(l) == ("r1".into(), "greedy".into(), game))
            .unwrap();
        for field in ["seed", "winner", "turn", "scores"] {
            assert_eq!(paired[field], matched[field], "game {game}: {field}");
        }
        assert_eq!(paired["record"]["moves"], matched["record"]["moves"]);
    }

    // The standings printed at the end are `stats`'s, and they count the games' lines.
    let stats = run(&["arena", "stats", file.to_str().unwrap()]);
    stats.assert_ok();
    assert_eq!(stats.stdout, played.stdout);
    assert!(
        stats
            .stdout
            .starts_with("Round robin: 3 engines, 6 games\n"),
        "{}",
        stats.stdout
    );
    assert!(
        !stats.stderr.contains("different matches"),
        "{}",
        stats.stderr
    );
    assert_standings_count(&stats.stdout, &lines, &["r1", "r2", "greedy"]);
    let reference = stats
        .stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|cells| cells.get(1) == Some(&"r1"))
        .unwrap();
    assert_eq!(reference[2..4], ["0.0", "ref"], "{}", stats.stdout);

    // The report has the standings, and a replay page per game in its pairing's directory.
    let page = dir.path().join("report.html");
    report_saying(&file, &page, "(6 games; 6 replay pages in ");
    let html = fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<h1>Round robin: r1, r2, greedy</h1>"),
        "{html}"
    );
    assert!(html.contains("<table id=\"cross\">"));
    assert!(html.contains("<a href=\"report-replays/r2-vs-greedy/game-000001.html\">"));
    // A page links to the games before and after it of its own pairing, and to the report
    // two directories up; so does one written alone in its pairing's directory.
    let pages = dir.path().join("report-replays/r1-vs-r2");
    let report = json!("../../report.html");
    assert_eq!(
        page_links(&pages, 0),
        [Value::Null, page_link(1), report.clone()]
    );
    let last = [page_link(0), Value::Null, report];
    assert_eq!(page_links(&pages, 1), last);
    fs::remove_file(pages.join("game-000001.html")).unwrap();
    write_game_page(&file, 1, Some("r1-vs-r2"), &pages.join("game-000001.html"));
    assert_eq!(page_links(&pages, 1), last);
}

/// The field a contestant ranks a build in: ysai, its rush sparring partner and greedy,
/// ysai's players thinking on one thread for the shortest turn they accept (a game takes a
/// tenth of a second or so).
fn quick_field() -> [(&'static str, String); 3] {
    let quick = format!("--turn-ms {MIN_TURN_MS} --threads 1");
    [
        ("ysai", format!("self {quick}")),
        ("rush", format!("self --ai rush {quick}")),
        ("greedy", "greedy".to_string()),
    ]
}

/// How many whole lines `file` holds (none if it does not exist yet).
fn finished_lines(file: &Path) -> usize {
    fs::read(file).map_or(0, |bytes| bytes.iter().filter(|&&b| b == b'\n').count())
}

#[test]
fn a_round_robin_of_ysai_rush_and_greedy_at_a_short_time_control_resumes_after_ctrl_c() {
    let dir = TempDir::new().unwrap();
    let field = quick_field();
    let engines: Vec<(&str, &str)> = field.iter().map(|(n, c)| (*n, c.as_str())).collect();
    let names: Vec<&str> = engines.iter().map(|(name, _)| *name).collect();
    let file = dir.path().join("results.jsonl");
    let one_at_a_time = ["-j", "1"];

    // Stopped by Ctrl-C as soon as its first game is written.
    let args = tournament_args(dir.path(), &engines, "2", FAST_TC, &one_at_a_time);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let stopped = interrupted_once(&args, || finished_lines(&file) > 0);
    assert_eq!(stopped.code, Some(130), "{}", stopped.stderr);
    let kept = results(&file);
    assert!((1..6).contains(&kept.len()), "{} games kept", kept.len());

    // The same command plays the other games, and only them.
    let resumed = tournament_at(dir.path(), &engines, "2", FAST_TC, &one_at_a_time);
    let told = format!(
        "{} game(s) already in the results file, {} to play",
        kept.len(),
        6 - kept.len()
    );
    assert!(resumed.stderr.contains(&told), "{}", resumed.stderr);
    let lines = results(&file);
    assert_eq!(lines[..kept.len()], kept[..]);
    let games: BTreeSet<(String, String, u64)> = lines.iter().map(pairing_game).collect();
    let pairings = [("ysai", "rush"), ("ysai", "greedy"), ("rush", "greedy")];
    let expected: BTreeSet<(String, String, u64)> = pairings
        .iter()
        .flat_map(|(a, b)| (0..2).map(|game| (a.to_string(), b.to_string(), game)))
        .collect();
    assert_eq!((lines.len(), games), (6, expected));
    for line in &lines {
        assert_eq!(line["run"]["tc"], FAST_TC, "{line}");
    }

    // It ends with the standings of every game, before Ctrl-C and after: the cross table and
    // an Elo per engine, relative to the first.
    assert!(
        resumed
            .stdout
            .starts_with("Round robin: 3 engines, 6 games\n"),
        "{}",
        resumed.stdout
    );
    assert_standings_count(&resumed.stdout, &lines, &names);
    assert_elo_per_engine(&resumed.stdout, &names, "ysai");

    // The report draws the same ranking and cross table, and a page per game.
    let page = dir.path().join("report.html");
    report_saying(&file, &page, "(6 games; 6 replay pages in ");
    let html = fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<h1>Round robin: ysai, rush, greedy</h1>"),
        "{html}"
    );
    assert_eq!(page_table(&html, "ranking"), ranking_rows(&resumed.stdout));
    assert_eq!(cross_table_of_page(&html), cross_table(&resumed.stdout));
}

#[test]
fn a_tournament_resumes_without_playing_a_game_twice() {
    let dir = TempDir::new().unwrap();
    tournament(dir.path(), &TRIO, "2", &[]);
    let file = dir.path().join("results.jsonl");
    let full = results(&file);
    let again = tournament(dir.path(), &TRIO, "2", &[]);
    assert!(
        again
            .stderr
            .contains("6 game(s) already in the results file, 0 to play"),
        "{}",
        again.stderr
    );
    assert_eq!(results(&file), full);

    // Two games lost (of two pairings): only they are played again, as they were.
    let kept: String = fs::read_to_string(&file)
        .unwrap()
        .lines()
        .enumerate()
        .filter(|&(i, _)| i != 1 && i != 5)
        .map(|(_, line)| format!("{line}\n"))
        .collect();
    fs::write(&file, kept).unwrap();
    let resumed = tournament(dir.path(), &TRIO, "2", &[]);
    assert!(
        resumed
            .stderr
            .contains("4 game(s) already in the results file, 2 to play"),
        "{}",
        resumed.stderr
    );
    let key = |lines: &[Value]| -> BTreeMap<(String, String, u64), Value> {
        lines
            .iter()
            .map(|l| (pairing_game(l), l["record"]["moves"].clone()))
            .collect()
    };
    let now = results(&file);
    assert_eq!(now.len(), 6);
    assert_eq!(key(&now), key(&full));

    // More games per pairing: only the new ones.
    let longer = tournament(dir.path(), &TRIO, "3", &[]);
    assert!(longer
        .stderr
        .contains("6 game(s) already in the results file, 3 to play"));
    assert_eq!(results(&file).len(), 9);

    // An engine rebuilt between the runs is refused, whichever pairing recorded it.
    let mut lines = results(&file);
    let build = lines[0]["names"][1].as_str().unwrap().to_string();
    let changed = lines.iter_mut().find(|l| l["engines"][1] == "r2").unwrap();
    changed["names"][1] = Value::from("ysai-0.0.0-other");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    fs::write(&file, text).unwrap();
    let refused = try_tournament(dir.path(), &TRIO, "4", &[]);
    assert_eq!(refused.code, Some(1), "{}", refused.stderr);
    assert!(
        refused.stderr.contains(&format!(
            "engine r2 (`random --seed 2`) is build `{build}`, but the match's earlier games were played by build `ysai-0.0.0-other`"
        )),
        "{}",
        refused.stderr
    );
    assert_eq!(results(&file).len(), 9);

    // Another engine under a name the file knows is another tournament.
    let renamed = [TRIO[0], ("r2", "random --seed 9"), TRIO[2]];
    let other = try_tournament(dir.path(), &renamed, "3", &[]);
    assert_eq!(other.code, Some(1));
    assert!(other.stderr.contains("another match"), "{}", other.stderr);
}

#[test]
fn a_tournament_played_in_shards_sums_up_as_the_whole_tournament() {
    let whole = TempDir::new().unwrap();
    let played = tournament(whole.path(), &TRIO, "2", &[]);
    let shards: Vec<TempDir> = (0..2).map(|_| TempDir::new().unwrap()).collect();
    let mut files = Vec::new();
    for (k, shard) in shards.iter().enumerate() {
        tournament(
            shard.path(),
            &TRIO,
            "2",
            &["--shard", &format!("{}/2", k + 1)],
        );
        files.push(shard.path().join("results.jsonl").display().to_string());
    }
    let games: Vec<(String, String, u64)> = files
        .iter()
        .flat_map(|file| results(Path::new(file)))
        .map(|line| pairing_game(&line))
        .collect();
    let whole_games: BTreeSet<(String, String, u64)> = results(&whole.path().join("results.jsonl"))
        .iter()
        .map(pairing_game)
        .collect();
    assert_eq!(games.len(), 6, "{games:?}");
    assert_eq!(games.into_iter().collect::<BTreeSet<_>>(), whole_games);

    // The shards' files sum up as the whole tournament's standings: the same ranking (but
    // for the thinking time, measured anew) and cross table.
    let merged = run(&["arena", "stats", &files[0], &files[1]]);
    merged.assert_ok();
    let ranking = |text: &str| -> Vec<Vec<String>> {
        let mut rows = ranking_rows(text);
        for row in &mut rows {
            row.pop();
        }
        rows
    };
    assert_eq!(ranking(&merged.stdout), ranking(&played.stdout));
    assert_eq!(cross_table(&merged.stdout), cross_table(&played.stdout));
    assert!(
        merged
            .stdout
            .starts_with("Round robin: 3 engines, 6 games\n"),
        "{}",
        merged.stdout
    );
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_each_other() {
    let dir = TempDir::new().unwrap();
    let engines = [
        ("greedy", "greedy"),
        ("r1", "random --seed 1"),
        ("r2", "random --seed 2"),
        ("r3", "random --seed 3"),
    ];
    let played = tournament(dir.path(), &engines, "1", &["--tournament", "gauntlet"]);
    let file = dir.path().join("results.jsonl");
    let lines = results(&file);
    let games: Vec<(String, String, u64)> = lines.iter().map(pairing_game).collect();
    assert_eq!(
        games,
        ["r1", "r2", "r3"].map(|r| ("greedy".to_string(), r.to_string(), 0))
    );
    assert!(
        played.stdout.starts_with("Gauntlet: 4 engines, 3 games\n"),
        "{}",
        played.stdout
    );
    assert_standings_count(&played.stdout, &lines, &["greedy", "r1", "r2", "r3"]);
    assert_eq!(
        cross_table(&played.stdout)[&("r1".into(), "r3".into())],
        "."
    );

    // Every pairing has a game 0: a replay names its pairing.
    let replay = |extra: &[&str]| {
        let mut args = vec!["arena", "replay", file.to_str().unwrap(), "--game", "0"];
        args.extend_from_slice(extra);
        run(&args)
    };
    let unnamed = replay(&[]);
    assert_eq!(unnamed.code, Some(1));
    assert!(
        unnamed
            .stderr
            .contains("name one with --pairing (greedy-vs-r1, greedy-vs-r2, greedy-vs-r3)"),
        "{}",
        unnamed.stderr
    );
    let named = replay(&["--pairing", "greedy-vs-r2"]);
    named.assert_ok();
    assert!(
        named.stdout.contains("re-simulates exactly"),
        "{}",
        named.stdout
    );
    let missing = replay(&["--pairing", "r1-vs-r2"]);
    assert!(missing.stderr.contains("no game 0 of pairing r1-vs-r2"));

    // A tournament has no SPRT.
    let sprt = run(&[
        "arena",
        "stats",
        file.to_str().unwrap(),
        "--sprt",
        "elo0=0,elo1=5",
    ]);
    assert_eq!(sprt.code, Some(1));
    assert!(
        sprt.stderr.contains(
            "--sprt tests a match of two engines; these results are a tournament of 4 engines"
        ),
        "{}",
        sprt.stderr
    );
}

#[test]
fn two_named_engines_play_a_match_under_their_names() {
    let dir = TempDir::new().unwrap();
    let engines = [("g", "greedy"), ("r", "random --seed 5")];
    let played = tournament(
        dir.path(),
        &engines,
        "2",
        &["--each", "--threads 1", "--sprt", "elo0=0,elo1=10"],
    );
    assert!(
        played.stdout.starts_with("Games: 2  Wins: "),
        "{}",
        played.stdout
    );
    assert!(
        played.stdout.contains("SPRT: elo0=0 elo1=10"),
        "{}",
        played.stdout
    );
    let lines = results(&dir.path().join("results.jsonl"));
    for line in &lines {
        assert_eq!(line["engines"], serde_json::json!(["g", "r"]));
        assert_eq!(line["players"], line["engines"]);
        assert_eq!(
            line["run"]["commands"],
            serde_json::json!(["greedy --threads 1", "random --seed 5 --threads 1"])
        );
        assert!(line["run"].get("tournament").is_none(), "{line}");
    }
    assert!(dir.path().join("replays/game-000001.json").is_file());
}

#[test]
fn bad_engines_and_tournaments_give_clear_errors() {
    let engine = |name: &str, command: &str| {
        vec![
            "--engine".to_string(),
            format!("name={name}"),
            format!("cmd={command}"),
        ]
    };
    let with = |engines: &[&Vec<String>], extra: &[&str]| -> Vec<String> {
        let mut args = vec!["arena".to_string()];
        args.extend(engines.iter().copied().flatten().cloned());
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let (a, b, c) = (
        engine("a", "greedy"),
        engine("b", "random"),
        engine("c", "random --seed 2"),
    );
    let cases: Vec<(Vec<String>, i32, &str)> = vec![
        (with(&[&a], &[]), 1, "1 engine given; a match needs two"),
        (
            with(&[&a, &b], &["--tournament", "gauntlet"]),
            1,
            "--tournament gauntlet needs three or more engines",
        ),
        (
            with(&[&a, &engine("a", "random"), &c], &[]),
            1,
            "two engines are named `a`",
        ),
        (
            with(&[&a, &b, &c], &["--sprt", "elo0=0,elo1=5"]),
            1,
            "--sprt tests a match of two engines",
        ),
        (
            with(&[&a, &engine("", "random")], &[]),
            1,
            "the engine has no name",
        ),
        (
            with(&[&a, &engine("b", " ")], &[]),
            1,
            "engine `b` has no command",
        ),
        (
            with(&[&a, &engine("b c", "random")], &[]),
            1,
            "the name `b c` has ` `",
        ),
        (
            with(&[&a], &["--engine", "name=b", "random"]),
            1,
            "`random` is not KEY=VALUE",
        ),
        (
            with(&[&a], &["--engine", "name=b"]),
            2,
            "2 values required for '--engine",
        ),
        (
            with(&[&a, &b], &["--p0", "greedy"]),
            2,
            "cannot be used with",
        ),
        (
            with(
                &[],
                &[
                    "--p0",
                    "greedy",
                    "--p1",
                    "random",
                    "--tournament",
                    "round-robin",
                ],
            ),
            1,
            "--p0 and --p1 play a match of two",
        ),
        (
            with(&[&a, &b, &c], &["--tournament", "knockout"]),
            2,
            "knockout",
        ),
    ];
    for (args, code, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let failed = run(&args);
        assert_eq!(failed.code, Some(code), "{args:?}: {}", failed.stderr);
        assert!(
            failed.stderr.contains(needle),
            "{args:?}: {}",
            failed.stderr
        );
    }
}
