//! One player's field as bitboards, and everything that happens to it in a turn: the ojama
//! row, the pack drop or the skill, and the vanish / fall loop.

use super::action::DROP_COLUMNS;
use super::neighbours::Neighbourhood;
use super::pack::PreparedPack;
use super::Action;
#[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
use crate::bitboard::ColumnLanes;
#[cfg(ysai_avx512)]
use crate::bitboard::LaneBoard;
#[cfg(all(ysai_avx2, ysai_pext))]
use crate::bitboard::ShortLanes;
use crate::bitboard::{compress_column, BitBoard, COLUMN_MASK, FLOOR, GRID, HEIGHT, WIDTH};
use std::fmt;
use ysai_tables::{cell_neighbours, chain_ojama, chain_score, skill_ojama, skill_score};

/// Rows of a field that survives a turn.
pub const VISIBLE_HEIGHT: usize = 16;
/// A column this high at the end of a turn loses the game.
pub const DEATH_HEIGHT: u8 = 17;
/// The value of an ojama block in the protocol.
pub const OJAMA_VALUE: u8 = 11;
/// The number whose blocks, and their neighbours, the skill destroys.
pub const SKILL_NUMBER: usize = 5;

const ANY: usize = 0;
const OJAMA: usize = 10;
/// Bits 1..=9 of a number set.
const ALL_NUMBERS: u16 = 0b11_1111_1110;

/// Bits 1..=5 of a number set: one number of each pair summing to 10.
const LOW_NUMBERS: u16 = 0b11_1110;

/// The numbers that pair with the numbers of `set` (n -> 10 - n), bits 1..=9.
#[inline]
const fn complements(set: u16) -> u16 {
    (set & ALL_NUMBERS).reverse_bits() >> 5
}

/// The numbers of a number set (bits 1..=9), lowest first.
#[inline]
fn numbers_in(set: u16) -> impl Iterator<Item = usize> {
    let mut rest = set & ALL_NUMBERS;
    std::iter::from_fn(move || {
        let n = rest.trailing_zeros() as usize;
        rest &= rest.wrapping_sub(1);
        (n < 16).then_some(n)
    })
}

/// What one action did to its player's field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveResult {
    /// Vanish steps (the skill explosion is not one).
    pub chains: u32,
    /// Score of the action: chain score, or explosion score plus the chain score after it.
    pub score: i64,
    /// Ojama generated for the opponent, before offset.
    pub ojama: i64,
    /// Some block vanished in a chain step (what earns the +8 gauge).
    pub vanished: bool,
    /// Blocks destroyed by the skill explosion.
    pub skill_destroyed: u32,
    /// Some column holds 17 or more blocks.
    pub dead: bool,
}

/// The top bit of each byte of `heights` (packed as in [`Field`]) whose column holds
/// `height` or more blocks. Read word by word, as the heights are written: a wider read of
/// bytes just written waits for the writes to reach the cache.
#[inline]
fn columns_at_least(heights: [u64; 2], height: u8) -> [u64; 2] {
    // Adding 128 - height to every byte sets its top bit exactly when it is `height` or more
    // (heights never exceed 19, so no byte carries into the next).
    let lift = u64::from_le_bytes([128 - height; 8]);
    const TOP: u64 = u64::from_le_bytes([0x80; 8]);
    heights.map(|word| (word + lift) & TOP)
}

/// Whether a column of `heights` (packed as in [`Field`]) holds 17 or more blocks.
#[inline]
fn any_column_dead(heights: [u64; 2]) -> bool {
    let [low, high] = columns_at_least(heights, DEATH_HEIGHT);
    low | high != 0
}

/// Whether two blocks of a pack pair with each other once landed: one on the other in a
/// column, or side by side (diagonals included) across its two columns, whose blocks start at
/// rows `bases`.
#[inline]
fn pack_pairs_itself(sides: [[u8; 2]; 2], bases: [usize; 2]) -> bool {
    let [left, right] = sides;
    let stacked = |column: [u8; 2]| column[1] != 0 && column[0] + column[1] == 10;
    if stacked(left) || stacked(right) {
        return true;
    }
    (0..2).any(|i| {
        (0..2).any(|j| {
            left[i] != 0
                && right[j] != 0
                && left[i] + right[j] == 10
                && (bases[0] + i).abs_diff(bases[1] + j) <= 1
        })
    })
}

/// What a drop that pairs no block does, found without playing it (see [`Field::quiet_drop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuietDrop {
    /// Numbered blocks the pack put on the field.
    pub placed: u32,
    /// The field is dead afterwards, or the pack did not fit.
    pub dead: bool,
}

/// What a drop does to a field, as a search ranking drops reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DropOutcome {
    pub chains: u8,
    /// Numbered blocks after the drop minus before.
    pub blocks_change: i16,
    /// The field is dead afterwards, or the pack did not fit.
    pub dead: bool,
    /// Bit x: column x took a block of the pack, lost one in the chain, or is 17 high after
    /// it. Every other column kept its blocks and was not looked at, and a block's neighbours
    /// are at most one column away, so the drop does the same on a field that differs from
    /// this one only two or more columns from these.
    pub columns: u16,
}

impl DropOutcome {
    /// Whether the drop does the same on a field that differs from this one only in
    /// `changed` columns (bit x = column x).
    #[inline]
    pub fn holds_beside(&self, changed: u16) -> bool {
        acts_apart(self.columns, changed)
    }
}

/// Whether something that touched only the `acted` columns of a field happens alike on a
/// field that differs from it only in the `changed` columns: every column it read is a
/// neighbour of one it touched, and none of those changed.
#[inline]
pub fn acts_apart(acted: u16, changed: u16) -> bool {
    let reach = acted | acted << 1 | acted >> 1;
    reach & changed == 0
}

/// Every 5 and every numbered block touching one, of a field with these boards.
#[inline]
fn skill_targets(blocks: BitBoard, fives: BitBoard, ojama: BitBoard) -> BitBoard {
    (fives | fives.neighbours()).and_not(ojama) & blocks
}

