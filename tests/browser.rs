//! The pages in a real browser. The replay viewer: a short game between the built-in
//! players, its page (`ysai arena replay FILE --html OUT`) opened in headless Chromium, and
//! what the page draws checked against the replay: the turn counter, the blocks on each
//! field, the result; then a game of this AI against greedy, whose charts are clicked and
//! dragged on as a user would, whose `-tm` lines show beside the field, and whose page fills
//! a narrow and a wide window. The match report (`ysai arena report`) of a 20-game match: its
//! charts fill both windows, its games are linked to their pages, and each page to the games
//! before and after it, followed by clicking. Screenshots are kept under
//! `target/test-artifacts/`.
//!
//! Needs `/usr/bin/chromium` (`apt-get install -y chromium`); where it is missing the test
//! fails, unless `YSAI_SKIP_BROWSER=1` says to skip it.

use std::fs::{self, File};
use std::io::{self, PipeReader, PipeWriter, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tempfile::TempDir;

const CHROMIUM: &str = "/usr/bin/chromium";
/// Longer than Chromium ever needs for this page; a hung browser fails the test instead of
/// hanging it.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(90);
/// The window the pages are opened in, and the two widths they are checked to fill.
const WINDOW: (u32, u32) = (1200, 1300);
const NARROW: u32 = 900;
const WIDE: u32 = 1700;
/// The replay viewer is ready once its script ran.
const VIEWER_READY: &str = "typeof window.ysaiViewer === 'object'";

#[test]
fn the_replay_page_draws_the_recorded_game() {
    if !browser_available() {
        return;
    }
    let dir = TempDir::new().unwrap();
    let replay_file = play_one_game(dir.path());
    let page = dir.path().join("replay.html");
    make_replay_page(&replay_file, &page);
    let replay: Value = serde_json::from_str(&fs::read_to_string(&replay_file).unwrap()).unwrap();
    let turns = replay["turns"].as_array().unwrap();
    let last = turns.len() - 1;
    assert!(
        last >= 3,
        "the game is too short to check: {} turns",
        turns.len()
    );

    // The header, from the first turn: where the game comes from, who played it, how it ended.
    let dom = dump_dom(dir.path(), &page, 0);
    let game = element_text(&dom, "game");
    let tc = match replay["tc"].as_str().unwrap() {
        "none" => "no time control".to_string(),
        tc => format!("time control {tc} ms"),
    };
    assert!(game.contains(&tc), "{game}");
    assert!(game.contains(replay_file.to_str().unwrap()), "{game}");
    for player in 0..2 {
        let command = replay["players"][player]["command"].as_str().unwrap();
        assert_eq!(element_text(&dom, &format!("cmdline{player}")), command);
        let line = element_text(&dom, &format!("command{player}"));
        assert!(line.starts_with(&format!("p{player} ")), "{line}");
    }
    assert_eq!(
        element_text(&dom, "verdict"),
        result_text(&replay["result"])
    );
    assert!(!dom.contains("match report</a>"), "no report is known");

    // The columns numbered under each field.
    let labels: String = (0..10).map(|x| format!("<span>{x}</span>")).collect();
    let columns = format!("<div class=\"columns\">{labels}</div>");
    assert_eq!(dom.matches(&columns).count(), 2);

    // A turn where p0 dropped its pack and fired nothing: the pack's cells are outlined.
    let dropped = (1..last)
        .find(|&t| turns[t]["chains"][0] == 0 && turns[t]["moves"][0].as_str() != Some("S"))
        .expect("p0 drops a pack without a chain at some turn");
    let dom = dump_dom(dir.path(), &page, dropped);
    let landed = attribute(&dom, "field0", "data-landed");
    let cells: Vec<[usize; 2]> = landed
        .split_whitespace()
        .map(|cell| {
            let (x, y) = cell.split_once(',').unwrap();
            [x.parse().unwrap(), y.parse().unwrap()]
        })
        .collect();
    let pack = replay["packs"][dropped].as_array().unwrap();
    let pack_blocks = pack
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .filter(|v| v.as_u64() != Some(0))
        .count();
    assert_eq!(cells.len(), pack_blocks, "turn {dropped}: {landed}");
    let column: usize = turns[dropped]["moves"][0].as_str().unwrap()[..1]
        .parse()
        .unwrap();
    for [x, _] in &cells {
        assert!(*x == column || *x == column + 1, "turn {dropped}: {landed}");
    }

    // The last turn is checked for its result only: a field that died there may hold blocks
    // above the 16 recorded rows, which the page draws too.
    for turn in [1, last / 2, last - 1] {
        let dom = dump_dom(dir.path(), &page, turn);
        assert_eq!(element_text(&dom, "turn"), format!("{turn} / {last}"));
        let states = turns[turn]["state"].as_array().unwrap();
        for (player, state) in states.iter().enumerate() {
            let expected = recorded_blocks(&state["field"]);
            let drawn = element_text(&dom, &format!("blocks{player}"));
            assert_eq!(drawn, expected.to_string(), "turn {turn}, player {player}");
            assert_gauge_shown(&dom, player, &state["gauge"]);
        }
        assert_eq!(element_text(&dom, "result"), "", "turn {turn}");
        for player in 0..2 {
            let clock = element_text(&dom, &format!("clock{player}"));
            assert_eq!(clock, clock_after(turns, turn, player), "turn {turn}");
            let charted: f64 = chart_values(&dom, "clock")[player].parse().unwrap();
            let seconds: f64 = clock.trim_end_matches(" s").parse().unwrap();
            assert_eq!(charted, seconds, "the clock chart at turn {turn}");
        }
    }
    let dom = dump_dom(dir.path(), &page, last);
    assert_eq!(element_text(&dom, "turn"), format!("{last} / {last}"));
    assert_eq!(element_text(&dom, "result"), result_text(&replay["result"]));

    let screenshot = artifacts_dir().join("replay.png");
    take_screenshot(dir.path(), &page, last, WINDOW.0, &screenshot);
    assert_png(&screenshot);
}

#[test]
fn the_charts_move_the_replay_to_the_turn_clicked_and_the_ai_shows_its_thoughts() {
    if !browser_available() {
        return;
    }
    let dir = TempDir::new().unwrap();
    play_match(dir.path(), "self --turn-ms 500", "greedy", 1);
    let replay_file = dir.path().join("replays/game-000000.json");
    let page = dir.path().join("replay.html");
    make_replay_page(&replay_file, &page);
    let replay: Value = serde_json::from_str(&fs::read_to_string(&replay_file).unwrap()).unwrap();
    let last = replay["turns"].as_array().unwrap().len() - 1;
    assert!(
        last >= 8,
        "the game is too short to click through: {last} turns"
    );

    let mut browser = DevTools::open(dir.path(), &page_url(&page, 0), VIEWER_READY);
    assert_eq!(browser.text("#turn"), format!("0 / {last}"));
    // A game without a time control has no clock to chart.
    let clock_chart = browser.evaluate("document.getElementById('chart-clock') !== null");
    assert_eq!(clock_chart, Value::Bool(false));
    let score = browser.chart("chart-score");
    for turn in [last * 3 / 4, 1, last] {
        browser.click(score.at(turn, last));
        assert_eq!(
            browser.text("#turn"),
            format!("{turn} / {last}"),
            "clicked on turn {turn}"
        );
    }
    assert_eq!(browser.evaluate("location.hash"), format!("#turn={last}"));
    // The slider moves the address along: its left end is turn 0.
    let slider = browser.evaluate(
        "(r => [r.left, r.top + r.height / 2])(document.getElementById('slider').getBoundingClientRect())",
    );
    let (left, middle) = (slider[0].as_f64().unwrap(), slider[1].as_f64().unwrap());
    browser.click((left + 1.0, middle));
    assert_eq!(browser.text("#turn"), format!("0 / {last}"));
    assert_eq!(browser.evaluate("location.hash"), "#turn=0");
    let chains = browser.chart("chart-chains");
    browser.drag(chains.at(2, last), chains.at(last / 2, last));
    assert_eq!(
        browser.text("#turn"),
        format!("{} / {last}", last / 2),
        "dragged"
    );

    // What the AI said about the turn shown, beside its field; greedy says nothing.
    let turn = last / 2;
    assert_eq!(
        browser.text("#player0 .thinking .line"),
        turn_line(&replay, turn)
    );
    assert_eq!(browser.text("#player1 .thinking .line"), "");

    // A turn on which it follows a plan: the plan in words.
    let planned = (0..=last)
        .find(|&t| turn_line(&replay, t).contains(" moves to "))
        .expect("the AI plans a chain at some point of the game");
    browser.click(score.at(planned, last));
    assert_eq!(browser.text("#turn"), format!("{planned} / {last}"));
    let plan = browser.text("#player0 .thinking .plan");
    assert!(
        plan.starts_with("plan: ") && plan.contains("-chain on turn "),
        "{plan}"
    );

    // The page fills a narrow and a wide window: the slider and the charts span it, the
    // fields grow, all drawn at the size they are shown, and a click still lands on the turn
    // under it.
    let (mut sliders, mut fields) = (Vec::new(), Vec::new());
    for width in [NARROW, WIDE] {
        browser.resize(width);
        assert_fits_the_window(&mut browser, width);
        let charts = browser.evaluate(
            "[...document.querySelectorAll('#charts canvas')].map(c => [c.getBoundingClientRect().width, c.width])",
        );
        for chart in charts.as_array().unwrap() {
            let (shown, pixels) = (chart[0].as_f64().unwrap(), chart[1].as_f64().unwrap());
            assert!(
                shown >= f64::from(width) - 60.0,
                "a chart {shown} px wide in a window of {width}"
            );
            assert!(
                (pixels - shown).abs() <= 1.0,
                "drawn at {pixels} px, shown at {shown}"
            );
        }
        let field = browser.evaluate(
            "(c => [c.getBoundingClientRect().width, c.width])(document.getElementById('field0'))",
        );
        let (shown, pixels) = (field[0].as_f64().unwrap(), field[1].as_f64().unwrap());
        assert!((220.0..=400.0).contains(&shown), "a field {shown} px wide");
        assert!(
            (pixels - shown).abs() <= 1.0,
            "drawn at {pixels} px, shown at {shown}"
        );
        fields.push(shown);
        sliders.push(
            browser
                .evaluate("document.getElementById('slider').getBoundingClientRect().width")
                .as_f64()
                .unwrap(),
        );
        let score = browser.chart("chart-score");
        let turn = last / 3;
        browser.click(score.at(turn, last));
        assert_eq!(
            browser.text("#turn"),
            format!("{turn} / {last}"),
            "at {width} px"
        );
        let shot = artifacts_dir().join(format!("replay-self-greedy-{width}.png"));
        take_screenshot(dir.path(), &page, turn, width, &shot);
        assert_png(&shot);
    }
    assert!(
        sliders[1] - sliders[0] >= f64::from(WIDE - NARROW) - 60.0,
        "the slider is {} px wide at {NARROW} px and {} px at {WIDE} px",
        sliders[0],
        sliders[1]
    );
    assert!(fields[1] > fields[0], "fields {fields:?} px wide");
    browser.close();

    let screenshot = artifacts_dir().join("replay-self-greedy.png");
    take_screenshot(dir.path(), &page, planned, WINDOW.0, &screenshot);
    assert_png(&screenshot);
}

#[test]
fn the_match_report_shows_the_match_and_links_every_game() {
    if !browser_available() {
        return;
    }
    let dir = TempDir::new().unwrap();
    let results = play_match(dir.path(), "greedy", "random --seed 3", 20);
    let report = dir.path().join("match.html");
    ysai(&[
        "arena",
        "report",
        results.to_str().unwrap(),
        "--html",
        report.to_str().unwrap(),
    ]);
    let dom = dump_dom(dir.path(), &report, 0);
    assert!(element_text(&dom, "verdict").starts_with("p0 scored "));
    for chart in ["elo", "llr", "lengths", "first-big-chains", "think"] {
        let at = dom
            .find(&format!("id=\"chart-{chart}\""))
            .unwrap_or_else(|| panic!("no chart {chart}"));
        assert!(dom[at..].contains("<svg"), "chart {chart} has no picture");
    }
    let games = &dom[dom.find("<table id=\"games\"").expect("the game table")..];
    let games = &games[..games.find("</table>").unwrap()];
    assert_eq!(games.matches("replay</a>").count(), 20);

    // A game's page names its game and links back to the report, and to the games before
    // and after it; the first game has none before it, the last none after it.
    let pages = dir.path().join("match-replays");
    let game_page = pages.join("game-000007.html");
    let dom = dump_dom(dir.path(), &game_page, 0);
    assert!(element_text(&dom, "game").starts_with("game 7 "));
    assert_eq!(attribute(&dom, "report", "href"), "../match.html");
    assert_eq!(attribute(&dom, "previous-game", "href"), "game-000006.html");
    assert_eq!(element_text(&dom, "next-game"), "game 8 \u{2192}");
    assert!(fs::metadata(game_page.with_file_name("../match.html")).is_ok());
    let first = dump_dom(dir.path(), &pages.join("game-000000.html"), 0);
    assert!(!first.contains("id=\"previous-game\""));
    assert_eq!(element_text(&first, "next-game"), "game 1 \u{2192}");
    let last = dump_dom(dir.path(), &pages.join("game-000019.html"), 0);
    assert!(!last.contains("id=\"next-game\""));
    assert_eq!(element_text(&last, "previous-game"), "\u{2190} game 18");

    // Followed as a user follows them: next, previous twice, then back to the report.
    let mut browser = DevTools::open(dir.path(), &page_url(&game_page, 0), VIEWER_READY);
    for (link, game) in [("next-game", 8), ("previous-game", 7), ("previous-game", 6)] {
        browser.follow(
            &format!("#{link}"),
            &format!("game-{game:06}.html"),
            VIEWER_READY,
        );
        let shown = browser.text("#game");
        assert!(
            shown.starts_with(&format!("game {game} ")),
            "{link}: {shown}"
        );
        assert_eq!(browser.text("#turn").split(" / ").next(), Some("0"));
    }
    browser.follow("#report", "match.html", "true");
    assert!(browser.text("#verdict").starts_with("p0 scored "));

    // The game table's headers sort it: the turn's shows the longest games first in place of
    // the game order; the game's brings the game order back.
    let shown = "[...document.querySelectorAll('#games, table.sorted')].filter(t => t.offsetParent !== null).map(t => t.id)";
    assert_eq!(browser.evaluate(shown), json!(["games"]));
    browser.follow(
        "#games a[href='#games-by-turn']",
        "match.html",
        "location.hash === '#games-by-turn'",
    );
    assert_eq!(browser.evaluate(shown), json!(["games-by-turn"]));
    let turns = browser.evaluate(
        "[...document.querySelectorAll('#games-by-turn tbody tr')].map(r => +r.cells[3].textContent)",
    );
    let turns: Vec<u64> = turns
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_u64().unwrap())
        .collect();
    assert_eq!(turns.len(), 20);
    assert!(turns.windows(2).all(|w| w[0] >= w[1]), "{turns:?}");
    browser.follow(
        "#games-by-turn a[href='#games']",
        "match.html",
        "location.hash === '#games'",
    );
    assert_eq!(browser.evaluate(shown), json!(["games"]));

    // The report fills a narrow and a wide window: its charts span the page.
    for width in [NARROW, WIDE] {
        browser.resize(width);
        assert_fits_the_window(&mut browser, width);
        let charts = browser.evaluate(
            "[...document.querySelectorAll('.chart')].map(c => [c.getBoundingClientRect().right, c.querySelector('svg').getBoundingClientRect().width, c.clientWidth])",
        );
        let charts = charts.as_array().unwrap();
        assert_eq!(charts.len(), 5);
        let right = charts
            .iter()
            .map(|c| c[0].as_f64().unwrap())
            .fold(0.0, f64::max);
        assert!(
            right >= f64::from(width) - 40.0,
            "the charts end at {right} px of {width}"
        );
        for chart in charts {
            let (picture, space) = (chart[1].as_f64().unwrap(), chart[2].as_f64().unwrap());
            assert!(
                picture >= 400.0 && picture >= space - 20.0,
                "a chart {picture} px wide in {space}"
            );
        }
        let shot = artifacts_dir().join(format!("match-report-{width}.png"));
        take_screenshot(dir.path(), &report, 0, width, &shot);
        assert_png(&shot);
    }
    browser.close();

    // A page written alone under its game's name, beside the report's, links to them too.
    let alone = pages.join("game-000012.html");
    fs::remove_file(&alone).unwrap();
    ysai(&[
        "arena",
        "replay",
        results.to_str().unwrap(),
        "--game",
        "12",
        "--html",
        alone.to_str().unwrap(),
    ]);
    let dom = dump_dom(dir.path(), &alone, 0);
    assert_eq!(attribute(&dom, "previous-game", "href"), "game-000011.html");
    assert_eq!(attribute(&dom, "next-game", "href"), "game-000013.html");
    assert_eq!(attribute(&dom, "report", "href"), "../match.html");

    let screenshot = artifacts_dir().join("match-report.png");
    take_screenshot(dir.path(), &report, 0, WINDOW.0, &screenshot);
    assert_png(&screenshot);
}

