//! Match statistics from wins, losses and draws: Elo with a 95% interval and the likelihood
//! of superiority as fastchess reports them, and the sequential probability ratio test
//! (GSPRT) as fishtest and fastchess compute it, on the trinomial (win/draw/loss) model.
//!
//! Every game is one sample (CODE VS Reborn is symmetric: both players get the same packs, so
//! games are not played in pairs and the pentanomial model does not apply).

use std::fmt;

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Games from the first player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game: `Some(true)` won, `Some(false)` lost, `None` drawn.
    pub fn add(&mut self, won: Option<bool>) {
        match won {
            Some(true) => self.wins += 1,
            Some(false) => self.losses += 1,
            None => self.draws += 1,
        }
    }

    /// Mean score per game (win 1, draw 1/2).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games() as f64
    }

    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games() as f64
    }
}

/// The logistic Elo difference that gives an expected score `score`.
/// Scores outside (0, 1) (an interval reaching past a perfect result) give infinities.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    // `+ 0.0` turns -0 into 0 for an even score.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// The expected score of a player `elo` logistic Elo stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference and its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

impl Elo {
    /// Half the width of the interval, the `+/-` of the report.
    pub fn error(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// Logistic Elo from the mean score, and the interval from the normal approximation of
    /// the mean (per-game variance of the score over the observed outcomes), as fastchess.
    /// `None` without games. A match won (or lost) in every game gives infinite values.
    pub fn from_wdl(wdl: &Wdl) -> Option<Elo> {
        let n = wdl.games() as f64;
        if n == 0.0 {
            return None;
        }
        let score = wdl.score();
        let deviation = |outcome: f64, count: u64| count as f64 * (outcome - score).powi(2);
        let variance =
            (deviation(1.0, wdl.wins) + deviation(0.5, wdl.draws) + deviation(0.0, wdl.losses)) / n;
        let margin = Z95 * (variance / n).sqrt();
        Some(Elo {
            elo: elo_from_score(score),
            low: elo_from_score(score - margin),
            high: elo_from_score(score + margin),
        })
    }
}

/// Likelihood of superiority: the probability that the first player is the stronger, from
/// wins and losses (draws say nothing about it).
pub fn los(wdl: &Wdl) -> Option<f64> {
    let decisive = (wdl.wins + wdl.losses) as f64;
    if decisive == 0.0 {
        return None;
    }
    let diff = wdl.wins as f64 - wdl.losses as f64;
    Some(0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt())))
}

/// The error function, from the Chebyshev fit of `erfc` in Numerical Recipes (`erfcc`,
/// fractional error below 1.2e-7 everywhere).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// How the SPRT's Elo bounds are meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Normalized Elo (fishtest's and fastchess's default): the score difference in units of
    /// the per-game standard deviation, so that bounds do not depend on the draw rate.
    Normalized,
    /// Logistic Elo, the scale of the Elo report.
    Logistic,
}

impl EloModel {
    /// The model's name, as `--sprt` takes it.
    pub fn name(self) -> &'static str {
        match self {
            EloModel::Normalized => "normalized",
            EloModel::Logistic => "logistic",
        }
    }
}

/// A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The LLR crossed the upper bound: the first player is at least elo1 stronger.
    H1,
    /// The LLR crossed the lower bound: it is not elo1 stronger (elo0 or less).
    H0,
    Continue,
}

impl fmt::Display for SprtVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtVerdict::H1 => "H1 accepted",
            SprtVerdict::H0 => "H0 accepted",
            SprtVerdict::Continue => "continue",
        })
    }
}

impl std::str::FromStr for Sprt {
    type Err = String;

    /// `elo0=0,elo1=10,alpha=0.05,beta=0.05[,model=normalized|logistic]`; alpha, beta and
    /// model may be left out (0.05, 0.05, normalized).
    fn from_str(text: &str) -> Result<Self, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Normalized,
        };
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("`{item}` is not KEY=VALUE"))?;
            let number = || {
                value
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| format!("`{value}` is not a number (in `{item}`)"))
            };
            match key.trim() {
                "elo0" => sprt.elo0 = number()?,
                "elo1" => sprt.elo1 = number()?,
                "alpha" => sprt.alpha = number()?,
                "beta" => sprt.beta = number()?,
                "model" => {
                    let name = value.trim();
                    sprt.model = [EloModel::Normalized, EloModel::Logistic]
                        .into_iter()
                        .find(|m| m.name() == name)
                        .ok_or_else(|| {
                            format!("model `{name}`: expected normalized or logistic")
                        })?;
                }
                other => {
                    return Err(format!(
                    "unknown SPRT parameter `{other}`: expected elo0, elo1, alpha, beta or model"
                ))
                }
            }
        }
        sprt.validate()?;
        Ok(sprt)
    }
}

