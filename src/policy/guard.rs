//! The two-sided full search's part in ysai's turn. A plan sees further ahead than the
//! search but only its own side; the search sees both sides a few plies deep. So the search
//! overrules a plan's move only on outcomes it can prove within its horizon, never on its
//! evaluation's finer preferences (which measured as a loss of strength):
//! - **lethal**: another move kills the enemy whatever it does, where the plan's does not;
//! - **survive**: the plan's move dies against the enemy's best attacks (ojama it can send,
//!   and what is already in my stock), where another move lives.
//!
//! And it breaks a chain the enemy will fire on its next move ([`preempt`]): most games are
//! won by the first row that lands on a finished chain.

use std::time::Instant;

use crate::params::Params;
use crate::player::greedy::rank;
use crate::search::enemy::{self, EnemyLine, FirstMoveAttack, StatusTable};
use crate::search::eval::{EvalContext, Line, DEAD_ENEMY, DEAD_STEP, MAX_DEPTH};
use crate::search::full::{EnemyModel, FullSearch, RootValues, LOST};
use crate::search::timeman::search_depths;
use crate::search::tt::TranspositionTable;
use crate::sim::game::{offset_ojama, OJAMA_ROW};
use crate::sim::{Action, Neighbourhood, Position};

/// What the full search found this turn.
#[derive(Clone, Debug)]
pub struct Weighing {
    pub values: RootValues,
    /// The enemy's and my depths that finished.
    pub depths: (usize, usize),
    /// Positions each search valued at its deepest finished depth.
    pub nodes: (u64, u64),
    /// The enemy's best cases, which my search read.
    pub enemy: StatusTable,
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
    pub fn new(params: &Params) -> Self {
        Guard {
            tt: params
                .search
                .use_tt
                .then(|| TranspositionTable::new(params.search.tt_megabytes)),
            eval: params.eval.context(),
            model: EnemyModel {
                branch: params.search.ai2_minimax && params.search.ai3_min_over_drops,
                branch_on_big_attack: params.search.ai3_big_attack,
            },
            depths: (
                params.search.search_depth.clamp(1, MAX_DEPTH),
                params.search.enemy_search_depth.min(MAX_DEPTH),
            ),
            ignore_time: params.search.ignore_time,
            turn_limit_ms: params.clock.turn_limit_ms,
        }
    }

    /// My and the enemy's depths this turn: the flags, capped by the time left unless `-it`.
    fn depths(&self, view: &Position<'_>) -> (usize, usize) {
        if self.ignore_time {
            return self.depths;
        }
        search_depths(
            view.time_left_ms,
            self.turn_limit_ms,
            view.turn,
            self.depths,
        )
    }

    /// The enemy's search, then mine against its summary, each deepened until its depth or
    /// its deadline: the enemy's search gets half the time, mine the rest. `None` if not even
    /// one ply of each finished.
    pub fn weigh<N: Neighbourhood>(
        &self,
        view: &Position<'_>,
        deadline: Instant,
    ) -> Option<Weighing> {
        let (my_depth, enemy_depth) = self.depths(view);
        let tt = self.tt.as_ref();
        let now = Instant::now();
        let halfway = now + deadline.saturating_duration_since(now) / 2;
        let enemy_root = EnemyLine::root(view.opponent, view.me.ojama, view.me.gauge, 0);
        let table = enemy::deepen::<N>(enemy_root, view.packs, enemy_depth, tt, halfway)?;
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
            values,
            enemy: table,
        })
    }
}

