//! The enemy's full search "+alpha" (reference §9c): every line of the enemy's moves a few
//! plies deep, with extra branches in which my attack drops a row on it, summarised per
//! condition (skill use, rows fallen, depth) as the enemy's best case. My search reads the
//! summary instead of simulating the enemy.

use std::time::Instant;

use rayon::prelude::*;
use ysai_tables::skill_ojama;

use super::eval::{skill_worth_trying, MAX_DEPTH};
use super::key::{FieldHash, WordHasher};
use super::last_ply::{LastPlyDrops, Reading};
use super::timeman::Deadline;
use super::tt::TranspositionTable;
use crate::sim::game::{gauge_damage, offset_ojama, OJAMA_ROW};
use crate::sim::{Action, CountedBoards, FieldCounts, Neighbourhood, PlayerState, PreparedPack};

/// Whether the enemy has used its skill on a line: never, before this move, on this move.
pub const NEVER: usize = 0;
pub const BEFORE: usize = 1;
pub const NOW: usize = 2;
/// Combined indices: "before or now", and "any".
pub const USED: usize = 3;
pub const ANY: usize = 4;
const INDICES: usize = 5;

/// The enemy's best case under one condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// Some surviving enemy line reached this condition.
    pub reached: bool,
    pub chained: bool,
    pub max_chain: u32,
    /// Most ojama sent by a line so far, and by its latest skill.
    pub max_ojama: i64,
    pub max_skill_ojama: i64,
    /// Most gauge a line took from me.
    pub max_gauge_damage: i32,
    /// Most blocks its skill could destroy.
    pub max_skill_targets: i64,
    pub min_blocks: i64,
    pub min_field_ojama: i64,
}

impl Status {
    pub const UNREACHED: Status = Status {
        reached: false,
        chained: false,
        max_chain: 0,
        max_ojama: 0,
        max_skill_ojama: 0,
        max_gauge_damage: 0,
        max_skill_targets: 0,
        min_blocks: 200,
        min_field_ojama: 200,
    };

    /// The best case of either condition.
    fn merge(&mut self, other: &Status) {
        self.reached |= other.reached;
        self.chained |= other.chained;
        self.max_chain = self.max_chain.max(other.max_chain);
        self.max_ojama = self.max_ojama.max(other.max_ojama);
        self.max_skill_ojama = self.max_skill_ojama.max(other.max_skill_ojama);
        self.max_gauge_damage = self.max_gauge_damage.max(other.max_gauge_damage);
        self.max_skill_targets = self.max_skill_targets.max(other.max_skill_targets);
        self.min_blocks = self.min_blocks.min(other.min_blocks);
        self.min_field_ojama = self.min_field_ojama.min(other.min_field_ojama);
    }
}

/// What a status keeps of one line.
struct Sample {
    chain: u32,
    sent: i64,
    gauge_damage: i32,
    /// The ojama of the skill the line used on its latest move, if it did.
    skill_ojama: Option<i64>,
    skill_targets: u32,
    blocks: u32,
    field_ojama: u32,
}

impl Sample {
    fn of(
        field: FieldCounts,
        chain: u32,
        sent: i64,
        gauge_damage: i32,
        skill_ojama: Option<i64>,
    ) -> Self {
        Sample {
            chain,
            sent,
            gauge_damage,
            skill_ojama,
            skill_targets: field.skill_targets,
            blocks: field.blocks,
            field_ojama: field.ojama,
        }
    }
}

impl Status {
    /// Takes in a surviving line.
    #[inline]
    fn note(&mut self, line: &Sample) {
        self.reached = true;
        self.chained |= line.chain > 0;
        self.max_chain = self.max_chain.max(line.chain);
        self.max_ojama = self.max_ojama.max(line.sent);
        if let Some(ojama) = line.skill_ojama {
            self.max_skill_ojama = self.max_skill_ojama.max(ojama);
        }
        self.max_gauge_damage = self.max_gauge_damage.max(line.gauge_damage);
        self.max_skill_targets = self.max_skill_targets.max(i64::from(line.skill_targets));
        self.min_blocks = self.min_blocks.min(i64::from(line.blocks));
        self.min_field_ojama = self.min_field_ojama.min(i64::from(line.field_ojama));
    }
}

