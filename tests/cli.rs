//! End-to-end tests of the `ysai` binary: recorded games and malformed input on stdin, the
//! answers on stdout, errors on stderr, exit codes, the command line and `selfcheck`.

mod common;
use common::{data, load, recorded_state};

use std::fs::{self, File};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::thread;

use ysai::protocol::{format_game_start, format_turn, read_all, Game, TurnInput, FIELD_HEIGHT};
use ysai::sim::{play_turn, Action, PlayerState, PreparedPack, Shift, PACKS_PER_GAME};

/// The name line the binary prints before anything else.
const NAME: &str = ysai::play::NAME;

const GAME_21: &str = "game-21turns.stdin.txt";
const GAMES_54: &str = "games54.stdin.txt";

/// Lines of a game-start block: per pack, two rows and `END`.
const GAME_START_LINES: usize = 3 * PACKS_PER_GAME;
/// Lines of one player's part of a turn block: 4 numbers, the field rows and `END`.
const PLAYER_LINES: usize = 4 + FIELD_HEIGHT + 1;
/// Lines of a turn block: the turn number, then both players.
const TURN_LINES: usize = 1 + 2 * PLAYER_LINES;

// Offsets of lines inside a turn block (0 = the turn number).
const MY_TIME: usize = 1;
const MY_FIRST_ROW: usize = 5;
const MY_END: usize = MY_FIRST_ROW + FIELD_HEIGHT;
const OPPONENT_FIRST_ROW: usize = 1 + PLAYER_LINES + 4;

/// The turn the malformed-input tests corrupt; the turns before it must still be answered.
const BAD_TURN: usize = 2;
/// Turns written into the malformed inputs (some follow the bad one).
const MALFORMED_TURNS: usize = 4;
/// The default AI with a second per answer, for tests of how input is read rather than of
/// what the AI plays: its first turns would otherwise plan for many seconds each.
const QUICK_DEFAULT: [&str; 2] = ["--turn-ms", "1000"];

/// What one run of the binary printed and how it ended.
struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
}

impl From<Output> for Run {
    fn from(output: Output) -> Self {
        Run {
            stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
            stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
            code: output.status.code(),
        }
    }
}

impl Run {
    /// The lines after the name line, which must come first.
    fn answers(&self) -> Vec<&str> {
        let mut lines = self.stdout.lines();
        assert_eq!(
            lines.next(),
            Some(NAME),
            "first line; stdout:\n{}",
            self.stdout
        );
        lines.collect()
    }

    fn stderr_lines(&self) -> Vec<&str> {
        self.stderr.lines().collect()
    }

    /// The flags of the `-tm` parameter line, which must come first on stderr.
    fn parameter_flags(&self) -> Vec<&str> {
        let first = self.stderr.lines().next().unwrap_or_default();
        let flags = first.strip_prefix("Param: ");
        let flags = flags.unwrap_or_else(|| panic!("no parameter line; stderr:\n{}", self.stderr));
        flags.split_whitespace().collect()
    }

    /// The `-tm` lines after the parameter line.
    fn turn_lines(&self) -> Vec<&str> {
        assert!(!self.parameter_flags().is_empty());
        self.stderr.lines().skip(1).collect()
    }

    fn assert_no_panic(&self) {
        assert!(
            !self.stderr.contains("panicked"),
            "panic; stderr:\n{}",
            self.stderr
        );
    }

    /// Exit 0 with nothing on stderr.
    fn assert_clean(&self) {
        self.assert_no_panic();
        assert_eq!(self.code, Some(0), "exit code; stderr:\n{}", self.stderr);
        assert_eq!(self.stderr, "", "stderr");
    }
}

fn ysai(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ysai"));
    command.args(args);
    command
}

