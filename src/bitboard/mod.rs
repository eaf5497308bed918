//! The 256-bit board: ten columns of 24 bits, rows 0..19 used.
//!
//! Column `x` occupies bits `24 * x .. 24 * x + 24`; row `y` (0 = bottom) is bit `24 * x + y`.
//! One API, two backends chosen at compile time: AVX2 through `std::arch` where the target has
//! it, portable `u64` words elsewhere (or everywhere with the `scalar` feature). Gravity squeezes
//! columns with BMI2 `pext` where available and a software bit-compress otherwise.

mod compress;
#[cfg(ysai_avx512)]
mod lanes;
#[cfg(all(ysai_avx2, ysai_pext))]
mod short_lanes;

#[cfg(ysai_avx2)]
#[path = "avx2.rs"]
mod backend;
#[cfg(not(ysai_avx2))]
#[path = "scalar.rs"]
mod backend;

pub use compress::{compress_column, COMPRESS_BACKEND};
#[cfg(ysai_avx512)]
pub use lanes::LaneBoard;
#[cfg(all(ysai_avx2, ysai_pext))]
pub use short_lanes::{ShortLanes, SHORT_LANE_ROWS};
pub use ysai_tables::{COLUMN_BITS, COLUMN_MASK, HEIGHT, WIDTH};

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Which bitboard backend this build uses.
pub const BACKEND: &str = backend::NAME;

/// The boards the chain loop of `--neighbours shift` runs on in this build.
pub const CHAIN_BOARDS: &str = if cfg!(ysai_avx512) {
    // Fields with a column above 16 run on the 32-bit lanes.
    "avx2-short-lanes+avx512-lanes"
} else if cfg!(all(ysai_avx2, ysai_pext)) {
    // Fields with a column above 16 run on the packed columns.
    "avx2-short-lanes"
} else {
    "packed-columns"
};

/// A set of cells held with one lane of a vector register per column, on which a chain runs
/// without leaving registers: gravity is a shift within each lane, a neighbourhood a shift
/// across lanes. The chain loop (`sim::field`) is written once over this.
pub trait ColumnLanes: Copy {
    fn zero() -> Self;
    /// The cells of `board` (a caller of a kind of lanes shorter than the grid checks that
    /// they hold every cell).
    fn from_board(board: BitBoard) -> Self;
    /// The packed board.
    fn to_board(self) -> BitBoard;
    /// Cells per column, as `sim::Field` keeps its heights: byte `x` of 16 bytes, read as two
    /// little-endian words.
    fn column_counts(self) -> [u64; 2];
    /// Every cell of the set.
    fn count(self) -> u32;
    /// Bit x: lane (column) x holds a cell in row `y` (never, for a row the lanes do not hold).
    fn lanes_with_row(self, y: usize) -> u16;
    fn is_zero(self) -> bool;
    /// Bit x: lane (column) x holds a cell.
    fn occupied_lanes(self) -> u16;
    /// Whether the two sets share a cell.
    fn meets(self, other: Self) -> bool;
    fn or(self, other: Self) -> Self;
    /// `self | (a & b)`.
    fn or_and(self, a: Self, b: Self) -> Self;
    /// `self | a | b`.
    fn or3(self, a: Self, b: Self) -> Self;
    /// The cells touching any cell of `self` in the 8 directions, cut to the grid, as
    /// [`BitBoard::neighbours`] (a cell of `self` only if another touches it).
    fn neighbours(self) -> Self;
    /// The cells of `within` that touch a cell of `self`, for two disjoint sets.
    fn touching_in(self, within: Self) -> Self;
    /// The lowest cell of each column.
    fn lowest(self) -> Self;
    /// The cell of each column of `self` (single cells per column) and those above it;
    /// nothing in an empty column.
    fn and_above(self) -> Self;
    /// Removes the lowest cell of `falling` (a board from [`ColumnLanes::and_above`]) from
    /// each column and moves the cells above it down one row.
    fn close_gap(self, falling: Self) -> Self;
}

/// A set of cells of one field. Held in the backend's native type (a vector register with
/// AVX2), so that copies of boards and fields are wide moves, which later wide loads can read
/// straight from the store buffer.
#[repr(C, align(32))]
#[derive(Clone, Copy)]
pub struct BitBoard {
    raw: backend::Raw,
}

impl Default for BitBoard {
    fn default() -> Self {
        BitBoard::ZERO
    }
}

impl PartialEq for BitBoard {
    #[inline]
    fn eq(&self, other: &BitBoard) -> bool {
        (*self ^ *other).is_zero()
    }
}

impl Eq for BitBoard {}

impl std::hash::Hash for BitBoard {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.words().hash(state);
    }
}

