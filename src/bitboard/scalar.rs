//! Portable backend: four `u64` words.

use super::BitBoard;

pub const NAME: &str = "scalar";

/// The representation of a board: four words.
pub type Raw = [u64; 4];

pub const fn raw_from_words(words: [u64; 4]) -> Raw {
    words
}

pub const fn raw_words(raw: Raw) -> [u64; 4] {
    raw
}

#[inline]
fn zip(a: BitBoard, b: BitBoard, f: impl Fn(u64, u64) -> u64) -> BitBoard {
    let (a, b) = (a.words(), b.words());
    BitBoard::from_words([f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])])
}

#[inline]
pub fn and(a: BitBoard, b: BitBoard) -> BitBoard {
    zip(a, b, |a, b| a & b)
}

#[inline]
pub fn or(a: BitBoard, b: BitBoard) -> BitBoard {
    zip(a, b, |a, b| a | b)
}

#[inline]
pub fn xor(a: BitBoard, b: BitBoard) -> BitBoard {
    zip(a, b, |a, b| a ^ b)
}

#[inline]
pub fn and_not(a: BitBoard, b: BitBoard) -> BitBoard {
    zip(a, b, |a, b| a & !b)
}

#[inline]
pub fn not(a: BitBoard) -> BitBoard {
    let w = a.words();
    BitBoard::from_words([!w[0], !w[1], !w[2], !w[3]])
}

#[inline]
pub fn is_zero(a: &BitBoard) -> bool {
    let w = a.words();
    (w[0] | w[1] | w[2] | w[3]) == 0
}

/// The whole 256-bit value shifted towards higher bits by `n` (1..64).
#[inline]
pub fn shift_up(a: BitBoard, n: u32) -> BitBoard {
    let w = a.words();
    BitBoard::from_words([
        w[0] << n,
        w[1] << n | w[0] >> (64 - n),
        w[2] << n | w[1] >> (64 - n),
        w[3] << n | w[2] >> (64 - n),
    ])
}

/// The whole 256-bit value shifted towards lower bits by `n` (1..64).
#[inline]
pub fn shift_down(a: BitBoard, n: u32) -> BitBoard {
    let w = a.words();
    BitBoard::from_words([
        w[0] >> n | w[1] << (64 - n),
        w[1] >> n | w[2] << (64 - n),
        w[2] >> n | w[3] << (64 - n),
        w[3] >> n,
    ])
}
