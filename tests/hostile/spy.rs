//! Nothing secret reaches a hostile bot (issue 25): two spies (`tests/bots/spy.py`) play each
//! other in every game, at `basic` and at `strict` (and at `none` in the games with secrets,
//! where only what a uid guards is asked of it: [`check_report`]), each trying every way in to the other
//! seat's secrets and to the arbiter's, and reporting what it found. The test fails on
//! anything a spy learnt or reached that was not its own, compared against what the other
//! seat carried and what the record holds:
//!
//! - the other seat's token, wherever it was found (its environment, its memory and its
//!   player's, where its hand, its bid and everything it was dealt live; its scratch files;
//!   /tmp, /var/tmp, /dev/shm; its loopback listener and abstract socket);
//! - another process than its own in /proc, the arbiter's argv (`--seed`, `--record`,
//!   `--bot-logs`), the match seed (the record's `match_seed` or `--seed`), from which the
//!   arbiter binary computes every card of the round;
//! - a byte of the record or of the bot logs (at paths the test hands it, so that only their
//!   modes stand in the way), and their modes themselves (owner-only);
//! - a file planted in another scratch directory, a connection to another listener (another
//!   spy's, or one the test opens on the host's loopback), a signal delivered to a process
//!   not its own (another seat's would die of SIGUSR1, and forfeit).
//!
//! Also here: two `rollarena` processes on the machine never hand out the same uid, and a
//! SIGKILLed arbiter's uids are free again at once.

use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::arbiter::{PYTHON, await_arbiter, rollarena, unique_tag};

/// A seed no pid, port or size would print by chance.
const SEED: &str = "7316470829";

fn spy_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/spy.py")
}

/// Plays two spies in `game` at `level` and checks that neither learnt or reached anything
/// not its own.
fn spies(game: &str, level: &str) {
    let name = format!("spy-{game}-{level}");
    let tag = unique_tag(&name);
    let dir = tempfile::Builder::new()
        .prefix("rollarena-spy-")
        .tempdir()
        .expect("a temporary directory");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let record = dir.path().join("record.jsonl");
    let logs = dir.path().join("bot-logs");
    let listener = TcpListener::bind("127.0.0.1:0").expect("a TCP listener");
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let bot = |seat: usize| {
        format!(
            "{PYTHON} {} --tag {tag}-seat{seat} --exe {} --peek {} --peek {} --port {port}",
            spy_path().display(),
            rollarena().display(),
            record.display(),
            logs.display(),
        )
    };
    let mut argv: Vec<String> = ["match", "--game", game, "--rounds", "1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    // At `none` the arbiter's command line is in sight (no PID namespace), so a contest gives
    // no --seed there; the seed is then random, and must stay out of reach all the same.
    if level != "none" {
        argv.extend(["--seed".into(), SEED.into()]);
    }
    argv.extend(["--time", "10s", "--sandbox", level].map(String::from));
    if game == "robots" {
        // Random bots never declare: the hourglass turns at --first-declaration, and the
        // round ends when it runs out.
        for flag in ["--first-declaration", "1s", "--hourglass", "1s"] {
            argv.push(flag.into());
        }
    }
    argv.extend([
        "--record".into(),
        record.display().to_string(),
        "--bot-logs".into(),
        logs.display().to_string(),
        bot(0),
        bot(1),
    ]);
    let started = Instant::now();
    let child = Command::new(rollarena())
        .args(&argv)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dir.path().join("stdout.txt")).unwrap())
        .stderr(std::fs::File::create(dir.path().join("stderr.txt")).unwrap())
        .spawn()
        .expect("rollarena starts");
    // The checks read the files after the run: keep the directory (await_arbiter takes it).
    let keep = dir.path().to_path_buf();
    let run = await_arbiter(child, started, dir, &tag);
    assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);

    // What the record holds of the match: its seeds.
    let text = std::fs::read_to_string(keep.join("record.jsonl")).unwrap();
    let line: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let mut seeds = vec![SEED.to_string()];
    if let Some(s) = line.get("match_seed") {
        seeds.push(s.to_string().trim_matches('"').to_string());
    }
    let round = &run.rounds[0];
    assert!(
        round.forfeits.is_empty(),
        "{name}: nobody forfeits (a signal that reached a seat would kill it): {:#?}",
        round.forfeits
    );

    // What the arbiter wrote is owner-only.
    for path in [keep.join("record.jsonl"), logs.clone()] {
        let mode = path.metadata().unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{name}: {} is {mode:o}", path.display());
    }
    let mut reports = Vec::new();
    for entry in std::fs::read_dir(&logs).unwrap() {
        let path = entry.unwrap().path();
        let mode = path.metadata().unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{name}: {} is {mode:o}", path.display());
        let log = std::fs::read_to_string(&path).unwrap();
        let report: Value = log
            .lines()
            .find_map(|l| serde_json::from_str::<Value>(l).ok()?.get("spy").cloned())
            .unwrap_or_else(|| panic!("{name}: no spy report in {}:\n{log}", path.display()));
        reports.push(report);
    }
    assert_eq!(reports.len(), 2, "{name}: two spies reported");
    for (i, report) in reports.iter().enumerate() {
        eprintln!("{name}: spy {i} found {report}");
        check_report(&name, report, &seeds, level);
    }
    let tokens: Vec<&str> = reports
        .iter()
        .map(|r| r["token"].as_str().unwrap())
        .collect();
    assert_ne!(tokens[0], tokens[1]);
    let mut connections = 0;
    while listener.accept().is_ok() {
        connections += 1;
    }
    if level != "none" {
        assert_eq!(connections, 0, "{name}: a spy reached the host's loopback");
    }
}

