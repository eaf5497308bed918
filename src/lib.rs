//! ysai: a tournament AI for CODE VS Reborn.
//!
//! Data flows one way: [`protocol`] reads the game, [`sim`] applies the rules, the players
//! choose a move, and [`protocol`] writes it back.

// Grid code reads better with (x, y) indices than with zipped iterators.
#![allow(clippy::needless_range_loop)]

pub mod arena;
pub mod bench;
pub mod bitboard;
pub mod build_info;
pub mod cli;
mod flag_values;
pub mod package;
pub mod params;
pub mod play;
pub mod player;
pub mod protocol;
pub mod render;
pub mod rng;
pub mod search;
pub mod selfcheck;
pub mod sim;
