//! One ply: how good each of my actions is this turn, and the best of them. The greedy player
//! plays it; the turns use it to tell whether a move survives and as their last resort.

use crate::sim::{Action, Neighbourhood, PlayerState, PreparedPack};

/// Larger is better: survive, send more ojama, keep fewer blocks, prefer the earlier action.
type Rank = (bool, i64, i64);

/// How good `action` is for `me` this turn.
pub fn rank<N: Neighbourhood>(me: &PlayerState, pack: &PreparedPack, action: Action) -> Rank {
    let (state, result) = me.play::<N>(pack, action);
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

/// The greedy move of `me` with `pack`: the best [`rank`] (all actions considered only when
/// every one loses), the first in search order among equals.
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
