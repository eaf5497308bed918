//! The report's charts, drawn as inline SVG: Elo and the SPRT's log-likelihood ratio game by
//! game, how long the games lasted, on which turn each side fired its first big chain, how long
//! each side thought.

use std::fmt::Write as _;

use super::referee::BIG_CHAIN;
use super::results::GameLine;
use super::stats::{Elo, Sprt, Wdl};
use super::verdict::number;

/// One colour per player, as in the replay page.
pub(super) const PLAYER_COLOURS: [&str; 2] = ["#6cb4ff", "#ff9a6c"];
pub(super) const CHART_W: f64 = 520.0;
pub(super) const CHART_H: f64 = 170.0;
pub(super) const PAD_LEFT: f64 = 48.0;
pub(super) const PAD_RIGHT: f64 = 12.0;
pub(super) const PAD_TOP: f64 = 12.0;
pub(super) const PAD_BOTTOM: f64 = 26.0;
/// Elo is drawn within this range: a few games won in a row give estimates (and bounds) of
/// several hundred or infinite Elo that would flatten the rest of the curve.
pub(super) const ELO_SHOWN: f64 = 400.0;

pub(super) fn wdl_of(games: &[&GameLine]) -> Wdl {
    let mut wdl = Wdl::default();
    for game in games {
        wdl.add(game.p0_won());
    }
    wdl
}

/// An Elo value with its sign: `+12.3`, `-4.0`, `+inf`.
pub(super) fn signed(value: f64) -> String {
    if value.is_finite() && value >= 0.0 {
        format!("+{}", number(value))
    } else {
        number(value)
    }
}

/// The match so far after each game: its results in game order, accumulated.
pub(super) fn running_wdl(games: &[&GameLine]) -> Vec<Wdl> {
    let mut wdl = Wdl::default();
    games
        .iter()
        .map(|game| {
            wdl.add(game.p0_won());
            wdl
        })
        .collect()
}

pub(super) fn elo_chart(games: &[&GameLine]) -> String {
    let shown = |v: f64| v.clamp(-ELO_SHOWN, ELO_SHOWN);
    let mut estimate = Vec::new();
    let mut low = Vec::new();
    let mut high = Vec::new();
    for (k, wdl) in running_wdl(games).iter().enumerate() {
        let Some(elo) = Elo::from_wdl(wdl) else {
            continue;
        };
        let x = (k + 1) as f64;
        estimate.push((x, shown(elo.elo)));
        low.push((x, shown(elo.low)));
        high.push((x, shown(elo.high)));
    }
    let y_range = value_range(estimate.iter().chain(&low).chain(&high).map(|p| p.1), 0.0);
    let frame = Frame::new(games.len().max(1) as f64, y_range);
    let mut svg = frame.open("games");
    svg.push_str(&frame.band(&low, &high, "#6cb4ff33"));
    svg.push_str(&frame.level(0.0, "#777", ""));
    svg.push_str(&frame.polyline(&estimate, PLAYER_COLOURS[0]));
    svg.push_str("</svg>");
    chart(
        "elo",
        "Elo of p0 after each game, with its 95% interval",
        &svg,
        &format!("drawn within ±{ELO_SHOWN}"),
    )
}

pub(super) fn llr_chart(games: &[&GameLine], sprt: &Sprt) -> String {
    let points: Vec<(f64, f64)> = running_wdl(games)
        .iter()
        .enumerate()
        .map(|(k, wdl)| ((k + 1) as f64, sprt.llr(wdl)))
        .collect();
    let bounds = [sprt.lower_bound(), sprt.upper_bound()];
    let y_range = value_range(points.iter().map(|p| p.1).chain(bounds), 0.0);
    let frame = Frame::new(games.len().max(1) as f64, y_range);
    let mut svg = frame.open("games");
    svg.push_str(&frame.level(bounds[0], "#d66", "H0"));
    svg.push_str(&frame.level(bounds[1], "#6c6", "H1"));
    svg.push_str(&frame.polyline(&points, PLAYER_COLOURS[0]));
    svg.push_str("</svg>");
    let legend = format!(
        "elo0={} elo1={} alpha={} beta={}",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
    );
    chart(
        "llr",
        "SPRT log-likelihood ratio after each game",
        &svg,
        &legend,
    )
}