/// Runs the binary with a recorded file as stdin.
fn run_file(args: &[&str], name: &str) -> Run {
    let file = File::open(data(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let output = ysai(args).stdin(file).output().expect("ysai runs");
    Run::from(output)
}

/// Runs the binary with `input` as stdin.
fn run_input(args: &[&str], input: impl Into<Vec<u8>>) -> Run {
    let mut child = ysai(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ysai starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.into();
    // Written from another thread so that a full stdout pipe cannot deadlock the test; the
    // binary stops reading at bad input, so a broken pipe here is expected and ignored.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("ysai runs");
    writer.join().expect("stdin writer");
    Run::from(output)
}

/// The server's text for one game: its packs, then its turns.
fn game_text(game: &Game) -> String {
    let mut text = format_game_start(&game.packs);
    for turn in &game.turns {
        text.push_str(&format_turn(turn));
    }
    text
}

/// `x r` (x in 0..=8, r in 0..=3) or `S`, exactly as the protocol spells them.
fn parse_answer(line: &str) -> Option<Action> {
    if line == "S" {
        return Some(Action::Skill);
    }
    let (x, rot) = line.split_once(' ')?;
    let digit = |s: &str, max: u8| match s.as_bytes() {
        [d @ b'0'..=b'9'] if d - b'0' <= max => Some(d - b'0'),
        _ => None,
    };
    Some(Action::Drop {
        x: digit(x, 8)?,
        rot: digit(rot, 3)?,
    })
}

/// The answer is a well-formed action, and the skill only with the gauge the input showed.
fn assert_legal(answer: &str, turn: &TurnInput) -> Action {
    let action = parse_answer(answer)
        .unwrap_or_else(|| panic!("turn {}: malformed answer {answer:?}", turn.turn));
    if action == Action::Skill {
        let gauge = turn.players[0].gauge;
        assert!(gauge >= 80, "turn {}: skill with gauge {gauge}", turn.turn);
    }
    action
}

/// One legal answer per turn of `games`, in order.
fn assert_plays(run: &Run, games: &[Game]) {
    run.assert_clean();
    let turns: Vec<&TurnInput> = games.iter().flat_map(|g| &g.turns).collect();
    let answers = run.answers();
    assert_eq!(answers.len(), turns.len(), "one answer per turn");
    for (answer, turn) in answers.iter().zip(turns) {
        assert_legal(answer, turn);
    }
}

fn first_game_of_54() -> (Game, String) {
    let game = load(GAMES_54).swap_remove(0);
    let text = game_text(&game);
    (game, text)
}

/// The original's flags that do nothing here are accepted and named once on stderr.
#[test]
fn compatibility_flags_are_accepted_and_reported() {
    let run = run_file(&["--ai", "greedy", "-sc", "-bx", "3", "-nubhm"], GAME_21);
    assert_eq!(run.answers().len(), 21);
    assert_eq!(
        run.stderr_lines(),
        ["ysai: note: -sc -bx -nubhm are accepted for compatibility with the original and do nothing here"]
    );
    let aitype = run_file(
        &[&QUICK_DEFAULT[..], &["-ai", "1", "-t", "0"]].concat(),
        GAME_21,
    );
    assert_eq!(aitype.answers().len(), 1);
    assert_eq!(
        aitype.stderr_lines(),
        ["ysai: note: -ai 1 is accepted for compatibility with the original and does nothing here"]
    );
}

#[test]
fn plays_a_recorded_game() {
    let games = load(GAME_21);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].turns.len(), 21);
    let run = run_file(&["--ai", "greedy", "-bw", "5000", "-bcw", "1500"], GAME_21);
    assert_eq!(run.answers().len(), 21);
    // The search flags are accepted and reported as unused by the baseline player.
    assert_eq!(
        run.stderr_lines(),
        ["ysai: note: the greedy player does not use -bw -bcw; they configure other players or styles"]
    );
    let quiet = run_file(&["--ai", "greedy"], GAME_21);
    assert_eq!(quiet.stdout, run.stdout);
    assert_plays(&quiet, &games);
}

#[test]
fn every_snapshot_gets_one_answer() {
    let dir = data("snapshots");
    let mut names: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("snapshots directory")
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    names.sort();
    assert_eq!(names.len(), 7);
    for path in names {
        let text = fs::read_to_string(&path).expect("snapshot is text");
        let games = read_all(text.as_bytes()).expect("snapshot parses");
        assert_eq!(games.len(), 1, "{}", path.display());
        assert_eq!(games[0].turns.len(), 1, "{}", path.display());
        // Only some recorded snapshots end with a newline; both forms must be answered.
        let unterminated = text.strip_suffix('\n').unwrap_or(&text);
        // The flags' defaults for the snapshot as recorded; the other form tests the reading.
        for (args, input) in [(&[][..], text.as_str()), (&QUICK_DEFAULT[..], unterminated)] {
            let run = run_input(args, input);
            assert_plays(&run, &games);
        }
    }
}

#[test]
fn plays_every_game_of_one_stream() {
    let games = load(GAMES_54);
    assert_eq!(games.len(), 54);
    let turns: usize = games.iter().map(|g| g.turns.len()).sum();
    assert_eq!(turns, 2035);
    // The protocol loop is under test, not the search: the quick baseline player answers.
    let run = run_file(&["--ai", "greedy"], GAMES_54);
    assert_eq!(run.answers().len(), turns);
    assert_plays(&run, &games);
}

/// Answers of a greedy run over the 54 games, split per game.
fn greedy_answers_per_game(games: &[Game], run: &Run) -> Vec<Vec<String>> {
    let mut answers = run.answers().into_iter().map(str::to_string);
    games
        .iter()
        .map(|g| answers.by_ref().take(g.turns.len()).collect())
        .collect()
}

#[test]
fn game_option_plays_only_that_game() {
    let games = load(GAMES_54);
    let all = run_file(&["--ai", "greedy"], GAMES_54);
    let per_game = greedy_answers_per_game(&games, &all);
    let run = run_file(&["--ai", "greedy", "-g", "3"], GAMES_54);
    assert_plays(&run, &games[3..4]);
    assert_eq!(run.answers().len(), 33);
    // Greedy looks one turn ahead only, so game 3 alone is answered as in the full stream.
    assert_eq!(run.answers(), per_game[3]);
}

#[test]
fn turn_option_answers_only_that_turn() {
    let games = load(GAMES_54);
    let all = run_file(&["--ai", "greedy"], GAMES_54);
    let per_game = greedy_answers_per_game(&games, &all);
    let run = run_file(&["--ai", "greedy", "-t", "5"], GAMES_54);
    run.assert_clean();
    let expected: Vec<&str> = games
        .iter()
        .zip(&per_game)
        .filter_map(|(game, answers)| {
            let index = game.turns.iter().position(|t| t.turn == 5)?;
            Some(answers[index].as_str())
        })
        .collect();
    assert_eq!(expected.len(), 54);
    assert_eq!(run.answers(), expected);
}

#[test]
fn game_and_turn_options_give_one_answer() {
    let games = load(GAMES_54);
    let turn = games[2]
        .turns
        .iter()
        .find(|t| t.turn == 7)
        .expect("game 2 has a turn 7");
    let run = run_file(&["-g", "2", "-t", "7"], GAMES_54);
    run.assert_clean();
    let answers = run.answers();
    assert_eq!(answers.len(), 1);
    assert_legal(answers[0], turn);
}

/// The full AI with the original's turn at small widths and depths, its beams limited by nodes
/// (reproducible, fast).
const SMALL_FULL: [&str; 12] = [
    "--style",
    "original",
    "-bw",
    "200",
    "-bcw",
    "60",
    "-d",
    "2",
    "-ed",
    "2",
    "--beam-nodes",
    "1000",
];

#[test]
fn every_player_and_neighbour_mode_plays_legally() {
    let (game, text) = first_game_of_54();
    let settings: [&[&str]; 5] = [
        &["--ai", "random", "--seed", "1"],
        &["--ai", "greedy"],
        &[
            "--ai", "beam", "-bw", "200", "-bcw", "60", "-bd", "8", "-nbw", "60",
        ],
        &["--neighbours", "table", "--ai", "greedy"],
        &[&["--neighbours", "shift"][..], &SMALL_FULL[..]].concat(),
    ];
    for args in settings {
        let run = run_input(args, text.as_str());
        assert_plays(&run, std::slice::from_ref(&game));
    }
}

#[test]
fn random_player_is_reproducible_from_its_seed() {
    let (_, text) = first_game_of_54();
    let first = run_input(&["--ai", "random", "--seed", "1"], text.as_str());
    let again = run_input(&["--ai", "random", "--seed", "1"], text.as_str());
    let other = run_input(&["--ai", "random", "--seed", "2"], text.as_str());
    first.assert_clean();
    assert_eq!(first.stdout, again.stdout);
    assert_ne!(first.stdout, other.stdout, "the seed changes the moves");
}

#[test]
fn greedy_does_not_depend_on_the_neighbour_mode() {
    let (_, text) = first_game_of_54();
    let table = run_input(&["--ai", "greedy", "--neighbours", "table"], text.as_str());
    let shift = run_input(&["--ai", "greedy", "--neighbours", "shift"], text.as_str());
    table.assert_clean();
    shift.assert_clean();
    assert_eq!(table.stdout, shift.stdout);
}

fn player_state(turn: &TurnInput, player: usize) -> PlayerState {
    recorded_state(&turn.players[player])
}

/// Whether `action` loses the game for player 0 this turn (the opponent cannot change that).
fn loses(turn: &TurnInput, pack: &PreparedPack, action: Action) -> bool {
    let mut players = [player_state(turn, 0), player_state(turn, 1)];
    let outcomes = play_turn::<Shift>(&mut players, pack, [action, Action::drops()[0]]);
    outcomes[0].lost()
}

#[test]
fn greedy_avoids_losing_moves() {
    let mut games = load(GAMES_54);
    for name in ["game-48turns.stdin.txt", "game-17turns.stdin.txt", GAME_21] {
        games.extend(load(name));
    }
    let text: String = games.iter().map(game_text).collect();
    let run = run_input(&["--ai", "greedy"], text);
    run.assert_clean();
    let turns = games
        .iter()
        .flat_map(|g| g.turns.iter().map(move |t| (g, t)));
    let answers = run.answers();
    assert_eq!(answers.len(), turns.clone().count());
    // Turns where some moves lose and others survive: the ones this test is about.
    let mut tested = 0;
    for ((game, turn), answer) in turns.zip(answers) {
        let chosen = assert_legal(answer, turn);
        let pack = PreparedPack::new(game.packs[turn.turn as usize]);
        let me = player_state(turn, 0);
        let (losing, surviving): (Vec<Action>, Vec<Action>) =
            me.legal_actions().partition(|&a| loses(turn, &pack, a));
        if losing.is_empty() || surviving.is_empty() {
            continue;
        }
        tested += 1;
        assert!(
            surviving.contains(&chosen),
            "turn {}: {answer} loses, {} moves survive",
            turn.turn,
            surviving.len()
        );
    }
    // The recorded games hold this many such turns; fewer would leave the check idle.
    assert_eq!(tested, 84);
}

/// The first `MALFORMED_TURNS` turns of the 21-turn game, with turn `BAD_TURN` edited line by
/// line (offsets as in a turn block).
fn malformed_input(edit: impl FnOnce(&mut Vec<String>)) -> String {
    let game = load(GAME_21).swap_remove(0);
    let turns = &game.turns[..MALFORMED_TURNS];
    let mut text = format_game_start(&game.packs);
    turns[..BAD_TURN]
        .iter()
        .for_each(|t| text.push_str(&format_turn(t)));
    let mut lines: Vec<String> = format_turn(&turns[BAD_TURN])
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), TURN_LINES);
    edit(&mut lines);
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    turns[BAD_TURN + 1..]
        .iter()
        .for_each(|t| text.push_str(&format_turn(t)));
    text
}

