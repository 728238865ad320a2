//! Openings from a file as data: lines read and checked against the rules (moves for Rolit,
//! deal seeds for games with hidden information), which opening each rotation cycle of each
//! table gets (in order, shuffled by the seed), and then the real binary: a Rolit event's
//! rounds open with the file's moves, a Rollerball event's cycles are dealt alike, and both
//! verify.

use std::collections::BTreeSet;
use std::fs::Permissions;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};

use rollarena::game::Game;
use rollarena::game::registry::find;
use rollarena::game::rolit::Rolit;
use rollarena::tournament::book::{BookConfig, Opening, Order, parse, pick, table_book};

use super::{assert_ok, rollarena, s};

fn rollerball() -> Arc<dyn Game> {
    let mut options = serde_json::Map::new();
    options.insert("players".into(), json!(2));
    (find("rollerball").unwrap().build)(&options).unwrap()
}

#[test]
fn a_rolit_line_is_moves_played_through_the_rules() {
    let game = Rolit::new(6, 2).unwrap();
    let book = parse("# a comment\n\nb3\n  b3 a2  \nd5\n", &game, 1).unwrap();
    assert_eq!(
        book,
        [
            Opening::Moves(vec![json!("b3")]),
            Opening::Moves(vec![json!("b3"), json!("a2")]),
            Opening::Moves(vec![json!("d5")]),
        ]
    );
    // An illegal move names its line, its place, the rules' reason and the legal moves.
    let (line, e) = parse("b3\nb3 b3\n", &game, 1).unwrap_err();
    assert_eq!(line, 2);
    assert!(e.contains("move 2 (b3) is refused"), "{e}");
    assert!(e.contains("the legal moves there are: a2 c2 e2 e4"), "{e}");
    let (line, e) = parse("zz9\n", &game, 1).unwrap_err();
    assert_eq!(line, 1);
    assert!(e.contains("not a square"), "{e}");
    let (_, e) = parse("# only a comment\n\n", &game, 1).unwrap_err();
    assert!(e.contains("holds no opening"), "{e}");
}

#[test]
fn a_hidden_information_line_is_a_deal_seed() {
    let game = rollerball();
    assert_eq!(
        parse("17\n# c\n9007199254740991\n", &*game, 1).unwrap(),
        [Opening::Deal(17), Opening::Deal(9_007_199_254_740_991)]
    );
    for bad in ["d3", "-1", "9007199254740992", "1 2"] {
        let (line, e) = parse(bad, &*game, 1).unwrap_err();
        assert_eq!(line, 1);
        assert!(e.contains("is not a deal seed"), "{bad}: {e}");
    }
    // Robots race, every bot at once: there is no opening to set.
    let robots = (find("robots").unwrap().build)(&serde_json::Map::new()).unwrap();
    let (_, e) = parse("1\n", &*robots, 1).unwrap_err();
    assert!(e.contains("has no openings"), "{e}");
}

#[test]
fn sequential_takes_the_file_in_order_and_random_a_new_shuffle_each_pass() {
    let seq: Vec<usize> = (0..10).map(|c| pick(4, Order::Sequential, 7, c)).collect();
    assert_eq!(seq, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]);
    for seed in [1, 2, 3] {
        let shuffled: Vec<usize> = (0..40).map(|c| pick(10, Order::Random, seed, c)).collect();
        // Every opening once in each pass of the file.
        for pass in shuffled.chunks(10) {
            let once: BTreeSet<usize> = pass.iter().copied().collect();
            assert_eq!(once.len(), 10, "{pass:?}");
        }
        assert_ne!(shuffled[..10], shuffled[10..20], "a new shuffle each pass");
        assert_ne!(shuffled[..10], (0..10).collect::<Vec<_>>()[..], "shuffled");
        let again: Vec<usize> = (0..40).map(|c| pick(10, Order::Random, seed, c)).collect();
        assert_eq!(shuffled, again, "a pure function of the seed");
    }
    let other: Vec<usize> = (0..10).map(|c| pick(10, Order::Random, 99, c)).collect();
    let one: Vec<usize> = (0..10).map(|c| pick(10, Order::Random, 1, c)).collect();
    assert_ne!(other, one, "another seed, another order");
}

