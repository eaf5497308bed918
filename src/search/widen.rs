//! Plan searches: the chain-building beam, run again as wide as the time left allows, its
//! fires merged depth by depth. A beam's time grows with its width, so the next beam's width
//! is the last one's scaled by the time left over the time it took. A plan aiming at a target
//! stops each beam at the depth where the target is first available, and each wider beam looks
//! no deeper than the earliest target found so far: only an earlier (or bigger) fire can
//! improve the plan.

use std::time::{Duration, Instant};

use ysai_tables::{chain_ojama, MAX_CHAIN};

use crate::search::beam::{search as beam_search, BeamConfig, BeamResult, BeamRoot, Target};
use crate::search::fire::Fires;
use crate::sim::Neighbourhood;

/// The share of the time left a wider beam is sized to take (its deadline still stops it).
const FILL: f64 = 0.85;
/// The least widening worth another beam.
const MIN_GAIN: f64 = 1.3;
/// The depth a plan beam is fitted to reach by its deadline (past it, the beam's remaining
/// depths share what is left): the opening's 13-chain comes at 12.5 moves on average at the
/// default widths, and a beam that stops at its target leaves the time of the depths it never
/// searched unused.
const FIT_DEPTH: usize = 13;
/// Widening stops here: a beam keeps every depth's frontier (about 420 bytes a node), so
/// 60,000 nodes over the opening's 16 depths take 400 MB, within the 1 GiB a game may use.
const MAX_WIDTH: usize = 60_000;

/// One beam of a turn, for `-tm` (ysai's and the original's turn alike).
#[derive(Clone, Debug)]
pub struct BeamNote {
    pub label: String,
    pub result: BeamResult,
    pub elapsed: Duration,
}

/// ` [label bd depth mch max/at-depth ms]`: the depth reached, the biggest chain a node could
/// fire and the first depth it could.
impl std::fmt::Display for BeamNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = &self.result;
        write!(
            f,
            " [{} bd {} mch {}/{} {}ms]",
            self.label,
            r.depth,
            r.max_chain,
            r.max_chain_depth,
            self.elapsed.as_millis()
        )
    }
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
    config.choose_plan = false;
    config.fit_deadline = search.widen.then_some(FIT_DEPTH.min(config.depth));
    let mut fires = Fires::default();
    let mut notes = Vec::new();
    loop {
        let began = Instant::now();
        let result = beam_search::<N>(root, &config);
        let took = began.elapsed();
        fires.merge(&result.fires);
        let asked = config.width;
        let left = search.deadline.saturating_duration_since(Instant::now());
        let next = next_width(asked, &result, took, left).filter(|_| search.widen);
        notes.push(BeamNote {
            label: width_label(label, asked, result.width),
            result,
            elapsed: took,
        });
        let Some(width) = next else {
            break;
        };
        if let Some(depth) = fires.earliest(search.target_ojama) {
            if depth == 0 {
                break;
            }
            config.depth = config.depth.min(depth);
        }
        config.set_width(width);
    }
    (fires, notes)
}

/// `label-wWIDTH`, or `label-wASKED:WIDTH` when the beam narrowed to fit its deadline.
fn width_label(label: &str, asked: usize, width: usize) -> String {
    if width == asked {
        format!("{label}-w{asked}")
    } else {
        format!("{label}-w{asked}:{width}")
    }
}

/// The width of the beam to run after one asked to be `asked` wide returned `result` in
/// `took`, with `left` to go; `None` when no wider beam is worth running: the last one ran out
/// of time, had to narrow to end in time, or is as wide as a beam gets.
fn next_width(asked: usize, result: &BeamResult, took: Duration, left: Duration) -> Option<usize> {
    let narrowed = result.width < asked;
    if result.timed_out || narrowed || result.width >= MAX_WIDTH {
        return None;
    }
    wider(result.width, took, left)
}

/// The width of a beam that would take about [`FILL`] of `left`, where one of `width` took
/// `took`; `None` unless that is worth another beam.
fn wider(width: usize, took: Duration, left: Duration) -> Option<usize> {
    let scale = left.as_secs_f64() * FILL / took.as_secs_f64().max(1e-4);
    let next = ((width as f64 * scale) as usize).min(MAX_WIDTH);
    (next as f64 >= width as f64 * MIN_GAIN).then_some(next)
}

/// The shortest chain that sends `ojama`, if any does.
pub fn target_chain(ojama: i64) -> Option<u32> {
    (1..=MAX_CHAIN as u32).find(|&c| chain_ojama(c) >= ojama)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::packs::prepared;
    use crate::sim::{PlayerState, PreparedPack, Shift};
    use std::time::Duration;

    fn packs(seed: u64) -> Vec<PreparedPack> {
        prepared(seed, 20)
    }

    #[test]
    fn the_next_beam_is_sized_to_fill_the_time_left() {
        let ms = Duration::from_millis;
        assert_eq!(wider(1000, ms(100), ms(1000)), Some(8500));
        assert_eq!(wider(1000, ms(100), ms(150)), None, "not worth a beam");
        assert_eq!(wider(1000, ms(0), ms(1000)), Some(MAX_WIDTH));
    }

    #[test]
    fn a_beam_that_narrowed_or_ran_out_of_time_is_the_last_one() {
        let ms = Duration::from_millis;
        let ended = |width, timed_out| BeamResult {
            width,
            timed_out,
            ..BeamResult::default()
        };
        assert_eq!(
            next_width(1000, &ended(1000, false), ms(100), ms(1000)),
            Some(8500)
        );
        assert_eq!(
            next_width(1000, &ended(400, false), ms(100), ms(1000)),
            None
        );
        assert_eq!(
            next_width(1000, &ended(1000, true), ms(100), ms(1000)),
            None
        );
        assert_eq!(
            next_width(MAX_WIDTH, &ended(MAX_WIDTH, false), ms(1), ms(1000)),
            None
        );
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
            beam: BeamConfig::new(4, 40, 20),
            target_ojama: i64::MAX,
            deadline: Instant::now() + Duration::from_secs(60),
            widen: false,
        };
        let (alone, notes) = search_fires::<Shift>("t", root, &narrow);
        assert_eq!(notes.len(), 1);
        let widened = PlanSearch {
            widen: true,
            deadline: Instant::now() + Duration::from_secs(5),
            ..narrow
        };
        let (wide, notes) = search_fires::<Shift>("t", root, &widened);
        assert!(notes.len() > 1, "the time left gives a wider beam");
        assert!(notes[1].result.nodes > notes[0].result.nodes);
        for (a, w) in alone.by_depth.iter().zip(&wide.by_depth) {
            let ojama = |f: &Option<crate::search::fire::Fire>| f.as_ref().map_or(0, |f| f.ojama);
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
        assert_eq!(
            fires.by_depth.len() - 1,
            reach.unwrap_or(10),
            "stops at the target"
        );
    }
}