/// Everything one spy found must be its own. At `none` a bot shares the host's process list,
/// network and temporary directories (a bot that serves or leaves its secrets there gives them
/// away; the spies do, on purpose), so only what its uid keeps is asked there: another seat's
/// environment and memory, its scratch directory, the record and the bot logs, signals, and
/// the match seed (not on the command line at `none`).
fn check_report(name: &str, r: &Value, seeds: &[String], level: &str) {
    let own = r["token"].as_str().unwrap();
    assert!(own.starts_with("SPYTOKEN-"), "{r}");
    let only_own = |what: &str, list: &Value| {
        for t in list.as_array().unwrap() {
            assert_eq!(
                t.as_str(),
                Some(own),
                "{name}: {what} gave another seat's secret"
            );
        }
    };
    let empty = |what: &str, v: &Value| {
        assert!(
            v.as_array().is_some_and(|a| a.is_empty()),
            "{name}: {what}: {v}"
        );
    };
    only_own("/proc/<pid>/environ", &r["environ"]);
    only_own("/proc/<pid>/mem", &r["mem"]["tokens"]);
    only_own("another scratch directory", &r["scratch"]["tokens"]);
    empty("the record or the bot logs were read", &r["peek"]);
    empty(
        "a file was planted in another scratch directory",
        &r["scratch"]["planted"],
    );
    empty(
        "another scratch directory is visible",
        &r["scratch"]["dirs"],
    );
    empty("a seed was found", &r["seed"]);
    empty("a signal was delivered", &r["signal"]["delivered"]);
    assert!(
        !r["peek_refused"].as_array().unwrap().is_empty(),
        "{name}: the spy tried the record and the logs: {r}"
    );
    let text = r.to_string();
    for seed in seeds {
        assert!(
            !text.contains(seed.as_str()),
            "{name}: the seed {seed} leaked: {text}"
        );
    }
    if level == "none" {
        // What `none` shares, seen: the host's processes (so the probes did run).
        assert!(
            r["proc"].as_array().unwrap().len() > 1,
            "{name}: at none the host's processes are in sight: {r}"
        );
        return;
    }
    only_own("/tmp, /var/tmp, /dev/shm", &r["temp"]);
    for p in r["proc"].as_array().unwrap() {
        // Its own init (PID 1 of its namespace), whose command line is its own launch.
        let cmd = p["cmdline"].as_str().unwrap();
        assert!(
            p["pid"] == 1 && cmd.contains("__launch"),
            "{name}: a process not its own is visible: {p}"
        );
    }
    empty("the arbiter's argv", &r["argv"]);
    empty("a TCP listener was reached", &r["tcp"]);
    empty("an abstract unix socket was reached", &r["unix"]);
    empty("a pid outside its own was signalled", &r["signal"]["blind"]);
}

macro_rules! spy_tests {
    ($($test:ident: $game:literal, $level:literal;)*) => {
        $(
            #[test]
            fn $test() {
                spies($game, $level);
            }
        )*
    };
}

