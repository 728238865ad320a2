//! The race to declare: declarations made at the same moment, lowering and raising one's own,
//! and the order of verification when declarations tie (by time, or by CPU time).

use serde_json::{Value, json};

use super::*;

/// Three bots declare 100 ms after `start`, all at once: the three declarations are recorded
/// (in the order the arbiter read them, inside the hourglass the first one turned) and each is
/// announced to every bot with the recorded fields; the verification then takes them lowest
/// first, and none of the (wrong or malformed) solutions wins the token.
#[test]
fn simultaneous_declarations_are_all_recorded_and_announced() {
    let _timing = timing_lock();
    let run = Table::new("simultaneous")
        .flags(&["--hourglass", "1s"])
        .zoo("--declare 5@100 --echo")
        .zoo("--declare 6@100 --echo")
        .zoo("--declare 7@100 --echo --prove malformed")
        .run();
    let r = &run.ok(1)[0];
    let decls = actions(r, "declare");
    let mut got = declared(r);
    got.sort();
    assert_eq!(got, vec![(0, 5), (1, 6), (2, 7)], "{:#?}", r.moves);
    let first = at(decls[0]);
    let hourglass_end = first + 1000.0;
    for d in &decls {
        assert!(!d.by_arbiter);
        assert!(
            at(d) >= first && at(d) < hourglass_end,
            "declared inside the hourglass: {d:?}"
        );
        assert!(
            at(d) - first < 800.0,
            "declared at the same moment: {decls:#?}"
        );
        let ends = effect(d, "hourglass_ends_ms")
            .as_f64()
            .expect("hourglass_ends_ms");
        assert_same_time(
            ends,
            hourglass_end,
            "the first declaration turns the hourglass",
        );
        assert!(d.cpu_ms.is_some(), "CPU time stamped: {d:?}");
    }

    // Every bot heard every declaration, as recorded.
    for seat in 0..3 {
        let heard = echoes(r, seat, "declared");
        assert_eq!(heard.len(), 3, "seat {seat} heard: {heard:#?}");
        for d in &decls {
            let h = heard
                .iter()
                .find(|h| h["seat"] == d.seat)
                .unwrap_or_else(|| panic!("seat {seat} heard seat {}: {heard:#?}", d.seat));
            assert_eq!(h["moves"], d.mv["moves"]);
            assert_same_time(h["at_ms"].as_f64().unwrap(), at(d), "announced round time");
            assert_eq!(h["hourglass_ends_ms"], *effect(d, "hourglass_ends_ms"));
            assert_eq!(h["by_arbiter"], false);
        }
    }

    // Lowest first; every demonstration fails and is a fault of kind "solution".
    let solutions = actions(r, "solution");
    assert_eq!(provers(r), vec![0, 1, 2]);
    for (s, declared) in solutions.iter().zip([5, 6, 7]) {
        assert_eq!(effect(s, "declared"), declared);
        assert_eq!(effect(s, "ok"), false);
        assert!(
            at(s) >= hourglass_end - 0.001,
            "proved after the hourglass: {s:?}"
        );
    }
    let reason = effect(solutions[2], "reason").as_str().unwrap();
    assert!(reason.contains("a solution is a list of moves"), "{reason}");
    let fs = faults(r, "solution");
    assert_eq!(fs.iter().map(|f| f.0).collect::<Vec<_>>(), vec![0, 1, 2]);
    assert!(
        fs[0].1.starts_with("failed demonstration of 5 moves"),
        "{fs:?}"
    );
    let proves = echoes(r, 0, "prove");
    assert_eq!(proves.len(), 1, "{proves:#?}");
    assert_eq!(proves[0]["proving"], json!({"seat": 0, "moves": 5}));
    assert!(proves[0]["time_ms"].as_u64().unwrap() <= 60_000);
    // The last to prove heard the outcomes before it (its echoes precede its solution).
    let heard: Vec<Value> = echoes(r, 2, "verified")
        .iter()
        .map(|v| json!([v["seat"], v["ok"], v["declared"]]))
        .collect();
    assert_eq!(heard[..2], [json!([0, false, 5]), json!([1, false, 6])]);
    assert!(r.forfeits.is_empty(), "{:#?}", r.forfeits);
    assert_nobody_won(r);
    assert_verifies(&run);
}

