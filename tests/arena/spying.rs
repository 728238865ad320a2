//! A team never reads another's files (issue 28): two teams' Python versions play the ladder
//! through `Service`, one of them the victim (the Python kit carrying a unique token in its
//! source), the other a spy (`tests/bots/arena_spy.py` appended to the kit, so that it plays
//! legally) that tries to read every version's source and build, the database, the records,
//! and, through /proc, the other seat's run directory, and prints to its stderr every byte it
//! read, and every file descriptor it was started with beyond 0, 1 and 2. The token must appear
//! nowhere in what the spy printed (the records' stderr tails and its check report), the spy
//! must have read nothing of the arena's and hold no other descriptor, and its output must show
//! that it tried, at the arena's real directory. It runs twice: with the arena under /tmp
//! (where the sandbox's private /tmp hides all but the spy's own run directory) and outside it
//! (where only the directories' modes keep it out). After the server stops, no run directory is
//! left, and `versions/` and `run/` have the modes that keep bots out.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rollarena::arena::service::Service;
use rollarena::arena::submissions::{Upload, accept};

use super::{arena_in, failed_matches, have, kit_file, state, team, wait_for};
use crate::check::shared_tempdir;

/// The Python kit with the spy in place of its last two lines (`if __name__ ...: main()`);
/// `targets` are paths it also tries to read (told to it, as if it had guessed them).
pub fn spy_source(targets: &[String]) -> Vec<u8> {
    let kit = String::from_utf8(kit_file("python", "bot.py")).unwrap();
    let tail = "if __name__ == \"__main__\":\n    main()\n";
    assert!(kit.ends_with(tail), "the kit ends by calling main()");
    let spy = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/arena_spy.py"),
    )
    .unwrap();
    let head = &kit[..kit.len() - tail.len()];
    format!("{head}_SPY_TARGETS = {targets:?}\n{spy}").into_bytes()
}

fn upload(bytes: Vec<u8>) -> Upload {
    Upload {
        file_name: "bot.py".into(),
        bytes,
        language: None,
        label: None,
    }
}

/// The record files (relative to the arena's directory) of the matches `filter` (an SQL
/// condition) picks, at least two: the spy's and the victim's tables.
/// A record's text, as stored: a counted match's record is gzip-compressed.
pub fn record_text(path: &Path) -> String {
    let mut text = String::new();
    let file = std::fs::File::open(path).unwrap();
    if path.extension().is_some_and(|e| e == "gz") {
        std::io::Read::read_to_string(&mut flate2::read::MultiGzDecoder::new(file), &mut text)
    } else {
        std::io::Read::read_to_string(&mut { file }, &mut text)
    }
    .unwrap();
    text
}

pub fn record_paths(conn: &rusqlite::Connection, filter: &str) -> Vec<String> {
    let paths: Vec<String> = conn
        .prepare(&format!("SELECT record_path FROM matches WHERE {filter}"))
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(paths.len() >= 2, "records: {paths:?}");
    paths
}

/// Every stderr tail of a record (rounds' `stderr` and forfeits' `stderr_tail`), in order.
pub fn stderr_tails(record: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in record.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        for tail in v["stderr"].as_array().into_iter().flatten() {
            out.push(tail.as_str().unwrap_or_default().to_string());
        }
        for f in v["forfeits"].as_array().into_iter().flatten() {
            out.push(f["stderr_tail"].as_str().unwrap_or_default().to_string());
        }
    }
    out
}

/// An arena under /tmp: the sandbox gives each bot a private /tmp where, of the host's, only
/// the directories its command names are bound, so the spy sees its own run directory alone.
#[test]
fn a_spy_reads_nothing_of_another_teams_version_under_tmp() {
    spy_on(shared_tempdir("arena-spied-"));
}

