//! Searches over the simulator: the chain-building beam, and the transposition table the
//! full searches share.

pub mod beam;
pub mod key;
pub mod timeman;
pub mod tt;

pub use beam::{search as beam_search, BeamConfig, BeamResult, BeamRoot, Injection, Target};
