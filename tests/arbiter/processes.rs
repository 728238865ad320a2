//! Processes: idle bots are frozen, children die with their bot (even one that left its
//! process group), an interrupted arbiter leaves nothing behind, bad usage exits 2 before any
//! bot starts.

use super::*;
use rollarena::record::ForfeitKind;

/// A bot burning the CPU in a background thread gets (almost) none between its turns when
/// idle bots are frozen, and its share of a core with `--no-freeze`. The bot measures it
/// itself (CPU and wall time from its answer to its next turn), while a slow opponent gives
/// it idle time. On a loaded machine that share can be small (15% seen with two other busy
/// processes on two cores), so the bounds compare the two runs rather than trust a number.
#[test]
fn idle_bots_are_frozen() {
    let _timing = timing_lock();
    let burn = |freeze: bool| -> (f64, f64) {
        let mut flags = vec!["--rounds", "1"];
        if !freeze {
            flags.push("--no-freeze");
        }
        let run = Arena::new(if freeze { "burn-frozen" } else { "burn-free" })
            .flags(&flags)
            .zoo("--behaviour slow --delay 0.4")
            .zoo("--behaviour burn-between-turns")
            .run();
        let r = &run.ok(1)[0];
        assert_clean(r, 0);
        assert_clean(r, 1);
        assert_eq!(r.settings.freeze, freeze);
        let gaps = json_logs(r, 1, "burn");
        assert!(gaps.len() >= 5, "{:#?}", r.logs);
        let sum = |k: &str| -> f64 { gaps.iter().map(|g| g["burn"][k].as_f64().unwrap()).sum() };
        (sum("cpu_ms"), sum("wall_ms"))
    };
    let (cpu, wall) = burn(true);
    assert!(wall > 1000.0, "the slow opponent gave idle time: {wall} ms");
    let frozen = cpu / wall;
    assert!(
        frozen < 0.1,
        "frozen: {cpu:.0} ms of CPU in {wall:.0} ms between turns"
    );
    let (cpu, wall) = burn(false);
    let free = cpu / wall;
    assert!(
        free > 0.05 && free > 3.0 * frozen,
        "not frozen: {cpu:.0} ms of CPU in {wall:.0} ms between turns (frozen: {frozen:.3})"
    );
}

/// With idle bots frozen, the CPU time of a move is counted from the bot's previous answer when
/// the bot stayed frozen since (one reading of the meter per move): a bot whose background
/// thread spins for the whole match is charged its own turns, never the seconds it spent
/// frozen while a slow opponent thought, nor what it ran between rounds (it is resumed with
/// `end`). Both meters: the cgroup's (`basic`, as root) and /proc's (`none`, in ticks).
#[test]
fn a_frozen_bot_is_charged_its_turns_only() {
    let _timing = timing_lock();
    for level in ["basic", "none"] {
        let run = Arena::new(&format!("burn-charged-{level}"))
            .flags(&["--rounds", "2", "--size", "6", "--sandbox", level])
            .zoo("--behaviour slow --delay 0.2")
            .zoo("--behaviour burn-between-turns")
            .run();
        for r in run.ok(2) {
            assert_clean(r, 0);
            assert_clean(r, 1);
            let mine: Vec<_> = r.moves.iter().filter(|m| m.seat == 1).collect();
            let theirs: f64 = r.moves.iter().filter(|m| m.seat == 0).map(|m| m.ms).sum();
            assert!(mine.len() >= 5 && theirs > 1000.0, "{level}: {theirs} ms");
            let cpu: f64 = mine.iter().map(|m| m.cpu_ms.expect("measured")).sum();
            let wall: f64 = mine.iter().map(|m| m.ms).sum();
            // Two threads run in its turns; a tick (10 ms) and a loaded machine's delay before
            // each freeze are the slack, far below the opponent's seconds.
            let bound = 2.0 * wall + 25.0 * mine.len() as f64;
            assert!(
                cpu <= bound && bound < theirs / 2.0,
                "{level}, round {}: {cpu:.1} ms of CPU charged for {} moves of {wall:.1} ms, \
                 while frozen for {theirs:.0} ms",
                r.round,
                mine.len()
            );
        }
    }
}

/// A child forked by a bot, holding its stdout, dies with the bot (`Arena::run` checks that
/// no tagged process is left).
#[test]
fn a_forked_child_dies_with_its_bot() {
    let run = Arena::new("fork-child")
        .zoo("--behaviour fork-child --at 1")
        .zoo("--behaviour fork-child --at 3")
        .run();
    for r in run.ok(2) {
        assert_clean(r, 0);
        assert_clean(r, 1);
    }
}

