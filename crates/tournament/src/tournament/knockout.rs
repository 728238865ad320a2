//! Knockout brackets (`schedule = "knockout"`): single or double elimination, decided phase by
//! phase from the results, as a pure function of the seeds, the format and the finished ties.
//!
//! - **A tie** is one table: a mini-match of the table's `rounds` rounds. Its bots are ranked by
//!   round wins, then (tiebreak `points`, the default) by points, then by seed; with tiebreak
//!   `seed` the better seed goes through a tie on wins. The top `advance` of a table go through
//!   (2 players: the winner).
//! - **Seeds** order the field: the file's order, a `seeds` list, or the bots' `rating`s.
//!   Every phase is re-seeded (as the NFL's playoffs are): the bots still in are sorted by seed
//!   and tables are dealt in a serpentine (best with worst), so the top seeds meet as late as
//!   possible.
//! - **Single elimination**: a field of m bots at tables of k with K advancing must come down to
//!   one final table of k; the first phase gives byes to the top seeds so that every later
//!   phase fills its tables exactly (k = 2: the field is padded to a power of two). A field that
//!   no number of byes fits is refused with the sizes that work.
//! - **Double elimination** (2 players): nobody is out before a second lost tie. Phases
//!   alternate between the winners' bracket (byes for the top seeds when its size is not a power
//!   of two) and the losers' bracket, where everyone with one loss (the survivors and the
//!   bots just dropped) is paired best with worst (an odd one out, the best seed, waits). When
//!   each bracket is down to one bot, the grand final: a win for the losers' bracket's bot is
//!   its opponent's first loss, so a second final (the bracket reset) decides.
//!
//! Tables are numbered from 1 in the order the phases are played, so a resumed event replays
//! the same bracket from the same finished ties.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Single or double elimination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Elimination {
    Single,
    Double,
}

/// What decides between bots level on round wins in a tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreak {
    /// More points (balls), then the better seed.
    Points,
    /// The better seed.
    Seed,
}

/// A bracket's format.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Format {
    pub elimination: Elimination,
    /// Bots per table.
    pub players: usize,
    /// Bots of a table that go through.
    pub advance: usize,
    pub tiebreak: Tiebreak,
}

/// A finished tie: each bot of the table with its round wins and points over the tie.
pub type TieResult = Vec<(usize, f64, u64)>;

/// One table of the bracket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tie {
    pub table: u32,
    /// Bots by seat.
    pub bots: Vec<usize>,
    /// Once played: each bot with its round wins and points, in order of finish (best first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<TieResult>,
}

/// One phase of the bracket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Phase {
    /// "round 1", "semi-final", "winners' round 2", "losers' round 1", "grand final", ...
    pub name: String,
    pub ties: Vec<Tie>,
    /// Bots that go through this phase without playing.
    pub byes: Vec<usize>,
    /// Bots that go through each table.
    pub advance: usize,
}

/// The bracket as far as the finished ties decide it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Bracket {
    pub phases: Vec<Phase>,
    /// The winner, once decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub champion: Option<usize>,
    /// Every bot's place once out (1 the champion; bots out in the same phase share a place).
    pub places: BTreeMap<usize, u32>,
}

/// The field sizes that fill every table down to one final table, starting from a final of
/// `k` bots with `kk` advancing per table, up to `max`.
fn phase_sizes(k: usize, kk: usize, max: usize) -> Vec<usize> {
    let mut out = vec![k];
    while let Some(&last) = out.last() {
        let next = last * k / kk;
        if next > max.max(k) * k || next == last {
            break;
        }
        out.push(next);
    }
    out
}

