//! Tournament standings and ratings, computed from round records alone.
//!
//! Records are first sorted into schedule order (table, then round), so the result never
//! depends on the order in which rounds finished: a resumed, sharded or merged tournament
//! gives the same standings and ratings as a single uninterrupted run. Seats are mapped to bots
//! by name (names are unique in a tournament).
//!
//! Ranking follows DESIGN.md §4, summed over the tournament: round wins (a round won jointly
//! by k seats counts 1/k), then points (balls), then rounds won outright; bots equal on all
//! three share a rank. Ratings: Weng-Lin for every event; for 2-player events also Elo against
//! the field with its 95% interval and LOS, a head-to-head table, and the SPRT when asked.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::config::Tournament;
use super::elo::{EloEstimate, Wdl, estimate};
use super::sprt::{Sprt, SprtReport};
use super::wenglin::{Rating, Ratings};
use crate::record::RoundRecord;

/// One bot's line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub rank: u32,
    pub bot: String,
    pub tables: u32,
    pub rounds: u32,
    /// Round wins (shared wins count 1/k).
    pub wins: f64,
    /// Points (balls) summed over rounds.
    pub points: u64,
    /// Rounds won outright.
    pub outright: u32,
    /// Points per round.
    pub avg_points: f64,
    /// Round wins per round played, in percent.
    pub win_pct: f64,
    /// Forfeits by kind.
    pub forfeits: BTreeMap<String, u32>,
    /// Moves the bot itself played (not the arbiter's).
    pub moves: u64,
    /// Mean wall time per move, ms (a timing field: differs between runs).
    pub avg_ms: Option<f64>,
    /// Weng-Lin rating after every round, in schedule order.
    pub rating: Rating,
    /// 2-player events: Elo against the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo: Option<FieldElo>,
}

/// A bot's Elo against everyone it played (2-player events).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldElo {
    #[serde(flatten)]
    pub wdl: Wdl,
    #[serde(flatten)]
    pub estimate: EloEstimate,
}

/// One cell of the head-to-head table: `bot` against `opponent`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadToHead {
    pub bot: String,
    pub opponent: String,
    #[serde(flatten)]
    pub wdl: Wdl,
    #[serde(flatten)]
    pub estimate: EloEstimate,
}

/// Everything `standings.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standings {
    pub tournament: String,
    pub id: String,
    pub tables_played: u32,
    pub tables_scheduled: Option<u32>,
    pub rounds_played: u64,
    pub standings: Vec<Row>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub head_to_head: Vec<HeadToHead>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtReport>,
}

/// Sorts records into schedule order: table, then round.
pub fn schedule_order(records: &mut [RoundRecord]) {
    records.sort_by_key(|r| (r.table.unwrap_or(0), r.round));
}

/// The tables whose rounds the standings count when an SPRT decided: every table up to and
/// including the one holding the deciding round. `None`: count everything.
pub fn sprt_cut(t: &Tournament, sprt: &Sprt, sorted: &[RoundRecord]) -> Option<u32> {
    let report = super::sprt::run(sprt, pair_results(t, sorted));
    let n = report.decided_after? as usize;
    sorted.get(n - 1).and_then(|r| r.table)
}

/// The first bot's and the second's share of each round's win, in order (two-bot events).
fn pair_results<'a>(
    t: &'a Tournament,
    sorted: &'a [RoundRecord],
) -> impl Iterator<Item = (f64, f64)> + 'a {
    sorted.iter().filter_map(move |r| {
        let a = r.seats.iter().position(|s| s.name == t.bots[0].name)?;
        let b = r.seats.iter().position(|s| s.name == t.bots[1].name)?;
        Some((r.result.wins[a], r.result.wins[b]))
    })
}

