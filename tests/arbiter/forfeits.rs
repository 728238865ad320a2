//! Every kind of forfeit, with its evidence: the seat loses the round (last, 0 points), the
//! arbiter plays its remaining moves so the round is finished, and the bot is started afresh
//! for the next round (the zoo misbehaves in round 1 only, so round 2 is its own again).

use serde_json::Value;

use super::*;
use rollarena::record::ForfeitKind;

/// Plays two rounds, seat 1 running `zoo` (which should misbehave in round 1 only); checks
/// the forfeit of `kind` in round 1, the restart and a clean round 2; returns the run.
fn forfeit_then_restart(name: &str, flags: &[&str], zoo: &str, kind: ForfeitKind) -> Run {
    let arena = Arena::new(name).flags(flags).zoo("--log-messages");
    let zoo = format!("--dir {} --log-messages {zoo}", arena.dir_arg());
    let run = arena.zoo(&zoo).run();
    let rounds = run.ok(2);
    let f = assert_forfeit(&rounds[0], 1, kind);
    assert_clean(&rounds[0], 0);
    assert_clean(&rounds[1], 0);
    assert_clean(&rounds[1], 1);
    assert!(
        !own_plies(&rounds[1], 1).is_empty(),
        "the restarted bot plays round 2"
    );
    // A new process for seat 1 got hello in round 2; seat 0's bot lived for the whole match.
    assert_eq!(hellos(&run.rounds[1..], 1), 1, "seat 1 was started again");
    assert_eq!(
        hellos(&run.rounds, 0),
        1,
        "seat 0 lives for the whole match"
    );
    // The other bot saw the arbiter's moves for seat 1 as such, and the forfeit in `end`.
    let got = received(&run.rounds, 0);
    let by_arbiter = got
        .iter()
        .filter(|g| g["got"] == "played" && g["by_arbiter"] == true)
        .count();
    let expected = rounds[0].moves.iter().filter(|m| m.by_arbiter).count();
    assert_eq!(by_arbiter, expected, "played says by_arbiter");
    let end = got.iter().find(|g| g["got"] == "end").unwrap();
    assert_eq!(end["forfeits"], serde_json::json!([1]));
    assert_eq!(end["points"][1], 0);
    // The people's summary names it.
    let at = match f.ply {
        0 => "before its first move".to_string(),
        ply => format!("at move {ply}"),
    };
    assert!(
        run.stdout.contains(&format!("forfeited {at}: {kind}: ")),
        "{}",
        run.stdout
    );
    run
}

/// Messages of type hello a seat's bots reported, over all rounds.
fn hellos(rounds: &[RoundRecord], seat: usize) -> usize {
    received(rounds, seat)
        .iter()
        .filter(|g| g["got"] == "hello")
        .count()
}

#[test]
fn crash_with_an_exit_status() {
    let run = forfeit_then_restart(
        "crash-mid",
        &[],
        "--behaviour crash-mid --at 2 --round 1",
        ForfeitKind::Crash,
    );
    let r = &run.rounds[0];
    let f = &r.forfeits[0];
    assert_eq!(f.ply, ply_of_turn(r, 1, 2));
    let exit = f.exit.as_ref().expect("the exit status is evidence");
    assert_eq!((exit.code, exit.signal), (Some(3), None));
    assert_eq!(f.detail, "the bot exited with status 3");
    assert_eq!(f.stderr_tail, "zoo: crash-mid on turn 2\n");
    assert_eq!(r.stderr[1], f.stderr_tail, "the round keeps the tail too");
}

#[test]
fn exit_status_zero_mid_match_is_a_crash() {
    let run = forfeit_then_restart(
        "exit0-mid",
        &[],
        "--behaviour exit0-mid --at 3 --round 1",
        ForfeitKind::Crash,
    );
    let f = &run.rounds[0].forfeits[0];
    assert_eq!(f.ply, ply_of_turn(&run.rounds[0], 1, 3));
    assert_eq!(f.exit.as_ref().unwrap().code, Some(0));
    assert!(f.stderr_tail.contains("exit0-mid"));
}

