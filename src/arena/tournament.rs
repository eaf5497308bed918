//! Who plays whom: the engines of a match or a tournament, each a name and a command
//! (`--engine name=NAME cmd=COMMAND`, or the two players of `--p0` and `--p1`), and the pairs
//! of them that meet. Every pairing is played as a match of two is: game k on the packs of
//! game k, the pairing's first engine as p0.

use super::args::ArenaArgs;
pub use super::args::TournamentKind;

/// An engine: what it is called, and the command that runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Engine {
    /// Its name in results, tables and pages; unique among the engines of a run.
    pub name: String,
    /// The command as given (a built-in player or a shell command), with `--each`'s flags.
    pub command: String,
    /// Named with `--engine name=...`. A player of `--p0` / `--p1` is named after its command
    /// and shown as before: what a built-in player is, else the name line it gives.
    pub named: bool,
}

impl Engine {
    /// How a match id names it: its command, and its name when it has one, so that renaming
    /// an engine makes another match.
    pub fn id(&self) -> String {
        if self.named {
            format!("{} ({})", self.name, self.command)
        } else {
            self.command.clone()
        }
    }

    /// The name it is shown by in a game in which it gave `name_line`.
    pub fn shown(&self, name_line: Option<&str>) -> String {
        if self.named {
            self.name.clone()
        } else {
            super::shown_name(&self.command, name_line)
        }
    }
}

/// The engines of a run and how they meet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lineup {
    pub engines: Vec<Engine>,
    /// How a tournament pairs them; `None` for a match of two.
    pub tournament: Option<TournamentKind>,
}

impl Lineup {
    /// The lineup of `--p0`/`--p1` or of `--engine` (with `--each` and `--tournament`); an
    /// error that says what is wrong with them.
    pub fn from_args(args: &ArenaArgs) -> Result<Lineup, String> {
        let each = args.each.as_deref().unwrap_or("");
        if args.engines.is_empty() {
            return match_lineup(args, each);
        }
        // `--engine` takes two values each time: its name and its command, in either order.
        let engines = args
            .engines
            .chunks(2)
            .map(|tokens| parse_engine(tokens, each))
            .collect::<Result<Vec<_>, _>>()?;
        check_names(&engines)?;
        let tournament = tournament_kind(args.tournament, engines.len())?;
        if tournament.is_some() && args.sprt.is_some() {
            return Err(
                "--sprt tests a match of two engines; a tournament has no SPRT (its standings give each engine's Elo with an error bar)"
                    .into(),
            );
        }
        Ok(Lineup {
            engines,
            tournament,
        })
    }

    /// The pairs of engines that meet, the first of each as p0: in a gauntlet the first
    /// engine against each other, in a round robin each engine against each later one.
    pub fn pairings(&self) -> Vec<[usize; 2]> {
        let n = self.engines.len();
        match self.tournament {
            None | Some(TournamentKind::Gauntlet) => (1..n).map(|b| [0, b]).collect(),
            Some(TournamentKind::RoundRobin) => (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| [a, b]))
                .collect(),
        }
    }

    /// How errors name engine `index`: a match's player by its seat and command
    /// (``p1 (`./old`)``), a named engine by its name and command.
    pub fn label(&self, index: usize) -> String {
        let engine = &self.engines[index];
        if engine.named {
            format!("engine {} (`{}`)", engine.name, engine.command)
        } else {
            format!("p{index} (`{}`)", engine.command)
        }
    }

    /// Where a pairing keeps its replays and transcripts within their directories: a
    /// tournament gives each pairing a directory of its own, since each has a game 0.
    pub fn pairing_dir(&self, pairing: [usize; 2]) -> Option<String> {
        self.tournament
            .map(|_| pairing_dir(pairing.map(|e| self.engines[e].name.as_str())))
    }
}

/// The directory of a tournament's pairing: `a-vs-b`.
pub fn pairing_dir(names: [&str; 2]) -> String {
    format!("{}-vs-{}", names[0], names[1])
}

