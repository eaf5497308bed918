//! Two ways to compute the neighbourhood board of a number: whole-board shifts, or one lookup
//! per column in the 160 MiB table. The simulator is generic over the choice, so the inner loop
//! carries no runtime switch.

use crate::bitboard::{BitBoard, WIDTH};
use std::sync::OnceLock;
use ysai_tables::ColumnNeighbourTable;

/// How the simulator recomputes a neighbourhood board after gravity.
pub trait Neighbourhood: Copy + Send + Sync + 'static {
    /// The name used on the command line.
    const NAME: &'static str;
    /// Whether neighbourhoods are shifts, which the chain loop may then compute on lane
    /// boards where the build has them.
    const SHIFTS: bool;
    /// The cells touching any cell of `board` (8 directions, cut to the grid).
    fn of(board: BitBoard) -> BitBoard;
}

/// Shifts of the whole 256-bit board: no memory traffic.
#[derive(Clone, Copy, Debug, Default)]
pub struct Shift;

impl Neighbourhood for Shift {
    const NAME: &'static str = "shift";
    const SHIFTS: bool = true;
    #[inline]
    fn of(board: BitBoard) -> BitBoard {
        board.neighbours()
    }
}

/// One lookup per non-empty column in the precomputed column table (built on first use).
#[derive(Clone, Copy, Debug, Default)]
pub struct Table;

static COLUMN_TABLE: OnceLock<ColumnNeighbourTable> = OnceLock::new();

/// The column table, built (in parallel) the first time it is asked for.
pub fn column_table() -> &'static ColumnNeighbourTable {
    COLUMN_TABLE.get_or_init(ColumnNeighbourTable::build)
}

impl Neighbourhood for Table {
    const NAME: &'static str = "table";
    const SHIFTS: bool = false;
    #[inline]
    fn of(board: BitBoard) -> BitBoard {
        let table = column_table();
        let mut around = BitBoard::ZERO;
        for x in 0..WIDTH {
            let column = board.column(x);
            if column != 0 {
                around |= BitBoard::from(*table.get(x, column));
            }
        }
        around
    }
}

/// How the simulator finds the cells around a vanishing block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NeighbourMode {
    /// Precomputed per-column-pattern tables (160 MiB), as the original did.
    Table,
    /// Bit shifts of the board: no tables, small memory.
    Shift,
}

/// Runs `$body` with the type `$n` bound to the neighbourhood implementation named by `$mode`
/// (a [`NeighbourMode`]).
#[macro_export]
macro_rules! with_neighbours {
    ($mode:expr, $n:ident => $body:expr) => {
        match $mode {
            $crate::sim::neighbours::NeighbourMode::Shift => {
                type $n = $crate::sim::neighbours::Shift;
                $body
            }
            $crate::sim::neighbours::NeighbourMode::Table => {
                type $n = $crate::sim::neighbours::Table;
                $body
            }
        }
    };
}
