//! What each sandbox level promises (docs/sandbox.md), shown on both levels:
//! `basic` (the default) and `strict` (a filesystem read-only except the bot's own
//! directories); both have a network of their own, loopback only. A child that left its process
//! group dies with its match at both levels. What one seat could learn of another is
//! `spy`'s.

use std::os::unix::fs::MetadataExt;

use super::{Outcome, Row, Setup, Verdict::Clean};

/// The write-outside bot's report: (outside ok, scratch ok), after checking that the scratch
/// file was written in its own scratch directory, its working directory.
fn writes(o: &Outcome) -> (bool, bool) {
    let report = o.report("write");
    eprintln!("write-outside: {report}");
    assert_eq!(
        report["cwd"], report["scratch_env"],
        "it runs in its scratch dir"
    );
    let cwd = report["cwd"].as_str().unwrap();
    let outside = o.outside.as_ref().unwrap().path();
    assert!(!cwd.starts_with(&outside.display().to_string()));
    assert_eq!(
        report["outside"]["path"].as_str().unwrap(),
        outside.join("zoo-outside-1").display().to_string()
    );
    assert!(report["scratch"]["path"].as_str().unwrap().starts_with(cwd));
    (
        report["outside"]["ok"].as_bool().unwrap(),
        report["scratch"]["ok"].as_bool().unwrap(),
    )
}

/// The network bot's report: whether it connected.
fn connected(o: &Outcome) -> bool {
    let report = o.report("network");
    eprintln!("network: {report}; the listener got {:?}", o.connections);
    report["ok"].as_bool().unwrap()
}

rows! {
    /// `arbiter::processes` tests the same at both levels; here it is one more row of the
    /// table, with its common checks.
    escapes_its_group_with_setsid: Row {
        issue: "escapes its process group with setsid",
        zoo: "--behaviour setsid-child --at 1",
        verdict: Clean,
        ..Row::BASE
    };
    escapes_its_group_with_setsid_strict: Row {
        issue: "escapes its process group with setsid",
        zoo: "--behaviour setsid-child --at 1",
        flags: &["--sandbox", "strict"],
        verdict: Clean,
        ..Row::BASE
    };
    /// `strict`: the write to a world-writable directory outside the scratch directory is
    /// refused (landlock), the write inside it works, and the bot plays on.
    cannot_write_outside_its_scratch_dir_strict: Row {
        issue: "writes files outside its working directory",
        zoo: "--behaviour write-outside --at 2",
        flags: &["--sandbox", "strict"],
        setup: Setup::Outside,
        verdict: Clean,
        check: |o| {
            assert_eq!(writes(o), (false, true), "strict: only the scratch dir is writable");
            let report = o.report("write");
            // Refused by landlock, or by the read-only bind of the directory its command names
            // (at strict, what a command names under /tmp is bound read-only).
            let error = report["outside"]["error"].as_str().unwrap();
            assert!(
                error.contains("Permission denied") || error.contains("Read-only file system"),
                "{error}"
            );
            let outside = o.outside.as_ref().unwrap().path();
            assert!(!outside.join("zoo-outside-1").exists(), "nothing was written");
        },
        ..Row::BASE
    };
    /// `basic` (the default) does not restrict the filesystem beyond the bot user's rights:
    /// the bot (as `nobody` when the arbiter is root) can write in a world-writable directory.
    /// This row documents the difference with `strict`.
    writes_outside_its_scratch_dir_basic: Row {
        issue: "writes files outside its working directory",
        zoo: "--behaviour write-outside --at 2",
        setup: Setup::Outside,
        verdict: Clean,
        check: |o| {
            assert_eq!(writes(o), (true, true), "basic: a 1777 directory is writable");
            let file = o.outside.as_ref().unwrap().path().join("zoo-outside-1");
            let meta = std::fs::metadata(&file).expect("the file was written");
            // SAFETY: geteuid has no preconditions.
            if unsafe { libc::geteuid() } == 0 {
                assert_ne!(meta.uid(), 0, "written as the bot user, not as root");
            }
        },
        ..Row::BASE
    };
    /// `strict`: a private network namespace, so 127.0.0.1 is not the machine's: the connect
    /// fails and the listener the test opened sees no connection.
    cannot_connect_strict: Row {
        issue: "opens a network connection",
        zoo: "--behaviour network --at 2",
        flags: &["--sandbox", "strict"],
        setup: Setup::Listener,
        verdict: Clean,
        check: |o| {
            assert!(!connected(o), "strict: no network");
            assert!(o.connections.is_empty(), "the listener saw {:?}", o.connections);
        },
        ..Row::BASE
    };
    /// `basic` too has a network namespace of its own, loopback only (issue 25: seats must
    /// not talk to each other): the machine's 127.0.0.1 is out of reach.
    cannot_connect_basic: Row {
        issue: "opens a network connection",
        zoo: "--behaviour network --at 2",
        setup: Setup::Listener,
        verdict: Clean,
        check: |o| {
            assert!(!connected(o), "basic: loopback only, its own");
            assert!(o.connections.is_empty(), "the listener saw {:?}", o.connections);
        },
        ..Row::BASE
    };
}
