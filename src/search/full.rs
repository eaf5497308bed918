//! My full search (reference §9d): every line of my moves a few plies deep, against the
//! enemy's best case read from its search (§9c), leaves valued by the evaluation (§10). With
//! `-ai3` a depth at which the enemy's attack would change who gets a row branches into "it
//! attacks" and "it does not", and the line is worth the worse of the two.
//!
//! The 37 root moves are searched on rayon workers that share one lock-free transposition
//! table. Every input of a line's value is in its key, so a hit returns exactly what the
//! search would have computed: the result does not depend on the thread count.

use std::cell::Cell;
use std::time::Instant;

use rayon::prelude::*;

use super::enemy::{StatusTable, ANY, BEFORE, NEVER};
use super::eval::{enemy_dead_after, evaluate, raise_gauge, skill_worth_trying, EvalContext, Line};
use super::key::WordHasher;
use super::last_ply::{LastPlyDrops, Reading};
use super::timeman::Deadline;
use super::tt::TranspositionTable;
use crate::sim::game::{gauge_damage, offset_ojama, GAUGE_PER_VANISH, OJAMA_ROW, SKILL_COST};
use crate::sim::{Action, Field, MoveResult, Neighbourhood, PreparedPack};

/// Value of a line with no surviving move.
pub const LOST: f64 = f64::NEG_INFINITY;
/// A chain this long counts as a decisive blow, like the skill.
const DECISIVE_CHAIN: u32 = 10;
/// An enemy that has already sent this much on a line is assumed unable to attack again.
const SPENT_ATTACK: i64 = 6;

/// The trusted window (the qualifier's): turns before this one play the first plan without a
/// full search; from it on, the full search weighs every move (the original's turn and ysai's
/// alike).
pub const TRUSTED_TURNS: usize = 8;

/// How the enemy is modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnemyModel {
    /// `-ai3`: branch on "the enemy attacks / does not" where it matters.
    pub branch: bool,
    /// The final version also branched on any attack of 10 or more; the qualifier only when
    /// the attack changes who gets a row.
    pub branch_on_big_attack: bool,
}

/// What the two-sided full searches of a game read: my and the enemy's depths, whether the
/// clock may cut them short (`-it` says no), the evaluation's weights, the enemy model, and the
/// size of the table they share (none: no table).
#[derive(Clone, Debug)]
pub struct FullSearchConfig {
    /// My depth and the enemy's, within `1..=MAX_DEPTH` and `0..=MAX_DEPTH`.
    pub depths: (usize, usize),
    pub ignore_time: bool,
    pub eval: EvalContext,
    pub model: EnemyModel,
    pub table_megabytes: Option<usize>,
}

impl FullSearchConfig {
    /// The searches' shared table, kept for the whole game.
    pub fn table(&self) -> Option<TranspositionTable> {
        self.table_megabytes.map(TranspositionTable::new)
    }
}

/// What one full search is asked to do.
pub struct FullSearch<'a> {
    pub packs: &'a [PreparedPack],
    pub depth: usize,
    pub enemy: &'a StatusTable,
    pub model: EnemyModel,
    pub eval: &'a EvalContext,
    pub tt: Option<&'a TranspositionTable>,
    pub deadline: Option<Instant>,
}

/// The value of every root move (`LOST` for those that die or are illegal), in
/// [`Action::ALL`] order; `None` if the deadline cut the search short.
#[derive(Clone, Debug)]
pub struct RootValues {
    pub values: Vec<(Action, f64)>,
    /// Positions valued (leaves and inner nodes, transposition hits included).
    pub nodes: u64,
    /// Inner positions answered by the transposition table.
    pub hits: u64,
}

/// Equal values; the node counts differ with the thread count, as the table's hits do.
impl PartialEq for RootValues {
    fn eq(&self, other: &Self) -> bool {
        self.values == other.values
    }
}

