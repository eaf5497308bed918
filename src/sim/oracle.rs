//! The reference simulator ("oracle"): the rules of `rules.md` written as plainly as possible,
//! cell by cell, so that the fast bitboard simulator can be tested against it. Speed does not
//! matter here; being obviously right does.

// Cells are addressed by explicit (x, y) coordinates throughout, matching the rule text.
#![allow(clippy::needless_range_loop)]

use crate::sim::{Action, Pack};

/// Columns in a field.
pub const WIDTH: usize = 10;
/// Rows, counted from the bottom: 16 resting rows + 1 ojama row + 2 pack cells, plus spare.
pub const GRID_HEIGHT: usize = 21;
/// The value of an ojama (garbage) block.
pub const OJAMA: u8 = 11;

const EMPTY: u8 = 0;
/// Rows in the protocol's field listing.
const PROTOCOL_ROWS: usize = 16;
/// A column holding this many blocks at the end of a turn loses.
const DEATH_HEIGHT: usize = 17;
/// Two numbered blocks vanish when they sum to this.
const VANISH_SUM: u8 = 10;
/// The digit the skill explodes.
const SKILL_DIGIT: u8 = 5;
const GAUGE_MAX: i32 = 100;
/// Gauge gained in a turn in which one of my blocks vanished in a chain step.
const GAUGE_GAIN: i32 = 8;
/// Lowest turn-start gauge at which the skill is legal.
const SKILL_THRESHOLD: i32 = 80;
/// Opponent chains at least this long reduce my gauge.
const GAUGE_ATTACK_CHAINS: u32 = 3;
/// Ojama stock needed to drop one row, and the size of that row.
const OJAMA_ROW: i64 = WIDTH as i64;
/// Pack positions are 0..=8 (the pack covers x and x + 1), rotations 0..=3.
const MAX_DROP_X: u8 = (WIDTH - 2) as u8;
const MAX_ROTATION: u8 = 3;

/// The 8 directions in which blocks touch.
const NEIGHBOURS: [(isize, isize); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

fn is_numbered(v: u8) -> bool {
    (1..=9).contains(&v)
}

/// One player's field. Invariant between operations: no holes (every block rests on the floor
/// or on another block).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OracleField {
    /// `cells[y][x]`, y = 0 is the bottom row.
    pub cells: [[u8; WIDTH]; GRID_HEIGHT],
}

impl OracleField {
    pub fn empty() -> Self {
        OracleField {
            cells: [[EMPTY; WIDTH]; GRID_HEIGHT],
        }
    }

    /// A field from the protocol's 16 rows, top row first (`rows[0]` is y = 15).
    ///
    /// Panics on a value that is not 0, 1..=9 or 11, or on a hole, since the game never
    /// produces either and silently repairing them would hide a caller's bug.
    pub fn from_top_rows(rows: &[[u8; WIDTH]; PROTOCOL_ROWS]) -> Self {
        let mut field = OracleField::empty();
        for (i, row) in rows.iter().enumerate() {
            let y = PROTOCOL_ROWS - 1 - i;
            for x in 0..WIDTH {
                let v = row[x];
                assert!(
                    v == EMPTY || v == OJAMA || is_numbered(v),
                    "bad cell value {v}"
                );
                field.cells[y][x] = v;
            }
        }
        for x in 0..WIDTH {
            for y in 1..GRID_HEIGHT {
                let floating = field.cells[y][x] != EMPTY && field.cells[y - 1][x] == EMPTY;
                assert!(!floating, "hole under column {x}, row {y}");
            }
        }
        field
    }

    /// Number of blocks in column `x` (also the row the next block lands in, as there are no
    /// holes).
    pub fn height(&self, x: usize) -> usize {
        (0..GRID_HEIGHT)
            .filter(|&y| self.cells[y][x] != EMPTY)
            .count()
    }

    pub fn max_height(&self) -> usize {
        (0..WIDTH).map(|x| self.height(x)).max().unwrap_or(0)
    }

