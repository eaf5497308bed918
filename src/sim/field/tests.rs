use super::*;
use crate::rng::Rng;
use crate::sim::{Pack, Shift, Table};

fn random_number(rng: &mut Rng) -> u8 {
    1 + rng.below(9) as u8
}

fn random_pack(rng: &mut Rng) -> PreparedPack {
    let top = [random_number(rng), random_number(rng)];
    let bottom = [random_number(rng), random_number(rng)];
    PreparedPack::new(Pack::new(top, bottom))
}

/// A field after up to 40 random drops and a few ojama rows: stable, as chains start.
fn random_field(rng: &mut Rng) -> Field {
    let mut field = Field::empty();
    for _ in 0..rng.below(40) {
        let pack = random_pack(rng);
        let mut next = field;
        let (x, rot) = (rng.below(9) as u8, rng.below(4) as u8);
        if rng.chance(1, 8) {
            next.drop_ojama_row();
        }
        if next.drop_pack::<Table>(&pack, x, rot).dead {
            break;
        }
        field = next;
    }
    field
}

/// About a quarter of the blocks of `field`.
#[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
fn random_blocks(rng: &mut Rng, field: &Field) -> BitBoard {
    let words = std::array::from_fn(|_| rng.next_u64() & rng.next_u64());
    field.blocks() & BitBoard::from_words(words)
}

#[test]
fn a_drop_on_a_dead_field_names_the_columns_that_killed_it() {
    let mut field = Field::from_picture(&["1"]).unwrap();
    for _ in 0..DEATH_HEIGHT {
        field.push(0, OJAMA_VALUE);
    }
    let pack = PreparedPack::new(crate::sim::Pack::new([1, 1], [1, 1]));
    let outcome = field.drop_outcome::<Shift>(&pack, 6, 0);
    assert!(outcome.dead);
    assert_eq!(outcome.columns, 1 | 0b11 << 6);
    assert!(
        !outcome.holds_beside(0b10),
        "the next column could lower column 0"
    );
    assert!(outcome.holds_beside(0b1000));
}

#[test]
fn an_ojama_row_is_one_ojama_pushed_on_each_column_with_room() {
    let mut rng = Rng::new(37);
    let mut full_columns = 0;
    for _ in 0..200 {
        let mut field = random_field(&mut rng);
        // Rows until the grid's top (19): the last ones find full columns.
        for _ in 0..rng.below(20) {
            let mut pushed = field;
            for x in 0..WIDTH {
                pushed.push(x, OJAMA_VALUE);
            }
            full_columns += field.columns_at_least(HEIGHT as u8);
            field.drop_ojama_row();
            assert_eq!(field, pushed, "{:?}", pushed.heights());
        }
    }
    assert!(full_columns > 100, "{full_columns} full columns met");
}

#[test]
fn columns_at_least_a_height_are_counted_column_by_column() {
    let mut rng = Rng::new(36);
    let mut tall = 0;
    for _ in 0..400 {
        let mut field = random_field(&mut rng);
        // Ojama rows until a column may pass the death height (19 at most).
        while field.heights().iter().all(|&h| h < 17) && rng.chance(3, 4) {
            field.drop_ojama_row();
        }
        let heights = field.heights();
        for height in 1..=19 {
            let expected = heights.iter().filter(|&&h| h >= height).count() as u32;
            assert_eq!(
                field.columns_at_least(height),
                expected,
                "{heights:?} {height}"
            );
        }
        let dead = (0..WIDTH).fold(0, |mask, x| {
            mask | u16::from(heights[x] >= DEATH_HEIGHT) << x
        });
        assert_eq!(field.dead_columns(), dead, "{heights:?}");
        tall += u32::from(field.columns_at_least(DEATH_HEIGHT) > 0);
    }
    assert!(tall > 20, "{tall} fields with a dead column");
}

#[test]
fn a_drop_outcome_is_what_playing_the_drop_does() {
    let mut rng = Rng::new(34);
    let mut chained = 0;
    for _ in 0..400 {
        let field = random_field(&mut rng);
        let pack = random_pack(&mut rng);
        for &action in Action::drops() {
            let Action::Drop { x, rot } = action else {
                unreachable!("drops only")
            };
            let mut played = field;
            let (result, columns) = played.drop_pack_touching::<Shift>(&pack, x, rot);
            let blocks_change = if result.dead {
                0
            } else {
                played.number_blocks() as i16 - field.number_blocks() as i16
            };
            let expected = DropOutcome {
                chains: result.chains as u8,
                blocks_change,
                dead: result.dead,
                columns,
            };
            let outcome = field.drop_outcome::<Shift>(&pack, x, rot);
            if outcome.chains > 0 {
                chained += 1;
            }
            if result.dead {
                assert_eq!((outcome.dead, outcome.columns), (true, columns));
            } else {
                assert_eq!(outcome, expected, "{field:?} {action}");
            }
        }
    }
    assert!(chained > 500, "{chained} drops chained");
}

#[test]
fn an_erasure_is_what_playing_it_does_and_is_quiet_where_it_pairs_nothing() {
    let mut rng = Rng::new(38);
    let (mut quiet, mut chained) = (0, 0);
    for _ in 0..400 {
        let field = random_field(&mut rng);
        for (x, y) in field.blocks().cells() {
            let mut played = field;
            let chain = played.chain_after_removing::<Table>(BitBoard::cell(x, y));
            let steps = chain.steps;
            let at = format!("{field:?} ({x}, {y})");
            assert_eq!(field.erasure_is_quiet(x, y), steps == 0, "{at}");
            assert_eq!(field.chains_after_erasing::<Shift>(x, y), steps, "{at}");
            assert_eq!(field.chains_after_erasing::<Table>(x, y), steps, "{at}");
            if steps == 0 {
                quiet += 1;
            } else {
                chained += 1;
            }
        }
    }
    assert!(
        quiet > 1000 && chained > 1000,
        "{quiet} quiet, {chained} chained"
    );
}

/// The chain loop on `L` against the one on packed boards, from the same removals on
/// fields that survived their turn (every column at 16 or less, which short lanes hold).
#[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
fn check_chains_in_lanes<L: ColumnLanes>() {
    let mut rng = Rng::new(21);
    let mut longer_chains = 0;
    for _ in 0..3000 {
        let field = random_field(&mut rng);
        let doomed = random_blocks(&mut rng, &field);
        if doomed.is_zero() {
            continue;
        }
        let (mut lanes, mut columns) = (field, field);
        let chains = lanes.chain_in_lanes::<L>(doomed);
        let expected = columns.chain_by_columns::<Shift>(doomed);
        assert_eq!((chains, lanes), (expected, columns), "{field:?}{doomed:?}");
        longer_chains += usize::from(chains.steps > 1);
    }
    assert!(longer_chains > 1000, "{longer_chains} removals chained");
}

#[cfg(all(ysai_avx2, ysai_pext))]
#[test]
fn chains_in_short_lanes_match_chains_by_columns() {
    check_chains_in_lanes::<ShortLanes>();
}

#[cfg(ysai_avx512)]
#[test]
fn chains_in_avx512_lanes_match_chains_by_columns() {
    check_chains_in_lanes::<LaneBoard>();
}
