//! ysai: a tournament AI for CODE VS Reborn.
//!
//! Data flows one way: [`protocol`] reads the game, [`play`] hands each position to the
//! [`player`] chosen (built once from its own config, which [`params`] makes from the flags),
//! the player asks the [`search`]es, which call the simulator ([`sim`]) millions of times, and
//! the move goes back out through [`protocol`]. Nothing below the players imports a player or
//! the flags; `docs/layout.md` draws the parts.

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
