//! `ysai arena`: a local referee for CODE VS Reborn AIs, a match runner with Elo and SPRT
//! statistics, replays and transcripts.
//!
//! The referee ([`referee`]) plays one game between two processes ([`process`]) on the
//! project's simulator, with packs from [`packs`]; [`runner`] plays a match of many games, or
//! every pairing of a tournament's engines ([`tournament`]), and writes [`results`], each line
//! keeping its game's moves ([`compact`]) from which the replay is rebuilt; [`stats`] turns a
//! match's results into a verdict and [`standings`] a tournament's into a cross table and
//! ratings; [`replay`] records and shows games, [`html`] turns a replay into a page that
//! animates it, and [`report`] a match or a tournament into one page, whose games' replay
//! pages [`pages`] names and links to one another. AIs are reached only through their stdin
//! and stdout.

pub mod args;
mod charts;
pub mod check;
pub mod compact;
mod game_table;
pub mod html;
pub mod packs;
pub mod pages;
pub mod process;
pub mod rebuild;
pub mod record;
pub mod referee;
pub mod replay;
pub mod report;
pub mod results;
pub mod runner;
pub mod standings;
pub mod stats;
pub mod tournament;
pub mod verdict;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub use args::{ArenaAction, ArenaArgs, ReplayArgs};

use packs::{PackSource, Signature};
use referee::{ThinkingOrder, TimeControl};
use runner::MatchConfig;
use standings::Standings;
use tournament::Lineup;

use crate::search::timeman::{MIN_TURN_MS, QUALIFIER_TURN_MS};

/// Exit status of an interrupted match (128 + SIGINT, as shells report it).
const EXIT_INTERRUPTED: u8 = 130;

/// Players built into this binary: the name, and the flags it stands for.
const BUILT_IN_PLAYERS: &[(&str, &str)] = &[
    ("self", ""),
    ("random", "--ai random"),
    ("greedy", "--ai greedy"),
    ("beam", "--ai beam"),
];

/// The built-in player that writes a `-tm` line per turn, which replays keep.
const THINKING_PLAYER: &str = "self";

