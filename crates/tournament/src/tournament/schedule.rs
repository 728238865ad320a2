//! Schedules: which bots sit at which table, as pure functions of the tournament and its seed.
//!
//! A table is one match of `rounds` rounds (a multiple of the players per table), so seats and
//! the first move rotate fully inside it and the seat order of a table does not matter.
//!
//! - **Round robin**: every combination of k bots, in lexicographic order.
//! - **Gauntlet**: each challenger against every combination of k - 1 bots of the field.
//! - **Random** (balanced, for fields too large for a round robin): tables drawn one at a time
//!   from the bots that have played least (so every bot plays exactly `tables_per_bot`
//!   tables), preferring bots that met least, then improved by seeded swaps between tables
//!   that make pair counts as even as they can be (within one of each other where possible).
//! - **Swiss** (2 players): pairs by score so far, avoiding rematches; decided round by round
//!   from results, so it is not a fixed list and cannot be sharded.
//!
//! A round robin whose field grew (`--add-bot`) keeps the tables it had and adds, numbered
//! after them, the tables that seat a new bot ([`grown_round_robin`]).
//!
//! `repeat` plays the whole fixed schedule again with new table numbers (so new seeds).
//! Tables are numbered from 1 in schedule order; a shard `i/n` plays the tables whose number
//! is `i` modulo `n`, which spreads every kind of table evenly over the shards.

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::config::{ScheduleSpec, Tournament};
use crate::seed::mix;

/// One table: its number (from 1) and its bots in seat order (indices into the field).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub index: u32,
    pub bots: Vec<usize>,
}

/// Salt of the random schedule's PRNG, so it never shares a stream with round seeds.
const RANDOM_SALT: u64 = 0x7363_6865_6475_6c65;

/// The whole schedule of a fixed (non-Swiss) tournament, or an error for the organiser.
/// `None` for Swiss, which is decided round by round.
pub fn fixed(t: &Tournament) -> Option<Result<Vec<Table>, crate::Error>> {
    let n = t.bots.len();
    let k = t.players;
    let groups = match &t.schedule {
        ScheduleSpec::RoundRobin if !t.added.is_empty() => {
            return Some(Ok(grown_round_robin(n, k, &t.added, t.repeat)));
        }
        ScheduleSpec::RoundRobin => Ok(round_robin(n, k)),
        ScheduleSpec::Gauntlet { challengers } => {
            let idx: Vec<usize> = challengers.iter().filter_map(|c| t.bot_index(c)).collect();
            Ok(gauntlet(n, k, &idx))
        }
        ScheduleSpec::Random { tables_per_bot } => balanced_random(n, k, *tables_per_bot, t.seed),
        ScheduleSpec::Swiss { .. } | ScheduleSpec::Knockout { .. } => return None,
    };
    Some(groups.map(|g| number(g, t.repeat)))
}

/// Numbers groups from 1, repeated `repeat` times.
fn number(groups: Vec<Vec<usize>>, repeat: u32) -> Vec<Table> {
    let mut out = Vec::with_capacity(groups.len() * repeat as usize);
    for _ in 0..repeat {
        for g in &groups {
            out.push(Table {
                index: out.len() as u32 + 1,
                bots: g.clone(),
            });
        }
    }
    out
}

/// The round robin of a field that grew (`--add-bot`): the tables of the first `added[0]`
/// bots, numbered as they were, then for each addition the tables of the field so far that
/// seat at least one of its new bots, numbered on (each stage repeated `repeat` times).
pub fn grown_round_robin(n: usize, k: usize, added: &[usize], repeat: u32) -> Vec<Table> {
    let mut sizes = added.to_vec();
    sizes.push(n);
    let mut out = number(round_robin(sizes[0], k), repeat);
    for w in sizes.windows(2) {
        let (before, now) = (w[0], w[1]);
        let fresh: Vec<Vec<usize>> = round_robin(now, k)
            .into_iter()
            .filter(|g| g.iter().any(|&b| b >= before))
            .collect();
        for table in number(fresh, repeat) {
            out.push(Table {
                index: out.len() as u32 + 1,
                bots: table.bots,
            });
        }
    }
    out
}

/// True when table `index` belongs to shard `i` of `n` (both from 1).
pub fn in_shard(index: u32, shard: Option<(u32, u32)>) -> bool {
    match shard {
        None => true,
        Some((i, n)) => (index - 1) % n + 1 == i,
    }
}