/// A bot declares 9, then 4 (both accepted, the hourglass left as the first turned it), then
/// 6: the raise is refused (a fault of kind `refused`, an `illegal` with `turn_id` 0), never
/// announced, and costs nothing else; the 4 is what the bot must prove.
#[test]
fn a_bot_may_lower_its_declaration_but_not_raise_it() {
    let _timing = timing_lock();
    let run = Table::new("lowering")
        .flags(&["--hourglass", "1s"])
        .zoo("--declare 9@50,4@250,6@450 --echo")
        .zoo("--echo")
        .run();
    let r = &run.ok(1)[0];
    assert_eq!(declared(r), vec![(0, 9), (0, 4)], "{:#?}", r.moves);
    let decls = actions(r, "declare");
    assert!(at(decls[1]) > at(decls[0]));
    assert_eq!(
        effect(decls[0], "hourglass_ends_ms"),
        effect(decls[1], "hourglass_ends_ms"),
        "lowering does not turn the hourglass again"
    );

    let refused = faults(r, "refused");
    assert_eq!(refused.len(), 1, "{:#?}", r.faults);
    assert_eq!(refused[0].0, 0);
    assert!(refused[0].1.contains("only lower"), "{refused:?}");
    let line = r.faults.iter().find(|f| f.kind == "refused").unwrap();
    assert!(
        line.line.as_deref().unwrap_or("").contains("\"moves\":6"),
        "the refused line is kept: {line:?}"
    );
    let illegal = echoes(r, 0, "illegal");
    assert_eq!(illegal.len(), 1, "{illegal:#?}");
    assert_eq!(illegal[0]["turn_id"], 0, "nobody was asked anything");
    assert_eq!(illegal[0]["retries_left"], 1);
    assert!(
        illegal[0]["reason"]
            .as_str()
            .unwrap()
            .contains("declared 4")
    );
    assert!(illegal[0]["time_ms"].as_u64().unwrap() <= 1000);
    assert!(r.forfeits.is_empty(), "a refused line is no forfeit");

    for seat in 0..2 {
        let heard: Vec<Value> = echoes(r, seat, "declared")
            .iter()
            .map(|h| h["moves"].clone())
            .collect();
        assert_eq!(heard, vec![json!(9), json!(4)], "seat {seat} heard");
    }
    assert_eq!(
        r.board["declarations"],
        json!([{"seat": 0, "moves": 4, "at_ms": at(decls[1])}]),
        "the current declaration is the lowered one"
    );
    assert_eq!(provers(r), vec![0]);
    assert_eq!(effect(actions(r, "solution")[0], "declared"), 4);
    assert_nobody_won(r);
    assert_verifies(&run);
    assert_tamper_rejected(&run, "the raise recorded as accepted", |lines| {
        let mut raise = lines[0]["moves"][1].clone();
        raise["ply"] = json!(3);
        raise["move"] = json!({"moves": 6});
        raise["at_ms"] = json!(at(decls[1]) + 100.0);
        let moves = lines[0]["moves"].as_array_mut().unwrap();
        moves.insert(2, raise);
        for (i, m) in moves.iter_mut().enumerate() {
            m["ply"] = json!(i + 1);
        }
    });
}

/// Two bots declare 5, one 50 ms after `start`, the other 400 ms: the earlier is asked to
/// prove first, whatever its seat. Moving the later one's round time before the other's in
/// the record is caught.
#[test]
fn a_tie_goes_to_the_earlier_declaration() {
    let _timing = timing_lock();
    let run = Table::new("tie-time")
        .flags(&["--hourglass", "1s"])
        .zoo("--declare 5@400 --echo")
        .zoo("--declare 5@50 --echo")
        .run();
    let r = &run.ok(1)[0];
    assert_eq!(declared(r), vec![(1, 5), (0, 5)], "{:#?}", r.moves);
    let decls = actions(r, "declare");
    assert!(
        at(decls[1]) - at(decls[0]) > 150.0,
        "declared far apart: {decls:#?}"
    );
    assert_eq!(
        provers(r),
        vec![1, 0],
        "the earlier declaration proves first"
    );
    assert_eq!(echoes(r, 1, "prove").len(), 1);
    assert_eq!(echoes(r, 0, "prove").len(), 1);
    assert_nobody_won(r);
    assert_verifies(&run);
    assert_tamper_rejected(&run, "the round times of the tie swapped", |lines| {
        let moves = &mut lines[0]["moves"];
        let (a, b) = (moves[0]["at_ms"].clone(), moves[1]["at_ms"].clone());
        moves[0]["at_ms"] = b.clone();
        moves[0]["ms"] = b;
        moves[1]["at_ms"] = a.clone();
        moves[1]["ms"] = a;
    });
}

/// With `--cpu-tiebreak` a tie goes to the bot that had used less CPU time when it declared:
/// seat 0 spins until it has used 200 ms of CPU and declares 5 at once, seat 1 sleeps and
/// declares 5 at 1.5 s. Without the flag the same bots give the tie to seat 0, the first to
/// declare. The record's CPU times decide the replay too: swapping them is caught.
#[test]
fn the_cpu_tiebreak_prefers_the_bot_that_burned_less_cpu() {
    let _timing = timing_lock();
    // The burner has 4 s of wall time to burn its 200 ms of CPU and declare first (a load
    // average of 30 once stretched it to 2.2 s, past the 1.5 s the sleeper declared at).
    for cpu in [true, false] {
        let mut flags = vec!["--hourglass", "6s"];
        if cpu {
            flags.push("--cpu-tiebreak");
        }
        let run = Table::new("tie-cpu")
            .flags(&flags)
            .zoo("--burn 200 --declare 5@0")
            .zoo("--declare 5@4000")
            .run();
        let r = &run.ok(1)[0];
        assert_eq!(
            r.options["tiebreak"],
            if cpu { "cpu" } else { "time" },
            "{:#?}",
            r.options
        );
        assert_eq!(declared(r), vec![(0, 5), (1, 5)], "{:#?}", r.moves);
        let decls = actions(r, "declare");
        let burned = decls[0].cpu_ms.expect("the burner's CPU time is measured");
        let slept = decls[1].cpu_ms.expect("the sleeper's CPU time is measured");
        assert!(
            burned >= 150.0 && burned > slept + 100.0,
            "seat 0 burned {burned} ms of CPU, seat 1 {slept} ms"
        );
        let expected = if cpu { vec![1, 0] } else { vec![0, 1] };
        assert_eq!(provers(r), expected, "cpu tie-break {cpu}");
        assert_verifies(&run);
        if cpu {
            assert_tamper_rejected(&run, "the CPU times of the tie swapped", |lines| {
                let moves = &mut lines[0]["moves"];
                let (a, b) = (moves[0]["cpu_ms"].clone(), moves[1]["cpu_ms"].clone());
                moves[0]["cpu_ms"] = b;
                moves[1]["cpu_ms"] = a;
            });
        }
    }
}
