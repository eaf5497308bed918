//! A uniformly random legal action: the weakest possible opponent, useful as a floor.

use super::Player;
use crate::rng::Rng;
use crate::sim::{Action, Position};

pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> Self {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, view: &Position<'_>) -> Action {
        let legal: Vec<Action> = view.me.legal_actions().collect();
        legal[self.rng.below(legal.len() as u64) as usize]
    }
}
