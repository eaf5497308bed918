//! A plan: the moves a search found, each with the field it expects to find before it is
//! played, or, for a plan that ends in a fire, the chain it must still fire.

use crate::search::chokudai::step;
use crate::sim::{Action, Field, MoveResult, Neighbourhood, PlayerState, PreparedPack};

/// A sequence of moves and how to tell that it is still on track.
pub struct Plan {
    first_turn: usize,
    moves: Vec<Action>,
    track: Track,
}

enum Track {
    /// The field each move expects to find before it is played.
    Fields(Vec<Field>),
    /// The chain the last move fires: followed while the rest of the plan, played from the
    /// real position, still fires it (whatever ojama fell).
    Fire(u32),
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
            track: Track::Fields(fields),
        }
    }

    /// A plan whose last move fires `chains`.
    pub fn firing(first_turn: usize, moves: Vec<Action>, chains: u32) -> Self {
        Plan {
            first_turn,
            moves,
            track: Track::Fire(chains),
        }
    }

    /// The planned move for this turn (`packs` starts with its pack), if the plan is on track:
    /// the field is the one it expects and no ojama row is about to fall on it, or, for a
    /// firing plan, the rest of it still fires its chain.
    pub fn next<N: Neighbourhood>(
        &self,
        turn: usize,
        me: &PlayerState,
        packs: &[PreparedPack],
    ) -> Option<Action> {
        let k = turn.checked_sub(self.first_turn)?;
        let action = *self.moves.get(k)?;
        let on_track = match &self.track {
            Track::Fire(chains) => {
                replay::<N>(me, packs, &self.moves[k..]).is_some_and(|r| r.chains >= *chains)
            }
            Track::Fields(fields) => {
                fields.get(k) == Some(&me.field) && me.ojama < crate::sim::game::OJAMA_ROW
            }
        };
        on_track.then_some(action)
    }

    /// The turn after the plan's last move.
    pub fn end(&self) -> usize {
        self.first_turn + self.moves.len()
    }
}

/// What the last of `moves` does when they are played from `me` with `packs` (ojama rows
/// falling from its stock, my attacks offsetting it); `None` if one is illegal or dies.
pub fn replay<N: Neighbourhood>(
    me: &PlayerState,
    packs: &[PreparedPack],
    moves: &[Action],
) -> Option<MoveResult> {
    let mut state = *me;
    let mut last = MoveResult::default();
    for (pack, &action) in packs.iter().zip(moves) {
        (state, last) = step::<N>(&state, pack, action, 0)?;
    }
    Some(last)
}
