//! What the complete AI prints on stderr (reference §14): with `-tm` one line per turn, with
//! `-m` also both root fields, the first beam's buckets, the line the search expects after
//! the chosen move and its evaluation term by term. Fields are drawn as the terminal replay
//! draws them ([`crate::render`]).

use std::fmt::Write as _;

use super::decider::{Decision, Detail, Reason};
use crate::render::{field_picture, side_by_side};
use crate::search::beam::BeamResult;
use crate::search::eval::{CounterVerdict, Line};
use crate::sim::{PlayerState, Position};

/// The `-tm` line: turn and clock, first-move chains of both sides, situation and counter
/// tokens, every beam, the search depths, nodes and milliseconds, then the move, why, and its
/// value.
pub fn turn_line(view: &Position<'_>, d: &Decision) -> String {
    let mut line = format!(
        "Turn {} timeleft {} elapsed {} mc {}/{}",
        view.turn,
        view.time_left_ms,
        d.elapsed.as_millis(),
        d.my_first_chain,
        d.enemy_first_chain,
    );
    if d.situation_changed {
        line.push_str(" sc!");
    }
    if let Some(counter) = &d.counter {
        line.push_str(&counter_tokens(counter));
    }
    for note in &d.beams {
        let _ = write!(line, "{note}");
    }
    if d.skill_mode {
        line.push_str(" SKILLMODE");
    }
    let _ = write!(
        line,
        " d {}/{} n {}/{} ms {}/{} {} {} h {}",
        d.depths.0,
        d.depths.1,
        d.nodes.0,
        d.nodes.1,
        d.search_times.0.as_millis(),
        d.search_times.1.as_millis(),
        reason_token(d),
        d.action,
        compact(d.value),
    );
    if let Some(bh) = d.beam_value {
        let _ = write!(line, " bh {}", compact(bh));
    }
    line
}

/// How the move was chosen, in the original's words where it had them.
fn reason_token(d: &Decision) -> &'static str {
    match (d.reason, d.plan_cancelled) {
        (Reason::Plan, _) => "Beam",
        (Reason::PlanKept, _) => "Beam kept",
        (_, true) => "Canceled Beam, Act",
        (Reason::Beam, false) => "NBeam",
        (Reason::Search, false) => "Act",
        (Reason::Survival, false) => "Survive",
    }
}

/// `go! x r b bonus` for firing into no bigger counter, `p! c chain p ojama` for a penalty.
fn counter_tokens(counter: &CounterVerdict) -> String {
    let mut tokens = String::from(" d+");
    if let Some((action, bonus)) = counter.bonus {
        let _ = write!(tokens, " go! {action} b {}", compact(bonus));
    }
    if let Some((chain, ojama)) = counter.penalty {
        let _ = write!(tokens, " p! c {chain} p {ojama}");
    }
    tokens
}

/// A value for a log line: the huge "enemy dead" values in scientific notation, `-` for
/// none (a plan move the search did not value, or a lost move).
fn compact(value: f64) -> String {
    if value.is_infinite() {
        "-".to_string()
    } else if value.abs() >= 1e6 {
        format!("{value:.3e}")
    } else {
        format!("{value:.2}")
    }
}

/// The `-m` block that follows the turn line.
pub fn detail_block(view: &Position<'_>, d: &Decision) -> String {
    let mut out = side_by_side(&[
        state_panel("me", view.me),
        state_panel("enemy", view.opponent),
    ]);
    if let Some(first) = d.beams.iter().find(|n| n.label == "first") {
        out.push_str(&buckets(&first.result));
    }
    if let Some(detail) = &d.detail {
        out.push_str(&line_panels(detail));
        out.push_str(&terms_line(&detail.terms));
    }
    out
}

/// A player's root state: stock, gauge, score, then the field.
fn state_panel(title: &str, state: &PlayerState) -> Vec<String> {
    let mut panel = vec![
        title.to_string(),
        format!("oj {} sp {}", state.ojama, state.gauge),
        format!("score {}", state.score),
    ];
    panel.extend(field_picture(&state.field));
    panel
}

/// The first beam, depth by depth: `c<chain> <kept>/<nodes> <best rank>` per bucket.
fn buckets(result: &BeamResult) -> String {
    let mut out = String::from("first beam buckets (chain kept/nodes best):\n");
    for (depth, buckets) in result.buckets.iter().enumerate() {
        let _ = write!(out, "  depth {:>2}:", depth + 1);
        for b in buckets {
            let best = b
                .best
                .map_or_else(|| "-".to_string(), |best| best.to_string());
            let _ = write!(out, " c{} {}/{} {best}", b.chain, b.kept, b.nodes);
        }
        out.push('\n');
    }
    let plan: Vec<String> = result.plan.iter().map(ToString::to_string).collect();
    let _ = writeln!(
        out,
        "  plan {} (fires {} next)",
        plan.join(", "),
        result.best_chain
    );
    out
}

/// The expected line, one panel per move: the move, its chain, my stock and gauge after the
/// enemy's assumed answer, and the field.
fn line_panels(detail: &Detail) -> String {
    let panels: Vec<Vec<String>> = detail
        .line
        .iter()
        .enumerate()
        .map(|(i, (action, line))| step_panel(i + 1, &action.to_string(), line))
        .collect();
    format!("best line:\n{}", side_by_side(&panels))
}

fn step_panel(depth: usize, action: &str, line: &Line) -> Vec<String> {
    let mut panel = vec![
        format!("d{depth} {action} ch {}", line.chain),
        format!("oj {}/{}", line.me.ojama, line.enemy_ojama),
        format!("sp {}/{}", line.me.gauge, line.enemy_gauge),
    ];
    panel.extend(field_picture(&line.me.field));
    panel
}

/// `hyouka: stock 12.00 ... = total`.
fn terms_line(terms: &[(&'static str, f64)]) -> String {
    let mut out = String::from("hyouka:");
    for (name, value) in terms {
        let _ = write!(out, " {name} {}", compact(*value));
    }
    let total = terms.iter().fold(0.0, |sum, &(_, v)| sum + v);
    let _ = writeln!(out, " = {}", compact(total));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::beam::Bucket;

    #[test]
    fn buckets_show_every_depth_and_the_plan() {
        let result = BeamResult {
            buckets: vec![
                vec![Bucket {
                    chain: 3,
                    nodes: 20,
                    kept: 5,
                    best: Some(900),
                }],
                vec![],
            ],
            best_chain: 3,
            ..BeamResult::default()
        };
        let text = buckets(&result);
        assert!(text.contains("depth  1: c3 5/20 900\n"), "{text}");
        assert!(text.contains("depth  2:\n"), "{text}");
        assert!(text.contains("(fires 3 next)"), "{text}");
    }

    #[test]
    fn terms_add_up_to_the_total() {
        let text = terms_line(&[("stock", 10.0), ("enemy-skill", -2.5)]);
        assert_eq!(text, "hyouka: stock 10.00 enemy-skill -2.50 = 7.50\n");
    }
}
