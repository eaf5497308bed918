//! The AI's output (its name, then one action per turn), and the server's input text for
//! referees and tests.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::{PlayerView, TurnInput};
use crate::sim::{Action, Pack, PACKS_PER_GAME};

/// Characters the server forbids in an AI's name.
const FORBIDDEN_NAME_CHARS: &str = "\\/:*?\"<>|";

/// Writes the AI's lines, flushing each one because the server waits for it.
pub struct Writer<W: Write> {
    out: W,
}

impl<W: Write> Writer<W> {
    pub fn new(out: W) -> Self {
        Writer { out }
    }

    /// The start-up line. Names the server would reject (empty, forbidden characters or
    /// control characters) are an `InvalidInput` error.
    pub fn name(&mut self, name: &str) -> io::Result<()> {
        check_name(name)?;
        self.line(name)
    }

    /// One turn's answer: `x r` or `S`. An action outside the board is an `InvalidInput`
    /// error rather than a line the server would reject.
    pub fn action(&mut self, action: Action) -> io::Result<()> {
        if !action.in_range() {
            return Err(invalid_input(format!(
                "action {action:?} is outside the board"
            )));
        }
        self.line(&action.to_string())
    }

    pub fn into_inner(self) -> W {
        self.out
    }

    /// Writes the whole line at once, then flushes.
    fn line(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(format!("{text}\n").as_bytes())?;
        self.out.flush()
    }
}

fn check_name(name: &str) -> io::Result<()> {
    if name.is_empty() {
        return Err(invalid_input("the AI name is empty".to_string()));
    }
    match name
        .chars()
        .find(|&c| c.is_control() || FORBIDDEN_NAME_CHARS.contains(c))
    {
        Some(c) => Err(invalid_input(format!(
            "the AI name {name:?} contains {c:?}"
        ))),
        None => Ok(()),
    }
}

fn invalid_input(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// The server's game-start block for these packs.
pub fn format_game_start(packs: &[Pack; PACKS_PER_GAME]) -> String {
    let mut text = String::with_capacity(PACKS_PER_GAME * 12);
    for pack in packs {
        for [left, right] in pack.cells {
            let _ = writeln!(text, "{left} {right}");
        }
        text.push_str("END\n");
    }
    text
}

/// The server's turn block for this input.
pub fn format_turn(turn: &TurnInput) -> String {
    let mut text = format!("{}\n", turn.turn);
    for player in &turn.players {
        push_player(&mut text, player);
    }
    text
}

fn push_player(text: &mut String, player: &PlayerView) {
    let PlayerView {
        time_left_ms,
        ojama,
        gauge,
        score,
        rows,
    } = player;
    let _ = writeln!(text, "{time_left_ms}\n{ojama}\n{gauge}\n{score}");
    for row in rows {
        let cells: Vec<String> = row.iter().map(u8::to_string).collect();
        text.push_str(&cells.join(" "));
        text.push('\n');
    }
    text.push_str("END\n");
}