/// The names of a match's two players (`--p0`, `--p1`): their commands, or `p0` and `p1`
/// when both run the same command.
pub fn match_names(commands: [&str; 2]) -> [String; 2] {
    let commands = commands.map(str::trim);
    if commands[0] == commands[1] {
        ["p0".to_string(), "p1".to_string()]
    } else {
        commands.map(str::to_string)
    }
}

/// The two players of `--p0` and `--p1`.
fn match_lineup(args: &ArenaArgs, each: &str) -> Result<Lineup, String> {
    let (Some(p0), Some(p1)) = (&args.p0, &args.p1) else {
        return Err("a match needs --p0 CMD and --p1 CMD, or two or more --engine name=NAME cmd=CMD (or --check CMD, or `stats` / `replay`); see `ysai arena --help`".into());
    };
    if let Some(kind) = args.tournament {
        return Err(format!(
            "--tournament {} pairs named engines (--engine name=NAME cmd=CMD, three or more); --p0 and --p1 play a match of two",
            kind.name()
        ));
    }
    let commands = [p0, p1].map(|c| with_flags(c, each));
    let names = match_names([&commands[0], &commands[1]]);
    let engines = [0, 1].map(|p| Engine {
        name: names[p].clone(),
        command: commands[p].clone(),
        named: false,
    });
    Ok(Lineup {
        engines: engines.into(),
        tournament: None,
    })
}

/// `command` with `each` (flags for every engine) after it.
fn with_flags(command: &str, each: &str) -> String {
    [command.trim(), each.trim()]
        .into_iter()
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One `--engine`'s values: `name=NAME` and `cmd=COMMAND`, in any order.
fn parse_engine(tokens: &[String], each: &str) -> Result<Engine, String> {
    let given = tokens.join(" ");
    let mut name = None;
    let mut command = None;
    for token in tokens {
        let Some((key, value)) = token.split_once('=') else {
            return Err(format!(
                "--engine {given}: `{token}` is not KEY=VALUE; an engine is name=NAME cmd=COMMAND"
            ));
        };
        let slot = match key.trim() {
            "name" => &mut name,
            "cmd" => &mut command,
            other => {
                return Err(format!(
                    "--engine {given}: unknown key `{other}`; an engine is name=NAME cmd=COMMAND"
                ))
            }
        };
        if slot.replace(value.trim().to_string()).is_some() {
            return Err(format!("--engine {given}: `{key}` is given twice"));
        }
    }
    let name = name
        .filter(|n| !n.is_empty())
        .ok_or_else(|| format!("--engine {given}: the engine has no name (name=NAME)"))?;
    if let Some(bad) = name.chars().find(|&c| !name_char(c)) {
        return Err(format!(
            "--engine {given}: the name `{name}` has `{bad}`; a name is letters, digits and . _ + - (it names tables' columns and directories)"
        ));
    }
    let command = command
        .filter(|c| !c.is_empty())
        .ok_or_else(|| format!("--engine {given}: engine `{name}` has no command (cmd=COMMAND)"))?;
    Ok(Engine {
        name,
        command: with_flags(&command, each),
        named: true,
    })
}

/// Whether `c` may be part of an engine's name.
fn name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '+' | '-')
}

/// An error for a name given to two engines: their games, rows and directories would mix.
fn check_names(engines: &[Engine]) -> Result<(), String> {
    for (i, engine) in engines.iter().enumerate() {
        if engines[..i].iter().any(|e| e.name == engine.name) {
            return Err(format!(
                "two engines are named `{}`; every engine needs a name of its own",
                engine.name
            ));
        }
    }
    Ok(())
}

