//! The last ply's drops, played once on a line whose children's moves end a search and read
//! by each child instead of played again: a drop that came near no column in which the child
//! differs from the line does on the child what it did on the line.
//!
//! What a drop keeps of the field it leaves depends on the search: the enemy's summary counts
//! a few boards, my evaluation reads the whole field.

use std::sync::OnceLock;

use crate::sim::action::DROP_COLUMNS;
use crate::sim::{
    acts_apart, Action, CountedBoards, Field, FieldCounts, MoveResult, Neighbourhood, PreparedPack,
};

/// What a last-ply drop keeps of the field it left, and how a child reads it.
pub trait Kept: Sized {
    /// What a child reads: the kept part with the child's own changed columns in it.
    type Read;
    fn keep(field: &Field) -> Self;
    /// The kept field with `field`'s `changed` columns (bit x = column x) in it.
    fn with_columns_of(&self, field: &Field, changed: u16) -> Self::Read;
}

/// The enemy's summary: blocks, fives and ojama, counted.
impl Kept for CountedBoards {
    type Read = FieldCounts;

    #[inline]
    fn keep(field: &Field) -> Self {
        field.counted()
    }

    #[inline]
    fn with_columns_of(&self, field: &Field, changed: u16) -> FieldCounts {
        self.counts_with_columns_of(field, changed)
    }
}

/// My evaluation: the whole field.
impl Kept for Field {
    type Read = Field;

    #[inline]
    fn keep(field: &Field) -> Self {
        *field
    }

    #[inline]
    fn with_columns_of(&self, field: &Field, changed: u16) -> Field {
        Field::with_columns_of(self, field, changed)
    }
}

/// One drop of the last ply's pack played on a line: its result, the columns it read (the
/// pack's, the chain's, and those that killed the field), and what it kept of the field.
pub struct LastPlyDrop<K> {
    result: MoveResult,
    columns: u16,
    after: K,
}

impl<K: Kept> LastPlyDrop<K> {
    /// What this drop does on `field`, which differs from the line's in the `changed`
    /// columns; `None` where the drop came near a changed column and must be played.
    #[inline]
    fn beside(&self, field: &Field, changed: u16) -> Option<(K::Read, MoveResult)> {
        acts_apart(self.columns, changed)
            .then(|| (self.after.with_columns_of(field, changed), self.result))
    }
}

/// A child's reading of its line's drops: the child's field and the columns in which it
/// differs from the line's.
#[derive(Clone, Copy)]
pub struct Reading<'r, K> {
    drops: &'r [LastPlyDrop<K>],
    field: &'r Field,
    changed: u16,
}

impl<K: Kept> Reading<'_, K> {
    /// What `action` does on the child's field, read off the line's; `None` for the skill and
    /// where the drop came near a changed column and must be played.
    #[inline]
    pub fn read(&self, action: Action) -> Option<(K::Read, MoveResult)> {
        let drop = &self.drops[action.index().checked_sub(1)?];
        drop.beside(self.field, self.changed)
    }
}

/// The last ply's drops on `field`, in [`Action::drops`] order.
fn last_ply_drops<N: Neighbourhood, K: Kept>(
    field: &Field,
    pack: &PreparedPack,
) -> Vec<LastPlyDrop<K>> {
    Action::drops()
        .iter()
        .map(|&action| {
            let Action::Drop { x, rot } = action else {
                unreachable!("drops only")
            };
            let mut after = *field;
            let (result, columns) = after.drop_pack_touching::<N>(pack, x, rot);
            LastPlyDrop {
                result,
                columns,
                after: K::keep(&after),
            }
        })
        .collect()
}

/// The last ply's drops on a line's field, played when a child first asks for them: a child
/// on which a row fell differs in every column and reads none, and a line none of whose
/// children can read costs nothing.
pub struct LastPlyDrops<'a, K> {
    field: &'a Field,
    pack: &'a PreparedPack,
    drops: OnceLock<Vec<LastPlyDrop<K>>>,
}

impl<'a, K: Kept> LastPlyDrops<'a, K> {
    /// The drops of `pack` (the last ply's) on `field` (the line's, after its turn-start row).
    pub fn new(field: &'a Field, pack: &'a PreparedPack) -> Self {
        LastPlyDrops {
            field,
            pack,
            drops: OnceLock::new(),
        }
    }

    /// The reading of `field` (a child's, after its turn-start row); `None` when no drop
    /// could act apart from the columns in which it differs from the line's.
    pub fn beside<'r, N: Neighbourhood>(&'r self, field: &'r Field) -> Option<Reading<'r, K>> {
        let changed = self.field.changed_columns(field);
        if !some_drop_acts_apart(changed) {
            return None;
        }
        let drops = self
            .drops
            .get_or_init(|| last_ply_drops::<N, K>(self.field, self.pack));
        Some(Reading {
            drops,
            field,
            changed,
        })
    }
}

/// Whether some drop's own two columns are apart from the `changed` ones: no other drop can be
/// read.
fn some_drop_acts_apart(changed: u16) -> bool {
    (0..DROP_COLUMNS).any(|x| acts_apart(0b11u16 << x, changed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Shift;

    /// On every official position, after every first drop (and after it with a row of ojama
    /// fallen, which changes every column), every last-ply drop read off the position is what
    /// playing it on the child's field does: the same result, and the same field or counts.
    /// Returns how many drops were read.
    fn reads_are_played_drops<K: Kept>(same: impl Fn(&K::Read, &Field) -> bool) -> usize {
        let mut read = 0;
        for position in crate::bench::bench_positions() {
            let root = position.me.field;
            let (pack, next) = (&position.packs[0], &position.packs[1]);
            let parent = LastPlyDrops::<K>::new(&root, next);
            for (&first, row) in Action::drops().iter().flat_map(|a| [(a, false), (a, true)]) {
                let mut child = root;
                if child.apply::<Shift>(pack, first).dead {
                    continue;
                }
                if row {
                    child.drop_ojama_row();
                }
                let Some(reading) = parent.beside::<Shift>(&child) else {
                    continue;
                };
                for &then in Action::drops() {
                    let Some((kept, kept_result)) = reading.read(then) else {
                        continue;
                    };
                    let mut played = child;
                    let result = played.apply::<Shift>(next, then);
                    let name = position.name;
                    assert!(!row, "{name}: a row changes every column");
                    assert_eq!(kept_result, result, "{name}: {first} then {then}");
                    assert!(
                        result.dead || same(&kept, &played),
                        "{name}: {first} then {then}"
                    );
                    read += 1;
                }
            }
        }
        read
    }

    #[test]
    fn a_field_read_off_the_parent_is_the_played_one() {
        let read = reads_are_played_drops::<Field>(|kept, played| kept == played);
        assert!(read > 1000, "{read} drops read");
    }

    #[test]
    fn counts_read_off_the_parent_are_the_played_ones() {
        let read = reads_are_played_drops::<CountedBoards>(|kept, played| *kept == played.counts());
        assert!(read > 1000, "{read} drops read");
    }
}