/// The boards of a field that its [`FieldCounts`] come from.
#[derive(Clone, Copy, Debug)]
pub struct CountedBoards {
    blocks: BitBoard,
    fives: BitBoard,
    ojama: BitBoard,
}

impl CountedBoards {
    #[inline]
    pub fn counts(&self) -> FieldCounts {
        FieldCounts::of(self.blocks, self.fives, self.ojama)
    }

    /// The counts of this field with the `columns` (bit x = column x) of `other`.
    #[inline]
    pub fn counts_with_columns_of(&self, other: &Field, columns: u16) -> FieldCounts {
        let theirs = BitBoard::of_columns(columns);
        let mix = |mine: BitBoard, n: usize| mine.with_cells_of(other.boards[n], theirs);
        FieldCounts::of(
            mix(self.blocks, ANY),
            mix(self.fives, SKILL_NUMBER),
            mix(self.ojama, OJAMA),
        )
    }
}

/// What a search counts of a field (see [`Field::counts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldCounts {
    pub blocks: u32,
    pub ojama: u32,
    /// Every 5 and every numbered block touching one.
    pub skill_targets: u32,
}

impl FieldCounts {
    #[inline]
    fn of(blocks: BitBoard, fives: BitBoard, ojama: BitBoard) -> Self {
        FieldCounts {
            blocks: blocks.popcount(),
            ojama: ojama.popcount(),
            skill_targets: skill_targets(blocks, fives, ojama).popcount(),
        }
    }
}

/// A chain's steps and the columns that lost blocks in it (bit x = column x).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Chain {
    steps: u32,
    columns: u16,
}

/// What a chain leaves, for a caller that does not keep the field.
struct ChainEnd {
    chain: Chain,
    number_blocks: u32,
    /// Bit x: column x holds 17 or more blocks.
    dead_columns: u16,
}

impl Chain {
    const NONE: Chain = Chain {
        steps: 0,
        columns: 0,
    };
}

/// What a pack drop put on the field.
#[derive(Default)]
struct Placement {
    /// The cells the blocks took.
    cells: BitBoard,
    /// The first chain step: every placed block touching a block of its complement, and
    /// those blocks (before the drop the field held no pair, so every pair has a placed block).
    doomed: BitBoard,
}

/// A value that cannot be a field cell, a block with nothing under it, or a picture that does
/// not fit the 10 x 16 field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldError {
    BadPicture {
        row: usize,
        column: usize,
        symbol: char,
    },
    BadValue {
        row: usize,
        column: usize,
        value: u8,
    },
    Floating {
        row: usize,
        column: usize,
    },
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldError::BadValue { row, column, value } => write!(
                f,
                "field row {} column {}: {value} is not a cell value (0, 1-9 or 11)",
                row + 1,
                column + 1
            ),
            FieldError::Floating { row, column } => write!(
                f,
                "field row {} column {}: block with an empty cell below it",
                row + 1,
                column + 1
            ),
            FieldError::BadPicture { row, column, symbol } => write!(
                f,
                "picture row {} column {}: `{symbol}` is not `.`, `X` or a digit 1-9, or lies outside 10 x 16",
                row + 1,
                column + 1
            ),
        }
    }
}

impl FieldError {
    /// The row (0 = top, as the protocol and pictures list them) the error is about.
    pub fn row(&self) -> usize {
        match *self {
            FieldError::BadValue { row, .. }
            | FieldError::Floating { row, .. }
            | FieldError::BadPicture { row, .. } => row,
        }
    }
}

impl std::error::Error for FieldError {}

/// One player's field.
///
/// `boards[0]` holds every block, `boards[1..=9]` the blocks of each number and `boards[10]` the
/// ojama. Neighbourhoods are computed when a vanish test needs them, not stored: a field is
/// copied far more often (every child of a search) than it chains, and 11 boards copy in half
/// the time of 20.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Field {
    boards: [BitBoard; 11],
    /// Blocks per column, byte `x % 8` of word `x / 8` for column `x` (the other bytes stay 0):
    /// whole words, so that a copy moves them whole and the death test is two additions.
    heights: [u64; 2],
}

impl Default for Field {
    fn default() -> Self {
        Field::empty()
    }
}

impl Field {
    pub const fn empty() -> Self {
        Field {
            boards: [BitBoard::ZERO; 11],
            heights: [0; 2],
        }
    }

    /// A field from the protocol's 16 rows, top row first.
    pub fn from_rows(rows: &[[u8; WIDTH]; VISIBLE_HEIGHT]) -> Result<Self, FieldError> {
        let mut field = Field::empty();
        for x in 0..WIDTH {
            for y in 0..VISIBLE_HEIGHT {
                let row = VISIBLE_HEIGHT - 1 - y;
                let value = rows[row][x];
                match value {
                    0 => continue,
                    1..=9 | OJAMA_VALUE => {}
                    _ => {
                        return Err(FieldError::BadValue {
                            row,
                            column: x,
                            value,
                        })
                    }
                }
                if usize::from(field.height(x)) != y {
                    return Err(FieldError::Floating { row, column: x });
                }
                field.push(x, value);
            }
        }
        Ok(field)
    }

    /// The field of `rows` with every block fallen to rest, for input whose blocks float
    /// (which the official server never sends): each column keeps its blocks in order.
    pub fn from_rows_settled(rows: &[[u8; WIDTH]; VISIBLE_HEIGHT]) -> Result<Self, FieldError> {
        let mut settled = [[0u8; WIDTH]; VISIBLE_HEIGHT];
        for x in 0..WIDTH {
            let bottom_up = rows.iter().rev().map(|row| row[x]).filter(|&v| v != 0);
            for (y, value) in bottom_up.enumerate() {
                settled[VISIBLE_HEIGHT - 1 - y][x] = value;
            }
        }
        Field::from_rows(&settled)
    }

