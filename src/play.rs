//! Playing the game protocol: read each block, let the chosen player decide, answer.

use crate::params::{flags_ignored, Params, PlayerKind};
use crate::player::Ysai;
use crate::player::{
    BeamPlayer, CounterPlayer, Greedy, OriginalPlayer, Player, RandomPlayer, RushPlayer,
};
use crate::protocol::{Event, PlayerView, Reader, TurnInput, Writer};
use crate::sim::{
    Action, Field, FieldError, Neighbourhood, PlayerState, Position, PreparedPack, PACKS_PER_GAME,
};
use std::fmt;
use std::io::{self, BufRead, Write};

pub use crate::build_info::{build, NAME};

/// Why playing stopped early.
#[derive(Debug)]
pub enum PlayError {
    /// The input could not be read as the protocol (line, what was expected).
    Input(crate::protocol::ParseError),
    /// Writing the answer failed (the referee went away).
    Output(io::Error),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Input(e) => write!(f, "{e}"),
            PlayError::Output(e) => write!(f, "cannot write the answer: {e}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// What a session played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: usize,
    pub answered: usize,
    /// Turns that could not be played (an impossible field), each reported on stderr.
    pub rejected: usize,
    /// Turns played with floating blocks settled first, each reported on stderr.
    pub repaired: usize,
}

/// The game being played: its packs, ready to drop.
struct GameContext {
    index: usize,
    packs: Vec<PreparedPack>,
}

/// Plays every game of `input` (or only those `params` selects with `-g` / `-t`).
pub fn play<N: Neighbourhood>(
    params: &Params,
    input: impl BufRead,
    output: impl Write,
    log: &mut impl Write,
) -> Result<Summary, PlayError> {
    let mut reader = Reader::new(input);
    let mut writer = Writer::new(output);
    // The player's tables are made (and their pages mapped) before the name says it is ready.
    let mut player = make_player::<N>(params);
    writer.name(NAME).map_err(PlayError::Output)?;
    if params.log.turn_debug_msg {
        let ignored = flags_ignored(params);
        if !ignored.contains("tm") {
            let flags = crate::cli::effective_flags(params, |flag| !ignored.contains(flag));
            let _ = writeln!(log, "Param: {flags}");
        }
    }
    let mut game: Option<GameContext> = None;
    let mut summary = Summary::default();
    while let Some(event) = reader.next_event().map_err(PlayError::Input)? {
        match event {
            Event::GameStart(packs) => {
                game = Some(GameContext {
                    index: summary.games,
                    packs: packs.iter().map(|&p| PreparedPack::new(p)).collect(),
                });
                summary.games += 1;
            }
            Event::Turn(turn) => {
                let Some(context) = game.as_ref().filter(|g| selected(params, g.index, &turn))
                else {
                    continue;
                };
                let mut report = |player: usize, e: &FieldError, consequence: &str| {
                    let line = reader.field_row_line(player, e.row());
                    let (whose, number) = (WHOSE[player], turn.turn);
                    let _ = writeln!(
                        log,
                        "input line {line}: turn {number}: {whose} {e}{consequence}"
                    );
                };
                match answer(player.as_mut(), context, &turn) {
                    Ok((action, repairs)) => {
                        for (player, e) in &repairs {
                            report(*player, e, "; played with the blocks settled");
                        }
                        summary.repaired += usize::from(!repairs.is_empty());
                        writer.action(action).map_err(PlayError::Output)?;
                        summary.answered += 1;
                    }
                    Err((player, e)) => {
                        report(player, &e, "");
                        summary.rejected += 1;
                    }
                }
            }
        }
    }
    Ok(summary)
}

/// `-g N` keeps game N only; `-t T` keeps turn T only.
fn selected(params: &Params, game: usize, turn: &TurnInput) -> bool {
    let game_ok = params.input.check_game < 0 || params.input.check_game as usize == game;
    let turn_ok = params.input.check_turn < 0 || params.input.check_turn as u32 == turn.turn;
    game_ok && turn_ok
}

fn make_player<N: Neighbourhood>(params: &Params) -> Box<dyn Player> {
    match params.player {
        PlayerKind::Random => Box::new(RandomPlayer::new(params.seed)),
        PlayerKind::Greedy => Box::new(Greedy::<N>::default()),
        PlayerKind::Beam => Box::new(BeamPlayer::<N>::new(params.beam_player())),
        PlayerKind::Full if params.plays_original() => {
            Box::new(OriginalPlayer::<N>::new(params.original_player()))
        }
        PlayerKind::Full => Box::new(Ysai::<N>::new(params.ysai())),
        PlayerKind::Rush => Box::new(RushPlayer::<N>::new(params.rush_player())),
        PlayerKind::Counter => Box::new(CounterPlayer::<N>::new(params.counter_player())),
    }
}

/// How errors name the two fields of a turn, as the protocol reader does.
const WHOSE: [&str; 2] = ["my", "the opponent's"];

/// The state a view describes. A field whose blocks float is settled (and the problem
/// returned), so that the turn is still answered: no answer would lose the game on time.
fn player_state(view: &PlayerView) -> Result<(PlayerState, Option<FieldError>), FieldError> {
    let (field, problem) = match Field::from_rows(&view.rows) {
        Ok(field) => (field, None),
        Err(e @ FieldError::Floating { .. }) => (Field::from_rows_settled(&view.rows)?, Some(e)),
        Err(e) => return Err(e),
    };
    let state = PlayerState {
        field,
        ojama: view.ojama,
        gauge: view.gauge,
        score: view.score,
    };
    Ok((state, problem))
}

/// A field problem: which player's field (0 = me) and what is wrong with it.
type FieldProblem = (usize, FieldError);

/// The player's action for `turn`, checked legal (a drop is played if the player erred), with
/// the fields that had to be settled first; or the field that cannot be played at all.
fn answer(
    player: &mut dyn Player,
    game: &GameContext,
    turn: &TurnInput,
) -> Result<(Action, Vec<FieldProblem>), FieldProblem> {
    let (me, my_problem) = player_state(&turn.players[0]).map_err(|e| (0, e))?;
    let (opponent, their_problem) = player_state(&turn.players[1]).map_err(|e| (1, e))?;
    let repairs: Vec<FieldProblem> = [my_problem.map(|e| (0, e)), their_problem.map(|e| (1, e))]
        .into_iter()
        .flatten()
        .collect();
    let index = (turn.turn as usize).min(PACKS_PER_GAME - 1);
    let view = Position {
        turn: index,
        packs: &game.packs[index..],
        me: &me,
        opponent: &opponent,
        time_left_ms: turn.players[0].time_left_ms,
    };
    let action = player.choose(&view);
    debug_assert!(me.is_legal(action), "player chose illegal {action}");
    let action = if me.is_legal(action) {
        action
    } else {
        Action::drops()[0]
    };
    Ok((action, repairs))
}
