//! A match: many games, some at once, results appended as they finish, a live progress bar,
//! an SPRT that may stop early, and a clean stop on Ctrl-C that a rerun resumes.

use std::collections::{BTreeSet, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Mutex, Once};
use std::thread;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::args::Shard;
use super::compact::CompactRecord;
use super::packs::PackSource;
use super::referee::{self, GameError, GameRecord, GameSetup, Reason, ThinkingOrder, TimeControl};
use super::replay::Replay;
use super::results::{self, Builds, GameLine, ResultsWriter, RunInfo};
use super::shown_name;
use super::stats::{los, Elo, Sprt, SprtVerdict, Wdl};

/// Set by Ctrl-C: every game stops, every AI process is killed.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C (SIGINT, and SIGTERM) stop the arena cleanly instead of killing it, so that
/// no AI process is left behind.
pub fn install_interrupt_handler() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        if let Err(e) = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst)) {
            eprintln!("ysai arena: cannot handle Ctrl-C ({e}); an interrupted match may leave AI processes behind");
        }
    });
}

pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Everything a match needs.
pub struct MatchConfig {
    /// The commands as the user wrote them (recorded and shown).
    pub commands: [String; 2],
    /// The shell commands that run (built-in names resolved).
    pub shell_commands: [String; 2],
    pub games: u64,
    pub concurrency: usize,
    pub tc: TimeControl,
    pub order: ThinkingOrder,
    pub packs: PackSource,
    pub shard: Option<Shard>,
    pub results: Option<PathBuf>,
    pub replays: Option<PathBuf>,
    pub transcripts: Option<PathBuf>,
    pub sprt: Option<Sprt>,
}

impl MatchConfig {
    /// What makes two runs the same match (the game count and shard may differ).
    pub fn match_id(&self) -> String {
        let order = match self.order {
            ThinkingOrder::Sequential => "sequential",
            ThinkingOrder::Simultaneous => "simultaneous",
        };
        format!(
            "p0={} | p1={} | packs={} | tc={} | {order}",
            self.commands[0],
            self.commands[1],
            self.packs.describe(),
            self.tc
        )
    }

    /// What this run runs, as every line it writes records it.
    fn run_info(&self) -> RunInfo {
        RunInfo::now(
            self.tc.to_string(),
            self.sprt.as_ref(),
            self.commands.clone(),
            self.packs.origin(),
        )
    }
}

/// How a match ended.
#[derive(Debug)]
pub struct MatchOutcome {
    pub wdl: Wdl,
    /// Games played by this run (not counting resumed ones).
    pub played: u64,
    pub verdict: Option<SprtVerdict>,
    pub interrupted: bool,
}

/// A game finished by a worker.
struct Finished {
    game: u64,
    line: GameLine,
    /// Why a player crashed or did not start, with the end of its stderr.
    notes: Vec<String>,
}

/// Crash notes shown per run (the results file has every game).
const MAX_NOTES: usize = 3;

