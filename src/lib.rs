//! ysai: a tournament AI for CODE VS Reborn.
//!
//! Data flows one way: [`protocol`] reads the game, [`sim`] applies the rules, the players
//! choose a move, and [`protocol`] writes it back.

pub mod bitboard;
pub mod cli;
pub mod params;
pub mod player;
pub mod protocol;
pub mod rng;
pub mod selfcheck;
pub mod sim;