impl RootValues {
    /// The best move: the highest value, the first in search order among equals.
    pub fn best(&self) -> Option<(Action, f64)> {
        self.values.iter().copied().filter(|(_, v)| *v > LOST).fold(
            None,
            |best: Option<(Action, f64)>, (a, v)| match best {
                Some((_, bv)) if bv >= v => best,
                _ => Some((a, v)),
            },
        )
    }

    pub fn value_of(&self, action: Action) -> f64 {
        self.values
            .iter()
            .find(|(a, _)| *a == action)
            .map_or(LOST, |(_, v)| *v)
    }
}

impl<'a> FullSearch<'a> {
    /// Searches every root move from `root` (a line at the start of its turn, before its ojama
    /// row).
    pub fn run<N: Neighbourhood>(&self, root: &Line) -> Option<RootValues> {
        let deadline = Deadline::new(self.deadline);
        let mut node = *root;
        node.drop_rows(0);
        let searched: Vec<(Action, f64, u64, u64)> = Action::ALL
            .par_iter()
            .map(|&action| {
                let worker = Worker::new(self, &deadline);
                let value = worker.root_move::<N>(&node, action);
                (action, value, worker.nodes.get(), worker.hits.get())
            })
            .collect();
        if deadline.has_passed() {
            return None;
        }
        Some(RootValues {
            nodes: searched.iter().map(|&(_, _, n, _)| n).sum(),
            hits: searched.iter().map(|&(_, _, _, h)| h).sum(),
            values: searched.into_iter().map(|(a, v, _, _)| (a, v)).collect(),
        })
    }

    /// This search `depth` plies deep.
    pub fn at_depth(&self, depth: usize) -> FullSearch<'a> {
        FullSearch {
            packs: self.packs,
            depth,
            enemy: self.enemy,
            model: self.model,
            eval: self.eval,
            tt: self.tt,
            deadline: self.deadline,
        }
    }

    /// Deepens one ply at a time up to this search's depth or its deadline, each depth a new
    /// search of the table: the values of the deepest depth that finished with a surviving move.
    pub fn deepen<N: Neighbourhood>(&self, root: &Line) -> Option<(RootValues, usize)> {
        let mut done = None;
        for d in 1..=self.depth {
            if let Some(tt) = self.tt {
                tt.renew();
            }
            match self.at_depth(d).run::<N>(root) {
                Some(values) if values.best().is_some() => done = Some((values, d)),
                Some(_) => {}
                None => break,
            }
        }
        done
    }

    /// The line the search expects after `first` (§14's "best line"): at each depth my move
    /// with the best value, the enemy's effect as the search assumed it (the branch in which
    /// it attacks), and the state after each move. Searched again without the table, so it
    /// costs time; only `-m` asks for it.
    pub fn principal_line<N: Neighbourhood>(
        &self,
        root: &Line,
        first: Action,
    ) -> Vec<(Action, Line)> {
        let unlimited = Deadline::new(None);
        let worker = Worker::new(self, &unlimited);
        let mut node = *root;
        node.drop_rows(0);
        let mut line = Vec::new();
        let mut action = first;
        for depth in 0..self.depth.min(self.packs.len()) {
            let Some(mut child) = play::<N>(&node, &self.packs[depth], action) else {
                break;
            };
            if depth == 0 {
                child.first = Some(action);
                child.first_chain = child.chain;
            }
            let enemy_dead = depth < self.enemy.depth()
                && matches!(
                    enemy_effect(&mut child, self.enemy, depth, self.model, &mut None),
                    Effect::Dead
                );
            if depth >= self.enemy.depth() {
                assume_enemy_builds(&mut child);
            }
            settle(&mut child);
            node = child;
            node.drop_rows(depth + 1);
            line.push((action, node));
            if enemy_dead || depth + 1 >= self.depth.min(self.packs.len()) {
                break;
            }
            let best = Action::ALL
                .iter()
                .filter_map(|&a| {
                    let mut next = play::<N>(&node, &self.packs[depth + 1], a)?;
                    Some((a, worker.after_move::<N>(&mut next, depth + 1, LOST, None)))
                })
                .fold(None, |best: Option<(Action, f64)>, (a, v)| match best {
                    Some((_, bv)) if bv >= v => best,
                    _ => Some((a, v)),
                });
            match best {
                Some((next, value)) if value > LOST => action = next,
                _ => break,
            }
        }
        line
    }
}