/// Plays the match; results already in the results file are counted and not replayed.
pub fn run(config: &MatchConfig) -> Result<MatchOutcome, String> {
    let match_id = config.match_id();
    let (previous, writer) = open_results(config, &match_id)?;
    for dir in [&config.replays, &config.transcripts].into_iter().flatten() {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let queue = games_to_play(config, &previous);
    let builds = builds_of(config, &previous, !queue.is_empty())?;
    let mut tally = Tally::new(config, &previous, writer, builds, queue.len() as u64);
    if !tally.decided() {
        let stop = AtomicBool::new(false);
        let queue = Mutex::new(queue);
        let run = Played {
            match_id,
            info: config.run_info(),
        };
        let (sender, receiver) = mpsc::channel::<Result<Finished, String>>();
        thread::scope(|scope| {
            for _ in 0..config.concurrency {
                let sender = sender.clone();
                let (queue, stop, run) = (&queue, &stop, &run);
                scope.spawn(move || worker(config, run, queue, stop, &sender));
            }
            drop(sender);
            for message in receiver {
                if !tally.record(message) {
                    stop.store(true, Ordering::SeqCst);
                }
            }
        });
    }
    tally.finish()
}

/// What every line of this run records: the match and the run.
struct Played {
    match_id: String,
    info: RunInfo,
}

/// The builds the games already played were played by, checked against the builds the
/// players are now (asked for their name lines when games are left to play): a resumed
/// match must not mix two builds.
fn builds_of(config: &MatchConfig, previous: &[GameLine], asking: bool) -> Result<Builds, String> {
    let mut builds = Builds::default();
    for game in previous {
        builds
            .check(&game.names, &config.commands)
            .map_err(|e| e.to_string())?;
    }
    if asking && !previous.is_empty() {
        let now =
            [0, 1].map(|p| referee::name_line(&config.shell_commands[p], config.tc, &interrupted));
        builds
            .check(&now, &config.commands)
            .map_err(|e| e.to_string())?;
    }
    Ok(builds)
}

/// The games of this run: those of the shard not yet in the results file, in order.
fn games_to_play(config: &MatchConfig, previous: &[GameLine]) -> VecDeque<u64> {
    let done: BTreeSet<u64> = previous.iter().map(|g| g.game).collect();
    let queue: VecDeque<u64> = (0..config.games)
        .filter(|&g| config.shard.is_none_or(|s| s.has(g)) && !done.contains(&g))
        .collect();
    if !done.is_empty() {
        eprintln!(
            "resuming: {} game(s) already in the results file, {} to play",
            done.len(),
            queue.len()
        );
    }
    queue
}

/// What the match has produced so far, on the main thread: results written, statistics, the
/// progress bar, and whether the SPRT has decided.
struct Tally<'a> {
    config: &'a MatchConfig,
    writer: Option<ResultsWriter>,
    builds: Builds,
    bar: ProgressBar,
    wdl: Wdl,
    played: u64,
    notes_shown: usize,
    verdict: Option<SprtVerdict>,
    failure: Option<String>,
}

impl<'a> Tally<'a> {
    fn new(
        config: &'a MatchConfig,
        previous: &[GameLine],
        writer: Option<ResultsWriter>,
        builds: Builds,
        games: u64,
    ) -> Self {
        let mut wdl = Wdl::default();
        for game in previous {
            wdl.add(game.p0_won());
        }
        let bar = progress_bar(games);
        bar.set_message(status(&wdl, config.sprt.as_ref()));
        Tally {
            config,
            writer,
            builds,
            bar,
            verdict: config.sprt.map(|s| s.verdict(s.llr(&wdl))),
            wdl,
            played: 0,
            notes_shown: 0,
            failure: None,
        }
    }

    /// The SPRT has crossed a bound.
    fn decided(&self) -> bool {
        self.verdict.is_some_and(|v| v != SprtVerdict::Continue)
    }

    /// Takes one worker's message; false when the match must stop (decided or failed).
    fn record(&mut self, message: Result<Finished, String>) -> bool {
        let finished = match message {
            Ok(finished) => finished,
            Err(e) => return self.fail(e),
        };
        // A player rebuilt while the match runs: its games would mix two builds.
        let commands = &self.config.commands;
        if let Err(e) = self.builds.check(&finished.line.names, commands) {
            return self.fail(format!("game {}: {e}", finished.game));
        }
        if let Some(writer) = self.writer.as_mut() {
            if let Err(e) = writer.append(&finished.line) {
                return self.fail(e.to_string());
            }
        }
        self.played += 1;
        self.wdl.add(finished.line.p0_won());
        report_game(&self.bar, finished.game, &finished.line);
        for note in &finished.notes {
            if self.notes_shown < MAX_NOTES {
                say(&self.bar, note);
                self.notes_shown += 1;
            }
        }
        self.bar.inc(1);
        self.bar
            .set_message(status(&self.wdl, self.config.sprt.as_ref()));
        self.verdict = self.config.sprt.map(|s| s.verdict(s.llr(&self.wdl)));
        !self.decided()
    }

    fn fail(&mut self, error: String) -> bool {
        self.failure.get_or_insert(error);
        false
    }

    fn finish(self) -> Result<MatchOutcome, String> {
        self.bar.finish_and_clear();
        if let Some(e) = self.failure {
            return Err(e);
        }
        Ok(MatchOutcome {
            wdl: self.wdl,
            played: self.played,
            verdict: self.verdict,
            interrupted: interrupted(),
        })
    }
}

