//! `ysai arena report`: a match on one self-contained page. What was run (time control,
//! SPRT, builds, host); the verdict; how the games ended; how Elo and the
//! SPRT's log-likelihood ratio moved game by game; how long the games lasted; on which turn
//! each side fired its first big chain; how long each side thought; and every game, linked
//! to its replay page where the replay was found. A tournament's page has its standings
//! instead of the verdict and the match's charts. The charts are inline SVG drawn here, so
//! the page needs no script and no network.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::charts::*;
use super::game_table::games_table;
pub use super::game_table::ReportGame;
use super::referee::Reason;
use super::results::{GameLine, RunInfo};
use super::standings::{kind_of, Standings, CROSS_LEFT, RANKING_LEFT};
use super::stats::{Elo, Sprt};
use super::tournament::TournamentKind;
use super::verdict::verdict;

/// The SPRT a report runs when none is given.
pub const DEFAULT_SPRT: &str = "elo0=0,elo1=20";

/// Where the SPRT a report follows comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtSource {
    /// The match ran it (`--sprt` when it was played).
    Recorded,
    /// Given to the report (`--sprt`).
    Given,
    /// [`DEFAULT_SPRT`]: the match ran none.
    Default,
}

impl SprtSource {
    fn describe(self) -> &'static str {
        match self {
            SprtSource::Recorded => "as the match ran it",
            SprtSource::Given => "given to the report",
            SprtSource::Default => "the default, as the match ran none",
        }
    }
}

/// How a player can lose, as the report counts it, and the reasons each way covers.
const LOSS_KINDS: [(&str, &[Reason]); 4] = [
    ("dead", &[Reason::Dead]),
    ("time losses", &[Reason::Timeout]),
    ("crashes", &[Reason::Crash, Reason::NoName]),
    (
        "illegal moves",
        &[
            Reason::BadOutput,
            Reason::IllegalMove,
            Reason::IllegalSkill,
            Reason::BadName,
        ],
    ),
];

/// The report page of `games` (in any order; shown in game order), following `sprt`.
pub fn page(games: &[ReportGame], sprt: &Sprt, source: SprtSource) -> String {
    let mut games: Vec<&ReportGame> = games.iter().collect();
    games.sort_by_key(|g| g.line.game);
    let lines: Vec<&GameLine> = games.iter().map(|g| &g.line).collect();
    let names = player_names(&lines);
    let mut body = String::new();
    let _ = write!(
        body,
        "<h1><span class=\"p0\">p0 {}</span> vs <span class=\"p1\">p1 {}</span></h1>",
        escape(&names[0]),
        escape(&names[1])
    );
    body.push_str(&match_ids(&lines));
    body.push_str(&verdict_block(&lines, sprt));
    body.push_str(&run_table(&lines, sprt, source));
    body.push_str(&endings_table(&lines, &names));
    body.push_str("<div class=\"charts\">");
    body.push_str(&elo_chart(&lines));
    body.push_str(&llr_chart(&lines, sprt));
    body.push_str(&length_chart(&lines));
    body.push_str(&first_big_chain_chart(&lines));
    body.push_str(&think_chart(&lines));
    body.push_str("</div>");
    body.push_str(&games_table(&games, false));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{} vs {} - ysai match report</title>\n<style>{STYLE}</style>\n</head>\n\
         <body>\n{body}\n</body>\n</html>\n",
        escape(&names[0]),
        escape(&names[1])
    )
}

/// The report page of a tournament's `games`: its standings (the ranking with each
/// engine's Elo and thinking time, and the cross table), what was run, how each engine lost,
/// the game lengths, and every game.
pub fn tournament_page(games: &[ReportGame]) -> String {
    let mut games: Vec<&ReportGame> = games.iter().collect();
    games.sort_by(|a, b| {
        (a.line.game, a.line.engine_names()).cmp(&(b.line.game, b.line.engine_names()))
    });
    let lines: Vec<GameLine> = games.iter().map(|g| g.line.clone()).collect();
    let refs: Vec<&GameLine> = lines.iter().collect();
    let standings = Standings::of_lines(&lines);
    let engines = standings.engines();
    let title = format!(
        "{}: {}",
        kind_of(&lines).map_or("Tournament", TournamentKind::title),
        engines.join(", ")
    );
    let mut body = format!("<h1>{}</h1>", escape(&title));
    let _ = write!(
        body,
        "<div id=\"verdict\">{} games</div>",
        standings.total_games()
    );
    body.push_str(&cells_table(
        "ranking",
        &standings.ranking_rows(),
        RANKING_LEFT,
    ));
    if let Some(reference) = engines.first() {
        let _ = write!(
            body,
            "<p class=\"legend\">Elo: maximum likelihood over all games (logistic, a draw half a win), relative to {}; +/-: its 95% interval; +inf / -inf: every point / no point against its side.</p>",
            escape(reference)
        );
    }
    body.push_str("<h2>Cross table: the row's points against the column / games</h2>");
    body.push_str(&cells_table("cross", &standings.cross_rows(), CROSS_LEFT));
    body.push_str(&tournament_run_table(&refs, engines));
    body.push_str(&tournament_endings_table(&refs, engines));
    body.push_str("<div class=\"charts\">");
    body.push_str(&length_chart(&refs));
    body.push_str("</div>");
    body.push_str(&games_table(&games, true));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{} - ysai tournament report</title>\n<style>{STYLE}</style>\n</head>\n\
         <body>\n{body}\n</body>\n</html>\n",
        escape(&title)
    )
}