#[test]
fn killed_by_a_signal() {
    for (signal, number, name) in [("SEGV", 11, "SIGSEGV"), ("KILL", 9, "SIGKILL")] {
        let run = forfeit_then_restart(
            &format!("signal-{signal}"),
            &[],
            &format!("--behaviour signal-mid --signal {signal} --at 1 --round 1"),
            ForfeitKind::Crash,
        );
        let f = &run.rounds[0].forfeits[0];
        let exit = f.exit.as_ref().unwrap();
        assert_eq!((exit.code, exit.signal), (None, Some(number)));
        assert!(f.detail.contains(name), "{}", f.detail);
        assert!(
            f.detail.contains(&format!("signal {number}")),
            "{}",
            f.detail
        );
        assert!(f.stderr_tail.contains("signal-mid"));
    }
}

/// A bot that exits at once never says ready: a crash before the round's first move (ply 0),
/// the arbiter plays all of the seat's moves.
#[test]
fn exit_before_hello() {
    let run = forfeit_then_restart(
        "exit-at-once",
        &[],
        "--behaviour exit-at-once --round 1",
        ForfeitKind::Crash,
    );
    let r = &run.rounds[0];
    let f = &r.forfeits[0];
    assert_eq!(f.ply, 0, "before the round's first move");
    assert_eq!(f.exit.as_ref().unwrap().code, Some(0));
    assert!(f.stderr_tail.contains("exit-at-once"));
    assert!(own_plies(r, 1).is_empty());
    assert!(
        r.seats[1].bot_name.is_none(),
        "it never said its name in round 1"
    );
    assert_eq!(
        run.rounds[1].seats[1].bot_name.as_deref(),
        Some("zoo-exit-at-once")
    );
}

#[test]
fn crash_before_ready() {
    let run = forfeit_then_restart(
        "crash-before-ready",
        &[],
        "--behaviour crash-before-ready --round 1",
        ForfeitKind::Crash,
    );
    let f = &run.rounds[0].forfeits[0];
    assert_eq!(f.ply, 0, "before the round's first move");
    assert_eq!(f.exit.as_ref().unwrap().code, Some(3));
    assert_eq!(f.stderr_tail, "zoo: crash-before-ready, exiting\n");
}

/// A forked child holding stdout open does not hide the parent's exit; the child dies with
/// its group (checked by `Arena::run`).
#[test]
fn crash_with_a_child_holding_stdout() {
    let run = forfeit_then_restart(
        "fork-crash",
        &[],
        "--behaviour fork-crash --at 2 --round 1",
        ForfeitKind::Crash,
    );
    let f = &run.rounds[0].forfeits[0];
    assert_eq!(f.exit.as_ref().unwrap().code, Some(3));
    assert!(f.stderr_tail.contains("fork-crash"));
}

#[test]
fn closed_stdout_while_running() {
    let run = forfeit_then_restart(
        "close-stdout",
        &[],
        "--behaviour close-stdout --at 2 --round 1",
        ForfeitKind::ClosedStdout,
    );
    let f = &run.rounds[0].forfeits[0];
    assert_eq!(f.ply, ply_of_turn(&run.rounds[0], 1, 2));
    assert!(f.exit.is_none(), "it was still running: {f:#?}");
    assert!(f.detail.contains("closed its stdout"), "{}", f.detail);
}

/// A line over `--max-line` (with no newline at all) forfeits at once; the evidence is its
/// head, cut short.
#[test]
fn a_line_over_the_limit() {
    let run = forfeit_then_restart(
        "long-line",
        &["--max-line", "1000"],
        "--behaviour long-line --length 5000 --at 1 --round 1",
        ForfeitKind::LineTooLong,
    );
    let f = &run.rounds[0].forfeits[0];
    assert_eq!(f.ply, ply_of_turn(&run.rounds[0], 1, 1));
    assert!(f.detail.contains("longer than 1000 bytes"), "{}", f.detail);
    let line = f.line.as_deref().unwrap();
    assert!(line.starts_with("xxxx"));
    assert!(line.len() <= 300, "cut short: {} bytes", line.len());
    assert!(f.exit.is_none());
}

