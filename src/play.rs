//! Playing the game protocol: read each block, let the chosen player decide, answer.

use crate::params::{
    AnswerBeamFlags, ClockFlags, DetailFlags, EvalFlags, ExchangeFlags, GuardFlags,
    HelperBeamFlags, InputFlags, OpeningBeamFlags, OriginalTurnFlags, Params, PlanTargetFlags,
    PlayerKind, RuleFlags, RushFlags, SearchFlags, TurnBeamFlags, TurnBeamLimitFlags, TurnFlags,
    TurnLogFlags, COMPATIBILITY_FLAGS,
};
use crate::player::Ysai;
use crate::player::{
    BeamPlayer, CounterPlayer, Greedy, OriginalPlayer, Player, RandomPlayer, RushPlayer,
};
use crate::protocol::{Event, PlayerView, Reader, TurnInput, Writer};
use crate::sim::{
    Action, Field, FieldError, Neighbourhood, PlayerState, Position, PreparedPack, PACKS_PER_GAME,
};
use clap::Args;
use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::OnceLock;

pub use crate::build_info::{build, NAME};

/// The groups of flags the player of `params` reads. A flag outside every group (the
/// engine's: threads, neighbour lookup, seed, `-ai`, `-ut`) is read by every player.
fn groups_read(params: &Params) -> Vec<Option<clap::Id>> {
    let common = [InputFlags::group_id()];
    let plan_beams = [
        ClockFlags::group_id(),
        OpeningBeamFlags::group_id(),
        TurnBeamFlags::group_id(),
    ];
    let searched = [SearchFlags::group_id(), EvalFlags::group_id()];
    let logged = [TurnLogFlags::group_id(), DetailFlags::group_id()];
    let own: Vec<Option<clap::Id>> = match params.player {
        PlayerKind::Greedy | PlayerKind::Random => Vec::new(),
        PlayerKind::Rush => vec![
            ClockFlags::group_id(),
            RuleFlags::group_id(),
            RushFlags::group_id(),
            TurnLogFlags::group_id(),
        ],
        PlayerKind::Counter => vec![
            ClockFlags::group_id(),
            TurnBeamFlags::group_id(),
            OpeningBeamFlags::group_id(),
        ],
        PlayerKind::Beam => [
            &plan_beams[..],
            &[PlanTargetFlags::group_id(), TurnBeamLimitFlags::group_id()],
        ]
        .concat(),
        PlayerKind::Full if params.plays_original() => [
            &plan_beams[..],
            &searched,
            &logged,
            &[
                TurnFlags::group_id(),
                PlanTargetFlags::group_id(),
                TurnBeamLimitFlags::group_id(),
                AnswerBeamFlags::group_id(),
                OriginalTurnFlags::group_id(),
                HelperBeamFlags::group_id(),
            ],
        ]
        .concat(),
        PlayerKind::Full => {
            let search = if params.full_search_runs() {
                &searched[..]
            } else {
                &[]
            };
            [
                &plan_beams[..],
                search,
                &logged,
                &[
                    TurnFlags::group_id(),
                    AnswerBeamFlags::group_id(),
                    GuardFlags::group_id(),
                    RuleFlags::group_id(),
                    ExchangeFlags::group_id(),
                ],
            ]
            .concat()
        }
    };
    [&common[..], &own].concat()
}

/// The long name of every grouped flag, with its group. Read from the flags' definitions once.
fn flag_groups() -> &'static HashMap<String, clap::Id> {
    static GROUPS: OnceLock<HashMap<String, clap::Id>> = OnceLock::new();
    GROUPS.get_or_init(|| {
        let command = Params::augment_args(clap::Command::new(NAME));
        let long = |id: &clap::Id| {
            command
                .get_arguments()
                .find(|arg| arg.get_id() == id)
                .and_then(|arg| arg.get_long())
                .map(str::to_string)
        };
        let mut groups = HashMap::new();
        for group in command.get_groups() {
            // The whole struct's group holds only the engine's own flags.
            if Some(group.get_id()) == Params::group_id().as_ref() {
                continue;
            }
            for arg in group.get_args() {
                if let Some(name) = long(arg) {
                    groups.insert(name, group.get_id().clone());
                }
            }
        }
        groups
    })
}