/// Rows of cells (a header first) as a table, the columns of `left` left-aligned.
fn cells_table(id: &str, rows: &[Vec<String>], left: &[usize]) -> String {
    let mut out = format!("<table id=\"{id}\">");
    for (r, row) in rows.iter().enumerate() {
        out.push_str("<tr>");
        let tag = if r == 0 { "th" } else { "td" };
        for (c, cell) in row.iter().enumerate() {
            let class = if left.contains(&c) {
                " class=\"left\""
            } else {
                ""
            };
            let _ = write!(out, "<{tag}{class}>{}</{tag}>", escape(cell));
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    out
}

const STYLE: &str = "
body { margin: 0; padding: 12px 16px; background: #1d1f24; color: #e8e8e8;
       font: 14px/1.4 system-ui, sans-serif; }
h1 { font-size: 18px; margin: 0 0 6px; font-weight: 600; }
h2 { font-size: 14px; margin: 0 0 4px; font-weight: 600; }
.p0 { color: #6cb4ff; } .p1 { color: #ff9a6c; }
.matches { color: #999; font-size: 12px; margin-bottom: 8px; }
#verdict { font-size: 17px; font-weight: 600; color: #ffd75e; margin: 6px 0; }
pre { background: #272a31; border-radius: 6px; padding: 8px 10px; margin: 0 0 10px;
      white-space: pre-wrap; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(460px, 1fr)); gap: 12px;
          margin-bottom: 12px; }
.chart { background: #272a31; border-radius: 6px; padding: 8px; min-width: 0; }
.chart svg { display: block; width: 100%; height: auto; }
.chart svg text { fill: #aaa; font: 10px sans-serif; }
.legend { font-size: 12px; color: #bbb; }
table { border-collapse: collapse; margin: 0 0 12px; font-variant-numeric: tabular-nums; }
th, td { padding: 2px 10px; text-align: right; border-bottom: 1px solid #333; }
th { color: #bbb; font-weight: 600; }
td.left, th.left { text-align: left; }
a { color: #8fc8ff; }
th a { color: inherit; }
/* The game table in other orders: each shown in place of the game order while its header's
   link is followed. */
table.sorted { display: none; }
table.sorted:target { display: table; }
table.sorted:target ~ #games { display: none; }
";

/// The names the games give the players (the first game that records them).
fn player_names(games: &[&GameLine]) -> [String; 2] {
    let recorded = games.iter().find_map(|g| {
        g.players.clone().or_else(|| {
            let [Some(a), Some(b)] = &g.names else {
                return None;
            };
            Some([a.clone(), b.clone()])
        })
    });
    recorded.unwrap_or_else(|| ["p0".to_string(), "p1".to_string()])
}

fn match_ids(games: &[&GameLine]) -> String {
    let mut ids: Vec<&str> = games.iter().map(|g| g.match_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let items: Vec<String> = ids.iter().map(|id| escape(id)).collect();
    format!("<div class=\"matches\">{}</div>", items.join("<br>"))
}

/// The headline (score, Elo and its interval, the SPRT's state) and the verdict as
/// `ysai arena stats` prints it.
fn verdict_block(games: &[&GameLine], sprt: &Sprt) -> String {
    let wdl = wdl_of(games);
    let headline = match Elo::from_wdl(&wdl) {
        None => "no games".to_string(),
        Some(elo) => {
            let llr = sprt.llr(&wdl);
            format!(
                "p0 scored {:.1}% in {} games: Elo {} (95%: {} .. {}); SPRT LLR {:.2} in ({:.2}, {:.2}): {}",
                100.0 * wdl.score(),
                wdl.games(),
                signed(elo.elo),
                signed(elo.low),
                signed(elo.high),
                llr,
                sprt.lower_bound(),
                sprt.upper_bound(),
                sprt.verdict(llr)
            )
        }
    };
    format!(
        "<div id=\"verdict\">{}</div><pre id=\"stats\">{}</pre>",
        escape(&headline),
        escape(&verdict(&wdl, Some(sprt)))
    )
}

/// What was run: the time control, the SPRT followed and where it comes from, when the
/// match started, on which CPU, and each player's build (its name line). A value the games
/// do not record is shown as such.
fn run_table(games: &[&GameLine], sprt: &Sprt, source: SprtSource) -> String {
    let runs: Vec<&RunInfo> = games.iter().filter_map(|g| g.run.as_ref()).collect();
    let llr = sprt.llr(&wdl_of(games));
    let sprt_text = format!(
        "elo0={} elo1={} alpha={} beta={} ({} Elo; {}): LLR {llr:.2} in ({:.2}, {:.2}), {}",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        sprt.model.name(),
        source.describe(),
        sprt.lower_bound(),
        sprt.upper_bound(),
        sprt.verdict(llr)
    );
    let builds = [0, 1].map(|p| {
        let builds = distinct(games.iter().filter_map(|g| g.names[p].clone()));
        if runs.is_empty() {
            return builds;
        }
        let commands = distinct(runs.iter().map(|r| r.commands[p].clone()));
        format!("{builds}, run as {commands}")
    });
    let mut rows = vec![time_control_row(&runs), ("SPRT".to_string(), sprt_text)];
    rows.extend(host_rows(&runs));
    rows.push(("p0 build".into(), builds[0].clone()));
    rows.push(("p1 build".into(), builds[1].clone()));
    rows_table(&rows)
}

/// What a tournament ran: the time control, when and on which CPU, and each engine's build
/// and command.
fn tournament_run_table(games: &[&GameLine], engines: &[String]) -> String {
    let runs: Vec<&RunInfo> = games.iter().filter_map(|g| g.run.as_ref()).collect();
    let mut rows = vec![time_control_row(&runs)];
    rows.extend(host_rows(&runs));
    for engine in engines {
        let seats: Vec<(&GameLine, usize)> = games
            .iter()
            .flat_map(|g| {
                let names = g.engine_names();
                (0..2)
                    .filter(move |&p| names[p] == *engine)
                    .map(move |p| (*g, p))
            })
            .collect();
        let builds = distinct(seats.iter().filter_map(|(g, p)| g.names[*p].clone()));
        let commands = distinct(
            seats
                .iter()
                .filter_map(|(g, p)| Some(g.run.as_ref()?.commands[*p].clone())),
        );
        rows.push((
            format!("{engine} build"),
            format!("{builds}, run as {commands}"),
        ));
    }
    rows_table(&rows)
}

fn time_control_row(runs: &[&RunInfo]) -> (String, String) {
    let tc = distinct(runs.iter().map(|r| r.tc.clone()));
    ("time control".to_string(), tc)
}

/// When the games were played (the first run's start, and how many runs), and on which CPU.
fn host_rows(runs: &[&RunInfo]) -> [(String, String); 2] {
    let starts: BTreeSet<&str> = runs.iter().map(|r| r.started.as_str()).collect();
    let started = match starts.first() {
        None => "not recorded".to_string(),
        Some(first) if starts.len() > 1 => format!("{first} ({} runs)", starts.len()),
        Some(first) => first.to_string(),
    };
    let cpu = distinct(runs.iter().map(|r| r.cpu.clone()));
    [
        ("started (UTC)".to_string(), started),
        ("host CPU".to_string(), cpu),
    ]
}

/// The run table: a row per (what, value).
fn rows_table(rows: &[(String, String)]) -> String {
    let mut out = String::from("<table id=\"run\">");
    for (what, value) in rows {
        let _ = write!(
            out,
            "<tr><th class=\"left\">{}</th><td class=\"left\">{}</td></tr>",
            escape(what),
            escape(value)
        );
    }
    out.push_str("</table>");
    out
}

/// The values, each once in the order they come, as one text; `not recorded` if none.
fn distinct(values: impl Iterator<Item = String>) -> String {
    let mut seen: Vec<String> = Vec::new();
    for value in values {
        if !seen.contains(&value) {
            seen.push(value);
        }
    }
    if seen.is_empty() {
        "not recorded".to_string()
    } else {
        seen.join("; ")
    }
}

/// How often each player lost each way (a player can fail in a game it still wins on
/// score, when both fail on the same turn).
fn loss_counts(games: &[&GameLine]) -> [[u64; LOSS_KINDS.len()]; 2] {
    let mut counts = [[0; LOSS_KINDS.len()]; 2];
    for game in games {
        for (player, loss) in game.losers.iter().enumerate() {
            if let Some(kind) = loss_kind(*loss) {
                counts[player][kind] += 1;
            }
        }
    }
    counts
}

/// The index in [`LOSS_KINDS`] of a way to lose.
fn loss_kind(loss: Option<Reason>) -> Option<usize> {
    loss.and_then(|r| LOSS_KINDS.iter().position(|(_, rs)| rs.contains(&r)))
}

fn endings_table(games: &[&GameLine], names: &[String; 2]) -> String {
    let counts = loss_counts(games);
    let rows: Vec<(String, [u64; LOSS_KINDS.len()])> = (0..2)
        .map(|player| {
            let who = format!(
                "<span class=\"p{player}\">p{player} {}</span>",
                escape(&names[player])
            );
            (who, counts[player])
        })
        .collect();
    losses_table(&rows)
}

/// How often each engine of a tournament lost each way, in any seat.
fn tournament_endings_table(games: &[&GameLine], engines: &[String]) -> String {
    let mut counts = vec![[0; LOSS_KINDS.len()]; engines.len()];
    for game in games {
        let names = game.engine_names();
        for (player, loss) in game.losers.iter().enumerate() {
            let engine = engines.iter().position(|e| *e == names[player]);
            if let (Some(engine), Some(kind)) = (engine, loss_kind(*loss)) {
                counts[engine][kind] += 1;
            }
        }
    }
    let rows: Vec<(String, [u64; LOSS_KINDS.len()])> =
        engines.iter().map(|e| escape(e)).zip(counts).collect();
    losses_table(&rows)
}

/// The table of losses: a row per (who, as HTML; counts per kind).
fn losses_table(rows: &[(String, [u64; LOSS_KINDS.len()])]) -> String {
    let mut out = String::from("<table id=\"endings\"><thead><tr><th class=\"left\">lost by</th>");
    for (kind, _) in LOSS_KINDS {
        let _ = write!(out, "<th>{kind}</th>");
    }
    out.push_str("</tr></thead><tbody>");
    for (who, counts) in rows {
        let _ = write!(out, "<tr><td class=\"left\">{who}</td>");
        for count in counts {
            let _ = write!(out, "<td>{count}</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::{BigChain, Reason};
    use crate::arena::stats::Wdl;

    fn game(index: u64, winner: Option<usize>, turn: u32) -> ReportGame {
        ReportGame {
            line: GameLine {
                match_id: "p0=greedy | p1=<b>".into(),
                game: index,
                seed: Some(index),
                pack_file: None,
                names: [Some("ysai".into()), Some("ysai".into())],
                players: Some(["greedy".into(), "x<script>&".into()]),
                engines: None,
                winner,
                reason: Reason::Dead,
                losers: [None, None],
                turn,
                scores: [100, 90],
                max_chains: [12, 3],
                first_big_chains: Some([
                    Some(BigChain {
                        turn: 15,
                        chains: 12,
                    }),
                    None,
                ]),
                think_ms: [2500.0, 10.0],
                max_think_ms: [300.0, 1.0],
                peak_rss_kib: [None; 2],
                run: None,
                record: None,
            },
            replay_page: index
                .is_multiple_of(2)
                .then(|| format!("m-replays/game-{index:06}.html")),
        }
    }

    fn sprt() -> Sprt {
        DEFAULT_SPRT.parse().unwrap()
    }

    #[test]
    fn the_page_is_self_contained_and_escapes_what_players_wrote() {
        let games = [game(1, Some(0), 40), game(0, Some(1), 60)];
        let page = page(&games, &sprt(), SprtSource::Default);
        for external in ["http://", "https://", "src=", "url(", "@import", "<script"] {
            assert!(!page.contains(external), "the page refers to `{external}`");
        }
        assert!(page.contains("p1 x&lt;script&gt;&amp;</span>"));
        assert!(page.contains("p0=greedy | p1=&lt;b&gt;"));
    }

    #[test]
    fn every_game_has_a_row_in_game_order_and_a_link_where_it_has_a_page() {
        let games: Vec<ReportGame> = [3, 0, 2, 1].map(|i| game(i, Some(0), 50)).into();
        let page = page(&games, &sprt(), SprtSource::Default);
        let rows = table_rows(&page, "games");
        assert_eq!(game_numbers(&rows), [0, 1, 2, 3]);
        assert_eq!(
            rows.iter()
                .map(|r| r.contains("<a href="))
                .collect::<Vec<_>>(),
            [true, false, true, false]
        );
        assert!(rows[2].contains("<a href=\"m-replays/game-000002.html\">replay</a>"));
        assert!(rows[0].contains("<td>12 on 15 - none</td>"), "{}", rows[0]);
    }

    /// The rows of the page's table `id`.
    fn table_rows<'p>(page: &'p str, id: &str) -> Vec<&'p str> {
        let start = page
            .find(&format!("<table id=\"{id}\""))
            .unwrap_or_else(|| panic!("no table {id}"));
        let table = &page[start..];
        let table = &table[..table.find("</table>").unwrap()];
        table.split("<tr><td>").skip(1).collect()
    }

    fn game_numbers(rows: &[&str]) -> Vec<u64> {
        rows.iter()
            .map(|r| r[..r.find('<').unwrap()].parse().unwrap())
            .collect()
    }

    #[test]
    fn the_game_table_can_be_read_in_each_order_its_headers_name() {
        let mut games: Vec<ReportGame> = [(0, 40), (1, 70), (2, 55), (3, 70)]
            .map(|(i, turn)| game(i, Some((i % 2) as usize), turn))
            .into();
        games[2].line.max_chains = [15, 4];
        games[1].line.think_ms = [9_000.0, 0.0];
        games[0].line.first_big_chains = None;
        let page = page(&games, &sprt(), SprtSource::Default);
        let order = |id: &str| game_numbers(&table_rows(&page, id));
        assert_eq!(order("games"), [0, 1, 2, 3]);
        assert_eq!(order("games-by-turn"), [1, 3, 2, 0], "longest first");
        assert_eq!(order("games-by-chain"), [2, 0, 1, 3]);
        assert_eq!(order("games-by-thinking"), [1, 0, 2, 3]);
        assert_eq!(order("games-by-result"), [0, 2, 1, 3]);
        assert_eq!(order("games-by-first"), [1, 2, 3, 0], "no big chain last");
        for id in ["games", "games-by-turn", "games-by-how", "games-by-first"] {
            assert!(page.contains(&format!("<a href=\"#{id}\">")), "{id}");
        }
        // The other orders are hidden until their header's link is followed.
        assert!(page.contains("<table id=\"games-by-turn\" class=\"sorted\">"));
        assert!(page.contains("table.sorted:target ~ #games { display: none; }"));
    }

    #[test]
    fn the_verdict_is_that_of_all_the_games() {
        let games = [
            game(0, Some(0), 40),
            game(1, Some(0), 40),
            game(2, None, 40),
            game(3, Some(1), 40),
        ];
        let page = page(&games, &sprt(), SprtSource::Default);
        let wdl = Wdl {
            wins: 2,
            draws: 1,
            losses: 1,
        };
        let llr = sprt().llr(&wdl);
        assert!(page.contains("p0 scored 62.5% in 4 games"));
        assert!(page.contains(&format!("SPRT LLR {llr:.2} in (-2.94, 2.94): continue")));
        assert!(page.contains(&escape(&verdict(&wdl, Some(&sprt())))));
    }

    #[test]
    fn the_running_match_ends_where_the_whole_match_stands() {
        let lines: Vec<GameLine> = [Some(0), None, Some(1), Some(0), Some(0)]
            .iter()
            .enumerate()
            .map(|(i, &w)| game(i as u64, w, 40).line)
            .collect();
        let refs: Vec<&GameLine> = lines.iter().collect();
        let running = running_wdl(&refs);
        assert_eq!(running.len(), 5);
        assert_eq!(running[1].games(), 2);
        assert_eq!(running[4], wdl_of(&refs));
    }

    #[test]
    fn histograms_count_each_value_once_in_its_bin() {
        let svg = histogram(&[("red", vec![0.0, 9.0, 10.0, 35.0, 39.9])], 10.0, "turns");
        assert_eq!(svg.matches("</title></rect>").count(), 3, "{svg}");
        for bin in ["0-10: 2", "10-20: 1", "30-40: 2"] {
            assert!(
                svg.contains(&format!("<title>{bin}</title>")),
                "{bin} in {svg}"
            );
        }
    }

    #[test]
    fn a_page_without_games_says_so() {
        let page = page(&[], &sprt(), SprtSource::Default);
        assert!(page.contains("<div id=\"verdict\">no games</div>"));
        assert!(!page.contains("NaN"));
    }

    /// `game(index, ...)` played in a run started at `started`, under `sprt`.
    fn in_run(
        index: u64,
        started: &str,
        sprt: Option<&str>,
        losers: [Option<Reason>; 2],
    ) -> ReportGame {
        let mut game = game(index, Some(0), 40);
        game.line.losers = losers;
        game.line.names = [Some("ysai-1".into()), Some(format!("old-{}", index % 2))];
        game.line.run = Some(RunInfo {
            started: started.into(),
            cpu: "AMD EPYC 7B13".into(),
            tc: "4000+500".into(),
            sprt: sprt.map(str::to_string),
            commands: ["greedy".into(), "./old".into()],
            packs: crate::arena::packs::PackOrigin::Files { dir: "p".into() },
            tournament: None,
        });
        game
    }

    /// The value of the run table's row `what`.
    fn run_row<'a>(page: &'a str, what: &str) -> &'a str {
        let head = format!("<th class=\"left\">{what}</th><td class=\"left\">");
        let at = page.find(&head).unwrap_or_else(|| panic!("no row {what}")) + head.len();
        &page[at..at + page[at..].find("</td>").unwrap()]
    }

    #[test]
    fn the_page_shows_what_was_run() {
        let spec = "elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized";
        let games = [
            in_run(
                0,
                "2025-03-02T10:00:00Z",
                Some(spec),
                [None, Some(Reason::Dead)],
            ),
            in_run(
                1,
                "2025-03-01T09:00:00Z",
                Some(spec),
                [None, Some(Reason::Dead)],
            ),
        ];
        let sprt: Sprt = spec.parse().unwrap();
        let page = page(&games, &sprt, SprtSource::Recorded);
        assert_eq!(run_row(&page, "time control"), "4000+500");
        assert_eq!(
            run_row(&page, "started (UTC)"),
            "2025-03-01T09:00:00Z (2 runs)"
        );
        assert_eq!(run_row(&page, "host CPU"), "AMD EPYC 7B13");
        assert_eq!(run_row(&page, "p0 build"), "ysai-1, run as greedy");
        // Two builds of one player show both.
        assert_eq!(run_row(&page, "p1 build"), "old-0; old-1, run as ./old");
        let llr = sprt.llr(&Wdl {
            wins: 2,
            draws: 0,
            losses: 0,
        });
        assert_eq!(
            run_row(&page, "SPRT"),
            format!(
                "elo0=0 elo1=10 alpha=0.05 beta=0.05 (normalized Elo; as the match ran it): LLR {llr:.2} in (-2.94, 2.94), continue"
            )
        );
        // Games from before runs were recorded say so.
        let old = page_of_old_games();
        assert_eq!(run_row(&old, "time control"), "not recorded");
        assert_eq!(run_row(&old, "started (UTC)"), "not recorded");
        assert_eq!(run_row(&old, "p0 build"), "ysai");
        assert!(
            run_row(&old, "SPRT").contains("(normalized Elo; the default, as the match ran none)")
        );
    }

    fn page_of_old_games() -> String {
        page(&[game(0, Some(1), 30)], &sprt(), SprtSource::Default)
    }

    #[test]
    fn endings_count_each_way_each_side_lost() {
        let games = [
            in_run(0, "t", None, [Some(Reason::Timeout), None]),
            in_run(1, "t", None, [Some(Reason::Crash), None]),
            in_run(2, "t", None, [Some(Reason::NoName), Some(Reason::BadName)]),
            in_run(3, "t", None, [None, Some(Reason::IllegalSkill)]),
            in_run(4, "t", None, [Some(Reason::Dead), Some(Reason::Dead)]),
            in_run(5, "t", None, [None, None]),
        ];
        let lines: Vec<&GameLine> = games.iter().map(|g| &g.line).collect();
        // Dead, time losses, crashes, illegal moves.
        assert_eq!(loss_counts(&lines), [[1, 1, 2, 0], [1, 0, 0, 2]]);
        let page = page(&games, &sprt(), SprtSource::Default);
        assert!(
            page.contains(
                "x&lt;script&gt;&amp;</span></td><td>1</td><td>0</td><td>0</td><td>2</td></tr>"
            ),
            "{page}"
        );
    }
}