/// One root move's search: the shared deadline and its own node count.
struct Worker<'a> {
    search: &'a FullSearch<'a>,
    deadline: &'a Deadline,
    nodes: Cell<u64>,
    hits: Cell<u64>,
}

impl<'a> Worker<'a> {
    fn new(search: &'a FullSearch<'a>, deadline: &'a Deadline) -> Self {
        Worker {
            search,
            deadline,
            nodes: Cell::new(0),
            hits: Cell::new(0),
        }
    }

    fn root_move<N: Neighbourhood>(&self, root: &Line, action: Action) -> f64 {
        let Some(mut child) = play::<N>(root, &self.search.packs[0], action) else {
            return LOST;
        };
        child.first = Some(action);
        child.first_chain = child.chain;
        let drops = self
            .grandchildren_end(0)
            .then(|| LastPlyDrops::new(&root.me.field, &self.search.packs[1]));
        self.after_move::<N>(&mut child, 0, LOST, drops.as_ref())
    }

    /// Whether the children of a node at `depth` are leaves.
    fn children_end(&self, depth: usize) -> bool {
        let next = depth + 1;
        next == self.search.depth || next >= self.search.packs.len()
    }

    /// Whether the children's children of a node at `depth` are leaves, and its children are
    /// not: the node plays the leaves' drops once, for its children to read.
    fn grandchildren_end(&self, depth: usize) -> bool {
        !self.children_end(depth) && self.children_end(depth + 1)
    }

    /// The value of `node` (at the start of its turn, rows not yet fallen) at `depth`. The
    /// rows fall on `node` itself: the caller is done with it, and a copy of the line would
    /// cost more than the rest of a leaf. `parent` holds the drops of `node`'s children, the
    /// leaves, played on its parent's field, when `node`'s moves end the search.
    fn value<N: Neighbourhood>(
        &self,
        node: &mut Line,
        depth: usize,
        parent: Option<&LastPlyDrops<'_, Field>>,
    ) -> f64 {
        self.nodes.set(self.nodes.get() + 1);
        node.drop_rows(depth);
        let pack_index = depth;
        if depth == self.search.depth || pack_index >= self.search.packs.len() {
            return evaluate(node, self.search.eval);
        }
        if depth <= 2 && self.deadline.out_of_time() {
            return LOST;
        }
        let key = line_key(node, depth);
        if let Some(value) = self.search.tt.and_then(|tt| tt.probe_f64(key)) {
            self.hits.set(self.hits.get() + 1);
            return value;
        }
        let pack = &self.search.packs[pack_index];
        debug_assert!(parent.is_none() || self.children_end(depth));
        let reading = parent.and_then(|p| p.beside::<N>(&node.me.field));
        let drops = self
            .grandchildren_end(depth)
            .then(|| LastPlyDrops::new(&node.me.field, &self.search.packs[pack_index + 1]));
        let mut best = LOST;
        for action in Action::ALL {
            let kept = reading.and_then(|r| read_leaf(node, &r, action));
            let Some(mut child) = kept.unwrap_or_else(|| play::<N>(node, pack, action)) else {
                continue;
            };
            let value = self.after_move::<N>(&mut child, depth, best, drops.as_ref());
            if value > best {
                best = value;
            }
            if value >= enemy_dead_after(depth + 1) {
                break;
            }
        }
        if !self.deadline.has_passed() {
            if let Some(tt) = self.search.tt {
                tt.store_f64(key, best);
            }
        }
        best
    }

