//! The sequential probability ratio test for a two-bot event (`--sprt elo0,elo1,alpha,beta`),
//! as fastchess computes it: the generalised SPRT on the trinomial (win/draw/loss) results,
//! LLR = (s1 - s0)(2 s - s0 - s1) / (2 var / N), where s is the observed score, var the
//! variance of one round's score, and s0, s1 the scores the two hypotheses predict. The Elo
//! bounds are read in one of two models:
//!
//! - **normalized** (fastchess's default, fishtest's nElo): s = nelo · sqrt(var) /
//!   (800 / ln 10) + 1/2, so an Elo bound means the same across draw rates;
//! - **logistic**: s = 1 / (1 + 10^(-elo / 400)), the classic Elo curve.
//!
//! The test stops at the first round, in schedule order, at which the LLR leaves
//! [ln(β / (1 - α)), ln((1 - β) / α)]: H1 accepted above, H0 below. With `pentanomial` it
//! runs on pairs of rounds instead ([`super::penta`]) and can stop only as a pair ends.

use serde::{Deserialize, Serialize};

use super::elo::{Wdl, elo_to_score, variance};

/// Which Elo scale the bounds are in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum EloModel {
    Normalized,
    Logistic,
}

/// The test's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
    /// Test on pentanomial results (pairs of rounds with the seats swapped,
    /// [`super::penta`]) instead of single rounds (`--sprt-pentanomial`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pentanomial: bool,
}

/// What the test says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Keep playing.
    Continue,
    /// H0 accepted (the difference is at most elo0).
    H0,
    /// H1 accepted (the difference is at least elo1).
    H1,
}

impl Sprt {
    /// Parses `elo0,elo1,alpha,beta`.
    pub fn parse(s: &str, model: EloModel) -> Result<Sprt, crate::Error> {
        let parts: Vec<f64> = s
            .split(',')
            .map(|p| p.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| {
                crate::Error::Invalid(format!(
                    "--sprt {s:?}: give four numbers, elo0,elo1,alpha,beta"
                ))
            })?;
        let [elo0, elo1, alpha, beta] = parts[..] else {
            return Err(crate::Error::Invalid(format!(
                "--sprt {s:?}: give four numbers, elo0,elo1,alpha,beta (e.g. 0,5,0.05,0.05)"
            )));
        };
        if elo0 >= elo1 {
            return Err(crate::Error::Invalid(format!(
                "--sprt: elo0 ({elo0}) must be below elo1 ({elo1})"
            )));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(crate::Error::Invalid(format!(
                    "--sprt: {name} ({v}) must be between 0 and 0.5"
                )));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
            pentanomial: false,
        })
    }

    /// The lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the results so far (0 without results or variance).
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let n = wdl.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let var = variance(wdl);
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = match self.model {
            EloModel::Logistic => (elo_to_score(self.elo0), elo_to_score(self.elo1)),
            EloModel::Normalized => {
                let scale = var.sqrt() / (800.0 / std::f64::consts::LN_10);
                (self.elo0 * scale + 0.5, self.elo1 * scale + 0.5)
            }
        };
        (s1 - s0) * (2.0 * wdl.score() - s0 - s1) / (2.0 * var / n)
    }

    /// The verdict for an LLR.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// The state of a test after some rounds, for the standings file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtReport {
    pub test: Sprt,
    /// The first bot's results against the second, over the rounds counted.
    pub wdl: Wdl,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub verdict: Verdict,
    /// The round (in schedule order, from 1) at which the test decided, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_after: Option<u64>,
    /// The first bot's pentanomial results against the second, over the pairs counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pentanomial: Option<super::penta::Penta>,
}

/// Runs the test over per-round results of the first bot (its share of the win, the other's),
/// in schedule order; stops counting at the first decision.
pub fn run(test: &Sprt, rounds: impl IntoIterator<Item = (f64, f64)>) -> SprtReport {
    let mut wdl = Wdl::default();
    let mut decided_after = None;
    let mut llr = 0.0;
    for (n, (mine, theirs)) in rounds.into_iter().enumerate() {
        wdl.add(mine, theirs);
        llr = test.llr(&wdl);
        if test.verdict(llr) != Verdict::Continue {
            decided_after = Some(n as u64 + 1);
            break;
        }
    }
    let (lower, upper) = test.bounds();
    SprtReport {
        test: *test,
        wdl,
        llr,
        lower,
        upper,
        verdict: test.verdict(llr),
        decided_after,
        pentanomial: None,
    }
}
