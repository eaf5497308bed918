//! Boards with one 16-bit lane of a 256-bit register per column, for the chain loop on AVX2
//! machines (`cfg(ysai_avx2)` and `cfg(ysai_pext)`, see build.rs, which is what makes every
//! intrinsic call below sound). AVX-512 machines run it too: half the register of the 32-bit
//! lanes, so twice the operations per cycle where a 512-bit operation takes two passes.
//!
//! Sixteen bits hold rows 0..16, which is every block of a field that survived its turn: the
//! chain potential erases blocks of such fields only, and a drop that leaves every column at
//! 16 or less can only lower them. There the whole field stays in registers for the chain,
//! where the packed boards squeeze each touched column with a `pext` and a three-byte store per
//! board and step.
//!
//! Column `x` is lane `3 + x`, so that the ten columns are adjacent lanes (a column's
//! neighbours are one lane away, across the register's two halves too) and columns 0..4 and
//! 5..9 each come from one 16-byte half of the packed board.

use super::{BitBoard, ColumnLanes, WIDTH};
use std::arch::x86_64::*;

/// The lane of column 0.
const FIRST_LANE: usize = 3;
/// Rows a lane holds.
pub const SHORT_LANE_ROWS: usize = 16;
/// Where the packed board's upper half is read from: the first byte of column 5.
const UPPER_HALF_AT: i32 = 15;
/// Bytes per column in a packed board.
const PACKED_BYTES: usize = 3;
/// Columns per 16-byte half.
const HALF_COLUMNS: usize = WIDTH / 2;

/// Per 16-byte half, the packed bytes (of that half's read) each lane byte takes; 0x80 is zero.
const SPREAD: [u8; 32] = {
    let mut index = [0x80; 32];
    let mut k = 0;
    while k < HALF_COLUMNS {
        let mut byte = 0;
        while byte < 2 {
            // Lower half: column k at lane 3 + k; upper half: column 5 + k at lane 8 + k,
            // byte 2k of that half, read from byte 15 of the packed board on.
            index[2 * (FIRST_LANE + k) + byte] = (PACKED_BYTES * k + byte) as u8;
            index[16 + 2 * k + byte] = (PACKED_BYTES * k + byte) as u8;
            byte += 1;
        }
        k += 1;
    }
    index
};

/// Per 16-byte half, the lane byte each packed byte takes; 0x80 is zero. Byte 15 of the
/// packed board (column 5's first) lies in the other half and is brought over apart.
const GATHER: [u8; 32] = {
    let mut index = [0x80; 32];
    let mut x = 0;
    while x < WIDTH {
        let mut byte = 0;
        while byte < 2 {
            let packed = PACKED_BYTES * x + byte;
            let lane_byte = 2 * (FIRST_LANE + x) + byte;
            if packed != UPPER_HALF_AT as usize {
                // Both in the same half: relative positions within it.
                index[packed] = (lane_byte % 16) as u8;
            }
            byte += 1;
        }
        x += 1;
    }
    index
};

/// The low byte of each column's lane, in column order within each half: columns 0..4 at
/// bytes 0..4 of the lower half, columns 5..9 at bytes 0..4 of the upper one.
const LOW_BYTES: [u8; 32] = {
    let mut index = [0x80; 32];
    let mut k = 0;
    while k < HALF_COLUMNS {
        index[k] = (2 * (FIRST_LANE + k)) as u8;
        index[16 + k] = (2 * k) as u8;
        k += 1;
    }
    index
};

/// Bits set in each 4-bit value, for a byte-wise population count.
const NIBBLE_COUNTS: [u8; 32] = {
    let mut counts = [0; 32];
    let mut i = 0;
    while i < 32 {
        counts[i] = (i % 16).count_ones() as u8;
        i += 1;
    }
    counts
};

/// Every bit of the column lanes.
const GRID_LANES: [u16; 16] = {
    let mut lanes = [0; 16];
    let mut x = 0;
    while x < WIDTH {
        lanes[FIRST_LANE + x] = u16::MAX;
        x += 1;
    }
    lanes
};

/// Bit 2L of a byte mask: lane L; the bits of the column lanes, in column order.
const COLUMN_LANE_BITS: u32 = {
    let mut bits = 0;
    let mut x = 0;
    while x < WIDTH {
        bits |= 1 << (2 * (FIRST_LANE + x));
        x += 1;
    }
    bits
};

/// A set of cells of a field no column of which is taller than 16: lane `3 + x` holds column
/// `x` (bit `y` = row `y`); every other lane stays zero.
#[derive(Clone, Copy)]
pub struct ShortLanes(__m256i);

