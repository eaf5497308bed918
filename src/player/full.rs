//! `--ai full` (the default): the complete AI of `search::decide`, with `-tm` reporting one
//! line per turn on stderr.

use super::{Player, TurnView};
use crate::params::Params;
use crate::search::decide::{Decider, Decision, Position};
use crate::sim::{Action, Neighbourhood};

pub struct FullPlayer<N: Neighbourhood> {
    decider: Decider<N>,
    report: bool,
}

impl<N: Neighbourhood> FullPlayer<N> {
    pub fn new(params: &Params) -> Self {
        FullPlayer {
            decider: Decider::new(params),
            report: params.turn_debug_msg,
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
        decision.action
    }
}

/// The `-tm` line: turn, clock, first-move chains, why the move was chosen, depths, values.
pub fn turn_line(view: &TurnView<'_>, d: &Decision) -> String {
    let beam = d
        .beam_value
        .map_or(String::new(), |v| format!(" bh {}", compact(v)));
    format!(
        "Turn {} timeleft {} elapsed {} mc {}/{}{}{} d {}/{} {:?} {} h {}{}",
        view.turn,
        view.time_left_ms,
        d.elapsed.as_millis(),
        d.my_first_chain,
        d.enemy_first_chain,
        if d.situation_changed { " sc!" } else { "" },
        if d.skill_mode { " SKILLMODE" } else { "" },
        d.depths.0,
        d.depths.1,
        d.reason,
        d.action,
        compact(d.value),
        beam,
    )
}

/// A value for a log line: the huge "enemy dead" values in scientific notation.
fn compact(value: f64) -> String {
    if value.abs() >= 1e6 {
        format!("{value:.3e}")
    } else {
        format!("{value:.2}")
    }
}