/// 1-based input line of `offset` in the bad turn's block.
fn bad_turn_line(offset: usize) -> usize {
    GAME_START_LINES + BAD_TURN * TURN_LINES + offset + 1
}

/// Replaces cell `column` of a field row line.
fn set_cell(row: &mut String, column: usize, value: &str) {
    let mut cells: Vec<&str> = row.split(' ').collect();
    cells[column] = value;
    *row = cells.join(" ");
}

/// The binary answered the turns before the bad one, then stopped with one error line that
/// names the input line and contains `expected`, and a failure exit code.
fn assert_input_error(run: &Run, line: usize, expected: &str) {
    run.assert_no_panic();
    assert_eq!(
        run.answers().len(),
        BAD_TURN,
        "turns answered before the error"
    );
    let errors = run.stderr_lines();
    assert_eq!(errors.len(), 1, "stderr:\n{}", run.stderr);
    let prefix = format!("ysai: input line {line}: expected ");
    assert!(errors[0].starts_with(&prefix), "{}", errors[0]);
    assert!(errors[0].contains(expected), "{}", errors[0]);
    assert_eq!(run.code, Some(1));
}

#[test]
fn missing_end_is_an_error() {
    let mut found = String::new();
    let input = malformed_input(|lines| {
        lines.remove(MY_END);
        found = format!("expected `END`, found `{}`", lines[MY_END]);
    });
    let run = run_input(&QUICK_DEFAULT, input);
    assert_input_error(&run, bad_turn_line(MY_END), &found);
}

