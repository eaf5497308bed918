//! A tournament's standings: the cross table (what each engine scored against each other, in
//! how many games), each engine's thinking time, and each engine's Elo, fitted to all the
//! games at once.
//!
//! The fit is the maximum-likelihood estimate of the logistic (Bradley-Terry) model: engine
//! i scores against j with probability 1 / (1 + 10^((r_j - r_i) / 400)), a draw counting as
//! half a win and half a loss. Ratings are relative to the first engine (r = 0); each has a
//! 95% interval from the likelihood's curvature at its maximum (the inverse of the Fisher
//! information, the normal approximation). For two engines this is the match's Elo from its
//! mean score. The binomial model puts a draw's variance at that of a half win, so with draws
//! the intervals are a little wide; draws are rare in this game.
//!
//! An engine that scored every point against the first engine's side (directly or through
//! other engines) has no finite rating: the likelihood grows without bound as its rating
//! does. It is shown as `+inf` (or `-inf` for one that scored none), as a match won in every
//! game is; the others are fitted on the games among the engines with finite ratings, which
//! is where the likelihood's maximum tends.

use std::fmt::Write as _;

use super::results::GameLine;
use super::stats::Z95;
use super::tournament::TournamentKind;

/// The left-aligned columns of the ranking (the engine) and of the cross table (the row's
/// engine); numbers are right-aligned.
pub const RANKING_LEFT: &[usize] = &[1];
pub const CROSS_LEFT: &[usize] = &[0];
/// Elo per unit of the logistic model's natural scale (log-odds).
const ELO_PER_LOG_ODDS: f64 = 400.0 / std::f64::consts::LN_10;
/// Newton steps at most; the fit of a few engines converges in a handful.
const MAX_STEPS: usize = 200;
/// A fit has converged when no rating moves by more than this (in log-odds) in a step.
const CONVERGED: f64 = 1e-10;

/// The games of a tournament, engine by engine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standings {
    engines: Vec<String>,
    /// `points[i][j]`: what engine i scored against engine j (a win 1, a draw 1/2).
    points: Vec<Vec<f64>>,
    /// `games[i][j]`: the games of engines i and j.
    games: Vec<Vec<u64>>,
    /// Each engine's thinking time over all its games, in ms.
    think_ms: Vec<f64>,
}

/// An engine's Elo relative to the first engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rating {
    /// The first engine: 0 by definition.
    Reference,
    /// The estimate, and the half width of its 95% interval.
    Finite { elo: f64, error: f64 },
    /// It scored every point against the first engine's side: no finite estimate.
    Above,
    /// It scored no point against the first engine's side.
    Below,
    /// No games connect it to the first engine.
    Unknown,
}

impl Standings {
    /// Standings of `engines` (in this order, the first the reference) without games.
    pub fn new(engines: impl IntoIterator<Item = String>) -> Self {
        let mut standings = Standings::default();
        for engine in engines {
            standings.index(&engine);
        }
        standings
    }

    /// The standings of the games of results files: the engines in the order their
    /// tournament gave them, then any others in the order they first played.
    pub fn of_lines(games: &[GameLine]) -> Self {
        let given = games
            .iter()
            .filter_map(|g| g.run.as_ref()?.tournament.as_ref())
            .flat_map(|t| t.engines.iter().cloned());
        let mut standings = Standings::new(given);
        for game in games {
            let names = game.engine_names();
            standings.add([&names[0], &names[1]], game);
        }
        standings
    }

    /// The engines, the reference first.
    pub fn engines(&self) -> &[String] {
        &self.engines
    }

