//! A game rebuilt from its results line: its compact record's moves played again on the
//! simulator with the packs the line names, and checked to end as the line says.

use std::path::Path;

use super::compact::CompactRecord;
use super::referee::{millis_of_micros, GameRecord, GameResult, TimeControl};
use super::replay::Replay;
use super::results::GameLine;
use crate::sim::{Action, Pack, PlayerState, PreparedPack, TurnOutcome, PACKS_PER_GAME};

/// The replay of `line`'s game, played again from its record on the packs it names (those
/// of `pack_dir` instead of the recorded directory, if given), and checked to end as the
/// line says.
pub fn rebuild(line: &GameLine, pack_dir: Option<&Path>) -> Result<Replay, String> {
    let game = line.game;
    let (Some(run), Some(compact)) = (&line.run, &line.record) else {
        return Err(format!(
            "game {game}: its results line keeps no moves (it was written by an older ysai); only a replay from --replays shows it"
        ));
    };
    let packs = run
        .packs
        .game(line.seed, line.pack_file.as_deref(), pack_dir)
        .map_err(|e| format!("game {game}: {e}"))?;
    let tc: TimeControl = run
        .tc
        .parse()
        .map_err(|e| format!("game {game}: its time control `{}`: {e}", run.tc))?;
    let record = replay_record(line, compact, &packs).map_err(|e| format!("game {game}: {e}"))?;
    let commands = [run.commands[0].as_str(), run.commands[1].as_str()];
    Ok(Replay::new(&packs, commands, tc, &record).named(line.engines.as_ref()))
}

/// The game record of `compact`'s moves played on `packs`.
fn replay_record(
    line: &GameLine,
    compact: &CompactRecord,
    packs: &[Pack; PACKS_PER_GAME],
) -> Result<GameRecord, String> {
    let moves = compact.turns()?;
    let mut record = GameRecord::new();
    let mut states = [PlayerState::default(); 2];
    for turn in 0..moves[0].len() {
        let played = [moves[0][turn], moves[1][turn]];
        check_legal(turn, played, &states)?;
        let think = [0, 1].map(|p| compact.think_us[p][turn].map(millis_of_micros));
        let pack = PreparedPack::new(packs[turn]);
        let outcomes = record.play_turn(&mut states, &pack, turn as u32, played, think);
        let last = turn + 1 == moves[0].len();
        check_losers(turn, last, played, &outcomes, line)?;
        let lines = [0, 1].map(|p| {
            compact.turn_lines[p]
                .as_ref()
                .and_then(|lines| lines[turn].clone())
        });
        if let Some(last) = record.turns.last_mut() {
            last.turn_lines = lines;
        }
    }
    record.names = line.names.clone();
    record.result = GameResult {
        winner: line.winner,
        reason: line.reason,
        turn: line.turn,
        losers: line.losers,
    };
    check_summary(line, &record)?;
    Ok(record)
}

/// An error for a recorded skill the position does not allow (a drop on the board always is
/// a move): the referee would have refused it.
fn check_legal(
    turn: usize,
    played: [Option<Action>; 2],
    states: &[PlayerState; 2],
) -> Result<(), String> {
    for (player, action) in played.iter().enumerate() {
        if action.is_some_and(|a| !states[player].is_legal(a)) {
            return Err(format!(
                "turn {turn}: p{player}'s recorded skill is not legal (gauge {})",
                states[player].gauge
            ));
        }
    }
    Ok(())
}

/// An error unless the players lost on `turn` as the line says: a player loses on the turn
/// it sends no valid command or dies, and the game ends there, on the `last` turn.
fn check_losers(
    turn: usize,
    last: bool,
    played: [Option<Action>; 2],
    outcomes: &[TurnOutcome; 2],
    line: &GameLine,
) -> Result<(), String> {
    let lost = [0, 1].map(|p| played[p].is_none() || outcomes[p].result.dead);
    let recorded = if last {
        line.losers.map(|loser| loser.is_some())
    } else {
        [false, false]
    };
    if lost == recorded {
        return Ok(());
    }
    Err(format!(
        "turn {turn}: its moves played again lose for {}, but the line says {}",
        losing(lost),
        losing(recorded)
    ))
}

/// Who of the two players `lost` says lost.
fn losing(lost: [bool; 2]) -> &'static str {
    match lost {
        [false, false] => "nobody",
        [true, false] => "p0",
        [false, true] => "p1",
        [true, true] => "both",
    }
}

