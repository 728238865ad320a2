//! The result of a round: scores, points, ranks with ties, and the share of the round win.
//!
//! Ranking is shared by every game (`protocol/SPEC.md` §8.3): seats are ranked by points, higher first,
//! with standard competition ranking (1, 1, 3); a seat that forfeited ranks after every seat
//! that did not, scores 0 points, and forfeited seats tie among themselves. The round's win is
//! split equally among the seats ranked first that did not forfeit and scored: a round where
//! nobody scored (a token nobody won, say) has no winner.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What a game says of a finished round, before forfeits: plain data. [`Outcome::of`] turns it
/// into the round's outcome, forfeits applied, the same way for every game.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundResult {
    /// The game's own score per colour or seat, as the record and `end` show it.
    pub scores: BTreeMap<String, u32>,
    /// Points per seat, in seat order, as scored.
    pub points: Vec<u32>,
    /// The game's own ranking, when it is not by points alone (1 best, ties share): seats
    /// that did not forfeit keep their order among themselves. `None`: rank by points.
    pub order: Option<Vec<u32>>,
}

impl RoundResult {
    /// A result ranked by points.
    pub fn by_points(scores: BTreeMap<String, u32>, points: Vec<u32>) -> RoundResult {
        RoundResult {
            scores,
            points,
            order: None,
        }
    }
}

/// How a round ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Outcome {
    /// The game's own score per colour (or per seat, in a game without colours), as its rules
    /// document says: balls of each colour on the final board, say, colours nobody plays
    /// included.
    pub scores: BTreeMap<String, u32>,
    /// Points per seat, in seat order: the seat's score, or 0 when it forfeited.
    pub points: Vec<u32>,
    /// Rank per seat, in seat order: 1 is best; ties share a rank (1, 1, 3).
    pub ranks: Vec<u32>,
    /// Share of the round win per seat: 1/k for each of k seats tied first with points, else
    /// 0 (nobody wins a round where nobody scored).
    pub wins: Vec<f64>,
}

impl Outcome {
    /// Builds an outcome from each seat's raw score, applying forfeits.
    pub fn new(scores: BTreeMap<String, u32>, raw_points: &[u32], forfeited: &[bool]) -> Self {
        assert_eq!(
            raw_points.len(),
            forfeited.len(),
            "one forfeit flag per seat"
        );
        let points: Vec<u32> = raw_points
            .iter()
            .zip(forfeited)
            .map(|(&p, &f)| if f { 0 } else { p })
            .collect();
        let ranks = rank_by(&points, forfeited);
        let firsts: Vec<bool> = ranks
            .iter()
            .zip(forfeited)
            .zip(&points)
            .map(|((&r, &f), &p)| r == 1 && !f && p > 0)
            .collect();
        let k = firsts.iter().filter(|&&b| b).count();
        let wins = firsts
            .iter()
            .map(|&b| if b { 1.0 / k as f64 } else { 0.0 })
            .collect();
        Outcome {
            scores,
            points,
            ranks,
            wins,
        }
    }

    /// The outcome of a game's result with `forfeited` seats: the one place where forfeits are
    /// applied (points to 0, ranked last, no share of the win).
    pub fn of(result: RoundResult, forfeited: &[bool]) -> Self {
        let Some(order) = result.order else {
            return Outcome::new(result.scores, &result.points, forfeited);
        };
        let mut outcome = Outcome::new(result.scores, &result.points, forfeited);
        // The game's order among the seats still in; forfeits after every one of them.
        let n = order.len();
        outcome.ranks = (0..n)
            .map(|s| {
                let better = (0..n)
                    .filter(|&o| !forfeited[o] && (forfeited[s] || order[o] < order[s]))
                    .count();
                better as u32 + 1
            })
            .collect();
        let firsts: Vec<bool> = (0..n)
            .map(|s| outcome.ranks[s] == 1 && !forfeited[s])
            .collect();
        let k = firsts.iter().filter(|&&b| b).count();
        outcome.wins = firsts
            .iter()
            .map(|&b| if b { 1.0 / k as f64 } else { 0.0 })
            .collect();
        outcome
    }

    /// The same outcome with (more) seats forfeited: their points drop to 0 and they rank last.
    pub fn with_forfeits(&self, raw_points: &[u32], forfeited: &[bool]) -> Self {
        Outcome::new(self.scores.clone(), raw_points, forfeited)
    }

    /// Seats that share the round win.
    pub fn winners(&self) -> Vec<usize> {
        (0..self.wins.len())
            .filter(|&s| self.wins[s] > 0.0)
            .collect()
    }
}

/// Competition ranking (1, 1, 3) by points, higher first; forfeited seats after all others,
/// tied among themselves.
pub fn rank_by(points: &[u32], forfeited: &[bool]) -> Vec<u32> {
    (0..points.len())
        .map(|s| {
            let better = (0..points.len())
                .filter(|&o| !forfeited[o] && (forfeited[s] || points[o] > points[s]))
                .count();
            better as u32 + 1
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_games_own_order_ranks_the_seats_still_in() {
        let result = RoundResult {
            scores: BTreeMap::new(),
            points: vec![3, 5, 5],
            order: Some(vec![1, 3, 2]),
        };
        let o = Outcome::of(result.clone(), &[false, false, false]);
        assert_eq!(o.ranks, vec![1, 3, 2], "the game's order, not the points");
        assert_eq!(o.winners(), vec![0]);
        let o = Outcome::of(result, &[true, false, false]);
        assert_eq!(o.ranks, vec![3, 2, 1]);
        assert_eq!(o.points, vec![0, 5, 5]);
        assert_eq!(o.winners(), vec![2]);
    }

    #[test]
    fn ties_share_rank_and_win() {
        let o = Outcome::new(BTreeMap::new(), &[30, 30, 4], &[false, false, false]);
        assert_eq!(o.ranks, vec![1, 1, 3]);
        assert_eq!(o.wins, vec![0.5, 0.5, 0.0]);
        assert_eq!(o.winners(), vec![0, 1]);
    }

    #[test]
    fn forfeits_rank_last_tied_with_zero_points() {
        let o = Outcome::new(
            BTreeMap::new(),
            &[40, 10, 14, 0],
            &[true, false, false, true],
        );
        assert_eq!(o.points, vec![0, 10, 14, 0]);
        assert_eq!(o.ranks, vec![3, 2, 1, 3]);
        assert_eq!(o.wins, vec![0.0, 0.0, 1.0, 0.0]);
    }

    #[test]
    fn all_forfeited_nobody_wins() {
        let o = Outcome::new(BTreeMap::new(), &[5, 9], &[true, true]);
        assert_eq!(o.ranks, vec![1, 1]);
        assert_eq!(o.wins, vec![0.0, 0.0]);
    }
}
