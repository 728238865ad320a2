//! `pass`, done declaring: when every seat still in the round has passed, the hourglass ends
//! at once; a seat that never passes keeps the whole hourglass for everyone; a pass is
//! announced, recorded with its time, and verified in replays.

use serde_json::Value;

use super::*;

/// Two bots declare and pass, or only pass, long before a 20 s hourglass would run out:
/// verification starts at the last pass, every bot hears both passes, the record replays.
/// (Seat 0 never proves, so the round lasts the time to prove after the last pass and the
/// bots' logs of what they heard arrive within it.)
#[test]
fn when_every_seat_passed_verification_starts_at_once() {
    let _timing = timing_lock();
    let run = Table::new("all-passed")
        .flags(&["--hourglass", "20s", "--prove-time", "1s"])
        .zoo("--declare 5@50 --pass 100 --echo --prove never")
        .zoo("--pass 200 --echo")
        .run();
    let r = &run.ok(1)[0];
    assert!(
        run.elapsed.as_secs_f64() < 10.0,
        "the hourglass did not run out: {:?}",
        run.elapsed
    );
    let passes = actions(r, "pass");
    assert_eq!(
        passes.iter().map(|m| m.seat).collect::<Vec<_>>(),
        vec![0, 1],
        "{:#?}",
        r.moves
    );
    for p in &passes {
        assert!(!p.by_arbiter);
        assert_eq!(p.mv, serde_json::json!({}));
        assert!(p.cpu_ms.is_some(), "CPU time stamped: {p:?}");
    }
    // The first pass leaves the hourglass running, the last one ends it.
    assert!(effect(passes[0], "hourglass_ends_ms").as_f64().is_some());
    assert_eq!(*effect(passes[1], "hourglass_ends_ms"), Value::Null);
    let solution = actions(r, "solution");
    assert_eq!(provers(r), vec![0]);
    assert!(solution[0].by_arbiter, "{:#?}", r.moves);
    assert_same_time(
        at(solution[0]),
        at(passes[1]) + 1000.0,
        "asked to prove at the last pass, closed 1 s later",
    );
    assert_nobody_won(r);
    for seat in 0..2 {
        let heard = echoes(r, seat, "passed");
        assert_eq!(heard.len(), 2, "seat {seat} heard: {heard:#?}");
        for (h, p) in heard.iter().zip(&passes) {
            assert_eq!(h["seat"], p.seat);
            assert_same_time(h["at_ms"].as_f64().unwrap(), at(p), "announced round time");
            assert_eq!(h["by_arbiter"], false);
        }
    }
    assert_verifies(&run);
    assert_tamper_rejected(&run, "a pass left out", |lines| {
        let moves = lines[0]["moves"].as_array_mut().unwrap();
        let i = moves.iter().position(|m| m["kind"] == "pass").unwrap();
        moves.remove(i);
        for (k, m) in moves.iter_mut().enumerate() {
            m["ply"] = Value::from(k as u64 + 1);
        }
    });
}

/// Nobody declares and everybody passes: the token goes back at once, nobody is asked to prove,
/// and the next token is drawn without waiting for the first declaration's 5 minutes.
#[test]
fn with_nobody_declaring_the_token_goes_back_when_all_passed() {
    let run = Table::new("nobody-declares")
        .rounds(2)
        .zoo("--pass 30")
        .zoo("--pass 60")
        .run();
    let rounds = run.ok(2);
    assert!(run.elapsed.as_secs_f64() < 20.0, "{:?}", run.elapsed);
    for r in rounds {
        assert!(actions(r, "declare").is_empty());
        assert!(provers(r).is_empty());
        assert_eq!(actions(r, "pass").len(), 2);
        assert_nobody_won(r);
    }
    assert_verifies(&run);
}

/// One seat declares and passes, the other never passes: the hourglass runs its full time.
#[test]
fn a_seat_that_never_passes_keeps_the_whole_hourglass() {
    let _timing = timing_lock();
    let run = Table::new("one-never-passes")
        .flags(&["--hourglass", "1500ms", "--prove-time", "1s"])
        .zoo("--declare 5@50 --pass 60")
        .zoo("--declare 6@100")
        .run();
    let r = &run.ok(1)[0];
    let first = at(actions(r, "declare")[0]);
    let solutions = actions(r, "solution");
    assert!(
        at(solutions[0]) >= first + 1500.0 - 0.001,
        "proved only after the hourglass: {:#?}",
        r.moves
    );
    assert_verifies(&run);
}

/// After a pass, a declaration and a second pass are refused (faults `refused`, with the
/// rules' reasons); the seat's earlier declaration still stands.
#[test]
fn declaring_or_passing_again_after_a_pass_is_refused() {
    let _timing = timing_lock();
    let run = Table::new("after-pass")
        .flags(&["--hourglass", "1s", "--prove-time", "1s"])
        .zoo("--declare 7@50,5@300 --pass 100 --pass-twice")
        .zoo("--declare 6@400")
        .run();
    let r = &run.ok(1)[0];
    let refused = faults(r, "refused");
    let from0: Vec<&String> = refused
        .iter()
        .filter(|(s, _)| *s == 0)
        .map(|(_, d)| d)
        .collect();
    assert!(
        from0.iter().any(|d| d.contains("passed already")),
        "{refused:#?}"
    );
    assert!(
        from0.iter().any(|d| d.contains("you passed")),
        "{refused:#?}"
    );
    assert_eq!(declared(r), vec![(0, 7), (1, 6)]);
    assert_verifies(&run);
}

/// With its defaults (hourglass 60 s), a match between built-in solvers takes seconds: they
/// pass as soon as they have declared their best.
#[test]
fn built_in_solvers_play_a_default_match_in_seconds() {
    let run = Table::new("solvers-default")
        .rounds(4)
        .solver("")
        .solver("--strength 4")
        .run();
    let rounds = run.ok(4);
    assert!(
        run.elapsed.as_secs_f64() < 30.0,
        "four tokens took {:?}",
        run.elapsed
    );
    for r in rounds {
        assert_eq!(actions(r, "pass").len(), 2, "{:#?}", r.moves);
    }
    assert_verifies(&run);
}

/// `examples/robots-tournament.toml`, six built-in solvers in a round robin with the default
/// rules, takes seconds, not hours, and its record verifies.
#[test]
fn the_example_robots_tournament_takes_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/robots-tournament.toml");
    let started = std::time::Instant::now();
    let run = cli(&[
        "tournament",
        &file.display().to_string(),
        "-o",
        &out.display().to_string(),
    ]);
    let took = started.elapsed();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(took.as_secs() < 120, "the tournament took {took:?}");
    for name in ["solver-10", "solver-2"] {
        assert!(stdout.contains(name), "{name} in the table:\n{stdout}");
    }
    let (code, said) = verify_file(&out.join("results.jsonl"));
    assert_eq!(code, Some(0), "{said}");
}
