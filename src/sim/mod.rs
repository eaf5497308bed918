//! The rules of CODE VS Reborn: packs, fields, turns.

pub mod action;
pub mod field;
pub mod game;
pub mod neighbours;
pub mod oracle;
pub mod pack;

pub use action::Action;
pub use field::{
    acts_apart, CountedBoards, DropOutcome, Field, FieldCounts, FieldError, MoveResult, QuietDrop,
};
pub use game::{play_turn, play_turn_passing, PlayerState, Position, TurnOutcome};
pub use neighbours::{Neighbourhood, Shift, Table};
pub use pack::{Pack, PreparedPack, PACKS_PER_GAME};

#[cfg(test)]
pub(crate) mod tests;