/// An arena elsewhere (the test's target directory), as an organiser's usually is: only the
/// modes of the arena's directories keep the spy out.
#[test]
fn a_spy_reads_nothing_of_another_teams_version_outside_tmp() {
    let tmp = tempfile::Builder::new()
        .prefix("arena-spied-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    spy_on(tmp);
}

fn spy_on(tmp: tempfile::TempDir) {
    if !have("/usr/bin/python3") {
        return;
    }
    let (_tmp, arena) = arena_in(tmp, "rolit", |c| {
        c.options.insert("size".into(), "6".into());
        c.ladder.anchors = vec![];
    });
    let token = format!("VICTIM-{}", rollarena::arena::tokens::random_hex(12));
    let mut victim_source = kit_file("python", "bot.py");
    victim_source.extend_from_slice(format!("\n# {token}\n").as_bytes());
    let victim = accept(&arena, team(&arena, "victims"), upload(victim_source)).unwrap();
    let spy = accept(&arena, team(&arena, "spies"), upload(spy_source(&[]))).unwrap();
    // A descriptor of the victim's source that this process holds open without close-on-exec,
    // as a library or a service manager might leave one: a bot that inherited it would read
    // the token through it.
    let _planted = inheritable(&arena.version_dir(victim).join("source/bot.py"));
    let arena = Arc::new(arena);
    let service = Service::start(arena.clone(), 1).unwrap();
    let conn = arena.conn().unwrap();
    wait_for(
        "both versions to be checked",
        Duration::from_secs(300),
        || {
            [victim, spy].iter().all(|&v| {
                !matches!(
                    state(&arena, v).0.as_str(),
                    "queued" | "building" | "checking"
                )
            })
        },
    );
    for v in [victim, spy] {
        assert_eq!(
            state(&arena, v).0,
            "ready",
            "version {v}: {:?}",
            state(&arena, v)
        );
    }
    let done = || -> i64 {
        conn.query_row(
            "SELECT COUNT(*) FROM matches WHERE state IN ('done', 'failed')",
            [],
            |r| r.get(0),
        )
        .unwrap()
    };
    wait_for("two matches played", Duration::from_secs(300), || {
        done() >= 2
    });
    service.shutdown();
    let failed = failed_matches(&conn);
    assert!(failed.is_empty(), "the spy plays legally: {failed:?}");

    // The token is where a spy would look for it, and nowhere in what the spy printed.
    let built = std::fs::read_to_string(arena.version_dir(victim).join("build/bot.py")).unwrap();
    assert!(
        built.contains(&token),
        "the victim's build carries the token"
    );
    let mut printed = Vec::new();
    let paths = record_paths(&conn, "record_path IS NOT NULL");
    for path in &paths {
        let record = record_text(&arena.dir.join(path));
        assert!(!record.contains(&token), "{path} holds the victim's token");
        printed.extend(stderr_tails(&record));
    }
    let check = std::fs::read_to_string(arena.version_dir(spy).join("check.json")).unwrap();
    assert!(
        !check.contains(&token),
        "the spy's check report holds the token"
    );

    // The spy tried, at the arena's real directory, once in each match, and read nothing of
    // it (every one of its targets is the arena's).
    let dir = std::fs::canonicalize(&arena.dir).unwrap();
    let reports = spy_reports(&printed, paths.len());
    for report in reports {
        read_nothing(&report, &dir);
    }

    // What keeps bots out, and nothing left behind.
    let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o7777;
    assert_eq!(mode(&arena.dir.join("versions")), 0o700);
    assert_eq!(mode(&arena.dir.join("run")), 0o711);
    // Every run directory is removed when its match or check ends (moved aside at once and
    // removed in the background).
    wait_for("run/ to be empty", Duration::from_secs(120), || {
        std::fs::read_dir(arena.dir.join("run")).unwrap().count() == 0
    });
}

/// `path` opened for reading without close-on-exec, so that every process this one starts
/// would inherit it unless the sandbox closes it.
pub fn inheritable(path: &Path) -> std::fs::File {
    use std::os::fd::AsRawFd;
    let file = std::fs::File::open(path).unwrap();
    // SAFETY: fcntl on a descriptor this File owns.
    let cleared = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETFD, 0) };
    assert_eq!(cleared, 0, "clearing close-on-exec on {}", path.display());
    file
}

