//! Positions for the simulator benchmarks, taken from a recorded official game
//! (`tests/data/official/game-48turns.stdin.txt`), rows top first, `X` for ojama.

use ysai::sim::{Field, Pack, PreparedPack};

/// Turn 21, player 0: the pack `1 3 / 8 0` fires a 10-chain.
pub const TEN_CHAIN: (&[&str], Pack) = (
    &[
        ".......6..",
        ".......5..",
        "......43..",
        "......34..",
        "......32..",
        "...77.96..",
        "...242722.",
        ".6.349414.",
        "88.487758.",
    ],
    Pack::new([1, 3], [8, 0]),
);

/// Turn 39, player 0: a crowded mid-game field with ojama, under the pack `5 7 / 0 8`.
pub const MID_GAME: (&[&str], Pack) = (
    &[
        ".....X....",
        ".....X....",
        "...4.X....",
        ".4541X....",
        ".81X4XX...",
        ".565X9X.4.",
        ".X2687X42.",
        ".XXXX1XXX.",
        ".XXXX3XXX.",
        ".XXXX81X8.",
        "X9XXX711X.",
        "XX9697423X",
        "X987699XXX",
        "X5X7993XXX",
        "X61244311X",
        "883449454X",
    ],
    Pack::new([5, 7], [0, 8]),
);

/// Turn 43, player 1: many 5s for the skill to destroy.
pub const SKILL_FIELD: &[&str] = &[
    ".X........",
    ".X........",
    ".7........",
    ".8...2....",
    ".4X.69....",
    ".4X.X5....",
    ".44.X6....",
    ".81.5X....",
    ".44X4X....",
    "X72X51.X..",
    "X9621881..",
    "585356X5X.",
    "9639929XXX",
    "888574X48X",
];

/// The field drawn by `rows` (top first, bottom row last).
pub fn field(rows: &[&str]) -> Field {
    Field::from_picture(rows).expect("benchmark position is a valid field")
}

pub fn prepared(pack: Pack) -> PreparedPack {
    PreparedPack::new(pack)
}
