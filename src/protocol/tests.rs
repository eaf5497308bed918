use std::io::{self, BufReader, Read};

use super::*;
use crate::sim::Action;

// Line layout of a stream holding one game-start block followed by one turn block.
const PACK_LINES: usize = 3 * PACKS_PER_GAME;
const TURN_LINE: usize = PACK_LINES + 1;
const MY_TIME: usize = TURN_LINE + 1;
const MY_OJAMA: usize = TURN_LINE + 2;
const MY_FIRST_ROW: usize = TURN_LINE + 5;
const MY_END: usize = MY_FIRST_ROW + FIELD_HEIGHT;
const OPP_TIME: usize = MY_END + 1;
const OPP_GAUGE: usize = MY_END + 3;
const OPP_SCORE: usize = MY_END + 4;
const OPP_FIRST_ROW: usize = MY_END + 5;
const TURN_BLOCK_LINES: usize = 1 + 2 * (4 + FIELD_HEIGHT + 1);

// ---- building inputs ----

fn sample_packs(seed: usize) -> Box<[Pack; PACKS_PER_GAME]> {
    let mut packs = Box::new([Pack::default(); PACKS_PER_GAME]);
    for (i, pack) in packs.iter_mut().enumerate() {
        let v = |k: usize| ((i * k + seed) % 10) as u8;
        *pack = Pack::new([v(1), v(3)], [v(7), v(9)]);
    }
    packs
}

fn sample_player(seed: i64) -> PlayerView {
    const CELLS: [u8; 11] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, OJAMA_VALUE];
    let mut rows = [[0; FIELD_WIDTH]; FIELD_HEIGHT];
    for (y, row) in rows.iter_mut().enumerate() {
        for (x, cell) in row.iter_mut().enumerate() {
            *cell = CELLS[(y * 3 + x + seed as usize) % CELLS.len()];
        }
    }
    PlayerView {
        time_left_ms: 180_000 - seed,
        ojama: seed * 3,
        gauge: (seed % 101) as i32,
        score: seed * 1000,
        rows,
    }
}

fn sample_turn(turn: u32) -> TurnInput {
    let seed = i64::from(turn);
    TurnInput {
        turn,
        players: [sample_player(seed), sample_player(seed + 50)],
    }
}

fn game_text(packs: &[Pack; PACKS_PER_GAME], turns: &[TurnInput]) -> String {
    let mut text = format_game_start(packs);
    for turn in turns {
        text += &format_turn(turn);
    }
    text
}

/// A game-start block and turn 0: the layout the line constants above describe.
fn one_turn_text() -> String {
    game_text(&sample_packs(0), &[sample_turn(0)])
}

/// `text` with its 1-based line `number` replaced by `line`.
fn replace_line(text: &str, number: usize, line: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines[number - 1] = line;
    lines.join("\n") + "\n"
}

fn first_lines(text: &str, count: usize) -> String {
    text.lines().take(count).map(|l| format!("{l}\n")).collect()
}

fn parse(text: &str) -> Vec<Game> {
    read_all(text.as_bytes()).unwrap_or_else(|e| panic!("valid input rejected: {e}"))
}

fn parse_error(text: &str) -> ParseError {
    read_all(text.as_bytes()).expect_err("malformed input accepted")
}

fn assert_error(err: &ParseError, line: usize, expected: &str, found: &str) {
    assert_eq!(err.line, line, "{err}");
    assert!(err.expected.contains(expected), "{err}");
    assert_eq!(err.found, found, "{err}");
}

// ---- accepted input ----

#[test]
fn round_trip_of_one_game() {
    let packs = sample_packs(4);
    let turns: Vec<TurnInput> = (0..5).map(sample_turn).collect();
    let games = parse(&game_text(&packs, &turns));
    assert_eq!(games, vec![Game { packs, turns }]);
}

#[test]
fn reader_yields_blocks_in_order_then_none() {
    let packs = sample_packs(1);
    let text = game_text(&packs, &[sample_turn(0), sample_turn(1)]);
    let mut reader = Reader::new(text.as_bytes());
    assert_eq!(reader.next_event(), Ok(Some(Event::GameStart(packs))));
    assert_eq!(reader.line(), PACK_LINES);
    assert_eq!(
        reader.next_event(),
        Ok(Some(Event::Turn(Box::new(sample_turn(0)))))
    );
    assert_eq!(reader.line(), PACK_LINES + TURN_BLOCK_LINES);
    assert_eq!(
        reader.next_event(),
        Ok(Some(Event::Turn(Box::new(sample_turn(1)))))
    );
    assert_eq!(reader.next_event(), Ok(None));
    assert_eq!(reader.next_event(), Ok(None));
}