spy_tests! {
    spies_learn_nothing_rolit_basic: "rolit", "basic";
    spies_learn_nothing_rolit_strict: "rolit", "strict";
    spies_learn_nothing_robots_basic: "robots", "basic";
    spies_learn_nothing_robots_strict: "robots", "strict";
    spies_learn_nothing_goofspiel_basic: "goofspiel", "basic";
    spies_learn_nothing_goofspiel_strict: "goofspiel", "strict";
    spies_learn_nothing_rollerball_basic: "rollerball", "basic";
    spies_learn_nothing_rollerball_strict: "rollerball", "strict";
    spies_keep_what_their_uid_guards_goofspiel_none: "goofspiel", "none";
    spies_keep_what_their_uid_guards_rollerball_none: "rollerball", "none";
}

/// Whether a process holds the lock of `uid`, read from /proc/locks (taking the lock to see
/// would race with the arbiter).
fn held(uid: u32) -> bool {
    use std::os::unix::fs::MetadataExt;
    let path = Path::new(rollarena::sandbox::identity::LOCK_DIR).join(format!("{uid}.lock"));
    let Ok(meta) = path.metadata() else {
        return false;
    };
    let ino = format!(":{}", meta.ino());
    std::fs::read_to_string("/proc/locks")
        .unwrap_or_default()
        .lines()
        .any(|l| l.contains("FLOCK") && l.split_whitespace().any(|f| f.ends_with(&ino)))
}

/// A second arbiter never hands out a uid a live bot of the first one has: with a range of two
/// uids held by a match of two sleeping bots, a second match is refused, naming the range;
/// after the first arbiter is SIGKILLed, the uids are free at once and the second one plays.
#[test]
fn a_second_arbiter_never_reuses_a_uid_in_use() {
    if !rollarena::sandbox::is_root() {
        eprintln!("SKIPPED: uids per seat are given only when the arbiter is root");
        return;
    }
    let range = "61980-61981";
    let sleeper = format!("{PYTHON} -c \"import time; time.sleep(120)\"");
    let mut first = Command::new(rollarena())
        .args([
            "match",
            "--rounds",
            "1",
            "--startup",
            "100s",
            "--bot-uids",
            range,
            &sleeper,
            &sleeper,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !(held(61980) && held(61981)) {
        assert!(Instant::now() < deadline, "the first match took both uids");
        std::thread::sleep(Duration::from_millis(50));
    }
    // A quick match of two built-in bots in the same range.
    let quick = || {
        Command::new(rollarena())
            .args([
                "match",
                "--rounds",
                "1",
                "--size",
                "4",
                "--bot-uids",
                range,
                "rollarena bot random",
                "rollarena bot random",
            ])
            .output()
            .unwrap()
    };
    let second = quick();
    let said = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "refused: {said}");
    assert!(
        said.contains("all 2 uids of --bot-uids 61980-61981 are in use"),
        "{said}"
    );
    first.kill().unwrap(); // SIGKILL: no clean-up of its own
    first.wait().unwrap();
    let third = quick();
    assert!(
        third.status.success(),
        "the uids are free after SIGKILL: {}",
        String::from_utf8_lossy(&third.stderr)
    );
}

/// `--output-group`: the record and the bot logs are readable by that group (0640, the
/// directory 0750) and by no one else; without it they are owner-only (the spies above).
#[test]
fn output_group_shares_the_output_with_one_group_only() {
    use std::os::unix::fs::MetadataExt;
    let Some(gid) = std::fs::read_to_string("/etc/group").ok().and_then(|t| {
        t.lines()
            .find(|l| l.starts_with("nogroup:"))
            .and_then(|l| l.split(':').nth(2)?.parse::<u32>().ok())
    }) else {
        eprintln!("SKIPPED: no group nogroup on this machine");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("record.jsonl");
    let logs = dir.path().join("logs");
    let out = Command::new(rollarena())
        .args([
            "match",
            "--rounds",
            "1",
            "--size",
            "4",
            "--output-group",
            "nogroup",
        ])
        .arg("--record")
        .arg(&record)
        .arg("--bot-logs")
        .arg(&logs)
        .args(["rollarena bot random", "rollarena bot random"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (path, mode) in [(record.clone(), 0o640), (logs.clone(), 0o750)] {
        let meta = path.metadata().unwrap();
        assert_eq!(meta.mode() & 0o777, mode, "{}", path.display());
        assert_eq!(meta.gid(), gid, "{} belongs to nogroup", path.display());
    }
}