#[test]
fn too_many_log_bytes() {
    let run = forfeit_then_restart(
        "log-flood",
        &[],
        "--behaviour log-flood --at 2 --round 1",
        ForfeitKind::Flood,
    );
    let f = &run.rounds[0].forfeits[0];
    assert_eq!(f.ply, ply_of_turn(&run.rounds[0], 1, 2));
    assert!(f.detail.contains("bytes of log messages"), "{}", f.detail);
    let kept: usize = run.rounds[0]
        .logs
        .iter()
        .filter(|l| l.seat == 1 && l.text.starts_with("FFF"))
        .map(|l| l.text.len())
        .sum();
    assert!(kept <= 64 * 1024, "logs kept within the limit: {kept}");
}

/// Time limits: a bot silent before `ready` forfeits `startup`, one that hangs on a move or
/// answers too slowly forfeits `timeout`; a slow bot within the limit is fine. The runs take
/// a bounded time, whatever the bots do.
#[test]
fn time_limits() {
    let _timing = timing_lock();

    let run = forfeit_then_restart(
        "hang-before-ready",
        &["--startup", "2s"],
        "--behaviour hang-before-ready --round 1",
        ForfeitKind::Startup,
    );
    let f = &run.rounds[0].forfeits[0];
    assert_eq!(f.ply, 0);
    assert!(f.detail.contains("no ready within 2000 ms"), "{}", f.detail);
    assert!(f.stderr_tail.contains("hang-before-ready"));
    assert!(run.elapsed < Duration::from_secs(20), "{:?}", run.elapsed);

    let run = forfeit_then_restart(
        "hang-mid",
        &["--time", "1s"],
        "--behaviour hang-mid --at 2 --round 1",
        ForfeitKind::Timeout,
    );
    let r = &run.rounds[0];
    let f = &r.forfeits[0];
    assert_eq!(f.ply, ply_of_turn(r, 1, 2));
    assert!(
        f.detail.contains("no answer within 1000 ms"),
        "{}",
        f.detail
    );
    assert!(f.exit.is_none());
    assert!(run.elapsed < Duration::from_secs(20), "{:?}", run.elapsed);

    let run = forfeit_then_restart(
        "too-slow",
        &["--time", "1s", "--margin", "100ms"],
        "--behaviour slow --delay 3 --at 1 --round 1",
        ForfeitKind::Timeout,
    );
    let f = &run.rounds[0].forfeits[0];
    assert_eq!(f.ply, ply_of_turn(&run.rounds[0], 1, 1));
    assert!(run.elapsed < Duration::from_secs(20), "{:?}", run.elapsed);
    assert_eq!(run.rounds[0].settings.margin_ms, 100);

    // Refused attempts do not buy time: the clock runs out between them, and the attempts
    // made on that ply stay in the record, on the arbiter's move.
    let run = Arena::new("refused-then-timeout")
        .flags(&["--time", "1s", "--retries", "5", "--rounds", "1"])
        .zoo("")
        .zoo("--behaviour always-illegal --at 2 --pause 0.7")
        .run();
    let r = &run.ok(1)[0];
    let f = assert_forfeit(r, 1, ForfeitKind::Timeout);
    let refused = &r.moves[f.ply as usize - 1].refused;
    assert!(
        (1..=2).contains(&refused.len()),
        "the attempts made in time: {refused:#?}"
    );
    assert!(refused.iter().all(|a| a.reason.contains("occupied")));
    assert!(run.elapsed < Duration::from_secs(20), "{:?}", run.elapsed);

    // Within the limit: no forfeit, and the wall time of each move is recorded.
    let run = Arena::new("slow-in-time")
        .flags(&["--time", "3s", "--rounds", "1"])
        .zoo("")
        .zoo("--behaviour slow --delay 0.3")
        .run();
    let r = &run.ok(1)[0];
    assert_clean(r, 1);
    for m in r.moves.iter().filter(|m| m.seat == 1) {
        assert!(m.ms >= 290.0, "ply {}: {} ms", m.ply, m.ms);
    }
    for m in r.moves.iter().filter(|m| m.seat == 0) {
        assert!(m.ms < 3000.0, "ply {}: {} ms", m.ply, m.ms);
    }
}