#[test]
fn field_rows_keep_the_top_row_first() {
    let mut turn = sample_turn(0);
    turn.players[0].rows = [[0; FIELD_WIDTH]; FIELD_HEIGHT];
    turn.players[0].rows[FIELD_HEIGHT - 1][0] = OJAMA_VALUE;
    let text = game_text(&sample_packs(0), &[turn]);
    let bottom_row = MY_FIRST_ROW + FIELD_HEIGHT - 1;
    assert_eq!(
        text.lines().nth(bottom_row - 1),
        Some("11 0 0 0 0 0 0 0 0 0")
    );
    assert_eq!(
        parse(&text)[0].turns[0].players[0].rows[FIELD_HEIGHT - 1][0],
        OJAMA_VALUE
    );
}

#[test]
fn several_games_in_one_stream() {
    let games = [
        (sample_packs(1), 3),
        (sample_packs(2), 2),
        (sample_packs(3), 0),
    ];
    let text: String = games
        .iter()
        .map(|(packs, n)| game_text(packs, &(0..*n).map(sample_turn).collect::<Vec<_>>()))
        .collect();
    let parsed = parse(&text);
    assert_eq!(parsed.len(), games.len());
    for (game, (packs, n)) in parsed.iter().zip(&games) {
        assert_eq!(&game.packs, packs);
        let numbers: Vec<u32> = game.turns.iter().map(|t| t.turn).collect();
        assert_eq!(numbers, (0..*n).collect::<Vec<u32>>());
    }
}

#[test]
fn missing_final_newline_is_accepted() {
    let text = one_turn_text();
    let games = parse(text.trim_end_matches('\n'));
    assert_eq!(games[0].turns, vec![sample_turn(0)]);
    let packs_only = format_game_start(&sample_packs(0));
    assert_eq!(parse(packs_only.trim_end_matches('\n')).len(), 1);
}

#[test]
fn crlf_and_trailing_whitespace_are_accepted() {
    let text = one_turn_text();
    let messy = text.replace('\n', " \t\r\n");
    assert_eq!(parse(&messy), parse(&text));
}

#[test]
fn blank_lines_between_blocks_are_accepted() {
    let packs = format_game_start(&sample_packs(0));
    let turn = format_turn(&sample_turn(0));
    let text = format!("\n\r\n{packs}\n  \n{turn}\n\n");
    assert_eq!(parse(&text), parse(&one_turn_text()));
}

/// A source that fails if the reader asks for more than the blocks already available.
struct NothingMoreYet;

impl Read for NothingMoreYet {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::other("read past the available turn"))
    }
}

#[test]
fn a_turn_is_returned_as_soon_as_its_last_end_arrives() {
    let text = one_turn_text();
    let mut reader = Reader::new(BufReader::new(text.as_bytes().chain(NothingMoreYet)));
    assert!(matches!(reader.next_event(), Ok(Some(Event::GameStart(_)))));
    assert_eq!(
        reader.next_event(),
        Ok(Some(Event::Turn(Box::new(sample_turn(0)))))
    );
    let err = reader
        .next_event()
        .expect_err("the source fails from here on");
    assert_eq!(err.line, PACK_LINES + TURN_BLOCK_LINES + 1);
    assert!(err.found.contains("read past the available turn"), "{err}");
}

#[test]
fn largest_numbers_are_accepted() {
    let text = replace_line(&one_turn_text(), OPP_SCORE, &i64::MAX.to_string());
    assert_eq!(parse(&text)[0].turns[0].players[1].score, i64::MAX);
    let text = replace_line(&one_turn_text(), OPP_GAUGE, "100");
    assert_eq!(parse(&text)[0].turns[0].players[1].gauge, 100);
    let text = replace_line(&one_turn_text(), TURN_LINE, "499");
    assert_eq!(parse(&text)[0].turns[0].turn, 499);
}

// ---- rejected input ----

#[test]
fn missing_end_in_a_turn_block() {
    let err = parse_error(&replace_line(&one_turn_text(), MY_END, "7"));
    assert_error(&err, MY_END, "`END`", "`7`");
    assert_eq!(
        err.to_string(),
        format!("input line {MY_END}: expected `END`, found `7`")
    );
}