/// Byes of the first phase of a single-elimination bracket of `m` bots, or why none fit.
pub fn first_byes(m: usize, k: usize, kk: usize) -> Result<usize, crate::Error> {
    if m < k {
        return Err(crate::Error::Invalid(format!(
            "a knockout of tables of {k} needs at least {k} bots, not {m}"
        )));
    }
    if kk == 0 || kk >= k || !k.is_multiple_of(kk) {
        return Err(crate::Error::Invalid(format!(
            "advance = {kk}: the bots that go through a table of {k} must be fewer than {k} and \
             divide it (1{})",
            if k == 4 { " or 2" } else { "" }
        )));
    }
    let sizes = phase_sizes(k, kk, m);
    if sizes.contains(&m) {
        return Ok(0);
    }
    // The next phase holds s bots: b byes plus (m - b) / k tables' K each.
    for &s in &sizes {
        let (num, den) = ((k * s) as i64 - (m * kk) as i64, (k - kk) as i64);
        if num >= 0 && num % den == 0 {
            let b = (num / den) as usize;
            if b <= m && (m - b).is_multiple_of(k) && m > b {
                return Ok(b);
            }
        }
    }
    let fits: Vec<String> = (k..=m.max(k) * 2)
        .filter(|&n| first_byes_fit(n, k, kk, &phase_sizes(k, kk, n)))
        .take(6)
        .map(|n| n.to_string())
        .collect();
    Err(crate::Error::Invalid(format!(
        "{m} bots cannot be brought down to one final table of {k} with {kk} going through each \
         table (byes for the top seeds included): fields that work are {} ...",
        fits.join(", ")
    )))
}

fn first_byes_fit(m: usize, k: usize, kk: usize, sizes: &[usize]) -> bool {
    sizes.contains(&m)
        || sizes.iter().any(|&s| {
            let (num, den) = ((k * s) as i64 - (m * kk) as i64, (k - kk) as i64);
            num >= 0 && num % den == 0 && {
                let b = (num / den) as usize;
                b < m && (m - b).is_multiple_of(k)
            }
        })
}

/// Deals `field` (in seed order) to tables of `k` in a serpentine: table j gets seeds j,
/// 2t - 1 - j, 2t + j, ... (best with worst).
fn deal(field: &[usize], k: usize) -> Vec<Vec<usize>> {
    let t = field.len() / k;
    let mut tables = vec![Vec::with_capacity(k); t];
    for (i, &bot) in field.iter().enumerate() {
        let (lap, at) = (i / t, i % t);
        let j = if lap % 2 == 0 { at } else { t - 1 - at };
        tables[j].push(bot);
    }
    tables
}

/// A finished tie's rows in order of finish.
fn finish_order(result: &TieResult, seed_of: &[usize], tiebreak: Tiebreak) -> TieResult {
    let mut rows = result.clone();
    rows.sort_by(|a, b| {
        b.1.partial_cmp(&a.1)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(match tiebreak {
                Tiebreak::Points => b.2.cmp(&a.2),
                Tiebreak::Seed => std::cmp::Ordering::Equal,
            })
            .then(seed_of[a.0].cmp(&seed_of[b.0]))
    });
    rows
}

/// Builds the bracket: `seeds` the bots in seed order, `results` the finished ties by table.
/// The phases are those the results reach: the last one listed may be under way (its ties
/// without an `order`); the phase after it is listed once every tie before it has finished.
pub fn bracket(format: &Format, seeds: &[usize], results: &BTreeMap<u32, TieResult>) -> Bracket {
    let n = seeds.iter().max().map_or(0, |&m| m + 1);
    let mut seed_of = vec![usize::MAX; n];
    for (i, &b) in seeds.iter().enumerate() {
        seed_of[b] = i;
    }
    let mut b = Builder {
        format,
        seed_of,
        results,
        next_table: 1,
        out: Bracket::default(),
    };
    match format.elimination {
        Elimination::Single => b.single(seeds.to_vec()),
        Elimination::Double => b.double(seeds.to_vec()),
    }
    b.out
}

struct Builder<'a> {
    format: &'a Format,
    seed_of: Vec<usize>,
    results: &'a BTreeMap<u32, TieResult>,
    next_table: u32,
    out: Bracket,
}