/// The board with `column` (bit y = row y) in every column.
const fn in_every_column(column: u32) -> BitBoard {
    let mut board = BitBoard::ZERO;
    let mut x = 0;
    while x < WIDTH {
        board = board.with_column_const(x, column);
        x += 1;
    }
    board
}

/// Every cell of the 10 x 19 grid.
pub const GRID: BitBoard = in_every_column(COLUMN_MASK);

/// The bottom row of the grid.
pub const FLOOR: BitBoard = in_every_column(1);

/// `COLUMNS[x]`: the cells of column x.
static COLUMNS: [BitBoard; WIDTH] = {
    let mut columns = [BitBoard::ZERO; WIDTH];
    let mut x = 0;
    while x < WIDTH {
        columns[x] = BitBoard::ZERO.with_column_const(x, COLUMN_MASK);
        x += 1;
    }
    columns
};

/// `CELLS[x][y]`: the board of cell (x, y).
static CELLS: [[BitBoard; HEIGHT]; WIDTH] = {
    let mut cells = [[BitBoard::ZERO; HEIGHT]; WIDTH];
    let mut x = 0;
    while x < WIDTH {
        let mut y = 0;
        while y < HEIGHT {
            cells[x][y] = BitBoard::ZERO.with_column_const(x, 1 << y);
            y += 1;
        }
        x += 1;
    }
    cells
};

impl BitBoard {
    pub const ZERO: BitBoard = BitBoard::from_words([0; 4]);

    pub const fn from_words(words: [u64; 4]) -> Self {
        BitBoard {
            raw: backend::raw_from_words(words),
        }
    }

    pub const fn words(&self) -> [u64; 4] {
        backend::raw_words(self.raw)
    }

    /// The words as memory, for the accesses that work on parts of the board.
    #[inline]
    fn bytes_ptr(&self) -> *const u8 {
        (self as *const BitBoard).cast()
    }

    const fn with_column_const(self, x: usize, column: u32) -> Self {
        let mut words = self.words();
        let bit = x * COLUMN_BITS;
        let (word, shift) = (bit / 64, bit % 64);
        words[word] |= (column as u64) << shift;
        if shift + COLUMN_BITS > 64 {
            words[word + 1] |= (column as u64) >> (64 - shift);
        }
        BitBoard::from_words(words)
    }

    /// The board of the single cell (x, y), x < 10, y < 19 (a table lookup, so that it can be
    /// combined with other boards without a round trip through memory).
    #[inline]
    pub fn cell(x: usize, y: usize) -> Self {
        CELLS[x][y]
    }

    /// The 24 bits of column `x` (rows 0..24, bit `y` = row `y`): one unaligned 32-bit load
    /// at byte `3x`, whose top byte belongs to the next column.
    #[inline]
    pub fn column(&self, x: usize) -> u32 {
        debug_assert!(x < WIDTH);
        // SAFETY: x < 10, so bytes 3x..3x+4 lie inside the 32 bytes of the board.
        let word = unsafe { self.bytes_ptr().add(3 * x).cast::<u32>().read_unaligned() };
        u32::from_le(word) & 0xFF_FFFF
    }