/// The spec `--sprt` takes, every parameter given: what a results file records.
impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={},model={}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            self.model.name()
        )
    }
}

impl Sprt {
    fn validate(&self) -> Result<(), String> {
        if self.elo0.is_nan() || self.elo1.is_nan() {
            return Err("elo0 and elo1 are required, e.g. elo0=0,elo1=10".into());
        }
        if self.elo0 >= self.elo1 {
            return Err(format!(
                "elo0 ({}) must be below elo1 ({})",
                self.elo0, self.elo1
            ));
        }
        let probability = |p: f64| p > 0.0 && p < 1.0;
        if !probability(self.alpha) || !probability(self.beta) || self.alpha + self.beta >= 1.0 {
            return Err("alpha and beta must lie between 0 and 1, with alpha + beta < 1".into());
        }
        Ok(())
    }

    /// log(beta / (1 - alpha)): the LLR below which H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// log((1 - beta) / alpha): the LLR above which H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        if llr >= self.upper_bound() {
            SprtVerdict::H1
        } else if llr <= self.lower_bound() {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }

    /// The generalized log-likelihood ratio of the results (M. Van den Bergh, "Comments on
    /// Normalized Elo"): the empirical distribution's log-likelihood under the maximum
    /// likelihood distribution of H1 minus that of H0. Empty outcomes count as 0.001 games,
    /// as in fastchess, so that the estimate exists from the first game.
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        if wdl.games() == 0 {
            return 0.0;
        }
        let regular = |n: u64| if n == 0 { 1e-3 } else { n as f64 };
        let counts = [regular(wdl.losses), regular(wdl.draws), regular(wdl.wins)];
        let total: f64 = counts.iter().sum();
        let observed = counts.map(|c| c / total);
        let (p0, p1) = match self.model {
            EloModel::Logistic => (
                mle_with_mean(&observed, score_from_elo(self.elo0)),
                mle_with_mean(&observed, score_from_elo(self.elo1)),
            ),
            EloModel::Normalized => {
                let t = |elo: f64| elo * 10f64.ln() / 800.0;
                (
                    mle_with_t(&observed, t(self.elo0)),
                    mle_with_t(&observed, t(self.elo1)),
                )
            }
        };
        let per_game: f64 = (0..3)
            .map(|i| observed[i] * (p1[i].ln() - p0[i].ln()))
            .sum();
        total * per_game
    }
}

/// Scores of a loss, a draw and a win.
const OUTCOMES: [f64; 3] = [0.0, 0.5, 1.0];

/// The distribution over [`OUTCOMES`] nearest to `observed` (maximum likelihood) whose mean
/// is `mean`: p_i = q_i / (1 + theta (a_i - mean)), theta the root of sum q_i (a_i - mean) /
/// (1 + theta (a_i - mean)) = 0 (Van den Bergh, proposition 1.1).
fn mle_with_mean(observed: &[f64; 3], mean: f64) -> [f64; 3] {
    let phi = OUTCOMES.map(|a| a - mean);
    tilt(observed, &phi)
}

/// The distribution nearest to `observed` whose normalized Elo is `t`, i.e. (mu - 1/2) /
/// sigma = t: a fixed point of tilting by phi_i = a_i - 1/2 - t sigma (1 + ((a_i - mu) /
/// sigma)^2) / 2 (Van den Bergh, section 4.1), started from the uniform distribution.
fn mle_with_t(observed: &[f64; 3], t: f64) -> [f64; 3] {
    let mut p = [1.0 / 3.0; 3];
    for _ in 0..1000 {
        let mu: f64 = (0..3).map(|i| p[i] * OUTCOMES[i]).sum();
        let variance: f64 = (0..3).map(|i| p[i] * (OUTCOMES[i] - mu).powi(2)).sum();
        let sigma = variance.sqrt();
        let phi = OUTCOMES.map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)));
        let next = tilt(observed, &phi);
        let change = (0..3).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-10 {
            break;
        }
    }
    p
}

