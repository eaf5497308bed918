//! A plan: the moves a beam found, each with the field it expects to find before it is played.

use crate::sim::{Action, Field, Neighbourhood, PlayerState, PreparedPack};

/// A sequence of moves and the field each expects to find before it is played.
pub struct Plan {
    first_turn: usize,
    moves: Vec<Action>,
    fields: Vec<Field>,
}

impl Plan {
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
            state.drop_pending_ojama();
            state.act::<N>(pack, *action);
        }
        Plan {
            first_turn,
            moves,
            fields,
        }
    }

    /// The planned move for this turn, if the field is the one the plan expects and no ojama
    /// row is about to fall on it.
    pub fn next(&self, turn: usize, me: &PlayerState) -> Option<Action> {
        let k = turn.checked_sub(self.first_turn)?;
        let expected = self.fields.get(k)?;
        let on_track = *expected == me.field && me.ojama < crate::sim::game::OJAMA_ROW;
        on_track.then(|| self.moves[k])
    }

    /// The turn after the plan's last move.
    pub fn end(&self) -> usize {
        self.first_turn + self.moves.len()
    }
}
