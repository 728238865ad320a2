//! Crash safety of the arbiter itself: killed with SIGKILL mid-match (so it can clean nothing
//! up), it takes every bot with it — the parent-death signals of the launch wrapper and init,
//! and the bot's PID namespace for a child that called setsid — and the record holds every
//! round finished before the kill, each line complete.

use std::time::{Duration, Instant};

use rollarena::record::read_records;

use super::{RSS_BOUND_KIB, assert_record_lines};
use crate::arbiter::{Arena, assert_complete, tagged_pids, timing_lock};

/// Rounds in the match: far more than are played before the kill.
const ROUNDS: usize = 30;

/// The session id of a process, from /proc/PID/stat.
fn session(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // pid (comm) state ppid pgrp session ...; comm may hold spaces and parentheses.
    let rest = &stat[stat.rfind(')')? + 2..];
    rest.split(' ').nth(3)?.parse().ok()
}

/// The arbiter's peak RSS so far, in KiB.
fn vm_hwm_kib(pid: i32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Removes what a killed arbiter could not: its bots' scratch directories and its (empty)
/// cgroups, found where the arbiter makes them (`crates/run/src/sandbox`), so that test runs do not pile
/// them up.
fn remove_leftovers(arbiter: i32) {
    let name = format!("rollarena-{arbiter}");
    let _ = std::fs::remove_dir_all(std::env::temp_dir().join(&name));
    let _ = std::fs::remove_dir_all(std::env::temp_dir().join(format!("rollarena-bin-{arbiter}")));
    let Ok(own) = std::fs::read_to_string("/proc/self/cgroup") else {
        return;
    };
    for line in own.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(names), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        for controller in names.split(',') {
            if !["pids", "memory", "cpuacct"].contains(&controller) {
                continue;
            }
            let dir = std::path::Path::new("/sys/fs/cgroup")
                .join(controller)
                .join(path.trim_start_matches('/'))
                .join(&name);
            for bot in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                if bot.path().is_dir() {
                    let _ = std::fs::remove_dir(bot.path());
                }
            }
            let _ = std::fs::remove_dir(&dir);
        }
    }
}

fn killed_mid_match(level: &str) {
    // Three seats on 6x6: one a little slow (so rounds take a second), one that forks a child
    // leaving its process group (setsid) every round, one that forks a child holding stdout.
    let rounds = ROUNDS.to_string();
    let arena = Arena::new(&format!("sigkill-{level}"))
        .flags(&["--size", "6", "--rounds", &rounds, "--sandbox", level])
        .zoo("--behaviour slow --delay 0.05")
        .zoo("--behaviour setsid-child --at 1")
        .zoo("--behaviour fork-child --at 2");
    let record = arena.dir.path().join("record.jsonl");
    let started = Instant::now();
    let child = arena.spawn();
    let arbiter = child.id() as i32;

    // Wait for two finished rounds, then for the setsid child of the round being played.
    let deadline = Instant::now() + Duration::from_secs(60);
    let finished = || read_records(&record).map_or(0, |(r, _)| r.len());
    while finished() < 2 {
        assert!(Instant::now() < deadline, "two rounds within 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    let escaped = |pids: &[i32]| -> Vec<i32> {
        pids.iter()
            .copied()
            .filter(|&p| session(p) == Some(p))
            .collect()
    };
    while escaped(&tagged_pids(&arena.tag)).is_empty() {
        assert!(Instant::now() < deadline, "a child left its group");
        std::thread::sleep(Duration::from_millis(10));
    }
    let before = tagged_pids(&arena.tag);
    let setsid = escaped(&before);
    assert!(!setsid.is_empty(), "a child outside its group is alive");
    assert!(
        before.len() >= 8,
        "the arbiter, 3 x (wrapper, init, bot) and children: {before:?}"
    );
    let rss = vm_hwm_kib(arbiter);
    assert!(rss < RSS_BOUND_KIB, "the arbiter's peak RSS: {rss} KiB");

    // SAFETY: kill has no memory-safety preconditions; the pid is our own child's.
    assert_eq!(unsafe { libc::kill(arbiter, libc::SIGKILL) }, 0);
    let killed_at = Instant::now();
    // No survivor within 3 s (finish checks), the record read back with no torn line.
    let run = arena.finish(child, started);
    remove_leftovers(arbiter);
    assert!(killed_at.elapsed() < Duration::from_secs(10));
    assert_eq!(run.code, None, "the arbiter was killed by a signal");

    let rounds = assert_record_lines(&run.dir.path().join("record.jsonl"));
    assert!(
        (2..ROUNDS).contains(&rounds.len()),
        "killed mid-match after round 2: {} rounds",
        rounds.len()
    );
    for (i, r) in rounds.iter().enumerate() {
        assert_eq!(r.round as usize, i + 1, "rounds in order, none missing");
        assert_complete(r);
    }
    // Every round the arbiter announced as finished is in the record (it writes the record
    // first, then prints the round's line).
    let printed = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("round "))
        .count();
    assert!(
        printed <= rounds.len() && rounds.len() <= printed + 1,
        "{printed} rounds printed, {} recorded",
        rounds.len()
    );
    eprintln!(
        "sigkill {level}: {} rounds recorded, {} processes killed (setsid: {:?}), arbiter \
         peak RSS {rss} KiB",
        rounds.len(),
        before.len(),
        setsid
    );
}

#[test]
fn sigkill_mid_match_leaves_no_bot_and_a_valid_record() {
    let _timing = timing_lock();
    killed_mid_match("basic");
}

#[test]
fn sigkill_mid_match_strict() {
    let _timing = timing_lock();
    killed_mid_match("strict");
}