    pub fn block_count(&self) -> usize {
        (0..WIDTH).map(|x| self.height(x)).sum()
    }

    /// Drops one block onto column `x`.
    ///
    /// Panics if the column is full, which only a field that already lost can reach.
    fn land(&mut self, x: usize, v: u8) {
        let y = self.height(x);
        assert!(y < GRID_HEIGHT, "column {x} overflows the grid");
        self.cells[y][x] = v;
    }

    fn get(&self, x: isize, y: isize) -> u8 {
        if x < 0 || y < 0 || x >= WIDTH as isize || y >= GRID_HEIGHT as isize {
            EMPTY
        } else {
            self.cells[y as usize][x as usize]
        }
    }

    /// The values of the 8 neighbours of (x, y); outside the field counts as empty.
    fn neighbours(&self, x: usize, y: usize) -> [u8; 8] {
        NEIGHBOURS.map(|(dx, dy)| self.get(x as isize + dx, y as isize + dy))
    }

    /// Empties every marked cell and returns how many there were.
    fn clear_marked(&mut self, marked: &[[bool; WIDTH]; GRID_HEIGHT]) -> u32 {
        let mut cleared = 0;
        for y in 0..GRID_HEIGHT {
            for x in 0..WIDTH {
                if marked[y][x] {
                    self.cells[y][x] = EMPTY;
                    cleared += 1;
                }
            }
        }
        cleared
    }

    /// One vanish step: every numbered block with a numbered neighbour summing to 10 vanishes,
    /// all at once. Returns whether anything vanished.
    pub fn vanish_step(&mut self) -> bool {
        let mut marked = [[false; WIDTH]; GRID_HEIGHT];
        for y in 0..GRID_HEIGHT {
            for x in 0..WIDTH {
                let v = self.cells[y][x];
                if is_numbered(v) {
                    marked[y][x] = self
                        .neighbours(x, y)
                        .iter()
                        .any(|&n| is_numbered(n) && v + n == VANISH_SUM);
                }
            }
        }
        self.clear_marked(&marked) > 0
    }

    /// Lets every block fall to close the gaps in its column, keeping the column's order.
    pub fn apply_gravity(&mut self) {
        for x in 0..WIDTH {
            let blocks: Vec<u8> = (0..GRID_HEIGHT)
                .map(|y| self.cells[y][x])
                .filter(|&v| v != EMPTY)
                .collect();
            for y in 0..GRID_HEIGHT {
                self.cells[y][x] = blocks.get(y).copied().unwrap_or(EMPTY);
            }
        }
    }

    /// Vanish and fall until nothing vanishes; returns the number of vanish steps (chains).
    fn run_chains(&mut self) -> u32 {
        let mut chains = 0;
        while self.vanish_step() {
            chains += 1;
            self.apply_gravity();
        }
        chains
    }

    /// The skill's explosion: every 5 and every numbered block next to a 5 is destroyed at
    /// once. Returns the number destroyed. Does not apply gravity.
    pub fn explode_fives(&mut self) -> u32 {
        let mut marked = [[false; WIDTH]; GRID_HEIGHT];
        for y in 0..GRID_HEIGHT {
            for x in 0..WIDTH {
                if self.cells[y][x] != SKILL_DIGIT {
                    continue;
                }
                marked[y][x] = true;
                for (dx, dy) in NEIGHBOURS {
                    let (nx, ny) = (x as isize + dx, y as isize + dy);
                    if is_numbered(self.get(nx, ny)) {
                        marked[ny as usize][nx as usize] = true;
                    }
                }
            }
        }
        self.clear_marked(&marked)
    }

    fn is_dead(&self) -> bool {
        (0..WIDTH).any(|x| self.height(x) >= DEATH_HEIGHT)
    }
}