impl Builder<'_> {
    fn sorted(&self, mut bots: Vec<usize>) -> Vec<usize> {
        bots.sort_by_key(|&b| self.seed_of[b]);
        bots
    }

    /// Adds a phase of ties (`field` in seed order, dealt to tables after `byes`); returns each
    /// table's finish order, or `None` while a tie is unfinished.
    fn phase(
        &mut self,
        name: String,
        byes: Vec<usize>,
        field: &[usize],
        k: usize,
        advance: usize,
    ) -> Option<Vec<Vec<usize>>> {
        let mut ties = Vec::new();
        let mut orders = Vec::new();
        for bots in deal(field, k) {
            let table = self.next_table;
            self.next_table += 1;
            let result = self
                .results
                .get(&table)
                .map(|r| finish_order(r, &self.seed_of, self.format.tiebreak));
            orders.push(
                result
                    .as_ref()
                    .map(|r| r.iter().map(|row| row.0).collect::<Vec<_>>()),
            );
            ties.push(Tie {
                table,
                bots,
                result,
            });
        }
        self.out.phases.push(Phase {
            name,
            ties,
            byes,
            advance,
        });
        orders.into_iter().collect()
    }

    /// Bots out in this phase share the place after those still in.
    fn out_at(&mut self, bots: &[usize], still_in: usize) {
        for &b in bots {
            self.out.places.insert(b, still_in as u32 + 1);
        }
    }

    fn single(&mut self, seeds: Vec<usize>) {
        let (k, kk) = (self.format.players, self.format.advance);
        let Ok(byes) = first_byes(seeds.len(), k, kk) else {
            return;
        };
        let mut field = seeds;
        let mut first = Some(byes);
        let mut round = 1;
        loop {
            if field.len() == 1 {
                self.out.champion = Some(field[0]);
                self.out.places.insert(field[0], 1);
                return;
            }
            let b = first.take().unwrap_or(0);
            let (bye, playing) = field.split_at(b);
            let final_table = playing.len() == k && b == 0;
            let name = if final_table {
                "final".to_string()
            } else if k == 2 && playing.len() == 4 && b == 0 {
                "semi-finals".to_string()
            } else {
                format!("round {round}")
            };
            let advance = if final_table { 1 } else { kk };
            let Some(orders) = self.phase(name, bye.to_vec(), playing, k, advance) else {
                return;
            };
            let mut next: Vec<usize> = bye.to_vec();
            let mut out = Vec::new();
            for order in &orders {
                next.extend(&order[..advance]);
                out.extend(&order[advance..]);
            }
            if final_table {
                // The final table's order is its places.
                for (i, &bot) in orders[0].iter().enumerate() {
                    self.out.places.insert(bot, i as u32 + 1);
                }
                self.out.champion = Some(orders[0][0]);
                return;
            }
            self.out_at(&out, next.len());
            field = self.sorted(next);
            round += 1;
        }
    }

    fn double(&mut self, seeds: Vec<usize>) {
        let mut winners = seeds;
        let mut losers: Vec<usize> = Vec::new();
        let (mut wr, mut lr) = (1, 1);
        loop {
            if winners.len() == 1 && losers.len() <= 1 {
                let Some(&challenger) = losers.first() else {
                    self.out.champion = Some(winners[0]);
                    self.out.places.insert(winners[0], 1);
                    return;
                };
                let field = vec![winners[0], challenger];
                let Some(orders) = self.phase("grand final".into(), Vec::new(), &field, 2, 1)
                else {
                    return;
                };
                let (first, second) = (orders[0][0], orders[0][1]);
                if first == winners[0] {
                    self.out.champion = Some(first);
                    self.out.places.insert(first, 1);
                    self.out.places.insert(second, 2);
                    return;
                }
                // The winners' bracket's bot has lost once: the bracket reset decides.
                let field = self.sorted(vec![first, second]);
                let Some(orders) =
                    self.phase("grand final, reset".into(), Vec::new(), &field, 2, 1)
                else {
                    return;
                };
                self.out.champion = Some(orders[0][0]);
                self.out.places.insert(orders[0][0], 1);
                self.out.places.insert(orders[0][1], 2);
                return;
            }
            let mut dropped = Vec::new();
            if winners.len() > 1 {
                let byes = winners.len().next_power_of_two() - winners.len();
                let (bye, playing) = winners.split_at(byes);
                let Some(orders) =
                    self.phase(format!("winners' round {wr}"), bye.to_vec(), playing, 2, 1)
                else {
                    return;
                };
                let mut next = bye.to_vec();
                for o in &orders {
                    next.push(o[0]);
                    dropped.push(o[1]);
                }
                winners = self.sorted(next);
                wr += 1;
            }
            let pool = self.sorted(losers.iter().chain(&dropped).copied().collect());
            if pool.len() <= 1 {
                losers = pool;
                continue;
            }
            // Best with worst; an odd one out (the best seed) waits.
            let (bye, playing) = pool.split_at(pool.len() % 2);
            let Some(orders) =
                self.phase(format!("losers' round {lr}"), bye.to_vec(), playing, 2, 1)
            else {
                return;
            };
            let mut next = bye.to_vec();
            let mut out = Vec::new();
            for o in &orders {
                next.push(o[0]);
                out.push(o[1]);
            }
            losers = self.sorted(next);
            let still_in = winners.len() + losers.len();
            self.out_at(&out, still_in);
            lr += 1;
        }
    }
}

