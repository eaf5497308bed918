//! The plan ysai follows: the moves left, the last one firing, and what that fire is expected
//! to do; and how a plan is chosen among the fires a search found.

use crate::search::fire::{Fire, Fires};
use crate::search::greedy::survives;
use crate::search::plan::{replay, replay_under};
use crate::sim::{Action, MoveResult, Neighbourhood, PlayerState, PreparedPack};

/// A plan firing within this many moves (this one or the next) is a ready chain.
pub const READY_MOVES: usize = 2;

/// The moves left and what the last one is expected to fire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub moves: Vec<Action>,
    pub chains: u32,
    pub ojama: i64,
}

impl Plan {
    pub fn of(fire: &Fire) -> Self {
        Plan {
            moves: fire.path.clone(),
            chains: fire.chains,
            ojama: fire.ojama,
        }
    }

    /// The plan as a fire: its moves and what the last one fires.
    pub fn fire(&self) -> Fire {
        Fire {
            path: self.moves.clone(),
            chains: self.chains,
            ojama: self.ojama,
        }
    }

    /// The fire of a later search from the plan's position that beats the plan: one by the
    /// plan's depth that sends more, or as much sooner; and while the plan falls short of
    /// `target` (a rebuild under rows) and is not ready, a later one that reaches it or sends
    /// half as much again (with `keep_ready` off, a ready one too). A later fire taken is
    /// bigger by a factor, up to the target: a plan refined toward ever bigger chains would
    /// never fire.
    pub fn refined_by<'f>(
        &self,
        fires: &'f Fires,
        target: i64,
        keep_ready: bool,
    ) -> Option<&'f Fire> {
        let (depth, ojama) = (self.moves.len(), self.ojama);
        let short = ojama < target && !(keep_ready && self.ready());
        let later = fires
            .choose(target)
            .filter(|f| short && (f.ojama >= target || f.ojama * 2 > ojama * 3));
        let sooner = fires
            .choose_by(depth)
            .filter(|f| f.ojama > ojama || (f.ojama == ojama && f.path.len() < depth));
        later.or(sooner)
    }

    /// Whether the rest of the plan, played from `me` (ojama rows falling from its stock),
    /// still fires the chain it expects.
    pub fn replays<N: Neighbourhood>(&self, me: &PlayerState, packs: &[PreparedPack]) -> bool {
        self.fires(replay::<N>(me, packs, &self.moves))
    }

    /// Whether the plan fires within `READY_MOVES`: a chain no rule trades for a longer plan
    /// unless the opponent has to wait for it.
    pub fn ready(&self) -> bool {
        self.moves.len() <= READY_MOVES
    }

    /// Whether the plan is a ready chain that meets `threat` itself: it sends at least as much,
    /// and still fires with the threat landing after its first move.
    pub fn meets<N: Neighbourhood>(
        &self,
        me: &PlayerState,
        packs: &[PreparedPack],
        threat: i64,
    ) -> bool {
        self.ready()
            && self.ojama >= threat
            && self.fires(replay_under::<N>(me, packs, &self.moves, threat))
    }

    /// Whether a replay's last move fires the chain the plan expects.
    fn fires(&self, last: Option<MoveResult>) -> bool {
        last.is_some_and(|last| (last.chains, last.ojama) == (self.chains, self.ojama))
    }
}

