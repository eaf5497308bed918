use super::*;
use crate::rng::Rng;

fn random_board(rng: &mut Rng) -> BitBoard {
    BitBoard::from_words([
        rng.next_u64(),
        rng.next_u64(),
        rng.next_u64(),
        rng.next_u64(),
    ])
}

fn random_grid_board(rng: &mut Rng) -> BitBoard {
    random_board(rng) & random_board(rng) & GRID
}

fn words_op(a: BitBoard, b: BitBoard, f: impl Fn(u64, u64) -> u64) -> BitBoard {
    let (a, b) = (a.words(), b.words());
    BitBoard::from_words(std::array::from_fn(|i| f(a[i], b[i])))
}

#[test]
fn logic_ops_match_word_ops() {
    let mut rng = Rng::new(1);
    for _ in 0..1000 {
        let (a, b) = (random_board(&mut rng), random_board(&mut rng));
        assert_eq!(a & b, words_op(a, b, |a, b| a & b));
        assert_eq!(a | b, words_op(a, b, |a, b| a | b));
        assert_eq!(a ^ b, words_op(a, b, |a, b| a ^ b));
        assert_eq!(a.and_not(b), words_op(a, b, |a, b| a & !b));
        assert_eq!(!a, words_op(a, a, |a, _| !a));
        assert_eq!(
            a.popcount(),
            a.words().iter().map(|w| w.count_ones()).sum::<u32>()
        );
        assert_eq!(a.is_zero(), a.words() == [0; 4]);
    }
    assert!(BitBoard::ZERO.is_zero());
    assert!(!BitBoard::cell(9, 18).is_zero());
}

#[test]
fn grid_holds_ten_columns_of_nineteen_rows() {
    assert_eq!(GRID.popcount(), 190);
    for x in 0..WIDTH {
        assert_eq!(GRID.column(x), COLUMN_MASK);
    }
    assert_eq!(GRID.words()[3] >> 48, 0, "bits 240..256 stay unused");
}

#[test]
fn columns_and_cells_address_the_same_bits() {
    let mut rng = Rng::new(2);
    for _ in 0..200 {
        let mut board = random_board(&mut rng);
        let x = rng.below(10) as usize;
        let value = rng.next_u64() as u32 & 0xFF_FFFF;
        let before = board;
        board.set_column(x, value);
        assert_eq!(board.column(x), value);
        for other in (0..WIDTH).filter(|&o| o != x) {
            assert_eq!(
                board.column(other),
                before.column(other),
                "column {other} untouched"
            );
        }
        for y in 0..COLUMN_BITS {
            assert_eq!(board.test(x, y), value >> y & 1 == 1);
        }
    }
}

#[test]
fn set_clear_and_test_single_cells() {
    let mut board = BitBoard::ZERO;
    board.set(2, 18);
    board.set(7, 0);
    assert!(board.test(2, 18) && board.test(7, 0));
    assert_eq!(board.popcount(), 2);
    assert_eq!(board.column(2), 1 << 18);
    board.clear(2, 18);
    assert!(!board.test(2, 18));
    assert_eq!(board.cells().collect::<Vec<_>>(), vec![(7, 0)]);
}

#[test]
fn neighbours_are_the_union_of_cell_neighbourhoods() {
    let mut rng = Rng::new(3);
    for _ in 0..2000 {
        let board = random_grid_board(&mut rng) & random_grid_board(&mut rng);
        let expected = board.cells().fold(BitBoard::ZERO, |acc, (x, y)| {
            acc | BitBoard::from(*ysai_tables::cell_neighbours(x, y))
        });
        assert_eq!(board.neighbours(), expected, "{board:?}");
    }
}

#[test]
fn a_lone_cell_is_not_its_own_neighbour() {
    let around = BitBoard::cell(0, 0).neighbours();
    assert!(!around.test(0, 0));
    assert_eq!(around.popcount(), 3);
    let pair = (BitBoard::cell(4, 4) | BitBoard::cell(5, 5)).neighbours();
    assert!(pair.test(4, 4) && pair.test(5, 5));
}

#[test]
fn compress_matches_the_software_reference() {
    let mut rng = Rng::new(4);
    for _ in 0..10_000 {
        let (column, mask) = (rng.next_u64() as u32, rng.next_u64() as u32);
        assert_eq!(
            compress_column(column, mask),
            compress::software_compress(column, mask)
        );
    }
    assert_eq!(
        compress::software_compress(0b1011_0110, 0b1111_0011),
        0b10_1110
    );
    assert_eq!(compress::software_compress(u32::MAX, 0), 0);
}
