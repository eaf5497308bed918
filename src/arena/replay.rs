//! Replays: one JSON file per game with the packs, every move and the position after every
//! turn, and the terminal view of a replay.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::referee::{
    micros_of_millis, parse_command, GameRecord, GameResult, StateRecord, TimeControl, TurnRecord,
};
use super::shown_name;
use crate::protocol::{format_game_start, format_turn, PlayerView, TurnInput, FIELD_HEIGHT};
use crate::render::{rows_picture, side_by_side};
use crate::sim::{play_turn, Action, Pack, PlayerState, PreparedPack, Shift, PACKS_PER_GAME};

/// The format tag of replay files; bump it when the layout changes.
pub const FORMAT: &str = "ysai-replay/1";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayPlayer {
    pub name: Option<String>,
    pub command: String,
    /// The engine's name (`--engine name=...`), which it is shown by; absent for the players
    /// of `--p0` and `--p1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

/// A whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub format: String,
    /// `[[top-left, top-right], [bottom-left, bottom-right]]` per turn.
    pub packs: Vec<[[u8; 2]; 2]>,
    pub players: [ReplayPlayer; 2],
    pub turns: Vec<TurnRecord>,
    pub result: GameResult,
    /// The time control (`GAME+TURN`, as `--tc` takes it); replays written before it was
    /// recorded have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<String>,
}

impl Replay {
    pub fn new(
        packs: &[Pack; PACKS_PER_GAME],
        commands: [&str; 2],
        tc: TimeControl,
        record: &GameRecord,
    ) -> Self {
        Replay {
            format: FORMAT.to_string(),
            packs: packs.iter().map(|p| p.cells).collect(),
            players: [0, 1].map(|p| ReplayPlayer {
                name: record.names[p].clone(),
                command: commands[p].to_string(),
                engine: None,
            }),
            turns: record.turns.clone(),
            result: record.result.clone(),
            tc: Some(tc.to_string()),
        }
    }

    /// Reads a replay file, checking its format tag and pack count.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let replay: Replay = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a replay ({e})", path.display()))?;
        if replay.format != FORMAT {
            return Err(format!(
                "{}: format `{}`, this version reads `{FORMAT}`",
                path.display(),
                replay.format
            ));
        }
        if replay.packs.len() != PACKS_PER_GAME {
            return Err(format!(
                "{}: {} packs, expected {PACKS_PER_GAME}",
                path.display(),
                replay.packs.len()
            ));
        }
        Ok(replay)
    }

    /// The pack of `turn`, if the replay has one.
    pub fn pack(&self, turn: usize) -> Option<Pack> {
        self.packs
            .get(turn)
            .map(|&[top, bottom]| Pack::new(top, bottom))
    }

    /// The replay with its players named as `engines` (p0's first), if given.
    pub fn named(mut self, engines: Option<&[String; 2]>) -> Self {
        if let Some(engines) = engines {
            for (player, engine) in self.players.iter_mut().zip(engines) {
                player.engine = Some(engine.clone());
            }
        }
        self
    }

    /// The names the two players are shown by: their engines', else as [`shown_name`] says.
    pub fn shown_names(&self) -> [String; 2] {
        self.players.each_ref().map(|p| {
            p.engine
                .clone()
                .unwrap_or_else(|| shown_name(&p.command, p.name.as_deref()))
        })
    }

    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string(self).map_err(|e| e.to_string())?;
        fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The stdin `player` was sent: the packs, then every turn's input from its side. The clock
/// lines are rebuilt from the recorded thinking times at `tc`, to within a millisecond.
pub fn input_of(replay: &Replay, player: usize, tc: TimeControl) -> Result<String, String> {
    let packs: Vec<Pack> = (0..replay.packs.len())
        .filter_map(|turn| replay.pack(turn))
        .collect();
    let packs: &[Pack; PACKS_PER_GAME] = packs
        .as_slice()
        .try_into()
        .map_err(|_| format!("{} packs, expected {PACKS_PER_GAME}", replay.packs.len()))?;
    let mut text = format_game_start(packs);
    let mut before = [0, 1].map(|_| StateRecord::of(&PlayerState::default()));
    let mut used = [Duration::ZERO; 2];
    for turn in &replay.turns {
        let view = |p: usize| player_view(&before[p], tc.time_left_ms(used[p]), turn.turn);
        let players = [view(player)?, view(1 - player)?];
        text.push_str(&format_turn(&TurnInput {
            turn: turn.turn,
            players,
        }));
        for (used, think) in used.iter_mut().zip(turn.think_ms) {
            *used += think.map_or(Duration::ZERO, |ms| {
                Duration::from_micros(micros_of_millis(ms))
            });
        }
        before = turn.state.clone();
    }
    Ok(text)
}