/// Takes the plan's next move if it is legal and survives the turn; the plan is dropped when
/// it does not, or when its last move is taken.
pub fn next_move<N: Neighbourhood>(
    plan: &mut Option<Plan>,
    me: &PlayerState,
    pack: &PreparedPack,
) -> Option<Action> {
    let moves = &mut plan.as_mut()?.moves;
    let action = moves.first().copied()?;
    if !survives::<N>(me, pack, action) {
        *plan = None;
        return None;
    }
    moves.remove(0);
    if moves.is_empty() {
        *plan = None;
    }
    Some(action)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::fire::tests::{fire, fires};
    use crate::sim::{Field, Pack, Shift};
    use ysai_tables::chain_ojama;

    #[test]
    fn a_plan_is_refined_to_a_bigger_or_sooner_fire_and_to_a_later_one_only_below_target() {
        let target = chain_ojama(13);
        let plan = |moves, chains| Plan::of(&fire(moves, chains));
        let refined = |plan: &Plan, found: &[Option<Fire>]| {
            plan.refined_by(&fires(found), target, true)
                .map(|f| (f.path.len(), f.chains))
        };
        // At the target: only a fire by the plan's depth, bigger or as big sooner.
        let thirteen = plan(4, 13);
        let found = [None, None, Some(fire(3, 12)), None, Some(fire(5, 16))];
        assert_eq!(refined(&thirteen, &found), None, "never a later fire");
        let found = [None, None, Some(fire(3, 13)), Some(fire(4, 13))];
        assert_eq!(refined(&thirteen, &found), Some((3, 13)), "as big, sooner");
        let found = [None, None, Some(fire(3, 12)), Some(fire(4, 14))];
        assert_eq!(refined(&thirteen, &found), Some((4, 14)), "bigger");
        // Below it: a later fire that reaches it, or sends half as much again.
        let seven = plan(3, 7);
        let found = [None, Some(fire(2, 8)), None, Some(fire(4, 13))];
        assert_eq!(refined(&seven, &found), Some((4, 13)), "reaches the target");
        let found = [None, Some(fire(2, 7)), None, Some(fire(4, 8))];
        assert_eq!(
            refined(&seven, &found),
            Some((2, 7)),
            "too small a gain to wait for"
        );
        let found = [None, None, None, Some(fire(4, 10))];
        assert!(chain_ojama(10) * 2 > chain_ojama(7) * 3);
        assert_eq!(refined(&seven, &found), Some((4, 10)), "half as much again");
        // A ready chain is not traded for a later one.
        let ready = plan(READY_MOVES, 7);
        let found = [None, Some(fire(2, 7)), None, Some(fire(4, 13))];
        assert_eq!(refined(&ready, &found), None, "ready");
        let traded = ready
            .refined_by(&fires(&found), target, false)
            .map(|f| f.chains);
        assert_eq!(traded, Some(13), "ready, with keep_ready off");
    }

    #[test]
    fn a_plan_is_played_move_by_move_and_dropped_when_done() {
        let me = PlayerState::default();
        let pack = PreparedPack::new(Pack {
            cells: [[1, 2], [3, 4]],
        });
        let moves = vec![Action::Drop { x: 2, rot: 1 }, Action::Drop { x: 6, rot: 0 }];
        let mut plan = Some(Plan {
            moves: moves.clone(),
            chains: 0,
            ojama: 0,
        });
        assert_eq!(next_move::<Shift>(&mut plan, &me, &pack), Some(moves[0]));
        assert_eq!(next_move::<Shift>(&mut plan, &me, &pack), Some(moves[1]));
        assert!(plan.is_none());
        assert_eq!(next_move::<Shift>(&mut plan, &me, &pack), None);
        // A move that would end the game drops the plan.
        let full = PlayerState {
            field: Field::from_picture(&["1"; 16]).unwrap(),
            ..PlayerState::default()
        };
        let mut doomed = Some(Plan {
            moves: vec![Action::Drop { x: 0, rot: 0 }],
            chains: 0,
            ojama: 0,
        });
        assert_eq!(next_move::<Shift>(&mut doomed, &full, &pack), None);
        assert!(doomed.is_none());
    }

    #[test]
    fn a_plan_replays_only_while_its_chain_still_fires() {
        // A 3 dropped onto the 7 fires a one-chain.
        let me = PlayerState {
            field: Field::from_picture(&["7"]).unwrap(),
            ..PlayerState::default()
        };
        let packs = vec![
            PreparedPack::new(Pack {
                cells: [[0, 0], [3, 0]]
            });
            3
        ];
        let plan = Plan::of(&Fire {
            path: vec![Action::Drop { x: 0, rot: 0 }],
            chains: 1,
            ojama: chain_ojama(1),
        });
        assert!(plan.replays::<Shift>(&me, &packs));
        let buried = PlayerState { ojama: 10, ..me };
        assert!(
            !plan.replays::<Shift>(&buried, &packs),
            "a row of ojama changes the result"
        );
    }
}
