//! Packs: the 2x2 pieces both players receive in the same order.

/// Packs in one game.
pub const PACKS_PER_GAME: usize = 500;

/// A pack as the protocol gives it: `cells[0]` is the top row, `cells[1]` the bottom row,
/// each `[left, right]`; 0 is an empty cell, 1..=9 a numbered block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pack {
    pub cells: [[u8; 2]; 2],
}

impl Pack {
    pub const fn new(top: [u8; 2], bottom: [u8; 2]) -> Self {
        Pack { cells: [top, bottom] }
    }

    /// One clockwise quarter turn: `a b / c d` becomes `c a / d b`.
    pub const fn rotated_once(self) -> Self {
        let [[a, b], [c, d]] = self.cells;
        Pack::new([c, a], [d, b])
    }

    /// The pack after `rot` clockwise quarter turns.
    pub fn rotated(self, rot: u8) -> Self {
        (0..rot % 4).fold(self, |p, _| p.rotated_once())
    }

    /// The blocks of column `side` (0 = left, 1 = right) in landing order, bottom first,
    /// empty cells skipped.
    pub fn column_blocks(self, side: usize) -> impl Iterator<Item = u8> {
        [self.cells[1][side], self.cells[0][side]].into_iter().filter(|&v| v != 0)
    }
}