#[test]
fn cell_value_12_is_an_error() {
    let row = MY_FIRST_ROW + 3;
    let input = malformed_input(|lines| set_cell(&mut lines[row], 4, "12"));
    let run = run_input(&QUICK_DEFAULT, input);
    assert_input_error(
        &run,
        bad_turn_line(row),
        "my field row 4 of 16: 10 cells, each 0..=9 or 11, found `12`",
    );
}

#[test]
fn short_row_is_an_error() {
    let row = OPPONENT_FIRST_ROW + 15;
    let input = malformed_input(|lines| {
        let cells: Vec<&str> = lines[row].split(' ').take(9).collect();
        lines[row] = cells.join(" ");
    });
    let run = run_input(&QUICK_DEFAULT, input);
    assert_input_error(
        &run,
        bad_turn_line(row),
        "the opponent's field row 16 of 16: 10 cells, each 0..=9 or 11, found 9 values",
    );
}

#[test]
fn letters_in_a_number_are_an_error() {
    let input = malformed_input(|lines| lines[MY_TIME] = "17x976".to_string());
    let run = run_input(&QUICK_DEFAULT, input);
    assert_input_error(
        &run,
        bad_turn_line(MY_TIME),
        "my remaining time in ms (a non-negative integer), found `17x976`",
    );
}

