//! Searches over the simulator: the chain-building beam, and the transposition table the
//! full searches share.

pub mod beam;
pub mod chokudai;
pub mod enemy;
pub mod eval;
pub mod fire;
pub mod full;
pub mod greedy;
pub mod key;
pub mod last_ply;
pub mod plan;
pub mod potential;
pub mod timeman;
pub mod tt;
pub mod widen;

pub use beam::{
    search as beam_search, BeamConfig, BeamEval, BeamResult, BeamRoot, Injection, Target,
};