/// The summary of an enemy search of `depth` plies: a status per skill index, rows-fallen
/// bits and depth, and which conditions the enemy was searched from (to tell a dead
/// condition from one never looked at).
#[derive(Clone, Debug)]
pub struct StatusTable {
    depth: usize,
    data: Vec<Status>,
    /// `[used before][bits][depth]`: a node with these conditions tried its moves.
    expanded: Vec<bool>,
    /// Enemy positions visited (transposition hits included).
    pub nodes: u64,
}

/// Equal summaries; the node counts differ with the transposition table and thread count.
impl PartialEq for StatusTable {
    fn eq(&self, other: &Self) -> bool {
        (self.depth, &self.data, &self.expanded) == (other.depth, &other.data, &other.expanded)
    }
}

impl StatusTable {
    pub fn new(depth: usize) -> Self {
        let depth = depth.min(MAX_DEPTH);
        let patterns = 1 << depth;
        StatusTable {
            depth,
            data: vec![Status::UNREACHED; INDICES * patterns * (depth + 1)],
            expanded: vec![false; 2 * patterns * (depth + 1)],
            nodes: 0,
        }
    }

    pub fn depth(&self) -> usize {
        self.depth
    }

    fn index(&self, idx: usize, bits: u8, depth: usize) -> usize {
        (idx * (1 << self.depth) + usize::from(bits)) * (self.depth + 1) + depth
    }

    fn expanded_index(&self, used: bool, bits: u8, depth: usize) -> usize {
        (usize::from(used) * (1 << self.depth) + usize::from(bits)) * (self.depth + 1) + depth
    }

    pub fn get(&self, idx: usize, bits: u8, depth: usize) -> &Status {
        &self.data[self.index(idx, bits, depth)]
    }

    fn get_mut(&mut self, idx: usize, bits: u8, depth: usize) -> &mut Status {
        let i = self.index(idx, bits, depth);
        &mut self.data[i]
    }

    /// Whether the enemy is certainly dead under this condition: it was searched into it and
    /// no line survived. A condition the search never looked at is not a kill (the original
    /// counted those as dead).
    pub fn is_dead(&self, idx: usize, bits: u8, depth: usize) -> bool {
        if depth == 0 || self.get(idx, bits, depth).reached {
            return false;
        }
        let parents: &[bool] = match idx {
            NEVER | NOW => &[false],
            BEFORE => &[true],
            _ => &[false, true],
        };
        parents
            .iter()
            .any(|&used| self.expanded[self.expanded_index(used, bits, depth)])
    }

    /// The status my search reads for a condition: the exact one if the enemy reached it,
    /// else (for a condition the enemy search never produced, such as rows that fell only
    /// because my stock differs) the best case over every rows-fallen pattern at that depth.
    pub fn lookup(&self, idx: usize, bits: u8, depth: usize) -> Status {
        let exact = *self.get(idx, bits, depth);
        if exact.reached {
            return exact;
        }
        let mut any = Status::UNREACHED;
        for pattern in 0..(1u16 << self.depth) {
            any.merge(self.get(ANY, pattern as u8, depth));
        }
        any
    }

    fn merge(&mut self, other: &StatusTable) {
        for (a, b) in self.data.iter_mut().zip(&other.data) {
            a.merge(b);
        }
        for (a, b) in self.expanded.iter_mut().zip(&other.expanded) {
            *a |= b;
        }
        self.nodes += other.nodes;
    }

    /// Builds the combined indices: `USED` = before or now, `ANY` = never or used.
    fn combine(&mut self) {
        for bits in 0..(1u16 << self.depth) {
            let bits = bits as u8;
            for depth in 0..=self.depth {
                let mut used = *self.get(BEFORE, bits, depth);
                used.merge(self.get(NOW, bits, depth));
                let mut any = used;
                any.merge(self.get(NEVER, bits, depth));
                *self.get_mut(USED, bits, depth) = used;
                *self.get_mut(ANY, bits, depth) = any;
            }
        }
    }
}

