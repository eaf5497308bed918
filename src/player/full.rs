//! `--ai full` (the default): the complete AI of `search::decide`, with `-tm` reporting one
//! line per turn on stderr and `-m` the detail below it.

use super::report::{detail_block, turn_line};
use super::{Player, TurnView};
use crate::params::Params;
use crate::search::decide::{Decider, Position};
use crate::sim::{Action, Neighbourhood};

pub struct FullPlayer<N: Neighbourhood> {
    decider: Decider<N>,
    /// `-tm`, and `-m`.
    report: bool,
    detail: bool,
}

impl<N: Neighbourhood> FullPlayer<N> {
    pub fn new(params: &Params) -> Self {
        FullPlayer {
            decider: Decider::new(params),
            report: params.turn_debug_msg,
            detail: params.debug_msg,
        }
    }
}

impl<N: Neighbourhood> Player for FullPlayer<N> {
    fn choose(&mut self, view: &TurnView<'_>) -> Action {
        let decision = self.decider.decide(&Position {
            turn: view.turn,
            packs: view.packs,
            me: view.me,
            enemy: view.opponent,
            time_left_ms: view.time_left_ms,
        });
        if self.report {
            eprintln!("{}", turn_line(view, &decision));
        }
        if self.detail {
            eprint!("{}", detail_block(view, &decision));
        }
        decision.action
    }
}
