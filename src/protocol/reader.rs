//! Parsing the server's input one line at a time.
//!
//! Lines are read only on demand, so an interactive game gets each turn as soon as its last
//! `END` arrives. A block's first line tells its kind: two integers are the first pack's top
//! row, one integer is a turn number.

use std::fmt;
use std::io::BufRead;

use super::{
    Event, Game, ParseError, PlayerView, TurnInput, FIELD_HEIGHT, FIELD_WIDTH, OJAMA_VALUE,
};
use crate::sim::{Pack, PACKS_PER_GAME};

const END_OF_INPUT: &str = "end of input";
/// Lines of one player in a turn block: time, ojama, gauge, score, the field rows, `END`.
const PLAYER_LINES: usize = 4 + FIELD_HEIGHT + 1;
/// Longest stretch of an offending line quoted in an error, to keep messages on one line.
const QUOTE_LIMIT: usize = 60;

/// Reads [`Event`]s from the server's input.
pub struct Reader<R: BufRead> {
    input: R,
    /// Number of lines read so far (the current line's 1-based number).
    line: usize,
    /// First line of the block being read, for errors about the block as a whole.
    block_line: usize,
    raw: Vec<u8>,
    text: String,
    /// The current line was read to classify a block and is still to be parsed.
    pending: bool,
    /// A game-start block has been read: turns are meaningful only after one.
    in_game: bool,
}

/// What kind of block a first line starts.
enum BlockKind {
    GameStart,
    Turn,
}

impl<R: BufRead> Reader<R> {
    pub fn new(input: R) -> Self {
        Reader {
            input,
            line: 0,
            block_line: 0,
            raw: Vec::new(),
            text: String::new(),
            pending: false,
            in_game: false,
        }
    }

    /// Number of input lines consumed so far.
    pub fn line(&self) -> usize {
        self.line
    }

    /// Input line of field row `row` (0 = top) of player `player` (0 = me) in the turn block
    /// just read. A turn block has no blank lines, so its layout is fixed.
    pub fn field_row_line(&self, player: usize, row: usize) -> usize {
        self.block_line + 1 + player * PLAYER_LINES + 4 + row
    }

    /// The next block, or `Ok(None)` when the input ends between blocks.
    pub fn next_event(&mut self) -> Result<Option<Event>, ParseError> {
        if !self.skip_blank_lines()? {
            return Ok(None);
        }
        self.block_line = self.line;
        self.pending = true;
        match block_kind(&self.text) {
            Some(BlockKind::GameStart) => {
                let packs = self.read_packs()?;
                self.in_game = true;
                Ok(Some(Event::GameStart(packs)))
            }
            Some(BlockKind::Turn) => {
                let turn = self.read_turn()?;
                if !self.in_game {
                    return Err(ParseError::new(
                        self.block_line,
                        "a game-start block (500 packs) before the first turn",
                        format!("the block of turn {}", turn.turn),
                    ));
                }
                Ok(Some(Event::Turn(Box::new(turn))))
            }
            None => Err(ParseError::new(
                self.line,
                "a pack row (2 integers) or a turn number (1 integer)",
                found_line(&self.text),
            )),
        }
    }

