//! One game between two AI processes under the real rules and time limits.

use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::process::{AiProcess, Output, Wait};
pub use super::record::*;
use crate::protocol::{format_game_start, format_turn, PlayerView, TurnInput};
use crate::sim::game::SKILL_COST;
use crate::sim::{Action, Pack, PlayerState, PreparedPack, PACKS_PER_GAME};

/// Characters the official client forbade in a name.
const FORBIDDEN_NAME_CHARS: &str = "\\/:*?\"<>|";
/// How to run one game.
pub struct GameSetup<'a> {
    pub packs: &'a [Pack; PACKS_PER_GAME],
    /// Shell commands of the two players (built-in names already resolved).
    pub commands: [&'a str; 2],
    pub tc: TimeControl,
    pub order: ThinkingOrder,
    /// Where each player's stderr goes (nowhere if `None`).
    pub stderr: [Option<PathBuf>; 2],
    /// The game ends by score after this many turns (500 in a real game).
    pub max_turns: u32,
}

/// Why a game has no result.
#[derive(Debug)]
pub enum GameError {
    /// The referee was interrupted (Ctrl-C, or the match was decided).
    Cancelled,
    /// A player's command could not be started.
    Spawn {
        player: usize,
        error: std::io::Error,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Cancelled => f.write_str("the game was interrupted"),
            GameError::Spawn { player, error } => {
                write!(f, "cannot start player {player}'s command: {error}")
            }
        }
    }
}

impl std::error::Error for GameError {}

/// A player's answer to one turn.
enum Answer {
    Action {
        action: Action,
        think_ms: f64,
    },
    Fault {
        reason: Reason,
        think_ms: Option<f64>,
    },
}

/// The state of a game in progress.
struct Game<'a> {
    setup: &'a GameSetup<'a>,
    ais: [AiProcess; 2],
    packs: Vec<PreparedPack>,
    states: [PlayerState; 2],
    /// Thinking time charged so far.
    used: [Duration; 2],
    record: GameRecord,
    cancelled: &'a dyn Fn() -> bool,
}

/// Plays one game. `cancelled` is polled while waiting for the players.
pub fn play_game(
    setup: &GameSetup<'_>,
    cancelled: &dyn Fn() -> bool,
) -> Result<GameRecord, GameError> {
    let mut game = Game::start(setup, cancelled)?;
    let result = match game.read_names()? {
        Some(result) => result,
        None => game.play_turns()?,
    };
    game.record.result = result;
    Ok(game.finish())
}

impl<'a> Game<'a> {
    /// Starts both players and sends the 500 packs (the pipe holds them until they read).
    fn start(setup: &'a GameSetup<'a>, cancelled: &'a dyn Fn() -> bool) -> Result<Self, GameError> {
        let spawn = |player: usize| {
            AiProcess::spawn(setup.commands[player], setup.stderr[player].as_deref())
                .map_err(|error| GameError::Spawn { player, error })
        };
        let ais = [spawn(0)?, spawn(1)?];
        let start = format_game_start(setup.packs);
        let mut game = Game {
            setup,
            ais,
            packs: setup.packs.iter().map(|&p| PreparedPack::new(p)).collect(),
            states: [PlayerState::default(); 2],
            used: [Duration::ZERO; 2],
            record: GameRecord::new(),
            cancelled,
        };
        for player in 0..2 {
            game.send(player, &start);
        }
        Ok(game)
    }

    fn send(&mut self, player: usize, text: &str) {
        self.ais[player].send(text.as_bytes());
        self.record.transcripts[player].push_str(text);
    }

    fn violation(&mut self, player: usize, turn: Option<u32>, what: impl Into<String>) {
        self.record.violations.push(Violation {
            player,
            turn,
            what: what.into(),
        });
    }

    /// Reads both name lines; a result if a player failed to give a valid one.
    fn read_names(&mut self) -> Result<Option<GameResult>, GameError> {
        let mut faults = [None, None];
        for player in 0..2 {
            let deadline = Instant::now() + self.setup.tc.name_wait();
            faults[player] = match self.ais[player].next_output(Some(deadline), self.cancelled) {
                Ok(Output::Line { text, .. }) => self.check_name(player, text),
                Ok(Output::Closed { .. }) => {
                    self.violation(player, None, "exited before printing its name");
                    Some(Reason::Crash)
                }
                Err(Wait::TimedOut) => {
                    let waited = self.setup.tc.name_wait().as_millis();
                    let what = if self.answers_once_input_closed(player) {
                        format!("no name line within {waited} ms; it came only when stdin was closed (missing flush?)")
                    } else {
                        format!("no name line within {waited} ms")
                    };
                    self.violation(player, None, what);
                    Some(Reason::NoName)
                }
                Err(Wait::Cancelled) => return Err(GameError::Cancelled),
            };
        }
        Ok(self.decide(faults, 0))
    }

