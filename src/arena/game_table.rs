//! A match report's table of games: a row per game, in game order, and the same rows in each
//! other order its headers name. The page has no script, so every order is written out; a
//! header links to its order's table, which the page's style shows in place of the others.

use std::cmp::Ordering;
use std::fmt::Write as _;

use super::charts::escape;
use super::referee::BIG_CHAIN;
use super::results::GameLine;

/// A game as the report lists it: its results line, and the replay page it links to.
pub struct ReportGame {
    pub line: GameLine,
    /// The page's address relative to the report.
    pub replay_page: Option<String>,
}

/// An order of the table: the anchor of its table and how two games compare in it (ties in
/// game order).
struct Order {
    id: &'static str,
    compare: fn(&GameLine, &GameLine) -> Ordering,
}

/// The orders besides the game order: the result, how the game ended, its length, the
/// longest chain, the first big chain's turn, the thinking time (longest first).
const ORDERS: [Order; 6] = [
    Order {
        id: "games-by-result",
        compare: |a, b| a.winner.unwrap_or(2).cmp(&b.winner.unwrap_or(2)),
    },
    Order {
        id: "games-by-how",
        compare: |a, b| a.reason.name().cmp(b.reason.name()),
    },
    Order {
        id: "games-by-turn",
        compare: |a, b| b.turn.cmp(&a.turn),
    },
    Order {
        id: "games-by-chain",
        compare: |a, b| longest(b).cmp(&longest(a)),
    },
    Order {
        id: "games-by-first",
        compare: |a, b| first_turn(a).cmp(&first_turn(b)),
    },
    Order {
        id: "games-by-thinking",
        compare: |a, b| thinking(b).total_cmp(&thinking(a)),
    },
];

/// The table of the game order, the one shown unless another is chosen.
const GAME_ORDER: &str = "games";

fn longest(game: &GameLine) -> u32 {
    game.max_chains[0].max(game.max_chains[1])
}

/// The turn of the game's first big chain, whichever side fired it (none: last).
fn first_turn(game: &GameLine) -> u32 {
    game.first_big_chains
        .iter()
        .flatten()
        .flatten()
        .map(|c| c.turn)
        .min()
        .unwrap_or(u32::MAX)
}

/// The longer of the two sides' thinking.
fn thinking(game: &GameLine) -> f64 {
    game.think_ms[0].max(game.think_ms[1])
}

/// The game tables of `games` (in game order): a row per game; in a tournament (`engines`)
/// each names its two engines, and the winner by name.
pub(super) fn games_table(games: &[&ReportGame], engines: bool) -> String {
    let rows: Vec<String> = games.iter().map(|g| game_row(g, engines)).collect();
    let head = table_head(engines);
    let mut out = String::new();
    for order in &ORDERS {
        let mut sorted: Vec<usize> = (0..games.len()).collect();
        sorted.sort_by(|&a, &b| (order.compare)(&games[a].line, &games[b].line).then(a.cmp(&b)));
        let body: String = sorted.iter().map(|&i| rows[i].as_str()).collect();
        let _ = write!(
            out,
            "<table id=\"{}\" class=\"sorted\">{head}<tbody>{body}</tbody></table>",
            order.id
        );
    }
    let _ = write!(
        out,
        "<table id=\"{GAME_ORDER}\">{head}<tbody>{}</tbody></table>",
        rows.concat()
    );
    out
}

/// The header row, each sortable column a link to its order's table.
fn table_head(engines: bool) -> String {
    let link = |id: &str, text: &str| format!("<a href=\"#{id}\">{text}</a>");
    let pairing = if engines {
        "<th class=\"left\">p0 - p1</th>"
    } else {
        ""
    };
    format!(
        "<thead><tr><th>{}</th>{pairing}<th class=\"left\">{}</th><th class=\"left\">{}</th>\
         <th>{}</th><th>score</th><th>{}</th><th>{}</th><th>{}</th><th></th></tr></thead>",
        link(GAME_ORDER, "game"),
        link("games-by-result", "result"),
        link("games-by-how", "how"),
        link("games-by-turn", "turn"),
        link("games-by-chain", "longest chain"),
        link(
            "games-by-first",
            &format!("first {BIG_CHAIN}+ (chain on turn)")
        ),
        link("games-by-thinking", "thinking (s)"),
    )
}

/// One game's row, with a link to its replay page where there is one.
fn game_row(game: &ReportGame, engines: bool) -> String {
    let line = &game.line;
    let names = line.engine_names();
    let result = match line.winner {
        Some(w) if engines => format!("<span class=\"p{w}\">{} wins</span>", escape(&names[w])),
        Some(w) => format!("<span class=\"p{w}\">p{w} wins</span>"),
        None => "draw".to_string(),
    };
    let pairing = if engines {
        format!(
            "<td class=\"left\"><span class=\"p0\">{}</span> - <span class=\"p1\">{}</span></td>",
            escape(&names[0]),
            escape(&names[1])
        )
    } else {
        String::new()
    };
    let first = |p: usize| match line.first_big_chains.and_then(|c| c[p]) {
        Some(c) => format!("{} on {}", c.chains, c.turn),
        None => "none".to_string(),
    };
    let link = game.replay_page.as_ref().map_or(String::new(), |page| {
        format!("<a href=\"{}\">replay</a>", escape(page))
    });
    format!(
        "<tr><td>{}</td>{pairing}<td class=\"left\">{result}</td><td class=\"left\">{}</td><td>{}</td>\
         <td>{} - {}</td><td>{} - {}</td><td>{} - {}</td><td>{:.1} - {:.1}</td><td class=\"left\">{link}</td></tr>",
        line.game,
        line.reason.name(),
        line.turn,
        line.scores[0],
        line.scores[1],
        line.max_chains[0],
        line.max_chains[1],
        first(0),
        first(1),
        line.think_ms[0] / 1000.0,
        line.think_ms[1] / 1000.0,
    )
}