/// One enemy line: its state, my stock and gauge as it sees them, and what it has done.
#[derive(Clone, Copy, Debug)]
pub struct EnemyLine {
    pub me: PlayerState,
    /// The opponent's (my) stock and gauge.
    pub their_ojama: i64,
    pub their_gauge: i32,
    pub turn: usize,
    sent: i64,
    gauge_damage: i32,
    skill_ojama: i64,
    skill_index: usize,
    chain: u32,
    /// Bit d: a row fell on this side at the start of its d-th move.
    bits: u8,
}

impl EnemyLine {
    /// The enemy at the root of a turn.
    pub fn root(enemy: &PlayerState, my_ojama: i64, my_gauge: i32, turn: usize) -> Self {
        EnemyLine {
            me: *enemy,
            their_ojama: my_ojama,
            their_gauge: my_gauge,
            turn,
            sent: 0,
            gauge_damage: 0,
            skill_ojama: 0,
            skill_index: NEVER,
            chain: 0,
            bits: 0,
        }
    }

    /// The line's key at the start of its turn, before its rows fall (they follow from what is
    /// hashed), with `own_ojama` as its stock: the line in which my attack drops a row differs
    /// from the natural one only there, and shares the field's hash.
    fn key(&self, field: FieldHash, own_ojama: i64) -> u64 {
        WordHasher::default()
            .word(self.turn as u64 | (self.skill_index as u64) << 16 | u64::from(self.bits) << 24)
            .word(own_ojama as u64)
            .word(self.their_ojama as u64)
            .word(self.me.gauge as u64 | (self.their_gauge as u64) << 32)
            .word(self.sent as u64)
            .word(self.gauge_damage as u64 | (self.skill_ojama as u64) << 32)
            .field_hash(field)
            .finish()
    }

    fn record(&self, status: &mut Status) {
        let skill_ojama = (self.skill_index == NOW).then_some(self.skill_ojama);
        status.note(&Sample::of(
            self.me.field.counts(),
            self.chain,
            self.sent,
            self.gauge_damage,
            skill_ojama,
        ));
    }

    /// The skill index of this line's child after a drop.
    fn index_after_drop(&self) -> usize {
        if self.skill_index == NEVER {
            NEVER
        } else {
            BEFORE
        }
    }

    /// Turn start: this side's row, and the opponent's (accounted only).
    fn drop_rows(&mut self, depth: usize) {
        if self.me.drop_pending_ojama() {
            self.bits |= 1 << depth;
        }
        if self.their_ojama >= OJAMA_ROW {
            self.their_ojama -= OJAMA_ROW;
        }
    }

    /// Plays `action`, exchanges ojama and gauge damage; `None` if the line dies. The skill
    /// is tried only with a 5 on the field (it would destroy nothing otherwise).
    fn play<N: Neighbourhood>(&self, pack: &PreparedPack, action: Action) -> Option<Self> {
        if action == Action::Skill && !skill_worth_trying(&self.me) {
            return None;
        }
        let mut child = *self;
        let result = child.me.act::<N>(pack, action);
        if result.dead {
            return None;
        }
        child.turn += 1;
        child.chain = result.chains;
        child.sent += result.ojama;
        child.their_ojama += result.ojama;
        child.skill_index = if action == Action::Skill {
            NOW
        } else {
            self.index_after_drop()
        };
        if action == Action::Skill {
            child.skill_ojama = skill_ojama(result.skill_destroyed);
        }
        let damage = gauge_damage(result.chains);
        child.their_gauge = (child.their_gauge - damage).max(0);
        child.gauge_damage += damage;
        offset_ojama(&mut child.me.ojama, &mut child.their_ojama);
        Some(child)
    }
}