    /// A field drawn as text, one string per row, top first, the last string being the bottom
    /// row: digits 1-9, `X` for ojama, `.` for empty. Rows and columns left out are empty.
    /// Handy for tests and benchmarks: `Field::from_picture(&[".7", "36"])`.
    pub fn from_picture(picture: &[&str]) -> Result<Self, FieldError> {
        let mut rows = [[0u8; WIDTH]; VISIBLE_HEIGHT];
        let top = VISIBLE_HEIGHT.checked_sub(picture.len());
        for (i, line) in picture.iter().enumerate() {
            for (x, symbol) in line.chars().enumerate() {
                let bad = FieldError::BadPicture {
                    row: i,
                    column: x,
                    symbol,
                };
                let value = match symbol {
                    '.' => 0,
                    'X' => OJAMA_VALUE,
                    '1'..='9' => symbol as u8 - b'0',
                    _ => return Err(bad),
                };
                let (Some(top), true) = (top, x < WIDTH) else {
                    return Err(bad);
                };
                rows[top + i][x] = value;
            }
        }
        Field::from_rows(&rows)
    }

    /// The 16 protocol rows, top first (blocks above row 16 are not shown).
    pub fn to_rows(&self) -> [[u8; WIDTH]; VISIBLE_HEIGHT] {
        std::array::from_fn(|row| std::array::from_fn(|x| self.cell(x, VISIBLE_HEIGHT - 1 - row)))
    }

    /// The value at (x, y): 0 empty, 1..=9, or 11 for ojama.
    pub fn cell(&self, x: usize, y: usize) -> u8 {
        if !self.boards[ANY].test(x, y) {
            0
        } else if self.boards[OJAMA].test(x, y) {
            OJAMA_VALUE
        } else {
            (1..=9).find(|&n| self.boards[n].test(x, y)).unwrap_or(0) as u8
        }
    }

    #[inline]
    pub fn height(&self, x: usize) -> u8 {
        (self.heights[x / 8] >> (8 * (x % 8))) as u8
    }

    #[inline]
    pub fn heights(&self) -> [u8; WIDTH] {
        std::array::from_fn(|x| self.height(x))
    }

    /// Every block.
    #[inline]
    pub fn blocks(&self) -> BitBoard {
        self.boards[ANY]
    }

    /// The blocks of number `n` (1..=9).
    #[inline]
    pub fn number(&self, n: usize) -> BitBoard {
        self.boards[n]
    }

    /// The cells touching some block of number `n` (1..=9).
    #[inline]
    pub fn around_number(&self, n: usize) -> BitBoard {
        self.boards[n].neighbours()
    }

    #[inline]
    pub fn ojama(&self) -> BitBoard {
        self.boards[OJAMA]
    }

    /// The boards that determine the field (numbers 1..=9, then ojama); the others are derived.
    #[inline]
    pub fn defining_boards(&self) -> &[BitBoard] {
        &self.boards[1..=OJAMA]
    }

    /// Numbered (non-ojama) blocks.
    #[inline]
    pub fn number_blocks(&self) -> u32 {
        self.boards[ANY].and_not(self.boards[OJAMA]).popcount()
    }

    /// Some column holds 17 or more blocks: a field in this state at the end of a turn has lost.
    #[inline]
    pub fn is_dead(&self) -> bool {
        any_column_dead(self.heights)
    }

    /// How many columns hold `height` (at most 19) or more blocks.
    #[inline]
    pub fn columns_at_least(&self, height: u8) -> u32 {
        debug_assert!((1..=19).contains(&height));
        let [low, high] = columns_at_least(self.heights, height);
        low.count_ones() + high.count_ones()
    }

    /// Bit x: column x holds 17 or more blocks.
    fn dead_columns(&self) -> u16 {
        let dead = columns_at_least(self.heights, DEATH_HEIGHT);
        (0..WIDTH).fold(0, |mask, x| {
            let top_bit = dead[x / 8] >> (8 * (x % 8) + 7) & 1;
            mask | (top_bit as u16) << x
        })
    }

    /// The blocks the skill would destroy now: every 5 and every numbered block touching one.
    #[inline]
    pub fn skill_targets(&self) -> BitBoard {
        skill_targets(
            self.boards[ANY],
            self.boards[SKILL_NUMBER],
            self.boards[OJAMA],
        )
    }

    /// Raises column `x` by `blocks`.
    #[inline]
    fn add_height(&mut self, x: usize, blocks: u8) {
        self.heights[x / 8] += u64::from(blocks) << (8 * (x % 8));
    }

    /// Lowers column `x` by `blocks`.
    #[inline]
    fn remove_height(&mut self, x: usize, blocks: u8) {
        self.heights[x / 8] -= u64::from(blocks) << (8 * (x % 8));
    }

    /// Puts `value` (1..=9 or 11) on top of column `x`; returns false if the column is full.
    #[inline]
    fn push(&mut self, x: usize, value: u8) -> bool {
        let y = usize::from(self.height(x));
        if y >= HEIGHT {
            return false;
        }
        let cell = BitBoard::cell(x, y);
        self.boards[ANY] |= cell;
        let board = if value == OJAMA_VALUE {
            OJAMA
        } else {
            usize::from(value)
        };
        self.boards[board] |= cell;
        self.add_height(x, 1);
        true
    }

    /// Stacks the blocks of `landing` (bottom first, 0-padded) on column `x` and records them
    /// in `placement`; false if the column overflows the grid. The block board and the height
    /// are left to the caller, which updates them once for the whole pack.
    #[inline]
    fn stack_numbers(&mut self, x: usize, landing: [u8; 2], placement: &mut Placement) -> bool {
        let base = usize::from(self.height(x));
        for (k, value) in landing.into_iter().take_while(|&v| v != 0).enumerate() {
            let y = base + k;
            if y >= HEIGHT {
                return false;
            }
            let n = usize::from(value);
            let cell = BitBoard::cell(x, y);
            // The field was stable before the drop, so a new pair has a placed block in it;
            // checked here, when the later block of the pair lands (the earlier one is on its
            // board already).
            let touching = BitBoard::from(*cell_neighbours(x, y)) & self.boards[10 - n];
            if !touching.is_zero() {
                placement.doomed |= touching | cell;
            }
            self.boards[n] |= cell;
            placement.cells |= cell;
        }
        true
    }

