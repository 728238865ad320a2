//! Tournament standings and ratings, computed from round records alone.
//!
//! Rounds are folded in schedule order (table, then round: [`Sequencer`] holds back a table
//! that finished before an earlier one), so the result never depends on the order in which
//! rounds finished: a resumed, sharded or merged tournament gives the same standings and
//! ratings as a single uninterrupted run. Only compact [`RoundSummary`]s are kept, never the
//! records, so memory does not grow with the rounds played. Seats are mapped to bots by name
//! (names are unique in a tournament).
//!
//! Ranking is a match's ([`crate::standings::RankKey`]), summed over the tournament: round wins
//! (a round won jointly by k seats counts 1/k), then points (balls), then rounds won outright;
//! bots equal on all three share a rank. Ratings: Weng-Lin for every event; for 2-player events also Elo against
//! the field with its 95% interval and LOS, a head-to-head table, and the SPRT when asked.

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

use super::config::Tournament;
use super::elo::{EloEstimate, Wdl, estimate};
use super::penta::{Penta, halves};
use super::sprt::{Sprt, SprtReport, Verdict};
use super::wenglin::{Rating, Ratings};
use crate::record::RoundRecord;
use crate::standings::{RankKey, rank};

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

impl Row {
    /// The bot's ranking key (the same as a seat's in a match).
    pub fn key(&self) -> RankKey {
        RankKey {
            wins: self.wins,
            points: self.points,
            outright: self.outright,
        }
    }
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
    /// Pairs of rounds with the seats swapped (a table's rotation cycles), counted by `bot`'s
    /// pair score: `[LL, LD, WL+DD, WD, WW]` ([`super::penta`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pentanomial: Option<Penta>,
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

/// What the standings need of one round, and no more: a tournament keeps these (for the
/// tables playing, and the few that finished before an earlier one), never the records.
#[derive(Clone, Debug)]
pub struct RoundSummary {
    pub table: u32,
    pub round: u32,
    /// Per seat, in seat order; `None` when a seat is not a bot of the tournament (the round
    /// is then counted but scores nothing).
    seats: Option<Vec<SeatSummary>>,
    /// Forfeits: the seat and the kind's name.
    forfeits: Vec<(usize, &'static str)>,
}

#[derive(Clone, Copy, Debug)]
struct SeatSummary {
    bot: usize,
    win: f64,
    points: u32,
    rank: u32,
    outright: bool,
    /// Moves the bot itself played, and their wall time (ms) summed in move order.
    moves: u32,
    ms: f64,
}

impl RoundSummary {
    /// The summary of a round of tournament `t` (seats are mapped to bots by name).
    pub fn of(t: &Tournament, r: &RoundRecord) -> RoundSummary {
        let bots: Option<Vec<usize>> = r.seats.iter().map(|s| t.bot_index(&s.name)).collect();
        let winners = r.result.winners();
        let seats = bots.map(|bots| {
            let mut seats: Vec<SeatSummary> = bots
                .iter()
                .enumerate()
                .map(|(seat, &bot)| SeatSummary {
                    bot,
                    win: r.result.wins[seat],
                    points: r.result.points[seat],
                    rank: r.result.ranks[seat],
                    outright: winners == [seat],
                    moves: 0,
                    ms: 0.0,
                })
                .collect();
            for m in r.moves.iter().filter(|m| !m.by_arbiter) {
                seats[m.seat].moves += 1;
                seats[m.seat].ms += m.ms;
            }
            seats
        });
        RoundSummary {
            table: r.table.unwrap_or(0),
            round: r.round,
            seats,
            forfeits: r.forfeits.iter().map(|f| (f.seat, f.kind.name())).collect(),
        }
    }

    /// Each seat's bot and share of the round win, in seat order (none for a round with a
    /// seat that is not a bot of the tournament).
    pub fn wins(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.seats.iter().flatten().map(|s| (s.bot, s.win))
    }

    /// Each seat's bot, share of the round win and points, in seat order.
    pub fn results(&self) -> impl Iterator<Item = (usize, f64, u32)> + '_ {
        self.seats
            .iter()
            .flatten()
            .map(|s| (s.bot, s.win, s.points))
    }