/// One side of a turn's input: the position a turn ended in, with the clock line.
fn player_view(state: &StateRecord, time_left_ms: i64, turn: u32) -> Result<PlayerView, String> {
    let rows = state.field.as_slice().try_into().map_err(|_| {
        format!(
            "turn {turn}: a field of {} rows, expected {FIELD_HEIGHT}",
            state.field.len()
        )
    })?;
    Ok(PlayerView {
        time_left_ms,
        ojama: state.stock,
        gauge: state.gauge,
        score: state.score,
        rows,
    })
}

/// Plays the replay's moves again on the simulator and checks every recorded position.
/// A turn where a player sent no valid move is the game's last and is not re-played.
pub fn resimulate(replay: &Replay) -> Result<(), String> {
    let mut states = [PlayerState::default(); 2];
    for (index, turn) in replay.turns.iter().enumerate() {
        if turn.turn as usize != index {
            return Err(format!(
                "turn {} is recorded at position {index}",
                turn.turn
            ));
        }
        let Some(actions) = parse_moves(&turn.moves) else {
            return Ok(());
        };
        let pack = replay
            .pack(index)
            .ok_or_else(|| format!("no pack for turn {index}"))?;
        play_turn::<Shift>(&mut states, &PreparedPack::new(pack), actions);
        for player in 0..2 {
            if StateRecord::of(&states[player]) != turn.state[player] {
                return Err(format!(
                    "turn {index}: player {player}'s recorded position differs from the re-simulated one"
                ));
            }
        }
    }
    Ok(())
}

fn parse_moves(moves: &[Option<String>; 2]) -> Option<[Action; 2]> {
    let a = parse_command(moves[0].as_deref()?)?;
    let b = parse_command(moves[1].as_deref()?)?;
    Some([a, b])
}

/// The whole game as text: per turn the pack, both moves with chains, score, ojama stock and
/// gauge, and both fields side by side as `-m` draws them; then the result.
pub fn render(replay: &Replay) -> String {
    let mut out = String::new();
    let names = replay.shown_names();
    let _ = writeln!(out, "p0 {}  vs  p1 {}", names[0], names[1]);
    for turn in &replay.turns {
        render_turn(&mut out, replay, turn);
    }
    let result = &replay.result;
    let verdict = match result.winner {
        Some(w) => format!("p{w} {} wins", names[w]),
        None => "draw".to_string(),
    };
    let _ = writeln!(out, "\n{verdict} ({}, turn {})", result.reason, result.turn);
    out
}

fn render_turn(out: &mut String, replay: &Replay, turn: &TurnRecord) {
    let pack = replay
        .packs
        .get(turn.turn as usize)
        .copied()
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "\nturn {}   pack {} {} / {} {}",
        turn.turn, pack[0][0], pack[0][1], pack[1][0], pack[1][1]
    );
    for player in 0..2 {
        let state = &turn.state[player];
        let think = turn.think_ms[player].map_or("-".into(), |ms| format!("{ms:.1} ms"));
        let _ = writeln!(
            out,
            "  p{player} {:<5} chains {:<2} score {:<5} ojama {:<4} gauge {:<3} think {think}",
            turn.moves[player].as_deref().unwrap_or("--"),
            turn.chains[player],
            state.score,
            state.stock,
            state.gauge,
        );
    }
    let pictures = turn
        .state
        .each_ref()
        .map(|s| rows_picture(&s.field))
        .to_vec();
    out.push_str(&indent(&side_by_side(&pictures)));
}

/// Every line of `text` two spaces in.
fn indent(text: &str) -> String {
    text.lines().map(|line| format!("  {line}\n")).collect()
}