    fn check_name(&mut self, player: usize, text: String) -> Option<Reason> {
        let name = name_of(&text);
        if name.len() != text.len() {
            self.violation(player, None, "name line ends with \\r");
        }
        let bad = name
            .chars()
            .find(|&c| c.is_control() || FORBIDDEN_NAME_CHARS.contains(c));
        let fault = match bad {
            _ if name.trim().is_empty() => Some("an empty name".to_string()),
            Some(c) => Some(format!("name {name:?} contains the forbidden {c:?}")),
            None => None,
        };
        self.record.names[player] = Some(name.to_string());
        fault.map(|what| {
            self.violation(player, None, what);
            Reason::BadName
        })
    }

    /// Turns until someone loses or the turns run out.
    fn play_turns(&mut self) -> Result<GameResult, GameError> {
        let last = self.setup.max_turns.min(PACKS_PER_GAME as u32);
        for turn in 0..last {
            let answers = self.collect_answers(turn)?;
            if let Some(result) = self.apply(turn, answers) {
                return Ok(result);
            }
        }
        let reason = if last < PACKS_PER_GAME as u32 {
            Reason::TurnLimit
        } else {
            Reason::Score
        };
        let turn = last.saturating_sub(1);
        Ok(self.by_score(reason, turn, [None, None]))
    }

    /// Both answers to `turn`. Both inputs are taken at the start of the turn, so that in
    /// either thinking order p1 does not see how long p0 thought this turn.
    fn collect_answers(&mut self, turn: u32) -> Result<[Answer; 2], GameError> {
        let inputs = [0, 1].map(|player| {
            format_turn(&TurnInput {
                turn,
                players: [self.view(player), self.view(1 - player)],
            })
        });
        match self.setup.order {
            ThinkingOrder::Sequential => {
                let first = self.send_turn(turn, 0, &inputs[0]);
                let a0 = self.answer(turn, 0, first)?;
                let second = self.send_turn(turn, 1, &inputs[1]);
                let a1 = self.answer(turn, 1, second)?;
                Ok([a0, a1])
            }
            ThinkingOrder::Simultaneous => {
                let sent = [
                    self.send_turn(turn, 0, &inputs[0]),
                    self.send_turn(turn, 1, &inputs[1]),
                ];
                Ok([
                    self.answer(turn, 0, sent[0])?,
                    self.answer(turn, 1, sent[1])?,
                ])
            }
        }
    }

    /// Sends `player` its input for `turn`; returns when its clock started.
    fn send_turn(&mut self, turn: u32, player: usize, input: &str) -> Instant {
        for line in self.ais[player].pending_lines() {
            self.violation(player, Some(turn), format!("unrequested output {line:?}"));
        }
        self.send(player, input);
        Instant::now()
    }

    fn view(&self, player: usize) -> PlayerView {
        let state = &self.states[player];
        PlayerView {
            time_left_ms: self.setup.tc.time_left_ms(self.used[player]),
            ojama: state.ojama,
            gauge: state.gauge,
            score: state.score,
            rows: state.field.to_rows(),
        }
    }

    /// The longest `player` may think now: the per-turn limit and what is left of the game.
    fn allowance(&self, player: usize) -> Option<Duration> {
        let tc = self.setup.tc;
        let left = tc
            .game_ms
            .map(|g| Duration::from_millis(g).saturating_sub(self.used[player]));
        let turn = tc.turn_ms.map(Duration::from_millis);
        match (left, turn) {
            (Some(left), Some(turn)) => Some(left.min(turn)),
            (left, turn) => left.or(turn),
        }
    }

