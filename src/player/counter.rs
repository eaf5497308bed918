//! `--ai counter`: a sparring partner that plays the 2019 counter specialist's way
//! (champions.md §4): it builds the biggest chain it can and keeps it, firing first only
//! late and big; once the opponent's attack reaches its stock it answers with the chain it has
//! built, and after its first fire it fires every chain of 11 or more. Its build is the line of
//! moves to the biggest chain a beam ranked by the pack-free potential could fire after this
//! move, short of the firing move itself (the firing rules decide that one), or the line to the
//! beam's best node where no chain was found: the opening's wide and deep beam on turn 0,
//! followed while the field is the one it expects, then the per-turn beam's whenever it is not.

use std::marker::PhantomData;
use std::time::Instant;

use super::{Greedy, Player};
use crate::search::beam::{search as beam_search, BeamConfig, BeamResult, BeamRoot};
use crate::search::fire::Fires;
use crate::search::greedy::survives;
use crate::search::plan::TrackedPlan;
use crate::search::timeman::TurnClock;
use crate::sim::game::OJAMA_ROW;
use crate::sim::{Action, Neighbourhood, PlayerState, Position, PreparedPack};

/// While waiting it fires first only chains this long, and only after this turn.
const WAIT_CHAINS: u32 = 18;
const WAIT_UNTIL_TURN: usize = 20;
/// Once attacked, or once it has fired, chains this long go.
const FIRE_CHAINS: u32 = 11;
/// Turns after an attack in which it answers rather than builds.
const COUNTER_TURNS: usize = 15;
/// A field whose tallest column and pending rows together reach this fires anything: the
/// rows to come would bury it.
const PINCH_ROWS: i64 = 15;
/// A beam's time at the qualifier's clock (scaled): the opening's, later turns'.
const OPENING_MS: u64 = 18_000;
const TURN_MS: u64 = 8_000;

/// What the counter partner reads: its build beams and the turn limit.
#[derive(Clone, Debug)]
pub struct CounterConfig {
    /// The opening's build beam and the per-turn one (depth, widths, evaluation, node
    /// budget); their deadlines are set per turn.
    pub opening: BeamConfig,
    pub beam: BeamConfig,
    pub turn_limit_ms: u64,
}

pub struct CounterPlayer<N: Neighbourhood> {
    config: CounterConfig,
    /// No chain of its own fired yet: it keeps its chain for the opponent's attack.
    waiting: bool,
    /// The last turn the opponent's attack reached its stock.
    attacked: Option<usize>,
    /// The stock it saw last turn.
    stock: i64,
    /// The build being followed.
    plan: Option<TrackedPlan>,
    neighbours: PhantomData<N>,
}

impl<N: Neighbourhood> CounterPlayer<N> {
    pub fn new(config: CounterConfig) -> Self {
        CounterPlayer {
            config,
            waiting: true,
            attacked: None,
            stock: 0,
            plan: None,
            neighbours: PhantomData,
        }
    }

    /// The chain length that fires this turn.
    fn fire_from(&self, view: &Position<'_>) -> u32 {
        let me = view.me;
        let tallest = i64::from(me.field.heights().into_iter().max().unwrap_or(0));
        let pinch = tallest + me.ojama / OJAMA_ROW >= PINCH_ROWS;
        let answering = self.attacked.is_some_and(|t| view.turn < t + COUNTER_TURNS);
        if pinch {
            1
        } else if answering || !self.waiting {
            FIRE_CHAINS
        } else if view.turn > WAIT_UNTIL_TURN {
            WAIT_CHAINS
        } else {
            u32::MAX
        }
    }

    /// The build's move this turn: the plan's while the field is the one it expects, else
    /// the first of a new plan (the opening's beam on turn 0, the per-turn beam after).
    fn build(&mut self, view: &Position<'_>, start: Instant) -> Option<Action> {
        if let Some(action) = self.plan.as_ref().and_then(|p| p.next(view.turn, view.me)) {
            return Some(action);
        }
        let (beam, flag_ms) = if view.turn == 0 {
            (&self.config.opening, OPENING_MS)
        } else {
            (&self.config.beam, TURN_MS)
        };
        let mut beam = beam.clone();
        beam.deadline =
            Some(TurnClock::of(view, self.config.turn_limit_ms, start).scaled_deadline(flag_ms));
        beam.fit_deadline = Some(beam.depth);
        let root = BeamRoot {
            state: *view.me,
            enemy_ojama: view.opponent.ojama,
            packs: view.packs,
        };
        let result = beam_search::<N>(root, &beam);
        let moves = build_line(&result);
        let first = moves.first().copied();
        self.plan = Some(TrackedPlan::new::<N>(view.turn, view.me, view.packs, moves));
        first
    }
}

/// The moves to the biggest fire `result` found past its first move (earliest among equals),
/// without the firing move; else the line to its best node.
fn build_line(result: &BeamResult) -> Vec<Action> {
    let later = Fires {
        by_depth: result.fires.iter().skip(1).cloned().collect(),
    };
    match later.choose(i64::MAX) {
        Some(fire) => fire.path[..fire.path.len() - 1].to_vec(),
        None => result.plan.clone(),
    }
}

