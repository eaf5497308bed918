//! The compact record of a game that every results line keeps: both players' moves, each
//! answer's thinking time and each player's turn lines. With the game's packs (its seed or
//! pack file) it is enough to play the game again on the simulator and rebuild its replay
//! exactly, so that a match needs no `--replays` to be looked at later.

use serde::{Deserialize, Serialize};

use super::referee::{micros_of_millis, parse_command, TurnRecord};
use crate::sim::{Action, PACKS_PER_GAME};

/// A player's move in [`CompactRecord::moves`] when it sent no valid command.
const NO_MOVE: char = '-';
/// The skill in [`CompactRecord::moves`].
const SKILL: char = 'S';

/// A game's moves, thinking times and turn lines, turn by turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactRecord {
    /// Each player's answers, one per turn: a drop as its column and rotation (`31` for
    /// `3 1`), `S` for the skill, `-` for no valid command.
    pub moves: [String; 2],
    /// Each answer's thinking time in microseconds; `null` where there was no answer to time
    /// (the player had crashed).
    pub think_us: [Vec<Option<u64>>; 2],
    /// What each player wrote about each turn on stderr (see [`TurnRecord::turn_lines`]), one
    /// entry per turn; `null` for a player that wrote nothing, absent when neither did.
    #[serde(default, skip_serializing_if = "no_lines")]
    pub turn_lines: [Option<Vec<Option<String>>>; 2],
}

fn no_lines(lines: &[Option<Vec<Option<String>>>; 2]) -> bool {
    lines.iter().all(Option::is_none)
}

impl CompactRecord {
    /// The record of the turns the referee played.
    pub fn of(turns: &[TurnRecord]) -> Self {
        let per_player = |player: usize| {
            let moves = turns
                .iter()
                .map(|t| move_code(t.moves[player].as_deref().and_then(parse_command)))
                .collect();
            let think = turns
                .iter()
                .map(|t| t.think_ms[player].map(micros_of_millis))
                .collect();
            let lines: Vec<Option<String>> =
                turns.iter().map(|t| t.turn_lines[player].clone()).collect();
            let lines = lines.iter().any(Option::is_some).then_some(lines);
            (moves, think, lines)
        };
        let [(m0, t0, l0), (m1, t1, l1)] = [per_player(0), per_player(1)];
        CompactRecord {
            moves: [m0, m1],
            think_us: [t0, t1],
            turn_lines: [l0, l1],
        }
    }

    /// Each player's moves, turn by turn, checked to cover the same turns as the thinking
    /// times and turn lines.
    pub(super) fn turns(&self) -> Result<[Vec<Option<Action>>; 2], String> {
        let moves = [parse_moves(&self.moves[0])?, parse_moves(&self.moves[1])?];
        let turns = moves[0].len();
        let mut lengths = vec![
            moves[1].len(),
            self.think_us[0].len(),
            self.think_us[1].len(),
        ];
        lengths.extend(self.turn_lines.iter().flatten().map(Vec::len));
        if let Some(other) = lengths.into_iter().find(|&n| n != turns) {
            return Err(format!(
                "its record holds {turns} turns of moves but {other} of another field"
            ));
        }
        if turns > PACKS_PER_GAME {
            return Err(format!(
                "its record holds {turns} turns; a game has {PACKS_PER_GAME}"
            ));
        }
        Ok(moves)
    }
}

/// One move as the record writes it.
fn move_code(action: Option<Action>) -> String {
    match action {
        Some(Action::Drop { x, rot }) => format!("{x}{rot}"),
        Some(Action::Skill) => SKILL.to_string(),
        None => NO_MOVE.to_string(),
    }
}

/// The moves of a record's move string.
pub(super) fn parse_moves(text: &str) -> Result<Vec<Option<Action>>, String> {
    let mut moves = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        let action = match c {
            NO_MOVE => None,
            SKILL => Some(Action::Skill),
            x => {
                let rot = chars.next().unwrap_or(NO_MOVE);
                let drop = parse_command(&format!("{x} {rot}")).filter(|a| a.in_range());
                Some(drop.ok_or_else(|| {
                    format!(
                        "move {} of the record, `{x}{rot}`, is not a drop on the board",
                        moves.len()
                    )
                })?)
            }
        };
        moves.push(action);
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::millis_of_micros;

    #[test]
    fn moves_read_back_as_written() {
        let mut moves: Vec<Option<Action>> = Action::ALL.into_iter().map(Some).collect();
        moves.insert(3, None);
        moves.push(None);
        let text: String = moves.iter().map(|&m| move_code(m)).collect();
        assert!(text.starts_with("S0001-02"), "{text}");
        assert_eq!(text.len(), 36 * 2 + 3);
        assert_eq!(parse_moves(&text).unwrap(), moves);
    }

    #[test]
    fn a_move_off_the_board_or_cut_short_is_an_error() {
        for (text, bad) in [("0031S99", "`99`"), ("003", "`3-`"), ("00x1", "`x1`")] {
            let err = parse_moves(text).unwrap_err();
            assert!(
                err.contains(bad) && err.contains("not a drop"),
                "{text}: {err}"
            );
        }
    }

    #[test]
    fn thinking_times_read_back_to_the_recorded_milliseconds() {
        for micros in [
            0,
            1,
            999,
            1_001,
            123_456,
            19_999_999,
            180_000_000,
            987_654_321_123,
        ] {
            let ms = millis_of_micros(micros);
            assert_eq!(micros_of_millis(ms), micros);
            assert_eq!(
                millis_of_micros(micros_of_millis(ms)).to_bits(),
                ms.to_bits()
            );
        }
    }

    #[test]
    fn fields_of_different_lengths_are_an_error() {
        let record = CompactRecord {
            moves: ["0011".into(), "S-".into()],
            think_us: [vec![Some(1), Some(2)], vec![Some(3)]],
            turn_lines: [None, None],
        };
        let err = record.turns().unwrap_err();
        assert!(err.contains("2 turns of moves but 1"), "{err}");
    }
}
