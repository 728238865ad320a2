//! Verification: a demonstration that fails, one that never comes, and bots that crash while
//! the hourglass runs or when asked to prove. In each, the built-in solver (seat 0 or 1) holds
//! the other declaration, and the token must still be decided by it.
//!
//! The zoo bots here `--undercut`: they answer every declaration of the solver with one move
//! less, so that they are asked to prove first whatever the timing (seed 2's first token takes
//! 5 moves, so the solver never declares 2).

use serde_json::{Value, json};

use super::*;

use rollarena::record::ForfeitKind;

/// The solver's lowest declaration and the zoo's, which is one less.
fn undercut(r: &RoundRecord, solver: usize, zoo: usize) -> (u64, u64) {
    let lowest = |seat: usize| {
        declared(r)
            .into_iter()
            .filter(|&(s, _)| s == seat)
            .map(|(_, m)| m)
            .min()
            .unwrap_or_else(|| panic!("seat {seat} declared: {:#?}", r.moves))
    };
    let (s, z) = (lowest(solver), lowest(zoo));
    assert_eq!(z + 1, s, "the zoo undercuts the solver: {:#?}", r.moves);
    (s, z)
}

/// A bot declares less than the solver and then sends a wrong solution (one move, never
/// enough), or a malformed one ("moves" a string): the failed demonstration is recorded (a
/// fault of kind `solution`, no forfeit), and the solver's declaration, verified next, wins
/// the token; the robots stay where its solution left them.
#[test]
fn a_failed_demonstration_passes_the_token_to_the_next_declaration() {
    for (how, why) in [
        ("wrong", "robot stands on"),
        ("malformed", "a solution is a list of moves"),
    ] {
        let run = Table::new("failed-proof")
            .flags(&["--hourglass", "1s"])
            .solver("")
            .zoo(&format!("--undercut --prove {how} --echo"))
            .run();
        let r = &run.ok(1)[0];
        let (solver, zoo) = undercut(r, 0, 1);
        assert_eq!(provers(r), vec![1, 0], "{how}: {:#?}", r.moves);
        let solutions = actions(r, "solution");
        let (failed, won) = (solutions[0], solutions[1]);
        assert_eq!(effect(failed, "declared"), zoo);
        assert_eq!(effect(failed, "ok"), false);
        assert!(!failed.by_arbiter);
        let reason = effect(failed, "reason").as_str().unwrap();
        assert!(reason.contains(why), "{how}: {reason}");
        assert_eq!(
            faults(r, "solution"),
            vec![(1, format!("failed demonstration of {zoo} moves: {reason}"))]
        );
        assert!(faults(r, "refused").is_empty(), "{:#?}", r.faults);
        assert!(r.forfeits.is_empty(), "{:#?}", r.forfeits);

        assert_eq!(effect(won, "declared"), solver);
        assert_eq!(effect(won, "ok"), true, "{won:#?}");
        assert!(at(won) >= at(failed), "proved after the failure");
        let path = won.mv["moves"].as_array().unwrap();
        assert!(path.len() as u64 <= solver);
        assert_eq!(r.board["robots"], *effect(won, "robots"));
        assert_won_by(r, 0);

        assert_verifies(&run);
        if how == "wrong" {
            assert_tamper_rejected(&run, "the failed demonstration marked ok", |lines| {
                let solution = lines[0]["moves"]
                    .as_array_mut()
                    .unwrap()
                    .iter_mut()
                    .find(|m| m["kind"] == "solution")
                    .unwrap();
                solution["ok"] = json!(true);
                solution.as_object_mut().unwrap().remove("reason");
            });
        }
    }
}

