//! The pack-independent chain potential of the 2019 champion's AI (champions.md §1.3): the
//! longest chain the field would fire if one buried block vanished by itself, whatever the
//! packs to come, and the shape terms that count complementary pairs about to meet. A good
//! build scores higher move after move, so a search never has to cross a valley to find it.

use crate::bitboard::{BitBoard, WIDTH};
use crate::sim::{Field, Neighbourhood};
use ysai_tables::chain_ojama;

/// Ojama beyond this (about an 18-chain) adds nothing: the opponent is dead either way.
pub const OJAMA_CAP: i64 = 200;
/// A column above this height costs, per row.
const SAFE_HEIGHT: i64 = 14;

/// The best chain one erased block starts, and that block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Potential {
    pub chain: u32,
    pub trigger: Option<(usize, usize)>,
}

/// Erases, one at a time, every numbered block that is neither the top of its column (which
/// moves nothing) nor below the ojama of both neighbouring columns (which no pack can reach),
/// and keeps the longest chain that follows.
pub fn erase_potential<N: Neighbourhood>(field: &Field) -> Potential {
    let mut best = Potential::default();
    for (x, y) in erasable(field).cells() {
        let chain = field.chains_after_erasing::<N>(x, y);
        if chain > best.chain {
            best = Potential {
                chain,
                trigger: Some((x, y)),
            };
        }
    }
    best
}

/// The lowest row of column `x` worth erasing: the lower of the neighbouring columns'
/// highest ojama rows (0 where a neighbour has none, or there is no neighbour).
fn reachable_floor(field: &Field, x: usize) -> usize {
    let top = |column: Option<usize>| {
        column
            .filter(|&c| c < WIDTH)
            .and_then(|c| field.ojama_top(c))
            .unwrap_or(0)
    };
    top(x.checked_sub(1)).min(top(Some(x + 1)))
}

/// Complementary pairs with something between them: same column two (`tate`) or three
/// (`tate2`) rows apart, neighbouring columns two (`keima`) or three (`keima2`) rows apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    pub tate: u32,
    pub tate2: u32,
    pub keima: u32,
    pub keima2: u32,
}

/// Counts each pair once: in a column from its upper block, across columns from its right one.
pub fn shape(field: &Field) -> Shape {
    let mut shape = Shape::default();
    for n in 1..=9 {
        let here = field.number(n);
        let partner = field.number(10 - n);
        let pairs = |dx: i32, dy: i32| (here & partner.shifted(dx, dy)).popcount();
        shape.tate += pairs(0, 2);
        shape.tate2 += pairs(0, 3);
        shape.keima += pairs(1, 2) + pairs(1, -2);
        shape.keima2 += pairs(1, 3) + pairs(1, -3);
    }
    shape
}

/// The champion's score of a field that fires (or could fire) `ojama`: ojama first, then the
/// shape, every block kept, and no column above 14.
pub fn score(field: &Field, ojama: i64) -> i64 {
    let s = shape(field);
    let tallest = (0..WIDTH)
        .map(|x| i64::from(field.height(x)))
        .max()
        .unwrap_or(0);
    1_000_000 * ojama.min(OJAMA_CAP) - 10_000 * (tallest - SAFE_HEIGHT).max(0)
        + 50 * i64::from(s.keima)
        + 40 * i64::from(s.tate)
        + i64::from(s.keima2)
        + i64::from(s.tate2)
        + 2000 * i64::from(field.blocks().popcount())
}

/// The rank of `field` as a build: [`score`] of the chain [`erase_potential`] finds in it,
/// what the beam and the anytime search rank their nodes by.
pub fn build_score<N: Neighbourhood>(field: &Field) -> i64 {
    score(field, chain_ojama(erase_potential::<N>(field).chain))
}

/// The cells [`erase_potential`] erases, column by column from the bottom.
pub fn erasable(field: &Field) -> BitBoard {
    let mut cells = BitBoard::ZERO;
    for x in 0..WIDTH {
        let height = usize::from(field.height(x));
        for y in reachable_floor(field, x)..height.saturating_sub(1) {
            cells.set(x, y);
        }
    }
    cells.and_not(field.ojama())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::tests::picture;
    use crate::sim::Shift;

    #[test]
    fn erasing_a_buried_block_measures_the_chain_it_starts() {
        // Erasing the 5 drops the 3 beside the 7 (one), then the 8 onto the 2 (two); erasing
        // the 2 fires only the 3 and 7; erasing the 3 fires nothing.
        let field = picture(&["8.", "3.", "5.", "27"]);
        assert_eq!(field.chains_after_erasing::<Shift>(0, 1), 2);
        assert_eq!(field.chains_after_erasing::<Shift>(0, 0), 1);
        assert_eq!(field.chains_after_erasing::<Shift>(0, 2), 0);
        let p = erase_potential::<Shift>(&field);
        assert_eq!(
            p,
            Potential {
                chain: 2,
                trigger: Some((0, 1))
            }
        );
        assert_eq!(
            erase_potential::<Shift>(&Field::empty()),
            Potential::default()
        );
    }

    #[test]
    fn the_top_block_is_never_erased() {
        let cells = erasable(&picture(&["8.", "4.", "2.", "1."]));
        assert!(!cells.test(0, 3), "the top block moves nothing");
        for y in 0..3 {
            assert!(cells.test(0, y), "row {y}");
        }
    }

    #[test]
    fn blocks_under_both_neighbours_ojama_are_out_of_reach() {
        let field = picture(&["X3X", "X5X", "X7X", "X1X"]);
        assert!(erasable(&field).is_zero());
        let field = picture(&["X3.", "X5.", "X7.", "X1."]);
        assert!(erasable(&field).test(1, 0), "one open side is enough");
    }

    #[test]
    fn pairs_are_counted_once_at_each_distance() {
        let count = |rows: &[&str]| shape(&picture(rows));
        assert_eq!(count(&["3.", "1.", "7."]).tate, 1);
        assert_eq!(count(&["3.", "1.", "1.", "7."]).tate2, 1);
        assert_eq!(count(&[".3", "1X", "7X"]).keima, 1);
        assert_eq!(count(&["3.", "1.", "X7"]).keima, 1);
        assert_eq!(count(&["5.", "X.", "X.", "X5"]).keima2, 1);
        assert_eq!(count(&["5.", "X.", "X.", "X5"]).tate, 0);
    }

    #[test]
    fn ojama_counts_first_then_height() {
        let low = picture(&["1"]);
        assert!(score(&low, 1) > score(&low, 0) + 500_000);
        assert_eq!(score(&low, 500), score(&low, OJAMA_CAP));
        let tall = picture(&["1"; 16]);
        let fifteen = picture(&["1"; 15]);
        assert!(
            score(&tall, 0) < score(&fifteen, 0),
            "a row above 14 costs more than a block"
        );
    }
}
