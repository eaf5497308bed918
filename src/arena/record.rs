//! What a game leaves: its time control, why it ended, each turn's states, answers and
//! times, and the rule violations seen.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::sim::action::DROP_COLUMNS;
use crate::sim::{play_turn, Action, PlayerState, PreparedPack, Shift, TurnOutcome};

/// Thinking time every input shows when the time control is unlimited (the whole game's
/// time, so that an AI's time manager plays as at the start).
pub(super) const NOMINAL_GAME_MS: u64 = 180_000;
/// Time allowed for the name line when no per-turn limit applies.
pub(super) const NAME_WAIT_MS: u64 = 20_000;

/// A chain this long counts as a player's main attack: the first one is recorded, because
/// the game is mostly decided by who fires a big chain first.
pub const BIG_CHAIN: u32 = 10;

/// The first chain of [`BIG_CHAIN`] or more steps a player fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BigChain {
    pub turn: u32,
    pub chains: u32,
}

/// Thinking time per player: for the whole game and for each answer. `None` is unlimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub game_ms: Option<u64>,
    pub turn_ms: Option<u64>,
}

impl TimeControl {
    /// The qualifier's limits: 180 s per game, 20 s per turn.
    pub const QUALIFIER: TimeControl = TimeControl {
        game_ms: Some(180_000),
        turn_ms: Some(20_000),
    };

    /// The clock line a player is shown after thinking `used` in all: what is left of the
    /// game, or 180000 when the game has no limit.
    pub fn time_left_ms(&self, used: Duration) -> i64 {
        let left = match self.game_ms {
            Some(budget) => budget.saturating_sub(used.as_millis() as u64),
            None => NOMINAL_GAME_MS,
        };
        left as i64
    }

    /// How long the name line may take: the per-turn limit (at least a second), else 20 s.
    pub(super) fn name_wait(&self) -> Duration {
        Duration::from_millis(self.turn_ms.map_or(NAME_WAIT_MS, |t| t.max(1_000)))
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// `GAME+TURN` in milliseconds, `GAME` (no per-turn limit), or `none`.
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("none") {
            return Ok(TimeControl {
                game_ms: None,
                turn_ms: None,
            });
        }
        let (game, turn) = match text.split_once('+') {
            Some((game, turn)) => (game, Some(turn)),
            None => (text, None),
        };
        let millis = |s: &str| {
            match s.trim().parse::<u64>() {
            Ok(ms) if ms > 0 => Ok(ms),
            _ => Err(format!(
                "expected GAME_MS+TURN_MS (e.g. 180000+20000), GAME_MS, or none; `{s}` is not a positive number of milliseconds"
            )),
        }
        };
        Ok(TimeControl {
            game_ms: Some(millis(game)?),
            turn_ms: turn.map(millis).transpose()?,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.game_ms, self.turn_ms) {
            (None, _) => f.write_str("none"),
            (Some(game), None) => write!(f, "{game}"),
            (Some(game), Some(turn)) => write!(f, "{game}+{turn}"),
        }
    }
}

/// Whether the players think one after the other or at the same time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThinkingOrder {
    /// p0's input, its answer, then p1's: each AI has the machine to itself.
    Sequential,
    /// Both inputs at once, as the official client did.
    Simultaneous,
}

/// Why a player lost (or why a game ended).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// A column reached 17 blocks.
    Dead,
    /// No answer within the time left.
    Timeout,
    /// Stdout closed (the AI exited or crashed) before the game ended.
    Crash,
    /// A line that is neither `x r` nor `S`.
    BadOutput,
    /// A drop outside the board.
    IllegalMove,
    /// The skill with a gauge below 80.
    IllegalSkill,
    /// No name line in time.
    NoName,
    /// A name with a character the server forbids.
    BadName,
    /// Decided by score: after the last turn, or when both players lost on the same turn.
    Score,
    /// The referee stopped the game early (a short check game), decided by score.
    TurnLimit,
}

