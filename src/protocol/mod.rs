//! The line-based stdin/stdout protocol of the CODE VS Reborn server.
//!
//! [`Reader`] turns the server's input into [`Event`]s: a 500-pack block starts a game, a turn
//! block describes both players before a move. [`Writer`] sends the AI's name and its moves.
//! The reader is strict about content (every value is range-checked) but lenient about layout
//! (trailing whitespace, `\r\n`, blank lines between blocks, no final newline).

mod check;
mod reader;
mod writer;

use std::fmt;

use crate::sim::field::OJAMA_VALUE;
use crate::sim::{Pack, PACKS_PER_GAME};

pub use check::{check_reader, ReaderCheck};
pub use reader::{read_all, Reader};
pub use writer::{format_game_start, format_turn, Writer};

/// Columns of a player's field.
pub const FIELD_WIDTH: usize = 10;
/// Rows of a player's field as the protocol sends it (the danger line is not included).
pub const FIELD_HEIGHT: usize = 16;

/// One player's state at the start of a turn, exactly as the server sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    /// Thinking time left in the game.
    pub time_left_ms: i64,
    /// Ojama stock before this turn's row drop.
    pub ojama: i64,
    /// Skill gauge (0..=100) at the end of the previous turn.
    pub gauge: i32,
    /// Cumulative score.
    pub score: i64,
    /// The field at the end of the previous turn: `rows[0]` is the TOP row; each cell is 0
    /// (empty), 1..=9 (a numbered block) or [`OJAMA_VALUE`].
    pub rows: [[u8; FIELD_WIDTH]; FIELD_HEIGHT],
}

/// One turn's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnInput {
    /// 0..=499.
    pub turn: u32,
    /// `players[0]` is this AI, `players[1]` the opponent.
    pub players: [PlayerView; 2],
}

/// One block of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A new game starts with these packs (a stream may hold several games).
    GameStart(Box<[Pack; PACKS_PER_GAME]>),
    /// A turn of the current game; the AI must answer with one action.
    Turn(Box<TurnInput>),
}

/// One recorded game: its packs and the turns that followed them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub packs: Box<[Pack; PACKS_PER_GAME]>,
    pub turns: Vec<TurnInput>,
}

/// Malformed input: where it went wrong and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based input line; one past the last line when the input ended too early.
    pub line: usize,
    /// What the format requires at that point, e.g. "`END`".
    pub expected: String,
    /// What the input held instead, e.g. "`7`" or "end of input".
    pub found: String,
}

impl ParseError {
    pub fn new(line: usize, expected: impl Into<String>, found: impl Into<String>) -> Self {
        ParseError {
            line,
            expected: expected.into(),
            found: found.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "input line {}: expected {}, found {}",
            self.line, self.expected, self.found
        )
    }
}

impl std::error::Error for ParseError {}

#[cfg(test)]
mod tests;
