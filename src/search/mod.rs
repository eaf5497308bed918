//! Searches over the simulator: the chain-building beam (and later the full search).

pub mod beam;
pub mod key;

pub use beam::{search as beam_search, BeamConfig, BeamResult, BeamRoot, Injection, Target};
