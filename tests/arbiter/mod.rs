//! The arbiter driven end to end: the real `rollarena` binary runs real misbehaving bots
//! (`tests/bots/zoo.py`, one behaviour per process, chosen by its arguments), and each test
//! reads the record back with [`read_records`] and checks the verdict and its evidence.
//!
//! - `messages`: every message a bot receives, logs, stderr, names, `--json`;
//! - `refusals`: attempts refused on the same clock, retries, unasked lines;
//! - `forfeits`: every kind of forfeit, the fallback moves, the ranking, the restart;
//! - `processes`: freezing, forked children, an interrupted arbiter, exit codes;
//! - `library`: `run_match` called directly, for what the command line cannot reach.
//!
//! Every bot of a test carries a unique `--tag`; [`Arena::run`] checks after the run that no
//! process whose command line holds it is still alive. Tests that measure wall-clock time
//! hold [`timing_lock`], a file lock, so that they never overlap, under `cargo test` (threads)
//! as under `cargo nextest` (processes); their bounds are wide, for loaded machines.

mod forfeits;
mod library;
mod messages;
mod names;
mod processes;
mod refusals;

use std::fs::File;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rollarena::record::{Forfeit, ForfeitKind};
use rollarena::record::{RoundRecord, read_records};
use serde_json::Value;

/// The binary under test, through a hard link of its own made once per test process: a
/// `cargo build` running meanwhile replaces the file at `CARGO_BIN_EXE_rollarena`, while the
/// sandbox re-executes the arbiter's own binary for every bot it starts.
pub fn rollarena() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let original = PathBuf::from(env!("CARGO_BIN_EXE_rollarena"));
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
        const PREFIX: &str = "arbiter-tests-bin-";
        // Links left by test processes that are over are removed.
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if let Some(pid) = name.strip_prefix(PREFIX)
                    && !Path::new("/proc").join(pid).exists()
                {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
        let link = dir.join(format!("{PREFIX}{}", std::process::id()));
        let _ = std::fs::remove_file(&link);
        match std::fs::hard_link(&original, &link) {
            Ok(()) => link,
            Err(_) => original,
        }
    })
}
/// The interpreter bots are run with (the system one: bots may run as `nobody`).
pub const PYTHON: &str = "/usr/bin/python3";
/// How long an arbiter run may take before the test kills it and fails.
const RUN_LIMIT: Duration = Duration::from_secs(90);
/// How long processes get to disappear after the arbiter exited.
const REAP_WAIT: Duration = Duration::from_secs(3);

/// The path of the zoo bot.
pub fn zoo_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/zoo.py")
}

/// A marker unique to one test run, put on every bot's command line.
pub fn unique_tag(name: &str) -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "zootag-{name}-{}-{nanos:x}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// A `rollarena match` to run: flags, bots and the tag every zoo bot carries.
pub struct Arena {
    flags: Vec<String>,
    bots: Vec<String>,
    pub tag: String,
    /// A scratch directory (world-writable) for the bots' marker files and the record.
    pub dir: tempfile::TempDir,
}

/// What a run left: exit code, output, the record, the time it took.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub rounds: Vec<RoundRecord>,
    pub elapsed: Duration,
    pub dir: tempfile::TempDir,
}

impl Arena {
    /// A match on 4x4 (12 moves a round) with seed 1 and a 10 s move limit, unless the flags
    /// given later say otherwise.
    pub fn new(name: &str) -> Arena {
        let dir = tempfile::Builder::new()
            .prefix("rollarena-arbiter-")
            .tempdir()
            .expect("a temporary directory");
        // Bots may run as another user: let them write their marker files.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777))
            .expect("chmod the temporary directory");
        Arena {
            flags: Vec::new(),
            bots: Vec::new(),
            tag: unique_tag(name),
            dir,
        }
    }

    pub fn flags(mut self, flags: &[&str]) -> Arena {
        self.flags.extend(flags.iter().map(|s| s.to_string()));
        self
    }

    /// Adds a zoo bot with these arguments (and the tag).
    pub fn zoo(mut self, args: &str) -> Arena {
        let command = format!(
            "{PYTHON} {} --tag {} {args}",
            shell_words::quote(&zoo_path().display().to_string()),
            self.tag
        );
        self.bots.push(command);
        self
    }

    /// Adds a bot by its whole command line.
    pub fn bot(mut self, command: &str) -> Arena {
        self.bots.push(command.to_string());
        self
    }

    /// Adds a zoo bot that writes its marker files (`bye-<seat>`, start counters) in `dir`.
    pub fn zoo_in_dir(self, args: &str) -> Arena {
        let dir = self.dir_arg();
        self.zoo(&format!("--dir {dir} {args}"))
    }

    /// The scratch directory, quoted for a command line.
    pub fn dir_arg(&self) -> String {
        shell_words::quote(&self.dir.path().display().to_string()).into_owned()
    }

