//! Seeds nobody can guess (issue 40): a tournament file without `seed`, and a `match` without
//! `--seed`, draw 53 bits from the operating system at each run (no longer the file's SHA-256,
//! which anyone who saw the file could compute), keep them where only the organiser reads them
//! (the output's `tournament.json`, mode 0600; the match's record), and `--resume` plays on
//! with the seed kept: the round played again is the round played before, deal and bids.
//!
//! A false failure: two draws agree with p = 2^-53; a draw falls below 2^32 with p = 2^-21.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::Value;

use super::{assert_ok, comparable_results, rollarena, s};

/// Goofspiel (its cards follow from the seed), no `seed`, bots that play the same moves from
/// the same deal.
const FILE: &str = "name = \"unseeded\"\ngame = \"goofspiel\"\nplayers = 2\nrounds = 2\n\
    [[bot]]\nname = \"a\"\ncommand = \"rollarena bot random --seed 1\"\n\
    [[bot]]\nname = \"b\"\ncommand = \"rollarena bot heuristic\"\n";

fn seed_of(out: &Path) -> u64 {
    let meta = out.join("tournament.json");
    let mode = std::fs::metadata(&meta).unwrap().permissions().mode();
    assert_eq!(
        mode & 0o077,
        0,
        "tournament.json is the organiser's only: {mode:o}"
    );
    let json: Value = serde_json::from_str(&std::fs::read_to_string(meta).unwrap()).unwrap();
    json["tournament"]["seed"].as_u64().unwrap()
}

/// Each round's seeds, result and the seats' bids (as a sorted list), in schedule order.
fn deals(out: &Path) -> Vec<Value> {
    comparable_results(out)
        .into_iter()
        .map(|r| {
            let mut bids: Vec<String> = r["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| format!("{} {}", m["seat"], m["move"]))
                .collect();
            bids.sort();
            serde_json::json!([r["match_seed"], r["seed"], r["result"], bids])
        })
        .collect()
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_tournament_without_seed_draws_one_and_resumes_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.toml");
    std::fs::write(&file, FILE).unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    for out in [&one, &two] {
        assert_ok(
            &rollarena(&["tournament", s(&file), "-o", s(out), "-q"]),
            "run",
        );
    }
    let (a, b) = (seed_of(&one), seed_of(&two));
    assert_ne!(a, b, "each run draws its own seed");
    for seed in [a, b] {
        assert!((1 << 32..1 << 53).contains(&seed), "53 random bits: {seed}");
    }
    let results = one.join("results.jsonl");
    let first = lines(&results)[0].clone();
    let record: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(record["match_seed"], a, "the rounds are played with it");

    // Lose the last round played, then resume: it is played again from the kept seed, the
    // same deal and the same bids (the seats' bids of a turn are recorded in the order they
    // arrive, so they are compared as sets).
    let whole = deals(&one);
    let all = lines(&results);
    std::fs::write(&results, format!("{}\n", all[..all.len() - 1].join("\n"))).unwrap();
    let resumed = rollarena(&["tournament", s(&file), "-o", s(&one), "-q", "--resume"]);
    assert_ok(&resumed, "--resume");
    assert_eq!(seed_of(&one), a, "the seed kept");
    assert_eq!(lines(&results).len(), all.len());
    assert!(
        deals(&one) == whole,
        "the round played again is the one played before"
    );

    // Shards without a seed would each draw their own: refused, with the way out.
    let shard = rollarena(&[
        "tournament",
        s(&file),
        "-o",
        s(&dir.path().join("sh")),
        "--shard",
        "1/2",
    ]);
    assert_eq!(shard.status.code(), Some(2));
    let err = String::from_utf8_lossy(&shard.stderr);
    assert!(
        err.contains("the shards of one tournament must share its seed")
            && err.contains("seed = N"),
        "{err}"
    );
}

#[test]
fn a_match_without_seed_draws_one_and_resumes_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let record = |n: &str| dir.path().join(format!("{n}.jsonl"));
    let play = |path: &Path, resume: bool| {
        let mut args = vec![
            "match",
            "--game",
            "goofspiel",
            "--rounds",
            "4",
            "rollarena bot random --seed 1",
            "rollarena bot heuristic",
            "--record",
            s(path),
        ];
        if resume {
            args.push("--resume");
        }
        assert_ok(&rollarena(&args), "match");
    };
    let seed = |path: &Path| -> u64 {
        let first: Value = serde_json::from_str(&lines(path)[0]).unwrap();
        first["match_seed"].as_u64().unwrap()
    };
    let (one, two) = (record("one"), record("two"));
    play(&one, false);
    play(&two, false);
    let (a, b) = (seed(&one), seed(&two));
    assert_ne!(a, b, "each match draws its own seed");
    for x in [a, b] {
        assert!((1 << 32..1 << 53).contains(&x), "53 random bits: {x}");
    }
    let all = lines(&one);
    std::fs::write(&one, format!("{}\n", all[..2].join("\n"))).unwrap();
    play(&one, true);
    let after = lines(&one);
    assert_eq!(after.len(), 4);
    assert!(
        after
            .iter()
            .all(|l| l.contains(&format!("\"match_seed\":{a},")))
    );
}
