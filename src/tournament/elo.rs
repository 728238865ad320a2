//! Elo for 2-player events, from win/draw/loss counts, as fastchess computes it: the score
//! fraction s = (W + D/2) / N gives the Elo difference -400 log10(1/s - 1); the 95% interval
//! comes from the trinomial variance of one round's score, mapped through the same curve; the
//! likelihood of superiority is LOS = Φ((W - L) / sqrt(W + L)).
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
    let n = wdl.games() as f64;
    let s = wdl.score();
    (wdl.wins as f64 * (1.0 - s).powi(2)
        + wdl.draws as f64 * (0.5 - s).powi(2)
        + wdl.losses as f64 * s.powi(2))
        / n
}

/// Elo, 95% interval and LOS from counts; `None` before any game.
pub fn estimate(wdl: &Wdl) -> Option<EloEstimate> {
    if wdl.games() == 0 {
        return None;
    }
    let n = wdl.games() as f64;
    let s = wdl.score();
    let se = (variance(wdl) / n).sqrt();
    let upper = score_to_elo(s + Z95 * se);
    let lower = score_to_elo(s - Z95 * se);
    Some(EloEstimate {
        elo: score_to_elo(s),
        error: (upper - lower) / 2.0,
        los: los(wdl),
    })
}

/// Likelihood of superiority: Φ((W - L) / sqrt(W + L)), 0.5 when there are only draws.
pub fn los(wdl: &Wdl) -> f64 {
    let decisive = (wdl.wins + wdl.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    let x = (wdl.wins as f64 - wdl.losses as f64) / (2.0 * decisive).sqrt();
    0.5 * (1.0 + erf(x))
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

    #[test]
    fn erf_values() {
        assert!((erf(0.5) - 0.520_499_877_813_046_5).abs() < 1e-12);
        assert!((erf(1.0) - 0.842_700_792_949_714_9).abs() < 1e-12);
        assert!((erf(-2.0) + 0.995_322_265_018_952_7).abs() < 1e-12);
    }
}
