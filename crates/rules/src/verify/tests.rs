//! The verifier's two readings of a record agree: a line read lean ([`Verifier::line`]) gets
//! the verdict, to the word, of the same round read whole ([`Verifier::round`]), on the test
//! suite's records of every game and on rounds tampered with in every way the verifier
//! refuses, and written in the ways the lean reading leaves to the record's reader.

use serde_json::{Value, json};

use super::{Discrepancy, Report, Verifier};
use crate::record::RoundRecord;

/// The lines of one of the test suite's records.
fn record_lines(name: &str) -> Vec<String> {
    let path = format!("{}/../../tests/records/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(str::to_string)
        .collect()
}

/// Verifies lines both ways: each round's verdict, and the file's.
type Verdicts = (Vec<Result<(), Discrepancy>>, Result<Report, Discrepancy>);

fn both(lines: &[String]) -> (Verdicts, Verdicts) {
    let (mut lean, mut whole) = (Verifier::new(), Verifier::new());
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for line in lines {
        a.push(lean.line(line.as_bytes()).expect("a round"));
        let record: RoundRecord = serde_json::from_str(line).expect("a round");
        b.push(whole.round(&record));
    }
    ((a, lean.finish()), (b, whole.finish()))
}

#[test]
fn the_lean_reading_gives_every_record_the_same_verdict() {
    let dir = format!("{}/../../tests/records", env!("CARGO_MANIFEST_DIR"));
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if !name.ends_with(".jsonl") {
            continue;
        }
        let lines = record_lines(&name);
        let (lean, whole) = both(&lines);
        assert_eq!(lean, whole, "{name}");
        assert!(whole.1.is_ok(), "{name}: {:?}", whole.1);
        files += 1;
    }
    assert!(files >= 10, "{files} record files");
}

#[test]
fn the_lean_reading_reads_what_the_record_reader_reads() {
    let mut lean = 0;
    for name in [
        "rolit_4p.jsonl",
        "rolit_bank.jsonl",
        "rollerball_4p.jsonl",
        "goofspiel_faults.jsonl",
        "robots_3p.jsonl",
    ] {
        for line in record_lines(name) {
            let whole: RoundRecord = serde_json::from_str(&line).unwrap();
            let mut header = Vec::new();
            let Some((round, moves)) = super::lean::read(line.as_bytes(), &mut header) else {
                continue;
            };
            lean += 1;
            assert_eq!(
                round,
                RoundRecord {
                    moves: Vec::new(),
                    ..whole.clone()
                },
                "{name}"
            );
            assert_eq!(moves.len(), whole.moves.len(), "{name}");
            for (m, w) in moves.iter().zip(&whole.moves) {
                assert_eq!(
                    (
                        m.ply, m.kind, m.seat, m.colour, m.ms, m.at_ms, m.cpu_ms, m.bank_ms
                    ),
                    (
                        w.ply,
                        w.kind.as_deref(),
                        w.seat,
                        w.colour.as_deref(),
                        w.ms,
                        w.at_ms,
                        w.cpu_ms,
                        w.bank_ms
                    ),
                    "{name}"
                );
                assert_eq!(
                    (m.refused, m.by_arbiter, m.opening),
                    (&w.refused[..], w.by_arbiter, w.opening)
                );
                assert_eq!(*m.mv.value(), w.mv, "{name}");
                assert_eq!(*m.effects.map(), w.effects, "{name}");
            }
        }
    }
    assert!(lean >= 5, "only {lean} lines were read lean");
}

/// A round of the 4x4 record, edited as a value (and written as the writer writes it) or as
/// text.
fn edited(edit: impl Fn(&mut Value)) -> String {
    let mut round: Value = serde_json::from_str(&record_lines("rolit_4x4.jsonl")[0]).unwrap();
    edit(&mut round);
    serde_json::to_string(&round).unwrap()
}

/// Whether the lean reading takes the line (rather than leaving it to the record's reader).
fn lean(line: &str) -> bool {
    super::lean::read(line.as_bytes(), &mut Vec::new()).is_some()
}

/// The first round's verdict, read lean and read whole (they must agree).
fn verdict(line: String) -> Result<(), Discrepancy> {
    let ((lean, _), (whole, _)) = both(&[line]);
    assert_eq!(lean, whole);
    lean.into_iter().next().unwrap()
}