impl Reason {
    /// An illegal command: two of these on the same turn draw, whatever the scores.
    pub(super) fn is_illegal(self) -> bool {
        matches!(
            self,
            Reason::BadOutput | Reason::IllegalMove | Reason::IllegalSkill | Reason::BadName
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Reason::Dead => "dead",
            Reason::Timeout => "timeout",
            Reason::Crash => "crash",
            Reason::BadOutput => "bad-output",
            Reason::IllegalMove => "illegal-move",
            Reason::IllegalSkill => "illegal-skill",
            Reason::NoName => "no-name",
            Reason::BadName => "bad-name",
            Reason::Score => "score",
            Reason::TurnLimit => "turn-limit",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// 0 or 1; `None` for a draw.
    pub winner: Option<usize>,
    pub reason: Reason,
    /// The turn on which it ended.
    pub turn: u32,
    /// Why each player lost, if it did.
    pub losers: [Option<Reason>; 2],
}

/// One player's position at the end of a turn, as the next turn's input shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateRecord {
    /// 16 rows, top first.
    pub field: Vec<[u8; 10]>,
    pub stock: i64,
    pub gauge: i32,
    pub score: i64,
}

impl StateRecord {
    pub fn of(state: &PlayerState) -> Self {
        StateRecord {
            field: state.field.to_rows().to_vec(),
            stock: state.ojama,
            gauge: state.gauge,
            score: state.score,
        }
    }
}

/// One turn of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    pub turn: u32,
    /// `"x r"` or `"S"`; `None` when the player sent no valid command.
    pub moves: [Option<String>; 2],
    /// Thinking time of each answer in milliseconds (microsecond precision).
    pub think_ms: [Option<f64>; 2],
    pub chains: [u32; 2],
    pub state: [StateRecord; 2],
    /// What each player wrote about this turn on stderr (a ysai player's `-tm` line).
    #[serde(default, skip_serializing_if = "no_turn_lines")]
    pub turn_lines: [Option<String>; 2],
}

fn no_turn_lines(lines: &[Option<String>; 2]) -> bool {
    lines.iter().all(Option::is_none)
}

/// A protocol problem seen during a game (fatal or not), for `--check`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub player: usize,
    /// The turn, or `None` before the first turn.
    pub turn: Option<u32>,
    pub what: String,
}

/// Everything one game produced.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub names: [Option<String>; 2],
    pub result: GameResult,
    pub turns: Vec<TurnRecord>,
    /// The exact bytes each player received on stdin.
    pub transcripts: [String; 2],
    pub violations: Vec<Violation>,
    /// Total and longest thinking time of each player, in milliseconds.
    pub think_ms: [f64; 2],
    pub max_think_ms: [f64; 2],
    /// Each player's peak resident set over the game, in KiB, where the system tells it.
    pub peak_rss_kib: [Option<u64>; 2],
    pub max_chains: [u32; 2],
    pub first_big_chains: [Option<BigChain>; 2],
    pub scores: [i64; 2],
    /// The end of each player's stderr (to explain a crash).
    pub stderr_tails: [String; 2],
}

impl GameRecord {
    /// A game not yet begun: no names, no turns, a draw by score on turn 0.
    pub fn new() -> Self {
        GameRecord {
            names: [None, None],
            result: GameResult {
                winner: None,
                reason: Reason::Score,
                turn: 0,
                losers: [None, None],
            },
            turns: Vec::new(),
            transcripts: [String::new(), String::new()],
            violations: Vec::new(),
            think_ms: [0.0; 2],
            max_think_ms: [0.0; 2],
            peak_rss_kib: [None; 2],
            max_chains: [0; 2],
            first_big_chains: [None; 2],
            scores: [0; 2],
            stderr_tails: [String::new(), String::new()],
        }
    }

    /// Plays `turn` on `states` with each player's move (`None`: it sent no valid command
    /// and places nothing) and records it: the turn, the chains and the scores. The referee
    /// and a game rebuilt from its results line both play turns here, so that they agree.
    pub fn play_turn(
        &mut self,
        states: &mut [PlayerState; 2],
        pack: &PreparedPack,
        turn: u32,
        moves: [Option<Action>; 2],
        think_ms: [Option<f64>; 2],
    ) -> [TurnOutcome; 2] {
        let nothing = Action::Drop {
            x: DROP_COLUMNS,
            rot: 0,
        };
        let outcomes = play_turn::<Shift>(states, pack, moves.map(|m| m.unwrap_or(nothing)));
        for player in 0..2 {
            let chains = outcomes[player].result.chains;
            self.max_chains[player] = self.max_chains[player].max(chains);
            let first = &mut self.first_big_chains[player];
            if chains >= BIG_CHAIN && first.is_none() {
                *first = Some(BigChain { turn, chains });
            }
        }
        self.turns.push(TurnRecord {
            turn,
            moves: moves.map(|m| m.map(|a| a.to_string())),
            think_ms,
            chains: outcomes.map(|o| o.result.chains),
            state: states.each_ref().map(StateRecord::of),
            turn_lines: [None, None],
        });
        self.scores = states.each_ref().map(|s| s.score);
        outcomes
    }
}

impl Default for GameRecord {
    fn default() -> Self {
        GameRecord::new()
    }
}

/// Microseconds as the milliseconds records keep (the one conversion, so that a time read
/// back from microseconds is the very number recorded).
pub fn millis_of_micros(micros: u64) -> f64 {
    micros as f64 / 1000.0
}

/// The microseconds a recorded number of milliseconds stands for.
pub fn micros_of_millis(ms: f64) -> u64 {
    (ms * 1000.0).round() as u64
}