/// Both seats forfeit: the arbiter finishes the round alone and nobody wins it.
#[test]
fn both_seats_forfeit() {
    let run = Arena::new("both")
        .flags(&["--rounds", "1"])
        .zoo("--behaviour crash-mid --at 2")
        .zoo("--behaviour signal-mid --signal KILL --at 3")
        .run();
    let r = &run.ok(1)[0];
    let f0 = assert_forfeit(r, 0, ForfeitKind::Crash);
    let f1 = assert_forfeit(r, 1, ForfeitKind::Crash);
    assert_eq!(f0.exit.as_ref().unwrap().code, Some(3));
    assert_eq!(f1.exit.as_ref().unwrap().signal, Some(9));
    assert_eq!(r.result.points, vec![0, 0]);
    assert_eq!(r.result.wins, vec![0.0, 0.0]);
    assert_eq!(r.result.ranks[0], r.result.ranks[1], "forfeits tie");
    let last = r.moves.last().unwrap();
    assert!(last.by_arbiter);
}

/// Three players on 6x6 (32 moves): the seat that crashed ranks last, below both others
/// whatever its balls, and the others are ranked by their balls.
#[test]
fn three_players_one_forfeit() {
    let run = Arena::new("three")
        .flags(&["--size", "6", "--rounds", "1", "--json"])
        .zoo("")
        .zoo("--behaviour crash-mid --at 4")
        .zoo("")
        .run();
    let r = &run.ok(1)[0];
    assert_eq!(r.moves.len(), 32);
    let f = assert_forfeit(r, 1, ForfeitKind::Crash);
    assert_eq!(r.result.ranks[1], 3);
    let colours = r.colours.as_ref().unwrap();
    let balls = |s: usize| r.result.scores[&colours[s]];
    assert_eq!(r.result.points[0], balls(0));
    assert_eq!(r.result.points[2], balls(2));
    let (a, b) = (r.result.points[0], r.result.points[2]);
    let expected: (u32, u32) = match a.cmp(&b) {
        std::cmp::Ordering::Greater => (1, 2),
        std::cmp::Ordering::Less => (2, 1),
        std::cmp::Ordering::Equal => (1, 1),
    };
    assert_eq!((r.result.ranks[0], r.result.ranks[2]), expected);
    assert!(f.ply > 0);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let last = v["standings"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["seat"], 1);
    assert_eq!(last["forfeits"]["crash"], 1);
}

/// A time bank runs out live: a bot that takes a second a move on a 2.6 s bank answers its
/// first two turns and forfeits on time at its third (at most 0.7 s left then, margin
/// included); the record keeps its bank after each move and verifies, and round 2, on a full
/// bank again, is clean.
#[test]
fn a_time_bank_runs_out() {
    let _timing = timing_lock();
    let run = forfeit_then_restart(
        "bank-runs-out",
        &["--time-bank", "2600ms", "--time", "5s", "--margin", "100ms"],
        "--behaviour slow --delay 1 --at 1 --round 1",
        ForfeitKind::Timeout,
    );
    let r = &run.rounds[0];
    let f = &r.forfeits[0];
    assert_eq!(f.ply, ply_of_turn(r, 1, 3));
    assert!(f.detail.contains("its time bank ran out"), "{}", f.detail);
    let banks: Vec<f64> = r
        .moves
        .iter()
        .filter(|m| m.seat == 1 && !m.by_arbiter)
        .filter_map(|m| m.bank_ms)
        .collect();
    assert_eq!(banks.len(), 2, "{banks:?}");
    assert!(
        banks[0] < 1600.0 && banks[1] < banks[0] - 999.0,
        "{banks:?}"
    );
    assert_eq!(
        r.settings.clocks.as_ref().map(|c| c[1].bank_ms),
        Some(Some(2600))
    );
    assert!(rollarena::verify::verify(&run.rounds).is_ok());
    assert!(run.elapsed < Duration::from_secs(30), "{:?}", run.elapsed);
}
