//! A version's evaluation against the pool: the SPRT of `tournament::sprt` over its rated
//! matches in match order, each opponent of each match one game (a better place a win, the
//! same place a draw, a worse one a loss). Stored as JSON in `versions.sprt`, recomputed in
//! the transaction that rates a match, so it is always the verdict of the matches counted.

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::store::{VersionId, matches, versions};
use crate::tournament::sprt::{self, Sprt, SprtReport, Verdict};

/// What `versions.sprt` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// `better` (H1: at least elo1 above the pool), `not better` (H0: at most elo0), or
    /// `undecided` (keep playing).
    pub verdict: String,
    pub report: SprtReport,
}

/// The verdict's word.
pub fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::H1 => "better",
        Verdict::H0 => "not better",
        Verdict::Continue => "undecided",
    }
}

/// The evaluation from pairwise results (mine, theirs) in order.
pub fn evaluate(test: &Sprt, games: impl IntoIterator<Item = (f64, f64)>) -> Evaluation {
    let report = sprt::run(test, games);
    Evaluation {
        verdict: verdict_word(report.verdict).to_string(),
        report,
    }
}

/// Recomputes and stores the evaluation of `version` from its rated matches.
pub fn update(conn: &Connection, test: &Sprt, version: i64) -> Result<(), Error> {
    let games: Vec<(f64, f64)> = matches::rated_pairs(conn, VersionId(version))?
        .into_iter()
        .map(|(mine, theirs)| match mine.cmp(&theirs) {
            std::cmp::Ordering::Less => (1.0, 0.0),
            std::cmp::Ordering::Equal => (0.5, 0.5),
            std::cmp::Ordering::Greater => (0.0, 1.0),
        })
        .collect();
    let evaluation = evaluate(test, games);
    let json = serde_json::to_string(&evaluation).expect("an evaluation serialises");
    Ok(versions::set_evaluation(conn, VersionId(version), &json)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::sprt::EloModel;

    #[test]
    fn a_version_that_always_wins_is_better_and_one_that_always_loses_is_not() {
        let test = Sprt::parse("0,10,0.05,0.05", EloModel::Normalized).unwrap();
        let mixed = |win_every: usize| {
            (0..400).map(move |i| {
                if i % win_every == 0 {
                    (0.0, 1.0)
                } else {
                    (1.0, 0.0)
                }
            })
        };
        assert_eq!(evaluate(&test, mixed(4)).verdict, "better");
        let losing = (0..400).map(|i| if i % 4 == 0 { (1.0, 0.0) } else { (0.0, 1.0) });
        assert_eq!(evaluate(&test, losing).verdict, "not better");
        assert_eq!(evaluate(&test, []).verdict, "undecided");
    }
}