/// Asserts that the page shown is as wide as the window of `width` pixels: nothing sticks
/// out to its right.
fn assert_fits_the_window(browser: &mut DevTools, width: u32) {
    let sizes = browser.evaluate("[window.innerWidth, document.documentElement.scrollWidth]");
    let (window, page) = (sizes[0].as_u64().unwrap(), sizes[1].as_u64().unwrap());
    assert_eq!(window, u64::from(width));
    assert!(
        page <= window,
        "the page is {page} px wide in a window of {window}"
    );
}

/// The `-tm` line p0 wrote for `turn`, checked to be that turn's.
fn turn_line(replay: &Value, turn: usize) -> String {
    let line = replay["turns"][turn]["turn_lines"][0].as_str().unwrap();
    assert!(line.starts_with(&format!("Turn {turn} ")), "{line}");
    line.to_string()
}

fn assert_png(path: &Path) {
    let png = fs::read(path).unwrap();
    assert!(
        png.starts_with(b"\x89PNG"),
        "{} is not a PNG",
        path.display()
    );
    eprintln!("screenshot: {}", path.display());
}

/// Headless Chromium driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: commands on its fd 3, answers on its fd 4, each message ended
/// by a NUL byte), attached to one page: input reaches the page as a user's would.
struct DevTools {
    child: Child,
    commands: PipeWriter,
    answers: Receiver<Value>,
    session: String,
    next_id: u64,
}