    /// Adds `game`, played by the engines named `engines` (p0's first).
    pub fn add(&mut self, engines: [&str; 2], game: &GameLine) {
        let [a, b] = engines.map(|e| self.index(e));
        let points_a = match game.winner {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        self.record(a, b, points_a);
        self.think_ms[a] += game.think_ms[0];
        self.think_ms[b] += game.think_ms[1];
    }

    /// Counts one game of engines `a` and `b` in which `a` scored `points_a`.
    fn record(&mut self, a: usize, b: usize, points_a: f64) {
        self.points[a][b] += points_a;
        self.points[b][a] += 1.0 - points_a;
        self.games[a][b] += 1;
        self.games[b][a] += 1;
    }

    /// The index of engine `name`, added if it is new.
    fn index(&mut self, name: &str) -> usize {
        if let Some(i) = self.engines.iter().position(|e| e == name) {
            return i;
        }
        self.engines.push(name.to_string());
        for row in &mut self.points {
            row.push(0.0);
        }
        for row in &mut self.games {
            row.push(0);
        }
        let n = self.engines.len();
        self.points.push(vec![0.0; n]);
        self.games.push(vec![0; n]);
        self.think_ms.push(0.0);
        n - 1
    }

    /// What engine `i` scored against engine `j`.
    pub fn points(&self, i: usize, j: usize) -> f64 {
        self.points[i][j]
    }

    /// The games of engines `i` and `j`.
    pub fn games(&self, i: usize, j: usize) -> u64 {
        self.games[i][j]
    }

    /// All the games of engine `i`.
    pub fn games_of(&self, i: usize) -> u64 {
        self.games[i].iter().sum()
    }

    /// All the points of engine `i`.
    pub fn points_of(&self, i: usize) -> f64 {
        self.points[i].iter().sum()
    }

    /// All the games, each once.
    pub fn total_games(&self) -> u64 {
        (0..self.engines.len())
            .map(|i| self.games_of(i))
            .sum::<u64>()
            / 2
    }

    /// Engine `i`'s mean score per game (a win 1, a draw 1/2).
    pub fn score_of(&self, i: usize) -> Option<f64> {
        let games = self.games_of(i);
        (games > 0).then(|| self.points_of(i) / games as f64)
    }

    /// Engine `i`'s mean thinking time per game, in ms.
    pub fn think_per_game(&self, i: usize) -> Option<f64> {
        let games = self.games_of(i);
        (games > 0).then(|| self.think_ms[i] / games as f64)
    }

    /// Every engine's Elo relative to the first (see the module's comment).
    pub fn ratings(&self) -> Vec<Rating> {
        let n = self.engines.len();
        if n == 0 {
            return Vec::new();
        }
        let reach = self.reach();
        let finite: Vec<usize> = (0..n).filter(|&i| reach[0][i] && reach[i][0]).collect();
        let (theta, variances) = self.fit(&finite);
        (0..n)
            .map(|i| match finite.iter().position(|&f| f == i) {
                Some(0) => Rating::Reference,
                Some(k) => Rating::Finite {
                    elo: theta[k] * ELO_PER_LOG_ODDS,
                    error: Z95 * variances[k - 1].sqrt() * ELO_PER_LOG_ODDS,
                },
                None if reach[i][0] && !reach[0][i] => Rating::Above,
                None if reach[0][i] && !reach[i][0] => Rating::Below,
                None => Rating::Unknown,
            })
            .collect()
    }

    /// `reach[i][j]`: i scored against j, or against an engine that reaches j (every engine
    /// reaches itself).
    fn reach(&self) -> Vec<Vec<bool>> {
        let n = self.engines.len();
        let mut reach: Vec<Vec<bool>> = (0..n)
            .map(|i| (0..n).map(|j| i == j || self.points[i][j] > 0.0).collect())
            .collect();
        for k in 0..n {
            for i in 0..n {
                if reach[i][k] {
                    for j in 0..n {
                        reach[i][j] |= reach[k][j];
                    }
                }
            }
        }
        reach
    }

    /// The maximum-likelihood ratings (in log-odds) of `members` from their games among
    /// themselves, the first fixed at 0, by Newton's method with step halving (the
    /// log-likelihood is concave); and the variances of the others, from the inverse of the
    /// Fisher information at the maximum. Every member must reach every other.
    fn fit(&self, members: &[usize]) -> (Vec<f64>, Vec<f64>) {
        let mut theta = vec![0.0; members.len()];
        for _ in 0..MAX_STEPS {
            let (gradient, information) = self.slopes(members, &theta);
            let Some(step) = solve(&information, &gradient) else {
                break;
            };
            let before = self.log_likelihood(members, &theta);
            let mut scale = 1.0;
            let moved = loop {
                let trial: Vec<f64> = std::iter::once(0.0)
                    .chain(theta[1..].iter().zip(&step).map(|(t, s)| t + scale * s))
                    .collect();
                if self.log_likelihood(members, &trial) >= before || scale < 1e-9 {
                    theta = trial;
                    break scale * step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
                }
                scale /= 2.0;
            };
            if moved < CONVERGED {
                break;
            }
        }
        let (_, information) = self.slopes(members, &theta);
        let free = information.len();
        let variances = match invert(&information) {
            Some(covariance) => (0..free).map(|k| covariance[k][k]).collect(),
            None => vec![f64::INFINITY; free],
        };
        (theta, variances)
    }

    /// The log-likelihood of ratings `theta` of `members`, over their games among themselves.
    fn log_likelihood(&self, members: &[usize], theta: &[f64]) -> f64 {
        let mut sum = 0.0;
        for (a, &i) in members.iter().enumerate() {
            for (b, &j) in members.iter().enumerate() {
                if self.points[i][j] > 0.0 {
                    sum += self.points[i][j] * expected(theta[a] - theta[b]).ln();
                }
            }
        }
        sum
    }

    /// The gradient of the log-likelihood and the Fisher information (its negative Hessian)
    /// with respect to the ratings of `members` but the first (fixed at 0).
    fn slopes(&self, members: &[usize], theta: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
        let free = members.len().saturating_sub(1);
        let mut gradient = vec![0.0; free];
        let mut information = vec![vec![0.0; free]; free];
        for (a, &i) in members.iter().enumerate() {
            for (b, &j) in members.iter().enumerate() {
                let games = self.games[i][j] as f64;
                if a == b || games == 0.0 {
                    continue;
                }
                let p = expected(theta[a] - theta[b]);
                let weight = games * p * (1.0 - p);
                if a > 0 {
                    gradient[a - 1] += self.points[i][j] - games * p;
                    information[a - 1][a - 1] += weight;
                    if b > 0 {
                        information[a - 1][b - 1] -= weight;
                    }
                }
            }
        }
        (gradient, information)
    }

    /// The standings as `ysai arena stats` prints them: the engines ranked by Elo, then the
    /// cross table.
    pub fn text(&self, kind: Option<TournamentKind>) -> String {
        let mut out = format!(
            "{}: {} engines, {} games\n",
            kind.map_or("Tournament", TournamentKind::title),
            self.engines.len(),
            self.total_games()
        );
        out.push_str(&aligned(&self.ranking_rows(), RANKING_LEFT));
        if let Some(reference) = self.engines.first() {
            let _ = writeln!(
                out,
                "Elo: maximum likelihood over all games (logistic, a draw half a win), relative to {reference}; +/-: its 95% interval; +inf / -inf: every point / no point against {reference}'s side"
            );
        }
        out.push_str("Cross table: the row's points against the column / games\n");
        out.push_str(&aligned(&self.cross_rows(), CROSS_LEFT));
        out
    }

    /// The ranking as rows of cells, a header first: rank, engine, Elo, its interval's half
    /// width, games, points, score, thinking time per game.
    pub fn ranking_rows(&self) -> Vec<Vec<String>> {
        let ratings = self.ratings();
        let mut order: Vec<usize> = (0..self.engines.len()).collect();
        // Engines of equal rating (two at +inf) by their score.
        let rating = |i: usize| rank_key(&ratings[i]);
        let score = |i: usize| self.score_of(i).unwrap_or(-1.0);
        order.sort_by(|&a, &b| {
            (rating(b).total_cmp(&rating(a))).then(score(b).total_cmp(&score(a)))
        });
        let header = [
            "Rank",
            "Engine",
            "Elo",
            "+/-",
            "Games",
            "Points",
            "Score",
            "Think/game",
        ];
        let mut rows = vec![header.map(str::to_string).to_vec()];
        for (rank, &i) in order.iter().enumerate() {
            let games = self.games_of(i);
            let (elo, error) = rating_cells(ratings[i]);
            let score = self
                .score_of(i)
                .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
            let think = self
                .think_per_game(i)
                .map_or("-".to_string(), |ms| format!("{ms:.1} ms"));
            rows.push(vec![
                (rank + 1).to_string(),
                self.engines[i].clone(),
                elo,
                error,
                games.to_string(),
                points_text(self.points_of(i)),
                score,
                think,
            ]);
        }
        rows
    }

    /// The cross table as rows of cells, a header first: per engine (in the given order),
    /// its points against each other engine and their games (`1.5/2`); `-` against itself,
    /// `.` against an engine it did not meet.
    pub fn cross_rows(&self) -> Vec<Vec<String>> {
        let mut header = vec![String::new()];
        header.extend(self.engines.iter().cloned());
        let mut rows = vec![header];
        for (i, engine) in self.engines.iter().enumerate() {
            let mut row = vec![engine.clone()];
            for j in 0..self.engines.len() {
                row.push(match self.games[i][j] {
                    _ if i == j => "-".to_string(),
                    0 => ".".to_string(),
                    games => format!("{}/{games}", points_text(self.points[i][j])),
                });
            }
            rows.push(row);
        }
        rows
    }
}

/// Whether the games are a tournament's: recorded as one, or of more than two engines.
pub fn is_tournament(games: &[GameLine]) -> bool {
    games
        .iter()
        .any(|g| g.run.as_ref().is_some_and(|r| r.tournament.is_some()))
        || Standings::of_lines(games).engines().len() > 2
}

/// The kind of tournament the games were played in (the last recorded), if recorded.
pub fn kind_of(games: &[GameLine]) -> Option<TournamentKind> {
    games
        .iter()
        .rev()
        .find_map(|g| Some(g.run.as_ref()?.tournament.as_ref()?.kind))
}

/// The score expected at a rating difference of `diff` log-odds.
fn expected(diff: f64) -> f64 {
    1.0 / (1.0 + (-diff).exp())
}

/// What the ranking sorts by, highest first: infinite ratings beyond every finite one,
/// unknown ones last.
fn rank_key(rating: &Rating) -> f64 {
    match *rating {
        Rating::Above => f64::INFINITY,
        Rating::Reference => 0.0,
        Rating::Finite { elo, .. } => elo,
        Rating::Below => f64::MIN,
        Rating::Unknown => f64::NEG_INFINITY,
    }
}

/// A rating's Elo and interval cells.
fn rating_cells(rating: Rating) -> (String, String) {
    match rating {
        Rating::Reference => ("0.0".into(), "ref".into()),
        Rating::Finite { elo, error } => {
            // Rounded first, so that an estimate of -0.01 is not shown as -0.0.
            let elo = (elo * 10.0).round() / 10.0 + 0.0;
            (format!("{elo:+.1}"), format!("{error:.1}"))
        }
        Rating::Above => ("+inf".into(), "-".into()),
        Rating::Below => ("-inf".into(), "-".into()),
        Rating::Unknown => ("?".into(), "-".into()),
    }
}

/// Points as a whole number, or with the half: `2`, `1.5`.
fn points_text(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{points:.0}")
    } else {
        format!("{points:.1}")
    }
}

