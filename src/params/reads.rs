//! Which flags the chosen player reads, worked out from what it is built from: a flag is
//! read when two of its values build the player differently. Nothing is listed by hand, so
//! a flag a config stops reading is reported as soon as it does.

use std::collections::HashSet;
use std::sync::OnceLock;

use clap::{Arg, ArgAction, Args, Command, FromArgMatches};

use super::*;

/// The values tried for a flag that names none of its own: at least two of them are valid
/// for every number flag (the tightest is `--turn-ms`, at least a few hundred).
const TRIED_NUMBERS: &[&str] = &[
    "0", "1", "2", "3", "-1", "0.5", "500", "1000", "5000", "20000",
];

impl Params {
    /// Everything the chosen player is built from, as text: its config, with the input
    /// checks the protocol loop makes for every player. Two settings play alike when these
    /// agree.
    fn player_settings(&self) -> String {
        let config = match self.player {
            PlayerKind::Random | PlayerKind::Greedy => String::new(),
            PlayerKind::Beam => format!("{:?}", self.beam_player()),
            PlayerKind::Full if self.plays_original() => format!("{:?}", self.original_player()),
            PlayerKind::Full => format!("{:?}", self.ysai()),
            PlayerKind::Rush => format!("{:?}", self.rush_player()),
            PlayerKind::Counter => format!("{:?}", self.counter_player()),
        };
        format!("{:?} {:?} {config}", self.player, self.input)
    }

    /// These settings with one flag's value replaced (a long name and its text), as the
    /// command line would have set it; `None` if the flag does not take that value.
    fn with_flag(&self, probe: &mut Command, flag: &str, value: &str) -> Option<Params> {
        let matches = probe
            .try_get_matches_from_mut(["ysai".to_string(), format!("--{flag}={value}")])
            .ok()?;
        let mut changed = self.clone();
        changed.update_from_arg_matches(&matches).ok()?;
        changed.apply_off_switches();
        Some(changed)
    }
}

/// The settings' flags without defaults, each switch taking `true` or `false`: parsing one
/// flag sets that flag alone (and what it implies, as `-m` does `-tm`).
fn probe_command() -> Command {
    Params::augment_args(Command::new("ysai")).mut_args(|arg| {
        let arg = arg.default_value(None::<&str>);
        match arg.get_action() {
            ArgAction::SetTrue | ArgAction::SetFalse => arg
                .action(ArgAction::Set)
                .num_args(1)
                .value_parser(clap::value_parser!(bool)),
            _ => arg,
        }
    })
}

/// The engine's own flags (threads, neighbour lookup, seed): those outside every group of
/// settings, read by every player.
fn engine_flags() -> &'static HashSet<String> {
    static ENGINE: OnceLock<HashSet<String>> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let command = Params::augment_args(Command::new("ysai"));
        // The whole struct's group holds every flag; the groups of settings, all but these.
        let grouped: HashSet<&clap::Id> = command
            .get_groups()
            .filter(|group| Some(group.get_id()) != Params::group_id().as_ref())
            .flat_map(|group| group.get_args())
            .collect();
        command
            .get_arguments()
            .filter(|arg| !grouped.contains(arg.get_id()))
            .filter_map(|arg| arg.get_long().map(str::to_string))
            .collect()
    })
}

/// The values to try for `arg`: the ones it names, or numbers.
fn tried_values(arg: &Arg) -> Vec<String> {
    let named: Vec<String> = arg
        .get_possible_values()
        .iter()
        .map(|value| value.get_name().to_string())
        .collect();
    if named.is_empty() {
        TRIED_NUMBERS.iter().map(|s| s.to_string()).collect()
    } else {
        named
    }
}

/// Whether two of the values of the flag of long name `flag` build the player of `params`
/// differently.
fn changes_player(params: &Params, probe: &mut Command, flag: &str) -> bool {
    let Some(arg) = probe.get_arguments().find(|a| a.get_long() == Some(flag)) else {
        return true;
    };
    let mut seen: Option<String> = None;
    for value in tried_values(arg) {
        let Some(changed) = params.with_flag(probe, flag, &value) else {
            continue;
        };
        let settings = changed.player_settings();
        match &seen {
            Some(first) if *first != settings => return true,
            Some(_) => {}
            None => seen = Some(settings),
        }
    }
    false
}