/// Where a chart's canvas is on the screen, and where on it turn 0 and the last turn are.
struct ChartSpot {
    left: f64,
    middle: f64,
    x0: f64,
    x1: f64,
}

impl ChartSpot {
    /// The point of the chart that stands for `turn`.
    fn at(&self, turn: usize, last: usize) -> (f64, f64) {
        let share = turn as f64 / last as f64;
        (
            self.left + self.x0 + share * (self.x1 - self.x0),
            self.middle,
        )
    }
}

impl DevTools {
    /// Chromium showing `url`, once `ready` holds in it.
    fn open(dir: &Path, url: &str, ready: &str) -> Self {
        // Both ends of both pipes are closed on exec; fds 3 and 4 are made below.
        let (their_commands, commands) = io::pipe().expect("a pipe for commands");
        let (answers, their_answers) = io::pipe().expect("a pipe for answers");
        let mut command = chromium_command(dir);
        command.args([
            "--remote-debugging-pipe",
            &format!("--window-size={},{}", WINDOW.0, WINDOW.1),
            "about:blank",
        ]);
        let fds = (their_commands.as_raw_fd(), their_answers.as_raw_fd());
        // SAFETY: between fork and exec the closure calls only fcntl and dup2, which are
        // async-signal-safe, and touches no memory of the parent.
        unsafe {
            command.pre_exec(move || {
                // Copies above 9 first, so that neither pipe end is overwritten by the other's
                // dup2 when it already is fd 3 or 4; dup2 clears close-on-exec on 3 and 4.
                let read = libc::fcntl(fds.0, libc::F_DUPFD, 10);
                let write = libc::fcntl(fds.1, libc::F_DUPFD, 10);
                if read < 0 || write < 0 || libc::dup2(read, 3) < 0 || libc::dup2(write, 4) < 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command
            .stdout(Stdio::null())
            .spawn()
            .expect("chromium starts");
        drop((their_commands, their_answers));
        let mut browser = DevTools {
            child,
            commands,
            answers: spawn_answer_reader(answers),
            session: String::new(),
            next_id: 0,
        };
        let target = browser.call("Target.createTarget", json!({ "url": url }));
        let target_id = target["targetId"].clone();
        let attached = browser.call(
            "Target.attachToTarget",
            json!({ "targetId": target_id, "flatten": true }),
        );
        browser.session = attached["sessionId"].as_str().unwrap().to_string();
        browser.wait_for(ready);
        browser
    }

    /// Sends a command (to the page once attached) and waits for its answer.
    fn call(&mut self, method: &str, params: Value) -> Value {
        let answer = self.try_call(method, params);
        assert!(answer["error"].is_null(), "{method} failed: {answer}");
        answer["result"].clone()
    }

    /// Sends a command and waits for its answer, a result or an error.
    fn try_call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        self.commands
            .write_all(&bytes)
            .expect("chromium reads its commands");
        let deadline = Instant::now() + BROWSER_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let answer = self
                .answers
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer to {method} within {BROWSER_TIMEOUT:?}"));
            if answer["id"] == id {
                return answer;
            }
        }
    }

    /// The value of a JavaScript expression in the page.
    fn evaluate(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true }),
        );
        assert!(
            result["exceptionDetails"].is_null(),
            "`{expression}` threw: {result}"
        );
        result["result"]["value"].clone()
    }

    /// Waits until `condition` holds in the page; while a new page loads, the expression
    /// may find no page to run in, which counts as not yet.
    fn wait_for(&mut self, condition: &str) {
        let deadline = Instant::now() + BROWSER_TIMEOUT;
        loop {
            let answer = self.try_call(
                "Runtime.evaluate",
                json!({ "expression": condition, "returnByValue": true }),
            );
            if answer["result"]["result"]["value"] == json!(true) {
                return;
            }
            assert!(Instant::now() < deadline, "the page never had {condition}");
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// Clicks the link `selector` as a user would, and waits for the page it leads to, whose
    /// address ends with `page`, to be `ready`.
    fn follow(&mut self, selector: &str, page: &str, ready: &str) {
        let spot = self.evaluate(&format!(
            "(r => [r.left + r.width / 2, r.top + r.height / 2])(document.querySelector({selector:?}).getBoundingClientRect())"
        ));
        self.click((spot[0].as_f64().unwrap(), spot[1].as_f64().unwrap()));
        self.wait_for(&format!(
            "location.pathname.endsWith({:?}) && document.readyState === 'complete' && {ready}",
            format!("/{page}")
        ));
    }

    /// Gives the page a window `width` pixels wide (as tall as [`WINDOW`]), and waits until
    /// it has it and has drawn a frame since: the resize event comes with the next frame.
    fn resize(&mut self, width: u32) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": WINDOW.1, "deviceScaleFactor": 1, "mobile": false }),
        );
        self.wait_for(&format!("window.innerWidth === {width}"));
        let frames = self.call(
            "Runtime.evaluate",
            json!({
                "expression": "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))",
                "awaitPromise": true,
                "returnByValue": true,
            }),
        );
        assert_eq!(frames["result"]["value"], json!(true), "{frames}");
    }

    /// The text of the first element `selector` matches.
    fn text(&mut self, selector: &str) -> String {
        let expression = format!("document.querySelector({selector:?}).textContent");
        self.evaluate(&expression)
            .as_str()
            .unwrap()
            .trim()
            .to_string()
    }

    /// Scrolls chart `id` into view and says where it is.
    fn chart(&mut self, id: &str) -> ChartSpot {
        let spot = self.evaluate(&format!(
            "(() => {{ const c = document.getElementById({id:?}); c.scrollIntoView({{ block: 'center' }}); \
             const r = c.getBoundingClientRect(); \
             return [r.left, r.top + r.height / 2, Number(c.dataset.x0), Number(c.dataset.x1)]; }})()"
        ));
        let number = |i: usize| spot[i].as_f64().unwrap();
        ChartSpot {
            left: number(0),
            middle: number(1),
            x0: number(2),
            x1: number(3),
        }
    }

    fn mouse(&mut self, kind: &str, (x, y): (f64, f64), buttons: u32) {
        self.call(
            "Input.dispatchMouseEvent",
            json!({ "type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1 }),
        );
    }

    fn click(&mut self, at: (f64, f64)) {
        self.mouse("mousePressed", at, 1);
        self.mouse("mouseReleased", at, 0);
    }

    fn drag(&mut self, from: (f64, f64), to: (f64, f64)) {
        self.mouse("mousePressed", from, 1);
        let middle = ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0);
        self.mouse("mouseMoved", middle, 1);
        self.mouse("mouseMoved", to, 1);
        self.mouse("mouseReleased", to, 0);
    }

    fn close(mut self) {
        self.session.clear();
        self.call("Browser.close", json!({}));
        wait_within(&mut self.child, BROWSER_TIMEOUT);
    }
}

