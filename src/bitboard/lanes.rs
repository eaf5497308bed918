//! Boards with one 32-bit lane of a 512-bit register per column, for the chain loop on
//! AVX-512 (`cfg(ysai_avx512)`, see build.rs, which is what makes every intrinsic call below
//! sound) where a column is above 16, which the short lanes cannot hold.
//!
//! A chain step reads whole boards right after gravity rewrote some of their columns. With
//! columns packed 24 bits apart that is a column store followed by a wider load, which the
//! store buffer cannot forward; with a lane per column, gravity is a per-lane shift and the
//! whole field stays in registers from the first step to the last.

use super::{BitBoard, ColumnLanes, COLUMN_MASK, WIDTH};
use std::arch::x86_64::*;

/// Bytes per column in a packed board.
const PACKED_BYTES: usize = 3;

/// Where the spread lanes read a zero: the upper half of a packed board widened to 512 bits.
const PACKED_ZERO: u8 = 32;

/// Byte `4x + k` of the lanes (k < 3) is byte `3x + k` of the packed board; every other lane
/// byte is zero.
const SPREAD: [u8; 64] = {
    let mut index = [PACKED_ZERO; 64];
    let mut x = 0;
    while x < WIDTH {
        let mut k = 0;
        while k < PACKED_BYTES {
            index[4 * x + k] = (PACKED_BYTES * x + k) as u8;
            k += 1;
        }
        x += 1;
    }
    index
};

/// Where the packed board reads a zero: the top byte of lane 15, always empty.
const LANES_ZERO: u8 = 63;

/// Byte `3x + k` of the packed board is byte `4x + k` of the lanes; bytes 30 and 31 are zero.
const GATHER: [u8; 64] = {
    let mut index = [LANES_ZERO; 64];
    let mut byte = 0;
    while byte < PACKED_BYTES * WIDTH {
        index[byte] = (4 * (byte / PACKED_BYTES) + byte % PACKED_BYTES) as u8;
        byte += 1;
    }
    index
};

/// `spread` moved one column right and one column left: lane x of (spread : zero) >> 15
/// lanes is lane x - 1 of `spread`, and of (zero : spread) >> 1 lane is lane x + 1.
#[inline]
fn sideways(spread: __m512i) -> (__m512i, __m512i) {
    // SAFETY: AVX-512 is enabled for this build (see the module docs).
    unsafe {
        let zero = _mm512_setzero_si512();
        (
            _mm512_alignr_epi32::<15>(spread, zero),
            _mm512_alignr_epi32::<1>(zero, spread),
        )
    }
}

/// A set of cells, lane `x` holding column `x` (bit `y` = row `y`); the bits above the grid
/// and lanes 10..16 stay zero.
#[derive(Clone, Copy)]
pub struct LaneBoard(__m512i);

impl LaneBoard {
    /// Every cell of the 10 x 19 grid.
    #[inline]
    fn grid() -> Self {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        unsafe {
            LaneBoard(_mm512_maskz_set1_epi32(
                (1 << WIDTH) - 1,
                COLUMN_MASK as i32,
            ))
        }
    }
}

impl ColumnLanes for LaneBoard {
    #[inline]
    fn lanes_with_row(self, y: usize) -> u16 {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        unsafe { _mm512_test_epi32_mask(self.0, _mm512_set1_epi32(1 << y)) }
    }

    #[inline]
    fn count(self) -> u32 {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        unsafe { _mm512_reduce_add_epi32(_mm512_popcnt_epi32(self.0)) as u32 }
    }

    #[inline]
    fn column_counts(self) -> [u64; 2] {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        unsafe {
            let counts = _mm512_cvtepi32_epi8(_mm512_popcnt_epi32(self.0));
            std::mem::transmute::<__m128i, [u64; 2]>(counts)
        }
    }

