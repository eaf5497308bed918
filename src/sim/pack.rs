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
        Pack {
            cells: [top, bottom],
        }
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
        [self.cells[1][side], self.cells[0][side]]
            .into_iter()
            .filter(|&v| v != 0)
    }
}

/// A pack with its four rotations worked out in advance: for each rotation and each of the two
/// columns it covers, the blocks in landing order (bottom first), 0 where none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PreparedPack {
    landing: [[[u8; 2]; 2]; 4],
}

impl PreparedPack {
    pub fn new(pack: Pack) -> Self {
        let mut landing = [[[0; 2]; 2]; 4];
        for (rot, columns) in landing.iter_mut().enumerate() {
            let rotated = pack.rotated(rot as u8);
            for (side, column) in columns.iter_mut().enumerate() {
                for (slot, value) in rotated.column_blocks(side).enumerate() {
                    column[slot] = value;
                }
            }
        }
        PreparedPack { landing }
    }

    /// The blocks landing in column `side` (0 = left) at rotation `rot`, bottom first, 0-padded.
    #[inline]
    pub fn landing(&self, rot: u8, side: usize) -> [u8; 2] {
        self.landing[rot as usize & 3][side]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_turns_clockwise() {
        let pack = Pack::new([1, 2], [3, 4]);
        assert_eq!(pack.rotated(1), Pack::new([3, 1], [4, 2]));
        assert_eq!(pack.rotated(2), Pack::new([4, 3], [2, 1]));
        assert_eq!(pack.rotated(3), Pack::new([2, 4], [1, 3]));
        assert_eq!(pack.rotated(4), pack);
    }

    #[test]
    fn landing_order_is_bottom_first_and_skips_empty_cells() {
        let prepared = PreparedPack::new(Pack::new([0, 7], [9, 0]));
        assert_eq!(prepared.landing(0, 0), [9, 0]);
        assert_eq!(prepared.landing(0, 1), [7, 0]);
        // Rotated once: `9 0 / 0 7`: the left column holds only the 9, the right only the 7.
        assert_eq!(prepared.landing(1, 0), [9, 0]);
        assert_eq!(prepared.landing(1, 1), [7, 0]);
        let full = PreparedPack::new(Pack::new([1, 2], [3, 4]));
        assert_eq!(full.landing(0, 0), [3, 1]);
        assert_eq!(full.landing(2, 1), [1, 3]);
    }
}
