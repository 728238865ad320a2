//! What the report shows, folded from the rounds in schedule order, one round at a time: per
//! bot its rounds, forfeits and faults with their evidence, move times, identity (commands,
//! executable hashes, what it said in `ready`), rating after each round and results by seat,
//! play order and colour; per pair of bots the head-to-head counts.
//!
//! Only the rounds the standings count are folded (a decided SPRT ends the event: see
//! [`crate::tournament::aggregate`]), and a round with a seat that is not a bot of the
//! tournament counts for nothing, as in the standings. Nothing here knows a game: seats,
//! ranks, points, win shares, colours (when the record has them) and move times are the
//! record's own fields.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;
use serde_json::{Value, json};

use super::timing;
use super::viewers::Link;
use crate::record::RoundRecord;
use crate::tournament::wenglin::Ratings;

/// Evidence kept per bot and list (forfeits, faults, refused lines): the first ones, with a
/// count of all, so a bot that forfeits every round does not make a huge page.
const EVIDENCE: usize = 200;
/// Points per bot in the rating plot.
const HISTORY: usize = 400;

/// Rounds, points and win shares of some seats.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Tally {
    pub rounds: u64,
    pub points: u64,
    pub wins: f64,
}

impl Tally {
    fn add(&mut self, points: u32, win: f64) {
        self.rounds += 1;
        self.points += u64::from(points);
        self.wins += win;
    }
}

/// Per ordered pair (a, b): rounds where a finished ahead of b, level, behind; a's win shares.
#[derive(Clone, Copy, Debug, Default)]
struct Pair {
    ahead: u32,
    tied: u32,
    behind: u32,
    score: f64,
}

/// One bot's side of the report.
#[derive(Debug, Default)]
pub struct Bot {
    /// Compact rows: `[table, round, seat, colour, the bots of every seat, points, rank, win
    /// share, forfeit kind, viewer file, place in it]`.
    pub rounds: Vec<Value>,
    pub forfeit_kinds: BTreeMap<String, u32>,
    pub forfeits: Vec<Value>,
    pub fault_kinds: BTreeMap<String, u32>,
    pub faults: Vec<Value>,
    ms: Vec<f64>,
    pub commands: BTreeSet<String>,
    /// Path → the hashes seen for it.
    pub files: BTreeMap<String, BTreeSet<String>>,
    /// What the bot said in `ready`: name, version, author.
    pub idents: BTreeSet<(String, String, String)>,
    history: Vec<[f64; 3]>,
    pub by_seat: Vec<Tally>,
    pub by_order: Vec<Tally>,
    pub by_colour: BTreeMap<String, Tally>,
    /// The last non-empty stderr tail of a round: table, round, text.
    pub last_stderr: Option<(u32, u32, String)>,
}

/// Everything folded so far.
pub struct Collector {
    index: HashMap<String, usize>,
    pub bots: Vec<Bot>,
    pairs: Vec<Pair>,
    ratings: Ratings,
    /// Rounds folded (the rating plot's x axis).
    pub rounds: u64,
    pub by_seat: Vec<Tally>,
    pub by_order: Vec<Tally>,
    pub by_colour: BTreeMap<String, Tally>,
    pub arbiters: BTreeSet<String>,
    pub games: BTreeSet<(String, u32)>,
    /// Tables folded: `{t, b, rounds, counted}`: number, the bots by seat, and per round
    /// `[round, win shares, points, forfeits, viewer file, place in it]`.
    pub tables: Vec<Value>,
}

impl Collector {
    pub fn new(names: &[String]) -> Collector {
        let n = names.len();
        Collector {
            index: names
                .iter()
                .enumerate()
                .map(|(i, s)| (s.clone(), i))
                .collect(),
            bots: (0..n).map(|_| Bot::default()).collect(),
            pairs: vec![Pair::default(); n * n],
            ratings: Ratings::new(n),
            rounds: 0,
            by_seat: Vec::new(),
            by_order: Vec::new(),
            by_colour: BTreeMap::new(),
            arbiters: BTreeSet::new(),
            games: BTreeSet::new(),
            tables: Vec::new(),
        }
    }

    /// A table's rounds, in round order, with each round's replay link; `counted`: whether
    /// the standings count them (else they are only listed).
    pub fn table(&mut self, table: u32, rounds: &[RoundRecord], links: &[Link], counted: bool) {
        let Some(first) = rounds.first() else {
            return;
        };
        let bots: Vec<Option<usize>> = first
            .seats
            .iter()
            .map(|s| self.index.get(&s.name).copied())
            .collect();
        let results: Vec<Value> = rounds
            .iter()
            .zip(links)
            .map(|(r, l)| {
                json!([
                    r.round,
                    r.result.wins,
                    r.result.points,
                    r.forfeits.len(),
                    l.file,
                    l.game
                ])
            })
            .collect();
        self.tables
            .push(json!({"t": table, "b": bots, "rounds": results, "counted": counted}));
        if counted {
            for (r, l) in rounds.iter().zip(links) {
                self.round(r, *l);
            }
        }
    }

