//! `--style original`: the 2019 program's own turn ([`Decider`]), with `-tm`
//! reporting one line per turn on stderr and `-m` the detail below it.

mod decider;
mod report;

pub use decider::{first_max_chain, Decider, Decision, Detail, HelperBeam, OriginalConfig, Reason};

use super::Player;
use crate::sim::{Action, Neighbourhood, Position};
use report::{detail_block, turn_line};

pub struct OriginalPlayer<N: Neighbourhood> {
    decider: Decider<N>,
    /// `-tm`, and `-m`.
    report: bool,
    detail: bool,
}

impl<N: Neighbourhood> OriginalPlayer<N> {
    pub fn new(config: OriginalConfig) -> Self {
        OriginalPlayer {
            decider: Decider::new(&config),
            report: config.report,
            detail: config.detail,
        }
    }
}

impl<N: Neighbourhood> Player for OriginalPlayer<N> {
    fn choose(&mut self, view: &Position<'_>) -> Action {
        let decision = self.decider.decide(view);
        if self.report {
            eprintln!("{}", turn_line(view, &decision));
        }
        if self.detail {
            eprint!("{}", detail_block(view, &decision));
        }
        decision.action
    }
}
