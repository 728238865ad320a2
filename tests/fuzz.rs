//! Property tests that throw arbitrary bytes and arbitrary JSON at everything a bot or a file
//! can feed the arbiter: the line reader, the message parser, the move parser, the record
//! reader. None may panic; memory stays bounded by the limits; every refusal says why.

use proptest::prelude::*;
use rollarena::arbiter::io::{BotEvent, spawn_reader};
use rollarena::game::rolit::{Rolit, Square};
use rollarena::game::{Game, RoundSetup, ToAct};
use rollarena::record::reader::parse_records;
use rollarena::wire::{Incoming, parse_line};
use serde_json::Value;

/// Arbitrary JSON values, nested a few levels.
fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,12}".prop_map(Value::String),
        prop_oneof![Just("move"), Just("ready"), Just("log"), Just("type")]
            .prop_map(|s| Value::String(s.into())),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("type".to_string()),
                    Just("move".to_string()),
                    Just("name".to_string()),
                    Just("text".to_string()),
                    Just("turn_id".to_string()),
                    "[a-z]{1,6}"
                ],
                inner,
                0..5
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Feeds `chunks` to the line reader through a real pipe-like stream; returns its events.
fn read_all(chunks: Vec<Vec<u8>>, max_line: usize) -> Vec<BotEvent> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let (mut w, r) = tokio::io::duplex(64);
        let (tx, mut rx) = tokio::sync::mpsc::channel(4);
        spawn_reader(r, max_line, tx);
        let writer = tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            for c in chunks {
                if w.write_all(&c).await.is_err() {
                    return;
                }
            }
        });
        let mut events = Vec::new();
        while let Some(e) = rx.recv().await {
            events.push(e);
        }
        writer.abort();
        events
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The reader splits exactly at newlines, never holds a line over the limit, and stops
    /// at the first over-long line with its head as evidence.
    #[test]
    fn line_reader_is_exact_and_bounded(
        chunks in prop::collection::vec(prop::collection::vec(
            prop_oneof![Just(b'\n'), any::<u8>(), Just(b'a')], 0..40), 0..12),
        max_line in 1usize..30,
    ) {
        let all: Vec<u8> = chunks.concat();
        let events = read_all(chunks, max_line);
        let mut expected: Vec<&[u8]> = all.split(|&b| b == b'\n').collect();
        if expected.last().is_some_and(|l| l.is_empty()) {
            expected.pop();
        }
        let mut lines = 0;
        for e in &events {
            match e {
                BotEvent::Line(l) => {
                    prop_assert!(l.len() <= max_line);
                    prop_assert_eq!(l.as_slice(), expected[lines]);
                    lines += 1;
                }
                BotEvent::TooLong { head } => {
                    prop_assert!(expected[lines].len() > max_line);
                    prop_assert!(expected[lines].starts_with(&head[..head.len().min(max_line)]));
                    return Ok(());
                }
                BotEvent::Eof => prop_assert_eq!(lines, expected.len()),
                BotEvent::Exited(_) => prop_assert!(false, "no process here"),
            }
        }
        prop_assert!(matches!(events.last(), Some(BotEvent::Eof)));
    }

    /// Any bytes: a message or a reason, never a panic, and the reason stays short.
    #[test]
    fn parser_survives_any_bytes(line in prop::collection::vec(any::<u8>(), 0..300)) {
        match parse_line(&line) {
            Ok(_) => {}
            Err((code, reason)) => {
                prop_assert!(!code.is_empty());
                prop_assert!(!reason.is_empty());
                prop_assert!(reason.len() < 400, "{}", reason);
            }
        }
    }

    /// Any JSON: objects with a known type parse or are refused with a reason naming it;
    /// everything else is refused.
    #[test]
    fn parser_survives_any_json(value in json()) {
        let text = value.to_string();
        match (parse_line(text.as_bytes()), &value) {
            (Ok(Incoming::Message(_)), Value::Object(m)) => {
                prop_assert!(matches!(m.get("type").and_then(Value::as_str), Some("move" | "ready" | "log")));
            }
            (Ok(Incoming::Other { kind, .. }), Value::Object(m)) => {
                prop_assert_eq!(m.get("type").and_then(Value::as_str), Some(kind.as_str()));
            }
            (Ok(_), _) => prop_assert!(false, "only objects are messages"),
            (Err((_, reason)), _) => prop_assert!(!reason.is_empty()),
        }
    }

    /// Any JSON as a move: the rules refuse it with a reason and leave the state unchanged,
    /// or it was a legal square.
    #[test]
    fn moves_from_any_json_leave_refused_states_unchanged(value in json(), size in prop_oneof![Just(4u8), Just(6), Just(8)]) {
        let game = Rolit::new(size, 2).unwrap();
        let mut round = game.new_round(RoundSetup { round: 0, match_seed: 5, round_seed: 5 , chance_seed: 5});
        let ToAct::Seat(seat, _) = round.to_act() else { unreachable!() };
        let before = round.public_view();
        let legal = round.legal_moves(seat).unwrap();
        match round.play(seat, &value) {
            Ok(applied) => prop_assert!(legal.contains(&applied.notation)),
            Err(r) => {
                prop_assert!(!r.reason.is_empty());
                prop_assert_eq!(round.public_view(), before);
            }
        }
    }

    /// Any string as a square: a square of the board or a reason.
    #[test]
    fn square_parser_survives_any_text(text in prop_oneof![".{0,8}", "[a-iA-I][0-9+-]{0,3}"], size in prop_oneof![Just(4u8), Just(6), Just(8)]) {
        match Square::parse(&text, size) {
            Ok(sq) => {
                prop_assert!(sq.file() < size && sq.rank() < size);
                prop_assert_eq!(sq.to_string(), text.to_ascii_lowercase());
            }
            Err(r) => prop_assert!(!r.to_string().is_empty()),
        }
    }

    /// Any bytes as a record file: rounds or an error naming the line, never a panic.
    #[test]
    fn record_reader_survives_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_records(&bytes);
    }
}

/// A real record cut at every byte: the rounds whose lines are whole are read, a torn last
/// line is ignored, and nothing else is ever reported as a round.
#[test]
fn record_reader_cut_anywhere() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_rollarena"))
        .args([
            "match",
            "--size",
            "4",
            "--players",
            "2",
            "--rounds",
            "2",
            "--seed",
            "9",
        ])
        .arg("--record")
        .arg(&path)
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    let bytes = std::fs::read(&path).unwrap();
    let (full, torn) = parse_records(&bytes).unwrap();
    assert_eq!((full.len(), torn), (2, false));
    // Where each line ends (just past its newline). A line cut just before its newline is
    // whole JSON and is read as a round.
    let ends: Vec<usize> = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    for cut in (0..=bytes.len())
        .step_by(7)
        .chain([ends[0] - 1, ends[0], bytes.len() - 1])
    {
        let (rounds, torn) =
            parse_records(&bytes[..cut]).unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        let whole = ends.iter().filter(|&&e| cut >= e - 1).count();
        assert_eq!(rounds.len(), whole, "cut at {cut}");
        assert_eq!(rounds[..], full[..whole]);
        let at_boundary = cut == 0 || ends.iter().any(|&e| cut == e || cut == e - 1);
        assert_eq!(torn, !at_boundary, "cut at {cut}");
    }
}
