//! Pentanomial results of a two-player event, as fastchess reports them: rounds taken in
//! pairs, the two rounds of a rotation cycle (the same opening, the seats swapped), each pair
//! scored 0, 1/2, 1, 3/2 or 2 for one side. Counting pairs rather than rounds takes out what
//! the opening gives one seat: a lopsided opening won by whoever sits on its good side is a
//! 1-1 pair, not a win and a loss, so the variance is smaller and an SPRT on pairs decides
//! sooner ([`Penta::llr`], the generalised SPRT of fastchess on the pair score).
//!
//! Bins, as fastchess names them: LL (0), LD (1/2), WL + DD (1), WD (3/2), WW (2). A draw is a
//! round whose win is shared.

use serde::{Deserialize, Serialize};

use super::sprt::{EloModel, Sprt};

/// Pair counts by the pair's score for one side, in half points: `[LL, LD, WL+DD, WD, WW]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Penta(pub [u64; 5]);

/// A round's score for one side: 1 won, 1/2 shared, 0 lost, as [`super::elo::Wdl::add`]
/// counts it (in half points: 2, 1, 0).
pub fn halves(mine: f64, theirs: f64) -> usize {
    if mine > theirs {
        2
    } else if mine < theirs {
        0
    } else {
        1
    }
}

impl Penta {
    /// Adds a pair from this side's two round scores in half points ([`halves`]).
    pub fn add(&mut self, first: usize, second: usize) {
        self.0[(first + second).min(4)] += 1;
    }

    /// The same pairs seen from the other side.
    pub fn flipped(&self) -> Penta {
        let mut out = self.0;
        out.reverse();
        Penta(out)
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The mean pair score as a fraction (0 to 1), and its variance per pair.
    fn moments(&self) -> (f64, f64) {
        let n = self.pairs() as f64;
        let p = |i: usize| self.0[i] as f64 / n;
        let score: f64 = (0..5).map(|i| p(i) * i as f64 / 4.0).sum();
        let var: f64 = (0..5)
            .map(|i| p(i) * (i as f64 / 4.0 - score).powi(2))
            .sum();
        (score, var)
    }

    /// The log-likelihood ratio of the test on these pairs (0 without pairs or variance):
    /// LLR = (s1 - s0)(2 s - s0 - s1) / (2 var / pairs), with s the mean pair score, var its
    /// variance, and the bounds' scores s0, s1 read in the test's model (normalized:
    /// nelo x sqrt(2 var) / (800 / ln 10) + 1/2, as fastchess does for pairs).
    pub fn llr(&self, test: &Sprt) -> f64 {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let (score, var) = self.moments();
        if var <= 0.0 {
            return 0.0;
        }
        let to_score = |elo: f64| match test.model {
            EloModel::Logistic => super::elo::elo_to_score(elo),
            EloModel::Normalized => {
                elo * (2.0 * var).sqrt() / (800.0 / std::f64::consts::LN_10) + 0.5
            }
        };
        let (s0, s1) = (to_score(test.elo0), to_score(test.elo1));
        (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * var / n)
    }
}
