//! Standings: the ranking key, written once, and a match's standings.
//!
//! Seats (in a match) and bots (in a tournament, the tournament's aggregate) rank by
//! [`RankKey`]: round wins (a round won jointly by k seats counts 1/k), then total points, then
//! rounds won outright (`protocol/SPEC.md` §8.3, `protocol/RECORD.md` §5); equal on all three, they share a rank. Match standings
//! are built from round records, so the arbiter and replay verification compute them the same
//! way; they are sent to the bots in `bye`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::game::Seat;
use crate::record::RoundRecord;

/// What ranks seats and bots, compared in field order: round wins, then points, then rounds won
/// outright; higher is better.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct RankKey {
    /// Round wins; a round won jointly by k seats counts 1/k.
    pub wins: f64,
    /// Points summed over rounds.
    pub points: u64,
    /// Rounds won outright.
    pub outright: u32,
}

/// Ranks entries by their keys: the entries' indices best first (equal keys in index order),
/// each with its rank from 1; entries with equal keys share the rank of the first of them.
pub fn rank(keys: &[RankKey]) -> Vec<(usize, u32)> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| {
        keys[b]
            .partial_cmp(&keys[a])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let mut ranked: Vec<(usize, u32)> = Vec::with_capacity(keys.len());
    for (i, &entry) in order.iter().enumerate() {
        let rank = match ranked.last() {
            Some(&(prev, rank)) if keys[prev] == keys[entry] => rank,
            _ => i as u32 + 1,
        };
        ranked.push((entry, rank));
    }
    ranked
}

/// One seat's line in the match standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Standing {
    /// Place, 1 best; seats equal on every criterion share it.
    pub rank: u32,
    pub seat: Seat,
    /// The seat's name as the organiser gave it.
    pub name: String,
    /// Round wins; a round won jointly by k seats counts 1/k.
    pub wins: f64,
    /// Points summed over rounds.
    pub points: u64,
    /// Rounds won outright (not shared).
    pub outright: u32,
    /// Rounds played.
    pub rounds: u32,
    /// Forfeits by kind.
    pub forfeits: BTreeMap<String, u32>,
}

impl Standing {
    /// The seat's ranking key.
    pub fn key(&self) -> RankKey {
        RankKey {
            wins: self.wins,
            points: self.points,
            outright: self.outright,
        }
    }
}

/// Accumulates standings over rounds.
#[derive(Clone, Debug)]
pub struct MatchStandings {
    rows: Vec<Standing>,
}

impl MatchStandings {
    pub fn new(names: &[String]) -> MatchStandings {
        MatchStandings {
            rows: names
                .iter()
                .enumerate()
                .map(|(seat, name)| Standing {
                    rank: 1,
                    seat,
                    name: name.clone(),
                    wins: 0.0,
                    points: 0,
                    outright: 0,
                    rounds: 0,
                    forfeits: BTreeMap::new(),
                })
                .collect(),
        }
    }

    /// Adds one round.
    pub fn add(&mut self, record: &RoundRecord) {
        let result = &record.result;
        let winners = result.winners();
        for (seat, row) in self.rows.iter_mut().enumerate() {
            row.rounds += 1;
            row.wins += result.wins[seat];
            row.points += result.points[seat] as u64;
            if winners == [seat] {
                row.outright += 1;
            }
        }
        for f in &record.forfeits {
            *self.rows[f.seat]
                .forfeits
                .entry(f.kind.name().to_string())
                .or_insert(0) += 1;
        }
    }

    /// The standings, best first, with shared ranks for seats equal on every criterion.
    pub fn table(&self) -> Vec<Standing> {
        let keys: Vec<RankKey> = self.rows.iter().map(Standing::key).collect();
        rank(&keys)
            .into_iter()
            .map(|(seat, rank)| Standing {
                rank,
                ..self.rows[seat].clone()
            })
            .collect()
    }
}

/// Round wins as a table's column shows them: whole numbers as they are, and a column in which
/// one value is not whole shows every value with the decimals the most precise one needs (at
/// most 2), so `32` and `13.50` never sit in one column (`32.00` and `13.50`, or `32.0` and `13.5`, do). The terminal's
/// tables use it; the HTML report's `winsDigits` in `crates/tournament/src/report/report.js` follows the same rule.
pub fn wins_column(all: &[f64]) -> Vec<String> {
    let needed = |w: f64| {
        let two = format!("{w:.2}");
        if two.ends_with(".00") {
            0
        } else if two.ends_with('0') {
            1
        } else {
            2
        }
    };
    let digits = all.iter().map(|&w| needed(w)).max().unwrap_or(0);
    all.iter().map(|w| format!("{w:.digits$}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(wins: f64, points: u64, outright: u32) -> RankKey {
        RankKey {
            wins,
            points,
            outright,
        }
    }

    #[test]
    fn a_wins_column_has_one_number_of_decimals() {
        // Before: each value alone, so "32" sat above "13.50".
        assert_eq!(wins_column(&[32.0, 13.5]), ["32.0", "13.5"]);
        assert_eq!(
            wins_column(&[32.0, 13.5, 1.0 / 3.0]),
            ["32.00", "13.50", "0.33"]
        );
        assert_eq!(wins_column(&[3.0, 0.0, 12.0]), ["3", "0", "12"]);
        assert_eq!(wins_column(&[0.25, 2.0]), ["0.25", "2.00"]);
        // 1.999 rounds to 2.00 at two decimals: whole as the column shows it.
        assert_eq!(wins_column(&[1.999, 4.0]), ["2", "4"]);
        assert!(wins_column(&[]).is_empty());
    }

    #[test]
    fn wins_then_points_then_outright_and_ties_share_a_rank() {
        let keys = [
            key(1.5, 30, 1),
            key(2.0, 10, 2),
            key(1.5, 30, 1),
            key(1.5, 30, 0),
            key(1.5, 40, 0),
        ];
        assert_eq!(rank(&keys), vec![(1, 1), (4, 2), (0, 3), (2, 3), (3, 5)]);
    }
}