/// My longest chain this turn among the moves that survive it, and a move that fires it.
fn best_chain<N: Neighbourhood>(me: &PlayerState, pack: &PreparedPack) -> Option<(u32, Action)> {
    me.legal_actions()
        .filter_map(|action| {
            let (_, result) = me.try_play::<N>(pack, action)?;
            (result.chains > 0).then_some((result.chains, action))
        })
        .max_by_key(|&(chains, action)| (chains, std::cmp::Reverse(action.index())))
}

impl<N: Neighbourhood> Player for CounterPlayer<N> {
    fn choose(&mut self, view: &Position<'_>) -> Action {
        let start = Instant::now();
        if view.me.ojama > self.stock {
            self.attacked = Some(view.turn);
        }
        self.stock = view.me.ojama;
        let fire =
            best_chain::<N>(view.me, &view.packs[0]).filter(|&(c, _)| c >= self.fire_from(view));
        if let Some((chains, action)) = fire {
            if chains >= FIRE_CHAINS {
                self.waiting = false;
            }
            self.plan = None;
            return action;
        }
        match self.build(view, start) {
            Some(action) if survives::<N>(view.me, &view.packs[0], action) => action,
            _ => Greedy::<N>::default().choose(view),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::tests::{packs, view};
    use crate::sim::{Field, Shift};

    fn config() -> CounterConfig {
        CounterConfig {
            opening: BeamConfig::new(4, 20, 10),
            beam: BeamConfig::new(3, 20, 10),
            turn_limit_ms: 20_000,
        }
    }

    /// Packs that drop a 3 on column 0, and a field whose 7 there it fires.
    fn three_on_a_seven() -> (Vec<PreparedPack>, PlayerState) {
        let me = PlayerState {
            field: Field::from_picture(&["7"]).unwrap(),
            ..PlayerState::default()
        };
        (packs([[0, 0], [3, 0]], 4), me)
    }

    #[test]
    fn it_waits_with_a_ready_chain_and_answers_once_attacked() {
        let (packs, me) = three_on_a_seven();
        let none = PlayerState::default();
        let mut player = CounterPlayer::<Shift>::new(config());
        assert_eq!(
            player.fire_from(&view(5, &packs, &me, &none)),
            u32::MAX,
            "waiting"
        );
        assert_eq!(
            player.fire_from(&view(25, &packs, &me, &none)),
            WAIT_CHAINS,
            "late: only big"
        );
        // The opponent's attack reaches the stock: it answers with 11 or more for a while.
        let attacked = PlayerState { ojama: 5, ..me };
        player.choose(&view(2, &packs, &attacked, &none));
        assert_eq!(player.attacked, Some(2));
        assert_eq!(
            player.fire_from(&view(3, &packs, &attacked, &none)),
            FIRE_CHAINS
        );
        let later = view(2 + COUNTER_TURNS, &packs, &attacked, &none);
        assert_eq!(
            player.fire_from(&later),
            u32::MAX,
            "the answer's time is over"
        );
        let tall = PlayerState {
            field: Field::from_picture(&["1"; 12]).unwrap(),
            ojama: 25,
            ..PlayerState::default()
        };
        let player = CounterPlayer::<Shift>::new(config());
        assert_eq!(player.fire_from(&view(5, &packs, &tall, &none)), u32::MAX);
        let taller = PlayerState { ojama: 30, ..tall };
        assert_eq!(
            player.fire_from(&view(5, &packs, &taller, &none)),
            1,
            "in a pinch"
        );
    }

    #[test]
    fn it_builds_toward_its_biggest_later_chain_and_leaves_the_fire_to_the_rules() {
        use crate::search::fire::tests::fire;
        let moves = |n: usize| vec![Action::Drop { x: n as u8, rot: 0 }; n];
        let result = |fires: Vec<Option<crate::search::fire::Fire>>| BeamResult {
            plan: moves(2),
            fires,
            ..BeamResult::default()
        };
        let line = build_line(&result(vec![
            Some(fire(1, 14)),
            Some(fire(2, 9)),
            Some(fire(4, 12)),
        ]));
        assert_eq!(
            line.len(),
            3,
            "to the 12 on the fourth move, not the 14 fired now"
        );
        assert_eq!(
            build_line(&result(vec![Some(fire(1, 14))])),
            moves(2),
            "no later chain"
        );
    }

    #[test]
    fn it_fires_a_ready_chain_when_its_length_is_due() {
        // A 3 dropped on the 7 fires a one-chain: due only in a pinch.
        let (packs, me) = three_on_a_seven();
        let none = PlayerState::default();
        assert_eq!(best_chain::<Shift>(&me, &packs[0]).map(|c| c.0), Some(1));
        let mut player = CounterPlayer::<Shift>::new(config());
        let built = player.choose(&view(1, &packs, &me, &none));
        let mut after = me;
        assert_eq!(
            after.act::<Shift>(&packs[0], built).chains,
            0,
            "it builds instead"
        );
    }
}
