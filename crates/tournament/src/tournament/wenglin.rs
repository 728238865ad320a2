//! The multi-player rating: Weng-Lin (the Bradley-Terry full-pairing model that OpenSkill
//! implements), from the `skillratings` crate. Every round is one free-for-all game whose
//! placings are the round's ranks (ties share a rank, forfeits rank last), and ratings are
//! updated round by round in schedule order (table, then round), never completion order, so a
//! resumed, sharded or merged tournament rates exactly as a single run does.
//!
//! A bot's rating is μ (mean skill, 25 at the start) with uncertainty σ (25/3 at the start);
//! the table shows the conservative estimate μ - 3σ as well.

use serde::{Deserialize, Serialize};
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

/// A bot's Weng-Lin rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
    /// μ - 3σ: the conservative estimate used for display.
    pub ordinal: f64,
}

/// Ratings of a field, updated game by game.
#[derive(Clone, Debug)]
pub struct Ratings {
    players: Vec<WengLinRating>,
    config: WengLinConfig,
}

impl Ratings {
    /// Everyone at the default rating.
    pub fn new(n: usize) -> Ratings {
        Ratings {
            players: vec![WengLinRating::new(); n],
            config: WengLinConfig::new(),
        }
    }

    /// One game: `(player, rank)` with ranks from 1 (ties share a rank).
    pub fn update(&mut self, placings: &[(usize, u32)]) {
        let teams: Vec<[WengLinRating; 1]> =
            placings.iter().map(|&(p, _)| [self.players[p]]).collect();
        let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(placings)
            .map(|(t, &(_, rank))| (&t[..], MultiTeamOutcome::new(rank as usize)))
            .collect();
        let out = weng_lin_multi_team(&input, &self.config);
        for (&(p, _), team) in placings.iter().zip(out) {
            self.players[p] = team[0];
        }
    }

    pub fn get(&self, player: usize) -> Rating {
        let r = self.players[player];
        Rating {
            mu: r.rating,
            sigma: r.uncertainty,
            ordinal: r.rating - 3.0 * r.uncertainty,
        }
    }
}