/// Every k-combination of `0..n` in lexicographic order: C(n, k) tables.
pub fn round_robin(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k == 0 || k > n {
        return out;
    }
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        out.push(c.clone());
        // Advance the rightmost index that can still move.
        let Some(i) = (0..k).rev().find(|&i| c[i] < n - k + i) else {
            return out;
        };
        c[i] += 1;
        for j in i + 1..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

/// Each challenger (seat 0) with every (k-1)-combination of the field (the other bots).
pub fn gauntlet(n: usize, k: usize, challengers: &[usize]) -> Vec<Vec<usize>> {
    let field: Vec<usize> = (0..n).filter(|b| !challengers.contains(b)).collect();
    let mut out = Vec::new();
    for &c in challengers {
        for combo in round_robin(field.len(), k - 1) {
            let mut table = vec![c];
            table.extend(combo.iter().map(|&i| field[i]));
            out.push(table);
        }
    }
    out
}

/// A balanced random schedule: `n * tables_per_bot / k` tables in which every bot plays
/// `tables_per_bot` tables and pair counts are as even as the search finds (within one of each
/// other where possible). `n * tables_per_bot` must be a multiple of `k`.
pub fn balanced_random(
    n: usize,
    k: usize,
    tables_per_bot: u32,
    seed: u64,
) -> Result<Vec<Vec<usize>>, crate::Error> {
    let slots = n * tables_per_bot as usize;
    if !slots.is_multiple_of(k) {
        let lower = (slots / k) * k / n;
        return Err(crate::Error::Invalid(format!(
            "{n} bots x {tables_per_bot} tables each is not a multiple of {k} seats per table: \
             no schedule gives every bot the same number of tables (try tables_per_bot = {} \
             or {})",
            next_fit(n, k, tables_per_bot, false).unwrap_or(lower as u32),
            next_fit(n, k, tables_per_bot, true).unwrap_or(tables_per_bot + 1)
        )));
    }
    let total = slots / k;
    let mut rng = ChaCha8Rng::seed_from_u64(mix(seed ^ RANDOM_SALT));
    let mut counts = vec![0u32; n];
    let mut pairs = vec![vec![0i64; n]; n];
    let mut tables: Vec<Vec<usize>> = Vec::with_capacity(total);
    for _ in 0..total {
        let mut chosen: Vec<usize> = Vec::with_capacity(k);
        for _ in 0..k {
            // Fewest tables first (keeps counts within one), then fewest meetings with the
            // bots already seated, then a seeded draw.
            let mut best: Vec<usize> = Vec::new();
            let mut best_key = (u32::MAX, i64::MAX);
            for b in (0..n).filter(|b| !chosen.contains(b)) {
                let met: i64 = chosen.iter().map(|&c| pairs[b][c]).sum();
                let key = (counts[b], met);
                if key < best_key {
                    best_key = key;
                    best.clear();
                }
                if key == best_key {
                    best.push(b);
                }
            }
            let pick = best[rng.random_range(0..best.len())];
            chosen.push(pick);
        }
        for &a in &chosen {
            counts[a] += 1;
            for &b in &chosen {
                if a != b {
                    pairs[a][b] += 1;
                }
            }
        }
        tables.push(chosen);
    }
    improve_pairs(&mut tables, &mut pairs, n, &mut rng);
    Ok(tables)
}

/// The nearest tables_per_bot below (or above) that fits.
fn next_fit(n: usize, k: usize, t: u32, up: bool) -> Option<u32> {
    let range: Box<dyn Iterator<Item = u32>> = if up {
        Box::new(t + 1..t + 1 + k as u32)
    } else {
        Box::new((1..t).rev())
    };
    range
        .into_iter()
        .find(|&x| (n * x as usize).is_multiple_of(k))
}

/// Seeded simulated annealing on the sum of squared pair counts (lowest, for a fixed number
/// of meetings, exactly when pair counts are within one of each other): swap two bots between
/// two tables when neither sits at the other's table already, accepting a worse sum with a
/// probability that falls as the search cools. Tables per bot never change. Stops when pair
/// counts are within one of each other or after a bounded number of proposals, keeping the
/// best schedule seen.
fn improve_pairs(
    tables: &mut [Vec<usize>],
    pairs: &mut [Vec<i64>],
    n: usize,
    rng: &mut ChaCha8Rng,
) {
    if tables.len() < 2 || n < 3 {
        return;
    }
    let spread = |pairs: &[Vec<i64>]| {
        let counts = pairs
            .iter()
            .enumerate()
            .flat_map(|(a, row)| row.iter().skip(a + 1).copied());
        let (lo, hi) = counts.fold((i64::MAX, i64::MIN), |(lo, hi), c| (lo.min(c), hi.max(c)));
        hi - lo
    };
    let cost =
        |pairs: &[Vec<i64>]| -> i64 { pairs.iter().flatten().map(|c| c * c).sum::<i64>() / 2 };
    let k = tables[0].len();
    let budget = 100_000 + 10_000 * tables.len();
    let mut current = cost(pairs);
    let mut best = (current, tables.to_vec());
    for step in 0..budget {
        if step % 512 == 0 && spread(pairs) <= 1 {
            return;
        }
        let ta = rng.random_range(0..tables.len());
        let tb = rng.random_range(0..tables.len());
        if ta == tb {
            continue;
        }
        let i = rng.random_range(0..k);
        let j = rng.random_range(0..k);
        let x = tables[ta][i];
        let y = tables[tb][j];
        if tables[tb].contains(&x) || tables[ta].contains(&y) {
            continue;
        }
        // x leaves A for B, y leaves B for A. Change of the sum of squares, pair by pair
        // (no pair changes twice, since x is not in B nor y in A).
        let mut delta = 0i64;
        let mut change = |p: i64, d: i64| delta += (p + d) * (p + d) - p * p;
        for &a in tables[ta].iter().filter(|&&a| a != x) {
            change(pairs[x][a], -1);
            change(pairs[y][a], 1);
        }
        for &b in tables[tb].iter().filter(|&&b| b != y) {
            change(pairs[y][b], -1);
            change(pairs[x][b], 1);
        }
        let temperature = 0.7 * (1.0 - step as f64 / budget as f64) + 0.05;
        let accept = delta <= 0 || rng.random::<f64>() < (-(delta as f64) / temperature).exp();
        if !accept {
            continue;
        }
        for &a in tables[ta].iter().filter(|&&a| a != x) {
            pairs[x][a] -= 1;
            pairs[a][x] -= 1;
            pairs[y][a] += 1;
            pairs[a][y] += 1;
        }
        for &b in tables[tb].iter().filter(|&&b| b != y) {
            pairs[y][b] -= 1;
            pairs[b][y] -= 1;
            pairs[x][b] += 1;
            pairs[b][x] += 1;
        }
        tables[ta][i] = y;
        tables[tb][j] = x;
        current += delta;
        if current < best.0 {
            best = (current, tables.to_vec());
        }
    }
    if best.0 < current {
        tables.clone_from_slice(&best.1);
    }
}

/// One Swiss round's pairing for 2-player tables. `scores` is each bot's points so far (round
/// wins), `met` the pairs that already played (smaller index first), `byes` the byes each bot
/// had. Bots are ordered by score (then by their place in the file); with an odd field the
/// lowest-placed bot with the fewest byes sits out. Pairs are formed from the top, each bot
/// with the next one it has not met, backtracking when that leaves someone unpairable, and
/// allowing rematches only when no pairing without one exists.
pub fn swiss_pairs(
    scores: &[f64],
    met: &BTreeSet<(usize, usize)>,
    byes: &[u32],
) -> (Vec<(usize, usize)>, Option<usize>) {
    let n = scores.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        scores[b]
            .partial_cmp(&scores[a])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let mut bye = None;
    if n % 2 == 1 {
        let fewest = order.iter().map(|&b| byes[b]).min().unwrap_or(0);
        let pos = order
            .iter()
            .rposition(|&b| byes[b] == fewest)
            .expect("a bot has the fewest byes");
        bye = Some(order.remove(pos));
    }
    let key = |a: usize, b: usize| (a.min(b), a.max(b));
    fn pair(
        rest: &[usize],
        met: &dyn Fn(usize, usize) -> bool,
        budget: &mut u32,
    ) -> Option<Vec<(usize, usize)>> {
        let Some((&first, others)) = rest.split_first() else {
            return Some(Vec::new());
        };
        for (i, &b) in others.iter().enumerate() {
            if met(first, b) {
                continue;
            }
            if *budget == 0 {
                return None;
            }
            *budget -= 1;
            let mut remaining = others.to_vec();
            remaining.remove(i);
            if let Some(mut tail) = pair(&remaining, met, budget) {
                tail.insert(0, (first, b));
                return Some(tail);
            }
        }
        None
    }
    let mut budget = 100_000;
    let strict = |a: usize, b: usize| met.contains(&key(a, b));
    let pairs = pair(&order, &strict, &mut budget).unwrap_or_else(|| {
        let mut budget = 100_000;
        pair(&order, &|_, _| false, &mut budget).expect("any pairing without constraints")
    });
    (pairs, bye)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations() {
        assert_eq!(round_robin(4, 2).len(), 6);
        assert_eq!(round_robin(6, 4).len(), 15);
        assert_eq!(round_robin(3, 3), vec![vec![0, 1, 2]]);
        assert_eq!(round_robin(4, 3)[1], vec![0, 1, 3]);
    }
}