pub(super) fn length_chart(games: &[&GameLine]) -> String {
    let turns: Vec<f64> = games.iter().map(|g| f64::from(g.turn)).collect();
    let svg = histogram(&[(PLAYER_COLOURS[0], turns.clone())], 10.0, "turns");
    let mean = turns.iter().sum::<f64>() / turns.len().max(1) as f64;
    chart(
        "lengths",
        "Game length",
        &svg,
        &format!("games in bins of 10 turns; mean {mean:.1} turns"),
    )
}

pub(super) fn first_big_chain_chart(games: &[&GameLine]) -> String {
    let turns = [0, 1].map(|p| -> Vec<f64> {
        games
            .iter()
            .filter_map(|g| g.first_big_chains.and_then(|c| c[p]))
            .map(|c| f64::from(c.turn))
            .collect()
    });
    let recorded = games
        .iter()
        .filter(|g| g.first_big_chains.is_some())
        .count();
    let svg = histogram(
        &[
            (PLAYER_COLOURS[0], turns[0].clone()),
            (PLAYER_COLOURS[1], turns[1].clone()),
        ],
        2.0,
        "turn",
    );
    let legend: Vec<String> = (0..2)
        .map(|p| {
            let count = turns[p].len();
            let mean = match count {
                0 => String::new(),
                n => format!(
                    ", turn {:.1} on average",
                    turns[p].iter().sum::<f64>() / n as f64
                ),
            };
            format!("<span class=\"p{p}\">p{p}: in {count} of {recorded} games{mean}</span>")
        })
        .collect();
    chart(
        "first-big-chains",
        &format!("Turn of each side's first chain of {BIG_CHAIN}+"),
        &svg,
        &legend.join(" · "),
    )
}

pub(super) fn think_chart(games: &[&GameLine]) -> String {
    let seconds = [0, 1].map(|p| -> Vec<(f64, f64)> {
        games
            .iter()
            .enumerate()
            .map(|(k, g)| ((k + 1) as f64, g.think_ms[p] / 1000.0))
            .collect()
    });
    let most = seconds.iter().flatten().fold(0.0f64, |a, p| a.max(p.1));
    let frame = Frame::new(games.len().max(1) as f64, (0.0, (most * 1.05).max(1.0)));
    let mut svg = frame.open("games");
    for p in 0..2 {
        svg.push_str(&frame.dots(&seconds[p], PLAYER_COLOURS[p]));
    }
    svg.push_str("</svg>");
    let legend: Vec<String> = (0..2)
        .map(|p| {
            let mean = seconds[p].iter().map(|s| s.1).sum::<f64>() / games.len().max(1) as f64;
            format!("<span class=\"p{p}\">p{p}: {mean:.1} s per game</span>")
        })
        .collect();
    chart(
        "think",
        "Thinking time per game (s)",
        &svg,
        &legend.join(" · "),
    )
}

/// One chart's box: title, picture, legend.
pub(super) fn chart(id: &str, title: &str, svg: &str, legend: &str) -> String {
    format!(
        "<div class=\"chart\" id=\"chart-{id}\"><h2>{}</h2>{svg}<div class=\"legend\">{legend}</div></div>",
        escape(title)
    )
}

