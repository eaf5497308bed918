//! The replay pages of a match: where `ysai arena report` puts them, and how each page
//! links to the report and to the games before and after it. Every page name and address
//! is made here.
//!
//! The report `match.html` keeps its games' pages beside it in `match-replays/`
//! (`match-replays/game-000042.html`), a tournament's in a directory per pairing
//! (`match-replays/a-vs-b/game-000042.html`). A page links to the previous and the next game
//! of its match (or pairing) that has a page: those written with it by the report, or, for
//! a page written alone under its game's name (`ysai arena replay FILE --game K --html
//! match-replays/game-00000K.html`), those already beside it; and to the report, when it is
//! where the layout puts it.

use std::fs;
use std::path::{Path, PathBuf};

use super::html::{self, GameLink, GamePage, PageContext};
use super::results::GameLine;
use super::runner::{files_dir, game_file, game_file_name};
use super::{rebuild, replay};

/// What the directory of a report's pages adds to the report's name.
const PAGES_SUFFIX: &str = "-replays";
const PAGE_EXT: &str = "html";

/// Where the replay pages of one report go.
pub struct PageLayout {
    report: PathBuf,
}

impl PageLayout {
    /// The layout of the report page `report`.
    pub fn of_report(report: &Path) -> Self {
        PageLayout {
            report: report.to_path_buf(),
        }
    }

    /// The layout whose page of `pairing` `page` would be, by the directory it is in
    /// (`X-replays/`, or `X-replays/PAIRING/`); `None` where no layout puts a page there.
    fn holding(page: &Path, pairing: Option<&str>) -> Option<Self> {
        let page = std::path::absolute(page).ok()?;
        let mut dir = page.parent()?;
        if let Some(pairing) = pairing {
            if dir.file_name()? != pairing {
                return None;
            }
            dir = dir.parent()?;
        }
        let name = dir.file_name()?.to_str()?;
        let stem = name.strip_suffix(PAGES_SUFFIX)?;
        let report = dir.with_file_name(format!("{stem}.{PAGE_EXT}"));
        Some(PageLayout { report })
    }

    /// The directory of every page: the report's name with `-replays`.
    pub fn dir(&self) -> PathBuf {
        let stem = self
            .report
            .file_stem()
            .map_or("report".into(), |s| s.to_string_lossy());
        self.report.with_file_name(format!("{stem}{PAGES_SUFFIX}"))
    }

    /// The page of game `game` of `pairing` (a tournament's, as [`GameLine::pairing_dir`]
    /// names it; `None` in a match).
    pub fn page(&self, pairing: Option<&str>, game: u64) -> PathBuf {
        game_file(&files_dir(&self.dir(), pairing), game, PAGE_EXT)
    }

    /// The address of that page from the report.
    pub fn address(&self, pairing: Option<&str>, game: u64) -> String {
        let dir = self.dir();
        let dir_name = dir.file_name().map_or("".into(), |n| n.to_string_lossy());
        let mut parts = vec![dir_name.into_owned()];
        parts.extend(pairing.map(str::to_string));
        parts.push(game_file_name(game, PAGE_EXT));
        parts.join("/")
    }

    /// The address of the report from a page of `pairing`: one directory up, two in a
    /// tournament.
    pub fn report_address(&self, pairing: Option<&str>) -> String {
        let up = if pairing.is_some() { "../../" } else { "../" };
        let name = self
            .report
            .file_name()
            .map_or("".into(), |n| n.to_string_lossy());
        format!("{up}{name}")
    }
}

/// A link from a page to the page of game `game` beside it (of the same match or pairing).
fn link_to(game: u64) -> GameLink {
    GameLink {
        game,
        address: game_file_name(game, PAGE_EXT),
    }
}

/// A page made and not yet written: it waits for the next page of its pairing, if any, to
/// link to it.
struct Pending {
    pairing: Option<String>,
    game: u64,
    page: GamePage,
    context: PageContext,
}

/// Writes the replay page of every game of `games` that has one (its replay found in the
/// first of `replay_dirs` that holds it, else rebuilt from its results line), each linked to
/// the report and to the pages of the games before and after it in its match or pairing.
/// Returns each game's page address from the report, `None` for a game without a page.
pub fn write_report_pages(
    layout: &PageLayout,
    replay_dirs: &[PathBuf],
    games: &[GameLine],
) -> Result<Vec<Option<String>>, String> {
    let mut order: Vec<usize> = (0..games.len()).collect();
    order.sort_by_key(|&i| (games[i].pairing_dir(), games[i].game));
    let mut addresses = vec![None; games.len()];
    let mut pending: Option<Pending> = None;
    for i in order {
        let line = &games[i];
        let pairing = line.pairing_dir();
        let same = |p: &Pending| p.pairing == pairing;
        // Two matches merged into one report can both have a game `game`: one page each.
        if pending
            .as_ref()
            .is_some_and(|p| same(p) && p.game == line.game)
        {
            addresses[i] = Some(layout.address(pairing.as_deref(), line.game));
            continue;
        }
        let Some(page) = game_page(replay_dirs, line) else {
            continue;
        };
        let mut context = PageContext {
            game: Some(line.game),
            report: Some(layout.report_address(pairing.as_deref())),
            ..PageContext::default()
        };
        if let Some(mut before) = pending.take() {
            if same(&before) {
                before.context.next = Some(link_to(line.game));
                context.previous = Some(link_to(before.game));
            }
            write_pending(layout, before)?;
        }
        addresses[i] = Some(layout.address(pairing.as_deref(), line.game));
        pending = Some(Pending {
            pairing,
            game: line.game,
            page,
            context,
        });
    }
    if let Some(last) = pending {
        write_pending(layout, last)?;
    }
    Ok(addresses)
}

