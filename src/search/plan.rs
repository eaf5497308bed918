//! The original's plan: the moves its first beam found, each with the field it expects to
//! find before it is played; and [`replay`], which tells what a line of moves still does.

use crate::sim::{Action, Field, MoveResult, Neighbourhood, PlayerState, PreparedPack};

/// A sequence of moves and how to tell that it is still on track: the field each move
/// expects to find (the plan rules' own plan, `player::plan_rules::Plan`, is checked by replaying it instead).
pub struct TrackedPlan {
    first_turn: usize,
    moves: Vec<Action>,
    /// The field each move expects to find before it is played.
    fields: Vec<Field>,
}

impl TrackedPlan {
    pub fn new<N: Neighbourhood>(
        first_turn: usize,
        me: &PlayerState,
        packs: &[PreparedPack],
        moves: Vec<Action>,
    ) -> Self {
        let mut state = *me;
        let mut fields = Vec::with_capacity(moves.len());
        for (action, pack) in moves.iter().zip(packs) {
            fields.push(state.field);
            state = state.play::<N>(pack, *action).0;
        }
        TrackedPlan {
            first_turn,
            moves,
            fields,
        }
    }

    /// The planned move for this turn, if the plan is on track: the field is the one it
    /// expects and no ojama row is about to fall on it.
    pub fn next(&self, turn: usize, me: &PlayerState) -> Option<Action> {
        let k = turn.checked_sub(self.first_turn)?;
        let action = *self.moves.get(k)?;
        let on_track =
            self.fields.get(k) == Some(&me.field) && me.ojama < crate::sim::game::OJAMA_ROW;
        on_track.then_some(action)
    }
}

/// What the last of `moves` does when they are played from `me` with `packs` (ojama rows
/// falling from its stock, my attacks offsetting it); `None` if one is illegal or dies.
pub fn replay<N: Neighbourhood>(
    me: &PlayerState,
    packs: &[PreparedPack],
    moves: &[Action],
) -> Option<MoveResult> {
    replay_under::<N>(me, packs, moves, 0)
}

/// [`replay`] with `attack` landing in my stock after the first move.
pub fn replay_under<N: Neighbourhood>(
    me: &PlayerState,
    packs: &[PreparedPack],
    moves: &[Action],
    attack: i64,
) -> Option<MoveResult> {
    let mut state = *me;
    let mut last = MoveResult::default();
    for (k, (pack, &action)) in packs.iter().zip(moves).enumerate() {
        let injected = if k == 0 { attack } else { 0 };
        (state, last) = state.try_play_under::<N>(pack, action, injected)?;
    }
    Some(last)
}