/// Shared state of one enemy search.
struct Search<'a> {
    packs: &'a [PreparedPack],
    depth: usize,
    tt: Option<&'a TranspositionTable>,
    deadline: Deadline,
}

impl Search<'_> {
    /// Whether `line`, at `depth`, is only recorded: the search ends there.
    fn is_last_ply(&self, line: &EnemyLine, depth: usize) -> bool {
        self.ends_at(line.turn, depth)
    }

    /// Whether the children of `line`, at `depth`, are on the last ply.
    fn children_end_search(&self, line: &EnemyLine, depth: usize) -> bool {
        self.ends_at(line.turn + 1, depth + 1)
    }

    /// Whether the children of `line`'s children, at `depth + 2`, are on the last ply, and
    /// its children are not.
    fn grandchildren_end_search(&self, line: &EnemyLine, depth: usize) -> bool {
        !self.children_end_search(line, depth) && self.ends_at(line.turn + 2, depth + 2)
    }

    /// Whether a line of `turn` at `depth` is only recorded: the depth searched, or the game's
    /// last pack, is behind it.
    fn ends_at(&self, turn: usize, depth: usize) -> bool {
        depth == self.depth || turn >= self.packs.len()
    }

    /// Records `line` at `depth`, then searches its moves. `parent` is what the line's parent
    /// noted of the last ply's drops, when the line's own moves are on it; `key` is the
    /// line's transposition-table key, when the search keeps one.
    fn visit<N: Neighbourhood>(
        &self,
        table: &mut StatusTable,
        mut line: EnemyLine,
        depth: usize,
        parent: Option<&LastPlyDrops<'_, CountedBoards>>,
        key: Option<u64>,
    ) {
        table.nodes += 1;
        line.record(table.get_mut(line.skill_index, line.bits, depth));
        line.drop_rows(depth);
        if self.is_last_ply(&line, depth) {
            return;
        }
        if depth <= 1 && self.deadline.out_of_time() {
            return;
        }
        let used = line.skill_index != NEVER;
        let e = table.expanded_index(used, line.bits, depth + 1);
        table.expanded[e] = true;
        if let (Some(tt), Some(key)) = (self.tt, key) {
            if tt.probe(key).is_some() {
                return;
            }
            tt.store(key, 1);
        }
        if self.children_end_search(&line, depth) {
            let reading = parent.and_then(|p| p.beside::<N>(&line.me.field));
            self.record_moves::<N>(table, &line, depth + 1, reading);
            return;
        }
        let drops = self.grandchildren_end_search(&line, depth).then(|| {
            LastPlyDrops::<CountedBoards>::new(&line.me.field, &self.packs[line.turn + 1])
        });
        for action in Action::ALL {
            self.visit_move::<N>(table, &line, action, depth, drops.as_ref());
        }
    }

    /// Records the children of `line` at `depth`, the last ply: nothing falls or is searched
    /// after them, so a drop's child is only the field it leaves and what its chain sent,
    /// and no line is built for it.
    fn record_moves<N: Neighbourhood>(
        &self,
        table: &mut StatusTable,
        line: &EnemyLine,
        depth: usize,
        reading: Option<Reading<'_, CountedBoards>>,
    ) {
        let pack = &self.packs[line.turn];
        for action in Action::ALL {
            let Action::Drop { x, rot } = action else {
                if let Some(child) = line.play::<N>(pack, action) {
                    table.nodes += 1;
                    child.record(table.get_mut(child.skill_index, child.bits, depth));
                }
                continue;
            };
            let kept = reading.and_then(|r| r.read(action));
            let (counts, result) = kept.unwrap_or_else(|| {
                let mut field = line.me.field;
                let result = field.drop_pack::<N>(pack, x, rot);
                (field.counts(), result)
            });
            if result.dead {
                continue;
            }
            table.nodes += 1;
            let sent = line.sent + result.ojama;
            let damage = line.gauge_damage + gauge_damage(result.chains);
            let sample = Sample::of(counts, result.chains, sent, damage, None);
            table
                .get_mut(line.index_after_drop(), line.bits, depth)
                .note(&sample);
        }
    }

    /// One move of `line`: the natural continuation and, if no row would fall on the enemy
    /// next turn, the one in which my attack makes one fall.
    fn visit_move<N: Neighbourhood>(
        &self,
        table: &mut StatusTable,
        line: &EnemyLine,
        action: Action,
        depth: usize,
        parent: Option<&LastPlyDrops<'_, CountedBoards>>,
    ) {
        let pack = &self.packs[line.turn];
        let Some(child) = line.play::<N>(pack, action) else {
            return;
        };
        let last_ply = self.is_last_ply(&child, depth + 1);
        // At the last ply the attacked line would record exactly what the natural one did:
        // a row falls only at the start of the next move, which is not searched. Its row
        // changes every column, so it reads nothing of its parent's drops.
        let attacked = child.me.ojama < OJAMA_ROW && !last_ply;
        let keys = self.tt.filter(|_| !last_ply).map(|tt| {
            let field = FieldHash::of(&child.me.field);
            let natural = child.key(field, child.me.ojama);
            let attacked = attacked.then(|| child.key(field, OJAMA_ROW));
            // Both table slots are fetched while the natural line is searched.
            tt.prefetch(natural);
            if let Some(key) = attacked {
                tt.prefetch(key);
            }
            (natural, attacked)
        });
        self.visit::<N>(table, child, depth + 1, parent, keys.map(|k| k.0));
        if attacked {
            let mut attacked = child;
            attacked.me.ojama = OJAMA_ROW;
            self.visit::<N>(table, attacked, depth + 1, None, keys.and_then(|k| k.1));
        }
    }
}