/// The games already in the results file, and the writer that appends to it.
fn open_results(
    config: &MatchConfig,
    match_id: &str,
) -> Result<(Vec<GameLine>, Option<ResultsWriter>), String> {
    let Some(path) = &config.results else {
        return Ok((Vec::new(), None));
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let loaded = if path.exists() {
        results::load(path).map_err(|e| e.to_string())?
    } else {
        results::Loaded::default()
    };
    results::check_same_match(&loaded.games, match_id).map_err(|e| e.to_string())?;
    if loaded.torn.is_some() {
        eprintln!(
            "{}: dropping an incomplete last line (an interrupted write)",
            path.display()
        );
    }
    let writer = ResultsWriter::open(path, loaded.torn).map_err(|e| e.to_string())?;
    Ok((loaded.games, Some(writer)))
}

/// Plays games from the queue until it is empty or the match stops.
fn worker(
    config: &MatchConfig,
    run: &Played,
    queue: &Mutex<VecDeque<u64>>,
    stop: &AtomicBool,
    results: &mpsc::Sender<Result<Finished, String>>,
) {
    let cancelled = || stop.load(Ordering::SeqCst) || interrupted();
    loop {
        if cancelled() {
            return;
        }
        let Some(game) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
            return;
        };
        match play_one(config, run, game, &cancelled) {
            Ok(Some(finished)) => {
                if results.send(Ok(finished)).is_err() {
                    return;
                }
            }
            Ok(None) => return,
            Err(e) => {
                let _ = results.send(Err(e));
                return;
            }
        }
    }
}

/// Plays game `game`; `None` if it was cancelled.
fn play_one(
    config: &MatchConfig,
    run: &Played,
    game: u64,
    cancelled: &dyn Fn() -> bool,
) -> Result<Option<Finished>, String> {
    let packs = config.packs.game(game).map_err(|e| e.to_string())?;
    let stderr = config
        .transcripts
        .as_ref()
        .map(|dir| [0, 1].map(|p| Some(game_file(dir, game, &format!("p{p}.stderr")))))
        .unwrap_or([None, None]);
    let setup = GameSetup {
        packs: &packs.packs,
        commands: [&config.shell_commands[0], &config.shell_commands[1]],
        tc: config.tc,
        order: config.order,
        stderr,
        max_turns: u32::MAX,
    };
    let record = match referee::play_game(&setup, cancelled) {
        Ok(record) => record,
        Err(GameError::Cancelled) => return Ok(None),
        Err(e) => return Err(format!("game {game}: {e}")),
    };
    save_files(config, game, &packs.packs, &record)?;
    let notes = crash_notes(game, &record);
    let line = GameLine {
        match_id: run.match_id.clone(),
        game,
        seed: packs.seed,
        pack_file: packs.file,
        names: record.names.clone(),
        players: Some([0, 1].map(|p| shown_name(&config.commands[p], record.names[p].as_deref()))),
        engines: None,
        winner: record.result.winner,
        reason: record.result.reason,
        losers: record.result.losers,
        turn: record.result.turn,
        scores: record.scores,
        max_chains: record.max_chains,
        first_big_chains: Some(record.first_big_chains),
        think_ms: record.think_ms,
        max_think_ms: record.max_think_ms,
        run: Some(run.info.clone()),
        record: Some(CompactRecord::of(&record.turns)),
    };
    Ok(Some(Finished { game, line, notes }))
}

/// A note for each player that crashed or never gave its name, with its last stderr lines:
/// usually a wrong command or flag.
pub fn crash_notes(game: u64, record: &GameRecord) -> Vec<String> {
    (0..2)
        .filter(|&p| {
            matches!(
                record.result.losers[p],
                Some(Reason::Crash | Reason::NoName | Reason::BadName)
            )
        })
        .map(|p| {
            let reason = record.result.losers[p].map_or("", Reason::name);
            let tail = &record.stderr_tails[p];
            let stderr = if tail.is_empty() {
                "(nothing on stderr)".to_string()
            } else {
                format!(
                    "its stderr ended with:\n    {}",
                    tail.replace('\n', "\n    ")
                )
            };
            format!(
                "game {game}: p{p} lost by {reason} on turn {}; {stderr}",
                record.result.turn
            )
        })
        .collect()
}

/// A line above the progress bar, or on stderr when no bar is drawn.
fn say(bar: &ProgressBar, text: &str) {
    if bar.is_hidden() {
        eprintln!("{text}");
    } else {
        bar.println(text);
    }
}

