//! Position keys: FNV-1a over whole 64-bit words, as the original hashed its boards (§5.6).

use crate::sim::Field;

const FNV_BASIS: u64 = 14_695_981_039_346_656_037;
const FNV_PRIME: u64 = 1_099_511_628_211;

/// An FNV-1a hash fed one word at a time.
#[derive(Clone, Copy, Debug)]
pub struct WordHasher(u64);

impl Default for WordHasher {
    fn default() -> Self {
        WordHasher(FNV_BASIS)
    }
}

impl WordHasher {
    #[inline]
    pub fn word(mut self, value: u64) -> Self {
        self.0 = (self.0 ^ value).wrapping_mul(FNV_PRIME);
        self
    }

    /// Feeds the boards that determine `field` (the derived ones add nothing).
    #[inline]
    pub fn field(self, field: &Field) -> Self {
        field
            .defining_boards()
            .iter()
            .flat_map(|board| board.words())
            .fold(self, WordHasher::word)
    }

    #[inline]
    pub fn finish(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_fnv1a_constants_on_one_word() {
        // FNV-1a of the single byte 0x61 ("a") is 0xaf63dc4c8601ec8c; on a whole word holding
        // 0x61 the first step is the same xor-then-multiply.
        assert_eq!(
            WordHasher::default().word(0x61).finish(),
            0xaf63_dc4c_8601_ec8c
        );
    }

    #[test]
    fn fields_differing_in_one_block_hash_differently() {
        let a = Field::from_picture(&["1"]).unwrap();
        let b = Field::from_picture(&["2"]).unwrap();
        let hash = |f: &Field| WordHasher::default().field(f).finish();
        assert_ne!(hash(&a), hash(&b));
        assert_eq!(hash(&a), hash(&a.clone()));
    }
}
