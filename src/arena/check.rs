//! `ysai arena --check CMD`: a short game against `greedy` that reports every protocol
//! violation of CMD, fatal or not.

use std::process::ExitCode;

use super::args::ArenaArgs;
use super::packs::{generate, Signature};
use super::referee::{self, GameError, GameRecord, GameSetup, ThinkingOrder, TimeControl};
use super::runner;

/// Turns of the check game (it ends by score if nobody loses before).
const CHECK_TURNS: u32 = 100;

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
    let own: Vec<_> = record.violations.iter().filter(|v| v.player == 0).collect();
    if own.is_empty() {
        out.push_str("no protocol violations\n");
    } else {
        out.push_str(&format!("{} protocol violation(s):\n", own.len()));
        for v in &own {
            let when = v.turn.map_or("start".to_string(), |t| format!("turn {t}"));
            out.push_str(&format!("  {when}: {}\n", v.what));
        }
    }
    for note in super::runner::crash_notes(0, record) {
        if note.contains("game 0: p0 ") {
            out.push_str(&note.replacen("game 0: p0", "note: it", 1));
            out.push('\n');
        }
    }
    let lost_by_rule = matches!(result.losers[0], Some(r) if r != referee::Reason::Dead);
    (out, own.is_empty() && !lost_by_rule)
}