    /// One round, in schedule order.
    fn round(&mut self, r: &RoundRecord, link: Link) {
        let href = link.href();
        let Some(bots) = r
            .seats
            .iter()
            .map(|s| self.index.get(&s.name).copied())
            .collect::<Option<Vec<usize>>>()
        else {
            return;
        };
        let k = bots.len();
        let res = &r.result;
        if res.points.len() != k || res.ranks.len() != k || res.wins.len() != k {
            return;
        }
        self.rounds += 1;
        self.arbiters.insert(r.arbiter.clone());
        self.games.insert((r.game.clone(), r.rules));
        let table = r.table.unwrap_or(0);
        let colour = |seat: usize| r.colours.as_ref().and_then(|c| c.get(seat)).cloned();
        let forfeit_of = |seat: usize| {
            r.forfeits
                .iter()
                .find(|f| f.seat == seat)
                .map(|f| f.kind.name())
        };

        // Ratings, as the standings update them: every round's ranks.
        let placings: Vec<(usize, u32)> = bots.iter().copied().zip(res.ranks.clone()).collect();
        self.ratings.update(&placings);

        for (seat, &b) in bots.iter().enumerate() {
            let order = (seat + k - r.first % k.max(1)) % k.max(1);
            let (points, win) = (res.points[seat], res.wins[seat]);
            tally(&mut self.by_seat, seat).add(points, win);
            tally(&mut self.by_order, order).add(points, win);
            let bot = &mut self.bots[b];
            tally(&mut bot.by_seat, seat).add(points, win);
            tally(&mut bot.by_order, order).add(points, win);
            if let Some(c) = colour(seat) {
                self.by_colour
                    .entry(c.clone())
                    .or_default()
                    .add(points, win);
                bot.by_colour.entry(c).or_default().add(points, win);
            }
            bot.rounds.push(json!([
                table,
                r.round,
                seat,
                colour(seat),
                bots,
                points,
                res.ranks[seat],
                win,
                forfeit_of(seat),
                link.file,
                link.game,
            ]));
            let rating = self.ratings.get(b);
            bot.history
                .push([self.rounds as f64, rating.mu, rating.sigma]);
            let s = &r.seats[seat];
            bot.commands.insert(s.command.clone());
            for (path, hash) in &s.files {
                bot.files
                    .entry(path.clone())
                    .or_default()
                    .insert(hash.clone());
            }
            if let Some(name) = &s.bot_name {
                bot.idents.insert((
                    name.clone(),
                    s.bot_version.clone().unwrap_or_default(),
                    s.bot_author.clone().unwrap_or_default(),
                ));
            }
            if let Some(tail) = r.stderr.get(seat).filter(|t| !t.is_empty()) {
                bot.last_stderr = Some((table, r.round, tail.clone()));
            }
        }
        for m in &r.moves {
            let Some(&b) = bots.get(m.seat) else { continue };
            let bot = &mut self.bots[b];
            if !m.by_arbiter {
                bot.ms.push(m.ms);
            }
            for a in &m.refused {
                *bot.fault_kinds.entry("refused".into()).or_default() += 1;
                if bot.faults.len() < EVIDENCE {
                    bot.faults.push(json!({
                        "t": table, "r": r.round, "h": href, "kind": "refused", "ply": m.ply,
                        "detail": a.reason, "line": a.line,
                    }));
                }
            }
        }
        for f in &r.forfeits {
            let Some(&b) = bots.get(f.seat) else { continue };
            let bot = &mut self.bots[b];
            *bot.forfeit_kinds
                .entry(f.kind.name().to_string())
                .or_default() += 1;
            if bot.forfeits.len() < EVIDENCE {
                let mut v = serde_json::to_value(f).unwrap_or(Value::Null);
                if let Some(o) = v.as_object_mut() {
                    o.insert("t".into(), json!(table));
                    o.insert("r".into(), json!(r.round));
                    o.insert("h".into(), json!(href));
                }
                bot.forfeits.push(v);
            }
        }
        for f in &r.faults {
            let Some(&b) = bots.get(f.seat) else { continue };
            let bot = &mut self.bots[b];
            *bot.fault_kinds.entry(f.kind.to_string()).or_default() += 1;
            if bot.faults.len() < EVIDENCE {
                bot.faults.push(json!({
                    "t": table, "r": r.round, "h": href, "kind": f.kind,
                    "detail": f.detail, "line": f.line,
                }));
            }
        }
        for i in 0..k {
            for j in 0..k {
                if i == j || bots[i] == bots[j] {
                    continue;
                }
                let n = self.bots.len();
                let p = &mut self.pairs[bots[i] * n + bots[j]];
                match res.ranks[i].cmp(&res.ranks[j]) {
                    std::cmp::Ordering::Less => p.ahead += 1,
                    std::cmp::Ordering::Equal => p.tied += 1,
                    std::cmp::Ordering::Greater => p.behind += 1,
                }
                p.score += res.wins[i];
            }
        }
    }

    /// The crosstable, row bot against column bot (configuration order): `[ahead, tied,
    /// behind, score]` per cell, `null` on the diagonal and for pairs that never met.
    pub fn crosstable(&self) -> Vec<Vec<Value>> {
        let n = self.bots.len();
        (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| {
                        let p = self.pairs[a * n + b];
                        if a == b || p.ahead + p.tied + p.behind == 0 {
                            Value::Null
                        } else {
                            json!([p.ahead, p.tied, p.behind, round3(p.score)])
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Each bot's rating after each of its rounds, `[round, mu, sigma]`, thinned to at most
    /// 400 points (the last always kept).
    pub fn history(&self, b: usize) -> Vec<[f64; 3]> {
        let h = &self.bots[b].history;
        let step = h.len().div_ceil(HISTORY).max(1);
        let mut out: Vec<[f64; 3]> = h.iter().step_by(step).copied().collect();
        if let (Some(last), Some(kept)) = (h.last(), out.last())
            && last[0] != kept[0]
        {
            out.push(*last);
        }
        out.iter()
            .map(|p| [p[0], round3(p[1]), round3(p[2])])
            .collect()
    }

    /// A bot's move times.
    pub fn timing(&mut self, b: usize) -> Value {
        timing::summary(std::mem::take(&mut self.bots[b].ms))
    }
}

fn tally(v: &mut Vec<Tally>, i: usize) -> &mut Tally {
    if v.len() <= i {
        v.resize(i + 1, Tally::default());
    }
    &mut v[i]
}

pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
