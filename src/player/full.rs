//! `--ai full` (the default): the complete AI of `search::decide`, with `-tm` reporting one
//! line per turn on stderr and `-m` the detail below it. With `--planner rush` the rush player
//! proposes each move, played if it survives (or weighed by the full search with `--guard-ms`).

use std::time::Instant;

use super::report::{detail_block, turn_line};
use super::{Player, RushPlayer};
use crate::params::{Params, Planner};
use crate::search::decide::{Decider, Guide};
use crate::sim::{Action, Neighbourhood, Position};

pub struct FullPlayer<N: Neighbourhood> {
    decider: Decider<N>,
    /// `--planner rush`.
    guide: Option<RushPlayer<N>>,
    /// `-tm`, and `-m`.
    report: bool,
    detail: bool,
}

impl<N: Neighbourhood> FullPlayer<N> {
    pub fn new(params: &Params) -> Self {
        FullPlayer {
            decider: Decider::new(params),
            guide: (params.planner == Planner::Rush).then(|| RushPlayer::new(params)),
            report: params.turn_debug_msg,
            detail: params.debug_msg,
        }
    }
}

impl<N: Neighbourhood> Player for FullPlayer<N> {
    fn choose(&mut self, view: &Position<'_>) -> Action {
        let started = Instant::now();
        let guide = self.guide.as_mut().map(|rush| Guide {
            action: rush.choose(view),
            started,
        });
        let decision = self.decider.decide_guided(
            &Position {
                time_left_ms: view.time_left_ms - started.elapsed().as_millis() as i64,
                ..*view
            },
            guide,
        );
        if self.report {
            eprintln!("{}", turn_line(view, &decision));
        }
        if self.detail {
            eprint!("{}", detail_block(view, &decision));
        }
        decision.action
    }
}
