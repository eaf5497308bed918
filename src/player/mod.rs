//! Players: given the game and the turn, choose an action. Every action a player returns is
//! legal for the state it was given.

mod beam;
mod counter;
pub mod greedy;
pub mod original;
pub mod plan_rules;
mod random;
pub mod rush;
pub mod ysai;

pub use beam::{BeamPlayer, BeamPlayerConfig};
pub use counter::{CounterConfig, CounterPlayer};
pub use greedy::Greedy;
pub use original::OriginalPlayer;
pub use random::RandomPlayer;
pub use rush::RushPlayer;
pub use ysai::Ysai;

use crate::sim::{Action, Position};

pub trait Player {
    fn choose(&mut self, view: &Position<'_>) -> Action;
}

#[cfg(test)]
mod tests;