    /// The turn-start ojama row: one ojama on top of every column that has room, all
    /// columns at once.
    pub fn drop_ojama_row(&mut self) {
        let blocks = self.boards[ANY];
        let row = (blocks.shifted(0, 1) | FLOOR).and_not(blocks) & GRID;
        self.boards[OJAMA] |= row;
        self.boards[ANY] |= row;
        // One more block in every column below the grid's top (bytes 0-7 and 0-1).
        const ONES: [u64; 2] = [u64::from_le_bytes([1; 8]), 0x0101];
        let full = columns_at_least(self.heights, HEIGHT as u8);
        for ((height, ones), full) in self.heights.iter_mut().zip(ONES).zip(full) {
            *height += ones & !(full >> 7);
        }
    }

    /// Applies `action` with this turn's `pack`. The caller checks that a skill is allowed.
    #[inline]
    pub fn apply<N: Neighbourhood>(&mut self, pack: &PreparedPack, action: Action) -> MoveResult {
        match action {
            Action::Drop { x, rot } => self.drop_pack::<N>(pack, x, rot),
            Action::Skill => self.fire_skill::<N>(),
        }
    }

    /// Drops the pack with its left half in column `x` (0..=8) at rotation `rot`, then resolves
    /// chains. A pack that does not fit (x > 8, or a column overflowing the grid) loses.
    pub fn drop_pack<N: Neighbourhood>(
        &mut self,
        pack: &PreparedPack,
        x: u8,
        rot: u8,
    ) -> MoveResult {
        let Some(chain) = self.land_and_chain::<N>(pack, x, rot) else {
            return MoveResult {
                dead: true,
                ..MoveResult::default()
            };
        };
        self.drop_result(chain)
    }

    /// [`Field::drop_pack`], with the columns the drop touched as [`DropOutcome::columns`]
    /// names them.
    pub fn drop_pack_touching<N: Neighbourhood>(
        &mut self,
        pack: &PreparedPack,
        x: u8,
        rot: u8,
    ) -> (MoveResult, u16) {
        let pack_columns = 0b11u16 << x.min(DROP_COLUMNS);
        let Some(chain) = self.land_and_chain::<N>(pack, x, rot) else {
            let lost = MoveResult {
                dead: true,
                ..MoveResult::default()
            };
            return (lost, pack_columns);
        };
        let result = self.drop_result(chain);
        // A dead field also read the columns that killed it.
        let killers = if result.dead { self.dead_columns() } else { 0 };
        (result, pack_columns | chain.columns | killers)
    }

    fn drop_result(&self, chain: Chain) -> MoveResult {
        let score = chain_score(chain.steps);
        MoveResult {
            chains: chain.steps,
            score,
            ojama: score / 2,
            vanished: chain.steps > 0,
            skill_destroyed: 0,
            dead: self.is_dead(),
        }
    }

    /// Lands the pack and resolves its chain; `None` if it does not fit (the field is then
    /// left half-written, as a lost field may be).
    #[inline]
    fn land_and_chain<N: Neighbourhood>(
        &mut self,
        pack: &PreparedPack,
        x: u8,
        rot: u8,
    ) -> Option<Chain> {
        let doomed = self.land(pack, x, rot)?;
        Some(self.chain_from::<N>(doomed))
    }

    /// Lands the pack; returns the blocks its landing dooms (the chain's first step), or
    /// `None` if it does not fit (the field is then left half-written).
    #[inline]
    fn land(&mut self, pack: &PreparedPack, x: u8, rot: u8) -> Option<BitBoard> {
        if x >= DROP_COLUMNS {
            return None;
        }
        let mut placement = Placement::default();
        for side in 0..2 {
            let column = usize::from(x) + side;
            let landing = pack.landing(rot, side);
            if !self.stack_numbers(column, landing, &mut placement) {
                return None;
            }
            self.add_height(column, landing.iter().filter(|&&v| v != 0).count() as u8);
        }
        self.boards[ANY] |= placement.cells;
        Some(placement.doomed)
    }

    /// What dropping the pack at `x`, `rot` would do, without keeping the field it leaves: a
    /// drop that pairs nothing is answered from the heights (see [`Field::quiet_drop`]).
    pub fn drop_outcome<N: Neighbourhood>(
        &self,
        pack: &PreparedPack,
        x: u8,
        rot: u8,
    ) -> DropOutcome {
        let pack_columns = 0b11u16 << x.min(DROP_COLUMNS);
        if let Some(quiet) = self.quiet_drop(pack, x, rot) {
            // A dead field also read the columns that killed it.
            let killers = if quiet.dead { self.dead_columns() } else { 0 };
            return DropOutcome {
                chains: 0,
                blocks_change: quiet.placed as i16,
                dead: quiet.dead,
                columns: pack_columns | killers,
            };
        }
        let mut after = *self;
        let Some(doomed) = after.land(pack, x, rot) else {
            return DropOutcome {
                chains: 0,
                blocks_change: 0,
                dead: true,
                columns: pack_columns,
            };
        };
        let end = after.chain_end::<N>(doomed);
        let dead = end.dead_columns != 0;
        DropOutcome {
            chains: end.chain.steps as u8,
            blocks_change: if dead {
                0
            } else {
                end.number_blocks as i16 - self.number_blocks() as i16
            },
            dead,
            columns: pack_columns | end.chain.columns | end.dead_columns,
        }
    }

