//! Elo for 2-player events, from win/draw/loss counts, as fastchess computes it: the score
//! fraction s = (W + D/2) / N gives the Elo difference -400 log10(1/s - 1); the 95% interval
//! comes from the trinomial variance of one round's score, mapped through the same curve; the
//! likelihood of superiority is LOS = Φ((W - L) / sqrt(W + L)).
//!
//! A run with one kind of result only (no loss, no win, or draws only) has a score of 1 or 0 or
//! a variance of 0: the curve gives ±∞ and the interval no width, a sentinel that would read as
//! a precise figure ("+2000 ±0, LOS 100%"). There the estimate adds one virtual draw, counted
//! as half a win and half a loss, as the Bradley-Terry fit of `bench/ladder` does between every
//! pair: the figures stay finite and honest about how little a short unbeaten run shows, and
//! more rounds wash the prior out. Runs with two kinds of result or more are left as fastchess
//! computes them.
//!
//! Order does not matter for these (they are functions of the counts), unlike the Weng-Lin
//! ratings, which are updated round by round in schedule order.

use serde::{Deserialize, Serialize};

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The score fraction, (W + D/2) / N.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games() as f64
    }

    /// Adds one round from this side's share of the round win (1 win, 0 loss, between: draw).
    pub fn add(&mut self, mine: f64, theirs: f64) {
        if mine > theirs {
            self.wins += 1;
        } else if mine < theirs {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The same counts seen from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// An Elo estimate with its 95% half-interval and the likelihood of superiority.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    /// Elo difference (positive: this side is stronger). Infinite scores are clamped.
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub error: f64,
    /// Likelihood of superiority, 0 to 1.
    pub los: f64,
}

/// Score fraction to Elo difference. Scores of 0 and 1 are clamped to ±2000.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        return -2000.0;
    }
    if score >= 1.0 {
        return 2000.0;
    }
    (-400.0 * (1.0 / score - 1.0).log10()).clamp(-2000.0, 2000.0)
}

/// Elo difference to expected score.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The variance of one round's score.
pub fn variance(wdl: &Wdl) -> f64 {
    Counts::of(wdl).variance()
}

/// Counts as reals: the estimate's, with the virtual draw where one is needed.
#[derive(Clone, Copy)]
struct Counts {
    wins: f64,
    draws: f64,
    losses: f64,
}

impl Counts {
    fn of(wdl: &Wdl) -> Counts {
        Counts {
            wins: wdl.wins as f64,
            draws: wdl.draws as f64,
            losses: wdl.losses as f64,
        }
    }

    /// With one virtual draw (half a win, half a loss) when the run holds one kind of result
    /// only, whose score or variance would be degenerate.
    fn with_prior(wdl: &Wdl) -> Counts {
        let mut c = Counts::of(wdl);
        let kinds = [wdl.wins, wdl.draws, wdl.losses]
            .iter()
            .filter(|&&n| n > 0)
            .count();
        if kinds == 1 {
            c.wins += 0.5;
            c.losses += 0.5;
        }
        c
    }

    fn n(&self) -> f64 {
        self.wins + self.draws + self.losses
    }

    fn score(&self) -> f64 {
        (self.wins + self.draws / 2.0) / self.n()
    }

    fn variance(&self) -> f64 {
        let s = self.score();
        (self.wins * (1.0 - s).powi(2) + self.draws * (0.5 - s).powi(2) + self.losses * s.powi(2))
            / self.n()
    }

    fn los(&self) -> f64 {
        let decisive = self.wins + self.losses;
        if decisive == 0.0 {
            return 0.5;
        }
        let x = (self.wins - self.losses) / (2.0 * decisive).sqrt();
        0.5 * (1.0 + erf(x))
    }
}

/// Elo, 95% interval and LOS from counts (with the virtual draw of a one-sided run, see the
/// module's header); `None` before any game.
pub fn estimate(wdl: &Wdl) -> Option<EloEstimate> {
    if wdl.games() == 0 {
        return None;
    }
    let c = Counts::with_prior(wdl);
    let s = c.score();
    let se = (c.variance() / c.n()).sqrt();
    let upper = score_to_elo(s + Z95 * se);
    let lower = score_to_elo(s - Z95 * se);
    Some(EloEstimate {
        elo: score_to_elo(s),
        error: (upper - lower) / 2.0,
        los: c.los(),
    })
}

/// Likelihood of superiority: Φ((W - L) / sqrt(W + L)), 0.5 when there are only draws.
pub fn los(wdl: &Wdl) -> f64 {
    Counts::of(wdl).los()
}

unsafe extern "C" {
    /// The C library's error function (libm, linked with every Rust program on Linux).
    #[link_name = "erf"]
    fn c_erf(x: f64) -> f64;
}

/// The error function.
pub fn erf(x: f64) -> f64 {
    // SAFETY: erf is a pure function of a double, defined for every input.
    unsafe { c_erf(x) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Before: 12 wins and nothing else gave +2000 ±0 with LOS 100%.
    #[test]
    fn a_one_sided_run_has_a_finite_estimate_and_a_real_interval() {
        let unbeaten = Wdl {
            wins: 12,
            draws: 0,
            losses: 0,
        };
        let e = estimate(&unbeaten).unwrap();
        // 12.5 wins, 0.5 losses of 13: s = 0.9615, 400 log10(25) = 559.2.
        assert!((e.elo - 559.18).abs() < 0.05, "{e:?}");
        assert!(e.error > 100.0 && e.error.is_finite(), "{e:?}");
        assert!(e.los < 0.9999 && e.los > 0.99, "{e:?}");
        let winless = estimate(&unbeaten.flipped()).unwrap();
        assert!((winless.elo + e.elo).abs() < 1e-9, "symmetric: {winless:?}");
        let draws = estimate(&Wdl {
            wins: 0,
            draws: 9,
            losses: 0,
        })
        .unwrap();
        assert_eq!(draws.elo, 0.0);
        assert!(draws.error > 0.0, "{draws:?}");
        assert_eq!(draws.los, 0.5);
        // Two kinds of result: as fastchess computes it, no prior.
        let mixed = Wdl {
            wins: 0,
            draws: 14,
            losses: 36,
        };
        assert!((estimate(&mixed).unwrap().elo + 315.34).abs() < 3.2);
    }

    #[test]
    fn erf_values() {
        assert!((erf(0.5) - 0.520_499_877_813_046_5).abs() < 1e-12);
        assert!((erf(1.0) - 0.842_700_792_949_714_9).abs() < 1e-12);
        assert!((erf(-2.0) + 0.995_322_265_018_952_7).abs() < 1e-12);
    }
}
