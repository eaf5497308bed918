//! `ysai arena --check CMD`: a short game against `greedy` that reports every protocol
//! violation of CMD, fatal or not.

use std::process::ExitCode;

use super::args::ArenaArgs;
use super::packs::{generate, Signature};
use super::referee::{
    self, GameError, GameRecord, GameSetup, ThinkingOrder, TimeControl, Violation,
};
use super::runner;

/// Turns of the check game (it ends by score if nobody loses before).
const CHECK_TURNS: u32 = 100;

/// Turns named for a violation that repeats: enough to show where it starts and whether it
/// comes every turn.
const SHOWN_TURNS: usize = 3;

/// Plays the check game and prints its report; exit status 1 if CMD broke the protocol.
pub fn run(command: &str, args: &ArenaArgs) -> Result<ExitCode, String> {
    let record = check_game(command, args.seed, args.tc)?;
    let (report, clean) = report(command, &record);
    super::emit(&report);
    Ok(if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Plays CMD against `greedy` for at most 100 turns on the packs of `seed`.
pub fn check_game(command: &str, seed: u64, tc: TimeControl) -> Result<GameRecord, String> {
    let shell = super::shell_command(command, tc)?;
    let opponent = super::shell_command("greedy", tc)?;
    let packs = generate(seed, Signature::Measured);
    let setup = GameSetup {
        packs: &packs,
        commands: [&shell, &opponent],
        tc,
        order: ThinkingOrder::Sequential,
        stderr: [None, None],
        max_turns: CHECK_TURNS,
    };
    runner::install_interrupt_handler();
    match referee::play_game(&setup, &runner::interrupted) {
        Ok(record) => Ok(record),
        Err(GameError::Cancelled) => Err("interrupted".into()),
        Err(e) => Err(e.to_string()),
    }
}

/// The report of a check game, and whether player 0 made no violation.
pub fn report(command: &str, record: &GameRecord) -> (String, bool) {
    let mut out = format!("checked: {command}\n");
    let name = record.names[0].as_deref().unwrap_or("(none)");
    out.push_str(&format!("name: {name}\n"));
    let turns = record.turns.len();
    let result = &record.result;
    let outcome = match result.winner {
        Some(0) => "it won".to_string(),
        Some(_) => format!(
            "it lost ({})",
            result.losers[0].map_or("score".into(), |r| r.to_string())
        ),
        None => "draw".to_string(),
    };
    out.push_str(&format!(
        "played {turns} turn(s) against greedy: {outcome}, ended by {} on turn {}\n",
        result.reason, result.turn
    ));
    let own: Vec<&Violation> = record.violations.iter().filter(|v| v.player == 0).collect();
    out.push_str(&violations_text(&own));
    for note in super::runner::crash_notes("game 0", record) {
        if note.contains("game 0: p0 ") {
            out.push_str(&note.replacen("game 0: p0", "note: it", 1));
            out.push('\n');
        }
    }
    let lost_by_rule = matches!(result.losers[0], Some(r) if r != referee::Reason::Dead);
    (out, own.is_empty() && !lost_by_rule)
}

/// The violations, one line per distinct message in order of first appearance: an AI that
/// answers every `END` of the game start with a line would otherwise get 500 equal lines.
fn violations_text(violations: &[&Violation]) -> String {
    if violations.is_empty() {
        return "no protocol violations\n".to_string();
    }
    let mut groups: Vec<(&str, Vec<Option<u32>>)> = Vec::new();
    for v in violations {
        match groups.iter_mut().find(|(what, _)| *what == v.what) {
            Some((_, turns)) => turns.push(v.turn),
            None => groups.push((&v.what, vec![v.turn])),
        }
    }
    let mut out = format!("{} protocol violation(s)", violations.len());
    if groups.len() < violations.len() {
        out.push_str(&format!(", {} different", groups.len()));
    }
    out.push_str(":\n");
    for (what, turns) in &groups {
        let times = match turns.len() {
            1 => String::new(),
            n => format!(" ({n} times)"),
        };
        out.push_str(&format!("  {}{times}: {what}\n", first_turns(turns)));
    }
    out
}

/// `start`, `turn 3` or `turns 3, 4, 5, ...`: the first turns of a violation's occurrences.
fn first_turns(turns: &[Option<u32>]) -> String {
    // Violations come in the order of the game, so equal turns are neighbours.
    let mut distinct = turns.to_vec();
    distinct.dedup();
    match distinct.as_slice() {
        [None] => "start".to_string(),
        [Some(t)] => format!("turn {t}"),
        _ => {
            let named: Vec<String> = distinct
                .iter()
                .take(SHOWN_TURNS)
                .map(|turn| turn.map_or("start".to_string(), |t| t.to_string()))
                .collect();
            let more = if distinct.len() > SHOWN_TURNS {
                ", ..."
            } else {
                ""
            };
            format!("turns {}{more}", named.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violation(turn: Option<u32>, what: &str) -> Violation {
        Violation {
            player: 0,
            turn,
            what: what.to_string(),
        }
    }

    fn text(violations: &[Violation]) -> String {
        violations_text(&violations.iter().collect::<Vec<_>>())
    }

    #[test]
    fn repeated_violations_take_one_line_with_a_count_and_their_first_turns() {
        let mut violations = vec![violation(Some(0), "unrequested output \"x\""); 500];
        violations.push(violation(Some(0), "answer \"x\" is not a move"));
        violations.extend((3..=9).map(|t| violation(Some(t), "unrequested output \"y\"")));
        assert_eq!(
            text(&violations),
            "508 protocol violation(s), 3 different:\n  \
             turn 0 (500 times): unrequested output \"x\"\n  \
             turn 0: answer \"x\" is not a move\n  \
             turns 3, 4, 5, ... (7 times): unrequested output \"y\"\n"
        );
    }

    #[test]
    fn distinct_violations_keep_a_line_each() {
        let violations = [
            violation(None, "name line \"\" is empty"),
            violation(Some(1), "answer \" 1 0 \" has extra whitespace"),
            violation(Some(2), "answer \" 2 0 \" has extra whitespace"),
        ];
        assert_eq!(
            text(&violations),
            "3 protocol violation(s):\n  \
             start: name line \"\" is empty\n  \
             turn 1: answer \" 1 0 \" has extra whitespace\n  \
             turn 2: answer \" 2 0 \" has extra whitespace\n"
        );
        assert_eq!(text(&[]), "no protocol violations\n");
        let twice = [violation(Some(4), "late"), violation(Some(6), "late")];
        assert_eq!(
            text(&twice),
            "2 protocol violation(s), 1 different:\n  turns 4, 6 (2 times): late\n"
        );
    }
}
