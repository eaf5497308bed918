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

/// The 16 bytes of lanes' column counts.
#[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
fn heights_bytes(lanes: impl ColumnLanes) -> Vec<u8> {
    let counts = lanes.column_counts();
    counts.iter().flat_map(|word| word.to_le_bytes()).collect()
}

/// Blocks per column of `board`, as 16 bytes (as `sim::Field` keeps its heights).
#[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
fn column_heights(board: BitBoard) -> Vec<u8> {
    let height = |x| board.column(x).count_ones() as u8;
    (0..16)
        .map(|x| if x < WIDTH { height(x) } else { 0 })
        .collect()
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

/// Lane boards against the packed boards they stand for.
#[cfg(ysai_avx512)]
mod lane_boards {
    use super::*;

    fn lanes(board: BitBoard) -> LaneBoard {
        LaneBoard::from_board(board)
    }

    /// The columns of a board, bottom row as bit 0.
    fn columns(board: BitBoard) -> [u32; WIDTH] {
        std::array::from_fn(|x| board.column(x))
    }

    #[test]
    fn spreading_and_packing_give_the_board_back() {
        let mut rng = Rng::new(11);
        for _ in 0..2000 {
            let board = random_grid_board(&mut rng);
            assert_eq!(lanes(board).to_board(), board, "{board:?}");
        }
        assert!(lanes(BitBoard::ZERO).is_zero());
        assert!(!lanes(BitBoard::cell(9, 18)).is_zero());
    }

    #[test]
    fn neighbours_and_touching_match_the_packed_board() {
        let mut rng = Rng::new(12);
        for _ in 0..2000 {
            let board = random_grid_board(&mut rng) & random_grid_board(&mut rng);
            let within = random_grid_board(&mut rng).and_not(board);
            assert_eq!(lanes(board).neighbours().to_board(), board.neighbours());
            let touching = lanes(board).touching_in(lanes(within)).to_board();
            assert_eq!(
                touching,
                within & board.neighbours(),
                "{board:?} {within:?}"
            );
            assert_eq!(
                lanes(board).meets(lanes(within)),
                !(board & within).is_zero()
            );
        }
    }

    #[test]
    fn lowest_and_above_work_per_column() {
        let mut rng = Rng::new(13);
        for _ in 0..2000 {
            let board = random_grid_board(&mut rng) & random_grid_board(&mut rng);
            let [low, above] = [lanes(board).lowest(), lanes(board).lowest().and_above()]
                .map(|b| columns(b.to_board()));
            for (x, column) in columns(board).into_iter().enumerate() {
                let lowest = column & column.wrapping_neg();
                assert_eq!(low[x], lowest, "column {x}");
                // Packed, a column keeps the low 24 bits of its lane.
                let expected = if column == 0 {
                    0
                } else {
                    0xFF_FFFF & !(lowest - 1)
                };
                assert_eq!(above[x], expected, "column {x}");
            }
        }
    }

    #[test]
    fn closing_a_gap_drops_the_cells_above_it_one_row() {
        let mut rng = Rng::new(14);
        for _ in 0..2000 {
            let board = random_grid_board(&mut rng);
            let gap_rows: [u32; WIDTH] = std::array::from_fn(|_| rng.below(19) as u32);
            let gaps = (0..WIDTH).fold(BitBoard::ZERO, |acc, x| {
                acc | BitBoard::cell(x, gap_rows[x] as usize)
            });
            let closed = columns(lanes(board).close_gap(lanes(gaps).and_above()).to_board());
            for (x, column) in columns(board).into_iter().enumerate() {
                let keep = COLUMN_MASK & !(1 << gap_rows[x]);
                assert_eq!(closed[x], compress_column(column, keep), "column {x}");
            }
        }
    }

    #[test]
    fn column_counts_are_heights_bytes() {
        let mut rng = Rng::new(15);
        for _ in 0..500 {
            let board = random_grid_board(&mut rng);
            assert_eq!(heights_bytes(lanes(board)), column_heights(board));
        }
    }
}

/// Short lanes against the packed boards they stand for, on the rows they hold.
#[cfg(all(ysai_avx2, ysai_pext))]
mod short_lanes {
    use super::*;

    /// Rows 0..16 of every column.
    const SHORT_GRID: BitBoard = in_every_column((1 << SHORT_LANE_ROWS) - 1);

    fn random_short_board(rng: &mut Rng) -> BitBoard {
        random_board(rng) & random_board(rng) & SHORT_GRID
    }

    fn lanes(board: BitBoard) -> ShortLanes {
        ShortLanes::from_board(board)
    }

    /// The columns of short lanes, packed again.
    fn packed(lanes: ShortLanes) -> BitBoard {
        (0..WIDTH).fold(BitBoard::ZERO, |board, x| {
            board.with_column_const(x, lanes.column(x))
        })
    }

    #[test]
    fn spreading_and_packing_keep_every_column_and_nothing_else() {
        let mut rng = Rng::new(31);
        for _ in 0..2000 {
            let board = random_short_board(&mut rng);
            let spread = lanes(board);
            assert_eq!(packed(spread), board, "{board:?}");
            assert_eq!(spread.to_board(), board, "{board:?}");
            assert_eq!(heights_bytes(spread), column_heights(board), "{board:?}");
            assert_eq!(spread.count(), board.popcount(), "{board:?}");
            assert_eq!(spread.occupied_lanes(), board.occupied_columns());
            for y in 0..HEIGHT {
                let with_row = (0..WIDTH).filter(|&x| board.test(x, y));
                let expected = with_row.fold(0u16, |columns, x| columns | 1 << x);
                assert_eq!(spread.lanes_with_row(y), expected, "row {y} of {board:?}");
            }
        }
        assert!(lanes(BitBoard::ZERO).is_zero());
        assert!(!lanes(BitBoard::cell(0, 0)).is_zero());
        assert!(!lanes(BitBoard::cell(9, 15)).is_zero());
    }

    #[test]
    fn neighbours_and_touching_match_the_packed_board() {
        let mut rng = Rng::new(32);
        for _ in 0..2000 {
            let board = random_short_board(&mut rng) & random_short_board(&mut rng);
            let within = random_short_board(&mut rng).and_not(board);
            let around = board.neighbours() & SHORT_GRID;
            assert_eq!(packed(lanes(board).neighbours()), around, "{board:?}");
            let touching = packed(lanes(board).touching_in(lanes(within)));
            assert_eq!(touching, within & around, "{board:?} {within:?}");
            assert_eq!(
                lanes(board).meets(lanes(within)),
                !(board & within).is_zero()
            );
        }
    }

    #[test]
    fn lowest_and_above_work_per_column() {
        let mut rng = Rng::new(33);
        for _ in 0..2000 {
            let board = random_short_board(&mut rng) & random_short_board(&mut rng);
            let low = lanes(board).lowest();
            let above = low.and_above();
            for x in 0..WIDTH {
                let column = board.column(x);
                let lowest = column & column.wrapping_neg();
                assert_eq!(low.column(x), lowest, "column {x}");
                let expected = if column == 0 {
                    0
                } else {
                    0xFFFF & !(lowest - 1)
                };
                assert_eq!(above.column(x), expected, "column {x}");
            }
        }
    }

    #[test]
    fn closing_a_gap_drops_the_cells_above_it_one_row() {
        let mut rng = Rng::new(34);
        for _ in 0..2000 {
            let board = random_short_board(&mut rng);
            let gap_rows: [usize; WIDTH] = std::array::from_fn(|_| rng.below(16) as usize);
            let gaps = (0..WIDTH).fold(BitBoard::ZERO, |acc, x| {
                acc | BitBoard::cell(x, gap_rows[x])
            });
            let closed = lanes(board).close_gap(lanes(gaps).and_above());
            for (x, &row) in gap_rows.iter().enumerate() {
                let keep = COLUMN_MASK & !(1 << row);
                assert_eq!(
                    closed.column(x),
                    compress_column(board.column(x), keep),
                    "column {x}"
                );
            }
        }
    }
}
