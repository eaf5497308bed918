//! Playing the game protocol: read each block, let the chosen player decide, answer.

use crate::params::{heading, Params, PlayerKind, COMPATIBILITY_FLAGS};
use crate::player::{BeamPlayer, Greedy, OriginalPlayer, Player, RandomPlayer, RushPlayer};
use crate::policy::Ysai;
use crate::protocol::{Event, PlayerView, Reader, TurnInput, Writer};
use crate::sim::{
    Action, Field, FieldError, Neighbourhood, PlayerState, Position, PreparedPack, PACKS_PER_GAME,
};
use clap::Args;
use std::collections::HashSet;
use std::fmt;
use std::io::{self, BufRead, Write};
use std::sync::OnceLock;

/// The name line the AI prints first: version and commit, so that every game, replay and
/// result can be traced to the source that played it (e.g. `ysai-0.1.0-1a2b3c4`).
pub const NAME: &str = concat!("ysai-", env!("CARGO_PKG_VERSION"), "-", env!("YSAI_COMMIT"));

/// Where this binary came from: version, commit, tier and the CPU features it was compiled for.
pub fn build() -> String {
    let features = env!("YSAI_TARGET_FEATURES");
    let features = if features.is_empty() {
        "no extensions"
    } else {
        features
    };
    format!(
        "{NAME}, tier {}, compiled for {features}",
        env!("YSAI_TIER")
    )
}

/// Flags that every player obeys.
const PLAYER_FLAGS: &[&str] = &["threads", "ut", "ai", "neighbours", "seed", "g", "t"];

/// The flags the rush player obeys besides those of every player and its own settings.
const RUSH_FLAGS: &[&str] = &["turn-ms", "tm"];

/// The rush player's own settings; ysai's turn reads the three rule switches too.
const RUSH_SETTINGS: &[&str] = &[
    "late-game",
    "no-counter-plan",
    "no-hold-fire",
    "no-outbuild",
];

/// What only the original's turn reads besides [`BEAM_FLAGS`]: its plan acceptance and
/// skill mode, its counter, safety and skill beams.
const ORIGINAL_TURN_FLAGS: &[&str] = &[
    "ncfc",
    "btl",
    "bihmax",
    "bihmin",
    "bihd",
    "nc",
    "no-nc",
    "skill-mode-final",
    "nbminc",
    "nbihd",
    "ebw",
    "ebcw",
    "ebd",
    "ebt",
    "nebw",
    "nebcw",
    "nebt",
    "dbw",
    "dbcw",
    "dbd",
    "dbt",
    "sbw",
    "sbcw",
    "sbd",
    "sbt",
];

/// The first-beam and per-turn-beam flags, which the beam player obeys too.
const BEAM_FLAGS: &[&str] = &[
    "bd",
    "bw",
    "bcw",
    "bcm",
    "bcm-",
    "bcm2",
    "sbcm",
    "bminx",
    "bmaxx",
    "ftl",
    "height-cutoff",
    "beam-eval",
    "beam-nodes",
    "nbw",
    "nbcw",
    "nbd",
    "nftl",
    "nbtmax",
    "turn-ms",
];

/// What ysai's turn (the default) reads besides the full search's flags: the opening's
/// beam (`-bd -bw -bcw -bminx -bmaxx -ftl`, cut-off, rank, node budget), the per-turn plans'
/// (`-nbw -nbcw -nbd`), the opponent's answer (`-ebw -ebcw`), the search's time and the rules'
/// switches.
const BEAM_PLANNER_FLAGS: &[&str] = &[
    "bd",
    "bw",
    "bcw",
    "bminx",
    "bmaxx",
    "ftl",
    "height-cutoff",
    "beam-eval",
    "beam-nodes",
    "nbw",
    "nbcw",
    "nbd",
    "ebw",
    "ebcw",
    "guard-ms",
    "no-counter-plan",
    "no-hold-fire",
    "no-outbuild",
    "turn-ms",
    "tm",
    "m",
];

/// Whether the full AI of `params` reads `flag`.
fn full_ai_uses(params: &Params, flag: &str) -> bool {
    if params.plays_original() {
        return !(RUSH_SETTINGS.contains(&flag) || flag == "guard-ms");
    }
    let searched = params.guard.guard_ms > 0
        && search_only_flags().contains(flag)
        && !ORIGINAL_TURN_FLAGS.contains(&flag)
        && flag != "fsm";
    BEAM_PLANNER_FLAGS.contains(&flag) || searched
}

/// The flags that configure only the full search and its evaluation (their headings in the
/// help, and the skill mode it starts in), which ysai's turn reads only when `--guard-ms`
/// gives the search time. Read from the flags' definitions once.
fn search_only_flags() -> &'static HashSet<String> {
    static FLAGS: OnceLock<HashSet<String>> = OnceLock::new();
    FLAGS.get_or_init(|| {
        let command = Params::augment_args(clap::Command::new(NAME));
        let searched = |arg: &&clap::Arg| {
            matches!(
                arg.get_help_heading(),
                Some(heading::SEARCH | heading::EVALUATION)
            )
        };
        command
            .get_arguments()
            .filter(searched)
            .filter_map(|arg| arg.get_long().map(str::to_string))
            .chain(["fsm".to_string()])
            .collect()
    })
}

/// The flags in `given` that the player of `params` does not use, spelled as the user would.
pub fn flags_without_effect(params: &Params, given: &[String]) -> Vec<String> {
    let used = |flag: &str| {
        PLAYER_FLAGS.contains(&flag)
            || match params.player {
                PlayerKind::Full => full_ai_uses(params, flag),
                PlayerKind::Beam => BEAM_FLAGS.contains(&flag),
                PlayerKind::Rush => RUSH_FLAGS.contains(&flag) || RUSH_SETTINGS.contains(&flag),
                PlayerKind::Greedy | PlayerKind::Random => false,
            }
    };
    given
        .iter()
        .filter(|flag| !used(flag) && !COMPATIBILITY_FLAGS.contains(&flag.as_str()))
        .map(|flag| format!("-{flag}"))
        .collect()
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
    writer.name(NAME).map_err(PlayError::Output)?;
    let mut player = make_player::<N>(params);
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
        PlayerKind::Beam => Box::new(BeamPlayer::<N>::new(params)),
        PlayerKind::Full if params.plays_original() => Box::new(OriginalPlayer::<N>::new(params)),
        PlayerKind::Full => Box::new(Ysai::<N>::new(params)),
        PlayerKind::Rush => Box::new(RushPlayer::<N>::new(params)),
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
    use crate::params::GuardFlags;
    use crate::params::Style;

    fn flags(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn unused(player: PlayerKind, style: Style, given: &[&str]) -> Vec<String> {
        let params = Params {
            player,
            style,
            ..Params::default()
        };
        flags_without_effect(&params, &flags(given))
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
                style,
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