/// A child that left the process group (setsid) is out of reach of `killpg`; the `basic`
/// (default) and `strict` sandboxes (docs/sandbox.md: a private PID namespace, and the bot's
/// cgroups where the arbiter may create them) end it with its bot.
#[test]
fn a_child_that_left_the_group_dies_too() {
    for level in ["basic", "strict"] {
        let run = Arena::new(&format!("setsid-{level}"))
            .flags(&["--rounds", "1", "--sandbox", level])
            .zoo("")
            .zoo("--behaviour setsid-child --at 1")
            .run();
        assert_clean(&run.ok(1)[0], 1);
    }
}

/// The verdicts do not depend on the sandbox level: a child holding stdout neither hides its
/// parent's exit nor outlives it, with a bare process group (`none`) as with namespaces.
#[test]
fn same_verdicts_at_every_sandbox_level() {
    for level in ["none", "basic", "strict"] {
        let run = Arena::new(&format!("levels-{level}"))
            .flags(&["--rounds", "1", "--sandbox", level])
            .zoo("--behaviour fork-child --at 1")
            .zoo("--behaviour fork-crash --at 2")
            .run();
        let r = &run.ok(1)[0];
        assert_clean(r, 0);
        let f = assert_forfeit(r, 1, ForfeitKind::Crash);
        assert_eq!(f.ply, ply_of_turn(r, 1, 2), "{level}");
        assert_eq!(f.exit.as_ref().unwrap().code, Some(3), "{level}");
        assert!(f.stderr_tail.contains("fork-crash"), "{level}: {f:#?}");
    }
}

/// SIGTERM to the arbiter mid-match (one bot hangs on its move, the other has forked a
/// child): exit 130, every bot and child killed.
#[test]
fn an_interrupted_arbiter_kills_every_bot() {
    let arena = Arena::new("interrupt").flags(&["--time", "60s", "--rounds", "1"]);
    let dir = arena.dir_arg();
    let arena = arena
        .zoo(&format!("--dir {dir} --behaviour hang-mid --at 2"))
        .zoo("--behaviour fork-child --at 1");
    let hanging = arena.dir.path().join("hang-0");
    let started = Instant::now();
    let child = arena.spawn();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !hanging.exists() {
        assert!(Instant::now() < deadline, "the bot did not reach its hang");
        std::thread::sleep(Duration::from_millis(20));
    }
    let before = tagged_pids(&arena.tag).len();
    assert!(
        before >= 4,
        "the arbiter, two bots and a child: {before} processes"
    );
    // SAFETY: kill has no memory-safety preconditions; the pid is our own child's.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let run = arena.finish(child, started);
    assert_eq!(run.code, Some(130), "stderr:\n{}", run.stderr);
    assert!(run.stderr.contains("interrupted"), "{}", run.stderr);
    assert!(run.rounds.is_empty(), "no round was finished");
}

/// Bad usage exits 2 with a clear message, before any bot starts or a record is opened.
#[test]
fn bad_usage_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let not_executable = dir.path().join("bot.py");
    std::fs::write(&not_executable, "print('hi')\n").unwrap();
    std::fs::set_permissions(&not_executable, std::fs::Permissions::from_mode(0o644)).unwrap();
    let tag = unique_tag("usage");
    let zoo = format!(
        "{PYTHON} {} --tag {tag}",
        shell_words::quote(&zoo_path().display().to_string())
    );
    let record = dir.path().join("record.jsonl");
    let record_arg = record.display().to_string();
    let not_exec = not_executable.display().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--players", "2", &zoo, &zoo, &zoo],
            "--players 2 needs 2 bots, but 3 were given",
        ),
        (
            vec![&zoo, "/nonexistent/rollarena-bot"],
            "/nonexistent/rollarena-bot does not exist",
        ),
        (
            vec![&zoo, "no-such-program-rollarena --flag"],
            "no-such-program-rollarena is not a program found in PATH",
        ),
        (vec![&zoo, &not_exec], "is not executable"),
        (vec![&zoo], "not 1"),
        (vec!["--size", "4", &zoo, &zoo, &zoo], "4x4"),
        (
            vec!["--names", "a,b,c", &zoo, &zoo],
            "--names lists 3 names",
        ),
        (vec![&zoo, "'unterminated"], "cannot split"),
    ];
    for (args, message) in cases {
        let out = Command::new(rollarena())
            .args(["match", "--record", &record_arg])
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(message),
            "{args:?}: stderr should say {message:?}:\n{stderr}"
        );
        assert!(stderr.starts_with("error: "), "{stderr}");
        assert!(!record.exists(), "no record for bad usage");
    }
    assert_no_survivors(&tag);
}