/// Rows of cells as text columns, those of `left` left-aligned, the others right-aligned.
fn aligned(rows: &[Vec<String>], left: &[usize]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                let width = widths[c];
                if left.contains(&c) {
                    format!("{cell:<width$}")
                } else {
                    format!("{cell:>width$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// The solution x of `a x = b` (Gaussian elimination with partial pivoting); `None` if `a`
/// is singular.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &rhs)| row.iter().copied().chain([rhs]).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        for row in col + 1..n {
            let factor = m[row][col] / m[col][col];
            for k in col..=n {
                m[row][k] -= factor * m[col][k];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let known: f64 = (row + 1..n).map(|k| m[row][k] * x[k]).sum();
        x[row] = (m[row][n] - known) / m[row][row];
    }
    Some(x)
}

/// The inverse of `a`, column by column; `None` if `a` is singular.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let columns = (0..n)
        .map(|c| {
            solve(
                a,
                &(0..n)
                    .map(|r| f64::from(u8::from(r == c)))
                    .collect::<Vec<_>>(),
            )
        })
        .collect::<Option<Vec<_>>>()?;
    Some(
        (0..n)
            .map(|r| (0..n).map(|c| columns[c][r]).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::stats::{Elo, Wdl};

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Standings of engines `a`, `b`, `c`, ... from (winner, loser, wins, draws, losses)
    /// results between them, by index.
    fn standings(engines: usize, results: &[(usize, usize, u64, u64, u64)]) -> Standings {
        let mut s = Standings::new((0..engines).map(|i| char::from(b'a' + i as u8).to_string()));
        for &(a, b, wins, draws, losses) in results {
            for (count, points) in [(wins, 1.0), (draws, 0.5), (losses, 0.0)] {
                for _ in 0..count {
                    s.record(a, b, points);
                }
            }
        }
        s
    }

    fn finite(rating: Rating) -> (f64, f64) {
        match rating {
            Rating::Finite { elo, error } => (elo, error),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn two_engines_get_the_matchs_elo() {
        // 60-40: 400 log10(1.5) = 70.437; the interval's half width 1.96 sqrt(1 / (N p q))
        // in log-odds.
        let s = standings(2, &[(1, 0, 60, 0, 40)]);
        let ratings = s.ratings();
        assert_eq!(ratings[0], Rating::Reference);
        let (elo, error) = finite(ratings[1]);
        assert!(close(elo, 400.0 * 1.5f64.log10(), 1e-6), "{elo}");
        let expected_error = Z95 / (100.0f64 * 0.6 * 0.4).sqrt() * ELO_PER_LOG_ODDS;
        assert!(close(error, expected_error, 1e-6), "{error}");
        // The match's own estimate, from its mean score, is the same.
        let matched = Elo::from_wdl(&Wdl {
            wins: 60,
            draws: 0,
            losses: 40,
        })
        .unwrap();
        assert!(close(elo, matched.elo, 1e-6));
    }

    #[test]
    fn ratings_that_fit_the_scores_exactly_are_found() {
        // With r = 400 log10(3), a is 0, b r and c 2r: b scores 3/4 against a and c against
        // b, c 9/10 against a. Scores exactly as expected make the likelihood's maximum.
        let s = standings(3, &[(1, 0, 3, 0, 1), (2, 1, 3, 0, 1), (2, 0, 9, 0, 1)]);
        let r = 400.0 * 3f64.log10();
        let ratings = s.ratings();
        assert!(close(finite(ratings[1]).0, r, 1e-6), "{ratings:?}");
        assert!(close(finite(ratings[2]).0, 2.0 * r, 1e-6), "{ratings:?}");
        // Draws count as half points: two draws are one win and one loss.
        let drawn = standings(3, &[(1, 0, 2, 2, 0), (2, 1, 2, 2, 0), (2, 0, 8, 2, 0)]);
        for (k, rating) in drawn.ratings().into_iter().enumerate().skip(1) {
            assert!(close(finite(rating).0, k as f64 * r, 1e-6), "{rating:?}");
        }
    }

    #[test]
    fn a_gauntlets_errors_are_its_matches_errors() {
        // Each engine meets only the first: its rating and interval are its match's alone.
        let s = standings(3, &[(0, 1, 6, 0, 4), (0, 2, 3, 2, 5)]);
        let ratings = s.ratings();
        for (k, (wins, losses)) in [(4.0, 6.0), (6.0, 4.0)].into_iter().enumerate() {
            let two = standings(2, &[(1, 0, wins as u64, 0, losses as u64)]);
            let (elo, error) = finite(two.ratings()[1]);
            let (got, got_error) = finite(ratings[k + 1]);
            assert!(close(got, elo, 1e-6) && close(got_error, error, 1e-6));
        }
        // Playing each other, they tighten each other's intervals.
        let linked = standings(3, &[(0, 1, 6, 0, 4), (0, 2, 3, 2, 5), (1, 2, 5, 0, 5)]);
        let alone = finite(ratings[1]).1;
        assert!(finite(linked.ratings()[1]).1 < alone);
    }

    #[test]
    fn an_engine_that_scored_every_point_or_none_has_no_finite_rating() {
        // b beats a 3-1; c beats a and b in every game; d loses every game to b; e never
        // played.
        let s = standings(
            5,
            &[
                (0, 1, 1, 0, 3),
                (2, 0, 2, 0, 0),
                (2, 1, 2, 0, 0),
                (1, 3, 2, 0, 0),
            ],
        );
        let ratings = s.ratings();
        assert_eq!(ratings[0], Rating::Reference);
        // b is rated on its games against a alone: those against c and d were all lost or
        // all won.
        let (elo, error) = finite(ratings[1]);
        assert!(close(elo, 400.0 * 3f64.log10(), 1e-6), "{ratings:?}");
        assert_eq!(
            &ratings[2..],
            [Rating::Above, Rating::Below, Rating::Unknown]
        );
        let ranked: Vec<String> = s.ranking_rows()[1..]
            .iter()
            .map(|r| format!("{} {} {}", r[1], r[2], r[3]))
            .collect();
        assert_eq!(
            ranked,
            [
                "c +inf -".to_string(),
                format!("b +190.8 {error:.1}"),
                "a 0.0 ref".to_string(),
                "d -inf -".to_string(),
                "e ? -".to_string(),
            ]
        );
        // Only draws between two engines: even, finite.
        let drawn = standings(2, &[(0, 1, 0, 3, 0)]);
        assert!(close(finite(drawn.ratings()[1]).0, 0.0, 1e-9));
    }

    #[test]
    fn the_cross_table_counts_each_side_of_each_game() {
        let s = standings(3, &[(0, 1, 1, 1, 0), (2, 1, 0, 0, 2)]);
        let rows = s.cross_rows();
        assert_eq!(rows[0], ["", "a", "b", "c"]);
        assert_eq!(rows[1], ["a", "-", "1.5/2", "."]);
        assert_eq!(rows[2], ["b", "0.5/2", "-", "2/2"]);
        assert_eq!(rows[3], ["c", ".", "0/2", "-"]);
        assert_eq!(s.total_games(), 4);
        assert_eq!((s.games_of(1), s.points_of(1)), (4, 2.5));
    }

    #[test]
    fn lines_give_their_engines_and_thinking_time() {
        use crate::arena::referee::Reason;
        let line = |engines: [&str; 2], winner: Option<usize>| GameLine {
            match_id: engines.join(" vs "),
            game: 0,
            seed: Some(1),
            pack_file: None,
            names: [None, None],
            players: None,
            engines: Some(engines.map(str::to_string)),
            winner,
            reason: Reason::Dead,
            losers: [None, None],
            turn: 10,
            scores: [0, 0],
            max_chains: [0, 0],
            first_big_chains: None,
            think_ms: [10.0, 30.0],
            max_think_ms: [1.0, 1.0],
            peak_rss_kib: [None; 2],
            run: None,
            record: None,
        };
        let games = [
            line(["x", "y"], Some(0)),
            line(["y", "z"], None),
            line(["x", "z"], Some(1)),
        ];
        let s = Standings::of_lines(&games);
        assert_eq!(s.engines(), ["x", "y", "z"]);
        assert_eq!(
            (s.points(0, 1), s.points(1, 2), s.points(2, 0)),
            (1.0, 0.5, 1.0)
        );
        assert_eq!(s.think_per_game(1), Some(20.0));
        assert_eq!(s.think_per_game(2), Some(30.0));
        assert!(is_tournament(&games));
        assert!(!is_tournament(&games[..1]));
        let text = s.text(None);
        assert!(
            text.starts_with("Tournament: 3 engines, 3 games\n"),
            "{text}"
        );
        let row_x = text.lines().find(|l| l.starts_with("x ")).unwrap();
        assert_eq!(
            row_x.split_whitespace().collect::<Vec<_>>(),
            ["x", "-", "1/1", "0/1"]
        );
    }

    #[test]
    fn linear_algebra() {
        let a = vec![vec![4.0, 1.0], vec![2.0, 3.0]];
        let x = solve(&a, &[1.0, 2.0]).unwrap();
        assert!(close(x[0], 0.1, 1e-12) && close(x[1], 0.6, 1e-12), "{x:?}");
        let inverse = invert(&a).unwrap();
        assert!(close(inverse[0][0], 0.3, 1e-12) && close(inverse[0][1], -0.1, 1e-12));
        assert!(solve(&[vec![1.0, 2.0], vec![2.0, 4.0]], &[1.0, 1.0]).is_none());
    }
}
