//! Hand-worked positions for the bitboard simulator; random games against the oracle live in
//! `tests/differential.rs`.

use super::field::{DEATH_HEIGHT, OJAMA_VALUE};
use super::game::{gauge_damage, offset_ojama};
use super::*;

/// A field from picture rows, top first, bottom row last.
pub fn picture(rows: &[&str]) -> Field {
    Field::from_picture(rows).expect("picture is a valid field")
}

#[test]
fn pictures_outside_the_field_or_with_other_symbols_are_rejected() {
    assert_eq!(picture(&["X", "7"]).cell(0, 1), OJAMA_VALUE);
    let too_wide = Field::from_picture(&["12345678912"]);
    assert!(matches!(
        too_wide,
        Err(FieldError::BadPicture { column: 10, .. })
    ));
    let zero = Field::from_picture(&["0"]);
    assert!(matches!(
        zero,
        Err(FieldError::BadPicture { symbol: '0', .. })
    ));
    assert!(
        Field::from_picture(&["1"; 17]).is_err(),
        "17 rows do not fit"
    );
    assert!(Field::from_picture(&["1"; 16]).is_ok());
}

fn pack(top: [u8; 2], bottom: [u8; 2]) -> PreparedPack {
    PreparedPack::new(Pack::new(top, bottom))
}

fn both_modes(field: Field, run: impl Fn(&mut Field) -> MoveResult) -> (Field, MoveResult) {
    let (mut shifted, mut tabled) = (field, field);
    let result = run(&mut shifted);
    assert_eq!(run(&mut tabled), result, "table mode result");
    assert_eq!(tabled, shifted, "table mode field");
    (shifted, result)
}

#[test]
fn a_drop_without_vanish_stacks_bottom_cell_first() {
    let (field, result) = both_modes(Field::empty(), |f| {
        f.drop_pack::<Shift>(&pack([1, 2], [3, 4]), 3, 0)
    });
    assert_eq!(result, MoveResult::default());
    assert_eq!(
        (
            field.cell(3, 0),
            field.cell(3, 1),
            field.cell(4, 0),
            field.cell(4, 1)
        ),
        (3, 1, 4, 2)
    );
    assert_eq!(field.heights(), [0, 0, 0, 2, 2, 0, 0, 0, 0, 0]);
}

#[test]
fn rotation_one_puts_the_bottom_left_cell_on_top_left() {
    // `1 2 / 3 4` turned once is `3 1 / 4 2`: left column 4 then 3, right column 2 then 1.
    let mut field = Field::empty();
    field.drop_pack::<Shift>(&pack([1, 2], [3, 4]), 0, 1);
    assert_eq!(
        (
            field.cell(0, 0),
            field.cell(0, 1),
            field.cell(1, 0),
            field.cell(1, 1)
        ),
        (4, 3, 2, 1)
    );
}