/// The most tables a bracket can take (double elimination: with the bracket reset), for the
/// progress display; the first error is the field's (see [`first_byes`]).
pub fn max_tables(format: &Format, bots: usize) -> Result<u32, crate::Error> {
    match format.elimination {
        Elimination::Single => {
            let (k, kk) = (format.players, format.advance);
            let b = first_byes(bots, k, kk)?;
            let mut tables = (bots - b) / k;
            let mut field = b + tables * kk;
            while field > 1 {
                if field == k {
                    tables += 1;
                    break;
                }
                tables += field / k;
                field = field / k * kk;
            }
            Ok(tables as u32)
        }
        Elimination::Double => {
            if format.players != 2 || format.advance != 1 {
                return Err(crate::Error::Invalid(
                    "double elimination is for tables of 2 (one goes through): give players = 2"
                        .into(),
                ));
            }
            if bots < 2 {
                return Err(crate::Error::Invalid(
                    "a knockout needs at least 2 bots".into(),
                ));
            }
            // Every tie puts one bot a loss down; all but the champion lose twice, the
            // champion at most once (the reset).
            Ok((2 * (bots - 1) + 1) as u32)
        }
    }
}

/// The bracket as text, phase by phase: each table's bots in order of finish with their round
/// wins and points (seeds in brackets), those that go through marked `>`, then the champion.
pub fn draw(bracket: &Bracket, names: &[String], seeds: &[usize]) -> String {
    let seed = |b: usize| seeds.iter().position(|&s| s == b).map_or(0, |i| i + 1);
    let name = |b: usize| format!("{} ({})", names.get(b).map_or("?", String::as_str), seed(b));
    let mut out = String::new();
    for phase in &bracket.phases {
        out.push_str(&format!("{}\n", phase.name));
        for &b in &phase.byes {
            out.push_str(&format!("  bye       > {}\n", name(b)));
        }
        for tie in &phase.ties {
            match &tie.result {
                Some(rows) => {
                    let cells: Vec<String> = rows
                        .iter()
                        .enumerate()
                        .map(|(i, &(b, wins, points))| {
                            format!(
                                "{}{} {} wins {} points",
                                if i < phase.advance { "> " } else { "  " },
                                name(b),
                                crate::standings::wins_column(&[wins])[0],
                                points
                            )
                        })
                        .collect();
                    out.push_str(&format!("  table {}: {}\n", tie.table, cells.join(" | ")));
                }
                None => {
                    let bots: Vec<String> = tie.bots.iter().map(|&b| name(b)).collect();
                    out.push_str(&format!(
                        "  table {}: {} (not played)\n",
                        tie.table,
                        bots.join(" v ")
                    ));
                }
            }
        }
    }
    match bracket.champion {
        Some(c) => out.push_str(&format!("champion: {}\n", name(c))),
        None => out.push_str("no champion yet\n"),
    }
    out
}