/// The enemy's best cases over `depth` plies from `root`, its first moves searched in
/// parallel. `None` if the deadline cut it short.
pub fn search<N: Neighbourhood>(
    root: EnemyLine,
    packs: &[PreparedPack],
    depth: usize,
    tt: Option<&TranspositionTable>,
    deadline: Option<Instant>,
) -> Option<StatusTable> {
    let depth = depth.min(MAX_DEPTH);
    let search = Search {
        packs,
        depth,
        tt,
        deadline: Deadline::new(deadline),
    };
    let mut table = StatusTable::new(depth);
    let mut line = root;
    line.record(table.get_mut(NEVER, 0, 0));
    line.drop_rows(0);
    if depth > 0 && line.turn < packs.len() {
        let e = table.expanded_index(false, line.bits, 1);
        table.expanded[e] = true;
        let root_drops = search
            .grandchildren_end_search(&line, 0)
            .then(|| LastPlyDrops::<CountedBoards>::new(&line.me.field, &packs[line.turn + 1]));
        let partial = Action::ALL
            .par_iter()
            .map(|&action| {
                let mut own = StatusTable::new(depth);
                search.visit_move::<N>(&mut own, &line, action, 0, root_drops.as_ref());
                own
            })
            .reduce(
                || StatusTable::new(depth),
                |mut a, b| {
                    a.merge(&b);
                    a
                },
            );
        table.merge(&partial);
    }
    if search.deadline.has_passed() {
        return None;
    }
    table.combine();
    Some(table)
}

