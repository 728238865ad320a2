//! A Swiss final: round by round from the results, as `tournament` pairs it.

use std::collections::BTreeMap;

use rollarena::tournament::aggregate::{Fold, RoundSummary};

use super::{arena, arena_cmd, close, final_rounds, published, ratings, teams};
use crate::arena::web::Server;

#[test]
fn a_swiss_final_is_paired_round_by_round_from_its_results() {
    let arena = arena();
    let server = Server::start(&arena, 2);
    teams(
        &arena,
        &server,
        &["North", "East", "South", "West", "Centre"],
    );
    let (code, _, err) = arena_cmd(&arena, &["final", "--schedule", "swiss"]);
    assert_eq!(code, 2, "the contest is open");
    assert!(
        err.contains("still open") && err.contains("freeze"),
        "{err}"
    );
    close(&arena);
    let before = ratings(&arena);
    let (code, _, err) = arena_cmd(&arena, &["final", "--schedule", "swiss", "--repeat", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("--repeat"), "{err}");
    let (code, _, err) = arena_cmd(&arena, &["final", "--schedule", "swiss", "--seed", "7"]);
    assert_eq!(code, 0, "{err}");
    let api = published(&server);
    // Five bots: ceil(log2 5) = 3 Swiss rounds of 2 tables (one bye a round).
    assert_eq!(api["final"]["phases"], 3, "{api}");
    assert_eq!(api["final"]["phase"], 3, "{api}");
    assert_eq!(api["final"]["done"], 6, "{api}");
    assert_eq!(ratings(&arena), before, "the final rates nothing");

    let meta: rollarena::tournament::output::Meta =
        serde_json::from_slice(&std::fs::read(arena.dir().join("final/tournament.json")).unwrap())
            .unwrap();
    let t = &meta.tournament;
    let rounds = final_rounds(&arena.dir());
    // Every round's pairing is `tournament`'s, from the results of the rounds before it.
    let mut wins: BTreeMap<u32, Vec<(usize, f64)>> = BTreeMap::new();
    let mut tables: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for r in &rounds {
        let table = r.table.unwrap();
        wins.entry(table)
            .or_default()
            .extend(RoundSummary::of(t, r).wins());
        tables.insert(
            table,
            r.seats
                .iter()
                .map(|s| t.bot_index(&s.name).unwrap())
                .collect(),
        );
    }
    for phase in 1..=3 {
        for table in rollarena::tournament::runner::swiss_phase(t, &wins, phase) {
            let mut want = table.bots.clone();
            let mut got = tables[&table.index].clone();
            want.sort();
            got.sort();
            assert_eq!(got, want, "table {} of Swiss round {phase}", table.index);
        }
    }
    // The standings are `tournament`'s fold of the same rounds.
    let mut fold = Fold::new(t);
    for r in &rounds {
        fold.add(&RoundSummary::of(t, r));
    }
    let standings = fold.standings(Some(6));
    assert_eq!(
        api["standings"]["standings"],
        serde_json::json!(standings.standings)
    );
    assert!(server.stop().success());
}