/// One player's state between turns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OraclePlayer {
    pub field: OracleField,
    /// Pending garbage.
    pub ojama: i64,
    /// Skill gauge, 0..=100.
    pub gauge: i32,
    /// Cumulative score.
    pub score: i64,
}

/// What one player's action did this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct OracleOutcome {
    /// Vanish steps (the skill's explosion is not one).
    pub chains: u32,
    /// This turn's score.
    pub score: i64,
    /// Ojama generated for the opponent, before the offset.
    pub ojama_sent: i64,
    /// Some block vanished in a chain step (not the explosion).
    pub vanished: bool,
    /// Blocks destroyed by the skill's explosion.
    pub skill_destroyed: u32,
    /// Some column holds 17 or more blocks.
    pub dead: bool,
    /// Skill with too low a gauge, or a drop out of range.
    pub illegal: bool,
}

/// Score of a C-chain: sum over i = 1..=C of floor(1.3^i).
pub fn chain_score(chains: u32) -> i64 {
    (1..=chains)
        .map(|i| 1.3f64.powi(i as i32).floor() as i64)
        .sum()
}

/// Score of the skill's explosion destroying `destroyed` blocks: floor(25 * 2^(b/12)), or 0
/// when nothing was destroyed.
pub fn skill_score(destroyed: u32) -> i64 {
    if destroyed == 0 {
        return 0;
    }
    (25.0 * 2f64.powf(destroyed as f64 / 12.0)).floor() as i64
}

/// Turn start: with a stock of at least 10, one ojama lands on top of every column and the
/// stock drops by 10. Returns whether a row dropped.
pub fn drop_ojama_row(p: &mut OraclePlayer) -> bool {
    if p.ojama < OJAMA_ROW {
        return false;
    }
    for x in 0..WIDTH {
        p.field.land(x, OJAMA);
    }
    p.ojama -= OJAMA_ROW;
    true
}

/// The pack's 2x2 cells (top row first) after `rot` clockwise quarter turns, each turning
/// `a b / c d` into `c a / d b`.
fn rotate(pack: Pack, rot: u8) -> [[u8; 2]; 2] {
    let mut cells = pack.cells;
    for _ in 0..rot {
        let [[a, b], [c, d]] = cells;
        cells = [[c, a], [d, b]];
    }
    cells
}

/// Drops the rotated pack with its left half on column `x`: in each column the bottom cell
/// lands first, then the top cell; empty cells are skipped.
pub fn place_pack(field: &mut OracleField, pack: Pack, x: usize, rot: u8) {
    let [top, bottom] = rotate(pack, rot);
    for side in 0..2 {
        for v in [bottom[side], top[side]] {
            if v != EMPTY {
                field.land(x + side, v);
            }
        }
    }
}

fn gain_gauge(p: &mut OraclePlayer) {
    p.gauge = (p.gauge + GAUGE_GAIN).min(GAUGE_MAX);
}

/// One player's action on its own field (after the turn's ojama row): the drop or skill, the
/// chains, this player's score and gauge gain. The opponent's gauge reduction and the ojama
/// exchange belong to [`play_turn`]. An illegal action leaves the player unchanged.
pub fn apply_action(p: &mut OraclePlayer, pack: Pack, action: Action) -> OracleOutcome {
    let mut out = OracleOutcome::default();
    match action {
        Action::Drop { x, rot } => {
            if x > MAX_DROP_X || rot > MAX_ROTATION {
                out.illegal = true;
            } else {
                place_pack(&mut p.field, pack, x as usize, rot);
                out.chains = p.field.run_chains();
                let chain = chain_score(out.chains);
                out.score = chain;
                out.ojama_sent = chain / 2;
            }
        }
        Action::Skill => {
            // `p.gauge` is still the turn-start gauge: nothing earlier in the turn changes it.
            if p.gauge < SKILL_THRESHOLD {
                out.illegal = true;
            } else {
                p.gauge = 0;
                out.skill_destroyed = p.field.explode_fives();
                p.field.apply_gravity();
                out.chains = p.field.run_chains();
                let explosion = skill_score(out.skill_destroyed);
                let chain = chain_score(out.chains);
                out.score = explosion + chain;
                out.ojama_sent = explosion / 2 + chain / 2;
            }
        }
    }
    out.vanished = out.chains > 0;
    if out.vanished {
        gain_gauge(p);
    }
    p.score += out.score;
    out.dead = p.field.is_dead();
    out
}