/// [`search`] deepened one ply at a time up to `depth` or the deadline, each depth a new
/// search of the table: the summary of the deepest depth that finished.
pub fn deepen<N: Neighbourhood>(
    root: EnemyLine,
    packs: &[PreparedPack],
    depth: usize,
    tt: Option<&TranspositionTable>,
    deadline: Instant,
) -> Option<StatusTable> {
    let mut done = None;
    for d in 0..=depth {
        if let Some(tt) = tt {
            tt.renew();
        }
        match search::<N>(root, packs, d, tt, Some(deadline)) {
            Some(table) => done = Some(table),
            None => break,
        }
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Field, Pack, Shift};

    fn packs(n: usize) -> Vec<PreparedPack> {
        (0..n)
            .map(|k| PreparedPack::new(Pack::new([0, 1 + (k % 9) as u8], [9 - (k % 9) as u8, 3])))
            .collect()
    }

    fn enemy(picture: &[&str], ojama: i64, gauge: i32) -> EnemyLine {
        let state = PlayerState {
            field: Field::from_picture(picture).unwrap(),
            ojama,
            gauge,
            score: 0,
        };
        EnemyLine::root(&state, 0, 0, 0)
    }

    #[test]
    fn the_attacked_branch_marks_a_fallen_row() {
        let packs = packs(4);
        let table = search::<Shift>(enemy(&["1"], 0, 0), &packs, 2, None, None).unwrap();
        assert!(table.get(NEVER, 0, 1).reached, "natural line");
        assert!(table.get(NEVER, 0b10, 2).reached, "my row fell at depth 1");
        assert!(!table.is_dead(NEVER, 0b10, 2));
        assert!(!table.get(NOW, 0, 1).reached, "no gauge, no skill");
    }

    #[test]
    fn a_buried_enemy_is_dead_and_an_unsearched_condition_is_not() {
        let full: Vec<&str> = std::iter::repeat_n("XXXXXXXXXX", 16).collect();
        let packs = packs(4);
        let table = search::<Shift>(enemy(&full, 0, 0), &packs, 2, None, None).unwrap();
        assert!(table.is_dead(NEVER, 0, 1), "every drop tops out");
        assert!(
            !table.is_dead(BEFORE, 0, 1),
            "no line ever used the skill before"
        );
    }

    #[test]
    fn the_skill_is_recorded_with_its_ojama() {
        let packs = packs(4);
        let line = enemy(&["5555", "5555"], 0, 80);
        let table = search::<Shift>(line, &packs, 1, None, None).unwrap();
        let skill = table.get(NOW, 0, 1);
        assert!(skill.reached);
        assert_eq!(skill.max_skill_ojama, skill_ojama(8));
        assert!(table.get(ANY, 0, 1).max_ojama >= skill_ojama(8));
    }

    /// Every line, the attacked branch after every move, no table: the search as specified.
    fn every_line(table: &mut StatusTable, mut line: EnemyLine, depth: usize, p: &[PreparedPack]) {
        line.record(table.get_mut(line.skill_index, line.bits, depth));
        line.drop_rows(depth);
        if depth == table.depth || line.turn >= p.len() {
            return;
        }
        let e = table.expanded_index(line.skill_index != NEVER, line.bits, depth + 1);
        table.expanded[e] = true;
        for action in Action::ALL {
            let Some(child) = line.play::<Shift>(&p[line.turn], action) else {
                continue;
            };
            every_line(table, child, depth + 1, p);
            if child.me.ojama < OJAMA_ROW {
                let mut attacked = child;
                attacked.me.ojama = OJAMA_ROW;
                every_line(table, attacked, depth + 1, p);
            }
        }
    }

    #[test]
    fn the_summary_is_that_of_every_line() {
        // Two packs end the lines of a 3-ply search early, on the game's last turn.
        for packs in [packs(6), packs(2)] {
            for (picture, ojama, gauge) in
                [(&["12", "34", "56"][..], 5, 40), (&["5555", "9191"], 0, 90)]
            {
                for depth in 1..=3 {
                    let line = enemy(picture, ojama, gauge);
                    let mut expected = StatusTable::new(depth);
                    every_line(&mut expected, line, 0, &packs);
                    expected.combine();
                    let searched = search::<Shift>(line, &packs, depth, None, None).unwrap();
                    let n = packs.len();
                    assert_eq!(searched, expected, "{picture:?}, {n} packs, depth {depth}");
                }
            }
        }
    }

    #[test]
    fn the_table_does_not_change_the_summary() {
        let packs = packs(6);
        let line = enemy(&["12", "34", "56"], 5, 40);
        let plain = search::<Shift>(line, &packs, 3, None, None).unwrap();
        let tt = TranspositionTable::new(4);
        let cached = search::<Shift>(line, &packs, 3, Some(&tt), None).unwrap();
        assert_eq!(plain, cached);
    }
}
