//! After every game, whatever the players did, the referee leaves no child process (zombie or
//! not) and no open pipe behind. One test in its own binary, so that no other test's
//! processes or files are counted.

use std::fs;
use std::thread;
use std::time::Duration;

use ysai::arena::packs::{generate, Signature};
use ysai::arena::referee::{play_game, GameSetup, Reason, ThinkingOrder, TimeControl};

/// Open file descriptors of this process.
fn open_fds() -> usize {
    fs::read_dir("/proc/self/fd").map_or(0, |d| d.count())
}

/// Child processes of any thread of this process (zombies included).
fn children() -> Vec<String> {
    let mut all = Vec::new();
    for task in fs::read_dir("/proc/self/task").unwrap().flatten() {
        let list = fs::read_to_string(task.path().join("children")).unwrap_or_default();
        all.extend(list.split_whitespace().map(String::from));
    }
    all
}

/// A player that answers `0 0` until turn 1, then does `bad`.
fn player(bad: &str) -> String {
    format!(
        "echo p; i=0; while [ $i -lt 1500 ]; do read -r l || exit 0; i=$((i+1)); done; t=0; \
         while :; do n=0; while [ $n -lt 43 ]; do read -r l || exit 0; n=$((n+1)); done; \
         if [ $t -eq 1 ]; then {bad}; else echo '0 0'; fi; t=$((t+1)); done"
    )
}

#[cfg(target_os = "linux")]
#[test]
fn no_process_or_pipe_outlives_a_game() {
    let packs = generate(1, Signature::Measured);
    let tc = TimeControl {
        game_ms: Some(10_000),
        turn_ms: Some(300),
    };
    let cases = [
        (player("sleep 30 & sleep 30; wait"), Reason::Timeout),
        (player("exit 3"), Reason::Crash),
        (player("echo junk"), Reason::BadOutput),
        (player("exec 1>&-; sleep 30"), Reason::Crash),
        ("yes 'not a name/'".to_string(), Reason::BadName),
    ];
    let opponent = player("echo '1 0'; sleep 0");
    let fds_before = open_fds();
    for (command, reason) in &cases {
        let setup = GameSetup {
            packs: &packs,
            commands: [command, &opponent],
            tc,
            order: ThinkingOrder::Sequential,
            stderr: [None, None],
            max_turns: 500,
        };
        let record = play_game(&setup, &|| false).unwrap();
        assert_eq!(record.result.losers[0], Some(*reason), "{command}");
        assert_eq!(children(), Vec::<String>::new(), "after {command}");
    }
    // The pipe threads close their ends as soon as the children are gone.
    let mut fds = open_fds();
    for _ in 0..100 {
        if fds <= fds_before {
            break;
        }
        thread::sleep(Duration::from_millis(20));
        fds = open_fds();
    }
    assert!(fds <= fds_before, "{fds} open files, {fds_before} before");
}