    /// The full argument list of `rollarena`.
    fn argv(&self, record: &Path) -> Vec<String> {
        let has = |flag: &str| self.flags.iter().any(|f| f == flag);
        // These tests are about what happens during a match (and count the bots' starts):
        // no pre-flight, which starts every bot once before it.
        let mut argv = vec!["match".to_string(), "--no-preflight".to_string()];
        if !has("--size") {
            argv.extend(["--size".into(), "4".into()]);
        }
        if !has("--seed") {
            argv.extend(["--seed".into(), "1".into()]);
        }
        if !has("--time") {
            argv.extend(["--time".into(), "10s".into()]);
        }
        argv.extend(["--record".into(), record.display().to_string()]);
        argv.extend(self.flags.iter().cloned());
        argv.extend(self.bots.iter().cloned());
        argv
    }

    /// Starts the arbiter (stdout and stderr go to files in the scratch directory).
    pub fn spawn(&self) -> std::process::Child {
        let record = self.dir.path().join("record.jsonl");
        let out = self.dir.path().join("stdout.txt");
        let err = self.dir.path().join("stderr.txt");
        Command::new(rollarena())
            .args(self.argv(&record))
            .stdin(Stdio::null())
            .stdout(File::create(&out).unwrap())
            .stderr(File::create(&err).unwrap())
            .spawn()
            .expect("rollarena starts")
    }

    /// Runs the match to its end, reads the record, and checks that no bot process survived.
    pub fn run(self) -> Run {
        let started = Instant::now();
        let child = self.spawn();
        self.finish(child, started)
    }

    /// Waits for a spawned arbiter, reads the record, checks that no bot process survived.
    pub fn finish(self, child: std::process::Child, started: Instant) -> Run {
        await_arbiter(child, started, self.dir, &self.tag)
    }
}

/// Waits for an arbiter spawned with its record, stdout and stderr in `dir`
/// (`record.jsonl`, `stdout.txt`, `stderr.txt`), kills it past [`RUN_LIMIT`], reads the
/// record back and checks that no process tagged `tag` survived.
pub fn await_arbiter(
    mut child: std::process::Child,
    started: Instant,
    dir: tempfile::TempDir,
    tag: &str,
) -> Run {
    let record = dir.path().join("record.jsonl");
    let out = dir.path().join("stdout.txt");
    let err = dir.path().join("stderr.txt");
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            kill_tagged(tag);
            panic!(
                "rollarena ran for more than {RUN_LIMIT:?}\nstderr:\n{}",
                std::fs::read_to_string(&err).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = started.elapsed();
    assert_no_survivors(tag);
    let stdout = std::fs::read_to_string(&out).unwrap();
    let stderr = std::fs::read_to_string(&err).unwrap();
    let rounds = if record.exists() {
        let (rounds, torn) = read_records(&record)
            .unwrap_or_else(|e| panic!("the record reads back: {e}\nstderr:\n{stderr}"));
        assert!(!torn, "no torn line in the record");
        rounds
    } else {
        Vec::new()
    };
    Run {
        code: status.code(),
        stdout,
        stderr,
        rounds,
        elapsed,
        dir,
    }
}

impl Run {
    /// Asserts exit code 0 and the number of rounds recorded; returns the rounds.
    pub fn ok(&self, rounds: usize) -> &[RoundRecord] {
        assert_eq!(
            self.code,
            Some(0),
            "rollarena exits 0 after a match with bot faults\nstderr:\n{}",
            self.stderr
        );
        assert_eq!(self.rounds.len(), rounds, "rounds recorded");
        &self.rounds
    }

    /// A marker file the bots wrote.
    pub fn marker(&self, name: &str) -> Option<String> {
        std::fs::read_to_string(self.dir.path().join(name)).ok()
    }
}

/// Pids of live processes whose command line contains `tag`.
pub fn tagged_pids(tag: &str) -> Vec<i32> {
    let mut pids = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return pids;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        // A zombie has an empty command line; a process gone meanwhile cannot be read.
        let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        if cmdline.windows(tag.len()).any(|w| w == tag.as_bytes()) {
            pids.push(pid);
        }
    }
    pids
}

