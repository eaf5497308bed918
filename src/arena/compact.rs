//! The compact record of a game that every results line keeps: both players' moves, each
//! answer's thinking time and each player's turn lines. With the game's packs (its seed or
//! pack file) it is enough to play the game again on the simulator and rebuild its replay
//! exactly, so that a match needs no `--replays` to be looked at later.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::referee::{
    micros_of_millis, millis_of_micros, parse_command, GameRecord, GameResult, TimeControl,
    TurnRecord,
};
use super::replay::Replay;
use super::results::GameLine;
use crate::sim::{Action, Pack, PlayerState, PreparedPack, TurnOutcome, PACKS_PER_GAME};

/// A player's move in [`CompactRecord::moves`] when it sent no valid command.
const NO_MOVE: char = '-';
/// The skill in [`CompactRecord::moves`].
const SKILL: char = 'S';

/// A game's moves, thinking times and turn lines, turn by turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactRecord {
    /// Each player's answers, one per turn: a drop as its column and rotation (`31` for
    /// `3 1`), `S` for the skill, `-` for no valid command.
    pub moves: [String; 2],
    /// Each answer's thinking time in microseconds; `null` where there was no answer to time
    /// (the player had crashed).
    pub think_us: [Vec<Option<u64>>; 2],
    /// What each player wrote about each turn on stderr (see [`TurnRecord::turn_lines`]), one
    /// entry per turn; `null` for a player that wrote nothing, absent when neither did.
    #[serde(default, skip_serializing_if = "no_lines")]
    pub turn_lines: [Option<Vec<Option<String>>>; 2],
}

fn no_lines(lines: &[Option<Vec<Option<String>>>; 2]) -> bool {
    lines.iter().all(Option::is_none)
}

impl CompactRecord {
    /// The record of the turns the referee played.
    pub fn of(turns: &[TurnRecord]) -> Self {
        let per_player = |player: usize| {
            let moves = turns
                .iter()
                .map(|t| move_code(t.moves[player].as_deref().and_then(parse_command)))
                .collect();
            let think = turns
                .iter()
                .map(|t| t.think_ms[player].map(micros_of_millis))
                .collect();
            let lines: Vec<Option<String>> =
                turns.iter().map(|t| t.turn_lines[player].clone()).collect();
            let lines = lines.iter().any(Option::is_some).then_some(lines);
            (moves, think, lines)
        };
        let [(m0, t0, l0), (m1, t1, l1)] = [per_player(0), per_player(1)];
        CompactRecord {
            moves: [m0, m1],
            think_us: [t0, t1],
            turn_lines: [l0, l1],
        }
    }

    /// Each player's moves, turn by turn, checked to cover the same turns as the thinking
    /// times and turn lines.
    fn turns(&self) -> Result<[Vec<Option<Action>>; 2], String> {
        let moves = [parse_moves(&self.moves[0])?, parse_moves(&self.moves[1])?];
        let turns = moves[0].len();
        let mut lengths = vec![
            moves[1].len(),
            self.think_us[0].len(),
            self.think_us[1].len(),
        ];
        lengths.extend(self.turn_lines.iter().flatten().map(Vec::len));
        if let Some(other) = lengths.into_iter().find(|&n| n != turns) {
            return Err(format!(
                "its record holds {turns} turns of moves but {other} of another field"
            ));
        }
        if turns > PACKS_PER_GAME {
            return Err(format!(
                "its record holds {turns} turns; a game has {PACKS_PER_GAME}"
            ));
        }
        Ok(moves)
    }
}

/// One move as the record writes it.
fn move_code(action: Option<Action>) -> String {
    match action {
        Some(Action::Drop { x, rot }) => format!("{x}{rot}"),
        Some(Action::Skill) => SKILL.to_string(),
        None => NO_MOVE.to_string(),
    }
}

/// The moves of a record's move string.
fn parse_moves(text: &str) -> Result<Vec<Option<Action>>, String> {
    let mut moves = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        let action = match c {
            NO_MOVE => None,
            SKILL => Some(Action::Skill),
            x => {
                let rot = chars.next().unwrap_or(NO_MOVE);
                let drop = parse_command(&format!("{x} {rot}")).filter(|a| a.in_range());
                Some(drop.ok_or_else(|| {
                    format!(
                        "move {} of the record, `{x}{rot}`, is not a drop on the board",
                        moves.len()
                    )
                })?)
            }
        };
        moves.push(action);
    }
    Ok(moves)
}

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
    use crate::arena::packs::{generate, PackSource, Signature};
    use crate::arena::referee::Reason;
    use crate::arena::results::RunInfo;

    #[test]
    fn moves_read_back_as_written() {
        let mut moves: Vec<Option<Action>> = Action::ALL.into_iter().map(Some).collect();
        moves.insert(3, None);
        moves.push(None);
        let text: String = moves.iter().map(|&m| move_code(m)).collect();
        assert!(text.starts_with("S0001-02"), "{text}");
        assert_eq!(text.len(), 36 * 2 + 3);
        assert_eq!(parse_moves(&text).unwrap(), moves);
    }

    #[test]
    fn a_move_off_the_board_or_cut_short_is_an_error() {
        for (text, bad) in [("0031S99", "`99`"), ("003", "`3-`"), ("00x1", "`x1`")] {
            let err = parse_moves(text).unwrap_err();
            assert!(
                err.contains(bad) && err.contains("not a drop"),
                "{text}: {err}"
            );
        }
    }

    #[test]
    fn thinking_times_read_back_to_the_recorded_milliseconds() {
        for micros in [
            0,
            1,
            999,
            1_001,
            123_456,
            19_999_999,
            180_000_000,
            987_654_321_123,
        ] {
            let ms = millis_of_micros(micros);
            assert_eq!(micros_of_millis(ms), micros);
            assert_eq!(
                millis_of_micros(micros_of_millis(ms)).to_bits(),
                ms.to_bits()
            );
        }
    }

    #[test]
    fn fields_of_different_lengths_are_an_error() {
        let record = CompactRecord {
            moves: ["0011".into(), "S-".into()],
            think_us: [vec![Some(1), Some(2)], vec![Some(3)]],
            turn_lines: [None, None],
        };
        let err = record.turns().unwrap_err();
        assert!(err.contains("2 turns of moves but 1"), "{err}");
    }

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