/// If both stocks are positive, the smaller is subtracted from both.
fn offset_stocks(stocks: [i64; 2]) -> [i64; 2] {
    if stocks[0] > 0 && stocks[1] > 0 {
        let common = stocks[0].min(stocks[1]);
        [stocks[0] - common, stocks[1] - common]
    } else {
        stocks
    }
}

/// One whole turn for both players, in the order of `rules.md`: ojama rows, both actions with
/// their chains and gauge gains, the gauge attacks, the ojama exchange and offset, and death.
pub fn play_turn(
    players: &mut [OraclePlayer; 2],
    pack: Pack,
    actions: [Action; 2],
) -> [OracleOutcome; 2] {
    for p in players.iter_mut() {
        drop_ojama_row(p);
    }
    let mut outcomes = [
        apply_action(&mut players[0], pack, actions[0]),
        apply_action(&mut players[1], pack, actions[1]),
    ];
    // apply_action already added the +8 (capped), so the reduction comes after it.
    for me in 0..2 {
        let theirs = outcomes[1 - me].chains;
        if theirs >= GAUGE_ATTACK_CHAINS {
            let loss = 12 + 2 * theirs as i32;
            players[me].gauge = (players[me].gauge - loss).max(0);
        }
    }
    players[1].ojama += outcomes[0].ojama_sent;
    players[0].ojama += outcomes[1].ojama_sent;
    let [a, b] = offset_stocks([players[0].ojama, players[1].ojama]);
    players[0].ojama = a;
    players[1].ojama = b;
    for me in 0..2 {
        outcomes[me].dead = players[me].field.is_dead();
    }
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;

    const O: u8 = OJAMA;

    /// A field from columns given bottom first.
    fn field_of(columns: &[(usize, &[u8])]) -> OracleField {
        let mut field = OracleField::empty();
        for &(x, blocks) in columns {
            for (y, &v) in blocks.iter().enumerate() {
                field.cells[y][x] = v;
            }
        }
        field
    }

    fn player(field: OracleField, gauge: i32) -> OraclePlayer {
        OraclePlayer {
            field,
            ojama: 0,
            gauge,
            score: 0,
        }
    }

    fn drop(x: u8, rot: u8) -> Action {
        Action::Drop { x, rot }
    }

    /// Col 0: 6. Col 1: 8 3 4 2 (bottom first). Dropping `trigger_pack` at x = 2 puts a 7 at
    /// (2, 0) next to the 3: 3+7 vanish, the 4 falls next to the 6: 6+4 vanish, the 2 falls
    /// onto the 8: 8+2 vanish. The two 1s in column 3 stay.
    fn three_chain_field() -> OracleField {
        field_of(&[(0, &[6]), (1, &[8, 3, 4, 2])])
    }

    fn trigger_pack() -> Pack {
        Pack::new([0, 1], [7, 1])
    }

    /// Col 0: 5 ojama then 2 2. Col 1: 1 2 1 2 1 3 5 4 9 8 9 8 9. Col 2: 7 ojama. The skill
    /// destroys the 5 at (1, 6), the 3 and 4 above and below it and the two 2s: b = 5, the
    /// ojama beside it survive. Column 1 then reads 1 2 1 2 1 | 9 8 9 8 9 and unzips in 5
    /// chains.
    fn skill_five_chain_field() -> OracleField {
        field_of(&[
            (0, &[O, O, O, O, O, 2, 2]),
            (1, &[1, 2, 1, 2, 1, 3, 5, 4, 9, 8, 9, 8, 9]),
            (2, &[O, O, O, O, O, O, O]),
        ])
    }

    #[test]
    fn cumulative_chain_scores() {
        let expected = [
            1, 2, 4, 6, 9, 13, 19, 27, 37, 50, 67, 90, 120, 159, 210, 276, 362, 474, 620, 810,
        ];
        assert_eq!(chain_score(0), 0);
        for (i, &score) in expected.iter().enumerate() {
            assert_eq!(chain_score(i as u32 + 1), score, "C = {}", i + 1);
        }
    }

    #[test]
    fn skill_scores() {
        assert_eq!(skill_score(0), 0);
        assert_eq!(skill_score(1), 26);
        assert_eq!(skill_score(5), 33);
        assert_eq!(skill_score(12), 50);
        assert_eq!(skill_score(24), 100);
    }

    #[test]
    fn worked_example_three_chain() {
        let mut p = player(three_chain_field(), 0);
        let out = apply_action(&mut p, trigger_pack(), drop(2, 0));
        assert_eq!(out.chains, 3);
        assert_eq!(out.score, 4);
        assert_eq!(out.ojama_sent, 2);
        assert!(out.vanished);
        assert!(!out.dead && !out.illegal);
        assert_eq!(p.field, field_of(&[(3, &[1, 1])]));
        assert_eq!(p.score, 4);
        assert_eq!(p.gauge, 8);
    }

    #[test]
    fn worked_example_skill_then_five_chain() {
        let mut p = player(skill_five_chain_field(), 80);
        p.score = 100;
        let out = apply_action(&mut p, Pack::new([1, 1], [1, 1]), Action::Skill);
        assert_eq!(out.skill_destroyed, 5);
        assert_eq!(out.chains, 5);
        assert_eq!(out.score, 33 + 9);
        assert_eq!(out.ojama_sent, 16 + 4);
        assert!(out.vanished && !out.illegal && !out.dead);
        // The pack is discarded; only ojama remain.
        assert_eq!(p.field, field_of(&[(0, &[O; 5]), (2, &[O; 7])]));
        assert_eq!(p.score, 142);
        assert_eq!(p.gauge, 8);
    }

    #[test]
    fn offset_examples() {
        assert_eq!(offset_stocks([10, 5]), [5, 0]);
        assert_eq!(offset_stocks([8, 10]), [0, 2]);
        assert_eq!(offset_stocks([0, 2]), [0, 2]);
    }

    #[test]
    fn rotations_place_the_expected_cells() {
        let pack = Pack::new([1, 2], [3, 4]);
        // (rotation, column 3 bottom first, column 4 bottom first)
        let cases: [(u8, [u8; 2], [u8; 2]); 4] = [
            (0, [3, 1], [4, 2]),
            (1, [4, 3], [2, 1]),
            (2, [2, 4], [1, 3]),
            (3, [1, 2], [3, 4]),
        ];
        for (rot, left, right) in cases {
            let mut p = player(OracleField::empty(), 0);
            let out = apply_action(&mut p, pack, drop(3, rot));
            assert_eq!(out, OracleOutcome::default(), "rot {rot}");
            assert_eq!(p.field, field_of(&[(3, &left), (4, &right)]), "rot {rot}");
        }
    }

    #[test]
    fn empty_pack_cells_are_skipped_and_columns_land_separately() {
        // The top-right 2 falls to the floor: its bottom cell is empty.
        let mut p = player(OracleField::empty(), 0);
        apply_action(&mut p, Pack::new([0, 2], [1, 0]), drop(0, 0));
        assert_eq!(p.field, field_of(&[(0, &[1]), (1, &[2])]));

        // Each pack column lands on its own column's top.
        let mut p = player(field_of(&[(4, &[O, O, O])]), 0);
        apply_action(&mut p, Pack::new([1, 2], [3, 4]), drop(4, 0));
        assert_eq!(p.field, field_of(&[(4, &[O, O, O, 3, 1]), (5, &[4, 2])]));
    }

    #[test]
    fn pairs_vanish_together_as_one_step() {
        // The 9 lands between two 1s and takes both; the 4 then falls to the floor.
        let mut p = player(field_of(&[(0, &[1]), (2, &[1])]), 0);
        let out = apply_action(&mut p, Pack::new([0, 4], [9, 0]), drop(1, 0));
        assert_eq!(out.chains, 1);
        assert_eq!(out.score, 1);
        assert_eq!(out.ojama_sent, 0);
        assert_eq!(p.field, field_of(&[(2, &[4])]));
    }

    #[test]
    fn skill_needs_gauge_80() {
        let mut p = player(skill_five_chain_field(), 79);
        let before = p.clone();
        let out = apply_action(&mut p, Pack::new([1, 1], [1, 1]), Action::Skill);
        assert!(out.illegal);
        assert_eq!(out.score, 0);
        assert_eq!(p, before);

        let mut p = player(skill_five_chain_field(), 80);
        let out = apply_action(&mut p, Pack::new([1, 1], [1, 1]), Action::Skill);
        assert!(!out.illegal);
        assert_eq!(out.skill_destroyed, 5);
    }

    #[test]
    fn skill_without_fives_is_legal_and_destroys_nothing() {
        let field = field_of(&[(0, &[1, 2]), (1, &[O])]);
        let mut p = player(field.clone(), 90);
        let out = apply_action(&mut p, Pack::new([5, 5], [5, 5]), Action::Skill);
        assert_eq!(out, OracleOutcome::default());
        assert_eq!(p.field, field);
        assert_eq!(p.gauge, 0);
        assert_eq!(p.score, 0);
    }

    #[test]
    fn skill_explosion_alone_does_not_raise_the_gauge() {
        // The 5 and the 3 beside it go (b = 2), the ojama above the 5 stays; the 6 falls but
        // touches no complement, so nothing chains.
        let mut p = player(field_of(&[(0, &[5, O, 6]), (1, &[3]), (3, &[9])]), 100);
        let out = apply_action(&mut p, Pack::default(), Action::Skill);
        assert_eq!(out.skill_destroyed, 2);
        assert_eq!(out.chains, 0);
        assert_eq!(out.score, 28);
        assert_eq!(out.ojama_sent, 14);
        assert!(!out.vanished);
        assert_eq!(p.gauge, 0);
        assert_eq!(p.field, field_of(&[(0, &[O, 6]), (3, &[9])]));
    }

    #[test]
    fn out_of_range_drops_are_illegal() {
        for action in [drop(9, 0), drop(0, 4)] {
            let mut p = player(three_chain_field(), 0);
            let out = apply_action(&mut p, trigger_pack(), action);
            assert!(out.illegal, "{action:?}");
            assert_eq!(p, player(three_chain_field(), 0));
        }
    }

    #[test]
    fn ojama_row_drop() {
        let mut p = player(field_of(&[(2, &[1, 2])]), 0);
        p.ojama = 25;
        assert!(drop_ojama_row(&mut p));
        assert_eq!(p.ojama, 15);
        let mut expected = field_of(&[(2, &[1, 2, O])]);
        for x in (0..WIDTH).filter(|&x| x != 2) {
            expected.cells[0][x] = O;
        }
        assert_eq!(p.field, expected);

        let mut p = player(OracleField::empty(), 0);
        p.ojama = 9;
        assert!(!drop_ojama_row(&mut p));
        assert_eq!(
            p,
            OraclePlayer {
                ojama: 9,
                ..player(OracleField::empty(), 0)
            }
        );
    }

    #[test]
    fn gauge_gain_is_capped_before_the_attack() {
        // Player 0: 3 at (0, 0), the pack's 7 lands beside it: a 1-chain. Player 1: 3-chain.
        let mut players = [
            player(field_of(&[(0, &[3])]), 96),
            player(three_chain_field(), 10),
        ];
        players[0].ojama = 3;
        players[1].ojama = 4;
        let out = play_turn(&mut players, trigger_pack(), [drop(1, 0), drop(2, 0)]);
        assert_eq!((out[0].chains, out[1].chains), (1, 3));
        // 96 + 8 capped at 100, then - (12 + 2 * 3) = 82; not 96 - 18 + 8 = 86.
        assert_eq!(players[0].gauge, 82);
        assert_eq!(players[1].gauge, 18);
        // Player 1 sends 2: stocks 5 and 4, offset to 1 and 0.
        assert_eq!((players[0].ojama, players[1].ojama), (1, 0));
        assert_eq!((players[0].score, players[1].score), (1, 4));
    }

    #[test]
    fn gauge_attack_floors_at_zero() {
        let mut players = [
            player(OracleField::empty(), 10),
            player(three_chain_field(), 0),
        ];
        let out = play_turn(&mut players, trigger_pack(), [drop(5, 0), drop(2, 0)]);
        assert!(!out[0].vanished);
        assert_eq!(players[0].gauge, 0);
        assert_eq!(players[0].ojama, 2);
    }

    #[test]
    fn turn_start_gauge_decides_skill_legality() {
        // Player 0 fires at 80, player 1 at 79: only player 1's is illegal, and its field and
        // gauge are left alone before the attack.
        let mut players = [
            player(skill_five_chain_field(), 80),
            player(skill_five_chain_field(), 79),
        ];
        let out = play_turn(&mut players, trigger_pack(), [Action::Skill, Action::Skill]);
        assert!(!out[0].illegal);
        assert!(out[1].illegal);
        // Player 1 receives 20, and player 0's 5-chain costs player 1 22 gauge.
        assert_eq!(players[0].gauge, 8);
        assert_eq!(players[1].gauge, 57);
        assert_eq!((players[0].ojama, players[1].ojama), (0, 20));
    }

    #[test]
    fn death_at_17_not_16() {
        let pack = Pack::new([1, 2], [3, 4]);
        let mut p = player(field_of(&[(0, &[O; 14])]), 0);
        let out = apply_action(&mut p, pack, drop(0, 0));
        assert_eq!(p.field.height(0), 16);
        assert!(!out.dead);

        let mut p = player(field_of(&[(0, &[O; 15])]), 0);
        let out = apply_action(&mut p, pack, drop(0, 0));
        assert_eq!(p.field.height(0), 17);
        assert!(out.dead);
    }

    #[test]
    fn ojama_row_counts_towards_death() {
        let pack = Pack::new([1, 2], [3, 4]);
        let mut players = [
            player(field_of(&[(0, &[O; 14])]), 0),
            player(OracleField::empty(), 0),
        ];
        players[0].ojama = 10;
        let out = play_turn(&mut players, pack, [drop(0, 0), drop(0, 0)]);
        assert!(out[0].dead);
        assert!(!out[1].dead);
        assert_eq!(players[0].field.height(0), 17);
        assert_eq!(players[0].ojama, 0);
    }

    #[test]
    fn from_top_rows_reads_the_top_row_first() {
        let mut rows = [[0u8; WIDTH]; 16];
        rows[15][0] = 7;
        rows[14][0] = 3;
        rows[15][9] = O;
        let field = OracleField::from_top_rows(&rows);
        assert_eq!(field, field_of(&[(0, &[7, 3]), (9, &[O])]));
        assert_eq!(field.height(0), 2);
        assert_eq!(field.max_height(), 2);
        assert_eq!(field.block_count(), 3);
    }

    #[test]
    #[should_panic(expected = "hole")]
    fn from_top_rows_rejects_holes() {
        let mut rows = [[0u8; WIDTH]; 16];
        rows[14][0] = 7;
        OracleField::from_top_rows(&rows);
    }
}
