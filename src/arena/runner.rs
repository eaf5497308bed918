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
use super::results::{self, Builds, GameLine, ResultsWriter, RunInfo, TournamentRun};
use super::standings::Standings;
use super::stats::{Sprt, SprtVerdict, Wdl};
use super::tournament::Lineup;
use super::verdict::status;

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

/// Everything a match, or a tournament, needs.
pub struct MatchConfig {
    /// The engines and how they meet.
    pub lineup: Lineup,
    /// Each engine's shell command (built-in names resolved), in the lineup's order.
    pub shell_commands: Vec<String>,
    /// Games of each pairing.
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
    /// What makes two runs' games of `pairing` the same match (the game count and shard may
    /// differ).
    pub fn match_id(&self, pairing: [usize; 2]) -> String {
        let order = match self.order {
            ThinkingOrder::Sequential => "sequential",
            ThinkingOrder::Simultaneous => "simultaneous",
        };
        let [p0, p1] = pairing.map(|e| self.lineup.engines[e].id());
        format!(
            "p0={p0} | p1={p1} | packs={} | tc={} | {order}",
            self.packs.describe(),
            self.tc
        )
    }

    /// The pairings of the lineup, each with what its games' lines record.
    fn pairings(&self) -> Vec<Pairing> {
        let run = RunInfo::now(
            self.tc.to_string(),
            self.sprt.as_ref(),
            Default::default(),
            self.packs.origin(),
        );
        let tournament = self.lineup.tournament.map(|kind| TournamentRun {
            kind,
            engines: self.lineup.engines.iter().map(|e| e.name.clone()).collect(),
        });
        self.lineup
            .pairings()
            .into_iter()
            .map(|engines| Pairing {
                engines,
                match_id: self.match_id(engines),
                info: RunInfo {
                    commands: engines.map(|e| self.lineup.engines[e].command.clone()),
                    tournament: tournament.clone(),
                    ..run.clone()
                },
            })
            .collect()
    }

    /// Where a pairing's files go in `dir` (of replays or transcripts).
    fn files_dir(&self, dir: &Path, pairing: [usize; 2]) -> PathBuf {
        files_dir(dir, self.lineup.pairing_dir(pairing).as_deref())
    }

    /// How messages name game `game` of `pairing`: `game 3`, in a tournament
    /// `game 3 (a vs b)`.
    fn game_label(&self, pairing: [usize; 2], game: u64) -> String {
        match self.lineup.tournament {
            None => format!("game {game}"),
            Some(_) => {
                let [a, b] = pairing.map(|e| self.lineup.engines[e].name.as_str());
                format!("game {game} ({a} vs {b})")
            }
        }
    }
}

/// A pairing of the lineup as this run plays it: its engines (p0's first), and what each of
/// its games' lines records.
struct Pairing {
    engines: [usize; 2],
    match_id: String,
    info: RunInfo,
}

/// The pairing of `pairings` that played `game`, by its match.
fn pairing_of<'a>(pairings: &'a [Pairing], game: &GameLine) -> Option<&'a Pairing> {
    pairings.iter().find(|p| p.match_id == game.match_id)
}

/// How a match (or a tournament) ended.
#[derive(Debug)]
pub struct MatchOutcome {
    /// Every game from p0's side: a match's score.
    pub wdl: Wdl,
    /// Every engine's games: a tournament's standings.
    pub standings: Standings,
    /// Games played by this run (not counting resumed ones).
    pub played: u64,
    pub verdict: Option<SprtVerdict>,
    pub interrupted: bool,
}

/// A game to play: game `game` of pairing `pairing` (an index into the run's pairings).
#[derive(Clone, Copy, Debug)]
struct Job {
    pairing: usize,
    game: u64,
}

/// A game finished by a worker.
struct Finished {
    job: Job,
    line: GameLine,
    /// Why a player crashed or did not start, with the end of its stderr.
    notes: Vec<String>,
}

/// Crash notes shown per run (the results file has every game).
const MAX_NOTES: usize = 3;

