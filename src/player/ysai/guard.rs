//! The two-sided full search's part in ysai's turn. A plan sees further ahead than the
//! search but only its own side; the search sees both sides a few plies deep. So the search
//! overrules a plan's move only on outcomes it can prove within its horizon, never on its
//! evaluation's finer preferences (which measured as a loss of strength):
//! - **lethal**: another move kills the enemy whatever it does, where the plan's does not;
//! - **survive**: the plan's move dies against the enemy's best attacks (ojama it can send,
//!   and what is already in my stock), where another move lives.

use std::time::{Duration, Instant};

use crate::search::enemy::{self, EnemyLine};
use crate::search::eval::{enemy_dead_after, EvalContext, Line, MAX_DEPTH};
use crate::search::full::{EnemyModel, FullSearch, FullSearchConfig, RootValues, LOST};
use crate::search::timeman::search_depths;
use crate::search::tt::TranspositionTable;
use crate::sim::{Action, Neighbourhood, Position};

/// My and the enemy's depths when the clock leaves only fixed work: a millisecond or two, and
/// still a move that dies within two plies is seen.
pub const FIXED_DEPTHS: (usize, usize) = (2, 2);

/// What the full search found this turn.
#[derive(Clone, Debug)]
pub struct Weighing {
    pub values: RootValues,
    /// The enemy's and my depths that finished.
    pub depths: (usize, usize),
    /// Positions each search valued at its deepest finished depth.
    pub nodes: (u64, u64),
    /// Time each search took, every depth it deepened through included.
    pub times: (Duration, Duration),
}

impl Weighing {
    /// The share of my search's inner positions the transposition table answered.
    pub fn hit_rate(&self) -> f64 {
        self.values.hits as f64 / self.values.nodes.max(1) as f64
    }
}

/// Why the search overruled the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overrule {
    Lethal,
    Survive,
}

/// The full searches and the table they share, kept for the whole game.
pub struct Guard {
    tt: Option<TranspositionTable>,
    eval: EvalContext,
    model: EnemyModel,
    depths: (usize, usize),
    ignore_time: bool,
    turn_limit_ms: u64,
}

impl Guard {
    pub fn new(config: &FullSearchConfig, turn_limit_ms: u64) -> Self {
        Guard {
            tt: config.table(),
            eval: config.eval.clone(),
            model: config.model,
            depths: config.depths,
            ignore_time: config.ignore_time,
            turn_limit_ms,
        }
    }

    /// My and the enemy's depths this turn: the flags, capped by the time left unless `-it`;
    /// doing fixed work, `FIXED_DEPTHS`.
    fn depths(&self, view: &Position<'_>, fixed: bool) -> (usize, usize) {
        if self.ignore_time {
            return self.depths;
        }
        if fixed {
            return (
                self.depths.0.min(FIXED_DEPTHS.0),
                self.depths.1.min(FIXED_DEPTHS.1),
            );
        }
        search_depths(
            view.time_left_ms,
            self.turn_limit_ms,
            view.turn,
            self.depths,
        )
    }

    /// The enemy's search, then mine against its summary, each deepened until its depth or
    /// its deadline: the enemy's search gets half the time, mine the rest. With `fixed` (the
    /// clock leaves only fixed work) both stop at `FIXED_DEPTHS`. `None` if not even one ply
    /// of each finished.
    pub fn weigh<N: Neighbourhood>(
        &self,
        view: &Position<'_>,
        deadline: Instant,
        fixed: bool,
    ) -> Option<Weighing> {
        let (my_depth, enemy_depth) = self.depths(view, fixed);
        let tt = self.tt.as_ref();
        let now = Instant::now();
        let halfway = now + deadline.saturating_duration_since(now) / 2;
        let enemy_root = EnemyLine::root(view.opponent, view.me.ojama, view.me.gauge, 0);
        let table = enemy::deepen::<N>(enemy_root, view.packs, enemy_depth, tt, halfway)?;
        let enemy_time = now.elapsed();
        let mine_start = Instant::now();
        let mut eval = self.eval.clone();
        eval.enemy_field_ojama = i64::from(view.opponent.field.ojama().popcount());
        let search = FullSearch {
            packs: view.packs,
            depth: my_depth,
            enemy: &table,
            model: self.model,
            eval: &eval,
            tt,
            deadline: Some(deadline),
        };
        let root = Line::root(view.turn, view.me, view.opponent);
        let (values, depth) = search.deepen::<N>(&root)?;
        Some(Weighing {
            depths: (table.depth(), depth),
            nodes: (table.nodes, values.nodes),
            times: (enemy_time, mine_start.elapsed()),
            values,
        })
    }
}

/// Whether `value` is a forced win within the search's horizon.
fn wins(value: f64) -> bool {
    value >= enemy_dead_after(MAX_DEPTH + 1)
}

/// The move that overrules `planned`, and why: a forced win where `planned` has none, or a
/// surviving move where `planned` dies.
pub fn overrule(values: &RootValues, planned: Action) -> Option<(Action, Overrule)> {
    let (best, best_value) = values.best()?;
    let planned_value = values.value_of(planned);
    if best == planned || best_value == planned_value {
        return None;
    }
    if wins(best_value) && !wins(planned_value) {
        return Some((best, Overrule::Lethal));
    }
    (planned_value == LOST).then_some((best, Overrule::Survive))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(pairs: &[(Action, f64)]) -> RootValues {
        RootValues {
            values: pairs.to_vec(),
            nodes: 0,
            hits: 0,
        }
    }

    const A: Action = Action::Drop { x: 0, rot: 0 };
    const B: Action = Action::Drop { x: 1, rot: 0 };

    #[test]
    fn a_plan_move_falls_only_to_a_forced_win_or_to_its_own_death() {
        let win = enemy_dead_after(2);
        assert_eq!(overrule(&values(&[(A, 5.0), (B, 900.0)]), A), None);
        assert_eq!(
            overrule(&values(&[(A, 5.0), (B, win)]), A),
            Some((B, Overrule::Lethal))
        );
        assert_eq!(
            overrule(&values(&[(A, LOST), (B, -900.0)]), A),
            Some((B, Overrule::Survive))
        );
        let slower_win = enemy_dead_after(3);
        assert_eq!(overrule(&values(&[(A, slower_win), (B, win)]), A), None);
        assert_eq!(overrule(&values(&[(A, LOST), (B, LOST)]), A), None);
        assert_eq!(overrule(&values(&[(A, 5.0), (B, win)]), B), None);
    }
}