#[test]
fn a_pair_summing_to_ten_vanishes_diagonally() {
    // The pack's right column holds 1 (bottom) and 7: the 7 lands at (1, 1), diagonal to the 3.
    let (field, result) = both_modes(picture(&["3"]), |f| {
        f.drop_pack::<Table>(&pack([0, 7], [0, 1]), 0, 0)
    });
    assert_eq!(result.chains, 1);
    assert!(result.vanished);
    assert_eq!(
        (field.cell(0, 0), field.cell(1, 0), field.cell(1, 1)),
        (0, 1, 0)
    );
    assert_eq!(field.heights(), [0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn a_two_step_chain_scores_three() {
    // Column 0: 3 at the bottom; column 1: 6 with a 7 on top. Dropping a 4 beside the 6
    // removes 6 and 4, the 7 falls beside the 3 and they go too.
    let start = picture(&[".7", "36"]);
    let (field, result) = both_modes(start, |f| f.drop_pack::<Shift>(&pack([0, 0], [0, 4]), 1, 0));
    assert_eq!(result.chains, 2);
    assert_eq!(result.score, 2, "floor(1.3) + floor(1.69)");
    assert_eq!(result.ojama, 1);
    assert!(field.blocks().is_zero(), "{field:?}");
}

#[test]
fn two_fives_touching_vanish_together() {
    let (field, result) = both_modes(picture(&["5"]), |f| {
        f.drop_pack::<Shift>(&pack([0, 0], [5, 0]), 0, 0)
    });
    assert_eq!(result.chains, 1);
    assert!(field.blocks().is_zero());
}

#[test]
fn ojama_never_vanishes_and_blocks_adjacency_by_distance() {
    let start = picture(&["X", "X", "5"]);
    let (field, result) = both_modes(start, |f| f.drop_pack::<Shift>(&pack([0, 0], [5, 0]), 0, 0));
    assert_eq!(result.chains, 0);
    assert_eq!(field.height(0), 4);
}

#[test]
fn the_skill_destroys_fives_and_their_numbered_neighbours_but_not_ojama() {
    let start = picture(&["..7.", "..X.", ".5X3", ".62X"]);
    let (field, result) = both_modes(start, |f| f.fire_skill::<Shift>());
    // The 5 and the 6 and 2 touching it go; the ojama beside it stay.
    assert_eq!(result.skill_destroyed, 3);
    // The 7 falls two rows onto (2, 2), diagonal to the 3 at (3, 1): one chain step.
    assert_eq!(result.chains, 1);
    assert!(result.vanished);
    assert_eq!(result.score, ysai_tables::skill_score(3) + 1);
    assert_eq!(result.ojama, ysai_tables::skill_ojama(3));
    assert_eq!(field.heights(), [0, 0, 2, 1, 0, 0, 0, 0, 0, 0]);
    assert_eq!(field.blocks(), field.ojama(), "only ojama is left");
}

#[test]
fn the_skill_on_a_field_without_fives_does_nothing() {
    let start = picture(&["1234"]);
    let (field, result) = both_modes(start, |f| f.fire_skill::<Shift>());
    assert_eq!(result, MoveResult::default());
    assert_eq!(field, start);
}

#[test]
fn a_column_of_seventeen_dies_and_sixteen_lives() {
    let fifteen = ["1"; 15];
    let mut field = picture(&fifteen);
    let result = field.drop_pack::<Shift>(&pack([0, 0], [1, 0]), 0, 0);
    assert!(!result.dead, "16 blocks live");
    let result = field.drop_pack::<Shift>(&pack([0, 0], [1, 0]), 0, 0);
    assert!(result.dead, "17 blocks die");
    assert_eq!(field.height(0), DEATH_HEIGHT);
}

#[test]
fn rows_round_trip_and_bad_fields_are_rejected() {
    let field = picture(&["..X", "192", "X57"]);
    assert_eq!(Field::from_rows(&field.to_rows()), Ok(field));
    let mut grid = [[0u8; 10]; 16];
    grid[14][3] = 4;
    assert_eq!(
        Field::from_rows(&grid),
        Err(FieldError::Floating { row: 14, column: 3 })
    );
    grid[15][3] = 12;
    assert!(matches!(
        Field::from_rows(&grid),
        Err(FieldError::BadValue { value: 12, .. })
    ));
}

#[test]
fn turn_order_applies_rows_gauges_and_offset() {
    let mut players = [PlayerState::default(); 2];
    players[0].ojama = 12;
    players[0].gauge = 50;
    players[1].field = picture(&[".7", "36"]);
    players[1].gauge = 96;
    players[1].ojama = 5;
    let actions = [Action::Drop { x: 5, rot: 0 }, Action::Drop { x: 1, rot: 0 }];
    let outcomes = play_turn::<Shift>(&mut players, &pack([0, 0], [0, 4]), actions);
    assert!(outcomes[0].ojama_dropped && !outcomes[1].ojama_dropped);
    assert_eq!(players[0].field.ojama().popcount(), 10);
    assert_eq!(outcomes[1].result.chains, 2);
    assert_eq!(players[1].gauge, 100, "+8 capped at 100");
    assert_eq!(players[0].gauge, 50, "a 2-chain does not hurt the gauge");
    // Player 0: 12 - 10 + 1 sent = 3; player 1: 5; offset by 3.
    assert_eq!((players[0].ojama, players[1].ojama), (0, 2));
    assert_eq!((players[0].score, players[1].score), (0, 2));
}

#[test]
fn illegal_skill_loses() {
    let mut players = [PlayerState::default(); 2];
    players[0].gauge = 79;
    players[1].gauge = 80;
    let outcomes = play_turn::<Shift>(
        &mut players,
        &pack([1, 1], [1, 1]),
        [Action::Skill, Action::Skill],
    );
    assert!(outcomes[0].illegal && outcomes[0].lost());
    assert!(!outcomes[1].illegal && !outcomes[1].lost());
    assert_eq!(players[1].gauge, 0);
}

#[test]
fn gauge_damage_and_offset_follow_the_rules() {
    assert_eq!(gauge_damage(2), 0);
    assert_eq!(gauge_damage(3), 18);
    assert_eq!(gauge_damage(10), 32);
    for (a, b, want) in [(10, 5, (5, 0)), (8, 10, (0, 2)), (0, 2, (0, 2))] {
        let (mut a, mut b) = (a, b);
        offset_ojama(&mut a, &mut b);
        assert_eq!((a, b), want);
    }
}

#[test]
fn a_drop_outside_the_board_loses_instead_of_panicking() {
    let mut field = Field::empty();
    let result = field.drop_pack::<Shift>(&pack([1, 2], [3, 4]), 9, 0);
    assert!(result.dead);
    assert_eq!(field, Field::empty());
}

#[test]
fn floating_blocks_settle_in_order() {
    let mut rows = [[0u8; 10]; 16];
    rows[10][2] = 4;
    rows[13][2] = OJAMA_VALUE;
    rows[15][2] = 6;
    rows[3][7] = 9;
    assert!(matches!(
        Field::from_rows(&rows),
        Err(FieldError::Floating { .. })
    ));
    let settled = Field::from_rows_settled(&rows).expect("settles");
    assert_eq!(settled, picture(&["..4......", "..X......", "..6....9."]));
}

#[test]
fn a_field_is_its_eleven_defining_boards_and_the_heights() {
    // Searches copy a field for every child: the derived neighbourhoods are not stored.
    assert_eq!(std::mem::size_of::<Field>(), 11 * 32 + 32);
    let field = picture(&["5.", "46"]);
    assert_eq!(field.around_number(5), field.number(5).neighbours());
    assert_eq!(field.skill_targets().popcount(), 3);
}
