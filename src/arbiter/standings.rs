//! Match standings: round wins (a round won jointly by k seats counts 1/k), then total points,
//! then rounds won outright (DESIGN.md §4). Built from round records, so the arbiter, replay
//! verification and tournaments compute them the same way.

use std::collections::BTreeMap;

use super::protocol::Standing;
use crate::record::RoundRecord;

/// Accumulates standings over rounds.
#[derive(Clone, Debug)]
pub struct Standings {
    rows: Vec<Standing>,
}

impl Standings {
    pub fn new(names: &[String]) -> Standings {
        Standings {
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
        let key = |s: &Standing| (s.wins, s.points, s.outright);
        let mut rows = self.rows.clone();
        rows.sort_by(|a, b| {
            key(b)
                .partial_cmp(&key(a))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.seat.cmp(&b.seat))
        });
        for i in 0..rows.len() {
            rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
                rows[i - 1].rank
            } else {
                i as u32 + 1
            };
        }
        rows
    }
}