    /// What the chain whose first step removes `doomed` (none if empty) leaves, for a caller
    /// that does not keep the field: on lanes, the boards are never packed back.
    fn chain_end<N: Neighbourhood>(&mut self, doomed: BitBoard) -> ChainEnd {
        #[cfg(all(ysai_avx2, ysai_pext))]
        if N::SHIFTS && !doomed.is_zero() && !self.is_dead() {
            return self.chain_end_in_lanes::<ShortLanes>(doomed);
        }
        #[cfg(ysai_avx512)]
        if N::SHIFTS && !doomed.is_zero() {
            return self.chain_end_in_lanes::<LaneBoard>(doomed);
        }
        let chain = self.chain_from::<N>(doomed);
        ChainEnd {
            chain,
            number_blocks: self.number_blocks(),
            dead_columns: self.dead_columns(),
        }
    }

    /// The columns (bit x = column x) in which `other` holds other blocks than this field.
    pub fn changed_columns(&self, other: &Field) -> u16 {
        let differ = self
            .defining_boards()
            .iter()
            .zip(other.defining_boards())
            .fold(BitBoard::ZERO, |differ, (&mine, &theirs)| {
                differ | (mine ^ theirs)
            });
        differ.occupied_columns()
    }

    /// This field with the `columns` (bit x = column x) of `other`: boards and heights.
    #[inline]
    pub fn with_columns_of(&self, other: &Field, columns: u16) -> Field {
        let theirs = BitBoard::of_columns(columns);
        let mut mixed = *self;
        for (mine, &their) in mixed.boards.iter_mut().zip(&other.boards) {
            *mine = mine.with_cells_of(their, theirs);
        }
        let mut height_bytes = [0u64; 2];
        let mut rest = columns & ((1 << WIDTH) - 1);
        while rest != 0 {
            let x = rest.trailing_zeros() as usize;
            height_bytes[x / 8] |= 0xFF << (8 * (x % 8));
            rest &= rest - 1;
        }
        for ((mine, their), bytes) in mixed
            .heights
            .iter_mut()
            .zip(other.heights)
            .zip(height_bytes)
        {
            *mine = (*mine & !bytes) | (their & bytes);
        }
        mixed
    }

    /// What a search counts of a field: its blocks, its ojama and what the skill would
    /// destroy.
    #[inline]
    pub fn counts(&self) -> FieldCounts {
        self.counted().counts()
    }

    /// The boards [`Field::counts`] reads.
    #[inline]
    pub fn counted(&self) -> CountedBoards {
        CountedBoards {
            blocks: self.boards[ANY],
            fives: self.boards[SKILL_NUMBER],
            ojama: self.boards[OJAMA],
        }
    }

    /// The outcome of dropping the pack at `x`, `rot` when none of its blocks touches a
    /// complement (on the field or in the pack), worked out from the heights and the cells
    /// around the landing blocks: a search that only wants a drop's chain need not copy the
    /// field for the drops that vanish nothing. `None` when a pair forms, and the drop must be
    /// played.
    pub fn quiet_drop(&self, pack: &PreparedPack, x: u8, rot: u8) -> Option<QuietDrop> {
        const OVERFLOW: QuietDrop = QuietDrop {
            placed: 0,
            dead: true,
        };
        if x >= DROP_COLUMNS {
            return Some(OVERFLOW);
        }
        let x = usize::from(x);
        let sides = [pack.landing(rot, 0), pack.landing(rot, 1)];
        let bases = [usize::from(self.height(x)), usize::from(self.height(x + 1))];
        let mut heights = self.heights;
        let mut placed = 0;
        for (side, landing) in sides.iter().enumerate() {
            let column = x + side;
            for (k, &n) in landing.iter().enumerate().take_while(|&(_, &n)| n != 0) {
                let y = bases[side] + k;
                if y >= HEIGHT {
                    return Some(OVERFLOW);
                }
                let around_cell = BitBoard::from(*cell_neighbours(column, y));
                if !(around_cell & self.boards[usize::from(10 - n)]).is_zero() {
                    return None;
                }
                placed += 1;
                heights[column / 8] += 1 << (8 * (column % 8));
            }
        }
        if pack_pairs_itself(sides, bases) {
            return None;
        }
        Some(QuietDrop {
            placed,
            dead: any_column_dead(heights),
        })
    }

    /// The chain that follows if the block at (x, y) vanished by itself (the blocks above it
    /// fall one row): what a chain potential asks of each buried block. 0 on an empty cell.
    pub fn chains_after_erasing<N: Neighbourhood>(&self, x: usize, y: usize) -> u32 {
        let cell = BitBoard::cell(x, y);
        if (self.boards[ANY] & cell).is_zero() || self.erasure_is_quiet(x, y) {
            return 0;
        }
        self.chain_after_erasing::<N>(cell).steps
    }

    /// The chain that follows if the block `cell` vanished by itself.
    #[inline]
    fn chain_after_erasing<N: Neighbourhood>(&self, cell: BitBoard) -> Chain {
        // Every field a potential erases from survived its turn: no column is above 16.
        #[cfg(all(ysai_avx2, ysai_pext))]
        if N::SHIFTS && !self.is_dead() {
            return self.chain_after_erasing_in_lanes::<ShortLanes>(cell);
        }
        let mut field = *self;
        field.chain_after_removing::<N>(cell)
    }

    /// Whether erasing the block at (x, y) starts no chain, read from its column and the two
    /// beside it: the blocks above it fall one row, and on a field holding no pair (every
    /// field a search meets has resolved its chains) only they can meet a complement. About
    /// two erasures in five of a potential-ranked beam start nothing, and need no copy of the
    /// field.
    fn erasure_is_quiet(&self, x: usize, y: usize) -> bool {
        let below = (1u32 << y) - 1;
        let fallen = |column: u32| column & below | (column >> 1) & !below;
        let beside = |n: usize, side: Option<usize>| {
            side.filter(|&c| c < WIDTH)
                .map_or(0, |c| self.boards[n].column(c))
        };
        (1..=9).all(|n| {
            let moved = (self.boards[n].column(x) >> (y + 1)) << y;
            if moved == 0 {
                return true;
            }
            let partner = 10 - n;
            let above_below = moved << 1 | moved >> 1;
            let across = moved | above_below;
            above_below & fallen(self.boards[partner].column(x)) == 0
                && across & beside(partner, x.checked_sub(1)) == 0
                && across & beside(partner, Some(x + 1)) == 0
        })
    }

