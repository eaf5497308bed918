//! Players: given the game and the turn, choose an action. Every action a player returns is
//! legal for the state it was given.

mod beam;
mod counter;
pub mod greedy;
mod original;
mod random;
mod report;
pub mod rush;
mod ysai;

pub use beam::BeamPlayer;
pub use counter::{CounterConfig, CounterPlayer};
pub use greedy::Greedy;
pub use original::OriginalPlayer;
pub use random::RandomPlayer;
pub use rush::RushPlayer;

use crate::sim::{Action, Position};

pub trait Player {
    fn choose(&mut self, view: &Position<'_>) -> Action;
}

#[cfg(test)]
mod tests;