impl Drop for DevTools {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A thread that turns Chromium's NUL-separated messages into JSON values.
fn spawn_answer_reader(mut answers: PipeReader) -> Receiver<Value> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut pending = Vec::new();
        let mut buffer = [0u8; 65536];
        while let Ok(n) = answers.read(&mut buffer) {
            if n == 0 {
                return;
            }
            pending.extend_from_slice(&buffer[..n]);
            while let Some(end) = pending.iter().position(|&b| b == 0) {
                let message: Vec<u8> = pending.drain(..=end).collect();
                let value = serde_json::from_slice(&message[..end]).expect("chromium sends JSON");
                if sender.send(value).is_err() {
                    return;
                }
            }
        }
    });
    receiver
}

/// Whether Chromium is installed; without it the test fails, or is skipped on request.
fn browser_available() -> bool {
    if Path::new(CHROMIUM).exists() {
        return true;
    }
    if std::env::var("YSAI_SKIP_BROWSER").as_deref() == Ok("1") {
        eprintln!("skipped: {CHROMIUM} is missing and YSAI_SKIP_BROWSER=1");
        return false;
    }
    panic!(
        "{CHROMIUM} is missing: install it (`apt-get install -y chromium`) to run the browser \
         test, or set YSAI_SKIP_BROWSER=1 to skip it"
    );
}