/// Kills every process carrying `tag` (cleanup after a failure).
pub fn kill_tagged(tag: &str) {
    for pid in tagged_pids(tag) {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Fails (after killing them) if processes carrying `tag` are still alive after a short wait.
pub fn assert_no_survivors(tag: &str) {
    let deadline = Instant::now() + REAP_WAIT;
    loop {
        let pids = tagged_pids(tag);
        if pids.is_empty() {
            return;
        }
        if Instant::now() > deadline {
            let described: Vec<String> = pids
                .iter()
                .map(|p| {
                    let cmd = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
                    format!("{p}: {}", String::from_utf8_lossy(&cmd).replace('\0', " "))
                })
                .collect();
            kill_tagged(tag);
            panic!(
                "bot processes survived the arbiter:\n{}",
                described.join("\n")
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Held by tests that measure wall-clock time, so that they never run at the same time: an
/// exclusive `flock` on a file shared by every test process and thread.
pub struct TimingLock(#[allow(dead_code)] File);

pub fn timing_lock() -> TimingLock {
    use std::os::fd::AsRawFd;
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("arbiter-timing.lock");
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .expect("open the timing lock file");
    // SAFETY: flock on a valid descriptor; released when the file is closed.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) };
    assert_eq!(rc, 0, "flock {}", path.display());
    TimingLock(file)
}

// ---- checks on a round's record -----------------------------------------------------------

/// The board size of a round.
pub fn size(r: &RoundRecord) -> usize {
    r.options["size"].as_u64().expect("options.size") as usize
}

/// The round was played to its end: every square filled, n*n-4 moves numbered from 1.
pub fn assert_complete(r: &RoundRecord) {
    let n = size(r);
    assert_eq!(r.moves.len(), n * n - 4, "round {}: moves", r.round);
    for (i, m) in r.moves.iter().enumerate() {
        assert_eq!(m.ply as usize, i + 1, "round {}: plies in order", r.round);
    }
    let rows = r.board["board"].as_array().expect("board rows");
    assert_eq!(rows.len(), n);
    for row in rows {
        let row = row.as_str().unwrap();
        assert!(
            !row.contains('.'),
            "round {}: a full board, got {row}",
            r.round
        );
    }
    let total: u32 = r.result.scores.values().sum();
    assert_eq!(total as usize, n * n, "every ball counted");
}

/// The seat's one forfeit of the round, after checking it is of `kind`, that the arbiter
/// played every one of the seat's moves from then on (and none before), and that the seat
/// ranks last with 0 points and no share of the win.
pub fn assert_forfeit(r: &RoundRecord, seat: usize, kind: ForfeitKind) -> &Forfeit {
    assert_complete(r);
    let mine: Vec<&Forfeit> = r.forfeits.iter().filter(|f| f.seat == seat).collect();
    assert_eq!(
        mine.len(),
        1,
        "round {}: one forfeit for seat {seat}: {:#?}",
        r.round,
        r.forfeits
    );
    let f = mine[0];
    assert_eq!(f.kind, kind, "round {}: forfeit kind: {f:#?}", r.round);
    for m in r.moves.iter().filter(|m| m.seat == seat) {
        assert_eq!(
            m.by_arbiter,
            m.ply >= f.ply,
            "round {}: ply {} of seat {seat} (forfeit at ply {})",
            r.round,
            m.ply,
            f.ply
        );
    }
    for m in r.moves.iter().filter(|m| m.seat != seat) {
        let other_forfeited = r.forfeits.iter().any(|o| o.seat == m.seat);
        if !other_forfeited {
            assert!(!m.by_arbiter, "round {}: the other seats play", r.round);
        }
    }
    let players = r.seats.len() as u32;
    let forfeited = r.forfeits.len() as u32;
    assert_eq!(r.result.points[seat], 0, "a forfeited seat scores 0 points");
    assert_eq!(r.result.wins[seat], 0.0, "a forfeited seat wins nothing");
    assert_eq!(
        r.result.ranks[seat],
        players - forfeited + 1,
        "a forfeited seat ranks after every other"
    );
    f
}

/// The seat played the whole round itself, with no forfeit, fault or refused attempt.
pub fn assert_clean(r: &RoundRecord, seat: usize) {
    assert_complete(r);
    assert!(
        r.forfeits.iter().all(|f| f.seat != seat),
        "round {}: seat {seat} forfeited: {:#?}",
        r.round,
        r.forfeits
    );
    assert!(
        r.faults.iter().all(|f| f.seat != seat),
        "round {}: seat {seat} has faults: {:#?}",
        r.round,
        r.faults
    );
    for m in r.moves.iter().filter(|m| m.seat == seat) {
        assert!(
            !m.by_arbiter,
            "round {}: ply {} by the arbiter",
            r.round, m.ply
        );
        assert!(
            m.refused.is_empty(),
            "round {}: ply {} refused",
            r.round,
            m.ply
        );
    }
}

/// The `log` messages of a seat in a round that parse as JSON objects with key `key`.
pub fn json_logs(r: &RoundRecord, seat: usize, key: &str) -> Vec<Value> {
    r.logs
        .iter()
        .filter(|l| l.seat == seat)
        .filter_map(|l| serde_json::from_str::<Value>(&l.text).ok())
        .filter(|v| v.get(key).is_some())
        .collect()
}

/// The messages a zoo bot run with `--log-messages` reported, in order, over all rounds.
pub fn received(rounds: &[RoundRecord], seat: usize) -> Vec<Value> {
    rounds
        .iter()
        .flat_map(|r| json_logs(r, seat, "got"))
        .collect()
}

/// The moves of a seat's bot (not the arbiter's) in a round, by ply.
pub fn own_plies(r: &RoundRecord, seat: usize) -> Vec<u32> {
    r.moves
        .iter()
        .filter(|m| m.seat == seat && !m.by_arbiter)
        .map(|m| m.ply)
        .collect()
}

/// The ply of a seat's k-th turn (from 1) in a round.
pub fn ply_of_turn(r: &RoundRecord, seat: usize, k: usize) -> u32 {
    r.moves
        .iter()
        .filter(|m| m.seat == seat)
        .nth(k - 1)
        .map(|m| m.ply)
        .expect("the seat has that many turns")
}
