//! Bots that die, hang, stop reading or close their stdout: each forfeits the round with the
//! kind that names it, and the arbiter finishes the round for the other seat.

use rollarena::record::ForfeitKind::{ClosedStdout, Crash, Startup, Timeout};

use super::{Outcome, Row, Verdict::Forfeit};
use crate::arbiter::ply_of_turn;

/// The forfeit happened on seat 1's `k`-th turn.
fn on_turn(o: &Outcome, k: usize) {
    assert_eq!(o.forfeit().ply, ply_of_turn(o.round(), 1, k));
}

/// Seat 1 exited with `code`.
fn exit_code(o: &Outcome, code: i32) {
    let exit = o.forfeit().exit.as_ref().expect("the exit is evidence");
    assert_eq!((exit.code, exit.signal), (Some(code), None));
}

rows! {
    exits_at_once: Row {
        issue: "exits at once",
        zoo: "--behaviour exit-at-once --code 4",
        verdict: Forfeit(Crash, "the bot exited with status 4"),
        check: |o| {
            assert_eq!(o.forfeit().ply, 0, "before the round's first move");
            assert!(o.round().seats[1].bot_name.is_none(), "it never said ready");
        },
        ..Row::BASE
    };
    crashes_before_ready: Row {
        issue: "crashes before ready",
        zoo: "--behaviour crash-before-ready",
        verdict: Forfeit(Crash, "the bot exited with status 3"),
        check: |o| {
            assert_eq!(o.forfeit().ply, 0);
            assert_eq!(o.forfeit().stderr_tail, "zoo: crash-before-ready, exiting\n");
        },
        ..Row::BASE
    };
    crashes_mid_game_with_a_status: Row {
        issue: "crashes mid-game with a non-zero exit",
        zoo: "--behaviour crash-mid --at 2",
        verdict: Forfeit(Crash, "the bot exited with status 3"),
        check: |o| {
            on_turn(o, 2);
            exit_code(o, 3);
            assert!(o.forfeit().stderr_tail.contains("crash-mid on turn 2"));
        },
        ..Row::BASE
    };
    crashes_mid_game_by_a_signal: Row {
        issue: "crashes mid-game killed by a signal",
        zoo: "--behaviour signal-mid --signal SEGV --at 2",
        verdict: Forfeit(Crash, "killed by signal 11 (SIGSEGV)"),
        check: |o| {
            on_turn(o, 2);
            let exit = o.forfeit().exit.as_ref().unwrap();
            assert_eq!((exit.code, exit.signal), (None, Some(11)));
        },
        ..Row::BASE
    };
    exits_0_mid_game: Row {
        issue: "exits 0 mid-game",
        zoo: "--behaviour exit0-mid --at 3",
        verdict: Forfeit(Crash, "the bot exited with status 0"),
        check: |o| {
            on_turn(o, 3);
            exit_code(o, 0);
        },
        ..Row::BASE
    };
    hangs_before_ready: Row {
        issue: "hangs before ready",
        zoo: "--behaviour hang-before-ready",
        flags: &["--startup", "2s"],
        verdict: Forfeit(Startup, "no ready within 2000 ms of hello"),
        serial: true,
        check: |o| {
            assert_eq!(o.forfeit().ply, 0);
            assert!(o.forfeit().stderr_tail.contains("hang-before-ready"));
            assert!(o.run.elapsed.as_secs() < 20, "{:?}", o.run.elapsed);
        },
        ..Row::BASE
    };
    hangs_mid_game: Row {
        issue: "hangs mid-game",
        zoo: "--behaviour hang-mid --at 2",
        flags: &["--time", "1s"],
        verdict: Forfeit(Timeout, "no answer within 1000 ms"),
        serial: true,
        check: |o| {
            on_turn(o, 2);
            assert!(o.forfeit().exit.is_none(), "it was still running");
            assert!(o.run.elapsed.as_secs() < 20, "{:?}", o.run.elapsed);
        },
        ..Row::BASE
    };
    answers_after_the_time_limit: Row {
        issue: "answers after the time limit",
        zoo: "--behaviour slow --delay 3 --at 1",
        flags: &["--time", "1s", "--margin", "100ms"],
        verdict: Forfeit(Timeout, "no answer within 1000 ms"),
        serial: true,
        check: |o| {
            on_turn(o, 1);
            assert!(o.run.elapsed.as_secs() < 20, "{:?}", o.run.elapsed);
        },
        ..Row::BASE
    };
    /// The bot answers `hello` and never reads again: the arbiter's writes to it are queued
    /// (never blocking the arbiter), it never sees its `turn`, and it times out.
    never_reads_its_stdin: Row {
        issue: "never reads its stdin",
        zoo: "--behaviour no-read",
        flags: &["--time", "1s"],
        verdict: Forfeit(Timeout, "no answer within 1000 ms"),
        serial: true,
        check: |o| {
            on_turn(o, 1);
            assert_eq!(o.round().seats[1].bot_name.as_deref(), Some("zoo-no-read"));
            assert!(o.run.elapsed.as_secs() < 20, "{:?}", o.run.elapsed);
        },
        ..Row::BASE
    };
    closes_stdout_but_keeps_running: Row {
        issue: "closes stdout but keeps running",
        zoo: "--behaviour close-stdout --at 2",
        verdict: Forfeit(ClosedStdout, "the bot closed its stdout but kept running"),
        check: |o| {
            on_turn(o, 2);
            assert!(o.forfeit().exit.is_none(), "it was still running");
        },
        ..Row::BASE
    };
    /// The child holding stdout neither hides the parent's exit nor outlives the match.
    forks_a_child_holding_stdout_and_exits: Row {
        issue: "forks a child that keeps stdout open and exits itself",
        zoo: "--behaviour fork-crash --at 2",
        verdict: Forfeit(Crash, "the bot exited with status 3"),
        check: |o| {
            on_turn(o, 2);
            exit_code(o, 3);
            assert!(o.forfeit().stderr_tail.contains("fork-crash"));
        },
        ..Row::BASE
    };
}