/// The flags in `given` that the player of `params` does not use, spelled as the user would.
pub fn flags_without_effect(params: &Params, given: &[String]) -> Vec<String> {
    given
        .iter()
        .filter(|flag| !reads_flag(params, flag) && !COMPATIBILITY_FLAGS.contains(&flag.as_str()))
        .map(|flag| format!("-{flag}"))
        .collect()
}

/// Whether the player of `params` reads the flag of long name `flag` (the engine's flags,
/// outside every group, are read by all).
fn reads_flag(params: &Params, flag: &str) -> bool {
    match flag_groups().get(flag) {
        Some(group) => groups_read(params).iter().flatten().any(|g| g == group),
        None => true,
    }
}

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
    if params.log.turn_debug_msg && reads_flag(params, "tm") {
        let flags = crate::cli::effective_flags(params, |flag| reads_flag(params, flag));
        let _ = writeln!(log, "Param: {flags}");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{GuardFlags, Style};

    fn flags(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn unused(player: PlayerKind, style: Style, given: &[&str]) -> Vec<String> {
        let params = Params {
            player,
            turn: TurnFlags { style },
            ..Params::default()
        };
        flags_without_effect(&params, &flags(given))
    }

    /// Every player, in each of the ways it can play.
    fn every_player() -> Vec<Params> {
        let kinds = [
            PlayerKind::Random,
            PlayerKind::Greedy,
            PlayerKind::Beam,
            PlayerKind::Full,
            PlayerKind::Rush,
            PlayerKind::Counter,
        ];
        let mut players = Vec::new();
        for player in kinds {
            for style in [Style::Default, Style::Original] {
                for guard_ms in [0, 1_000] {
                    players.push(Params {
                        player,
                        turn: TurnFlags { style },
                        guard: GuardFlags { guard_ms },
                        ..Params::default()
                    });
                }
            }
        }
        players
    }

    #[test]
    fn every_flag_is_read_by_some_player() {
        let command = Params::augment_args(clap::Command::new(NAME));
        for arg in command.get_arguments() {
            let flag = arg.get_long().unwrap().to_string();
            let read = every_player()
                .iter()
                .any(|p| flags_without_effect(p, std::slice::from_ref(&flag)).is_empty());
            assert!(read, "no player reads -{flag}");
        }
        // Each grouped flag knows its group; the engine's are read by every player.
        assert_eq!(
            flag_groups().get("bw"),
            OpeningBeamFlags::group_id().as_ref()
        );
        for engine in ["threads", "neighbours", "seed"] {
            assert_eq!(flag_groups().get(engine), None, "{engine}");
            for player in every_player() {
                assert!(flags_without_effect(&player, &flags(&[engine])).is_empty());
            }
        }
    }

    #[test]
    fn search_flags_are_reported_and_player_flags_are_not() {
        let given = ["bw", "threads", "bcm-", "t", "m"];
        let unused = |player| unused(player, Style::Original, &given);
        assert_eq!(unused(PlayerKind::Greedy), ["-bw", "-bcm-", "-m"]);
        assert_eq!(unused(PlayerKind::Beam), ["-m"]);
        assert!(unused(PlayerKind::Full).is_empty());
        assert!(flags_without_effect(&Params::default(), &[]).is_empty());
    }

    #[test]
    fn each_turn_of_the_full_ai_reports_the_others_flags() {
        let given = [
            "bw",
            "bcw",
            "dbw",
            "turn-ms",
            "d",
            "hl",
            "fsm",
            "late-game",
            "guard-ms",
        ];
        let full = |style, guard_ms| {
            let params = Params {
                turn: TurnFlags { style },
                guard: GuardFlags { guard_ms },
                ..Params::default()
            };
            flags_without_effect(&params, &flags(&given))
        };
        assert_eq!(full(Style::Original, 0), ["-late-game", "-guard-ms"]);
        assert_eq!(full(Style::Default, 1_000), ["-dbw", "-fsm", "-late-game"]);
        assert_eq!(
            full(Style::Default, 0),
            ["-dbw", "-d", "-hl", "-fsm", "-late-game"],
            "no search: its flags do nothing"
        );
        let rush = unused(PlayerKind::Rush, Style::Default, &given);
        assert_eq!(
            rush,
            ["-bw", "-bcw", "-dbw", "-d", "-hl", "-fsm", "-guard-ms"]
        );
    }
}