/// Runs `ysai arena ...`.
pub fn main(args: &ArenaArgs) -> ExitCode {
    let result = match &args.action {
        Some(ArenaAction::Stats { files, sprt }) => stats_command(files, sprt.as_ref()),
        Some(ArenaAction::Report {
            files,
            html,
            replays,
            sprt,
        }) => report_command(files, html, replays.as_deref(), sprt.as_ref()),
        Some(ArenaAction::Replay(replay)) => replay_command(replay),
        None => match &args.check {
            Some(command) => check::run(command, args),
            None => match_command(args),
        },
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("ysai arena: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Prints to stdout; a closed pipe (`| head`) is not an error worth a panic.
pub fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// The shell command of a player: a built-in name (with flags after it) runs this binary,
/// told the match's per-turn limit (`--turn-ms`) unless its flags set one, so that its time
/// budgets fit the match; a limit too short for it is an error before any game starts.
pub fn shell_command(command: &str, tc: TimeControl) -> Result<String, String> {
    let command = command.trim();
    if command.is_empty() {
        return Err("a player command is empty".into());
    }
    let (first, rest) = command
        .split_once(char::is_whitespace)
        .unwrap_or((command, ""));
    let Some((_, flags)) = BUILT_IN_PLAYERS.iter().find(|(name, _)| *name == first) else {
        return Ok(command.to_string());
    };
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find this program's path for `{first}`: {e}"))?;
    let turn_limit = match tc.turn_ms {
        Some(ms) if !names_flag(rest, &["--turn-ms", "-turn-ms"]) => {
            if ms < MIN_TURN_MS {
                return Err(format!(
                    "`{first}` cannot keep the {ms} ms turns of --tc: this program needs at least {MIN_TURN_MS} ms to answer"
                ));
            }
            format!("--turn-ms {ms}")
        }
        _ => String::new(),
    };
    let turn_lines = if first == THINKING_PLAYER && !names_flag(rest, &["--tm", "-tm"]) {
        "-tm"
    } else {
        ""
    };
    let words = [
        shell_quote(&exe.to_string_lossy()),
        flags.to_string(),
        turn_limit,
        turn_lines.to_string(),
        rest.trim().to_string(),
    ];
    Ok(words
        .into_iter()
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" "))
}

/// Whether a built-in player's flags give one of `spellings` themselves.
fn names_flag(flags: &str, spellings: &[&str]) -> bool {
    flags
        .split_whitespace()
        .filter_map(|w| w.split('=').next())
        .any(|flag| spellings.contains(&flag))
}

/// The name a player is shown by: what it is for a built-in player, else the name line it
/// gave, else its command.
pub fn shown_name(command: &str, name_line: Option<&str>) -> String {
    role_name(command)
        .or_else(|| name_line.map(str::to_string))
        .unwrap_or_else(|| command.trim().to_string())
}

/// What a built-in player is, as the user asked for it (`greedy`, `self --ai rush`): the
/// name results, replays and pages show for it, since every built-in player would give
/// this binary's own name. `None` for any other command.
pub fn role_name(command: &str) -> Option<String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let first = words.first()?;
    BUILT_IN_PLAYERS
        .iter()
        .any(|(name, _)| name == first)
        .then(|| words.join(" "))
}

/// `text` in single quotes for `sh`.
pub(crate) fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn pack_source(args: &ArenaArgs) -> Result<PackSource, String> {
    match &args.packs {
        Some(dir) => PackSource::from_dir(dir).map_err(|e| e.to_string()),
        None => Ok(PackSource::Seeded {
            base: args.seed,
            signature: if args.rule_text_packs {
                Signature::RuleText
            } else {
                Signature::Measured
            },
        }),
    }
}

fn match_command(args: &ArenaArgs) -> Result<ExitCode, String> {
    let lineup = Lineup::from_args(args)?;
    let shell_commands = lineup
        .engines
        .iter()
        .map(|e| shell_command(&e.command, args.tc))
        .collect::<Result<_, _>>()?;
    let config = MatchConfig {
        lineup,
        shell_commands,
        games: args.games,
        concurrency: args.concurrency as usize,
        tc: args.tc,
        order: if args.simultaneous {
            ThinkingOrder::Simultaneous
        } else {
            ThinkingOrder::Sequential
        },
        packs: pack_source(args)?,
        shard: args.shard,
        results: args.results.clone(),
        replays: args.replays.clone(),
        transcripts: args.transcripts.clone(),
        sprt: args.sprt,
    };
    note_reused_pack_files(&config);
    for engine in &config.lineup.engines {
        if let Some(note) = untold_turn_limit(&engine.command, config.tc) {
            eprintln!("{note}");
        }
    }
    runner::install_interrupt_handler();
    let outcome = runner::run(&config)?;
    match config.lineup.tournament {
        None => emit(&verdict::verdict(&outcome.wdl, config.sprt.as_ref())),
        Some(kind) => emit(&outcome.standings.text(Some(kind))),
    }
    if outcome.interrupted {
        eprintln!(
            "interrupted after {} game(s) of this run; run the same command again with --results to resume",
            outcome.played
        );
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}

/// A note for an outside command that is not told a turn limit other than the contest's 20 s:
/// like the official client, the arena sends no limit, and a program that budgets for 20 s
/// turns overruns shorter ones (an older ysai build at 45000+5000 spent two thirds of each
/// game below a reserve meant for the last 30 s of 180).
fn untold_turn_limit(command: &str, tc: TimeControl) -> Option<String> {
    let turn_ms = tc.turn_ms.filter(|&ms| ms != QUALIFIER_TURN_MS)?;
    let outside = role_name(command).is_none();
    (outside && !names_flag(command, &["--turn-ms", "-turn-ms"])).then(|| {
        format!(
            "note: `{}` is an outside command and is not told the {turn_ms} ms turn limit; a program that budgets for 20 s turns will overrun it (a ysai build takes --turn-ms {turn_ms})",
            command.trim()
        )
    })
}

/// Says so when a match has more games than pack files (the files are played again).
fn note_reused_pack_files(config: &MatchConfig) {
    if let PackSource::Files(files) = &config.packs {
        if (files.len() as u64) < config.games {
            eprintln!(
                "note: {} games but {} pack files: game k uses file k mod {}",
                config.games,
                files.len(),
                files.len()
            );
        }
    }
}

fn stats_command(files: &[PathBuf], sprt: Option<&stats::Sprt>) -> Result<ExitCode, String> {
    let merged = load_merged(files)?;
    if standings::is_tournament(&merged.games) {
        refuse_tournament_sprt(sprt, &merged.games)?;
        let standings = Standings::of_lines(&merged.games);
        emit(&standings.text(standings::kind_of(&merged.games)));
        return Ok(ExitCode::SUCCESS);
    }
    let sprt = verdict_sprt(sprt, &merged.games)?.map(|(sprt, _)| sprt);
    emit(&verdict::verdict(&merged.wdl, sprt.as_ref()));
    emit(&reasons_summary(&merged.games));
    emit(&players_summary(&merged.games));
    emit(&big_chains_summary(&merged.games));
    emit(&first_chains_compared(&merged.games));
    Ok(ExitCode::SUCCESS)
}

/// An error for an SPRT given for a tournament's games: it tests a match of two.
fn refuse_tournament_sprt(
    sprt: Option<&stats::Sprt>,
    games: &[results::GameLine],
) -> Result<(), String> {
    match sprt {
        Some(_) => Err(format!(
            "--sprt tests a match of two engines; these results are a tournament of {} engines",
            Standings::of_lines(games).engines().len()
        )),
        None => Ok(()),
    }
}

/// The SPRT a verdict on `games` follows: the one given, else the one the games were played
/// under (the last, with a note, if they were played under several); `None` if neither.
fn verdict_sprt(
    given: Option<&stats::Sprt>,
    games: &[results::GameLine],
) -> Result<Option<(stats::Sprt, report::SprtSource)>, String> {
    if let Some(sprt) = given {
        return Ok(Some((*sprt, report::SprtSource::Given)));
    }
    let recorded = results::recorded_sprts(games).map_err(|e| e.to_string())?;
    if recorded.len() > 1 {
        let specs: Vec<String> = recorded.iter().map(|s| s.to_string()).collect();
        eprintln!(
            "note: the games were played under {} SPRTs ({}); the last is followed",
            specs.len(),
            specs.join("; ")
        );
    }
    Ok(recorded
        .last()
        .map(|sprt| (*sprt, report::SprtSource::Recorded)))
}

/// `ysai arena report RESULTS... --html OUT`: the page, and a replay page for each game
/// whose replay is found or can be rebuilt from its results line.
fn report_command(
    files: &[PathBuf],
    out: &Path,
    replays: Option<&Path>,
    sprt: Option<&stats::Sprt>,
) -> Result<ExitCode, String> {
    let merged = load_merged(files)?;
    let tournament = standings::is_tournament(&merged.games);
    if tournament {
        refuse_tournament_sprt(sprt, &merged.games)?;
    }
    let sprt = match verdict_sprt(sprt, &merged.games)? {
        Some(chosen) => chosen,
        None => (report::DEFAULT_SPRT.parse()?, report::SprtSource::Default),
    };
    let dirs: Vec<PathBuf> = match replays {
        Some(dir) => vec![dir.to_path_buf()],
        None => files
            .iter()
            .map(|f| f.parent().unwrap_or(Path::new(".")).join("replays"))
            .collect(),
    };
    let layout = pages::PageLayout::of_report(out);
    let addresses = pages::write_report_pages(&layout, &dirs, &merged.games)?;
    let pages = addresses.iter().flatten().count();
    let games: Vec<report::ReportGame> = merged
        .games
        .into_iter()
        .zip(addresses)
        .map(|(line, replay_page)| report::ReportGame { line, replay_page })
        .collect();
    let page = if tournament {
        report::tournament_page(&games)
    } else {
        report::page(&games, &sprt.0, sprt.1)
    };
    html::write_page(out, &page)?;
    let linked = if pages == 0 {
        format!(
            "no replays found (looked in {}) and no game keeps its moves",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    } else {
        format!("{pages} replay pages in {}", layout.dir().display())
    };
    emit(&format!(
        "wrote {} ({} games; {linked})\n",
        out.display(),
        games.len()
    ));
    Ok(ExitCode::SUCCESS)
}

/// The games of `files` merged into one match, with a note on stderr for whatever the
/// merge had to decide.
fn load_merged(files: &[PathBuf]) -> Result<results::Merged, String> {
    let mut all = Vec::new();
    for file in files {
        let loaded = results::load(file).map_err(|e| e.to_string())?;
        if loaded.torn.is_some() {
            eprintln!(
                "note: {}: an incomplete last line (an interrupted write) is ignored",
                file.display()
            );
        }
        all.push(loaded.games);
    }
    let merged = results::merge(all);
    // A tournament's pairings are matches of their own, counted together by design.
    if merged.matches.len() > 1 && !standings::is_tournament(&merged.games) {
        eprintln!(
            "note: the files hold {} different matches; their games are counted together:",
            merged.matches.len()
        );
        for id in &merged.matches {
            eprintln!("  {id}");
        }
    }
    if merged.duplicates > 0 {
        eprintln!(
            "note: {} game(s) appear more than once and were counted once",
            merged.duplicates
        );
    }
    Ok(merged)
}

/// How the games ended: counts of each reason per winner.
fn reasons_summary(games: &[results::GameLine]) -> String {
    let mut counts = std::collections::BTreeMap::<(String, &str), u64>::new();
    for game in games {
        let who = game
            .winner
            .map_or("draw".to_string(), |w| format!("p{w} wins"));
        *counts.entry((who, game.reason.name())).or_default() += 1;
    }
    let items: Vec<String> = counts
        .iter()
        .map(|((who, reason), n)| format!("{who} by {reason}: {n}"))
        .collect();
    if items.is_empty() {
        String::new()
    } else {
        format!("Endings: {}\n", items.join(", "))
    }
}

/// Per player: mean thinking time per game, longest answer, mean longest chain, and the
/// highest peak resident set of a game where the games recorded it.
fn players_summary(games: &[results::GameLine]) -> String {
    if games.is_empty() {
        return String::new();
    }
    let n = games.len() as f64;
    let mut out = String::new();
    for p in 0..2 {
        let think: f64 = games.iter().map(|g| g.think_ms[p]).sum::<f64>() / n;
        let longest = games.iter().map(|g| g.max_think_ms[p]).fold(0.0, f64::max);
        let chains: f64 = games
            .iter()
            .map(|g| f64::from(g.max_chains[p]))
            .sum::<f64>()
            / n;
        out.push_str(&format!(
            "p{p}: thinking {think:.1} ms per game, longest answer {longest:.1} ms, longest chain {chains:.1} on average"
        ));
        if let Some(peak) = games.iter().filter_map(|g| g.peak_rss_kib[p]).max() {
            out.push_str(&format!(", peak RSS {:.0} MiB", peak as f64 / 1024.0));
        }
        out.push('\n');
    }
    out
}

/// Per player, over the games that record it: how often and how early the first chain of
/// `BIG_CHAIN` or more came, and how often it came before the opponent's.
fn big_chains_summary(games: &[results::GameLine]) -> String {
    let recorded: Vec<[Option<referee::BigChain>; 2]> =
        games.iter().filter_map(|g| g.first_big_chains).collect();
    if recorded.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    for p in 0..2 {
        let mine: Vec<referee::BigChain> = recorded.iter().filter_map(|r| r[p]).collect();
        let first = recorded
            .iter()
            .filter(|r| match (r[p], r[1 - p]) {
                (Some(a), Some(b)) => a.turn < b.turn,
                (Some(_), None) => true,
                _ => false,
            })
            .count();
        let mean = |f: fn(&referee::BigChain) -> u32| {
            mine.iter().map(|c| f64::from(f(c))).sum::<f64>() / mine.len() as f64
        };
        // With no such chain there is no turn or length to average.
        let averages = if mine.is_empty() {
            String::new()
        } else {
            format!(
                ", on turn {:.1} with {:.1} chains on average",
                mean(|c| c.turn),
                mean(|c| c.chains)
            )
        };
        out.push_str(&format!(
            "p{p}: first chain of {}+ in {} of {} games{averages}; before the opponent's in {first}\n",
            referee::BIG_CHAIN,
            mine.len(),
            recorded.len(),
        ));
    }
    out
}

/// Over the games in which both players fired a chain of `BIG_CHAIN` or more: how p0 fared
/// when its first was longer than p1's, as long, or shorter (the sizes decide most games).
fn first_chains_compared(games: &[results::GameLine]) -> String {
    let mut played = [0u32; 3];
    let mut won = [0u32; 3];
    for game in games {
        let Some([Some(mine), Some(theirs)]) = game.first_big_chains else {
            continue;
        };
        let row = match mine.chains.cmp(&theirs.chains) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 2,
        };
        played[row] += 1;
        won[row] += u32::from(game.winner == Some(0));
    }
    if played.iter().sum::<u32>() == 0 {
        return String::new();
    }
    format!(
        "p0's first chain of {}+ against p1's: longer in {} games (won {}), as long in {} (won {}), shorter in {} (won {})\n",
        referee::BIG_CHAIN,
        played[0],
        won[0],
        played[1],
        won[1],
        played[2],
        won[2],
    )
}

/// `ysai arena replay FILE [--game K] ...`: shows, checks or writes out a game.
fn replay_command(args: &ReplayArgs) -> Result<ExitCode, String> {
    let Shown {
        replay,
        rebuilt_from,
    } = load_replay(args)?;
    let label = match args.game {
        Some(game) => format!("{} game {game}", args.file.display()),
        None => args.file.display().to_string(),
    };
    if let Some(player) = args.input_of {
        return input_command(&replay, &label, usize::from(player), args.tc);
    }
    if args.json.is_none() && args.html.is_none() {
        return show_command(&replay, &label);
    }
    if let Some(out) = &args.json {
        replay.save(out)?;
        emit(&format!("wrote {}\n", out.display()));
    }
    if let Some(out) = &args.html {
        let context = match &rebuilt_from {
            Some((games, line)) => pages::lone_page_context(&args.file, games, line, out),
            None => html::PageContext {
                source: Some(args.file.display().to_string()),
                ..html::PageContext::default()
            },
        };
        html_command(&replay, &label, &context, out)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The game `ysai arena replay` shows: its replay and, when it was rebuilt from a results
/// file, that file's games and the game's line.
struct Shown {
    replay: replay::Replay,
    rebuilt_from: Option<(Vec<results::GameLine>, results::GameLine)>,
}

/// The replay FILE holds or, with --game, the one rebuilt from that game's results line.
fn load_replay(args: &ReplayArgs) -> Result<Shown, String> {
    let file = &args.file;
    let Some(game) = args.game else {
        let replay = replay::Replay::load(file).map_err(|e| match results::load(file) {
            Ok(loaded) if !loaded.games.is_empty() => format!(
                "{} is a results file: name the game with --game K (it holds {} games)",
                file.display(),
                loaded.games.len()
            ),
            _ => e,
        })?;
        return Ok(Shown {
            replay,
            rebuilt_from: None,
        });
    };
    let loaded = results::load(file).map_err(|e| e.to_string())?;
    let line = game_line(&loaded.games, game, args.pairing.as_deref())
        .map_err(|e| format!("{}: {e}", file.display()))?
        .clone();
    let replay = rebuild::rebuild(&line, args.packs.as_deref())
        .map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(Shown {
        replay,
        rebuilt_from: Some((loaded.games, line)),
    })
}

/// Game `game` of `games`, of `pairing` (`a-vs-b`) if given: a tournament has a game `game`
/// in every pairing, so it must say which.
fn game_line<'a>(
    games: &'a [results::GameLine],
    game: u64,
    pairing: Option<&str>,
) -> Result<&'a results::GameLine, String> {
    let found: Vec<&results::GameLine> = games
        .iter()
        .filter(|g| g.game == game)
        .filter(|g| pairing.is_none_or(|p| g.pairing_dir().as_deref() == Some(p)))
        .collect();
    let mut pairings: Vec<String> = found.iter().filter_map(|g| g.pairing_dir()).collect();
    pairings.sort();
    pairings.dedup();
    match (found.first(), pairings.len()) {
        (None, _) => Err(match pairing {
            Some(p) => format!("no game {game} of pairing {p} in it"),
            None => format!("no game {game} in it"),
        }),
        (Some(line), 0 | 1) => Ok(line),
        (Some(_), _) => Err(format!(
            "every pairing of its tournament has a game {game}; name one with --pairing ({})",
            pairings.join(", ")
        )),
    }
}

/// The game turn by turn, then the check that it re-simulates.
fn show_command(replay: &replay::Replay, label: &str) -> Result<ExitCode, String> {
    emit(&replay::render(replay));
    match replay::resimulate(replay) {
        Ok(()) => {
            emit("replay checked: every recorded position re-simulates exactly\n");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(format!("{label}: the replay does not re-simulate: {e}")),
    }
}

/// `--input-of P [--tc TC]`: the player's stdin, on stdout.
fn input_command(
    replay: &replay::Replay,
    label: &str,
    player: usize,
    tc: Option<TimeControl>,
) -> Result<ExitCode, String> {
    let recorded = replay
        .tc
        .as_deref()
        .map(|text| {
            text.parse::<TimeControl>()
                .map_err(|e| format!("{label}: its time control: {e}"))
        })
        .transpose()?;
    let tc = tc.or(recorded).ok_or_else(|| {
        format!(
            "{label}: the replay does not record its time control; give it with --tc (e.g. 180000+20000)"
        )
    })?;
    let input = replay::input_of(replay, player, tc).map_err(|e| format!("{label}: {e}"))?;
    emit(&input);
    Ok(ExitCode::SUCCESS)
}

/// `--html OUT`: the page; making it re-simulates the game.
fn html_command(
    replay: &replay::Replay,
    label: &str,
    context: &html::PageContext,
    out: &Path,
) -> Result<(), String> {
    let page = html::page(replay, context)
        .map_err(|e| format!("{label}: the replay cannot be shown: {e}"))?;
    html::write_page(out, &page)?;
    let turns = replay.turns.len();
    emit(&format!("wrote {} ({turns} turns)\n", out.display()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const UNLIMITED: TimeControl = TimeControl {
        game_ms: None,
        turn_ms: None,
    };

    fn shell_command(command: &str) -> Result<String, String> {
        super::shell_command(command, UNLIMITED)
    }

    fn game_with(first_big_chains: Option<[Option<(u32, u32)>; 2]>) -> results::GameLine {
        results::GameLine {
            match_id: "m".into(),
            game: 0,
            seed: Some(1),
            pack_file: None,
            names: [None, None],
            players: None,
            engines: None,
            winner: Some(0),
            reason: referee::Reason::Dead,
            losers: [None, Some(referee::Reason::Dead)],
            turn: 30,
            scores: [0, 0],
            max_chains: [0, 0],
            first_big_chains: first_big_chains.map(|pair| {
                pair.map(|c| c.map(|(turn, chains)| referee::BigChain { turn, chains }))
            }),
            think_ms: [0.0; 2],
            max_think_ms: [0.0; 2],
            peak_rss_kib: [None; 2],
            run: None,
            record: None,
        }
    }

    #[test]
    fn first_chains_are_compared_by_length_with_the_games_won() {
        let lost = |mut game: results::GameLine| {
            game.winner = Some(1);
            game
        };
        let games = [
            game_with(Some([Some((12, 14)), Some((11, 13))])),
            lost(game_with(Some([Some((12, 13)), Some((13, 13))]))),
            game_with(Some([Some((10, 13)), Some((12, 13))])),
            lost(game_with(Some([Some((10, 12)), Some((14, 15))]))),
            lost(game_with(Some([Some((10, 12)), Some((14, 15))]))),
            game_with(Some([None, Some((14, 15))])),
        ];
        assert_eq!(
            first_chains_compared(&games),
            "p0's first chain of 10+ against p1's: longer in 1 games (won 1), as long in 2 (won 1), shorter in 2 (won 0)\n"
        );
    }

    #[test]
    fn the_players_summary_gives_the_highest_peak_resident_set_where_games_record_it() {
        let with_rss = |rss: [Option<u64>; 2]| results::GameLine {
            peak_rss_kib: rss,
            ..game_with(None)
        };
        let games = [
            with_rss([Some(300 * 1024), None]),
            with_rss([Some(700 * 1024), None]),
            with_rss([None, None]),
        ];
        let summary = players_summary(&games);
        let lines: Vec<&str> = summary.lines().collect();
        assert!(lines[0].ends_with(", peak RSS 700 MiB"), "{}", lines[0]);
        assert!(lines[1].ends_with("on average"), "{}", lines[1]);
    }

    #[test]
    fn big_chains_are_summed_up_over_the_games_that_record_them() {
        let games = [
            game_with(Some([Some((11, 13)), Some((12, 14))])),
            game_with(Some([Some((13, 11)), None])),
            game_with(Some([None, Some((20, 10))])),
            game_with(None),
        ];
        let summary = big_chains_summary(&games);
        let lines: Vec<&str> = summary.lines().collect();
        assert_eq!(
            lines,
            [
                "p0: first chain of 10+ in 2 of 3 games, on turn 12.0 with 12.0 chains on average; before the opponent's in 2",
                "p1: first chain of 10+ in 2 of 3 games, on turn 16.0 with 12.0 chains on average; before the opponent's in 1",
            ]
        );
        assert_eq!(big_chains_summary(&games[3..]), "");
        assert_eq!(
            first_chains_compared(&games),
            "p0's first chain of 10+ against p1's: longer in 0 games (won 0), as long in 0 (won 0), shorter in 1 (won 1)\n"
        );
        assert_eq!(first_chains_compared(&games[1..]), "");
        let never = big_chains_summary(&games[1..2]);
        assert_eq!(
            never.lines().nth(1),
            Some("p1: first chain of 10+ in 0 of 1 games; before the opponent's in 0")
        );
    }

    #[test]
    fn built_in_players_are_told_the_turn_limit_unless_they_set_it() {
        let exe = shell_quote(&std::env::current_exe().unwrap().to_string_lossy());
        let tc = TimeControl {
            game_ms: Some(30_000),
            turn_ms: Some(2_000),
        };
        assert_eq!(
            super::shell_command("beam -bw 700", tc).unwrap(),
            format!("{exe} --ai beam --turn-ms 2000 -bw 700")
        );
        assert_eq!(
            super::shell_command("self -turn-ms 500", tc).unwrap(),
            format!("{exe} -tm -turn-ms 500")
        );
        assert_eq!(
            super::shell_command("self --turn-ms=500", tc).unwrap(),
            format!("{exe} -tm --turn-ms=500")
        );
        assert_eq!(
            super::shell_command("./other-ai", tc).unwrap(),
            "./other-ai"
        );
        let too_short = TimeControl {
            turn_ms: Some(MIN_TURN_MS - 1),
            ..tc
        };
        let refused = super::shell_command("greedy", too_short).unwrap_err();
        assert!(
            refused.contains(&format!("at least {MIN_TURN_MS} ms")),
            "{refused}"
        );
        assert!(super::shell_command("self --turn-ms 500", too_short).is_ok());
        assert!(super::shell_command("./other-ai", too_short).is_ok());
    }

    #[test]
    fn an_outside_command_not_told_a_short_turn_limit_gets_a_note() {
        let tc = |turn_ms| TimeControl {
            game_ms: Some(45_000),
            turn_ms,
        };
        let note = untold_turn_limit("/bin/ysai-old --threads 1", tc(Some(5_000)));
        assert!(note.is_some_and(|n| n.contains("--turn-ms 5000")));
        for (command, turn_ms) in [
            ("/bin/ysai-old --turn-ms 5000", Some(5_000)),
            ("/bin/ysai-old -turn-ms=5000", Some(5_000)),
            ("self --threads 1", Some(5_000)),
            ("greedy", Some(5_000)),
            ("/bin/ysai-old", Some(20_000)),
            ("/bin/ysai-old", None),
        ] {
            assert_eq!(untold_turn_limit(command, tc(turn_ms)), None, "{command}");
        }
    }

    #[test]
    fn built_in_players_run_this_binary() {
        let exe = shell_quote(&std::env::current_exe().unwrap().to_string_lossy());
        assert_eq!(shell_command("self").unwrap(), format!("{exe} -tm"));
        assert_eq!(
            shell_command("self -bw 2000").unwrap(),
            format!("{exe} -tm -bw 2000")
        );
        // Asked for already: not twice.
        assert_eq!(shell_command("self -tm").unwrap(), format!("{exe} -tm"));
        assert_eq!(shell_command("self --tm").unwrap(), format!("{exe} --tm"));
        assert_eq!(
            shell_command("greedy").unwrap(),
            format!("{exe} --ai greedy")
        );
        assert_eq!(
            shell_command("random --seed 3").unwrap(),
            format!("{exe} --ai random --seed 3")
        );
        assert_eq!(shell_command("./my-ai --fast").unwrap(), "./my-ai --fast");
        assert_eq!(shell_command("selfish").unwrap(), "selfish");
        assert!(shell_command("  ").is_err());
    }

    #[test]
    fn built_in_players_are_named_by_what_they_are() {
        assert_eq!(role_name("greedy").as_deref(), Some("greedy"));
        assert_eq!(
            role_name("  random   --seed 3 ").as_deref(),
            Some("random --seed 3")
        );
        assert_eq!(
            role_name("self --ai rush").as_deref(),
            Some("self --ai rush")
        );
        assert_eq!(role_name("./my-ai --fast"), None);
        assert_eq!(role_name("selfish"), None);
        assert_eq!(role_name(""), None);
        let build = Some("ysai-0.1.0-abc1234");
        assert_eq!(shown_name("self -bw 2000", build), "self -bw 2000");
        assert_eq!(shown_name("./ai", Some("tanzaku")), "tanzaku");
        assert_eq!(shown_name(" ./ai -x ", None), "./ai -x");
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("/a b/c'd"), r"'/a b/c'\''d'");
    }
}
