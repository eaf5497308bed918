//! The rules of CODE VS Reborn.

pub mod action;
pub mod oracle;
pub mod pack;

pub use action::Action;
pub use pack::{Pack, PACKS_PER_GAME};