/// The spy's reports (between "SPY BEGIN" and "SPY END") in stderr tails: at least `at_least`
/// whole ones. The first is shown (with --nocapture: what a spy sees).
pub fn spy_reports(printed: &[String], at_least: usize) -> Vec<String> {
    let reports: Vec<String> = printed
        .iter()
        .filter_map(|t| {
            let start = t.find("SPY BEGIN\n")?;
            let end = t[start..].find("SPY END\n")?;
            Some(t[start..start + end].to_string())
        })
        .collect();
    assert!(
        reports.len() >= at_least.max(1),
        "a whole spy report in each match's stderr tails: {printed:#?}"
    );
    eprintln!("{}", reports[0]);
    reports
}

/// One spy report: it found `dir` (the directory its run directory is in: the arena's, or a
/// remote worker's), tried every target there and through /proc, and read nothing but its own
/// view (under /tmp, the sandbox's view of `dir` holds its own run directory alone, which it
/// may list).
pub fn read_nothing(report: &str, dir: &Path) {
    assert!(
        report.contains(&format!("ARENA {}\n", dir.display())),
        "the spy found the directory {}: {report}",
        dir.display()
    );
    assert!(
        report.contains("SELF-READ ") && !report.contains("SELF-READ failed"),
        "the spy can read its own files: {report}"
    );
    let summary = report
        .lines()
        .find_map(|l| l.strip_prefix("SUMMARY tried="))
        .unwrap_or_else(|| panic!("a summary: {report}"));
    let tried: u32 = summary.split(' ').next().unwrap().parse().unwrap();
    assert!(tried >= 6 + 50 * 8, "it tried every target: {report}");
    assert!(
        report.contains("PROC pids ") && report.contains("RUN DIRECTORIES seen"),
        "it looked through /proc: {report}"
    );
    let own = report
        .lines()
        .find_map(|l| l.strip_prefix("SELF "))
        .and_then(|me| Path::new(me).file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| panic!("the spy names its own run directory: {report}"));
    let own_view = |l: &&str| {
        (l.starts_with(&format!("READ {} (", dir.display())) && l.ends_with("LIST ['run']\""))
            || (l.starts_with(&format!("READ {}/run (", dir.display()))
                && l.ends_with(&format!("LIST ['{own}']\"")))
    };
    let read: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("READ "))
        .filter(|l| !own_view(l))
        .collect();
    assert!(read.is_empty(), "the spy read files not its own: {read:#?}");
    assert!(
        report.contains("not mine []"),
        "the spy saw no other run directory: {report}"
    );
    // No descriptor crossed the exec: not the database, not a socket, not a directory.
    assert!(
        report.contains("FDS listed "),
        "the spy listed its descriptors: {report}"
    );
    let inherited: Vec<&str> = report.lines().filter(|l| l.starts_with("FD ")).collect();
    assert!(
        inherited.is_empty(),
        "the spy holds descriptors beyond stdin, stdout and stderr: {inherited:#?}"
    );
    // Beside its scratch directory: nothing it may list, or its own alone.
    let scratch = report
        .lines()
        .find_map(|l| l.strip_prefix("SCRATCH "))
        .and_then(|s| Path::new(s).file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| panic!("the spy names its scratch directory: {report}"));
    let beside = report
        .lines()
        .find_map(|l| l.strip_prefix("SCRATCH LIST "))
        .unwrap_or_else(|| panic!("the spy looked beside its scratch directory: {report}"));
    assert!(
        beside.starts_with("denied") || beside == format!("['{scratch}']"),
        "the spy saw other seats' scratch directories: {beside}"
    );
}
