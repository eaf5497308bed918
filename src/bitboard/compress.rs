//! Gravity for one column: keep the bits of `mask`, packed down to the bottom.

/// Which bit-compress this build uses.
pub const COMPRESS_BACKEND: &str = if cfg!(ysai_pext) {
    "bmi2-pext"
} else {
    "software"
};

/// The bits of `column` selected by `mask`, packed towards bit 0 in order (`pext`).
#[inline]
pub fn compress_column(column: u32, mask: u32) -> u32 {
    #[cfg(ysai_pext)]
    {
        // SAFETY: the build enables BMI2 for the whole crate.
        unsafe { std::arch::x86_64::_pext_u32(column, mask) }
    }
    #[cfg(not(ysai_pext))]
    {
        software_compress(column, mask)
    }
}

/// Portable `pext`: walk the set bits of `mask` from the lowest. Also the reference the
/// hardware instruction is tested against.
#[inline]
#[cfg_attr(all(ysai_pext, not(test)), allow(dead_code))]
pub fn software_compress(column: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let lowest = mask & mask.wrapping_neg();
        if column & lowest != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask ^= lowest;
    }
    out
}