    /// Advances to the next non-blank line; false at end of input.
    fn skip_blank_lines(&mut self) -> Result<bool, ParseError> {
        while self.advance()? {
            if !self.text.trim_ascii().is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Makes the next line current; false at end of input.
    fn advance(&mut self) -> Result<bool, ParseError> {
        if self.pending {
            self.pending = false;
            return Ok(true);
        }
        self.raw.clear();
        let read = self.input.read_until(b'\n', &mut self.raw).map_err(|e| {
            ParseError::new(
                self.line + 1,
                "a readable input line",
                format!("a read error ({e})"),
            )
        })?;
        if read == 0 {
            return Ok(false);
        }
        self.line += 1;
        // Invalid UTF-8 is kept visible (as U+FFFD) and then rejected as a bad token.
        self.text.clear();
        self.text.push_str(&String::from_utf8_lossy(&self.raw));
        Ok(true)
    }

    /// The next line, which must exist because a block is still incomplete.
    fn expect_line(&mut self, expected: fmt::Arguments<'_>) -> Result<Line<'_>, ParseError> {
        if self.advance()? {
            Ok(Line {
                number: self.line,
                text: &self.text,
            })
        } else {
            Err(ParseError::new(
                self.line + 1,
                expected.to_string(),
                END_OF_INPUT,
            ))
        }
    }

    /// The next line as exactly `N` values, each accepted by `valid` and fitting `T`.
    fn values<T, const N: usize>(
        &mut self,
        expected: fmt::Arguments<'_>,
        valid: fn(u64) -> bool,
    ) -> Result<[T; N], ParseError>
    where
        T: TryFrom<u64> + Copy + Default,
    {
        let line = self.expect_line(expected)?;
        parse_values(&line, expected, valid)
    }

    /// The next line as a single value.
    fn value<T>(
        &mut self,
        expected: fmt::Arguments<'_>,
        valid: fn(u64) -> bool,
    ) -> Result<T, ParseError>
    where
        T: TryFrom<u64> + Copy + Default,
    {
        let [v] = self.values(expected, valid)?;
        Ok(v)
    }

    /// The next line must be `END`.
    fn end(&mut self) -> Result<(), ParseError> {
        let line = self.expect_line(format_args!("`END`"))?;
        if line.text.trim_ascii() == "END" {
            Ok(())
        } else {
            Err(line.error(format_args!("`END`"), found_line(line.text)))
        }
    }

    fn read_packs(&mut self) -> Result<Box<[Pack; PACKS_PER_GAME]>, ParseError> {
        let mut packs = Box::new([Pack::default(); PACKS_PER_GAME]);
        for (i, pack) in packs.iter_mut().enumerate() {
            *pack = self.read_pack(i)?;
        }
        Ok(packs)
    }

    fn read_pack(&mut self, index: usize) -> Result<Pack, ParseError> {
        let number = index + 1;
        let top = self.values(
            format_args!("pack {number} of {PACKS_PER_GAME}: top row, 2 integers in 0..=9"),
            is_pack_value,
        )?;
        let bottom = self.values(
            format_args!("pack {number} of {PACKS_PER_GAME}: bottom row, 2 integers in 0..=9"),
            is_pack_value,
        )?;
        self.end()?;
        Ok(Pack::new(top, bottom))
    }

    fn read_turn(&mut self) -> Result<TurnInput, ParseError> {
        let turn = self.value(
            format_args!("a turn number in 0..={}", PACKS_PER_GAME - 1),
            is_turn,
        )?;
        let me = self.read_player("my")?;
        let opponent = self.read_player("the opponent's")?;
        Ok(TurnInput {
            turn,
            players: [me, opponent],
        })
    }

    /// One player's four numbers, field and `END`; `whose` names the player in errors.
    fn read_player(&mut self, whose: &str) -> Result<PlayerView, ParseError> {
        let time_left_ms = self.value(
            format_args!("{whose} remaining time in ms (a non-negative integer)"),
            any,
        )?;
        let ojama = self.value(
            format_args!("{whose} ojama stock (a non-negative integer)"),
            any,
        )?;
        let gauge = self.value(format_args!("{whose} skill gauge in 0..=100"), is_gauge)?;
        let score = self.value(format_args!("{whose} score (a non-negative integer)"), any)?;
        let mut rows = [[0; FIELD_WIDTH]; FIELD_HEIGHT];
        for (y, row) in rows.iter_mut().enumerate() {
            *row = self.values(
                format_args!(
                    "{whose} field row {} of {FIELD_HEIGHT}: {FIELD_WIDTH} cells, each 0..=9 or 11",
                    y + 1
                ),
                is_cell,
            )?;
        }
        self.end()?;
        Ok(PlayerView {
            time_left_ms,
            ojama,
            gauge,
            score,
            rows,
        })
    }
}

/// Reads a whole recorded stream into games.
pub fn read_all(input: impl BufRead) -> Result<Vec<Game>, ParseError> {
    let mut reader = Reader::new(input);
    let mut games: Vec<Game> = Vec::new();
    while let Some(event) = reader.next_event()? {
        match (event, games.last_mut()) {
            (Event::GameStart(packs), _) => games.push(Game {
                packs,
                turns: Vec::new(),
            }),
            (Event::Turn(turn), Some(game)) => game.turns.push(*turn),
            (Event::Turn(_), None) => unreachable!("the reader rejects a turn before any game"),
        }
    }
    Ok(games)
}

/// A line with its number, for error messages.
struct Line<'a> {
    number: usize,
    text: &'a str,
}

impl Line<'_> {
    fn error(&self, expected: fmt::Arguments<'_>, found: String) -> ParseError {
        ParseError::new(self.number, expected.to_string(), found)
    }
}

fn block_kind(text: &str) -> Option<BlockKind> {
    match text.split_ascii_whitespace().count() {
        1 => Some(BlockKind::Turn),
        2 => Some(BlockKind::GameStart),
        _ => None,
    }
}

/// Exactly `N` whitespace-separated values, each accepted by `valid` and fitting `T`.
fn parse_values<T, const N: usize>(
    line: &Line<'_>,
    expected: fmt::Arguments<'_>,
    valid: fn(u64) -> bool,
) -> Result<[T; N], ParseError>
where
    T: TryFrom<u64> + Copy + Default,
{
    let count = line.text.split_ascii_whitespace().count();
    if count != N {
        return Err(line.error(expected, found_count(count, line.text)));
    }
    let mut values = [T::default(); N];
    for (slot, token) in values.iter_mut().zip(line.text.split_ascii_whitespace()) {
        *slot = parse_number(token)
            .filter(|&v| valid(v))
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| line.error(expected, quote(token)))?;
    }
    Ok(values)
}

/// A plain decimal integer: signs, letters and values beyond `u64` are rejected.
fn parse_number(token: &str) -> Option<u64> {
    if token.bytes().all(|b| b.is_ascii_digit()) {
        token.parse().ok()
    } else {
        None
    }
}

/// Non-negative fields with no upper bound other than the target type's.
fn any(_: u64) -> bool {
    true
}

fn is_pack_value(v: u64) -> bool {
    v <= 9
}

fn is_cell(v: u64) -> bool {
    v <= 9 || v == u64::from(OJAMA_VALUE)
}

fn is_turn(v: u64) -> bool {
    v < PACKS_PER_GAME as u64
}

fn is_gauge(v: u64) -> bool {
    v <= 100
}

fn found_line(text: &str) -> String {
    if text.trim_ascii().is_empty() {
        "an empty line".to_string()
    } else {
        quote(text.trim_ascii())
    }
}

fn found_count(count: usize, text: &str) -> String {
    match count {
        0 => found_line(text),
        1 => format!("1 value: {}", quote(text.trim_ascii())),
        _ => format!("{count} values: {}", quote(text.trim_ascii())),
    }
}

/// Backtick-quotes input text, shortened so that an error stays one readable line.
fn quote(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(QUOTE_LIMIT).collect();
    let ellipsis = if chars.next().is_some() { "..." } else { "" };
    format!("`{}{ellipsis}`", head.escape_debug())
}