    /// The first bot's and the second's share of the round win (two-bot events).
    fn pair(&self) -> Option<(f64, f64)> {
        let seats = self.seats.as_ref()?;
        let a = seats.iter().find(|s| s.bot == 0)?;
        let b = seats.iter().find(|s| s.bot == 1)?;
        Some((a.win, b.win))
    }
}

/// The first round of a pair under way: its table and round, and each bot's score in half
/// points.
type FirstOfPair = (u32, u32, [(usize, usize); 2]);

/// The SPRT as it goes, round by round in schedule order; it stops counting at its decision.
#[derive(Clone, Debug)]
struct SprtState {
    test: Sprt,
    wdl: Wdl,
    llr: f64,
    rounds: u64,
    decided_after: Option<u64>,
    /// Pairs of rounds (pentanomial tests), and the first bot's score in the first round of
    /// the pair under way (its table and round, and the score in half points).
    penta: Penta,
    half: Option<(u32, u32, usize)>,
}

impl SprtState {
    fn report(&self) -> SprtReport {
        let (lower, upper) = self.test.bounds();
        SprtReport {
            test: self.test,
            wdl: self.wdl,
            llr: self.llr,
            lower,
            upper,
            verdict: self.test.verdict(self.llr),
            decided_after: self.decided_after,
            pentanomial: self.test.pentanomial.then_some(self.penta),
        }
    }
}

/// Standings and ratings folded round by round, in schedule order (table, then round): the
/// same figures as from every record at once, in memory that does not grow with the rounds.
///
/// Ranking is a match's (`protocol/SPEC.md` §8.3, `protocol/RECORD.md` §5). A decided SPRT ends the event: rounds of tables after the
/// one holding the deciding round (tables still running when it decided) are not counted, so
/// the standings do not depend on timing.
#[derive(Clone, Debug)]
pub struct Fold {
    name: String,
    id: String,
    names: Vec<String>,
    two: bool,
    rows: Vec<Row>,
    /// Per bot: tables played, and the last one counted (tables come one after another).
    tables: Vec<(u32, Option<u32>)>,
    ms_total: Vec<f64>,
    ratings: Ratings,
    field: Vec<Wdl>,
    h2h: BTreeMap<(usize, usize), Wdl>,
    /// Pentanomial results per pair of bots, and the first round of the pair under way (its
    /// table and round, and each side's score in half points).
    penta: BTreeMap<(usize, usize), Penta>,
    half: Option<FirstOfPair>,
    tables_played: u32,
    last_table: Option<u32>,
    rounds_counted: u64,
    sprt: Option<SprtState>,
    /// The last table counted once the SPRT decided.
    cut: Option<u32>,
}

impl Fold {
    pub fn new(t: &Tournament) -> Fold {
        let n = t.bots.len();
        Fold {
            name: t.name.clone(),
            id: t.id(),
            names: t.bots.iter().map(|b| b.name.clone()).collect(),
            two: t.players == 2,
            rows: t
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
                .collect(),
            tables: vec![(0, None); n],
            ms_total: vec![0.0; n],
            ratings: Ratings::new(n),
            field: vec![Wdl::default(); n],
            h2h: BTreeMap::new(),
            penta: BTreeMap::new(),
            half: None,
            tables_played: 0,
            last_table: None,
            rounds_counted: 0,
            sprt: t.sprt.map(|test| SprtState {
                test,
                wdl: Wdl::default(),
                llr: 0.0,
                rounds: 0,
                decided_after: None,
                penta: Penta::default(),
                half: None,
            }),
            cut: None,
        }
    }

    /// True once the SPRT decided: no new table should start.
    pub fn decided(&self) -> bool {
        self.cut.is_some()
    }

    /// The next round in schedule order.
    pub fn add(&mut self, r: &RoundSummary) {
        if let Some(s) = &mut self.sprt
            && s.decided_after.is_none()
            && let Some((mine, theirs)) = r.pair()
        {
            s.rounds += 1;
            s.wdl.add(mine, theirs);
            if s.test.pentanomial {
                // A pair is the two rounds of a rotation cycle: rounds 2c + 1 and 2c + 2.
                let score = halves(mine, theirs);
                match s.half.take() {
                    Some((table, round, first)) if table == r.table && round + 1 == r.round => {
                        s.penta.add(first, score);
                        s.llr = s.penta.llr(&s.test);
                    }
                    _ if r.round % 2 == 1 => s.half = Some((r.table, r.round, score)),
                    _ => {}
                }
            } else {
                s.llr = s.test.llr(&s.wdl);
            }
            if s.test.verdict(s.llr) != Verdict::Continue {
                s.decided_after = Some(s.rounds);
                self.cut = Some(r.table);
            }
        }
        if self.cut.is_some_and(|c| r.table > c) {
            return;
        }
        self.rounds_counted += 1;
        let Some(seats) = &r.seats else {
            return;
        };
        if self.last_table != Some(r.table) {
            self.last_table = Some(r.table);
            self.tables_played += 1;
        }
        for s in seats {
            let row = &mut self.rows[s.bot];
            let tables = &mut self.tables[s.bot];
            if tables.1 != Some(r.table) {
                *tables = (tables.0 + 1, Some(r.table));
            }
            row.rounds += 1;
            row.wins += s.win;
            row.points += u64::from(s.points);
            if s.outright {
                row.outright += 1;
            }
        }
        for &(seat, kind) in &r.forfeits {
            *self.rows[seats[seat].bot]
                .forfeits
                .entry(kind.to_string())
                .or_insert(0) += 1;
        }
        for s in seats {
            self.rows[s.bot].moves += u64::from(s.moves);
            self.ms_total[s.bot] += s.ms;
        }
        let placings: Vec<(usize, u32)> = seats.iter().map(|s| (s.bot, s.rank)).collect();
        self.ratings.update(&placings);
        if self.two && seats.len() == 2 {
            let (a, b) = (seats[0].bot, seats[1].bot);
            let (wa, wb) = (seats[0].win, seats[1].win);
            self.field[a].add(wa, wb);
            self.field[b].add(wb, wa);
            self.h2h.entry((a, b)).or_default().add(wa, wb);
            self.h2h.entry((b, a)).or_default().add(wb, wa);
            let scores = [(a, halves(wa, wb)), (b, halves(wb, wa))];
            match self.half.take() {
                Some((table, round, first)) if table == r.table && round + 1 == r.round => {
                    // The same two bots, the seats swapped: match the scores by bot.
                    let of = |bot: usize| first.iter().find(|f| f.0 == bot).map(|f| f.1);
                    if let (Some(fa), Some(fb)) = (of(a), of(b)) {
                        self.penta.entry((a, b)).or_default().add(fa, scores[0].1);
                        self.penta.entry((b, a)).or_default().add(fb, scores[1].1);
                    }
                }
                _ if r.round % 2 == 1 => self.half = Some((r.table, r.round, scores)),
                _ => {}
            }
        }
    }