#[test]
fn missing_end_in_a_pack_block() {
    let full = one_turn_text();
    let mut lines: Vec<&str> = full.lines().collect();
    lines.remove(5); // the second pack's END
    let text = lines.join("\n");
    let err = parse_error(&text);
    assert_error(&err, 6, "`END`", &format!("`{}`", lines[5]));
}

#[test]
fn cell_value_out_of_range() {
    for bad in ["12", "10"] {
        let row = format!("0 0 {bad} 0 0 0 0 0 0 0");
        let err = parse_error(&replace_line(&one_turn_text(), MY_FIRST_ROW + 4, &row));
        assert_error(
            &err,
            MY_FIRST_ROW + 4,
            "my field row 5 of 16",
            &format!("`{bad}`"),
        );
    }
}

#[test]
fn pack_value_out_of_range() {
    let err = parse_error(&replace_line(&one_turn_text(), 1, "10 0"));
    assert_error(&err, 1, "pack 1 of 500: top row", "`10`");
    let err = parse_error(&replace_line(&one_turn_text(), 5, "3 10"));
    assert_error(&err, 5, "pack 2 of 500: bottom row", "`10`");
}

#[test]
fn turn_number_out_of_range() {
    let err = parse_error(&replace_line(&one_turn_text(), TURN_LINE, "500"));
    assert_error(&err, TURN_LINE, "a turn number in 0..=499", "`500`");
}

#[test]
fn gauge_out_of_range() {
    let err = parse_error(&replace_line(&one_turn_text(), OPP_GAUGE, "101"));
    assert_error(
        &err,
        OPP_GAUGE,
        "the opponent's skill gauge in 0..=100",
        "`101`",
    );
}

#[test]
fn short_row() {
    let row = "0 0 0 0 0 0 0 0 0";
    let err = parse_error(&replace_line(&one_turn_text(), OPP_FIRST_ROW, row));
    assert_error(
        &err,
        OPP_FIRST_ROW,
        "the opponent's field row 1 of 16",
        &format!("9 values: `{row}`"),
    );
}

#[test]
fn long_row() {
    let row = "0 0 0 0 0 0 0 0 0 0 0";
    let err = parse_error(&replace_line(&one_turn_text(), MY_FIRST_ROW, row));
    assert_error(
        &err,
        MY_FIRST_ROW,
        "my field row 1 of 16",
        &format!("11 values: `{row}`"),
    );
}

#[test]
fn short_pack_row() {
    let err = parse_error(&replace_line(&one_turn_text(), 4, "3"));
    assert_error(
        &err,
        4,
        "pack 2 of 500: top row, 2 integers",
        "1 value: `3`",
    );
}

#[test]
fn letters() {
    let err = parse_error(&replace_line(&one_turn_text(), MY_OJAMA, "abc"));
    assert_error(&err, MY_OJAMA, "my ojama stock", "`abc`");
    let err = parse_error(&replace_line(
        &one_turn_text(),
        MY_FIRST_ROW,
        "0 0 x 0 0 0 0 0 0 0",
    ));
    assert_error(&err, MY_FIRST_ROW, "my field row 1 of 16", "`x`");
    let err = parse_error(&replace_line(&one_turn_text(), OPP_TIME, "+5"));
    assert_error(&err, OPP_TIME, "the opponent's remaining time", "`+5`");
}

#[test]
fn negative_numbers() {
    let err = parse_error(&replace_line(&one_turn_text(), MY_TIME, "-1"));
    assert_error(&err, MY_TIME, "my remaining time in ms", "`-1`");
    let err = parse_error(&replace_line(&one_turn_text(), 2, "-1 3"));
    assert_error(&err, 2, "pack 1 of 500: bottom row", "`-1`");
}

#[test]
fn numbers_too_large_for_their_field() {
    let err = parse_error(&replace_line(
        &one_turn_text(),
        OPP_SCORE,
        "99999999999999999999999",
    ));
    assert_error(
        &err,
        OPP_SCORE,
        "the opponent's score",
        "`99999999999999999999999`",
    );
    let just_over = (i64::MAX as u64 + 1).to_string();
    let err = parse_error(&replace_line(&one_turn_text(), MY_TIME, &just_over));
    assert_error(
        &err,
        MY_TIME,
        "my remaining time",
        &format!("`{just_over}`"),
    );
}

