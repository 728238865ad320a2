//! Ratings: Weng-Lin (the model `tournament` rates with), one update per match from the
//! match's standings (ties share a rank), applied to each seat's version. A new version (an
//! upload, an anchor) starts at [`initial`]; the ladder's workers and the finals' re-judging
//! apply [`update`]; the pages rank by [`conservative`].

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// A new version's rating: mu 25, sigma 25/3.
pub fn initial() -> (f64, f64) {
    let r = WengLinRating::new();
    (r.rating, r.uncertainty)
}

/// The ratings after one match: `seats` are (mu, sigma, rank from 1), in seat order.
pub fn update(seats: &[(f64, f64, u32)]) -> Vec<(f64, f64)> {
    let teams: Vec<[WengLinRating; 1]> = seats
        .iter()
        .map(|&(mu, sigma, _)| {
            [WengLinRating {
                rating: mu,
                uncertainty: sigma,
            }]
        })
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(seats)
        .map(|(t, &(_, _, rank))| (&t[..], MultiTeamOutcome::new(rank as usize)))
        .collect();
    weng_lin_multi_team(&input, &WengLinConfig::new())
        .into_iter()
        .map(|t| (t[0].rating, t[0].uncertainty))
        .collect()
}

/// The conservative rating the leaderboard ranks by: mu - 3 sigma.
pub fn conservative(mu: f64, sigma: f64) -> f64 {
    mu - 3.0 * sigma
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winner_rises_and_everyone_grows_surer() {
        let (mu, sigma) = initial();
        let after = update(&[(mu, sigma, 2), (mu, sigma, 1)]);
        assert!(after[1].0 > mu && after[0].0 < mu);
        assert!(after.iter().all(|&(_, s)| s < sigma));
        let tie = update(&[(mu, sigma, 1), (mu, sigma, 1)]);
        assert!((tie[0].0 - mu).abs() < 1e-9);
    }
}
