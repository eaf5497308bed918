//! What the turn's rules read off the opponent: its immediate threat over the last turns, and
//! a high trigger on its field (a counter it is waiting to fire).

use crate::search::greedy::rank;
use crate::search::potential::erase_potential;
use crate::sim::{Field, Neighbourhood, PlayerState, Position, PreparedPack};

/// A threat spike: at least this net attack (before turn 15 / later), above the last four.
pub const SPIKE_EARLY: i64 = 40;
pub const SPIKE_LATE: i64 = 30;
const SPIKE_TURN: usize = 15;
const THREAT_HISTORY: usize = 5;
/// The counter-builder shape: a potential trigger this many rows above the lower neighbour.
const HIGH_TRIGGER: std::ops::RangeInclusive<usize> = 5..=8;

/// The opponent's net immediate threat on the last turns, newest last.
#[derive(Clone, Debug, Default)]
pub struct Threats {
    recent: Vec<i64>,
}

impl Threats {
    /// Remembers the opponent's best immediate attack this turn minus its own stock.
    pub fn note<N: Neighbourhood>(&mut self, view: &Position<'_>) {
        let best = best_immediate_ojama::<N>(view.opponent, &view.packs[0]);
        self.push(best - view.opponent.ojama);
    }

    /// Remembers `threat` as the newest, forgetting the oldest beyond the history kept.
    pub fn push(&mut self, threat: i64) {
        self.recent.push(threat);
        if self.recent.len() > THREAT_HISTORY {
            self.recent.remove(0);
        }
    }

    pub fn latest(&self) -> i64 {
        self.recent.last().copied().unwrap_or(0)
    }

    /// The latest threat, if it is a spike on `turn`: big enough and above every earlier one.
    pub fn spike(&self, turn: usize) -> Option<i64> {
        let (&threat, earlier) = self.recent.split_last()?;
        let floor = if turn < SPIKE_TURN {
            SPIKE_EARLY
        } else {
            SPIKE_LATE
        };
        (threat >= floor && earlier.iter().all(|&t| t < threat)).then_some(threat)
    }
}

/// The most ojama one of `state`'s actions sends this turn.
pub fn best_immediate_ojama<N: Neighbourhood>(state: &PlayerState, pack: &PreparedPack) -> i64 {
    state
        .legal_actions()
        .map(|action| {
            let (alive, ojama, _) = rank::<N>(state, pack, action);
            if alive {
                ojama
            } else {
                0
            }
        })
        .max()
        .unwrap_or(0)
}

/// The chain one erased block of `field` would start, if its trigger sits high above the lower
/// of its neighbouring columns: the shape of a counter kept ready.
pub fn high_trigger<N: Neighbourhood>(field: &Field) -> Option<u32> {
    let potential = erase_potential::<N>(field);
    let (x, y) = potential.trigger?;
    let heights = field.heights();
    let lower = [x.checked_sub(1), Some(x + 1)]
        .into_iter()
        .flatten()
        .filter_map(|c| heights.get(c).copied())
        .min()
        .map_or(0, usize::from);
    let high = y
        .checked_sub(lower)
        .is_some_and(|d| HIGH_TRIGGER.contains(&d));
    high.then_some(potential.chain)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Pack, Shift};
    use ysai_tables::chain_ojama;

    #[test]
    fn a_spike_is_big_and_above_every_recent_threat() {
        let threats = |recent: &[i64]| Threats {
            recent: recent.to_vec(),
        };
        assert_eq!(threats(&[0, 10, SPIKE_EARLY]).spike(5), Some(SPIKE_EARLY));
        assert_eq!(threats(&[0, SPIKE_EARLY, SPIKE_EARLY]).spike(5), None);
        assert_eq!(threats(&[0, SPIKE_LATE]).spike(5), None, "early: 40");
        assert_eq!(threats(&[0, SPIKE_LATE]).spike(20), Some(SPIKE_LATE));
        assert_eq!(Threats::default().spike(20), None);
    }

    #[test]
    fn the_threat_is_the_opponents_best_attack_minus_its_stock() {
        let opponent = PlayerState {
            field: Field::from_picture(&["7"]).unwrap(),
            ojama: 4,
            ..PlayerState::default()
        };
        let packs = vec![
            PreparedPack::new(Pack {
                cells: [[0, 0], [3, 0]]
            });
            2
        ];
        let me = PlayerState::default();
        let view = Position {
            turn: 0,
            packs: &packs,
            me: &me,
            opponent: &opponent,
            time_left_ms: 180_000,
        };
        let mut threats = Threats::default();
        threats.note::<Shift>(&view);
        assert_eq!(threats.latest(), chain_ojama(1) - 4);
    }

    #[test]
    fn a_trigger_five_rows_above_its_neighbour_is_high() {
        // Erasing the 5 lets the 8 fall onto the 2: a one-chain triggered five rows above the
        // empty column beside it.
        let field = Field::from_picture(&["1", "8", "5", "2", "1", "1", "1", "1"]).unwrap();
        assert_eq!(high_trigger::<Shift>(&field), Some(1));
        let low = Field::from_picture(&["8", "5", "2"]).unwrap();
        assert_eq!(high_trigger::<Shift>(&low), None);
    }
}