#[test]
fn each_opening_is_played_once_per_rotation_cycle_numbered_over_the_schedule() {
    let book: Vec<Opening> = (0..5).map(|d| Opening::Deal(100 + d)).collect();
    let config = BookConfig {
        file: "book.txt".into(),
        order: Order::Sequential,
        sha256: String::new(),
        count: 5,
    };
    // Tables of 6 rounds at 3 players: 2 cycles a table.
    let t1 = table_book(&book, &config, 1, 1, 6, 3);
    assert!(t1.moves.is_empty());
    assert_eq!(t1.deals, [100, 100, 100, 101, 101, 101]);
    let t2 = table_book(&book, &config, 1, 2, 6, 3);
    assert_eq!(t2.deals, [102, 102, 102, 103, 103, 103]);
    // Table 3 uses the file up and starts over.
    let t3 = table_book(&book, &config, 1, 3, 6, 3);
    assert_eq!(t3.deals, [104, 104, 104, 100, 100, 100]);

    let moves = vec![
        Opening::Moves(vec![json!("b3")]),
        Opening::Moves(vec![json!("d5")]),
    ];
    let config = BookConfig { count: 2, ..config };
    let t = table_book(&moves, &config, 1, 1, 4, 2);
    assert!(t.deals.is_empty());
    assert_eq!(
        t.moves,
        [
            vec![json!("b3")],
            vec![json!("b3")],
            vec![json!("d5")],
            vec![json!("d5")]
        ]
    );
}

fn rounds(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn events_open_with_the_file_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("book.txt"), "b3\nd5 e6\n").unwrap();
    std::fs::write(dir.path().join("deals.txt"), "17\n123456789\n").unwrap();
    let rolit = dir.path().join("rolit.toml");
    std::fs::write(
        &rolit,
        r#"players = 2
rounds = 4
repeat = 2
seed = 1
openings = "book.txt"
[options]
size = 6
[[bot]]
name = "greedy"
command = "rollarena bot greedy"
[[bot]]
name = "positional"
command = "rollarena bot positional"
"#,
    )
    .unwrap();
    let out = dir.path().join("rolit-out");
    let run = rollarena(&["tournament", s(&rolit), "-o", s(&out)]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let opened: Vec<(u64, Vec<String>)> = rounds(&out.join("results.jsonl"))
        .iter()
        .map(|r| {
            let opening = r["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["opening"] == true)
                .map(|m| m["move"].as_str().unwrap().to_string())
                .collect();
            (
                r["table"].as_u64().unwrap() * 10 + r["round"].as_u64().unwrap(),
                opening,
            )
        })
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_iter()
        .collect();
    let b3 = vec!["b3".to_string()];
    let d5 = vec!["d5".to_string(), "e6".to_string()];
    assert_eq!(
        opened,
        [
            (11, b3.clone()),
            (12, b3.clone()),
            (13, d5.clone()),
            (14, d5.clone()),
            (21, b3.clone()),
            (22, b3),
            (23, d5.clone()),
            (24, d5)
        ]
    );
    let verify = rollarena(&["replay", "--verify", s(&out.join("results.jsonl"))]);
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stdout)
    );
    // Each cycle's two rounds are a pair: the pentanomial agrees with the rounds' W-D-L.
    let standings: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("standings.json")).unwrap())
            .unwrap();
    for h in standings["head_to_head"].as_array().unwrap() {
        let penta: Vec<u64> = serde_json::from_value(h["pentanomial"].clone()).unwrap();
        let (w, d, l) = (
            h["wins"].as_u64().unwrap(),
            h["draws"].as_u64().unwrap(),
            h["losses"].as_u64().unwrap(),
        );
        assert_eq!(penta.iter().sum::<u64>() * 2, w + d + l, "{h}");
        let halves: u64 = penta.iter().enumerate().map(|(i, n)| i as u64 * n).sum();
        assert_eq!(halves, 2 * w + d, "{h}");
    }
    // The SPRT on those pairs.
    let sprt = rollarena(&[
        "tournament",
        s(&rolit),
        "-o",
        s(&dir.path().join("sprt")),
        "--sprt",
        "0,10,0.05,0.05",
        "--sprt-pentanomial",
    ]);
    assert!(
        sprt.status.success(),
        "{}",
        String::from_utf8_lossy(&sprt.stderr)
    );
    assert!(String::from_utf8_lossy(&sprt.stdout).contains("pentanomial"));
    let standings: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("sprt/standings.json")).unwrap(),
    )
    .unwrap();
    let penta: Vec<u64> = serde_json::from_value(standings["sprt"]["pentanomial"].clone()).unwrap();
    assert_eq!(
        penta.iter().sum::<u64>(),
        4,
        "8 rounds, 4 pairs: {standings}"
    );

    let ball = dir.path().join("ball.toml");
    std::fs::write(
        &ball,
        r#"game = "rollerball"
players = 2
rounds = 4
seed = 1
openings = "deals.txt"
[options]
turn_limit = 60
[[bot]]
name = "r1"
command = "rollarena bot random --seed 1"
[[bot]]
name = "r2"
command = "rollarena bot random --seed 2"
"#,
    )
    .unwrap();
    // The file and its deal seeds deal every card: an organiser keeps them from the bots.
    for f in ["ball.toml", "deals.txt"] {
        std::fs::set_permissions(dir.path().join(f), Permissions::from_mode(0o600)).unwrap();
    }
    let out = dir.path().join("ball-out");
    let run = rollarena(&["tournament", s(&ball), "-o", s(&out)]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut dealt: Vec<(u64, u64, Value)> = rounds(&out.join("results.jsonl"))
        .iter()
        .map(|r| {
            (
                r["round"].as_u64().unwrap(),
                r["deal"].as_u64().unwrap(),
                r["moves"][0]["deal"]["deck"].clone(),
            )
        })
        .collect();
    dealt.sort_by_key(|d| d.0);
    let seeds: Vec<u64> = dealt.iter().map(|d| d.1).collect();
    assert_eq!(seeds, [17, 17, 123456789, 123456789]);
    assert_eq!(dealt[0].2, dealt[1].2, "a cycle's rounds are dealt alike");
    assert_eq!(dealt[2].2, dealt[3].2);
    assert_ne!(dealt[0].2, dealt[2].2, "another seed, another deal");
    let verify = rollarena(&["replay", "--verify", s(&out.join("results.jsonl"))]);
    assert!(
        verify.status.success(),
        "{}",
        String::from_utf8_lossy(&verify.stdout)
    );

    // A file and random plies at once, and a changed file on resume, are refused.
    let both = rollarena(&[
        "tournament",
        s(&rolit),
        "-o",
        s(&dir.path().join("x")),
        "--opening-plies",
        "2",
    ]);
    assert_eq!(both.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&both.stderr).contains("not both"));
    std::fs::write(dir.path().join("book.txt"), "b3\n").unwrap();
    let changed = rollarena(&[
        "tournament",
        s(&rolit),
        "-o",
        s(&dir.path().join("rolit-out")),
        "--resume",
    ]);
    assert_eq!(changed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&changed.stderr).contains("openings"));
}

