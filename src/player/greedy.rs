//! One ply: the action that sends the most ojama, then leaves the fewest blocks, among those
//! that do not lose (all of them considered only when every action loses).

use super::Player;
use crate::sim::{Action, Neighbourhood, PlayerState, Position, PreparedPack};
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

/// Larger is better: survive, send more ojama, keep fewer blocks, prefer the earlier action.
type Rank = (bool, i64, i64);

/// How good `action` is for `me` this turn.
pub fn rank<N: Neighbourhood>(me: &PlayerState, pack: &PreparedPack, action: Action) -> Rank {
    let mut state = *me;
    state.drop_pending_ojama();
    let result = state.act::<N>(pack, action);
    (
        !result.dead,
        result.ojama,
        -i64::from(state.field.blocks().popcount()),
    )
}

/// Whether `action` is legal for `me` and keeps me alive this turn.
pub fn survives<N: Neighbourhood>(me: &PlayerState, pack: &PreparedPack, action: Action) -> bool {
    me.is_legal(action) && rank::<N>(me, pack, action).0
}

/// The greedy move of `me` with `pack`: the best [`rank`], the first in search order among
/// equals.
pub fn best_move<N: Neighbourhood>(me: &PlayerState, pack: &PreparedPack) -> Action {
    let mut best = (Action::drops()[0], rank::<N>(me, pack, Action::drops()[0]));
    for action in me.legal_actions() {
        let score = rank::<N>(me, pack, action);
        if score > best.1 {
            best = (action, score);
        }
    }
    best.0
}

impl<N: Neighbourhood> Player for Greedy<N> {
    fn choose(&mut self, view: &Position<'_>) -> Action {
        best_move::<N>(view.me, &view.packs[0])
    }
}
