//! What a player does in one turn: drop the pack somewhere, or fire the skill.

use std::fmt;

/// Number of pack positions: the pack's left half goes in column 0..=8.
pub const DROP_COLUMNS: u8 = 9;
/// Number of pack rotations (quarter turns clockwise).
pub const ROTATIONS: u8 = 4;

/// One player's action for one turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Drop the pack with its left half in column `x` (0..=8) after `rot` clockwise quarter turns (0..=3).
    Drop { x: u8, rot: u8 },
    /// Fire the skill (needs a gauge of at least 80); the turn's pack is discarded.
    Skill,
}

impl Action {
    /// Every action in the original's search order: the skill, then x-major, rotation-minor.
    pub const ALL: [Action; 37] = {
        let mut all = [Action::Skill; 37];
        let mut i = 1;
        while i < 37 {
            let k = (i - 1) as u8;
            all[i] = Action::Drop {
                x: k / ROTATIONS,
                rot: k % ROTATIONS,
            };
            i += 1;
        }
        all
    };

    /// The position of the action in [`Action::ALL`].
    pub fn index(self) -> usize {
        match self {
            Action::Skill => 0,
            Action::Drop { x, rot } => 1 + usize::from(x * ROTATIONS + rot),
        }
    }

    /// The 36 pack drops, x-major and rotation-minor.
    pub fn drops() -> &'static [Action] {
        &Self::ALL[1..]
    }

    /// Whether the coordinates are inside the board (says nothing about the gauge).
    pub fn in_range(self) -> bool {
        match self {
            Action::Drop { x, rot } => x < DROP_COLUMNS && rot < ROTATIONS,
            Action::Skill => true,
        }
    }
}

/// The protocol spelling: `x r` or `S`.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Drop { x, rot } => write!(f, "{x} {rot}"),
            Action::Skill => f.write_str("S"),
        }
    }
}