    /// Waits for `player`'s answer to `turn` (its clock started at `sent`).
    fn answer(&mut self, turn: u32, player: usize, sent: Instant) -> Result<Answer, GameError> {
        let allowance = self.allowance(player);
        let deadline = allowance.map(|a| sent + a);
        let output = self.ais[player].next_output(deadline, self.cancelled);
        let answer = match output {
            // A line that arrived after the deadline (while the referee waited for the other
            // player) is a timeout all the same.
            Ok(Output::Line { at, .. }) if deadline.is_some_and(|d| at > d) => {
                let allowed = allowance.unwrap_or_default();
                self.charge(player, allowed);
                let ms = allowed.as_millis();
                self.violation(player, Some(turn), format!("answer came after {ms} ms"));
                Answer::Fault {
                    reason: Reason::Timeout,
                    think_ms: Some(millis(allowed)),
                }
            }
            Ok(Output::Line { text, at }) => {
                let think = at.saturating_duration_since(sent);
                self.charge(player, think);
                self.parse_answer(turn, player, &text, millis(think))
            }
            Ok(Output::Closed { .. }) => {
                self.violation(player, Some(turn), "closed its output (exited or crashed)");
                Answer::Fault {
                    reason: Reason::Crash,
                    think_ms: None,
                }
            }
            Err(Wait::TimedOut) => {
                let allowed = allowance.unwrap_or_default();
                self.charge(player, allowed);
                self.report_timeout(turn, player, allowed.as_millis());
                Answer::Fault {
                    reason: Reason::Timeout,
                    think_ms: Some(millis(allowed)),
                }
            }
            Err(Wait::Cancelled) => return Err(GameError::Cancelled),
        };
        Ok(answer)
    }

    fn charge(&mut self, player: usize, think: Duration) {
        self.used[player] += think;
        self.record.think_ms[player] = millis(self.used[player]);
        let longest = self.record.max_think_ms[player].max(millis(think));
        self.record.max_think_ms[player] = longest;
    }

    /// After a timeout: whether output turns up once the player's stdin is closed, which
    /// means it was written but not flushed.
    fn answers_once_input_closed(&mut self, player: usize) -> bool {
        let ai = &mut self.ais[player];
        ai.close_input();
        let grace = Some(Instant::now() + Duration::from_millis(300));
        matches!(ai.next_output(grace, &|| false), Ok(Output::Line { .. }))
    }

    /// Reports a timeout, saying so if the answer was written but not flushed.
    fn report_timeout(&mut self, turn: u32, player: usize, allowed_ms: u128) {
        let what = if self.answers_once_input_closed(player) {
            format!("no answer within {allowed_ms} ms; it came only when stdin was closed (missing flush?)")
        } else {
            format!("no answer within {allowed_ms} ms")
        };
        self.violation(player, Some(turn), what);
    }

    fn parse_answer(&mut self, turn: u32, player: usize, text: &str, think_ms: f64) -> Answer {
        let exact = text.trim();
        if exact != text {
            self.violation(
                player,
                Some(turn),
                format!("answer {text:?} has extra whitespace"),
            );
        }
        let fault = |reason| Answer::Fault {
            reason,
            think_ms: Some(think_ms),
        };
        match parse_command(exact) {
            Some(Action::Skill) if self.states[player].gauge < SKILL_COST => {
                let gauge = self.states[player].gauge;
                self.violation(
                    player,
                    Some(turn),
                    format!("skill with gauge {gauge} (< 80)"),
                );
                fault(Reason::IllegalSkill)
            }
            Some(action) if action.in_range() => Answer::Action { action, think_ms },
            Some(action) => {
                self.violation(
                    player,
                    Some(turn),
                    format!("move {action} is outside the board"),
                );
                fault(Reason::IllegalMove)
            }
            None => {
                self.violation(player, Some(turn), format!("unparsable answer {text:?}"));
                fault(Reason::BadOutput)
            }
        }
    }

    /// Plays the turn with both answers; the result if the game ended.
    fn apply(&mut self, turn: u32, answers: [Answer; 2]) -> Option<GameResult> {
        // A faulted player loses; it places nothing this turn.
        let moves = answers.each_ref().map(|a| match a {
            Answer::Action { action, .. } => Some(*action),
            Answer::Fault { .. } => None,
        });
        let think_ms = answers.each_ref().map(|a| match a {
            Answer::Action { think_ms, .. } => Some(*think_ms),
            Answer::Fault { think_ms, .. } => *think_ms,
        });
        let pack = &self.packs[turn as usize];
        let outcomes = self
            .record
            .play_turn(&mut self.states, pack, turn, moves, think_ms);
        let mut losers = [None, None];
        for player in 0..2 {
            losers[player] = match &answers[player] {
                Answer::Fault { reason, .. } => Some(*reason),
                Answer::Action { .. } if outcomes[player].result.dead => Some(Reason::Dead),
                Answer::Action { .. } => None,
            };
        }
        self.decide(losers, turn)
    }