    /// Every cell of the columns in `columns` (bit x = column x).
    #[inline]
    pub fn of_columns(columns: u16) -> Self {
        let mut board = BitBoard::ZERO;
        let mut rest = columns & ((1 << WIDTH) - 1);
        while rest != 0 {
            board |= COLUMNS[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        board
    }

    /// Bit x: column x holds a cell.
    #[inline]
    pub fn occupied_columns(&self) -> u16 {
        (0..WIDTH).fold(0, |mask, x| mask | u16::from(self.column(x) != 0) << x)
    }

    /// Replaces the 24 bits of column `x` (bits above 24 are ignored) with a three-byte
    /// write: no load, and nothing written that the next column's 32-bit load reads (a store
    /// only partly under a later load cannot be forwarded to it, and stalls the load).
    #[inline]
    pub fn set_column(&mut self, x: usize, column: u32) {
        debug_assert!(x < WIDTH);
        // SAFETY: x < 10, so bytes 3x..3x+3 lie inside the 32 bytes of the board; the borrow is
        // unique.
        unsafe {
            let at = (self as *mut BitBoard).cast::<u8>().add(3 * x);
            at.cast::<u16>().write_unaligned((column as u16).to_le());
            at.add(2).write((column >> 16) as u8);
        }
    }

    #[inline]
    fn index(x: usize, y: usize) -> (usize, u64) {
        let bit = x * COLUMN_BITS + y;
        (bit / 64, 1u64 << (bit % 64))
    }

    /// Whether cell (x, y) is in the set.
    #[inline]
    pub fn test(&self, x: usize, y: usize) -> bool {
        let (word, mask) = Self::index(x, y);
        self.words()[word] & mask != 0
    }

    /// Adds cell (x, y).
    #[inline]
    pub fn set(&mut self, x: usize, y: usize) {
        let (word, mask) = Self::index(x, y);
        let mut words = self.words();
        words[word] |= mask;
        *self = BitBoard::from_words(words);
    }

    /// Removes cell (x, y).
    #[inline]
    pub fn clear(&mut self, x: usize, y: usize) {
        let (word, mask) = Self::index(x, y);
        let mut words = self.words();
        words[word] &= !mask;
        *self = BitBoard::from_words(words);
    }

    #[inline]
    pub fn is_zero(&self) -> bool {
        backend::is_zero(self)
    }

    #[inline]
    pub fn popcount(&self) -> u32 {
        self.words().iter().map(|w| w.count_ones()).sum()
    }

    /// `self & !other`: the cells of `self` that are not in `other`.
    #[inline]
    pub fn and_not(self, other: BitBoard) -> BitBoard {
        backend::and_not(self, other)
    }

    /// These cells outside `cells`, and `other`'s inside them.
    #[inline]
    pub fn with_cells_of(self, other: BitBoard, cells: BitBoard) -> BitBoard {
        self.and_not(cells) | (other & cells)
    }

    /// The cells touching any cell of `self` in the 8 directions, cut to the grid. A cell of
    /// `self` is included only if another cell of `self` touches it.
    #[inline]
    pub fn neighbours(self) -> BitBoard {
        let beside = backend::shift_up(self, 1) | backend::shift_down(self, 1);
        let spread = self | beside;
        let across = backend::shift_up(spread, COLUMN_BITS as u32)
            | backend::shift_down(spread, COLUMN_BITS as u32);
        (beside | across) & GRID
    }

    /// The set moved `dx` columns right and `dy` rows up (|dx| <= 1, |dy| <= 3); what leaves
    /// the grid is dropped.
    #[inline]
    pub fn shifted(self, dx: i32, dy: i32) -> BitBoard {
        debug_assert!(dx.abs() <= 1 && dy.abs() <= 3);
        let bits = dx * COLUMN_BITS as i32 + dy;
        let moved = match bits {
            0 => self,
            1.. => backend::shift_up(self, bits as u32),
            _ => backend::shift_down(self, (-bits) as u32),
        };
        moved & GRID
    }

    /// The cells of the set, column by column from the bottom.
    pub fn cells(self) -> impl Iterator<Item = (usize, usize)> {
        (0..WIDTH).flat_map(move |x| {
            let column = self.column(x);
            (0..COLUMN_BITS)
                .filter(move |&y| column >> y & 1 == 1)
                .map(move |y| (x, y))
        })
    }
}

impl BitAnd for BitBoard {
    type Output = BitBoard;
    #[inline]
    fn bitand(self, rhs: BitBoard) -> BitBoard {
        backend::and(self, rhs)
    }
}

impl BitOr for BitBoard {
    type Output = BitBoard;
    #[inline]
    fn bitor(self, rhs: BitBoard) -> BitBoard {
        backend::or(self, rhs)
    }
}

impl BitXor for BitBoard {
    type Output = BitBoard;
    #[inline]
    fn bitxor(self, rhs: BitBoard) -> BitBoard {
        backend::xor(self, rhs)
    }
}

/// The complement over all 256 bits; mask with [`GRID`] to stay on the board.
impl Not for BitBoard {
    type Output = BitBoard;
    #[inline]
    fn not(self) -> BitBoard {
        backend::not(self)
    }
}

impl BitAndAssign for BitBoard {
    #[inline]
    fn bitand_assign(&mut self, rhs: BitBoard) {
        *self = *self & rhs;
    }
}

impl BitOrAssign for BitBoard {
    #[inline]
    fn bitor_assign(&mut self, rhs: BitBoard) {
        *self = *self | rhs;
    }
}

impl BitXorAssign for BitBoard {
    #[inline]
    fn bitxor_assign(&mut self, rhs: BitBoard) {
        *self = *self ^ rhs;
    }
}

impl From<ysai_tables::Board256> for BitBoard {
    #[inline]
    fn from(board: ysai_tables::Board256) -> Self {
        BitBoard::from_words(board.0)
    }
}

/// Rows 18..0 top-down, `#` for a set cell.
impl fmt::Debug for BitBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "BitBoard")?;
        for y in (0..HEIGHT).rev() {
            let row: String = (0..WIDTH)
                .map(|x| if self.test(x, y) { '#' } else { '.' })
                .collect();
            writeln!(f, "  {row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
