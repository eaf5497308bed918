//! One ply: the action that sends the most ojama, then leaves the fewest blocks, among those
//! that do not lose (all of them considered only when every action loses).

use super::Player;
use crate::search::greedy::best_move;
use crate::sim::{Action, Neighbourhood, Position};
use std::marker::PhantomData;

pub struct Greedy<N: Neighbourhood> {
    neighbours: PhantomData<N>,
}

impl<N: Neighbourhood> Default for Greedy<N> {
    fn default() -> Self {
        Greedy {
            neighbours: PhantomData,
        }
    }
}

impl<N: Neighbourhood> Player for Greedy<N> {
    fn choose(&mut self, view: &Position<'_>) -> Action {
        best_move::<N>(view.me, &view.packs[0])
    }
}