/// A bot declares less than the solver and never answers `prove`: with `--prove-time
/// 500ms` the arbiter closes its demonstration at the deadline (`by_arbiter`, no moves, not
/// ok), records a fault of kind `solution` and no forfeit, and verifies the solver's
/// declaration next, which wins; the bot plays the next token as before. (Two tokens, so
/// that the bot's echo of the last `verified`, read after its round ended, is recorded.)
#[test]
fn a_bot_that_never_proves_is_closed_by_the_arbiter() {
    let run = Table::new("never-proves")
        .flags(&["--hourglass", "1s", "--prove-time", "500ms"])
        .rounds(2)
        .solver("")
        .zoo("--undercut --prove never --echo")
        .run();
    let rounds = run.ok(2);
    assert_eq!(provers(&rounds[1]), vec![1, 0], "{:#?}", rounds[1].moves);
    assert_won_by(&rounds[1], 0);
    let r = &rounds[0];
    let (_, zoo) = undercut(r, 0, 1);
    assert_eq!(provers(r), vec![1, 0], "{:#?}", r.moves);
    let hourglass_end = effect(actions(r, "declare")[0], "hourglass_ends_ms")
        .as_f64()
        .unwrap();
    let solutions = actions(r, "solution");
    let closed = solutions[0];
    assert!(closed.by_arbiter, "{closed:#?}");
    assert_eq!(closed.mv, json!({"moves": null}));
    assert_eq!(effect(closed, "ok"), false);
    assert_eq!(effect(closed, "declared"), zoo);
    assert!(closed.cpu_ms.is_none());
    let reason = effect(closed, "reason").as_str().unwrap();
    assert!(reason.contains("within 500 ms"), "{reason}");
    assert_same_time(
        at(closed),
        hourglass_end + 500.0,
        "closed at the end of the time to prove",
    );
    assert_eq!(faults(r, "solution").len(), 1, "{:#?}", r.faults);
    assert_eq!(faults(r, "solution")[0].0, 1);
    assert!(r.forfeits.is_empty(), "no forfeit: {:#?}", r.forfeits);
    assert_eq!(effect(solutions[1], "ok"), true);
    assert!(!solutions[1].by_arbiter);
    assert_won_by(r, 0);

    let prove = echoes(r, 1, "prove");
    assert_eq!(prove.len(), 1, "{prove:#?}");
    assert!(prove[0]["time_ms"].as_u64().unwrap() <= 500);
    let verified: Vec<Value> = rounds
        .iter()
        .flat_map(|r| echoes(r, 1, "verified"))
        .collect();
    assert_eq!(verified[0]["seat"], 1, "{verified:#?}");
    assert_eq!(verified[0]["by_arbiter"], true);
    assert_eq!(verified[0]["moves"], Value::Null);
    assert_same_time(
        verified[0]["at_ms"].as_f64().unwrap(),
        at(closed),
        "announced",
    );
    assert_verifies(&run);
}

/// A bot declares 2 at once (less than anyone could prove here) and crashes 300 ms later,
/// while the hourglass runs: it forfeits (with its round time), its declaration is dropped,
/// and the solver's declaration decides the token.
#[test]
fn a_crash_during_the_hourglass_forfeits_and_the_other_declaration_decides() {
    let run = Table::new("crash-thinking")
        .flags(&["--hourglass", "1s"])
        .zoo("--declare 2@0 --crash-at 300")
        .solver("")
        .run();
    let r = &run.ok(1)[0];
    assert!(declared(r).contains(&(0, 2)), "{:#?}", r.moves);
    assert_eq!(r.forfeits.len(), 1, "{:#?}", r.forfeits);
    let f = &r.forfeits[0];
    assert_eq!((f.seat, f.kind), (0, ForfeitKind::Crash), "{f:#?}");
    let forfeit_at = f
        .at_ms
        .expect("a forfeit in simultaneous play has its round time");
    let decls = actions(r, "declare");
    let hourglass_end = effect(decls[0], "hourglass_ends_ms").as_f64().unwrap();
    let zoo_declared = decls.iter().find(|d| d.seat == 0).unwrap();
    assert!(
        forfeit_at > at(zoo_declared) && forfeit_at < hourglass_end,
        "crashed while the hourglass ran: {f:#?}, hourglass ends {hourglass_end}"
    );
    assert!(f.stderr_tail.contains("crash-at 300"), "{f:#?}");
    assert_eq!(
        provers(r),
        vec![1],
        "the dropped declaration is not verified"
    );
    assert_eq!(effect(actions(r, "solution")[0], "ok"), true);
    assert_won_by(r, 1);
    assert_eq!(r.result.points[0], 0);
    // Out of the round, its declaration is gone from the final state too.
    let shown = r.board["declarations"].as_array().unwrap();
    assert!(
        shown.iter().all(|d| d["seat"] != 0) && shown.iter().any(|d| d["seat"] == 1),
        "{}",
        r.board["declarations"]
    );
    assert_verifies(&run);
    assert_tamper_rejected(&run, "the forfeit left out", |lines| {
        lines[0]["forfeits"] = json!([]);
    });
}

/// A bot declares less than the solver and crashes when asked to prove: it forfeits (at a
/// round time after the hourglass ran out), no demonstration is recorded for it, and the
/// solver, asked next, wins the token.
#[test]
fn a_crash_when_asked_to_prove_forfeits_and_the_next_declaration_decides() {
    let run = Table::new("crash-proving")
        .flags(&["--hourglass", "1s"])
        .zoo("--undercut --prove crash")
        .solver("")
        .run();
    let r = &run.ok(1)[0];
    undercut(r, 1, 0);
    assert_eq!(r.forfeits.len(), 1, "{:#?}", r.forfeits);
    let f = &r.forfeits[0];
    assert_eq!((f.seat, f.kind), (0, ForfeitKind::Crash), "{f:#?}");
    let hourglass_end = effect(actions(r, "declare")[0], "hourglass_ends_ms")
        .as_f64()
        .unwrap();
    assert!(
        f.at_ms.unwrap() >= hourglass_end - 0.001,
        "crashed after the hourglass: {f:#?}, hourglass ends {hourglass_end}"
    );
    assert!(f.stderr_tail.contains("asked to prove"), "{f:#?}");
    assert_eq!(provers(r), vec![1], "{:#?}", r.moves);
    assert!(
        faults(r, "solution").is_empty(),
        "a crash is no failed demonstration"
    );
    assert_won_by(r, 1);
    assert_verifies(&run);
}
