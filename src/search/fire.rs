//! What a plan search finds: fires, each the moves to a chain and what it sends, the best
//! one at each depth; and how a plan is chosen among them. Every plan search (the beam, the
//! anytime search) answers with these.

use crate::sim::Action;

/// A chain within reach: the moves there, the last one firing, and what it fires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fire {
    /// The moves, the last one firing.
    pub path: Vec<Action>,
    pub chains: u32,
    pub ojama: i64,
}

/// The best fire found at each depth, over every search of one plan (a beam's widths, an anytime search).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fires {
    /// `by_depth[d]`: the fire made by the (d+1)-th move that sends the most.
    pub by_depth: Vec<Option<Fire>>,
}

impl Fires {
    /// Keeps, depth by depth, whichever fire sends more (the one held on a tie).
    pub fn merge(&mut self, found: &[Option<Fire>]) {
        if self.by_depth.len() < found.len() {
            self.by_depth.resize(found.len(), None);
        }
        for (held, new) in self.by_depth.iter_mut().zip(found) {
            let Some(new) = new else { continue };
            if held.as_ref().is_none_or(|h| new.ojama > h.ojama) {
                *held = Some(new.clone());
            }
        }
    }

    /// The earliest fire that sends at least `ojama`; else the one that sends the most,
    /// earliest among equals.
    pub fn choose(&self, ojama: i64) -> Option<&Fire> {
        let fires = self.by_depth.iter().flatten();
        fires
            .clone()
            .find(|f| f.ojama >= ojama)
            .or_else(|| self.choose_by(self.by_depth.len()))
    }

    /// Of the fires made within `moves` moves, the one that sends the most, earliest among
    /// equals.
    pub fn choose_by(&self, moves: usize) -> Option<&Fire> {
        let fires = self.by_depth.iter().take(moves).flatten();
        fires.fold(None, |best, f| match best {
            Some(b) if b.ojama >= f.ojama => best,
            _ => Some(f),
        })
    }

    /// The moves made before the earliest fire of at least `ojama`.
    pub fn earliest(&self, ojama: i64) -> Option<usize> {
        self.by_depth
            .iter()
            .position(|f| f.as_ref().is_some_and(|f| f.ojama >= ojama))
    }

    /// The moves made before the earliest fire of at least `chains`.
    pub fn earliest_chain(&self, chains: u32) -> Option<usize> {
        self.by_depth
            .iter()
            .position(|f| f.as_ref().is_some_and(|f| f.chains >= chains))
    }

    /// The biggest chain found and the moves made before its earliest fire.
    pub fn max_chain(&self) -> (u32, usize) {
        self.by_depth
            .iter()
            .enumerate()
            .filter_map(|(d, f)| f.as_ref().map(|f| (f.chains, d)))
            .fold(
                (0, 0),
                |best, (c, d)| if c > best.0 { (c, d) } else { best },
            )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use ysai_tables::chain_ojama;

    /// A fire of `chains` made by the last of `moves` moves (all the same drop), for tests.
    pub(crate) fn fire(moves: usize, chains: u32) -> Fire {
        Fire {
            path: vec![Action::Drop { x: 0, rot: 0 }; moves],
            chains,
            ojama: chain_ojama(chains),
        }
    }

    /// The fires `found`, depth by depth, for tests.
    pub(crate) fn fires(found: &[Option<Fire>]) -> Fires {
        let mut fires = Fires::default();
        fires.merge(found);
        fires
    }

    #[test]
    fn the_earliest_fire_reaching_the_target_is_chosen_else_the_biggest() {
        let mut fires = Fires::default();
        fires.merge(&[None, Some(fire(2, 5)), Some(fire(3, 13)), Some(fire(4, 14))]);
        let target = chain_ojama(13);
        assert_eq!(fires.choose(target).map(|f| f.chains), Some(13));
        assert_eq!(fires.earliest(target), Some(2));
        assert_eq!(fires.earliest_chain(14), Some(3));
        assert_eq!(fires.earliest_chain(15), None);
        assert_eq!(fires.choose(i64::MAX).map(|f| f.chains), Some(14));
        assert_eq!(fires.max_chain(), (14, 3));
        assert_eq!(Fires::default().choose(0), None);
    }

    #[test]
    fn within_a_number_of_moves_the_biggest_fire_is_chosen_earliest_among_equals() {
        let mut fires = Fires::default();
        fires.merge(&[
            Some(fire(1, 4)),
            Some(fire(2, 9)),
            Some(fire(3, 9)),
            Some(fire(4, 14)),
        ]);
        let by = |moves| fires.choose_by(moves).map(|f| (f.chains, f.path.len()));
        assert_eq!(by(1), Some((4, 1)));
        assert_eq!(by(3), Some((9, 2)));
        assert_eq!(by(4), Some((14, 4)));
        assert_eq!(by(0), None);
    }

    #[test]
    fn merging_keeps_the_bigger_fire_of_each_depth() {
        let mut fires = Fires::default();
        fires.merge(&[Some(fire(1, 3)), Some(fire(2, 9))]);
        fires.merge(&[Some(fire(1, 2)), Some(fire(2, 11)), Some(fire(3, 12))]);
        let chains: Vec<u32> = fires.by_depth.iter().flatten().map(|f| f.chains).collect();
        assert_eq!(chains, [3, 11, 12]);
    }
}