/// The replay and the two transcripts of a game, if asked for.
fn save_files(
    config: &MatchConfig,
    game: u64,
    packs: &[crate::sim::Pack; crate::sim::PACKS_PER_GAME],
    record: &GameRecord,
) -> Result<(), String> {
    if let Some(dir) = &config.replays {
        let commands = [config.commands[0].as_str(), config.commands[1].as_str()];
        Replay::new(packs, commands, config.tc, record).save(&game_file(dir, game, "json"))?;
    }
    if let Some(dir) = &config.transcripts {
        for player in 0..2 {
            let path = game_file(dir, game, &format!("p{player}.stdin.txt"));
            fs::write(&path, &record.transcripts[player])
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// `DIR/game-000042.EXT`.
pub fn game_file(dir: &Path, game: u64, ext: &str) -> PathBuf {
    dir.join(format!("game-{game:06}.{ext}"))
}

fn progress_bar(games: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{bar:30.cyan/blue} {pos}/{len} games  {msg}  [{elapsed_precise}, eta {eta}]",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style.progress_chars("=> "));
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// A game's result as one line, for logs when no progress bar is drawn (e.g. in a batch job).
fn report_game(bar: &ProgressBar, game: u64, line: &GameLine) {
    if !bar.is_hidden() {
        return;
    }
    let outcome = match line.winner {
        Some(w) => format!("p{w} wins"),
        None => "draw".into(),
    };
    eprintln!(
        "game {game}: {outcome} ({}, turn {}, scores {} - {})",
        line.reason, line.turn, line.scores[0], line.scores[1]
    );
}

/// `W-L-D`, Elo and, with an SPRT, the LLR: the progress bar's message.
pub fn status(wdl: &Wdl, sprt: Option<&Sprt>) -> String {
    let mut text = format!("+{} -{} ={}", wdl.wins, wdl.losses, wdl.draws);
    match Elo::from_wdl(wdl) {
        Some(elo) if elo.elo.is_finite() => {
            let error = number(elo.error());
            text.push_str(&format!(
                "  Elo {:.1} +/- {}",
                elo.elo,
                error.trim_start_matches('+')
            ))
        }
        Some(elo) => text.push_str(&format!("  Elo {}", number(elo.elo))),
        None => {}
    }
    if let Some(sprt) = sprt {
        text.push_str(&format!(
            "  LLR {:.2} ({:.2}, {:.2})",
            sprt.llr(wdl),
            sprt.lower_bound(),
            sprt.upper_bound()
        ));
    }
    text
}

/// The verdict of a match as printed at its end and by `arena stats`.
pub fn verdict(wdl: &Wdl, sprt: Option<&Sprt>) -> String {
    let mut out = format!(
        "Games: {}  Wins: {}  Losses: {}  Draws: {}  (from p0's side)\n",
        wdl.games(),
        wdl.wins,
        wdl.losses,
        wdl.draws
    );
    match Elo::from_wdl(wdl) {
        Some(elo) if elo.elo.is_finite() => out.push_str(&format!(
            "Elo: {:.1} +/- {} (95%: {} .. {})  LOS: {}  Draw ratio: {:.1}%\n",
            elo.elo,
            number(elo.error()).trim_start_matches('+'),
            number(elo.low),
            number(elo.high),
            los(wdl).map_or("-".to_string(), |l| format!("{:.1}%", 100.0 * l)),
            100.0 * wdl.draw_ratio()
        )),
        Some(elo) => out.push_str(&format!(
            "Elo: {} (one side scored every point: no finite estimate)  LOS: {}\n",
            number(elo.elo),
            los(wdl).map_or("-".to_string(), |l| format!("{:.1}%", 100.0 * l)),
        )),
        None => out.push_str("Elo: no games\n"),
    }
    if let Some(sprt) = sprt {
        let llr = sprt.llr(wdl);
        out.push_str(&format!(
            "SPRT: elo0={} elo1={} alpha={} beta={} ({} Elo)  LLR {:.2} ({:.2}, {:.2})  {}\n",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.model.name(),
            llr,
            sprt.lower_bound(),
            sprt.upper_bound(),
            sprt.verdict(llr)
        ));
    }
    out
}

/// An Elo value with one decimal; infinite ones as `+inf` / `-inf`.
pub(super) fn number(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.1}")
    } else if value > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}