/// q_i / (1 + theta phi_i), with theta solving sum q_i phi_i / (1 + theta phi_i) = 0 on the
/// interval where every 1 + theta phi_i is positive (the sum decreases in theta there).
fn tilt(observed: &[f64; 3], phi: &[f64; 3]) -> [f64; 3] {
    let f = |theta: f64| -> f64 {
        (0..3)
            .map(|i| observed[i] * phi[i] / (1.0 + theta * phi[i]))
            .sum()
    };
    let low_phi = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let high_phi = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (mut low, mut high) = (-1.0 / high_phi, -1.0 / low_phi);
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let theta = 0.5 * (low + high);
    [0, 1, 2].map(|i| observed[i] / (1.0 + theta * phi[i]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn erf_known_values() {
        // Tabulated: erf(0.5) = 0.5204998778, erf(1) = 0.8427007929, erf(2) = 0.9953222650.
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_265_0, 2e-7));
    }

    #[test]
    fn elo_of_sixty_percent() {
        // 60 wins, 40 losses: score 0.6, Elo -400 log10(1/0.6 - 1) = 400 log10(1.5) = 70.437.
        let elo = Elo::from_wdl(&wdl(60, 0, 40)).unwrap();
        assert!(close(elo.elo, 400.0 * 1.5f64.log10(), 1e-9));
        // Binomial: standard error sqrt(0.6 * 0.4 / 100) = 0.04899, margin 0.096020.
        let margin = 1.959_964 * (0.6f64 * 0.4 / 100.0).sqrt();
        let bound = |s: f64| 400.0 * (s / (1.0 - s)).log10();
        assert!(close(elo.low, bound(0.6 - margin), 1e-3), "{elo:?}");
        assert!(close(elo.high, bound(0.6 + margin), 1e-3), "{elo:?}");
        assert!(
            close(elo.low, 2.77, 0.01) && close(elo.high, 143.9, 0.05),
            "{elo:?}"
        );
    }

    #[test]
    fn even_match_is_zero_elo_with_symmetric_interval() {
        let elo = Elo::from_wdl(&wdl(30, 40, 30)).unwrap();
        assert!(close(elo.elo, 0.0, 1e-9));
        assert!(close(elo.low, -elo.high, 1e-9));
        // Per-game variance: 30% at 1/2 and 30% at -1/2 from the mean: 0.15; margin
        // 1.96 sqrt(0.0015) = 0.07591 -> 400 log10(0.57591 / 0.42409) = 53.1.
        assert!(close(elo.high, 53.14, 0.05), "{elo:?}");
        assert_eq!(Elo::from_wdl(&Wdl::default()), None);
        // An interval reaching past a perfect score is unbounded on that side.
        let lopsided = Elo::from_wdl(&wdl(1, 0, 3)).unwrap();
        assert_eq!(lopsided.low, f64::NEG_INFINITY);
        assert!(lopsided.high.is_finite() && lopsided.error().is_infinite());
        let perfect = Elo::from_wdl(&wdl(5, 0, 0)).unwrap();
        assert_eq!(perfect.elo, f64::INFINITY);
    }

    #[test]
    fn los_is_the_normal_tail() {
        // 60 - 40 is two standard deviations: Phi(2) = 0.97725.
        assert!(close(los(&wdl(60, 7, 40)).unwrap(), 0.977_25, 1e-5));
        assert!(close(los(&wdl(10, 0, 10)).unwrap(), 0.5, 1e-7));
        assert_eq!(los(&wdl(0, 5, 0)), None);
    }

    #[test]
    fn bounds_for_five_percent_errors() {
        let sprt: Sprt = "elo0=0,elo1=10,alpha=0.05,beta=0.05".parse().unwrap();
        assert!(close(sprt.upper_bound(), (19.0f64).ln(), 1e-12));
        assert!(close(sprt.lower_bound(), -(19.0f64).ln(), 1e-12));
        assert!(close(sprt.upper_bound(), 2.944, 1e-3));
        assert_eq!(sprt.model, EloModel::Normalized);
    }

    #[test]
    fn logistic_llr_without_draws_is_the_binomial_ratio() {
        // With no draws the ML distribution of mean s puts s on a win, 1 - s on a loss, so
        // LLR = W ln(s1 / s0) + L ln((1 - s1) / (1 - s0)) (up to the 0.001 phantom draw).
        let sprt: Sprt = "elo0=0,elo1=10,model=logistic".parse().unwrap();
        let (s0, s1) = (0.5, score_from_elo(10.0));
        let expected = 60.0 * (s1 / s0).ln() + 40.0 * ((1.0 - s1) / (1.0 - s0)).ln();
        let llr = sprt.llr(&wdl(60, 0, 40));
        assert!(close(llr, expected, 2e-3), "{llr} vs {expected}");
    }

    #[test]
    fn logistic_llr_matches_the_normal_approximation_on_many_games() {
        // For many games and close hypotheses the GSPRT tends to the classic approximation
        // LLR = (s1 - s0) (2 s - s0 - s1) / (2 var / N).
        let sprt: Sprt = "elo0=-2,elo1=3,model=logistic".parse().unwrap();
        let results = wdl(5_300, 9_000, 5_100);
        let n = results.games() as f64;
        let s = results.score();
        let var = (results.wins as f64 * (1.0 - s).powi(2)
            + results.draws as f64 * (0.5 - s).powi(2)
            + results.losses as f64 * s.powi(2))
            / n;
        let (s0, s1) = (score_from_elo(-2.0), score_from_elo(3.0));
        let approximation = (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var / n);
        let llr = sprt.llr(&results);
        assert!(close(llr, approximation, 0.02), "{llr} vs {approximation}");
    }

    #[test]
    fn normalized_llr_matches_its_approximation() {
        // Normalized Elo t = (s - 1/2) / sigma_game scaled by ln10 / 800: for many games the
        // LLR tends to N (t1 - t0) (2 t_hat - t0 - t1) / 2.
        let sprt: Sprt = "elo0=0,elo1=5".parse().unwrap();
        let results = wdl(4_200, 12_000, 3_800);
        let n = results.games() as f64;
        let s = results.score();
        let sigma = ((results.wins as f64 * (1.0 - s).powi(2)
            + results.draws as f64 * (0.5 - s).powi(2)
            + results.losses as f64 * s.powi(2))
            / n)
            .sqrt();
        let t_hat = (s - 0.5) / sigma;
        let scale = 10f64.ln() / 800.0;
        let (t0, t1) = (0.0, 5.0 * scale);
        let approximation = n * (t1 - t0) * (2.0 * t_hat - t0 - t1) / 2.0;
        let llr = sprt.llr(&results);
        assert!(close(llr, approximation, 0.05), "{llr} vs {approximation}");
    }

    #[test]
    fn verdicts() {
        let sprt: Sprt = "elo0=0,elo1=10".parse().unwrap();
        assert_eq!(sprt.verdict(3.0), SprtVerdict::H1);
        assert_eq!(sprt.verdict(-3.0), SprtVerdict::H0);
        assert_eq!(sprt.verdict(0.0), SprtVerdict::Continue);
        // A long run of wins proves the stronger player; of losses, the weaker.
        assert_eq!(sprt.verdict(sprt.llr(&wdl(400, 0, 200))), SprtVerdict::H1);
        assert_eq!(sprt.verdict(sprt.llr(&wdl(200, 0, 400))), SprtVerdict::H0);
        assert_eq!(
            sprt.verdict(sprt.llr(&wdl(20, 0, 20))),
            SprtVerdict::Continue
        );
        assert_eq!(sprt.llr(&Wdl::default()), 0.0);
    }

    #[test]
    fn an_sprt_reads_back_from_its_spec() {
        for spec in [
            "elo0=0,elo1=10",
            "elo0=-2.5,elo1=3,alpha=0.01,beta=0.1,model=logistic",
        ] {
            let sprt: Sprt = spec.parse().unwrap();
            let again: Sprt = sprt.to_string().parse().unwrap();
            assert_eq!(again, sprt, "{spec} -> {sprt}");
        }
        let sprt: Sprt = "elo0=0,elo1=10".parse().unwrap();
        assert_eq!(
            sprt.to_string(),
            "elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized"
        );
    }

    #[test]
    fn bad_sprt_specs() {
        for (spec, needle) in [
            ("elo1=10", "required"),
            ("elo0=10,elo1=0", "below"),
            ("elo0=0,elo1=10,alpha=1.5", "alpha"),
            ("elo0=0,elo1=10,gamma=1", "unknown"),
            ("elo0=x,elo1=10", "not a number"),
            ("elo0", "KEY=VALUE"),
            ("elo0=0,elo1=1,model=bayes", "model"),
        ] {
            let err = spec.parse::<Sprt>().unwrap_err();
            assert!(err.contains(needle), "{spec}: {err}");
        }
    }
}