    /// The row of the highest ojama of column `x`, if it holds one.
    pub fn ojama_top(&self, x: usize) -> Option<usize> {
        let column = self.boards[OJAMA].column(x);
        (column != 0).then(|| 31 - column.leading_zeros() as usize)
    }

    /// Fires the skill: destroys the 5s and the numbered blocks around them, then resolves chains.
    pub fn fire_skill<N: Neighbourhood>(&mut self) -> MoveResult {
        let doomed = self.skill_targets();
        let destroyed = doomed.popcount();
        let chains = if destroyed == 0 {
            0
        } else {
            self.chain_after_removing::<N>(doomed).steps
        };
        MoveResult {
            chains,
            score: skill_score(destroyed) + chain_score(chains),
            ojama: skill_ojama(destroyed) + chain_ojama(chains),
            vanished: chains > 0,
            skill_destroyed: destroyed,
            dead: self.is_dead(),
        }
    }

    /// Removes `gone` (the skill's explosion, an erased block: not a chain step itself), lets
    /// the rest fall, and returns the chain that follows.
    fn chain_after_removing<N: Neighbourhood>(&mut self, gone: BitBoard) -> Chain {
        let (moved, _) = self.remove(gone);
        self.resolve_chains::<N>(moved | complements(moved))
    }

    /// Vanish, fall, repeat: the chain that follows. `tested` holds the numbers
    /// (bits 1..=9, closed under n -> 10 - n) whose blocks may have new neighbours.
    fn resolve_chains<N: Neighbourhood>(&mut self, tested: u16) -> Chain {
        let doomed = self.vanishing::<N>(tested);
        self.chain_from::<N>(doomed)
    }

    /// The chain whose first step removes `doomed`; none if it is empty.
    #[inline]
    fn chain_from<N: Neighbourhood>(&mut self, doomed: BitBoard) -> Chain {
        if doomed.is_zero() {
            return Chain::NONE;
        }
        #[cfg(all(ysai_avx2, ysai_pext))]
        if N::SHIFTS && !self.is_dead() {
            return self.chain_in_lanes::<ShortLanes>(doomed);
        }
        #[cfg(ysai_avx512)]
        if N::SHIFTS {
            return self.chain_in_lanes::<LaneBoard>(doomed);
        }
        self.chain_by_columns::<N>(doomed)
    }

    /// [`Field::chain_from`] on lane boards: the field is spread to a lane per column once,
    /// stays in registers for every step, and is packed back at the end.
    #[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
    fn chain_in_lanes<L: ColumnLanes>(&mut self, doomed: BitBoard) -> Chain {
        let (chain, mut boards) = self.chain_of_lanes::<L>(doomed);
        boards[ANY] = boards[1..].iter().fold(L::zero(), |any, &b| any.or(b));
        self.boards = boards.map(L::to_board);
        self.heights = boards[ANY].column_counts();
        chain
    }

    /// [`Field::chain_end`] on lane boards, which are left unpacked. Short lanes hold a field
    /// whose columns hold 16 blocks or fewer once the pack landed: a chain only lowers them.
    #[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
    fn chain_end_in_lanes<L: ColumnLanes>(&self, doomed: BitBoard) -> ChainEnd {
        let (chain, boards) = self.chain_of_lanes::<L>(doomed);
        let numbers = boards[1..OJAMA].iter().fold(L::zero(), |any, &b| any.or(b));
        ChainEnd {
            chain,
            number_blocks: numbers.count(),
            dead_columns: numbers
                .or(boards[OJAMA])
                .lanes_with_row(usize::from(DEATH_HEIGHT) - 1),
        }
    }

    /// The field spread to a lane per column and the chain played on it; the block board
    /// (index [`ANY`]) is left out of the loop and empty.
    #[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
    #[inline]
    fn chain_of_lanes<L: ColumnLanes>(&self, doomed: BitBoard) -> (Chain, [L; 11]) {
        let mut boards = self.spread_to_lanes();
        let chain = run_chain_in_lanes(&mut boards, L::from_board(doomed));
        (chain, boards)
    }

    /// The numbered and ojama boards on lanes; the block board (index [`ANY`]) stays empty.
    #[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
    #[inline]
    fn spread_to_lanes<L: ColumnLanes>(&self) -> [L; 11] {
        let mut boards = [L::zero(); 11];
        for n in 1..OJAMA + 1 {
            boards[n] = L::from_board(self.boards[n]);
        }
        boards
    }

    /// [`Field::chains_after_erasing`]'s chain on lanes: the erased cell's column falls, and
    /// the chain runs from what that made meet.
    #[cfg(all(ysai_avx2, ysai_pext))]
    #[inline]
    fn chain_after_erasing_in_lanes<L: ColumnLanes>(&self, cell: BitBoard) -> Chain {
        let mut boards = self.spread_to_lanes::<L>();
        let landed = fall_in_lanes(&mut boards, L::from_board(cell));
        let doomed = vanishing_in_lanes(&boards, landed);
        if doomed.is_zero() {
            return Chain::NONE;
        }
        run_chain_in_lanes(&mut boards, doomed)
    }

    /// [`Field::chain_from`] on the packed boards, a column at a time.
    fn chain_by_columns<N: Neighbourhood>(&mut self, mut doomed: BitBoard) -> Chain {
        let mut chain = Chain::NONE;
        loop {
            chain.steps += 1;
            let (changed, columns) = self.remove(doomed);
            chain.columns |= columns;
            doomed = self.vanishing::<N>(changed | complements(changed));
            if doomed.is_zero() {
                return chain;
            }
        }
    }

