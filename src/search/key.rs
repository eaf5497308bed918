//! Position keys: FNV-1a over whole 64-bit words, as the original hashed its boards (§5.6),
//! with two changes. Each word's high half is folded onto its low half before it goes in: a
//! multiplication carries a difference only upwards, so in the original a difference in the
//! top bit of one word stayed in the top bit of the hash and cancelled against a second one,
//! and two fields that differed only in the number at (2, 15) or (5, 7) (the top bits of a
//! board's first two words) had the same key. And a field goes in as four lanes, one per word
//! of a board, folded in at the end: four independent multiply chains, a quarter of the
//! latency, for keys computed by the hundred thousand.

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

/// One FNV-1a step on a whole word, its high half folded onto its low half first (a
/// bijection, so nothing is lost).
#[inline]
fn step(hash: u64, value: u64) -> u64 {
    (hash ^ value ^ (value >> 32)).wrapping_mul(FNV_PRIME)
}

/// The lanes [`WordHasher::field`] hashes a field into.
#[derive(Clone, Copy, Debug)]
pub struct FieldHash([u64; 4]);

impl FieldHash {
    #[inline]
    pub fn of(field: &Field) -> Self {
        let mut lanes = [FNV_BASIS; 4];
        for board in field.defining_boards() {
            for (lane, word) in lanes.iter_mut().zip(board.words()) {
                *lane = step(*lane, word);
            }
        }
        FieldHash(lanes)
    }
}

impl WordHasher {
    #[inline]
    pub fn word(mut self, value: u64) -> Self {
        self.0 = step(self.0, value);
        self
    }

    /// Feeds the boards that determine `field` (the derived ones add nothing), word `k` of
    /// each board into lane `k`, then the four lanes.
    #[inline]
    pub fn field(self, field: &Field) -> Self {
        self.field_hash(FieldHash::of(field))
    }

    /// [`WordHasher::field`] from the field's lanes, hashed once for keys that share it.
    #[inline]
    pub fn field_hash(self, field: FieldHash) -> Self {
        field.0.into_iter().fold(self, WordHasher::word)
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

    #[test]
    fn fields_differing_only_in_the_number_of_one_cell_hash_apart() {
        let hash = |f: &Field| WordHasher::default().field(f).finish();
        for x in 0..10 {
            for y in 0..16 {
                let with = |top: char| {
                    let mut rows = vec![".".repeat(10); 16 - y - 1];
                    rows.push(format!("{}{top}{}", ".".repeat(x), ".".repeat(9 - x)));
                    rows.extend((0..y).map(|_| format!("{}X{}", ".".repeat(x), ".".repeat(9 - x))));
                    let lines: Vec<&str> = rows.iter().map(String::as_str).collect();
                    Field::from_picture(&lines).unwrap()
                };
                for (a, b) in [('3', '4'), ('1', '9'), ('5', 'X')] {
                    assert_ne!(hash(&with(a)), hash(&with(b)), "({x}, {y}): {a} or {b}");
                }
            }
        }
    }
}
