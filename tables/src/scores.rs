//! Chain and skill score tables, and the ojama they send (half the score, rounded down).

use std::sync::LazyLock;

/// Longest possible chain: every step removes at least two of at most 190 blocks.
pub const MAX_CHAIN: usize = 95;
/// Most blocks one skill can destroy (the whole 10 x 19 grid).
pub const MAX_SKILL_BLOCKS: usize = 190;

/// Cumulative chain scores: `sum_{i=1..c} floor(1.3^i)`, with the official double-precision `pow`.
static CHAIN_SCORE: LazyLock<[i64; MAX_CHAIN + 1]> = LazyLock::new(|| {
    let mut table = [0i64; MAX_CHAIN + 1];
    for c in 1..=MAX_CHAIN {
        table[c] = table[c - 1] + 1.3f64.powf(c as f64).floor() as i64;
    }
    table
});

/// Skill explosion scores: `floor(25 * 2^(b / 12))` for `b > 0` destroyed blocks, 0 for none.
static SKILL_SCORE: LazyLock<[i64; MAX_SKILL_BLOCKS + 1]> = LazyLock::new(|| {
    std::array::from_fn(|b| match b {
        0 => 0,
        _ => (25.0 * 2f64.powf(b as f64 / 12.0)).floor() as i64,
    })
});

/// Score of a turn with `chains` chain steps.
#[inline]
pub fn chain_score(chains: u32) -> i64 {
    CHAIN_SCORE[(chains as usize).min(MAX_CHAIN)]
}

/// Ojama sent by a turn with `chains` chain steps.
#[inline]
pub fn chain_ojama(chains: u32) -> i64 {
    chain_score(chains) / 2
}

/// Score of a skill explosion that destroys `blocks` blocks.
#[inline]
pub fn skill_score(blocks: u32) -> i64 {
    SKILL_SCORE[(blocks as usize).min(MAX_SKILL_BLOCKS)]
}

/// Ojama sent by a skill explosion that destroys `blocks` blocks (the chains after it count apart).
#[inline]
pub fn skill_ojama(blocks: u32) -> i64 {
    skill_score(blocks) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chain_scores_match_the_rules() {
        let expected = [
            0, 1, 2, 4, 6, 9, 13, 19, 27, 37, 50, 67, 90, 120, 159, 210, 276, 362, 474, 620, 810,
        ];
        for (c, &score) in expected.iter().enumerate() {
            assert_eq!(chain_score(c as u32), score, "chain {c}");
        }
        assert_eq!(chain_ojama(21), 528);
        assert_eq!(chain_ojama(25), 1521);
        // The original's i32 table wrapped here (906,640,169); the exact sum does not fit in i32.
        assert_eq!(chain_score(82), 9_553_818_460);
    }

    #[test]
    fn chain_ojama_matches_the_reference_table() {
        let expected = [
            0, 0, 1, 2, 3, 4, 6, 9, 13, 18, 25, 33, 45, 60, 79, 105, 138, 181, 237, 310, 405,
        ];
        for (c, &ojama) in expected.iter().enumerate() {
            assert_eq!(chain_ojama(c as u32), ojama, "chain {c}");
        }
    }

    #[test]
    fn skill_ojama_matches_the_reference_table() {
        let expected = [
            0, 13, 14, 14, 15, 16, 17, 18, 19, 21, 22, 23, 25, 26, 28, 29, 31, 33, 35, 37, 39, 42,
            44, 47, 50, 52, 56, 59, 62, 66, 70,
        ];
        for (b, &ojama) in expected.iter().enumerate() {
            assert_eq!(skill_ojama(b as u32), ojama, "blocks {b}");
        }
        for (b, ojama) in [
            (36, 100),
            (40, 125),
            (48, 200),
            (60, 400),
            (80, 1269),
            (100, 4031),
            (164, 162_549),
        ] {
            assert_eq!(skill_ojama(b), ojama, "blocks {b}");
        }
    }

    #[test]
    fn worked_examples_of_the_rules() {
        assert_eq!(chain_score(3), 4);
        assert_eq!(chain_ojama(3), 2);
        assert_eq!(skill_score(5), 33);
        assert_eq!(skill_ojama(5) + chain_ojama(5), 20);
    }

    #[test]
    fn out_of_range_counts_saturate_instead_of_panicking() {
        assert_eq!(chain_score(1000), chain_score(MAX_CHAIN as u32));
        assert_eq!(skill_score(1000), skill_score(MAX_SKILL_BLOCKS as u32));
        assert!(chain_score(MAX_CHAIN as u32) > 0);
    }
}
