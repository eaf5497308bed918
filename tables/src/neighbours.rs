//! Neighbourhood boards: which cells touch a cell (8 directions), or any cell of a column pattern.

use crate::{COLUMN_BITS, COLUMN_MASK, COLUMN_PATTERNS, HEIGHT, WIDTH};
use rayon::prelude::*;

/// A 256-bit board as four little-endian words, aligned for 256-bit loads.
#[repr(C, align(32))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board256(pub [u64; 4]);

impl Board256 {
    /// ORs a 24-bit column value into column `x`.
    const fn with_column(mut self, x: usize, column: u32) -> Self {
        let bit = x * COLUMN_BITS;
        let (word, shift) = (bit / 64, bit % 64);
        let value = column as u64;
        self.0[word] |= value << shift;
        if shift + COLUMN_BITS > 64 {
            self.0[word + 1] |= value >> (64 - shift);
        }
        self
    }
}

/// The rows of column `x` and of its two neighbouring columns touched by the blocks of `pattern`
/// in column `x`, cells of the pattern themselves excluded unless another block touches them.
pub const fn column_neighbours(x: usize, pattern: u32) -> Board256 {
    let pattern = pattern & COLUMN_MASK;
    let beside = (pattern << 1 | pattern >> 1) & COLUMN_MASK;
    let diagonal = (pattern | beside) & COLUMN_MASK;
    let mut board = Board256([0; 4]).with_column(x, beside);
    if x > 0 {
        board = board.with_column(x - 1, diagonal);
    }
    if x + 1 < WIDTH {
        board = board.with_column(x + 1, diagonal);
    }
    board
}

const fn build_cell_table() -> [[Board256; HEIGHT]; WIDTH] {
    let mut table = [[Board256([0; 4]); HEIGHT]; WIDTH];
    let mut x = 0;
    while x < WIDTH {
        let mut y = 0;
        while y < HEIGHT {
            table[x][y] = column_neighbours(x, 1 << y);
            y += 1;
        }
        x += 1;
    }
    table
}

/// `CELL_TABLE[x][y]`: the up to 8 cells around (x, y), cut to the 10 x 19 grid.
static CELL_TABLE: [[Board256; HEIGHT]; WIDTH] = build_cell_table();

/// The neighbours of cell (x, y) (8 directions, cut to the grid; the cell itself excluded).
#[inline]
pub fn cell_neighbours(x: usize, y: usize) -> &'static Board256 {
    &CELL_TABLE[x][y]
}

/// For every column and every 19-bit pattern of blocks in it, the union of their neighbourhoods:
/// 10 x 2^19 boards, 160 MiB. One lookup per column replaces a neighbourhood computation.
pub struct ColumnNeighbourTable {
    boards: Vec<Board256>,
}

impl ColumnNeighbourTable {
    /// Size of the table in bytes.
    pub const BYTES: usize = WIDTH * COLUMN_PATTERNS * std::mem::size_of::<Board256>();

    /// Builds the table on the rayon pool, one chunk of patterns per task.
    pub fn build() -> Self {
        let mut boards = vec![Board256::default(); WIDTH * COLUMN_PATTERNS];
        boards
            .par_chunks_mut(1 << 14)
            .enumerate()
            .for_each(|(chunk, out)| {
                let first = chunk << 14;
                for (i, board) in out.iter_mut().enumerate() {
                    let index = first + i;
                    *board = column_neighbours(
                        index / COLUMN_PATTERNS,
                        (index % COLUMN_PATTERNS) as u32,
                    );
                }
            });
        ColumnNeighbourTable { boards }
    }

    /// The neighbourhood of the blocks `pattern` (19 bits) in column `x`.
    #[inline]
    pub fn get(&self, x: usize, pattern: u32) -> &Board256 {
        &self.boards[x * COLUMN_PATTERNS + (pattern & COLUMN_MASK) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bit(b: &Board256, x: usize, y: usize) -> bool {
        let i = x * COLUMN_BITS + y;
        b.0[i / 64] >> (i % 64) & 1 == 1
    }

    fn count(b: &Board256) -> u32 {
        b.0.iter().map(|w| w.count_ones()).sum()
    }

    #[test]
    fn cell_neighbourhoods_have_eight_cells_inside_and_fewer_at_edges() {
        assert_eq!(count(cell_neighbours(4, 8)), 8);
        assert_eq!(count(cell_neighbours(0, 0)), 3);
        assert_eq!(count(cell_neighbours(9, 18)), 3);
        assert_eq!(count(cell_neighbours(0, 8)), 5);
        assert_eq!(count(cell_neighbours(5, 0)), 5);
        let around = cell_neighbours(2, 10);
        assert!(!bit(around, 2, 10));
        for (x, y) in [
            (1, 9),
            (1, 10),
            (1, 11),
            (2, 9),
            (2, 11),
            (3, 9),
            (3, 10),
            (3, 11),
        ] {
            assert!(bit(around, x, y), "({x},{y})");
        }
    }

    #[test]
    fn column_boundary_crossing_words_is_kept() {
        // Column 2 occupies bits 48..72, across the first and second words.
        let board = column_neighbours(2, 1 << 18);
        assert!(bit(&board, 2, 17) && bit(&board, 1, 18) && bit(&board, 3, 17));
        assert_eq!(count(&board), 5);
    }

    #[test]
    fn column_pattern_is_the_union_of_its_cells() {
        let pattern = 0b101_0000_0000_1100_0001u32;
        for x in 0..WIDTH {
            let mut union = Board256::default();
            for y in 0..HEIGHT {
                if pattern >> y & 1 == 1 {
                    for w in 0..4 {
                        union.0[w] |= cell_neighbours(x, y).0[w];
                    }
                }
            }
            assert_eq!(column_neighbours(x, pattern), union, "column {x}");
        }
    }

    #[test]
    fn built_table_matches_direct_computation() {
        let table = ColumnNeighbourTable::build();
        assert_eq!(table.boards.len() * 32, ColumnNeighbourTable::BYTES);
        assert_eq!(ColumnNeighbourTable::BYTES, 160 << 20);
        for x in 0..WIDTH {
            for pattern in [0, 1, 0x7FFFF, 0x40000, 0x12345, 0x55555, 0x2AAAA] {
                assert_eq!(*table.get(x, pattern), column_neighbours(x, pattern));
            }
        }
    }
}
