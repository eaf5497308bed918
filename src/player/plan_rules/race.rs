//! The race after a fire: my attack lands on the opponent a row a turn, so it has as many
//! turns to answer as the rows take to fall, and more if its chain outlives them. A bigger
//! answer costs me only what is left of it after the rows still above the opponent and the
//! chain I rebuild by then.

use crate::search::fire::Fires;
use crate::sim::game::OJAMA_ROW;

/// The opponent's answer to my fire, searched past the turns my rows take to land (an
/// answer after the last row is a rebuilt chain racing mine), and my rebuild after the fire,
/// as deep: moves and time at the qualifier's clock (scaled).
pub const RACE_ANSWER: (usize, u64) = (12, 6_000);
pub const REBUILD: (usize, u64) = (12, 5_000);

/// What the opponent's answer lands on me when it fires on its `move_index`-th move after my
/// fire (0: the same turn), less what offsets it: the stock of my `attack` still above it
/// (a row fell at the start of each of its later moves) and the biggest chain my `rebuild`
/// fires by that move (`by_depth[0]` is the fire itself).
fn landing(answer_ojama: i64, move_index: usize, attack: i64, rebuild: &Fires) -> i64 {
    let stock = (attack - OJAMA_ROW * move_index as i64).max(0);
    let rebuilt = rebuild
        .by_depth
        .iter()
        .take(move_index + 1)
        .skip(1)
        .flatten()
        .map(|f| f.ojama)
        .max()
        .unwrap_or(0);
    answer_ojama - stock - rebuilt
}

/// Whether some answer of the opponent, a chain longer than my `chains` fired no earlier
/// than its `from_move`-th move, lands at least a row on me after my rebuild (see
/// [`landing`]): firing then starts a race I lose.
pub fn answer_outraces(
    answer: &Fires,
    rebuild: &Fires,
    attack: i64,
    chains: u32,
    from_move: usize,
) -> bool {
    answer
        .by_depth
        .iter()
        .enumerate()
        .skip(from_move)
        .filter_map(|(k, f)| f.as_ref().map(|f| (k, f)))
        .any(|(k, f)| f.chains > chains && landing(f.ojama, k, attack, rebuild) >= OJAMA_ROW)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::fire::tests::{fire, fires};
    use ysai_tables::chain_ojama;

    #[test]
    fn an_answer_lands_what_the_rows_left_above_it_and_my_rebuild_do_not_offset() {
        let no_rebuild = fires(&[Some(fire(1, 13))]);
        let attack = chain_ojama(13);
        assert_eq!(landing(chain_ojama(15), 0, attack, &no_rebuild), 105 - 60);
        assert_eq!(landing(chain_ojama(15), 2, attack, &no_rebuild), 105 - 40);
        assert_eq!(landing(chain_ojama(15), 9, attack, &no_rebuild), 105);
        let rebuild = fires(&[
            Some(fire(1, 13)),
            None,
            None,
            Some(fire(4, 9)),
            None,
            Some(fire(6, 12)),
        ]);
        assert_eq!(
            landing(105, 2, attack, &rebuild),
            105 - 40,
            "nothing rebuilt yet"
        );
        assert_eq!(landing(105, 3, attack, &rebuild), 105 - 30 - chain_ojama(9));
        assert_eq!(landing(105, 9, attack, &rebuild), 105 - chain_ojama(12));
    }

    #[test]
    fn firing_loses_the_race_only_to_a_longer_answer_that_still_lands_a_row() {
        let attack = chain_ojama(13);
        let slow_rebuild = fires(&[Some(fire(1, 13)), None, None, None, None, None, None]);
        let answer_at = |k: usize, chains: u32| {
            let mut found = vec![None; k + 1];
            found[k] = Some(fire(k + 1, chains));
            fires(&found)
        };
        let outraces =
            |answer: &Fires, rebuild: &Fires| answer_outraces(answer, rebuild, attack, 13, 2);
        assert!(
            outraces(&answer_at(9, 14), &slow_rebuild),
            "after the rows, 79 lands"
        );
        assert!(!outraces(&answer_at(9, 13), &slow_rebuild), "not longer");
        assert!(
            !outraces(&answer_at(1, 16), &slow_rebuild),
            "before its third move"
        );
        // On its third move two rows have fallen: 79 - 40 lands.
        assert!(outraces(&answer_at(2, 14), &slow_rebuild));
        let quick_rebuild = fires(&[Some(fire(1, 13)), Some(fire(2, 11)), None]);
        assert!(
            !outraces(&answer_at(2, 14), &quick_rebuild),
            "79 - 40 - 33 is under a row"
        );
        assert!(outraces(&answer_at(9, 15), &quick_rebuild), "105 - 33");
    }
}