/// Standings and ratings from records already in schedule order.
pub fn compute(t: &Tournament, sorted: &[RoundRecord], tables_scheduled: Option<u32>) -> Standings {
    let n = t.bots.len();
    let sprt = t.sprt.as_ref();
    // A decided SPRT ends the event: rounds of later tables (still running when it decided)
    // are not counted, so the standings do not depend on timing.
    let cut = sprt.and_then(|s| sprt_cut(t, s, sorted));
    let counted: Vec<&RoundRecord> = sorted
        .iter()
        .filter(|r| cut.is_none_or(|c| r.table.unwrap_or(0) <= c))
        .collect();
    let mut rows: Vec<Row> = t
        .bots
        .iter()
        .map(|b| Row {
            rank: 0,
            bot: b.name.clone(),
            tables: 0,
            rounds: 0,
            wins: 0.0,
            points: 0,
            outright: 0,
            avg_points: 0.0,
            win_pct: 0.0,
            forfeits: BTreeMap::new(),
            moves: 0,
            avg_ms: None,
            rating: Ratings::new(1).get(0),
            elo: None,
        })
        .collect();
    let mut tables: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); n];
    let mut ms_total = vec![0.0f64; n];
    let mut ratings = Ratings::new(n);
    let two = t.players == 2;
    let mut field = vec![Wdl::default(); n];
    let mut h2h: BTreeMap<(usize, usize), Wdl> = BTreeMap::new();
    let mut tables_played = BTreeSet::new();
    for r in &counted {
        let bots: Vec<Option<usize>> = r.seats.iter().map(|s| t.bot_index(&s.name)).collect();
        if bots.iter().any(Option::is_none) {
            continue;
        }
        let bots: Vec<usize> = bots.into_iter().flatten().collect();
        tables_played.insert(r.table.unwrap_or(0));
        let winners = r.result.winners();
        for (seat, &b) in bots.iter().enumerate() {
            let row = &mut rows[b];
            tables[b].insert(r.table.unwrap_or(0));
            row.rounds += 1;
            row.wins += r.result.wins[seat];
            row.points += u64::from(r.result.points[seat]);
            if winners == [seat] {
                row.outright += 1;
            }
        }
        for f in &r.forfeits {
            *rows[bots[f.seat]]
                .forfeits
                .entry(f.kind.name().to_string())
                .or_insert(0) += 1;
        }
        for m in r.moves.iter().filter(|m| !m.by_arbiter) {
            rows[bots[m.seat]].moves += 1;
            ms_total[bots[m.seat]] += m.ms;
        }
        let placings: Vec<(usize, u32)> = bots
            .iter()
            .zip(&r.result.ranks)
            .map(|(&b, &rank)| (b, rank))
            .collect();
        ratings.update(&placings);
        if two && bots.len() == 2 {
            let (a, b) = (bots[0], bots[1]);
            let (wa, wb) = (r.result.wins[0], r.result.wins[1]);
            field[a].add(wa, wb);
            field[b].add(wb, wa);
            h2h.entry((a, b)).or_default().add(wa, wb);
            h2h.entry((b, a)).or_default().add(wb, wa);
        }
    }
    for (b, row) in rows.iter_mut().enumerate() {
        row.tables = tables[b].len() as u32;
        if row.rounds > 0 {
            row.avg_points = round3(row.points as f64 / f64::from(row.rounds));
            row.win_pct = round3(100.0 * row.wins / f64::from(row.rounds));
        }
        row.wins = round3(row.wins);
        if row.moves > 0 {
            row.avg_ms = Some(round3(ms_total[b] / row.moves as f64));
        }
        row.rating = ratings.get(b);
        if two {
            row.elo = estimate(&field[b]).map(|estimate| FieldElo {
                wdl: field[b],
                estimate,
            });
        }
    }
    let key = |r: &Row| (r.wins, r.points, r.outright);
    let order: Vec<usize> = {
        let mut idx: Vec<usize> = (0..n).collect();
        idx.sort_by(|&a, &b| {
            key(&rows[b])
                .partial_cmp(&key(&rows[a]))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.cmp(&b))
        });
        idx
    };
    let mut ranked: Vec<Row> = Vec::with_capacity(n);
    for (i, &b) in order.iter().enumerate() {
        let mut row = rows[b].clone();
        row.rank = match ranked.last() {
            Some(prev) if key(prev) == key(&row) => prev.rank,
            _ => i as u32 + 1,
        };
        ranked.push(row);
    }
    let head_to_head = h2h
        .into_iter()
        .filter_map(|((a, b), wdl)| {
            estimate(&wdl).map(|estimate| HeadToHead {
                bot: t.bots[a].name.clone(),
                opponent: t.bots[b].name.clone(),
                wdl,
                estimate,
            })
        })
        .collect();
    Standings {
        tournament: t.name.clone(),
        id: t.id(),
        tables_played: tables_played.len() as u32,
        tables_scheduled,
        rounds_played: counted.len() as u64,
        standings: ranked,
        head_to_head,
        sprt: sprt.map(|s| super::sprt::run(s, pair_results(t, sorted))),
    }
}

/// Rounds to three decimals, so files stay readable and stable.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
