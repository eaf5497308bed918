//! Players: given the game and the turn, choose an action. Every action a player returns is
//! legal for the state it was given.

mod beam;
mod full;
pub mod greedy;
mod random;
mod report;
mod rush;

pub use beam::BeamPlayer;
pub use full::FullPlayer;
pub use greedy::Greedy;
pub use random::RandomPlayer;
pub use rush::RushPlayer;

use crate::sim::{Action, PlayerState, PreparedPack};

/// What a player sees on its turn.
pub struct TurnView<'a> {
    pub turn: usize,
    /// This turn's pack, then the following ones.
    pub packs: &'a [PreparedPack],
    pub me: &'a PlayerState,
    pub opponent: &'a PlayerState,
    /// My remaining thinking time in milliseconds.
    pub time_left_ms: i64,
}

pub trait Player {
    fn choose(&mut self, view: &TurnView<'_>) -> Action;
}

#[cfg(test)]
mod tests;