/// Runs `ysai ARGS` and returns its stdout, failing the test if it fails.
fn ysai(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_ysai"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("ysai runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "ysai {args:?} failed:\n{stderr}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Plays greedy against random and returns the game's replay file.
fn play_one_game(dir: &Path) -> PathBuf {
    // The qualifier's clock, which the page shows running down.
    play_match_with_tc(dir, "greedy", "random", 1, "180000+20000");
    dir.join("replays/game-000000.json")
}

/// Plays `games` games of `p0` against `p1` without a clock: the results go to
/// `dir/results.jsonl`, which it returns, and the replays to `dir/replays/`.
fn play_match(dir: &Path, p0: &str, p1: &str, games: u32) -> PathBuf {
    play_match_with_tc(dir, p0, p1, games, "none")
}

fn play_match_with_tc(dir: &Path, p0: &str, p1: &str, games: u32, tc: &str) -> PathBuf {
    let results = dir.join("results.jsonl");
    let replays = dir.join("replays");
    let games = games.to_string();
    ysai(&[
        "arena",
        "--p0",
        p0,
        "--p1",
        p1,
        "--games",
        &games,
        "--tc",
        tc,
        "--results",
        results.to_str().unwrap(),
        "--replays",
        replays.to_str().unwrap(),
    ]);
    results
}

/// Writes the replay page of `replay_file` to `page`.
fn make_replay_page(replay_file: &Path, page: &Path) {
    ysai(&[
        "arena",
        "replay",
        replay_file.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
}

/// The page's DOM after its script ran, opened at the end of `turn`.
fn dump_dom(dir: &Path, page: &Path, turn: usize) -> String {
    let out = dir.join(format!("dom-{turn}.html"));
    let mut command = chromium(dir);
    command.arg("--dump-dom").arg(page_url(page, turn));
    run_browser(command, Some(&out));
    fs::read_to_string(&out).unwrap()
}

fn take_screenshot(dir: &Path, page: &Path, turn: usize, width: u32, png: &Path) {
    fs::create_dir_all(png.parent().unwrap()).unwrap();
    let _ = fs::remove_file(png);
    let mut command = chromium(dir);
    command
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("--window-size={width},{}", WINDOW.1))
        .arg(page_url(page, turn));
    run_browser(command, None);
}

/// Headless Chromium for a page to be dumped or shot: the virtual time budget lets the
/// page's script run before the DOM is dumped or the screenshot taken.
fn chromium(dir: &Path) -> Command {
    let mut command = chromium_command(dir);
    command.arg("--virtual-time-budget=2000");
    command
}

/// Headless Chromium with a fresh profile, kept off the network.
fn chromium_command(dir: &Path) -> Command {
    let profile = tempfile::tempdir_in(dir).unwrap().keep();
    let mut command = Command::new(CHROMIUM);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .stdin(Stdio::null())
        .stderr(Stdio::null());
    command
}

fn page_url(page: &Path, turn: usize) -> String {
    format!("file://{}#turn={turn}", page.display())
}

/// Runs the browser (stdout to `stdout`, if given) and waits for it, within a time limit.
fn run_browser(mut command: Command, stdout: Option<&Path>) {
    match stdout {
        Some(path) => command.stdout(File::create(path).unwrap()),
        None => command.stdout(Stdio::null()),
    };
    let mut child = command.spawn().expect("chromium starts");
    let status = wait_within(&mut child, BROWSER_TIMEOUT);
    assert!(status.success(), "chromium failed: {status}");
}

fn wait_within(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within {limit:?}");
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// The text of the element with `id` in a dumped DOM (a leaf element: no markup inside).
fn element_text(dom: &str, id: &str) -> String {
    let marker = format!("id=\"{id}\"");
    let start = dom
        .find(&marker)
        .unwrap_or_else(|| panic!("no element `{id}` in the page"));
    let text = &dom[start..];
    let open = text.find('>').unwrap() + 1;
    let close = text[open..].find('<').unwrap();
    text[open..open + close].trim().to_string()
}

/// The values the chart `id` of a replay page gives both players at the turn shown, read from
/// its label (`score  p0 120 · p1 85`).
fn chart_values(dom: &str, id: &str) -> [String; 2] {
    let canvas = dom
        .find(&format!("id=\"chart-{id}\""))
        .unwrap_or_else(|| panic!("no chart {id} in the page"));
    let label = &dom[dom[..canvas].rfind("<div class=\"label\">").unwrap()..canvas];
    [0, 1].map(|p| {
        let marker = format!("<b class=\"p{p}\">p{p} ");
        let at = label.find(&marker).unwrap() + marker.len();
        label[at..at + label[at..].find('<').unwrap()].to_string()
    })
}

/// Asserts that the page shows p{player}'s skill gauge as `gauge`, in figures and as a bar
/// labelled "skill gauge".
fn assert_gauge_shown(dom: &str, player: usize, gauge: &Value) {
    assert_eq!(
        element_text(dom, &format!("gauge{player}")),
        gauge.to_string()
    );
    let bar = format!("gaugeBar{player}");
    assert_eq!(attribute(dom, &bar, "aria-valuenow"), gauge.to_string());
    let labelled = format!("<span>skill gauge</span><div class=\"gauge\" id=\"{bar}\"");
    assert!(dom.contains(&labelled), "no label before {bar}");
}

/// p{player}'s game clock after `turn`, as the page shows it: 180 s less the recorded
/// thinking times.
fn clock_after(turns: &[Value], turn: usize, player: usize) -> String {
    let used: f64 = turns[..=turn]
        .iter()
        .map(|t| t["think_ms"][player].as_f64().unwrap_or(0.0))
        .sum();
    let left = (180_000.0 - used).max(0.0).round();
    format!("{:.1} s", left / 1000.0)
}

/// The value of attribute `name` of the element with id `id`.
fn attribute(dom: &str, id: &str, name: &str) -> String {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no element `{id}` in the page"));
    let tag = &dom[start..start + dom[start..].find('>').unwrap()];
    let marker = format!("{name}=\"");
    let at = tag
        .find(&marker)
        .unwrap_or_else(|| panic!("`{id}` has no {name}: {tag}"))
        + marker.len();
    tag[at..at + tag[at..].find('"').unwrap()].to_string()
}

/// Blocks (numbers and ojama) in a recorded field.
fn recorded_blocks(field: &Value) -> usize {
    field
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .filter(|cell| cell.as_u64() != Some(0))
        .count()
}

/// The result as the page words it, from the replay's `result`.
fn result_text(result: &Value) -> String {
    let verdict = match result["winner"].as_u64() {
        Some(w) => format!("p{w} wins"),
        None => "draw".to_string(),
    };
    format!(
        "{verdict} ({}, turn {})",
        result["reason"].as_str().unwrap(),
        result["turn"]
    )
}

/// `target/test-artifacts`, next to the directory Cargo gives integration tests.
fn artifacts_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("test-artifacts")
}