/// An error if the game played again does not end as its results line says: the record
/// belongs to another game, or the line was edited.
fn check_summary(line: &GameLine, record: &GameRecord) -> Result<(), String> {
    let turns = record.turns.len() as u32;
    let last_turn_matches = if turns == 0 {
        line.turn == 0
    } else {
        line.turn == turns - 1
    };
    let mismatch = if !last_turn_matches {
        Some(format!("{turns} turns, but it ended on turn {}", line.turn))
    } else if record.scores != line.scores {
        Some(format!(
            "scores {:?}, but the line says {:?}",
            record.scores, line.scores
        ))
    } else if record.max_chains != line.max_chains {
        Some(format!(
            "longest chains {:?}, but the line says {:?}",
            record.max_chains, line.max_chains
        ))
    } else if line
        .first_big_chains
        .is_some_and(|chains| chains != record.first_big_chains)
    {
        Some("other first big chains than the line says".to_string())
    } else {
        None
    };
    match mismatch {
        Some(what) => Err(format!("its moves played again give {what}")),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::compact::parse_moves;
    use crate::arena::packs::{generate, PackSource, Signature};
    use crate::arena::referee::Reason;
    use crate::arena::results::RunInfo;

    /// A line of a game of `moves` on the packs of seed 1, ended on its last turn with the
    /// given losers, its summary that of the moves played.
    fn line_of(moves: [&str; 2], losers: [Option<Reason>; 2]) -> GameLine {
        let actions = moves.map(|m| parse_moves(m).unwrap());
        let turns = actions[0].len();
        let packs = generate(1, Signature::Measured);
        let mut played = GameRecord::new();
        let mut states = [PlayerState::default(); 2];
        for turn in 0..turns {
            let pack = PreparedPack::new(packs[turn]);
            let turn_actions = [actions[0][turn], actions[1][turn]];
            played.play_turn(&mut states, &pack, turn as u32, turn_actions, [None, None]);
        }
        let record = CompactRecord {
            moves: moves.map(str::to_string),
            think_us: [vec![Some(5); turns], vec![Some(7); turns]],
            turn_lines: [None, None],
        };
        GameLine {
            match_id: "m".into(),
            game: 0,
            seed: Some(1),
            pack_file: None,
            names: [None, None],
            players: None,
            engines: None,
            winner: Some(1),
            reason: Reason::BadOutput,
            losers,
            turn: turns as u32 - 1,
            scores: played.scores,
            max_chains: played.max_chains,
            first_big_chains: None,
            think_ms: [0.0; 2],
            max_think_ms: [0.0; 2],
            peak_rss_kib: [None; 2],
            run: Some(RunInfo {
                started: "2025-01-01T00:00:00Z".into(),
                cpu: "cpu".into(),
                tc: "none".into(),
                sprt: None,
                commands: ["a".into(), "b".into()],
                packs: PackSource::Seeded {
                    base: 1,
                    signature: Signature::Measured,
                }
                .origin(),
                tournament: None,
            }),
            record: Some(record),
        }
    }

    #[test]
    fn a_game_rebuilds_and_ends_where_its_line_says() {
        let faulted = [Some(Reason::BadOutput), None];
        let replay = rebuild(&line_of(["0011-", "000000"], faulted), None).unwrap();
        assert_eq!(replay.turns.len(), 3);
        assert_eq!(
            replay.turns[1].moves,
            [Some("1 1".into()), Some("0 0".into())]
        );
        assert_eq!(replay.turns[2].moves, [None, Some("0 0".into())]);
        assert_eq!(replay.turns[2].think_ms, [Some(0.005), Some(0.007)]);
        // A fault before the last turn would have ended the game there.
        let early = rebuild(&line_of(["00-00", "000000"], faulted), None).unwrap_err();
        assert!(
            early.contains("turn 1: its moves played again lose for p0, but the line says nobody"),
            "{early}"
        );
        let none = rebuild(&line_of(["001111", "000000"], faulted), None).unwrap_err();
        assert!(
            none.contains("lose for nobody, but the line says p0"),
            "{none}"
        );
        let mut old = line_of(["00", "00"], faulted);
        old.record = None;
        let err = rebuild(&old, None).unwrap_err();
        assert!(err.contains("keeps no moves"), "{err}");
    }

    #[test]
    fn a_skill_without_its_gauge_is_an_error() {
        let line = line_of(["S", "00"], [None, None]);
        let err = rebuild(&line, None).unwrap_err();
        assert!(
            err.contains("turn 0: p0's recorded skill is not legal (gauge 0)"),
            "{err}"
        );
    }
}