    /// The blocks of the numbers in `tested` (closed under n -> 10 - n) that touch a block of
    /// their complement.
    #[inline]
    fn vanishing<N: Neighbourhood>(&self, tested: u16) -> BitBoard {
        let mut doomed = BitBoard::ZERO;
        for n in numbers_in(tested & LOW_NUMBERS) {
            let (low, high) = (self.boards[n], self.boards[10 - n]);
            if low.is_zero() || high.is_zero() {
                continue;
            }
            let hit = low & N::of(high);
            if !hit.is_zero() {
                // The complements that vanish are those touching a vanishing block.
                doomed |= hit | high & N::of(hit);
            }
        }
        doomed
    }

    /// Removes `doomed` and lets everything above fall; returns the numbers (bits 1..=9) whose
    /// blocks moved, the only ones that can have new neighbours (losing blocks makes no pair),
    /// and the columns that lost blocks (bit x = column x).
    fn remove(&mut self, doomed: BitBoard) -> (u16, u16) {
        // Every board loses its doomed cells at once; only the columns with something left
        // above a removed cell need the per-board compress.
        for board in &mut self.boards {
            *board = board.and_not(doomed);
        }
        let (mut moved, mut columns) = (0u16, 0u16);
        for x in 0..WIDTH {
            let gone = doomed.column(x);
            if gone == 0 {
                continue;
            }
            columns |= 1 << x;
            self.remove_height(x, gone.count_ones() as u8);
            let lowest = gone.trailing_zeros();
            if self.boards[ANY].column(x) >> lowest == 0 {
                continue;
            }
            // Blocks never float, so the column of every block is just its new height.
            self.boards[ANY].set_column(x, (1 << self.height(x)) - 1);
            let keep = !gone & COLUMN_MASK;
            // An exclusive range: the compiler unrolls it, where `1..=OJAMA` kept a loop.
            for n in 1..OJAMA + 1 {
                let column = self.boards[n].column(x);
                if column >> lowest != 0 {
                    self.boards[n].set_column(x, compress_column(column, keep));
                    moved |= 1 << n;
                }
            }
        }
        (moved & ALL_NUMBERS, columns)
    }
}

/// The chain whose first step removes `doomed` from lane boards: vanish, fall, repeat.
#[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
#[inline]
fn run_chain_in_lanes<L: ColumnLanes>(boards: &mut [L; 11], mut doomed: L) -> Chain {
    let mut chain = Chain::NONE;
    loop {
        chain.steps += 1;
        chain.columns |= doomed.occupied_lanes();
        let landed = fall_in_lanes(boards, doomed);
        doomed = vanishing_in_lanes(boards, landed);
        if doomed.is_zero() {
            return chain;
        }
    }
}

/// Removes `doomed` from lane boards and lets everything above fall; returns the cells a
/// block may have fallen to (from the lowest gap of each column up), where any new pair has a
/// block.
#[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
#[inline]
fn fall_in_lanes<L: ColumnLanes>(boards: &mut [L; 11], doomed: L) -> L {
    // Gaps close from the bottom up, each taking its cell away and moving the gaps above it
    // down with the blocks.
    let landed = doomed.lowest().and_above();
    let mut falling = landed;
    let mut gaps = doomed;
    loop {
        for board in boards[ANY + 1..].iter_mut() {
            *board = board.close_gap(falling);
        }
        gaps = gaps.close_gap(falling);
        if gaps.is_zero() {
            return landed;
        }
        falling = gaps.lowest().and_above();
    }
}

/// [`Field::vanishing`] on lane boards, for the pairs with a block in `landed`.
#[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
#[inline]
fn vanishing_in_lanes<L: ColumnLanes>(boards: &[L; 11], landed: L) -> L {
    let mut doomed = L::zero();
    // A constant range, so that every board index is a constant and the boards stay in
    // registers.
    for n in 1..SKILL_NUMBER + 1 {
        let (low, high) = (boards[n], boards[10 - n]);
        if !low.or(high).meets(landed) {
            continue;
        }
        if n == SKILL_NUMBER {
            // Fives pair with each other, and every five touching a vanishing five vanishes.
            doomed = doomed.or_and(low, low.neighbours());
            continue;
        }
        let hit = high.touching_in(low);
        if !hit.is_zero() {
            doomed = doomed.or3(hit, hit.touching_in(high));
        }
    }
    doomed
}