/// The range a chart shows: every value and `anchor`, with a little room above and below.
pub(super) fn value_range(values: impl Iterator<Item = f64>, anchor: f64) -> (f64, f64) {
    let (low, high) = values
        .filter(|v| v.is_finite())
        .fold((anchor, anchor), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let room = ((high - low) * 0.05).max(0.5);
    (low - room, high + room)
}

/// Counts of `series` values in bins of `width`, drawn side by side per bin.
pub(super) fn histogram(series: &[(&str, Vec<f64>)], width: f64, x_label: &str) -> String {
    let top = series
        .iter()
        .flat_map(|s| &s.1)
        .fold(0.0f64, |a, &b| a.max(b));
    let bins = (top / width).floor() as usize + 1;
    let counts: Vec<Vec<usize>> = series
        .iter()
        .map(|(_, values)| {
            let mut counts = vec![0; bins];
            for &v in values {
                counts[((v / width).floor() as usize).min(bins - 1)] += 1;
            }
            counts
        })
        .collect();
    let highest = counts.iter().flatten().copied().max().unwrap_or(0).max(1);
    let frame = Frame::new(bins as f64 * width, (0.0, highest as f64));
    let mut svg = frame.open(x_label);
    let bar = (frame.x(width) - frame.x(0.0)) / series.len() as f64;
    for (s, (colour, _)) in series.iter().enumerate() {
        for (bin, &count) in counts[s].iter().enumerate() {
            if count == 0 {
                continue;
            }
            let x = frame.x(bin as f64 * width) + bar * s as f64;
            let y = frame.y(count as f64);
            let _ = write!(
                svg,
                "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\"><title>{}-{}: {count}</title></rect>",
                (bar - 1.0).max(1.0),
                frame.y(0.0) - y,
                bin as f64 * width,
                (bin + 1) as f64 * width,
            );
        }
    }
    svg.push_str("</svg>");
    svg
}

/// A chart's coordinates: x from 0 to `x_max`, y over `y_range`, mapped into the picture.
pub(super) struct Frame {
    pub(super) x_max: f64,
    pub(super) y_low: f64,
    pub(super) y_high: f64,
}

impl Frame {
    fn new(x_max: f64, (y_low, y_high): (f64, f64)) -> Self {
        Frame {
            x_max,
            y_low,
            y_high,
        }
    }

    fn x(&self, value: f64) -> f64 {
        PAD_LEFT + value / self.x_max * (CHART_W - PAD_LEFT - PAD_RIGHT)
    }

    fn y(&self, value: f64) -> f64 {
        let share = (value - self.y_low) / (self.y_high - self.y_low);
        CHART_H - PAD_BOTTOM - share * (CHART_H - PAD_TOP - PAD_BOTTOM)
    }

    /// The `<svg>` tag, the plot's box and its axis labels.
    fn open(&self, x_label: &str) -> String {
        let (left, right) = (self.x(0.0), self.x(self.x_max));
        let (top, bottom) = (self.y(self.y_high), self.y(self.y_low));
        format!(
            "<svg width=\"{CHART_W}\" height=\"{CHART_H}\" viewBox=\"0 0 {CHART_W} {CHART_H}\">\
             <rect x=\"{left:.1}\" y=\"{top:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#444\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\
             <text x=\"{left:.1}\" y=\"{:.1}\">0</text>\
             <text x=\"{right:.1}\" y=\"{:.1}\" text-anchor=\"end\">{} {}</text>",
            right - left,
            bottom - top,
            left - 4.0,
            top + 8.0,
            axis_number(self.y_high),
            left - 4.0,
            bottom,
            axis_number(self.y_low),
            bottom + 14.0,
            bottom + 14.0,
            axis_number(self.x_max),
            escape(x_label),
        )
    }

    fn polyline(&self, points: &[(f64, f64)], colour: &str) -> String {
        format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\" points=\"{}\"/>",
            self.points(points.iter())
        )
    }

    /// The area between `low` and `high` (the same x values).
    fn band(&self, low: &[(f64, f64)], high: &[(f64, f64)], colour: &str) -> String {
        format!(
            "<polygon fill=\"{colour}\" stroke=\"none\" points=\"{}\"/>",
            self.points(high.iter().chain(low.iter().rev()))
        )
    }

    fn dots(&self, points: &[(f64, f64)], colour: &str) -> String {
        points
            .iter()
            .map(|&(x, y)| {
                format!(
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2\" fill=\"{colour}\"/>",
                    self.x(x),
                    self.y(y)
                )
            })
            .collect()
    }

    /// A dashed horizontal line at `value`, labelled at its right end.
    fn level(&self, value: f64, colour: &str, label: &str) -> String {
        let y = self.y(value);
        format!(
            "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{colour}\" stroke-dasharray=\"4 3\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text>",
            self.x(0.0),
            self.x(self.x_max),
            self.x(self.x_max) - 2.0,
            y - 2.0
        )
    }

    fn points<'a>(&self, points: impl Iterator<Item = &'a (f64, f64)>) -> String {
        let pairs: Vec<String> = points
            .map(|&(x, y)| format!("{:.1},{:.1}", self.x(x), self.y(y)))
            .collect();
        pairs.join(" ")
    }
}

/// An axis label: whole numbers without decimals.
pub(super) fn axis_number(value: f64) -> String {
    if (value - value.round()).abs() < 1e-9 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    }
}

/// `text` safe inside HTML text and attribute values.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