/// Which of the flags of long names `flags` the player of `params` reads, in one pass. The
/// engine's flags, and those that are not settings (`-ut`, `-ai`), are read by every player.
pub fn flags_read<'a>(
    params: &Params,
    flags: impl IntoIterator<Item = &'a str>,
) -> HashSet<String> {
    let mut probe = probe_command();
    flags
        .into_iter()
        .filter(|flag| engine_flags().contains(*flag) || changes_player(params, &mut probe, flag))
        .map(str::to_string)
        .collect()
}

/// Every settings flag (a long name) the player of `params` ignores.
pub fn flags_ignored(params: &Params) -> HashSet<String> {
    let command = Params::augment_args(Command::new("ysai"));
    let every = || command.get_arguments().filter_map(Arg::get_long);
    let read = flags_read(params, every());
    every()
        .filter(|flag| !read.contains(*flag))
        .map(str::to_string)
        .collect()
}

/// The flags in `given` (long names) that the player of `params` does not use.
pub fn flags_without_effect<'a>(params: &Params, given: &'a [String]) -> Vec<&'a str> {
    let read = flags_read(params, given.iter().map(String::as_str));
    given
        .iter()
        .map(String::as_str)
        .filter(|flag| !read.contains(*flag) && !COMPATIBILITY_FLAGS.contains(flag))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    fn unused(player: PlayerKind, style: Style, given: &[&str]) -> Vec<String> {
        let params = Params {
            player,
            turn: TurnFlags { style },
            ..Params::default()
        };
        let given = flags(given);
        flags_without_effect(&params, &given)
            .into_iter()
            .map(str::to_string)
            .collect()
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
        let command = Params::augment_args(Command::new("ysai"));
        let ignored: Vec<HashSet<String>> = every_player().iter().map(flags_ignored).collect();
        for arg in command.get_arguments() {
            let flag = arg.get_long().unwrap();
            let read = ignored.iter().any(|by_one| !by_one.contains(flag));
            assert!(read, "no player reads -{flag}");
        }
        for engine in ["threads", "neighbours", "seed"] {
            assert!(engine_flags().contains(engine), "{engine}");
            for player in every_player() {
                assert!(flags_without_effect(&player, &flags(&[engine])).is_empty());
            }
        }
    }

    #[test]
    fn a_flag_is_read_when_its_values_build_the_player_differently() {
        let ysai = Params::default();
        let reads_flag = |params: &Params, flag: &str| flags_read(params, [flag]).contains(flag);
        assert!(reads_flag(&ysai, "bw") && reads_flag(&ysai, "guard-ms"));
        assert!(reads_flag(&ysai, "no-keep-ready") && reads_flag(&ysai, "threads"));
        assert!(!reads_flag(&ysai, "late-game"), "the rush partner's alone");
        let original = Params {
            turn: TurnFlags {
                style: Style::Original,
            },
            ..Params::default()
        };
        // An off switch is read where the flag it turns off is.
        assert!(reads_flag(&original, "no-nc") && reads_flag(&original, "nc"));
        assert!(!reads_flag(&ysai, "no-nc"));
    }

    #[test]
    fn search_flags_are_reported_and_player_flags_are_not() {
        let given = ["bw", "threads", "bcm-", "t", "m"];
        let unused = |player| unused(player, Style::Original, &given);
        assert_eq!(unused(PlayerKind::Greedy), ["bw", "bcm-", "m"]);
        assert_eq!(unused(PlayerKind::Beam), ["m"]);
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
            let given = flags(&given);
            flags_without_effect(&params, &given)
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(full(Style::Original, 0), ["late-game", "guard-ms"]);
        assert_eq!(full(Style::Default, 1_000), ["dbw", "fsm", "late-game"]);
        assert_eq!(
            full(Style::Default, 0),
            ["dbw", "d", "hl", "fsm", "late-game"],
            "no search: its flags do nothing"
        );
        let rush = unused(PlayerKind::Rush, Style::Default, &given);
        assert_eq!(rush, ["bw", "bcw", "dbw", "d", "hl", "fsm", "guard-ms"]);
    }
}
