//! What a robots record keeps: round times at the precision the record holds (a replay finds
//! exactly what was recorded), where the robots start in every round (the first too), and the
//! final state as `protocol/games/robots.md` ("The state") describes it.

use serde_json::{Value, json};

use super::*;
use rollarena::record::round_ms;

/// Moves the number under `key` of `obj`, if there is one, by `delta` ms (rounded as a record
/// keeps round times).
fn shift(obj: &mut Value, key: &str, delta: f64) {
    if let Some(t) = obj.get(key).and_then(Value::as_f64) {
        obj[key] = json!(round_ms(t + delta));
    }
}

/// Every round time of a round's line moved by `delta` ms: the round as if everything had
/// happened `delta` ms later.
fn shift_round(line: &mut Value, delta: f64) {
    for m in line["moves"].as_array_mut().unwrap() {
        for key in ["at_ms", "ms", "hourglass_ends_ms"] {
            shift(m, key, delta);
        }
    }
    for f in line["forfeits"].as_array_mut().unwrap() {
        shift(f, "at_ms", delta);
    }
    for d in line["board"]["declarations"].as_array_mut().unwrap() {
        shift(d, "at_ms", delta);
    }
}

/// A genuine record whose first declaration falls at 68.019 ms with a 2 s hourglass: the
/// hourglass ends at 2068.019, which the record holds, while 68.019 + 2000 in floating point is
/// 2068.0190000000002. `replay --verify` accepts it (it refused such records, comparing past
/// the record's precision), and still refuses an hourglass recorded a microsecond off.
#[test]
fn times_are_compared_at_the_precision_the_record_keeps() {
    let run = Table::new("precision")
        .flags(&["--hourglass", "2s"])
        .zoo("--declare 9@50")
        .solver("")
        .run();
    let r = &run.ok(1)[0];
    assert_won_by(r, 1);
    assert_verifies(&run);

    let text = std::fs::read_to_string(record_path(&run)).unwrap();
    let mut line: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let first = line["moves"][0]["at_ms"].as_f64().unwrap();
    shift_round(&mut line, 68.019 - first);
    assert_eq!(line["moves"][0]["at_ms"], json!(68.019));
    assert_eq!(line["moves"][0]["hourglass_ends_ms"], json!(2068.019));
    assert_ne!(
        68.019 + 2000.0,
        2068.019,
        "the sum is past the record's precision"
    );
    let shifted = format!("{}\n", serde_json::to_string(&line).unwrap());
    assert!(
        shifted.contains(r#""hourglass_ends_ms":2068.019,"#)
            || shifted.contains(r#""hourglass_ends_ms":2068.019}"#),
        "{shifted}"
    );
    let path = run.dir.path().join("shifted.jsonl");
    std::fs::write(&path, &shifted).unwrap();
    let (code, said) = verify_file(&path);
    assert_eq!(code, Some(0), "the shifted record verifies:\n{said}");

    line["moves"][0]["hourglass_ends_ms"] = json!(2068.02);
    let off = run.dir.path().join("off.jsonl");
    std::fs::write(&off, format!("{}\n", serde_json::to_string(&line).unwrap())).unwrap();
    let (code, said) = verify_file(&off);
    assert_eq!(
        code,
        Some(1),
        "an hourglass a microsecond off is refused:\n{said}"
    );
    assert!(said.contains("hourglass_ends_ms"), "{said}");
}

/// Every round records where it starts, the first too: round 1's `carry` is the match's start
/// (the robots as the seed places them, the whole pile, nothing won), so the line replays on
/// its own, and a start edited in it is refused.
#[test]
fn every_round_records_its_start_the_first_too() {
    let run = Table::new("start")
        .flags(&["--hourglass", "500ms"])
        .rounds(2)
        .solver("")
        .solver("")
        .run();
    let rounds = run.ok(2);
    let first = rounds[0]
        .carry
        .as_ref()
        .expect("round 1 records where the robots start");
    assert_eq!(first["pile"].as_array().unwrap().len(), 17, "{first}");
    assert_eq!(first["pile"][0], rounds[0].board["token"], "{first}");
    assert_eq!(first["won"], json!([[], []]));
    assert_eq!(first["since_win"], 0);
    let second = rounds[1].carry.as_ref().expect("round 2 carries its start");
    assert_ne!(
        first["robots"], second["robots"],
        "the winner moved a robot"
    );
    assert_verifies(&run);

    assert_tamper_rejected(&run, "round 1's start edited", |lines| {
        let robots = lines[0]["carry"]["robots"].clone();
        let (red, green) = (robots["red"].clone(), robots["green"].clone());
        lines[0]["carry"]["robots"]["red"] = green;
        lines[0]["carry"]["robots"]["green"] = red;
    });
}

/// The final state's fields are what robots.md's table says: `tokens` and `pile` as they stood
/// when the token was drawn (the win is `winner`, `end.scores` and the next `carry`), no
/// `hourglass_ends_ms` once declarations are closed (each declaration keeps it), and the
/// declarations of the seats still in the round.
#[test]
fn the_final_state_is_as_the_rules_document_says() {
    let run = Table::new("final-state")
        .flags(&["--hourglass", "1s"])
        .rounds(2)
        .solver("")
        .zoo("--declare 9@50")
        .run();
    for r in run.ok(2) {
        let start = r.carry.as_ref().expect("every round records its start");
        let held: Vec<usize> = start["won"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_array().unwrap().len())
            .collect();
        assert_eq!(r.board["tokens"], json!(held), "round {}", r.round);
        assert_eq!(
            r.board["pile"],
            start["pile"].as_array().unwrap().len() - 1,
            "round {}",
            r.round
        );
        assert_eq!(r.board["phase"], "over");
        assert!(r.board.get("hourglass_ends_ms").is_none(), "{}", r.board);
        let winner = r.board["winner"].as_u64().map(|w| w as usize);
        for (seat, &before) in held.iter().enumerate() {
            let after = before + usize::from(winner == Some(seat));
            assert_eq!(r.result.scores[&seat.to_string()], after as u32);
        }
    }
    assert_verifies(&run);
}