/// Byte offset in `text` where 1-based line `line` starts.
fn line_start(text: &str, line: usize) -> usize {
    match line {
        1 => 0,
        _ => {
            text.match_indices('\n')
                .nth(line - 2)
                .expect("enough lines")
                .0
                + 1
        }
    }
}

#[test]
fn input_cut_mid_turn_is_an_error() {
    let missing = MY_FIRST_ROW + 7;
    let mut input = malformed_input(|_| {});
    input.truncate(line_start(&input, bad_turn_line(missing)));
    let run = run_input(&QUICK_DEFAULT, input);
    // The input ends where field row 8 should start.
    assert_input_error(
        &run,
        bad_turn_line(missing),
        "my field row 8 of 16: 10 cells, each 0..=9 or 11, found end of input",
    );
}

#[test]
fn input_cut_mid_line_is_an_error() {
    let row = MY_FIRST_ROW + 2;
    let mut input = malformed_input(|_| {});
    let start = line_start(&input, bad_turn_line(row));
    let line = input[start..].lines().next().expect("the row");
    // Keep the row's first three cells, with no newline after them.
    let kept = line.split(' ').take(3).collect::<Vec<_>>().join(" ");
    input.truncate(start + kept.len());
    let run = run_input(&QUICK_DEFAULT, input);
    assert_input_error(
        &run,
        bad_turn_line(row),
        &format!("my field row 3 of 16: 10 cells, each 0..=9 or 11, found 3 values: `{kept}`"),
    );
}

#[test]
fn empty_input_is_no_games() {
    let run = run_input(&[], "");
    run.assert_clean();
    assert_eq!(run.stdout, format!("{NAME}\n"));
}

/// Puts a block over an empty cell in field row `row` (offset in the bad turn's block, field
/// row `field_row` of `whose` field): the binary reports that turn, answers the others and
/// exits with a failure.
fn assert_floating_block_settled(row: usize, field_row: usize, whose: &str) {
    let mut column = None;
    let input = malformed_input(|lines| {
        let cells: Vec<&str> = lines[row].split(' ').collect();
        let below: Vec<&str> = lines[row + 1].split(' ').collect();
        let x = (0..cells.len())
            .position(|x| cells[x] == "0" && below[x] == "0")
            .expect("an open column");
        set_cell(&mut lines[row], x, "3");
        column = Some(x + 1);
    });
    let column = column.expect("edited");
    let run = run_input(&QUICK_DEFAULT, input);
    run.assert_no_panic();
    assert_eq!(
        run.answers().len(),
        MALFORMED_TURNS,
        "every turn is answered, the bad one from the settled field"
    );
    let errors = run.stderr_lines();
    assert_eq!(errors.len(), 2, "stderr:\n{}", run.stderr);
    assert_eq!(
        errors[0],
        format!(
            "input line {}: turn {BAD_TURN}: {whose} field row {field_row} column {column}: \
             block with an empty cell below it; played with the blocks settled",
            bad_turn_line(row)
        )
    );
    assert_eq!(
        errors[1],
        "ysai: 1 turn(s) were played with floating blocks settled"
    );
    assert_eq!(run.code, Some(1));
}

#[test]
fn floating_block_in_my_field_is_settled_and_answered() {
    assert_floating_block_settled(MY_FIRST_ROW, 1, "my");
}