/// Plays the match, or every pairing of the tournament; games already in the results file
/// are counted and not replayed.
pub fn run(config: &MatchConfig) -> Result<MatchOutcome, String> {
    let pairings = config.pairings();
    let (previous, writer) = open_results(config, &pairings)?;
    for dir in [&config.replays, &config.transcripts].into_iter().flatten() {
        for pairing in &pairings {
            let dir = config.files_dir(dir, pairing.engines);
            fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
    }
    let queue = games_to_play(config, &pairings, &previous);
    let builds = builds_of(config, &pairings, &previous, !queue.is_empty())?;
    let mut tally = Tally::new(
        config,
        &pairings,
        &previous,
        writer,
        builds,
        queue.len() as u64,
    );
    if !tally.decided() {
        let stop = AtomicBool::new(false);
        let queue = Mutex::new(queue);
        let (sender, receiver) = mpsc::channel::<Result<Finished, String>>();
        thread::scope(|scope| {
            for _ in 0..config.concurrency {
                let sender = sender.clone();
                let (queue, stop, pairings) = (&queue, &stop, &pairings);
                scope.spawn(move || worker(config, pairings, queue, stop, &sender));
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

/// The builds the games already played were played by, checked against the builds the
/// engines are now (asked for their name lines when games are left to play): a resumed
/// match must not mix two builds of an engine.
fn builds_of(
    config: &MatchConfig,
    pairings: &[Pairing],
    previous: &[GameLine],
    asking: bool,
) -> Result<Builds, String> {
    let labels: Vec<String> = (0..config.lineup.engines.len())
        .map(|e| config.lineup.label(e))
        .collect();
    let mut builds = Builds::default();
    for game in previous {
        let Some(pairing) = pairing_of(pairings, game) else {
            continue;
        };
        let [a, b] = pairing.engines;
        builds
            .check(&game.names, [&labels[a], &labels[b]])
            .map_err(|e| e.to_string())?;
    }
    if asking && !previous.is_empty() {
        for (shell, label) in config.shell_commands.iter().zip(&labels) {
            let now = referee::name_line(shell, config.tc, &interrupted);
            builds
                .check_one(now.as_deref(), label)
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(builds)
}

/// The games of this run: those of the shard not yet in the results file, game by game,
/// every pairing's game k before any game k+1 (an interrupted tournament has played each
/// pairing about as often).
fn games_to_play(
    config: &MatchConfig,
    pairings: &[Pairing],
    previous: &[GameLine],
) -> VecDeque<Job> {
    let done: BTreeSet<(&str, u64)> = previous
        .iter()
        .map(|g| (g.match_id.as_str(), g.game))
        .collect();
    let queue: VecDeque<Job> = (0..config.games)
        .filter(|&g| config.shard.is_none_or(|s| s.has(g)))
        .flat_map(|game| (0..pairings.len()).map(move |pairing| Job { pairing, game }))
        .filter(|job| !done.contains(&(pairings[job.pairing].match_id.as_str(), job.game)))
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
    pairings: &'a [Pairing],
    writer: Option<ResultsWriter>,
    builds: Builds,
    bar: ProgressBar,
    wdl: Wdl,
    standings: Standings,
    played: u64,
    notes_shown: usize,
    verdict: Option<SprtVerdict>,
    failure: Option<String>,
}

impl<'a> Tally<'a> {
    fn new(
        config: &'a MatchConfig,
        pairings: &'a [Pairing],
        previous: &[GameLine],
        writer: Option<ResultsWriter>,
        builds: Builds,
        games: u64,
    ) -> Self {
        let names = config.lineup.engines.iter().map(|e| e.name.clone());
        let mut tally = Tally {
            config,
            pairings,
            writer,
            builds,
            bar: progress_bar(games),
            verdict: None,
            wdl: Wdl::default(),
            standings: Standings::new(names),
            played: 0,
            notes_shown: 0,
            failure: None,
        };
        for game in previous {
            if let Some(pairing) = pairing_of(pairings, game) {
                tally.count(pairing.engines, game);
            }
        }
        tally.update_status();
        tally
    }

    /// Counts one game of the engines `engines` (p0's first).
    fn count(&mut self, engines: [usize; 2], game: &GameLine) {
        self.wdl.add(game.p0_won());
        let names = engines.map(|e| self.config.lineup.engines[e].name.as_str());
        self.standings.add(names, game);
    }

    /// The progress bar's message and the SPRT's verdict, after the games counted so far.
    fn update_status(&mut self) {
        let message = match self.config.lineup.tournament {
            None => status(&self.wdl, self.config.sprt.as_ref()),
            Some(_) => leader(&self.standings),
        };
        self.bar.set_message(message);
        self.verdict = self.config.sprt.map(|s| s.verdict(s.llr(&self.wdl)));
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
        let engines = self.pairings[finished.job.pairing].engines;
        let label = self.config.game_label(engines, finished.job.game);
        // An engine rebuilt while the match runs: its games would mix two builds.
        let players = engines.map(|e| self.config.lineup.label(e));
        if let Err(e) = self
            .builds
            .check(&finished.line.names, [&players[0], &players[1]])
        {
            return self.fail(format!("{label}: {e}"));
        }
        if let Some(writer) = self.writer.as_mut() {
            if let Err(e) = writer.append(&finished.line) {
                return self.fail(e.to_string());
            }
        }
        self.played += 1;
        self.count(engines, &finished.line);
        report_game(&self.bar, &label, &finished.line);
        for note in &finished.notes {
            if self.notes_shown < MAX_NOTES {
                say(&self.bar, note);
                self.notes_shown += 1;
            }
        }
        self.bar.inc(1);
        self.update_status();
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
            standings: self.standings,
            played: self.played,
            verdict: self.verdict,
            interrupted: interrupted(),
        })
    }
}

/// The games already in the results file, and the writer that appends to it.
fn open_results(
    config: &MatchConfig,
    pairings: &[Pairing],
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
    let match_ids: Vec<String> = pairings.iter().map(|p| p.match_id.clone()).collect();
    results::check_same_match(&loaded.games, &match_ids).map_err(|e| e.to_string())?;
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
    pairings: &[Pairing],
    queue: &Mutex<VecDeque<Job>>,
    stop: &AtomicBool,
    results: &mpsc::Sender<Result<Finished, String>>,
) {
    let cancelled = || stop.load(Ordering::SeqCst) || interrupted();
    loop {
        if cancelled() {
            return;
        }
        let Some(job) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
            return;
        };
        match play_one(config, &pairings[job.pairing], job.game, &cancelled) {
            Ok(Some((line, notes))) => {
                if results.send(Ok(Finished { job, line, notes })).is_err() {
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

/// Plays game `game` of `pairing`: its results line and the notes on its crashes; `None` if
/// it was cancelled.
fn play_one(
    config: &MatchConfig,
    pairing: &Pairing,
    game: u64,
    cancelled: &dyn Fn() -> bool,
) -> Result<Option<(GameLine, Vec<String>)>, String> {
    let label = config.game_label(pairing.engines, game);
    let packs = config.packs.game(game).map_err(|e| e.to_string())?;
    let stderr = config
        .transcripts
        .as_ref()
        .map(|dir| {
            let dir = config.files_dir(dir, pairing.engines);
            [0, 1].map(|p| Some(game_file(&dir, game, &format!("p{p}.stderr"))))
        })
        .unwrap_or([None, None]);
    let [a, b] = pairing.engines;
    let setup = GameSetup {
        packs: &packs.packs,
        commands: [&config.shell_commands[a], &config.shell_commands[b]],
        tc: config.tc,
        order: config.order,
        stderr,
        max_turns: u32::MAX,
    };
    let record = match referee::play_game(&setup, cancelled) {
        Ok(record) => record,
        Err(GameError::Cancelled) => return Ok(None),
        Err(e) => return Err(format!("{label}: {e}")),
    };
    let engines = pairing.engines.map(|e| &config.lineup.engines[e]);
    let line = GameLine {
        match_id: pairing.match_id.clone(),
        game,
        seed: packs.seed,
        pack_file: packs.file,
        names: record.names.clone(),
        players: Some([0, 1].map(|p| engines[p].shown(record.names[p].as_deref()))),
        engines: engines
            .iter()
            .all(|e| e.named)
            .then(|| engines.map(|e| e.name.clone())),
        winner: record.result.winner,
        reason: record.result.reason,
        losers: record.result.losers,
        turn: record.result.turn,
        scores: record.scores,
        max_chains: record.max_chains,
        first_big_chains: Some(record.first_big_chains),
        think_ms: record.think_ms,
        max_think_ms: record.max_think_ms,
        peak_rss_kib: record.peak_rss_kib,
        run: Some(pairing.info.clone()),
        record: Some(CompactRecord::of(&record.turns)),
    };
    save_files(config, pairing, &line, &packs.packs, &record)?;
    Ok(Some((line, crash_notes(&label, &record))))
}

/// A note for each player that crashed or never gave its name, with its last stderr lines:
/// usually a wrong command or flag. `game` names the game (`game 3`).
pub fn crash_notes(game: &str, record: &GameRecord) -> Vec<String> {
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
                "{game}: p{p} lost by {reason} on turn {}; {stderr}",
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

/// The replay and the two transcripts of `line`'s game, if asked for.
fn save_files(
    config: &MatchConfig,
    pairing: &Pairing,
    line: &GameLine,
    packs: &[crate::sim::Pack; crate::sim::PACKS_PER_GAME],
    record: &GameRecord,
) -> Result<(), String> {
    let game = line.game;
    if let Some(dir) = &config.replays {
        let commands = pairing.info.commands.each_ref().map(String::as_str);
        let replay = Replay::new(packs, commands, config.tc, record).named(line.engines.as_ref());
        replay.save(&game_file(
            &config.files_dir(dir, pairing.engines),
            game,
            "json",
        ))?;
    }
    if let Some(dir) = &config.transcripts {
        let dir = config.files_dir(dir, pairing.engines);
        for player in 0..2 {
            let path = game_file(&dir, game, &format!("p{player}.stdin.txt"));
            fs::write(&path, &record.transcripts[player])
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// Where a game's replay, transcripts or page go in `dir`: in a tournament, in the directory
/// of its pairing (`pairing`, as [`Lineup::pairing_dir`] names it), since every pairing has
/// a game 0.
pub fn files_dir(dir: &Path, pairing: Option<&str>) -> PathBuf {
    match pairing {
        Some(sub) => dir.join(sub),
        None => dir.to_path_buf(),
    }
}

/// `DIR/game-000042.EXT`.
pub fn game_file(dir: &Path, game: u64, ext: &str) -> PathBuf {
    dir.join(game_file_name(game, ext))
}

/// The name of a game's replay, transcript or page: `game-000042.EXT`.
pub fn game_file_name(game: u64, ext: &str) -> String {
    format!("game-{game:06}.{ext}")
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

/// A game's result as one line, for logs when no progress bar is drawn (e.g. in a batch job):
/// the winner by seat in a match, by name in a tournament.
fn report_game(bar: &ProgressBar, label: &str, line: &GameLine) {
    if !bar.is_hidden() {
        return;
    }
    let outcome = match (line.winner, &line.engines) {
        (Some(w), Some(engines)) => format!("{} wins", engines[w]),
        (Some(w), None) => format!("p{w} wins"),
        (None, _) => "draw".into(),
    };
    eprintln!(
        "{label}: {outcome} ({}, turn {}, scores {} - {})",
        line.reason, line.turn, line.scores[0], line.scores[1]
    );
}

/// The engine with the best score so far, for a tournament's progress bar.
fn leader(standings: &Standings) -> String {
    let best = (0..standings.engines().len())
        .filter_map(|i| Some((i, standings.score_of(i)?)))
        .max_by(|(a, sa), (b, sb)| sa.total_cmp(sb).then(b.cmp(a)));
    match best {
        Some((i, score)) => format!("leading: {} {:.1}%", standings.engines()[i], 100.0 * score),
        None => String::new(),
    }
}
