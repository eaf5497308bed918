//! Plan searches: the chain-building beam, run again twice as wide while the time given
//! allows, its fires merged depth by depth. A plan aiming at a target stops each beam at the
//! depth where the target is first available, and each wider beam looks no deeper than the
//! earliest target found so far: only an earlier (or bigger) fire can improve the plan.

use std::time::{Duration, Instant};

use ysai_tables::{chain_ojama, MAX_CHAIN};

use super::plan::Fires;
use crate::search::beam::{search as beam_search, BeamConfig, BeamResult, BeamRoot, Target};
use crate::sim::Neighbourhood;

/// A wider beam is started only if twice the last one's time (a beam's time grows with its
/// width), with this margin, fits before the deadline.
const WIDEN_MARGIN: f64 = 2.2;
/// Widening stops here: beyond it a beam's frontier would need gigabytes.
const MAX_WIDTH: usize = 400_000;

/// One beam of a plan search, for `-tm`.
#[derive(Clone, Debug)]
pub struct BeamNote {
    pub label: String,
    pub result: BeamResult,
    pub elapsed: Duration,
}

/// What one plan search is asked to do.
#[derive(Clone, Debug)]
pub struct PlanSearch {
    /// Depth, first widths, columns, evaluation and ojama injection of the first beam.
    pub beam: BeamConfig,
    /// The ojama the plan should send (`i64::MAX`: the biggest fire).
    pub target_ojama: i64,
    pub deadline: Instant,
    /// Widen while time is left (off under a node budget, which must stay reproducible).
    pub widen: bool,
}

/// The fires of the beams of `search` from `root`, and a note per beam.
pub fn search_fires<N: Neighbourhood>(
    label: &str,
    root: BeamRoot<'_>,
    search: &PlanSearch,
) -> (Fires, Vec<BeamNote>) {
    let mut config = search.beam.clone();
    config.deadline = Some(search.deadline);
    config.target = target_chain(search.target_ojama).map(|chain| Target {
        chain,
        keep_offset: 0,
        stop: true,
    });
    config.stop_chain = None;
    let mut fires = Fires::default();
    let mut notes = Vec::new();
    loop {
        let began = Instant::now();
        let result = beam_search::<N>(root, &config);
        let took = began.elapsed();
        fires.merge(&result.fires);
        let timed_out = result.timed_out;
        notes.push(BeamNote {
            label: format!("{label}-w{}", config.width),
            result,
            elapsed: took,
        });
        if timed_out || !search.widen || config.width >= MAX_WIDTH {
            break;
        }
        let left = search.deadline.saturating_duration_since(Instant::now());
        if left.as_secs_f64() < took.as_secs_f64() * WIDEN_MARGIN {
            break;
        }
        if let Some(depth) = fires.earliest(search.target_ojama) {
            if depth == 0 {
                break;
            }
            config.depth = config.depth.min(depth);
        }
        config.width *= 2;
        config.bucket_width *= 2;
    }
    (fires, notes)
}

/// The shortest chain that sends `ojama`, if any does.
pub fn target_chain(ojama: i64) -> Option<u32> {
    (1..=MAX_CHAIN as u32).find(|&c| chain_ojama(c) >= ojama)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::packs::{generate, Signature};
    use crate::sim::{PlayerState, PreparedPack, Shift};
    use std::time::Duration;

    fn packs(seed: u64) -> Vec<PreparedPack> {
        generate(seed, Signature::Measured)[..20]
            .iter()
            .map(|&p| PreparedPack::new(p))
            .collect()
    }

    #[test]
    fn the_target_chain_is_the_shortest_that_sends_enough() {
        assert_eq!(target_chain(chain_ojama(13)), Some(13));
        assert_eq!(target_chain(chain_ojama(13) - 1), Some(13));
        assert_eq!(target_chain(i64::MAX), None);
    }

    #[test]
    fn a_wider_beam_runs_while_time_is_left_and_never_loses_a_fire() {
        let packs = packs(7);
        let root = BeamRoot {
            state: PlayerState::default(),
            enemy_ojama: 0,
            packs: &packs,
        };
        let narrow = PlanSearch {
            beam: BeamConfig::new(8, 40, 20),
            target_ojama: i64::MAX,
            deadline: Instant::now() + Duration::from_secs(60),
            widen: false,
        };
        let (alone, notes) = search_fires::<Shift>("t", root, &narrow);
        assert_eq!(notes.len(), 1);
        let widened = PlanSearch {
            widen: true,
            deadline: Instant::now() + Duration::from_secs(2),
            ..narrow
        };
        let (wide, notes) = search_fires::<Shift>("t", root, &widened);
        assert!(notes.len() > 1, "the time left gives a wider beam");
        assert_eq!(notes[1].label, "t-w80");
        for (a, w) in alone.by_depth.iter().zip(&wide.by_depth) {
            let ojama = |f: &Option<crate::search::beam::BeamFire>| f.as_ref().map_or(0, |f| f.ojama);
            assert!(ojama(w) >= ojama(a), "{w:?} against {a:?}");
        }
    }

    #[test]
    fn every_fire_found_is_what_its_moves_fire() {
        let packs = packs(3);
        let root = BeamRoot {
            state: PlayerState::default(),
            enemy_ojama: 0,
            packs: &packs,
        };
        let search = PlanSearch {
            beam: BeamConfig::new(10, 200, 60),
            target_ojama: chain_ojama(8),
            deadline: Instant::now() + Duration::from_secs(60),
            widen: false,
        };
        let (fires, _) = search_fires::<Shift>("t", root, &search);
        assert!(fires.by_depth.iter().flatten().count() > 3);
        for (depth, fire) in fires.by_depth.iter().enumerate() {
            let Some(fire) = fire else { continue };
            assert_eq!(fire.path.len(), depth + 1);
            let last = crate::search::plan::replay::<Shift>(&root.state, &packs, &fire.path);
            assert_eq!(last.map(|r| r.chains), Some(fire.chains), "depth {depth}");
        }
        let reach = fires.earliest(chain_ojama(8));
        assert_eq!(fires.by_depth.len() - 1, reach.unwrap_or(10), "stops at the target");
    }
}
