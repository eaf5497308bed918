//! AVX2 backend: one `__m256i` per board.
//!
//! This module is compiled only when the build enables AVX2 (`cfg(ysai_avx2)`, see build.rs),
//! which is what makes every intrinsic call below sound.

use super::BitBoard;
use std::arch::x86_64::*;

pub const NAME: &str = "avx2";

/// The representation of a board: one 256-bit vector.
pub type Raw = __m256i;

pub const fn raw_from_words(words: [u64; 4]) -> Raw {
    // SAFETY: both are 32 bytes of plain data; every bit pattern is valid for each.
    unsafe { std::mem::transmute::<[u64; 4], __m256i>(words) }
}

pub const fn raw_words(raw: Raw) -> [u64; 4] {
    // SAFETY: as in `raw_from_words`.
    unsafe { std::mem::transmute::<__m256i, [u64; 4]>(raw) }
}

#[inline]
fn load(a: BitBoard) -> __m256i {
    a.raw
}

#[inline]
fn store(v: __m256i) -> BitBoard {
    BitBoard { raw: v }
}

/// Lane-wise operations: one intrinsic each.
macro_rules! lanewise {
    ($($name:ident => $intrinsic:ident),* $(,)?) => {$(
        #[inline]
        pub fn $name(a: BitBoard, b: BitBoard) -> BitBoard {
            // SAFETY: AVX2 is enabled for this build (see the module docs).
            unsafe { store($intrinsic(load(a), load(b))) }
        }
    )*};
}

lanewise!(and => _mm256_and_si256, or => _mm256_or_si256, xor => _mm256_xor_si256);

/// `a & !b` (the intrinsic computes `!first & second`).
#[inline]
pub fn and_not(a: BitBoard, b: BitBoard) -> BitBoard {
    // SAFETY: AVX2 is enabled for this build (see the module docs).
    unsafe { store(_mm256_andnot_si256(load(b), load(a))) }
}

#[inline]
pub fn not(a: BitBoard) -> BitBoard {
    // SAFETY: AVX2 is enabled for this build (see the module docs).
    unsafe { store(_mm256_xor_si256(load(a), _mm256_set1_epi64x(-1))) }
}

#[inline]
pub fn is_zero(a: &BitBoard) -> bool {
    // SAFETY: AVX2 is enabled for this build (see the module docs).
    unsafe {
        let v = load(*a);
        _mm256_testz_si256(v, v) != 0
    }
}

/// Each 64-bit lane replaced by the lane below it, the lowest lane zero: the carry source
/// of a whole-register shift towards higher bits.
#[inline]
fn lanes_up(v: __m256i) -> __m256i {
    // SAFETY: AVX2 is enabled for this build (see the module docs).
    unsafe {
        let rotated = _mm256_permute4x64_epi64::<0b10_01_00_11>(v);
        _mm256_blend_epi32::<0b0000_0011>(rotated, _mm256_setzero_si256())
    }
}

/// Each 64-bit lane replaced by the lane above it, the highest lane zero.
#[inline]
fn lanes_down(v: __m256i) -> __m256i {
    // SAFETY: AVX2 is enabled for this build (see the module docs).
    unsafe {
        let rotated = _mm256_permute4x64_epi64::<0b00_11_10_01>(v);
        _mm256_blend_epi32::<0b1100_0000>(rotated, _mm256_setzero_si256())
    }
}

/// The whole 256-bit value shifted towards higher bits by `n` (1..64).
#[inline]
pub fn shift_up(a: BitBoard, n: u32) -> BitBoard {
    // SAFETY: AVX2 is enabled for this build (see the module docs).
    unsafe {
        let v = load(a);
        let count = _mm_cvtsi32_si128(n as i32);
        let back = _mm_cvtsi32_si128(64 - n as i32);
        let body = _mm256_sll_epi64(v, count);
        let carry = _mm256_srl_epi64(lanes_up(v), back);
        store(_mm256_or_si256(body, carry))
    }
}

/// The whole 256-bit value shifted towards lower bits by `n` (1..64).
#[inline]
pub fn shift_down(a: BitBoard, n: u32) -> BitBoard {
    // SAFETY: AVX2 is enabled for this build (see the module docs).
    unsafe {
        let v = load(a);
        let count = _mm_cvtsi32_si128(n as i32);
        let back = _mm_cvtsi32_si128(64 - n as i32);
        let body = _mm256_srl_epi64(v, count);
        let carry = _mm256_sll_epi64(lanes_down(v), back);
        store(_mm256_or_si256(body, carry))
    }
}