fn write_pending(layout: &PageLayout, mut pending: Pending) -> Result<(), String> {
    let file = layout.page(pending.pairing.as_deref(), pending.game);
    if let Some(dir) = file.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    html::write_page(&file, &pending.page.html(&pending.context)?)
}

/// The game of `line` worked out for its page, from its replay in the first of `dirs` that
/// holds it, else from its results line; `None` (with a note if the game cannot be shown)
/// when it has no page.
fn game_page(dirs: &[PathBuf], line: &GameLine) -> Option<GamePage> {
    let pairing = line.pairing_dir();
    let file = dirs
        .iter()
        .map(|dir| game_file(&files_dir(dir, pairing.as_deref()), line.game, "json"))
        .find(|f| f.is_file());
    let replay = match file {
        Some(file) => replay::Replay::load(&file),
        None if line.record.is_some() => rebuild::rebuild(line, None),
        None => return None,
    };
    match replay.and_then(|r| GamePage::new(&r)) {
        Ok(page) => Some(page),
        Err(e) => {
            eprintln!("note: game {} has no replay page: {e}", line.game);
            None
        }
    }
}

/// The context of the page of `line`'s game (one of `games`, read from `source`) written
/// alone to `out`. Written under its game's name, the page links to the pages beside it of
/// the nearest games before and after it in its match or pairing, and to the report whose
/// layout puts it there, where they exist.
pub fn lone_page_context(
    source: &Path,
    games: &[GameLine],
    line: &GameLine,
    out: &Path,
) -> PageContext {
    let mut context = PageContext {
        source: Some(source.display().to_string()),
        game: Some(line.game),
        ..PageContext::default()
    };
    let pairing = line.pairing_dir();
    let named = out.file_name().and_then(|n| n.to_str());
    if named != Some(&game_file_name(line.game, PAGE_EXT)) {
        return context;
    }
    let dir = out.parent().unwrap_or(Path::new(""));
    let has_page = |game: u64| game_file(dir, game, PAGE_EXT).is_file();
    let mut others: Vec<u64> = games
        .iter()
        .filter(|g| g.pairing_dir() == pairing)
        .map(|g| g.game)
        .filter(|&g| has_page(g))
        .collect();
    others.sort_unstable();
    context.previous = others
        .iter()
        .rev()
        .find(|&&g| g < line.game)
        .map(|&g| link_to(g));
    context.next = others.iter().find(|&&g| g > line.game).map(|&g| link_to(g));
    context.report = PageLayout::holding(out, pairing.as_deref())
        .filter(|layout| layout.report.is_file())
        .map(|layout| layout.report_address(pairing.as_deref()));
    context
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_names_its_pages_beside_it() {
        let layout = PageLayout::of_report(Path::new("out/match.html"));
        assert_eq!(layout.dir(), Path::new("out/match-replays"));
        assert_eq!(
            layout.page(None, 42),
            Path::new("out/match-replays/game-000042.html")
        );
        assert_eq!(
            layout.page(Some("a-vs-b"), 3),
            Path::new("out/match-replays/a-vs-b/game-000003.html")
        );
        assert_eq!(layout.address(None, 42), "match-replays/game-000042.html");
        assert_eq!(
            layout.address(Some("a-vs-b"), 3),
            "match-replays/a-vs-b/game-000003.html"
        );
        assert_eq!(layout.report_address(None), "../match.html");
        assert_eq!(layout.report_address(Some("a-vs-b")), "../../match.html");
    }

    #[test]
    fn a_page_belongs_to_the_report_whose_layout_puts_it_there() {
        let report = |page: &str, pairing| {
            PageLayout::holding(Path::new(page), pairing).map(|layout| layout.report)
        };
        let absolute = |path: &str| std::path::absolute(path).unwrap();
        assert_eq!(
            report("/x/m-replays/game-000001.html", None),
            Some(PathBuf::from("/x/m.html"))
        );
        assert_eq!(
            report("/x/m-replays/a-vs-b/game-000001.html", Some("a-vs-b")),
            Some(PathBuf::from("/x/m.html"))
        );
        // A relative page, in the working directory's `m-replays`.
        assert_eq!(
            report("m-replays/game-000001.html", None),
            Some(absolute("m.html"))
        );
        for (page, pairing) in [
            ("/x/pages/game-000001.html", None),
            ("/x/m-replays/a-vs-b/game-000001.html", None),
            ("/x/m-replays/game-000001.html", Some("a-vs-b")),
            ("/x/m-replays/c-vs-d/game-000001.html", Some("a-vs-b")),
        ] {
            assert_eq!(report(page, pairing), None, "{page} of {pairing:?}");
        }
    }
}
