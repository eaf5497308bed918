//! `--ai beam`: the chain builder alone. Turn 0 searches a plan with the first beam (§9a);
//! the plan is followed while the field is the one it expects; afterwards each turn re-plans
//! with the per-turn beam (§9b). A chain of `-bcm` or more (12 when `-bcm` is off) is fired as
//! soon as some move can fire it. Every budget is scaled to the clock left (`search::timeman`).

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use super::Player;
use crate::search::beam::{BeamConfig, TurnBeam};
use crate::search::greedy::survives;
use crate::search::plan::TrackedPlan;
use crate::search::timeman::TurnClock;
use crate::search::{beam_search, BeamRoot};
use crate::sim::{Action, Neighbourhood, PlayerState, Position, PreparedPack};

/// Below this budget a per-turn beam is not worth starting.
const MIN_BEAM: Duration = Duration::from_millis(10);

/// What the beam player reads: its two beams and their times, the chain it fires, the turn
/// limit.
#[derive(Clone, Debug)]
pub struct BeamPlayerConfig {
    /// The first beam (turn 0) and its time at the qualifier's clock (scaled).
    pub first: BeamConfig,
    pub first_ms: u64,
    /// The per-turn beam and its time.
    pub turn: TurnBeam,
    pub turn_ms: u64,
    /// A chain this long fires as soon as some move can fire it.
    pub fire_chain: u32,
    pub turn_limit_ms: u64,
}

pub struct BeamPlayer<N: Neighbourhood> {
    config: BeamPlayerConfig,
    plan: Option<TrackedPlan>,
    neighbours: PhantomData<N>,
}

impl<N: Neighbourhood> BeamPlayer<N> {
    pub fn new(config: BeamPlayerConfig) -> Self {
        BeamPlayer {
            config,
            plan: None,
            neighbours: PhantomData,
        }
    }

    fn first_plan(&mut self, view: &Position<'_>, start: Instant) {
        let mut config = self.config.first.clone();
        config.deadline = Some(
            TurnClock::of(view, self.config.turn_limit_ms, start)
                .scaled_deadline(self.config.first_ms),
        );
        let result = beam_search::<N>(root(view), &config);
        self.plan = Some(TrackedPlan::new::<N>(
            view.turn,
            view.me,
            view.packs,
            result.plan,
        ));
    }

    fn turn_plan(
        &self,
        view: &Position<'_>,
        start: Instant,
        first_move_chain: u32,
    ) -> Option<Action> {
        let mut config = self.config.turn.for_chain(first_move_chain);
        let budget =
            TurnClock::of(view, self.config.turn_limit_ms, start).scaled(self.config.turn_ms);
        if budget < MIN_BEAM && config.node_budget.is_none() {
            return None;
        }
        config.deadline = Some(start + budget);
        beam_search::<N>(root(view), &config).plan.first().copied()
    }
}

fn root<'a>(view: &Position<'a>) -> BeamRoot<'a> {
    BeamRoot {
        state: *view.me,
        enemy_ojama: view.opponent.ojama,
        packs: view.packs,
    }
}

/// My largest chain this turn among the drops that survive, and a drop that fires it.
fn best_chain<N: Neighbourhood>(me: &PlayerState, pack: &PreparedPack) -> (u32, Action) {
    let mut best = (0, Action::drops()[0]);
    for &action in Action::drops() {
        let (_, result) = me.play::<N>(pack, action);
        if !result.dead && result.chains > best.0 {
            best = (result.chains, action);
        }
    }
    best
}

impl<N: Neighbourhood> Player for BeamPlayer<N> {
    fn choose(&mut self, view: &Position<'_>) -> Action {
        let start = Instant::now();
        let pack = &view.packs[0];
        if view.turn == 0 {
            self.first_plan(view, start);
        }
        let (chain, fire) = best_chain::<N>(view.me, pack);
        if chain >= self.config.fire_chain {
            return fire;
        }
        let planned = self
            .plan
            .as_ref()
            .and_then(|plan| plan.next(view.turn, view.me));
        let choice = planned.or_else(|| {
            self.plan = None;
            self.turn_plan(view, start, chain)
        });
        match choice {
            Some(action) if survives::<N>(view.me, pack, action) => action,
            _ => super::Greedy::<N>::default().choose(view),
        }
    }
}