/// How `count` named engines meet: two play a match (`--tournament` is refused: there is
/// nothing to pair), three or more a tournament, a round robin unless `given` says otherwise.
fn tournament_kind(
    given: Option<TournamentKind>,
    count: usize,
) -> Result<Option<TournamentKind>, String> {
    match (count, given) {
        (0 | 1, _) => Err(format!(
            "{count} engine given; a match needs two (--engine name=NAME cmd=CMD, once for each)"
        )),
        (2, Some(kind)) => Err(format!(
            "--tournament {} needs three or more engines; two engines play a match (leave --tournament out)",
            kind.name()
        )),
        (2, None) => Ok(None),
        (_, kind) => Ok(Some(kind.unwrap_or(TournamentKind::RoundRobin))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    fn lineup(count: usize, tournament: Option<TournamentKind>) -> Lineup {
        let engines = (0..count)
            .map(|i| Engine {
                name: format!("e{i}"),
                command: "greedy".into(),
                named: true,
            })
            .collect();
        Lineup {
            engines,
            tournament,
        }
    }

    #[test]
    fn an_engine_is_a_name_and_a_command_with_the_common_flags() {
        let engine =
            parse_engine(&tokens(&["cmd=self -bw 700", "name=wide"]), "--threads 1").unwrap();
        assert_eq!(
            engine,
            Engine {
                name: "wide".into(),
                command: "self -bw 700 --threads 1".into(),
                named: true,
            }
        );
        assert_eq!(engine.id(), "wide (self -bw 700 --threads 1)");
        assert_eq!(engine.shown(Some("ysai-1")), "wide");
    }

    #[test]
    fn a_bad_engine_is_explained() {
        for (words, needle) in [
            (&["name=a"][..], "has no command"),
            (&["cmd=greedy"], "has no name"),
            (&["name=", "cmd=greedy"], "has no name"),
            (&["name=a", "cmd= "], "has no command"),
            (&["name=a", "greedy"], "`greedy` is not KEY=VALUE"),
            (&["name=a", "cmd=x", "tc=1"], "unknown key `tc`"),
            (&["name=a", "name=b", "cmd=x"], "`name` is given twice"),
            (&["name=a b", "cmd=x"], "has ` `"),
            (&["name=a/b", "cmd=x"], "has `/`"),
        ] {
            let err = parse_engine(&tokens(words), "").unwrap_err();
            assert!(err.contains(needle), "{words:?}: {err}");
        }
    }

    #[test]
    fn two_engines_play_a_match_and_more_a_tournament() {
        assert_eq!(tournament_kind(None, 2), Ok(None));
        assert_eq!(
            tournament_kind(None, 3),
            Ok(Some(TournamentKind::RoundRobin))
        );
        assert_eq!(
            tournament_kind(Some(TournamentKind::Gauntlet), 4),
            Ok(Some(TournamentKind::Gauntlet))
        );
        let err = tournament_kind(Some(TournamentKind::Gauntlet), 2).unwrap_err();
        assert!(err.contains("three or more engines"), "{err}");
        assert!(tournament_kind(None, 1).unwrap_err().contains("needs two"));
    }

    #[test]
    fn duplicate_names_are_refused() {
        let mut engines = lineup(3, None).engines;
        assert!(check_names(&engines).is_ok());
        engines[2].name = "e0".into();
        let err = check_names(&engines).unwrap_err();
        assert!(err.contains("two engines are named `e0`"), "{err}");
    }

    #[test]
    fn pairings_of_each_kind() {
        assert_eq!(lineup(2, None).pairings(), [[0, 1]]);
        assert_eq!(
            lineup(4, Some(TournamentKind::Gauntlet)).pairings(),
            [[0, 1], [0, 2], [0, 3]]
        );
        assert_eq!(
            lineup(4, Some(TournamentKind::RoundRobin)).pairings(),
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
    }

    #[test]
    fn a_match_names_its_players_after_their_commands() {
        assert_eq!(match_names(["greedy", " ./old "]), ["greedy", "./old"]);
        assert_eq!(match_names(["self", "self"]), ["p0", "p1"]);
        let two = lineup(2, None);
        assert_eq!(two.pairing_dir([0, 1]), None);
        let three = lineup(3, Some(TournamentKind::RoundRobin));
        assert_eq!(three.pairing_dir([1, 2]).as_deref(), Some("e1-vs-e2"));
        assert_eq!(three.label(1), "engine e1 (`greedy`)");
        let unnamed = Engine {
            named: false,
            ..three.engines[0].clone()
        };
        let players = Lineup {
            engines: vec![unnamed.clone(), unnamed],
            tournament: None,
        };
        assert_eq!(players.label(1), "p1 (`greedy`)");
        assert_eq!(players.engines[0].id(), "greedy");
    }
}