#[test]
fn tampered_rounds_are_refused_the_same_way() {
    let first = |r: &Value| r["moves"][0]["move"].clone();
    let tampered: Vec<(&str, String)> = vec![
        (
            "a swapped move",
            edited(|r| {
                let (a, b) = (r["moves"][2]["move"].clone(), r["moves"][4]["move"].clone());
                r["moves"][2]["move"] = b;
                r["moves"][4]["move"] = a;
            }),
        ),
        (
            "an occupied square",
            edited(|r| r["moves"][3]["move"] = first(r)),
        ),
        (
            "a move as a number",
            edited(|r| r["moves"][1]["move"] = json!(7)),
        ),
        (
            "a changed flip",
            edited(|r| r["moves"][2]["flipped"] = json!(["a1"])),
        ),
        (
            "a flip left out",
            edited(|r| r["moves"][2]["flipped"] = json!([])),
        ),
        (
            "an effect added",
            edited(|r| r["moves"][2]["gained"] = json!(2)),
        ),
        (
            "an effect taken away",
            edited(|r| {
                r["moves"][2].as_object_mut().unwrap().remove("flipped");
            }),
        ),
        (
            "a dropped move",
            edited(|r| {
                r["moves"].as_array_mut().unwrap().pop();
            }),
        ),
        (
            "a move too many",
            edited(|r| {
                let last = r["moves"].as_array().unwrap().last().unwrap().clone();
                r["moves"].as_array_mut().unwrap().push(last);
            }),
        ),
        (
            "a raised score",
            edited(|r| {
                let s = r["result"]["points"][0].as_u64().unwrap();
                r["result"]["points"][0] = json!(s + 1);
            }),
        ),
        (
            "another colour",
            edited(|r| r["moves"][1]["colour"] = json!("blue")),
        ),
        (
            "the arbiter's move",
            edited(|r| r["moves"][1]["by_arbiter"] = json!(true)),
        ),
        (
            "a renumbered move",
            edited(|r| r["moves"][1]["ply"] = json!(9)),
        ),
        (
            "another seat",
            edited(|r| {
                let seat = r["moves"][1]["seat"].as_u64().unwrap();
                r["moves"][1]["seat"] = json!(1 - seat);
            }),
        ),
        (
            "a changed board",
            edited(|r| r["board"]["board"][0] = json!("GGGG")),
        ),
    ];
    for (what, line) in tampered {
        assert!(lean(&line), "{what}: {line}");
        let found = verdict(line);
        assert!(found.is_err(), "{what} was not found");
    }
}

#[test]
fn rounds_written_otherwise_read_as_written_by_the_writer() {
    let line = edited(|_| {});
    let mv = {
        let round: Value = serde_json::from_str(&line).unwrap();
        round["moves"][0]["move"].as_str().unwrap().to_string()
    };
    let escaped: String = mv.chars().map(|c| format!("\\u{:04x}", c as u32)).collect();
    // Escapes, spaces, a repeated effect, refused attempts; whether the lean reading takes
    // them (else the record's reader reads them).
    let variants = [
        (
            line.replacen(
                &format!("\"move\":\"{mv}\""),
                &format!("\"move\":\"{escaped}\""),
                1,
            ),
            false,
        ),
        (
            line.replace("\"flipped\":[", "\"flipped\" : [ ")
                .replace("],\"ms\"", " ] ,\"ms\""),
            true,
        ),
        (
            line.replacen("\"flipped\":", "\"flipped\":[\"a1\"],\"flipped\":", 1),
            true,
        ),
        (line.replacen("\"ms\":", "\"refused\":[],\"ms\":", 1), true),
        (
            line.replacen(
                "\"ms\":",
                "\"refused\":[{\"line\":\"x\",\"reason\":\"y\",\"ms\":0}],\"ms\":",
                1,
            ),
            false,
        ),
    ];
    assert!(lean(&line));
    assert_eq!(verdict(line.clone()), Ok(()));
    for (variant, read_lean) in variants {
        assert_ne!(variant, line);
        assert_eq!(lean(&variant), read_lean, "{variant}");
        let found = verdict(variant.clone());
        if read_lean || !variant.contains("reason") {
            assert_eq!(found, Ok(()), "{variant}");
        } else {
            // A refused attempt that is not in the round is refused, the same way both ways.
            assert!(found.is_err(), "{variant}");
        }
    }
}