#[test]
fn a_match_takes_its_openings_from_a_file_too() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.txt");
    std::fs::write(&book, "d5 e6\nb3\n").unwrap();
    let record = dir.path().join("r.jsonl");
    let run = rollarena(&[
        "match",
        "rollarena bot greedy",
        "rollarena bot positional",
        "--size",
        "6",
        "--rounds",
        "6",
        "--seed",
        "1",
        "--openings",
        s(&book),
        "--record",
        s(&record),
    ]);
    assert_ok(&run, "match --openings");
    let opened: Vec<String> = rounds(&record)
        .iter()
        .map(|r| {
            r["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["opening"] == true)
                .map(|m| m["move"].as_str().unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(opened, ["d5 e6", "d5 e6", "b3", "b3", "d5 e6", "d5 e6"]);
    // Resumed (here: already finished) with the same file it is the same match; with another
    // file its rounds would not have opened as they did, and it is refused.
    let resume = |book: &Path| {
        rollarena(&[
            "match",
            "rollarena bot greedy",
            "rollarena bot positional",
            "--size",
            "6",
            "--rounds",
            "6",
            "--openings",
            s(book),
            "--record",
            s(&record),
            "--resume",
        ])
    };
    let same = resume(&book);
    assert_ok(&same, "the same openings");
    assert!(String::from_utf8_lossy(&same.stdout).contains("is finished (6 rounds)"));
    let other_book = dir.path().join("other.txt");
    std::fs::write(&other_book, "b3\n").unwrap();
    let other = resume(&other_book);
    assert_eq!(other.status.code(), Some(2));
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(
        err.contains("round 1 of the match to resume") && err.contains("opened with d5 e6, now b3"),
        "{err}"
    );
    // Checked against the rules before anything is played.
    std::fs::write(&book, "b3 b3\n").unwrap();
    let bad = rollarena(&[
        "match",
        "rollarena bot greedy",
        "rollarena bot positional",
        "--size",
        "6",
        "--seed",
        "1",
        "--openings",
        s(&book),
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("line 1: move 2 (b3) is refused"));
}