#[test]
fn floating_block_in_the_opponent_field_is_settled_and_answered() {
    assert_floating_block_settled(OPPONENT_FIRST_ROW + 9, 10, "the opponent's");
}

#[test]
fn unknown_flag_names_the_nearest_one() {
    assert_eq!(
        refused(&["-bww", "5"]),
        "ysai: unknown flag `-bww`; did you mean `-bw`?\n"
    );
}

/// What ysai says on stderr when `args` are refused: a usage error, nothing played, no panic.
fn refused(args: &[&str]) -> String {
    let run = run_input(args, "");
    run.assert_no_panic();
    assert_eq!(run.code, Some(2), "{args:?}");
    assert_eq!(run.stdout, "", "{args:?}: nothing is played");
    run.stderr
}

#[test]
fn bad_flag_value_is_a_usage_error() {
    let stderr = refused(&["-bw", "abc"]);
    assert!(
        stderr.starts_with("ysai: invalid value `abc` for `-bw`"),
        "{stderr}"
    );
}

#[test]
fn a_negative_count_says_what_the_flag_takes() {
    assert_eq!(
        refused(&["-bw", "-5"]),
        "ysai: invalid value `-5` for `-bw`: expected a whole number, 0 or more\n"
    );
}

#[test]
fn a_table_larger_than_ysai_makes_is_refused() {
    assert_eq!(
        refused(&["--hash", "100000"]),
        "ysai: invalid value `100000` for `--hash`: expected a whole number from 0 to 16384\n"
    );
}

#[test]
fn a_turn_limit_too_short_to_think_in_is_refused() {
    for short in ["0", "333"] {
        let run = run_file(&["--turn-ms", short], GAME_21);
        run.assert_no_panic();
        assert_eq!(run.code, Some(2), "--turn-ms {short}: {}", run.stderr);
        assert_eq!(run.stdout, "", "--turn-ms {short}: nothing is played");
        assert!(
            run.stderr.starts_with(&format!(
                "ysai: invalid value `{short}` for `--turn-ms`: expected a whole number, at least 334 ms: "
            )),
            "{}",
            run.stderr
        );
    }
    let shortest = run_file(&["--turn-ms", "334", "-t", "1"], GAME_21);
    shortest.assert_clean();
    assert_eq!(shortest.answers().len(), 1);
}

/// The help line of `flag` (as clap shows it, with two dashes).
fn help_line<'a>(help: &'a str, flag: &str) -> &'a str {
    let shown = format!("{flag} ");
    help.lines()
        .find(|l| l.trim_start().starts_with(&shown))
        .unwrap_or_else(|| panic!("{flag} missing from help:\n{help}"))
}

#[test]
fn help_lists_flags_with_defaults() {
    let run = run_input(&["--help"], "");
    run.assert_clean();
    let help = &run.stdout;
    for (flag, default) in [
        ("--bw", "5000"),
        ("--bcw", "1500"),
        ("--g", "-1"),
        ("--t", "-1"),
        ("--threads", "0"),
        ("--ai", "full"),
        ("--neighbours", "shift"),
        ("--seed", "0"),
    ] {
        let line = help_line(help, flag);
        assert!(
            line.contains(&format!("[default: {default}]")),
            "{flag}: {line}"
        );
    }
    help_line(help, "--ut");
    assert!(help.contains("single dash"), "{help}");
    assert!(help.contains("selfcheck"), "{help}");
}