    /// My move at `depth` is made: apply the enemy's effect to `child`, then search on (the
    /// child is used up, as [`Worker::value`] uses its node). The value is exact above
    /// `floor`; at or below it, it may be an upper bound (the caller keeps only a value above
    /// `floor`, so the branch in which the enemy holds back, which can only lower the line's
    /// value, is not searched then).
    fn after_move<N: Neighbourhood>(
        &self,
        child: &mut Line,
        depth: usize,
        floor: f64,
        parent: Option<&LastPlyDrops<'_, Field>>,
    ) -> f64 {
        let enemy = self.search.enemy;
        let mut spared = None;
        if depth < enemy.depth() {
            if let Effect::Dead = enemy_effect(child, enemy, depth, self.search.model, &mut spared)
            {
                return enemy_dead_after(depth + 1);
            }
        } else {
            assume_enemy_builds(child);
        }
        settle(child);
        let value = self.value::<N>(child, depth + 1, parent);
        match &mut spared {
            Some(spared) if value > floor => {
                settle(spared);
                value.min(self.value::<N>(spared, depth + 1, parent))
            }
            _ => value,
        }
    }
}

/// Plays my `action` on `node`; `None` if it is illegal or I die.
fn play<N: Neighbourhood>(node: &Line, pack: &PreparedPack, action: Action) -> Option<Line> {
    if action == Action::Skill && !skill_worth_trying(&node.me) {
        return None;
    }
    let mut child = *node;
    let result = child.me.act::<N>(pack, action);
    moved(node, child, &result, action == Action::Skill)
}

/// The leaf after `action`, read off `node`'s parent: `Some(None)` if I die of it, `None`
/// where it must be played.
fn read_leaf(node: &Line, reading: &Reading<'_, Field>, action: Action) -> Option<Option<Line>> {
    let (field, result) = reading.read(action)?;
    let mut child = *node;
    child.me.field = field;
    child.me.take_result(&result);
    Some(moved(node, child, &result, false))
}

/// The line after my move (the skill if `skill`), once its field and my own gauge and score
/// took the move's `result`; `None` if I died.
fn moved(node: &Line, mut child: Line, result: &MoveResult, skill: bool) -> Option<Line> {
    if result.dead {
        return None;
    }
    child.turn += 1;
    child.chain = result.chains;
    child.max_chain = child.max_chain.max(result.chains);
    child.sent += result.ojama;
    child.enemy_ojama += result.ojama;
    if skill || result.chains >= DECISIVE_CHAIN {
        child.decisive_turn = node.turn as i64;
    }
    Some(child)
}

/// My chain's damage to the enemy's gauge, then the offset (§5.4).
fn settle(line: &mut Line) {
    line.enemy_gauge = (line.enemy_gauge - gauge_damage(line.chain)).max(0);
    line.me.gauge = line.me.gauge.clamp(0, crate::sim::game::GAUGE_MAX);
    offset_ojama(&mut line.me.ojama, &mut line.enemy_ojama);
}

/// Whether the enemy died of my move, or took its effect.
enum Effect {
    Dead,
    Applied,
}

/// What the enemy's best case at `depth + 1` does to my line (§9d). Where the enemy's attack
/// branches, the line in which it did not attack is written to `spared`, which the caller
/// owns: a line is about 500 bytes, and returning it copied it twice more.
fn enemy_effect(
    child: &mut Line,
    table: &StatusTable,
    depth: usize,
    model: EnemyModel,
    spared: &mut Option<Line>,
) -> Effect {
    let bits = child.enemy_bits;
    let next = depth + 1;
    let idx = if child.enemy_gauge >= SKILL_COST && child.enemy_skill_targets > 0 {
        child.enemy_may_skill = true;
        ANY
    } else if child.enemy_may_skill && !table.is_dead(BEFORE, bits, next) {
        BEFORE
    } else {
        NEVER
    };
    if table.is_dead(idx, bits, next) {
        return Effect::Dead;
    }
    let status = table.lookup(idx, bits, next);
    let without_skill = table.lookup(NEVER, bits, next);
    let mut attack = (status.max_ojama - child.assumed_attack).max(0);
    let gauge_loss = (status.max_gauge_damage - child.assumed_gauge_damage).max(0);
    let before = child.me.ojama - child.enemy_ojama;
    let after = before + attack;
    let changes_rows =
        (before < OJAMA_ROW && after >= OJAMA_ROW) || (before <= -OJAMA_ROW && after > -OJAMA_ROW);
    if model.branch {
        if child.assumed_attack >= SPENT_ATTACK {
            attack = 0;
        } else if changes_rows || (model.branch_on_big_attack && attack >= OJAMA_ROW) {
            child.attacked_depths += 1;
            let quiet = spared.insert(*child);
            quiet.spared_depths += 1;
            learn_enemy_field(quiet, &status, &without_skill);
        } else {
            attack = 0;
        }
    } else if changes_rows {
        child.attacked_depths += 1;
    }
    if attack >= SPENT_ATTACK {
        child.attack_depth = next;
    }
    child.me.ojama = (child.me.ojama + attack).max(0);
    child.assumed_attack += attack;
    child.me.gauge -= gauge_loss;
    child.assumed_gauge_damage += gauge_loss;
    learn_enemy_field(child, &status, &without_skill);
    Effect::Applied
}