#[test]
fn truncated_turn_block() {
    let text = first_lines(&one_turn_text(), OPP_FIRST_ROW + 3);
    let err = parse_error(&text);
    assert_error(
        &err,
        OPP_FIRST_ROW + 4,
        "the opponent's field row 5 of 16",
        "end of input",
    );
    let err = parse_error(&first_lines(&one_turn_text(), MY_END));
    assert_error(
        &err,
        OPP_TIME,
        "the opponent's remaining time",
        "end of input",
    );
    let err = parse_error(&first_lines(
        &one_turn_text(),
        OPP_FIRST_ROW + FIELD_HEIGHT - 1,
    ));
    assert_error(&err, OPP_FIRST_ROW + FIELD_HEIGHT, "`END`", "end of input");
}

#[test]
fn truncated_pack_block() {
    let err = parse_error(&first_lines(&one_turn_text(), 3 * 41 + 1));
    assert_error(
        &err,
        3 * 41 + 2,
        "pack 42 of 500: bottom row",
        "end of input",
    );
}

#[test]
fn pack_block_with_fewer_than_500_packs() {
    let packs: String = first_lines(&format_game_start(&sample_packs(0)), 3 * 3);
    let text = packs + &format_turn(&sample_turn(0));
    let err = parse_error(&text);
    assert_error(&err, 10, "pack 4 of 500: top row", "1 value: `0`");
}

#[test]
fn blank_line_inside_a_block() {
    let err = parse_error(&replace_line(&one_turn_text(), OPP_TIME, "  "));
    assert_error(
        &err,
        OPP_TIME,
        "the opponent's remaining time",
        "an empty line",
    );
}

#[test]
fn unrecognised_block_start() {
    let text = format!("1 2 3\n{}", one_turn_text());
    let err = parse_error(&text);
    assert_error(
        &err,
        1,
        "a pack row (2 integers) or a turn number (1 integer)",
        "`1 2 3`",
    );
    let err = parse_error(&format!("\nEND\n{}", one_turn_text()));
    assert_error(&err, 2, "a turn number", "`END`");
}

#[test]
fn turn_before_any_game_start() {
    let text = format!("\n{}", format_turn(&sample_turn(0)));
    let err = parse_error(&text);
    assert_error(&err, 2, "a game-start block", "the block of turn 0");
}

#[test]
fn long_offending_lines_are_shortened() {
    let row = "1 ".repeat(100);
    let err = parse_error(&replace_line(&one_turn_text(), MY_FIRST_ROW, &row));
    assert!(err.found.starts_with("100 values: `1 1 1"), "{err}");
    assert!(err.found.ends_with("...`"), "{err}");
    assert!(err.to_string().len() < 200, "{err}");
}

// ---- writer ----

/// Records the bytes written and what had been written at each flush.
#[derive(Default)]
struct Recorder {
    written: Vec<u8>,
    flushed_at: Vec<usize>,
}

impl io::Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.written.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flushed_at.push(self.written.len());
        Ok(())
    }
}

#[test]
fn writer_lines_are_exact() {
    let mut out = Vec::new();
    let mut writer = Writer::new(&mut out);
    writer.name("ysai").expect("valid name");
    writer
        .action(Action::Drop { x: 3, rot: 1 })
        .expect("valid drop");
    writer.action(Action::Skill).expect("skill");
    writer
        .action(Action::Drop { x: 8, rot: 3 })
        .expect("valid drop");
    writer
        .action(Action::Drop { x: 0, rot: 0 })
        .expect("valid drop");
    assert_eq!(String::from_utf8_lossy(&out), "ysai\n3 1\nS\n8 3\n0 0\n");
}

#[test]
fn writer_flushes_every_line() {
    let mut writer = Writer::new(Recorder::default());
    writer.name("ysai").expect("valid name");
    writer
        .action(Action::Drop { x: 3, rot: 1 })
        .expect("valid drop");
    writer.action(Action::Skill).expect("skill");
    let out = writer.into_inner();
    assert_eq!(out.written, b"ysai\n3 1\nS\n");
    assert_eq!(out.flushed_at, vec![5, 9, 11]);
}

#[test]
fn writer_rejects_what_the_server_would() {
    let mut writer = Writer::new(Recorder::default());
    for name in ["", "a/b", "a:b", "a\"b", "two\nlines", "tab\t"] {
        let err = writer.name(name).expect_err(name);
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }
    for action in [Action::Drop { x: 9, rot: 0 }, Action::Drop { x: 0, rot: 4 }] {
        let err = writer.action(action).expect_err("off the board");
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }
    let out = writer.into_inner();
    assert!(out.written.is_empty() && out.flushed_at.is_empty());
}