#[test]
fn the_name_carries_version_and_commit_and_only_allowed_characters() {
    let prefix = format!("ysai-{}-", env!("CARGO_PKG_VERSION"));
    let commit = NAME
        .strip_prefix(&prefix)
        .expect("name starts with the version");
    let hash = commit.strip_suffix("-dirty").unwrap_or(commit);
    assert!(
        hash == "unknown" || (hash.len() == 7 && hash.chars().all(|c| c.is_ascii_hexdigit())),
        "{NAME}"
    );
    assert!(
        !NAME.contains(['\\', '/', ':', '*', '?', '"', '<', '>', '|']),
        "{NAME}"
    );
    let head = Command::new("git")
        .args(["rev-parse", "--short=7", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok();
    if let Some(head) = head.filter(|o| o.status.success()) {
        assert_eq!(
            hash,
            String::from_utf8_lossy(&head.stdout).trim(),
            "built from HEAD"
        );
    }
}

#[test]
fn version_is_printed() {
    let run = run_input(&["--version"], "");
    run.assert_clean();
    assert_eq!(
        run.stdout,
        format!("ysai {}\n", NAME.strip_prefix("ysai-").unwrap())
    );
}

#[test]
fn thread_flags_are_accepted() {
    let (game, text) = first_game_of_54();
    for args in [
        &["--ai", "greedy", "-ut"][..],
        &["--ai", "greedy", "--threads", "1"],
    ] {
        let run = run_input(args, text.as_str());
        assert_plays(&run, std::slice::from_ref(&game));
    }
}

#[test]
fn selfcheck_agrees_in_both_modes() {
    let output = ysai(&["selfcheck", "--turns", "2000"])
        .output()
        .expect("ysai runs");
    let run = Run::from(output);
    run.assert_clean();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "stdout:\n{}", run.stdout);
    assert!(lines[0].contains("bitboard backend"), "{}", lines[0]);
    for (line, mode) in lines[1..].iter().zip(["shift", "table"]) {
        assert!(line.starts_with(&format!("{mode}: 2000 turns")), "{line}");
        assert!(line.ends_with(": agree"), "{line}");
    }
}

#[test]
fn a_turn_before_any_game_start_is_an_error() {
    let games = load(GAME_21);
    let run = run_input(&[], format_turn(&games[0].turns[0]));
    run.assert_no_panic();
    assert!(run.answers().is_empty());
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr_lines(),
        ["ysai: input line 1: expected a game-start block (500 packs) before the first turn, found the block of turn 0"]
    );
}

#[test]
fn tm_and_m_report_each_turn_on_stderr_without_changing_the_answer() {
    let (_, text) = first_game_of_54();
    let small = [&SMALL_FULL[..], &["-t", "9"]].concat();
    let quiet = run_input(&small, text.as_str());
    quiet.assert_clean();
    assert_eq!(quiet.stderr, "");
    let with = |flag: &str| {
        let mut args = small.to_vec();
        args.push(flag);
        let run = run_input(&args, text.as_str());
        run.assert_no_panic();
        assert_eq!(run.code, Some(0), "{flag}: {}", run.stderr);
        assert_eq!(run.stdout, quiet.stdout, "{flag} changed the answer");
        run
    };

    let tm = with("-tm");
    let lines = tm.turn_lines();
    assert_eq!(lines.len(), 1, "{}", tm.stderr);
    let line = lines[0];
    assert!(line.starts_with("Turn 9 timeleft "), "{line}");
    for token in [" elapsed ", " mc ", " d 2/2 n ", " h "] {
        assert!(line.contains(token), "{token} missing: {line}");
    }
    assert_search_times_fit_the_turn(line);
    assert!(line.contains("[turn bd "), "{line}");

    // The parameter line replays the turn: its flags, without -tm, give the same answer, and
    // each of them is one the player reads.
    let flags: Vec<&str> = tm
        .parameter_flags()
        .into_iter()
        .filter(|&f| f != "-tm")
        .collect();
    assert!(flags.contains(&"-bw") && flags.contains(&"--beam-nodes"));
    let replayed = run_input(&flags, text.as_str());
    replayed.assert_clean();
    assert_eq!(replayed.stdout, quiet.stdout, "{flags:?}");

    let m = with("-m");
    assert!(m.parameter_flags().contains(&"-m"), "{}", m.stderr);
    let m = m.turn_lines().join("\n");
    assert!(
        m.starts_with(line.split(" elapsed ").next().unwrap()),
        "{m}"
    );
    for part in ["me ", "enemy", "best line:", "d1 ", "hyouka: stock ", " = "] {
        assert!(m.contains(part), "{part} missing:\n{m}");
    }
    // Both root fields: three rows above the top, then 16 rows and the heights.
    assert!(m.contains("!!!!!!!!!!   !!!!!!!!!!"), "{m}");
}

/// A `-tm` line's `ms enemy/mine`: both searches' milliseconds, together within the turn's.
fn assert_search_times_fit_the_turn(line: &str) {
    let numbers_after = |token: &str| -> Vec<u64> {
        let value = line
            .split(token)
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("{token} missing: {line}"));
        value
            .split('/')
            .map(|n| {
                n.parse()
                    .unwrap_or_else(|_| panic!("{token}{value}: {line}"))
            })
            .collect()
    };
    let searches = numbers_after(" ms ");
    let elapsed = numbers_after(" elapsed ")[0];
    assert_eq!(searches.len(), 2, "ms enemy/mine: {line}");
    assert!(searches.iter().sum::<u64>() <= elapsed, "{line}");
}

