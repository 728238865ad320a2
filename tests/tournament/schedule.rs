//! Schedules and openings as pure functions: counts, balance, determinism, rotation.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use rollarena::game::rolit::Rolit;
use rollarena::game::{Game, RoundSetup};
use rollarena::tournament::config::{Overrides, parse};
use rollarena::tournament::openings::table_openings;
use rollarena::tournament::schedule::{
    balanced_random, fixed, gauntlet, grown_round_robin, in_shard, round_robin, swiss_pairs,
};

fn binomial(n: usize, k: usize) -> usize {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

#[test]
fn round_robin_is_every_combination_once() {
    for (n, k) in [(2, 2), (4, 2), (6, 4), (7, 3), (9, 4), (5, 5)] {
        let tables = round_robin(n, k);
        assert_eq!(tables.len(), binomial(n, k), "C({n},{k})");
        let distinct: BTreeSet<Vec<usize>> = tables.iter().cloned().collect();
        assert_eq!(distinct.len(), tables.len(), "no table twice");
        for t in &tables {
            assert_eq!(t.len(), k);
            assert!(t.windows(2).all(|w| w[0] < w[1]) && t[k - 1] < n);
        }
    }
}

#[test]
fn a_grown_round_robin_keeps_its_tables_and_adds_only_the_new_pairings() {
    let plain = |tables: Vec<rollarena::tournament::schedule::Table>| {
        tables
            .into_iter()
            .map(|t| (t.index, t.bots))
            .collect::<Vec<_>>()
    };
    // 3 bots, then a fourth: the three tables as they were, then the fourth's three.
    assert_eq!(
        plain(grown_round_robin(4, 2, &[3], 1)),
        [
            (1, vec![0, 1]),
            (2, vec![0, 2]),
            (3, vec![1, 2]),
            (4, vec![0, 3]),
            (5, vec![1, 3]),
            (6, vec![2, 3]),
        ]
    );
    // Repeated twice: the old stage twice (numbered as before), then the new one twice.
    let twice = plain(grown_round_robin(4, 2, &[3], 2));
    assert_eq!(twice[..6], plain(fixed_round_robin(3, 2, 2))[..]);
    assert_eq!(
        twice[6..]
            .iter()
            .map(|(_, b)| b.clone())
            .collect::<Vec<_>>(),
        [[0, 3], [1, 3], [2, 3], [0, 3], [1, 3], [2, 3]]
    );
    // Two additions, tables of 3: every table of the final field exactly once, each
    // addition's tables seat one of its bots, and no table of the field before it is repeated.
    let grown = grown_round_robin(7, 3, &[4, 5], 1);
    assert_eq!(grown.len(), binomial(7, 3));
    let distinct: BTreeSet<Vec<usize>> = grown.iter().map(|t| t.bots.clone()).collect();
    assert_eq!(distinct.len(), grown.len());
    assert!(grown[..4].iter().all(|t| t.bots.iter().all(|&b| b < 4)));
    assert!(
        grown[4..4 + 6]
            .iter()
            .all(|t| t.bots.contains(&4) && !t.bots.contains(&5))
    );
    assert!(grown[10..].iter().all(|t| t.bots.iter().any(|&b| b >= 5)));
    assert!(
        grown
            .iter()
            .enumerate()
            .all(|(i, t)| t.index == i as u32 + 1)
    );
}

/// The round robin of `n` bots at tables of `k`, repeated, as `fixed` numbers it.
fn fixed_round_robin(
    n: usize,
    k: usize,
    repeat: u32,
) -> Vec<rollarena::tournament::schedule::Table> {
    grown_round_robin(n, k, &[], repeat)
}

#[test]
fn gauntlet_puts_each_challenger_against_the_field() {
    let tables = gauntlet(6, 3, &[0, 4]);
    // Each challenger with every pair of the 4 others: 2 x C(4,2) = 12.
    assert_eq!(tables.len(), 12);
    for t in &tables {
        let challengers = t.iter().filter(|b| [0, 4].contains(b)).count();
        assert_eq!(challengers, 1, "one challenger per table: {t:?}");
    }
}

/// Tables per bot and pair counts of a schedule.
fn balance(n: usize, tables: &[Vec<usize>]) -> (Vec<usize>, BTreeMap<(usize, usize), usize>) {
    let mut per_bot = vec![0; n];
    let mut pairs = BTreeMap::new();
    for a in 0..n {
        for b in a + 1..n {
            pairs.insert((a, b), 0);
        }
    }
    for t in tables {
        for &a in t {
            per_bot[a] += 1;
            for &b in t {
                if a < b {
                    *pairs.get_mut(&(a, b)).unwrap() += 1;
                }
            }
        }
    }
    (per_bot, pairs)
}

#[test]
fn balanced_random_is_balanced() {
    for (n, k, t, seed) in [
        (8, 4, 6, 1),
        (10, 3, 6, 2),
        (12, 2, 5, 3),
        (20, 4, 8, 4),
        (7, 3, 3, 5),
        (30, 4, 10, 6),
    ] {
        let tables = balanced_random(n, k, t, seed).unwrap();
        assert_eq!(tables.len(), n * t as usize / k);
        let (per_bot, pairs) = balance(n, &tables);
        assert!(
            per_bot.iter().all(|&c| c == t as usize),
            "{n} bots, k={k}: tables per bot {per_bot:?}"
        );
        for table in &tables {
            let distinct: BTreeSet<_> = table.iter().collect();
            assert_eq!(distinct.len(), k, "a bot twice at a table: {table:?}");
        }
        let lo = pairs.values().min().unwrap();
        let hi = pairs.values().max().unwrap();
        // Within one where the field is dense enough for the search to find it; a sparse
        // field (30 bots, pairs meeting about once) gets within two.
        let mean = pairs.values().sum::<usize>() as f64 / pairs.len() as f64;
        let allowed = if mean >= 1.5 { 1 } else { 2 };
        assert!(
            hi - lo <= allowed,
            "{n} bots, k={k}, {t} tables each: pair counts from {lo} to {hi}"
        );
        assert_eq!(
            balanced_random(n, k, t, seed).unwrap(),
            tables,
            "deterministic"
        );
    }
    assert_ne!(
        balanced_random(8, 4, 6, 1).unwrap(),
        balanced_random(8, 4, 6, 2).unwrap(),
        "the seed matters"
    );
    let err = balanced_random(5, 4, 3, 1).unwrap_err().to_string();
    assert!(err.contains("not a multiple of 4"), "{err}");
}

#[test]
fn shards_partition_the_schedule() {
    for n in 1..=5 {
        for index in 1..=23u32 {
            let owners: Vec<u32> = (1..=n).filter(|&i| in_shard(index, Some((i, n)))).collect();
            assert_eq!(
                owners.len(),
                1,
                "table {index} in exactly one of {n} shards"
            );
        }
    }
}

#[test]
fn swiss_avoids_rematches_and_gives_byes_once() {
    let scores = [3.0, 2.0, 2.0, 1.0, 0.0];
    let mut met = BTreeSet::new();
    met.insert((0, 1));
    let byes = [0, 0, 0, 0, 1];
    let (pairs, bye) = swiss_pairs(&scores, &met, &byes);
    // Bot 4 had a bye already: the lowest without one sits out.
    assert_eq!(bye, Some(3));
    assert_eq!(pairs.len(), 2);
    assert!(
        pairs
            .iter()
            .all(|&(a, b)| !met.contains(&(a.min(b), a.max(b))))
    );
    assert_eq!(pairs[0], (0, 2), "the leader meets the best it has not met");
}

const FILE: &str = r#"
name = "t"
players = 3
rounds = 6
seed = 11
opening_plies = 3
[options]
size = 6
[[bot]]
name = "a"
command = "rollarena bot random --seed 1"
[[bot]]
name = "b"
command = "rollarena bot greedy"
[[bot]]
name = "c"
command = "rollarena bot positional"
[[bot]]
name = "d"
command = "rollarena bot random --seed 2"
"#;

#[test]
fn openings_are_shared_by_a_rotation_cycle_and_legal() {
    let t = parse(FILE, "t.toml", Path::new("/"), &Overrides::default())
        .unwrap()
        .tournament;
    let tables = fixed(&t).unwrap().unwrap();
    assert_eq!(tables.len(), 4, "C(4,3)");
    let game = Rolit::new(6, 3).unwrap();
    let mut seen = BTreeSet::new();
    for table in &tables {
        let openings = table_openings(&game, t.seed, table.index, t.rounds, 3);
        assert_eq!(openings.len(), 6);
        for cycle in openings.chunks(3) {
            assert!(
                cycle.iter().all(|o| o == &cycle[0]),
                "one opening per cycle"
            );
            assert_eq!(cycle[0].len(), 3);
            seen.insert(serde_json::to_string(&cycle[0]).unwrap());
        }
        // Legal in every round of the table, whoever sits behind the colour to move.
        for (r, opening) in openings.iter().enumerate() {
            let mut round = game.new_round(RoundSetup {
                round: r as u32,
                match_seed: t.seed,
                round_seed: 0,
                chance_seed: 0,
            });
            for mv in opening {
                let rollarena::game::ToAct::Seat(seat, _) = round.to_act() else {
                    panic!("the round ended inside its opening")
                };
                round.play(seat, mv).expect("an opening move is legal");
            }
        }
        assert_eq!(
            openings,
            table_openings(&game, t.seed, table.index, t.rounds, 3),
            "a pure function of seed and table"
        );
    }
    assert!(
        seen.len() > 4,
        "cycles and tables get different openings: {seen:?}"
    );
    assert!(table_openings(&game, t.seed, 1, 6, 0).is_empty());
}
