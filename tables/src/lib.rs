//! Precomputed tables of ysai: neighbourhood boards and the score / ojama tables.
//!
//! Boards here are plain `[u64; 4]` words in the layout of the main crate's `BitBoard`:
//! column `x` occupies bits `24 * x .. 24 * x + 24`, row `y` (0 = bottom) is bit `24 * x + y`.

mod neighbours;
mod scores;

pub use neighbours::{cell_neighbours, column_neighbours, Board256, ColumnNeighbourTable};
pub use scores::{chain_ojama, chain_score, skill_ojama, skill_score, MAX_CHAIN, MAX_SKILL_BLOCKS};

/// Columns of a field.
pub const WIDTH: usize = 10;
/// Rows a column can hold during a turn: 16, one ojama row, and the two cells of a pack.
pub const HEIGHT: usize = 19;
/// Bits reserved per column in a 256-bit board.
pub const COLUMN_BITS: usize = 24;
/// The rows a column can use, as a bit mask.
pub const COLUMN_MASK: u32 = (1 << HEIGHT) - 1;
/// Distinct column patterns the column table covers.
pub const COLUMN_PATTERNS: usize = 1 << HEIGHT;