/// Runs the binary on `examples/input.txt`, the README's example game.
fn run_example(args: &[&str]) -> Run {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/input.txt");
    let file = File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Run::from(ysai(args).stdin(file).output().expect("ysai runs"))
}

/// The `plan ...` part of a `-tm` line of the default AI.
fn plan_of(line: &str) -> &str {
    line.split(" plan ")
        .nth(1)
        .unwrap_or_else(|| panic!("no plan: {line}"))
}

#[test]
fn tm_shows_the_opening_beam_then_beams_and_the_full_search_of_the_default() {
    let opening = run_example(&[
        "-bw",
        "5000",
        "-bcw",
        "1500",
        "--turn-ms",
        "2000",
        "-t",
        "0",
        "-tm",
    ]);
    opening.assert_no_panic();
    assert_eq!(opening.code, Some(0), "{}", opening.stderr);
    let lines = opening.turn_lines();
    assert_eq!(
        lines.len(),
        1,
        "one line, no note of unused flags: {}",
        opening.stderr
    );
    assert!(lines[0].starts_with("Turn 0 timeleft "), "{}", lines[0]);
    // `open-w5000`, or `open-w5000:N` where the beam narrowed to end by the turn's deadline.
    assert!(
        lines[0].contains(" [open-w5000 bd ") || lines[0].contains(" [open-w5000:"),
        "{}",
        lines[0]
    );
    assert!(
        lines[0].contains(" d 0/0 n 0/0 "),
        "no search in the opening: {}",
        lines[0]
    );

    let later = run_example(&["--turn-ms", "2000", "-t", "9", "-tm"]);
    later.assert_no_panic();
    assert_eq!(later.code, Some(0), "{}", later.stderr);
    let line = later.turn_lines()[0];
    assert!(line.starts_with("Turn 9 timeleft "), "{line}");
    assert!(
        line.contains("-w") && line.contains(" bd "),
        "a plan beam: {line}"
    );
    let searched = line.split(" d ").nth(1).expect("search depths");
    let fields: Vec<&str> = searched.split_whitespace().take(5).collect();
    let (depths, nodes, rate) = (fields[0], fields[2], fields[4]);
    assert!(
        !depths.starts_with('0') && !depths.ends_with("/0"),
        "{line}"
    );
    let positions: Vec<u64> = nodes.split('/').map(|n| n.parse().unwrap()).collect();
    assert!(
        positions.iter().all(|&n| n > 0),
        "both searches valued positions: {line}"
    );
    assert!(
        rate.ends_with('%') && line.contains(" tt "),
        "the table's hit rate: {line}"
    );
    assert_search_times_fit_the_turn(line);
    assert!(
        line.contains(&format!(" {} ", later.answers()[0])),
        "{line}"
    );
}

#[test]
fn the_opening_beam_width_changes_the_default_plan() {
    let plan = |width: &str, bucket: &str| {
        let args = [
            "-bw",
            width,
            "-bcw",
            bucket,
            "--beam-nodes",
            "100000",
            "-t",
            "0",
            "-tm",
        ];
        let run = run_example(&args);
        run.assert_no_panic();
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let line = run.turn_lines()[0].to_string();
        assert!(line.contains(&format!("[open-w{width} ")), "{line}");
        (run.answers()[0].to_string(), plan_of(&line).to_string())
    };
    let narrow = plan("100", "30");
    let wide = plan("400", "120");
    assert_ne!(narrow, wide, "-bw 100 and -bw 400 planned alike");
    assert_eq!(
        plan("100", "30"),
        narrow,
        "a node budget makes the plan reproducible"
    );
}

#[test]
fn m_shows_the_first_beam_bucket_by_bucket() {
    let (_, text) = first_game_of_54();
    let run = run_input(
        &[
            "--style", "original", "-m", "-bw", "200", "-bcw", "60", "-bd", "6", "-t", "0",
        ],
        text.as_str(),
    );
    run.assert_no_panic();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("[first bd 6 "), "{}", run.stderr);
    assert!(run.stderr.contains("first beam buckets"), "{}", run.stderr);
    let depths = run
        .stderr
        .lines()
        .filter(|l| l.trim_start().starts_with("depth "))
        .count();
    assert_eq!(depths, 6, "{}", run.stderr);
    assert!(run.stderr.contains("  plan "), "{}", run.stderr);
}