/// What the enemy's field looks like in its best case: gauge, skill targets, blocks, ojama.
/// Applied to both branches (the original's "did not attack" copy kept the stale values).
fn learn_enemy_field(
    line: &mut Line,
    status: &super::enemy::Status,
    without_skill: &super::enemy::Status,
) {
    if status.chained {
        line.enemy_gauge = raise_gauge(line.enemy_gauge, GAUGE_PER_VANISH);
    }
    line.enemy_skill_targets = status.max_skill_targets;
    line.enemy_no_skill_min_blocks = without_skill.min_blocks;
    line.enemy_skill_ojama_gain = status.max_ojama - without_skill.max_ojama;
    line.enemy_min_field_ojama = status.min_field_ojama;
}

/// Beyond the enemy's horizon it is assumed to keep building: +8 gauge, two more blocks for
/// its skill.
fn assume_enemy_builds(line: &mut Line) {
    line.enemy_skill_targets += 2;
    line.enemy_gauge = raise_gauge(line.enemy_gauge, GAUGE_PER_VANISH);
}

/// Everything a line's value depends on (the original left the path-dependent parts out, so
/// transpositions shared values computed under different bonuses).
fn line_key(line: &Line, depth: usize) -> u64 {
    let first = line.first.map_or(0, |a| {
        Action::ALL.iter().position(|&b| b == a).unwrap_or(0) + 1
    });
    WordHasher::default()
        .word(depth as u64 | (line.turn as u64) << 8 | (first as u64) << 24)
        .word(line.me.ojama as u64)
        .word(line.enemy_ojama as u64)
        .word(line.me.gauge as u64 | (line.enemy_gauge as u64) << 32)
        .word(line.sent as u64)
        .word(line.decisive_turn as u64 | u64::from(line.max_chain) << 32)
        .word(
            u64::from(line.first_chain)
                | u64::from(line.enemy_bits) << 8
                | u64::from(line.enemy_may_skill) << 16,
        )
        .word(line.dead_ojama[0] as u64)
        .word(line.dead_ojama[1] as u64)
        .word(line.enemy_skill_targets as u64)
        .word(line.enemy_no_skill_min_blocks as u64)
        .word(line.enemy_skill_ojama_gain as u64)
        .word(line.enemy_min_field_ojama as u64)
        .word(line.attacked_depths as u64 | (line.spared_depths as u64) << 32)
        .word(line.attack_depth as u64)
        .word(line.assumed_attack as u64)
        .word(line.assumed_gauge_damage as u64)
        .field(&line.me.field)
        .finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Params;
    use crate::search::enemy::{self, EnemyLine};
    use crate::search::tt::TranspositionTable;
    use crate::sim::{Field, Pack, PlayerState, Shift};

    fn packs(n: usize) -> Vec<PreparedPack> {
        (0..n)
            .map(|k| PreparedPack::new(Pack::new([1 + (k % 9) as u8, 0], [5, 9 - (k % 9) as u8])))
            .collect()
    }

    fn player(picture: &[&str], ojama: i64, gauge: i32) -> PlayerState {
        PlayerState {
            field: Field::from_picture(picture).unwrap(),
            ojama,
            gauge,
            score: 0,
        }
    }

    /// My search as specified: every line and both branches wherever the enemy's attack
    /// branches, no table; counts the branches it met.
    fn every_line(s: &FullSearch<'_>, node: &Line, depth: usize, branches: &mut u32) -> f64 {
        let mut node = *node;
        node.drop_rows(depth);
        if depth == s.depth || depth >= s.packs.len() {
            return evaluate(&node, s.eval);
        }
        let mut best = LOST;
        for action in Action::ALL {
            let Some(mut child) = play::<Shift>(&node, &s.packs[depth], action) else {
                continue;
            };
            if depth == 0 {
                child.first = Some(action);
                child.first_chain = child.chain;
            }
            best = best.max(every_move(s, child, depth, branches));
            if best >= enemy_dead_after(depth + 1) {
                break;
            }
        }
        best
    }

    fn every_move(s: &FullSearch<'_>, mut child: Line, depth: usize, branches: &mut u32) -> f64 {
        let mut spared = None;
        if depth < s.enemy.depth() {
            if let Effect::Dead = enemy_effect(&mut child, s.enemy, depth, s.model, &mut spared) {
                return enemy_dead_after(depth + 1);
            }
        } else {
            assume_enemy_builds(&mut child);
        }
        settle(&mut child);
        let value = every_line(s, &child, depth + 1, branches);
        match spared {
            Some(mut quiet) => {
                *branches += 1;
                settle(&mut quiet);
                value.min(every_line(s, &quiet, depth + 1, branches))
            }
            None => value,
        }
    }

    fn root_values(s: &FullSearch<'_>, root: &Line) -> (Vec<(Action, f64)>, u32) {
        let mut branches = 0;
        let mut node = *root;
        node.drop_rows(0);
        let values = Action::ALL
            .iter()
            .map(|&action| {
                let value = play::<Shift>(&node, &s.packs[0], action).map_or(LOST, |mut child| {
                    child.first = Some(action);
                    child.first_chain = child.chain;
                    every_move(s, child, 0, &mut branches)
                });
                (action, value)
            })
            .collect();
        (values, branches)
    }

    #[test]
    fn every_root_value_is_that_of_every_line() {
        let packs = packs(4);
        let me = player(&["1", "2", "3", "44"], 8, 0);
        let enemy = player(&["5555", "5555", "1234"], 0, 100);
        let root = Line::root(0, &me, &enemy);
        let enemy_root = EnemyLine::root(&enemy, me.ojama, me.gauge, 0);
        let table = enemy::search::<Shift>(enemy_root, &packs, 3, None, None).unwrap();
        let tt = TranspositionTable::new(4);
        // With `-endh` below zero the branch in which the enemy holds back is the worse one,
        // and a line's value is often that branch's.
        for not_drop in [15.0, -40.0] {
            let ctx = EvalContext {
                not_drop,
                ..Params::default().eval.context()
            };
            for depth in 1..=3 {
                let search = FullSearch {
                    packs: &packs,
                    depth,
                    enemy: &table,
                    model: EnemyModel {
                        branch: true,
                        branch_on_big_attack: true,
                    },
                    eval: &ctx,
                    tt: None,
                    deadline: None,
                };
                let (expected, branches) = root_values(&search, &root);
                assert!(branches > 0, "the enemy's attack branches at depth {depth}");
                let searched = search.run::<Shift>(&root).unwrap();
                assert_eq!(searched.values, expected, "-endh {not_drop}, depth {depth}");
                tt.renew();
                let cached = FullSearch {
                    tt: Some(&tt),
                    ..search.at_depth(depth)
                };
                let values = cached.run::<Shift>(&root).unwrap().values;
                assert_eq!(values, expected, "-endh {not_drop}, depth {depth}, table");
            }
        }
    }
}