    #[inline]
    fn to_board(self) -> BitBoard {
        // SAFETY: as in `from_board`.
        unsafe {
            let index = _mm512_loadu_si512(GATHER.as_ptr().cast());
            let packed = _mm512_permutexvar_epi8(index, self.0);
            BitBoard {
                raw: _mm512_castsi512_si256(packed),
            }
        }
    }

    #[inline]
    fn zero() -> Self {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        LaneBoard(unsafe { _mm512_setzero_si512() })
    }

    #[inline]
    fn from_board(board: BitBoard) -> Self {
        // SAFETY: AVX-512 is enabled for this build (see the module docs); the index table is
        // 64 bytes.
        unsafe {
            let index = _mm512_loadu_si512(SPREAD.as_ptr().cast());
            let packed = _mm512_zextsi256_si512(board.raw);
            LaneBoard(_mm512_permutexvar_epi8(index, packed))
        }
    }

    #[inline]
    fn is_zero(self) -> bool {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        unsafe { _mm512_test_epi32_mask(self.0, self.0) == 0 }
    }

    #[inline]
    fn occupied_lanes(self) -> u16 {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        unsafe { _mm512_test_epi32_mask(self.0, self.0) }
    }

    #[inline]
    fn meets(self, other: LaneBoard) -> bool {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        unsafe { _mm512_test_epi32_mask(self.0, other.0) != 0 }
    }

    #[inline]
    fn or(self, other: LaneBoard) -> Self {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        LaneBoard(unsafe { _mm512_or_si512(self.0, other.0) })
    }

    #[inline]
    fn or_and(self, a: LaneBoard, b: LaneBoard) -> Self {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        LaneBoard(unsafe { _mm512_ternarylogic_epi32::<0xF8>(self.0, a.0, b.0) })
    }

    #[inline]
    fn neighbours(self) -> Self {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        unsafe {
            let v = self.0;
            let beside = _mm512_or_si512(_mm512_slli_epi32::<1>(v), _mm512_srli_epi32::<1>(v));
            let spread = _mm512_or_si512(v, beside);
            let (from_left, from_right) = sideways(spread);
            let around = _mm512_ternarylogic_epi32::<0xFE>(beside, from_left, from_right);
            LaneBoard(_mm512_and_si512(around, Self::grid().0))
        }
    }

    #[inline]
    fn touching_in(self, within: LaneBoard) -> Self {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        unsafe {
            let v = self.0;
            // `self` and above and below it: `within` has no cell of `self`.
            let spread = _mm512_ternarylogic_epi32::<0xFE>(
                v,
                _mm512_slli_epi32::<1>(v),
                _mm512_srli_epi32::<1>(v),
            );
            let (from_left, from_right) = sideways(spread);
            // within & (from_left | from_right), then | (within & spread)
            let across = _mm512_ternarylogic_epi32::<0xE0>(within.0, from_left, from_right);
            LaneBoard(_mm512_ternarylogic_epi32::<0xF8>(across, within.0, spread))
        }
    }

    #[inline]
    fn or3(self, a: LaneBoard, b: LaneBoard) -> Self {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        LaneBoard(unsafe { _mm512_ternarylogic_epi32::<0xFE>(self.0, a.0, b.0) })
    }

    #[inline]
    fn lowest(self) -> Self {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        unsafe {
            let negated = _mm512_sub_epi32(_mm512_setzero_si512(), self.0);
            LaneBoard(_mm512_and_si512(self.0, negated))
        }
    }

    #[inline]
    fn and_above(self) -> Self {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        LaneBoard(unsafe { _mm512_sub_epi32(_mm512_setzero_si512(), self.0) })
    }

    #[inline]
    fn close_gap(self, falling: LaneBoard) -> Self {
        // SAFETY: AVX-512 is enabled for this build (see the module docs).
        unsafe {
            let lowered = _mm512_srli_epi32::<1>(self.0);
            // falling ? lowered : self
            LaneBoard(_mm512_ternarylogic_epi32::<0xD8>(
                self.0, lowered, falling.0,
            ))
        }
    }
}