    /// The result when `losers` lost on `turn`, or `None` if nobody did.
    fn decide(&self, losers: [Option<Reason>; 2], turn: u32) -> Option<GameResult> {
        match losers {
            [None, None] => None,
            [Some(reason), None] => Some(win(1, reason, turn, losers)),
            [None, Some(reason)] => Some(win(0, reason, turn, losers)),
            [Some(a), Some(b)] if a.is_illegal() && b.is_illegal() => Some(GameResult {
                winner: None,
                reason: a,
                turn,
                losers,
            }),
            [Some(_), Some(_)] => Some(self.by_score(Reason::Score, turn, losers)),
        }
    }

    /// The higher score wins; equal scores draw.
    fn by_score(&self, reason: Reason, turn: u32, losers: [Option<Reason>; 2]) -> GameResult {
        let [a, b] = [self.states[0].score, self.states[1].score];
        let winner = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        GameResult {
            winner,
            reason,
            turn,
            losers,
        }
    }

    /// Stops both players (killing their process groups) and returns the record, with what
    /// they wrote on stderr about each turn.
    fn finish(mut self) -> GameRecord {
        for (player, ai) in self.ais.iter_mut().enumerate() {
            ai.kill();
            self.record.peak_rss_kib[player] = ai.peak_rss_kib();
            self.record.stderr_tails[player] = ai.stderr_tail();
            let mut lines = ai.turn_lines();
            for turn in &mut self.record.turns {
                turn.turn_lines[player] = lines.remove(&turn.turn);
            }
        }
        self.record
    }
}

fn win(winner: usize, reason: Reason, turn: u32, losers: [Option<Reason>; 2]) -> GameResult {
    GameResult {
        winner: Some(winner),
        reason,
        turn,
        losers,
    }
}

/// The name a name line gives (a `\r` before its newline is not part of it).
fn name_of(line: &str) -> &str {
    line.trim_end_matches('\r')
}

/// The name line `command` gives when started, without playing a game: the build a player
/// is, asked before a match is resumed. `None` if it gives none within the name wait of
/// `tc`.
pub fn name_line(command: &str, tc: TimeControl, cancelled: &dyn Fn() -> bool) -> Option<String> {
    let mut ai = AiProcess::spawn(command, None).ok()?;
    let deadline = Instant::now() + tc.name_wait();
    let name = match ai.next_output(Some(deadline), cancelled) {
        Ok(Output::Line { text, .. }) => Some(name_of(&text).to_string()),
        _ => None,
    };
    ai.kill();
    name
}

/// A duration in milliseconds, rounded to the microsecond.
fn millis(duration: Duration) -> f64 {
    millis_of_micros(duration.as_micros() as u64)
}

/// `x r` (two integers) or `S`; a drop's range is not checked here.
pub fn parse_command(text: &str) -> Option<Action> {
    if text == "S" {
        return Some(Action::Skill);
    }
    let mut words = text.split_whitespace();
    let x = words.next()?.parse::<u8>().ok()?;
    let rot = words.next()?.parse::<u8>().ok()?;
    match words.next() {
        Some(_) => None,
        None => Some(Action::Drop { x, rot }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_control_spellings() {
        assert_eq!("180000+20000".parse(), Ok(TimeControl::QUALIFIER));
        let game_only: TimeControl = "5000".parse().unwrap();
        assert_eq!((game_only.game_ms, game_only.turn_ms), (Some(5000), None));
        let none: TimeControl = "none".parse().unwrap();
        assert_eq!((none.game_ms, none.turn_ms), (None, None));
        assert_eq!(none.to_string(), "none");
        assert_eq!(TimeControl::QUALIFIER.to_string(), "180000+20000");
        for bad in ["", "abc", "100+", "+5", "0+5", "-1", "1+2+3"] {
            let err = bad.parse::<TimeControl>().unwrap_err();
            assert!(err.contains("GAME_MS+TURN_MS"), "{bad}: {err}");
        }
    }

    #[test]
    fn commands() {
        assert_eq!(parse_command("S"), Some(Action::Skill));
        assert_eq!(parse_command("3 1"), Some(Action::Drop { x: 3, rot: 1 }));
        assert_eq!(parse_command("9 0"), Some(Action::Drop { x: 9, rot: 0 }));
        for bad in ["", "s", "3", "3 1 2", "a b", "-1 0", "3,1", "SS"] {
            assert_eq!(parse_command(bad), None, "{bad:?}");
        }
    }
}