    /// The standings of the rounds folded so far.
    pub fn standings(&self, tables_scheduled: Option<u32>) -> Standings {
        let mut rows = self.rows.clone();
        for (b, row) in rows.iter_mut().enumerate() {
            row.tables = self.tables[b].0;
            if row.rounds > 0 {
                row.avg_points = round3(row.points as f64 / f64::from(row.rounds));
                row.win_pct = round3(100.0 * row.wins / f64::from(row.rounds));
            }
            row.wins = round3(row.wins);
            if row.moves > 0 {
                row.avg_ms = Some(round3(self.ms_total[b] / row.moves as f64));
            }
            row.rating = self.ratings.get(b);
            if self.two {
                row.elo = estimate(&self.field[b]).map(|estimate| FieldElo {
                    wdl: self.field[b],
                    estimate,
                });
            }
        }
        let keys: Vec<RankKey> = rows.iter().map(Row::key).collect();
        let ranked: Vec<Row> = rank(&keys)
            .into_iter()
            .map(|(b, rank)| Row {
                rank,
                ..rows[b].clone()
            })
            .collect();
        let head_to_head = self
            .h2h
            .iter()
            .filter_map(|(&(a, b), wdl)| {
                estimate(wdl).map(|estimate| HeadToHead {
                    bot: self.names[a].clone(),
                    opponent: self.names[b].clone(),
                    wdl: *wdl,
                    estimate,
                    pentanomial: self.penta.get(&(a, b)).copied(),
                })
            })
            .collect();
        Standings {
            tournament: self.name.clone(),
            id: self.id.clone(),
            tables_played: self.tables_played,
            tables_scheduled,
            rounds_played: self.rounds_counted,
            standings: ranked,
            head_to_head,
            sprt: self.sprt.as_ref().map(SprtState::report),
        }
    }
}

/// Folds tables in schedule order whatever order they finish in: a table that finishes
/// before an earlier one waits (as summaries) until that one is folded.
#[derive(Debug)]
pub struct Sequencer {
    pub fold: Fold,
    /// Tables expected, in schedule order, not yet folded.
    expected: VecDeque<u32>,
    /// Finished tables waiting for an earlier one.
    waiting: BTreeMap<u32, Vec<RoundSummary>>,
}

impl Sequencer {
    pub fn new(fold: Fold) -> Sequencer {
        Sequencer {
            fold,
            expected: VecDeque::new(),
            waiting: BTreeMap::new(),
        }
    }

    /// More tables to expect, after those already expected (ascending).
    pub fn expect(&mut self, tables: impl IntoIterator<Item = u32>) {
        self.expected.extend(tables);
        self.drain();
    }

    /// A finished table: its rounds in round order.
    pub fn finished(&mut self, table: u32, rounds: Vec<RoundSummary>) {
        self.waiting.insert(table, rounds);
        self.drain();
    }

    fn drain(&mut self) {
        while let Some(&next) = self.expected.front() {
            let Some(rounds) = self.waiting.remove(&next) else {
                break;
            };
            for r in &rounds {
                self.fold.add(r);
            }
            self.expected.pop_front();
        }
    }

    /// Tables finished but still waiting for an earlier one.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// The fold of every finished table: those still waiting (for tables that were never
    /// played, as when the SPRT stopped the event) are folded in table order.
    pub fn finish(mut self) -> Fold {
        for rounds in std::mem::take(&mut self.waiting).into_values() {
            for r in &rounds {
                self.fold.add(r);
            }
        }
        self.fold
    }
}

/// Rounds to three decimals, so files stay readable and stable.
fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
