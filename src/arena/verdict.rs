//! What a match's tally says in words: the progress line's status and the verdict printed at
//! its end and by `arena stats`, Elo values as the pages print them.

use super::stats::{los, Elo, Sprt, Wdl};

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