impl ShortLanes {
    /// Every cell of the ten columns' 16 rows.
    #[inline]
    fn grid() -> Self {
        // SAFETY: AVX2 is enabled for this build (see the module docs); the table is 32 bytes.
        ShortLanes(unsafe { _mm256_loadu_si256(GRID_LANES.as_ptr().cast()) })
    }

    /// The lanes of column `x`, for tests.
    #[cfg(test)]
    pub fn column(self, x: usize) -> u32 {
        // SAFETY: a plain store of the register.
        let lanes: [u16; 16] = unsafe { std::mem::transmute(self.0) };
        u32::from(lanes[FIRST_LANE + x])
    }
}

impl ColumnLanes for ShortLanes {
    #[inline]
    fn lanes_with_row(self, y: usize) -> u16 {
        if y >= SHORT_LANE_ROWS {
            return 0;
        }
        // SAFETY: AVX2 is enabled for this build (see the module docs).
        let row = unsafe { ShortLanes(_mm256_and_si256(self.0, _mm256_set1_epi16(1 << y))) };
        row.occupied_lanes()
    }

    #[inline]
    fn count(self) -> u32 {
        // SAFETY: AVX2 is enabled for this build (see the module docs).
        let words: [u64; 4] = unsafe { std::mem::transmute(self.0) };
        words.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    fn column_counts(self) -> [u64; 2] {
        // SAFETY: AVX2 is enabled for this build (see the module docs); the tables are 32
        // bytes.
        unsafe {
            let nibbles = _mm256_set1_epi8(0x0F);
            let counts = _mm256_loadu_si256(NIBBLE_COUNTS.as_ptr().cast());
            let low = _mm256_shuffle_epi8(counts, _mm256_and_si256(self.0, nibbles));
            let high_nibbles = _mm256_and_si256(_mm256_srli_epi16::<4>(self.0), nibbles);
            let bytes = _mm256_add_epi8(low, _mm256_shuffle_epi8(counts, high_nibbles));
            // The low byte of each lane: the count of the whole lane.
            let lanes = _mm256_add_epi8(bytes, _mm256_srli_epi16::<8>(bytes));
            let index = _mm256_loadu_si256(LOW_BYTES.as_ptr().cast());
            let gathered = _mm256_shuffle_epi8(lanes, index);
            let first = _mm_cvtsi128_si64(_mm256_castsi256_si128(gathered)) as u64;
            let second = _mm_cvtsi128_si64(_mm256_extracti128_si256::<1>(gathered)) as u64;
            // Columns 0..4 from the lower half, 5..9 from the upper one.
            [first | second << 40, second >> 24]
        }
    }

    #[inline]
    fn to_board(self) -> BitBoard {
        // SAFETY: AVX2 is enabled for this build (see the module docs); the tables are 32
        // bytes.
        unsafe {
            let v = self.0;
            let index = _mm256_loadu_si256(GATHER.as_ptr().cast());
            let halves = _mm256_shuffle_epi8(v, index);
            // Packed byte 15 is lane byte 16: the register one byte down, across the halves.
            let upper_down = _mm256_permute2x128_si256::<0x81>(v, v);
            let one_down = _mm256_alignr_epi8::<1>(upper_down, v);
            let byte_15 = _mm256_setr_epi8(
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0,
            );
            BitBoard {
                raw: _mm256_or_si256(halves, _mm256_and_si256(one_down, byte_15)),
            }
        }
    }

    #[inline]
    fn zero() -> Self {
        // SAFETY: AVX2 is enabled for this build (see the module docs).
        ShortLanes(unsafe { _mm256_setzero_si256() })
    }

    /// The cells of `board` in rows 0..16 (a caller checks that no column is taller).
    #[inline]
    fn from_board(board: BitBoard) -> Self {
        // SAFETY: AVX2 is enabled for this build (see the module docs); the table is 32 bytes.
        unsafe {
            let v = board.raw;
            // Upper half: packed bytes 15..31, the last byte of the lower half first.
            let lower_twice = _mm256_permute2x128_si256::<0x00>(v, v);
            let shifted = _mm256_alignr_epi8::<UPPER_HALF_AT>(v, lower_twice);
            let halves = _mm256_blend_epi32::<0xF0>(v, shifted);
            let index = _mm256_loadu_si256(SPREAD.as_ptr().cast());
            ShortLanes(_mm256_shuffle_epi8(halves, index))
        }
    }

    #[inline]
    fn is_zero(self) -> bool {
        // SAFETY: AVX2 is enabled for this build (see the module docs).
        unsafe { _mm256_testz_si256(self.0, self.0) != 0 }
    }

    #[inline]
    fn occupied_lanes(self) -> u16 {
        // SAFETY: AVX2 and BMI2 are enabled for this build (see the module docs).
        unsafe {
            let empty = _mm256_cmpeq_epi16(self.0, _mm256_setzero_si256());
            let occupied = !(_mm256_movemask_epi8(empty) as u32);
            _pext_u32(occupied, COLUMN_LANE_BITS) as u16
        }
    }

    #[inline]
    fn meets(self, other: ShortLanes) -> bool {
        // SAFETY: AVX2 is enabled for this build (see the module docs).
        unsafe { _mm256_testz_si256(self.0, other.0) == 0 }
    }

    #[inline]
    fn or(self, other: ShortLanes) -> Self {
        // SAFETY: AVX2 is enabled for this build (see the module docs).
        ShortLanes(unsafe { _mm256_or_si256(self.0, other.0) })
    }

    #[inline]
    fn or_and(self, a: ShortLanes, b: ShortLanes) -> Self {
        // SAFETY: AVX2 is enabled for this build (see the module docs).
        ShortLanes(unsafe { _mm256_or_si256(self.0, _mm256_and_si256(a.0, b.0)) })
    }

    #[inline]
    fn or3(self, a: ShortLanes, b: ShortLanes) -> Self {
        // SAFETY: AVX2 is enabled for this build (see the module docs).
        ShortLanes(unsafe { _mm256_or_si256(self.0, _mm256_or_si256(a.0, b.0)) })
    }

    #[inline]
    fn neighbours(self) -> Self {
        // SAFETY: AVX2 is enabled for this build (see the module docs).
        unsafe {
            let v = self.0;
            let beside = _mm256_or_si256(_mm256_slli_epi16::<1>(v), _mm256_srli_epi16::<1>(v));
            let spread = _mm256_or_si256(v, beside);
            let (from_left, from_right) = sideways(spread);
            let around = _mm256_or_si256(beside, _mm256_or_si256(from_left, from_right));
            ShortLanes(_mm256_and_si256(around, Self::grid().0))
        }
    }

    #[inline]
    fn touching_in(self, within: ShortLanes) -> Self {
        // SAFETY: AVX2 is enabled for this build (see the module docs).
        unsafe {
            let v = self.0;
            let spread = _mm256_or_si256(
                v,
                _mm256_or_si256(_mm256_slli_epi16::<1>(v), _mm256_srli_epi16::<1>(v)),
            );
            let (from_left, from_right) = sideways(spread);
            let around = _mm256_or_si256(spread, _mm256_or_si256(from_left, from_right));
            ShortLanes(_mm256_and_si256(within.0, around))
        }
    }

    #[inline]
    fn lowest(self) -> Self {
        // SAFETY: AVX2 is enabled for this build (see the module docs).
        unsafe {
            let negated = _mm256_sub_epi16(_mm256_setzero_si256(), self.0);
            ShortLanes(_mm256_and_si256(self.0, negated))
        }
    }

    #[inline]
    fn and_above(self) -> Self {
        // SAFETY: AVX2 is enabled for this build (see the module docs).
        ShortLanes(unsafe { _mm256_sub_epi16(_mm256_setzero_si256(), self.0) })
    }

    #[inline]
    fn close_gap(self, falling: ShortLanes) -> Self {
        // SAFETY: AVX2 is enabled for this build (see the module docs).
        unsafe {
            let lowered = _mm256_srli_epi16::<1>(self.0);
            // self ^ ((self ^ lowered) & falling): lowered where falling, else self.
            let moved = _mm256_and_si256(_mm256_xor_si256(self.0, lowered), falling.0);
            ShortLanes(_mm256_xor_si256(self.0, moved))
        }
    }
}

/// `spread` moved one column right and one column left: a two-byte shift of the whole
/// register each way, the byte crossing the halves brought over by a lane permute.
#[inline]
fn sideways(spread: __m256i) -> (__m256i, __m256i) {
    // SAFETY: AVX2 is enabled for this build (see the module docs).
    unsafe {
        let lower_up = _mm256_permute2x128_si256::<0x08>(spread, spread);
        let upper_down = _mm256_permute2x128_si256::<0x81>(spread, spread);
        (
            _mm256_alignr_epi8::<14>(spread, lower_up),
            _mm256_alignr_epi8::<2>(upper_down, spread),
        )
    }
}