/// Rows 18..0 top-down: digits, `X` for ojama, `.` for empty.
impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Field {:?}", self.heights())?;
        for y in (0..HEIGHT).rev() {
            let row: String = (0..WIDTH)
                .map(|x| match self.cell(x, y) {
                    0 => '.',
                    OJAMA_VALUE => 'X',
                    n => char::from(b'0' + n),
                })
                .collect();
            writeln!(f, "  {row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::sim::{Pack, Shift, Table};

    fn random_number(rng: &mut Rng) -> u8 {
        1 + rng.below(9) as u8
    }

    fn random_pack(rng: &mut Rng) -> PreparedPack {
        let top = [random_number(rng), random_number(rng)];
        let bottom = [random_number(rng), random_number(rng)];
        PreparedPack::new(Pack::new(top, bottom))
    }

    /// A field after up to 40 random drops and a few ojama rows: stable, as chains start.
    fn random_field(rng: &mut Rng) -> Field {
        let mut field = Field::empty();
        for _ in 0..rng.below(40) {
            let pack = random_pack(rng);
            let mut next = field;
            let (x, rot) = (rng.below(9) as u8, rng.below(4) as u8);
            if rng.chance(1, 8) {
                next.drop_ojama_row();
            }
            if next.drop_pack::<Table>(&pack, x, rot).dead {
                break;
            }
            field = next;
        }
        field
    }

    /// About a quarter of the blocks of `field`.
    #[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
    fn random_blocks(rng: &mut Rng, field: &Field) -> BitBoard {
        let words = std::array::from_fn(|_| rng.next_u64() & rng.next_u64());
        field.blocks() & BitBoard::from_words(words)
    }

    #[test]
    fn a_drop_on_a_dead_field_names_the_columns_that_killed_it() {
        let mut field = Field::from_picture(&["1"]).unwrap();
        for _ in 0..DEATH_HEIGHT {
            field.push(0, OJAMA_VALUE);
        }
        let pack = PreparedPack::new(crate::sim::Pack::new([1, 1], [1, 1]));
        let outcome = field.drop_outcome::<Shift>(&pack, 6, 0);
        assert!(outcome.dead);
        assert_eq!(outcome.columns, 1 | 0b11 << 6);
        assert!(
            !outcome.holds_beside(0b10),
            "the next column could lower column 0"
        );
        assert!(outcome.holds_beside(0b1000));
    }

    #[test]
    fn an_ojama_row_is_one_ojama_pushed_on_each_column_with_room() {
        let mut rng = Rng::new(37);
        let mut full_columns = 0;
        for _ in 0..200 {
            let mut field = random_field(&mut rng);
            // Rows until the grid's top (19): the last ones find full columns.
            for _ in 0..rng.below(20) {
                let mut pushed = field;
                for x in 0..WIDTH {
                    pushed.push(x, OJAMA_VALUE);
                }
                full_columns += field.columns_at_least(HEIGHT as u8);
                field.drop_ojama_row();
                assert_eq!(field, pushed, "{:?}", pushed.heights());
            }
        }
        assert!(full_columns > 100, "{full_columns} full columns met");
    }

    #[test]
    fn columns_at_least_a_height_are_counted_column_by_column() {
        let mut rng = Rng::new(36);
        let mut tall = 0;
        for _ in 0..400 {
            let mut field = random_field(&mut rng);
            // Ojama rows until a column may pass the death height (19 at most).
            while field.heights().iter().all(|&h| h < 17) && rng.chance(3, 4) {
                field.drop_ojama_row();
            }
            let heights = field.heights();
            for height in 1..=19 {
                let expected = heights.iter().filter(|&&h| h >= height).count() as u32;
                assert_eq!(
                    field.columns_at_least(height),
                    expected,
                    "{heights:?} {height}"
                );
            }
            let dead = (0..WIDTH).fold(0, |mask, x| {
                mask | u16::from(heights[x] >= DEATH_HEIGHT) << x
            });
            assert_eq!(field.dead_columns(), dead, "{heights:?}");
            tall += u32::from(field.columns_at_least(DEATH_HEIGHT) > 0);
        }
        assert!(tall > 20, "{tall} fields with a dead column");
    }

    #[test]
    fn a_drop_outcome_is_what_playing_the_drop_does() {
        let mut rng = Rng::new(34);
        let mut chained = 0;
        for _ in 0..400 {
            let field = random_field(&mut rng);
            let pack = random_pack(&mut rng);
            for &action in Action::drops() {
                let Action::Drop { x, rot } = action else {
                    unreachable!("drops only")
                };
                let mut played = field;
                let (result, columns) = played.drop_pack_touching::<Shift>(&pack, x, rot);
                let blocks_change = if result.dead {
                    0
                } else {
                    played.number_blocks() as i16 - field.number_blocks() as i16
                };
                let expected = DropOutcome {
                    chains: result.chains as u8,
                    blocks_change,
                    dead: result.dead,
                    columns,
                };
                let outcome = field.drop_outcome::<Shift>(&pack, x, rot);
                if outcome.chains > 0 {
                    chained += 1;
                }
                if result.dead {
                    assert_eq!((outcome.dead, outcome.columns), (true, columns));
                } else {
                    assert_eq!(outcome, expected, "{field:?} {action}");
                }
            }
        }
        assert!(chained > 500, "{chained} drops chained");
    }

    #[test]
    fn an_erasure_is_what_playing_it_does_and_is_quiet_where_it_pairs_nothing() {
        let mut rng = Rng::new(38);
        let (mut quiet, mut chained) = (0, 0);
        for _ in 0..400 {
            let field = random_field(&mut rng);
            for (x, y) in field.blocks().cells() {
                let mut played = field;
                let chain = played.chain_after_removing::<Table>(BitBoard::cell(x, y));
                let steps = chain.steps;
                let at = format!("{field:?} ({x}, {y})");
                assert_eq!(field.erasure_is_quiet(x, y), steps == 0, "{at}");
                assert_eq!(field.chains_after_erasing::<Shift>(x, y), steps, "{at}");
                assert_eq!(field.chains_after_erasing::<Table>(x, y), steps, "{at}");
                if steps == 0 {
                    quiet += 1;
                } else {
                    chained += 1;
                }
            }
        }
        assert!(
            quiet > 1000 && chained > 1000,
            "{quiet} quiet, {chained} chained"
        );
    }

    /// The chain loop on `L` against the one on packed boards, from the same removals on
    /// fields that survived their turn (every column at 16 or less, which short lanes hold).
    #[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
    fn check_chains_in_lanes<L: ColumnLanes>() {
        let mut rng = Rng::new(21);
        let mut longer_chains = 0;
        for _ in 0..3000 {
            let field = random_field(&mut rng);
            let doomed = random_blocks(&mut rng, &field);
            if doomed.is_zero() {
                continue;
            }
            let (mut lanes, mut columns) = (field, field);
            let chains = lanes.chain_in_lanes::<L>(doomed);
            let expected = columns.chain_by_columns::<Shift>(doomed);
            assert_eq!((chains, lanes), (expected, columns), "{field:?}{doomed:?}");
            longer_chains += usize::from(chains.steps > 1);
        }
        assert!(longer_chains > 1000, "{longer_chains} removals chained");
    }

    #[cfg(all(ysai_avx2, ysai_pext))]
    #[test]
    fn chains_in_short_lanes_match_chains_by_columns() {
        check_chains_in_lanes::<ShortLanes>();
    }

    #[cfg(ysai_avx512)]
    #[test]
    fn chains_in_avx512_lanes_match_chains_by_columns() {
        check_chains_in_lanes::<LaneBoard>();
    }
}
