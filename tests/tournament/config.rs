//! The tournament file: a complete example parses; mistakes are errors that name the line.

use std::path::Path;

use rollarena::tournament::config::{Overrides, ScheduleSpec, load, parse};

const GOOD: &str = r#"name = "ok"
players = 2
rounds = 2
[[bot]]
name = "a"
command = "rollarena bot random"
[[bot]]
name = "b"
command = "rollarena bot greedy"
"#;

fn error_of(src: &str) -> String {
    parse(src, "t.toml", Path::new("/"), &Overrides::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn the_example_file_is_the_readme_round_robin() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/tournament.toml");
    let loaded = load(&path, &Overrides::default()).unwrap();
    let t = &loaded.tournament;
    assert_eq!(t.bots.len(), 6);
    assert_eq!(t.players, 4);
    assert_eq!(t.rounds % 4, 0);
    assert_eq!(t.schedule, ScheduleSpec::RoundRobin);
    let tables = rollarena::tournament::schedule::fixed(t).unwrap().unwrap();
    assert_eq!(tables.len(), 15, "C(6,4)");
    assert!(
        t.bots.iter().any(|b| b.limits.is_some()),
        "a bot with its own limits"
    );
}

#[test]
fn mistakes_name_their_line() {
    let cases: &[(&str, &str, &str)] = &[
        // (text replaced, replacement, expected in the message)
        ("rounds = 2", "rounds = 3", "line 3"),
        ("rounds = 2", "rounds = 3", "not a multiple of 2"),
        ("players = 2", "players = 5", "line 2"),
        ("rounds = 2", "rounds = 2\ntime = \"fast\"", "line 4"),
        (
            "rounds = 2",
            "rounds = 2\ntime = \"fast\"",
            "not a duration",
        ),
        (
            "rounds = 2",
            "rounds = 2\nround = 4",
            "unknown field `round`",
        ),
        ("rounds = 2", "rounds = 2\nround = 4", "line 4"),
        ("name = \"b\"", "name = \"a\"", "two bots are named \"a\""),
        ("name = \"b\"", "name = \"a\"", "line 8"),
        ("players = 2", "players = \"two\"", "line 2"),
        (
            "rounds = 2",
            "rounds = 2\nschedule = \"league\"",
            "not round-robin",
        ),
        (
            "rounds = 2",
            "rounds = 2\nschedule = \"gauntlet\"\nchallengers = [\"z\"]",
            "line 5",
        ),
        (
            "rounds = 2",
            "rounds = 2\nschedule = \"random\"",
            "needs tables_per_bot",
        ),
        (
            "rounds = 2",
            "rounds = 2\nopening_plies = 40",
            "a few plies",
        ),
        (
            "command = \"rollarena bot greedy\"",
            "command = \"rollarena bot greedy",
            "line 9",
        ),
        (
            "command = \"rollarena bot greedy\"",
            "cmd = \"x\"",
            "missing field `command`",
        ),
        (
            "command = \"rollarena bot greedy\"",
            "command = \"rollarena bot greedy\"\nmemory = \"lots\"",
            "not a size",
        ),
    ];
    for (from, to, expected) in cases {
        let src = GOOD.replacen(from, to, 1);
        let msg = error_of(&src);
        assert!(
            msg.contains(expected),
            "{to:?}: expected {expected:?} in the error, got: {msg}"
        );
        assert!(msg.starts_with("t.toml: line "), "names the file: {msg}");
    }
}

#[test]
fn overrides_win_and_the_seed_defaults_to_a_fresh_draw() {
    let a = parse(GOOD, "t.toml", Path::new("/"), &Overrides::default()).unwrap();
    let b = parse(GOOD, "t.toml", Path::new("/"), &Overrides::default()).unwrap();
    // Not the file's hash (anyone who saw the file could compute every deal): a draw of 53
    // bits, so two parses of one file differ (p = 2^-53 of a false failure).
    assert!(a.seed_drawn && b.seed_drawn);
    assert_ne!(
        a.tournament.seed, b.tournament.seed,
        "a fresh seed each run"
    );
    assert_ne!(a.tournament.id(), b.tournament.id());
    let fixed = GOOD.replace("name = \"ok\"", "name = \"ok\"\nseed = 77");
    let c = parse(&fixed, "t.toml", Path::new("/"), &Overrides::default()).unwrap();
    assert_eq!((c.tournament.seed, c.seed_drawn), (77, false));
    let o = Overrides {
        seed: Some(5),
        rounds: Some(4),
        ..Overrides::default()
    };
    let d = parse(GOOD, "t.toml", Path::new("/"), &o).unwrap();
    assert_eq!((d.tournament.seed, d.tournament.rounds), (5, 4));
    assert_ne!(
        d.tournament.id(),
        a.tournament.id(),
        "overrides change the identity"
    );
    assert_eq!(d.file_sha256, a.file_sha256, "but not the file");
}

#[test]
fn time_controls_come_from_the_file_per_bot_and_from_the_flags() {
    use rollarena::clock::{Bank, Tc};
    let src = GOOD
        .replace(
            "rounds = 2",
            "rounds = 2\ntime = \"5s\"\ntc = \"2m+100ms\"\nfirst_move = \"10s\"",
        )
        .replace(
            "command = \"rollarena bot greedy\"",
            "command = \"rollarena bot greedy\"\ntc = \"1m\"",
        );
    let t = parse(&src, "t.toml", Path::new("/"), &Overrides::default())
        .unwrap()
        .tournament;
    let event = Tc {
        move_ms: 5000,
        bank_ms: Some(120_000),
        increment_ms: 100,
        first_move_ms: 10_000,
    };
    assert_eq!(t.time().tc(), event);
    assert_eq!(t.tc_of(&t.bots[0]), None, "the event's");
    assert_eq!(
        t.tc_of(&t.bots[1]),
        Some(Tc {
            bank_ms: Some(60_000),
            increment_ms: 0,
            ..event
        }),
        "a handicap: the bot's own bank, the event's cap and first move"
    );
    // A file without time controls keeps its identity (resumed events stay resumable).
    let plain = parse(GOOD, "t.toml", Path::new("/"), &Overrides::default())
        .unwrap()
        .tournament;
    let json = serde_json::to_string(&plain).unwrap();
    assert!(
        !json.contains("tc") && !json.contains("first_move"),
        "{json}"
    );
    // The command line overrides the file.
    let o = Overrides {
        tc: Some(Bank {
            bank_ms: 30_000,
            increment_ms: 0,
        }),
        ..Overrides::default()
    };
    let t = parse(&src, "t.toml", Path::new("/"), &o)
        .unwrap()
        .tournament;
    assert_eq!(t.time().tc().bank_ms, Some(30_000));
    // Mistakes name their line and say how to write it.
    let bad = error_of(&GOOD.replace("rounds = 2", "rounds = 2\ntc = \"40/2m\""));
    assert!(
        bad.contains("line 4") && bad.contains("not supported"),
        "{bad}"
    );
    let bad = error_of(&GOOD.replace(
        "command = \"rollarena bot greedy\"",
        "command = \"rollarena bot greedy\"\ntc = \"0+1s\"",
    ));
    assert!(
        bad.contains("bot \"b\": tc") && bad.contains("more than 0"),
        "{bad}"
    );
}
