//! One player's field as bitboards, and everything that happens to it in a turn: the ojama
//! row, the pack drop or the skill, and the vanish / fall loop.

mod chain;
mod drop;

use chain::*;

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
mod tests;