/// Whether `value` is a forced win within the search's horizon.
fn wins(value: f64) -> bool {
    value >= DEAD_ENEMY - DEAD_STEP * (MAX_DEPTH as f64 + 1.0)
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

/// An enemy chain of this much is worth breaking: a 13-chain decides most games.
const PREEMPT_THREAT: i64 = 60;
/// A fire that breaks it buries the trigger under this many rows, one per turn.
const PREEMPT_ROWS: i64 = 2;

/// The enemy's rows-fallen bits over its next `depth` moves (see [`FirstMoveAttack`]) when my
/// move sends `sent` and neither side sends anything after: its own stock's row now, then a
/// row a turn while what I send, less the offset against my stock, lasts.
fn rows_on_enemy(view: &Position<'_>, sent: i64, depth: usize) -> u8 {
    let (mut theirs, mut mine) = (view.opponent.ojama, view.me.ojama);
    let mut bits = 0;
    if theirs >= OJAMA_ROW {
        theirs -= OJAMA_ROW;
        bits |= 1;
    }
    if mine >= OJAMA_ROW {
        mine -= OJAMA_ROW;
    }
    theirs += sent;
    offset_ojama(&mut theirs, &mut mine);
    for d in 1..depth {
        if theirs >= OJAMA_ROW {
            theirs -= OJAMA_ROW;
            bits |= 1 << d;
        }
    }
    bits
}

/// The enemy's threat over the search's horizon with rows falling as `calm` says, and its
/// answer when they fall as `hit` says instead. It picks its first move not knowing which
/// comes, so the answer is the best under `hit` of the first moves that build to within a row
/// of the threat under `calm`.
fn threat_and_answer(first_moves: &[FirstMoveAttack], calm: u8, hit: u8) -> (i64, i64) {
    let sent = |m: &FirstMoveAttack, bits: u8| m.sent.get(usize::from(bits)).copied().flatten();
    let calm_sent = |m: &FirstMoveAttack| sent(m, calm).unwrap_or(0);
    let threat = first_moves.iter().map(calm_sent).max().unwrap_or(0);
    let answer = first_moves
        .iter()
        .filter(|m| calm_sent(m) + OJAMA_ROW > threat)
        .map(|m| sent(m, hit).unwrap_or(0))
        .max()
        .unwrap_or(0);
    (threat, answer)
}

/// A fire now that breaks a chain the enemy fires within the search's horizon, if there is one.
///
/// The threat is what the enemy sends within its `depth` moves after the planned move. A move
/// breaks it if it survives (`survives`), sends at least [`PREEMPT_ROWS`] rows and a row more
/// than the enemy's answer under them, puts more rows on the enemy than the planned one, and
/// takes [`PREEMPT_ROWS`] rows at least off the threat. The plan keeps its move if the threat
/// is small, or if the plan fires next turn at least as much (`next_fire`). Among the moves
/// that break it, the one that comes out furthest ahead.
fn preemption<N: Neighbourhood>(
    view: &Position<'_>,
    planned: Action,
    next_fire: Option<i64>,
    first_moves: &[FirstMoveAttack],
    depth: usize,
    survives: impl Fn(Action) -> bool,
) -> Option<Action> {
    let pack = &view.packs[0];
    let sent = |action| rank::<N>(view.me, pack, action).1;
    let calm = rows_on_enemy(view, sent(planned), depth);
    let (threat, _) = threat_and_answer(first_moves, calm, calm);
    if threat < PREEMPT_THREAT || next_fire.is_some_and(|ojama| ojama >= threat) {
        return None;
    }
    let cut = PREEMPT_ROWS * OJAMA_ROW;
    view.me
        .legal_actions()
        .filter(|&action| survives(action))
        .filter_map(|action| {
            let sent = sent(action);
            let hit = rows_on_enemy(view, sent, depth);
            let more_rows = hit.count_ones() > calm.count_ones();
            let (_, answer) = threat_and_answer(first_moves, calm, hit);
            let breaks = sent >= cut && sent >= answer + OJAMA_ROW && answer + cut <= threat;
            (more_rows && breaks).then_some((action, sent - answer))
        })
        .fold(
            None,
            |best: Option<(Action, i64)>, (action, lead)| match best {
                Some((_, best_lead)) if best_lead >= lead => best,
                _ => Some((action, lead)),
            },
        )
        .map(|(action, _)| action)
}

/// [`preemption`] on what the full search found: the enemy search's first moves, and my moves
/// that did not die in my search.
pub fn preempt<N: Neighbourhood>(
    weighing: &Weighing,
    view: &Position<'_>,
    planned: Action,
    next_fire: Option<i64>,
) -> Option<Action> {
    let enemy = &weighing.enemy;
    preemption::<N>(
        view,
        planned,
        next_fire,
        &enemy.first_moves,
        enemy.depth(),
        |action| weighing.values.value_of(action) > LOST,
    )
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

    use crate::sim::{Field, Pack, PlayerState, PreparedPack, Shift};

    /// My field holds a 5 among eight 2s and my gauge is full: the skill destroys nine blocks
    /// and sends 21 ojama, every drop of the pack of 1s sends nothing.
    fn skill_ready(my_stock: i64) -> (PlayerState, PlayerState, Vec<PreparedPack>) {
        let me = PlayerState {
            field: Field::from_picture(&["222", "252", "222"]).unwrap(),
            ojama: my_stock,
            gauge: 100,
            ..PlayerState::default()
        };
        let pack = PreparedPack::new(Pack {
            cells: [[1, 1], [1, 1]],
        });
        (me, PlayerState::default(), vec![pack; 2])
    }

    fn view<'a>(state: &'a (PlayerState, PlayerState, Vec<PreparedPack>)) -> Position<'a> {
        let (me, opponent, packs) = state;
        Position {
            turn: 20,
            packs,
            me,
            opponent,
            time_left_ms: 100_000,
        }
    }

    /// A two-ply enemy search's one first move that sends `threat` unless a row falls before
    /// its second move, and `answer` if one does.
    fn decide(
        state: &(PlayerState, PlayerState, Vec<PreparedPack>),
        planned: Action,
        next_fire: Option<i64>,
        (threat, answer): (i64, i64),
        skill_survives: bool,
    ) -> Option<Action> {
        let first_moves = [FirstMoveAttack {
            first: B,
            sent: vec![Some(threat), Some(threat), Some(answer), Some(answer)],
        }];
        let survives = |action| action != Action::Skill || skill_survives;
        preemption::<Shift>(&view(state), planned, next_fire, &first_moves, 2, survives)
    }

    #[test]
    fn what_i_send_falls_on_the_enemy_a_row_a_turn_after_the_offset() {
        let (mut me, mut enemy, packs) = skill_ready(0);
        let rows = |me: &PlayerState, enemy: &PlayerState, sent| {
            let state = (*me, *enemy, packs.clone());
            rows_on_enemy(&view(&state), sent, 4)
        };
        assert_eq!(rows(&me, &enemy, 35), 0b1110);
        assert_eq!(rows(&me, &enemy, 9), 0);
        enemy.ojama = 12;
        assert_eq!(rows(&me, &enemy, 9), 0b11, "its own row now, then 2 + 9");
        me.ojama = 25;
        assert_eq!(
            rows(&me, &enemy, 20),
            0b1,
            "15 of mine left after my row take 15 of 20"
        );
    }

    #[test]
    fn the_answer_is_that_of_the_first_moves_that_build_the_threat() {
        let first = |calm: i64, hit: Option<i64>| FirstMoveAttack {
            first: A,
            sent: vec![Some(calm), None, hit, None],
        };
        let fragile = first(79, Some(5));
        let robust = first(79, Some(70));
        let sidestep = first(30, Some(90));
        let dies = first(75, None);
        let moves = |m: &[&FirstMoveAttack]| m.iter().map(|&m| m.clone()).collect::<Vec<_>>();
        assert_eq!(
            threat_and_answer(&moves(&[&fragile, &sidestep]), 0, 2),
            (79, 5)
        );
        assert_eq!(
            threat_and_answer(&moves(&[&fragile, &robust, &sidestep]), 0, 2),
            (79, 70),
            "a first move that keeps the chain under the row"
        );
        assert_eq!(threat_and_answer(&moves(&[&fragile, &dies]), 0, 2), (79, 5));
        assert_eq!(
            threat_and_answer(&moves(&[&dies]), 0, 2),
            (75, 0),
            "dead under the row"
        );
        assert_eq!(threat_and_answer(&[], 0, 2), (0, 0));
    }

    #[test]
    fn a_fire_that_buries_a_chain_about_to_go_off_breaks_it() {
        let state = skill_ready(0);
        let skill = Some(Action::Skill);
        assert_eq!(decide(&state, A, None, (60, 0), true), skill);
        assert_eq!(decide(&state, A, Some(59), (60, 0), true), skill);
        assert_eq!(
            decide(&state, A, Some(60), (60, 0), true),
            None,
            "the plan fires as much next turn"
        );
        assert_eq!(
            decide(&state, A, None, (PREEMPT_THREAT - 1, 0), true),
            None,
            "a small threat"
        );
        assert_eq!(
            decide(&state, A, None, (60, 12), true),
            None,
            "21 sent is not a row more than an answer of 12"
        );
        assert_eq!(decide(&state, A, None, (60, 0), false), None, "dies");
        assert_eq!(
            decide(&state, Action::Skill, None, (60, 0), true),
            None,
            "the plan's move already buries it"
        );
        assert_eq!(
            decide(&skill_ready(25), A, None, (60, 0), true),
            None,
            "my stock after its row takes 15 of the 21: no row reaches the enemy"
        );
    }

    #[test]
    fn a_plan_move_falls_only_to_a_forced_win_or_to_its_own_death() {
        let win = DEAD_ENEMY - 2.0 * DEAD_STEP;
        assert_eq!(overrule(&values(&[(A, 5.0), (B, 900.0)]), A), None);
        assert_eq!(
            overrule(&values(&[(A, 5.0), (B, win)]), A),
            Some((B, Overrule::Lethal))
        );
        assert_eq!(
            overrule(&values(&[(A, LOST), (B, -900.0)]), A),
            Some((B, Overrule::Survive))
        );
        let slower_win = DEAD_ENEMY - 3.0 * DEAD_STEP;
        assert_eq!(overrule(&values(&[(A, slower_win), (B, win)]), A), None);
        assert_eq!(overrule(&values(&[(A, LOST), (B, LOST)]), A), None);
        assert_eq!(overrule(&values(&[(A, 5.0), (B, win)]), B), None);
    }
}
