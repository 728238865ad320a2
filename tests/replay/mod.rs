//! `rollarena replay` on records the arbiter really writes: verification of clean and tampered
//! files (`verify`), the terminal replay with snapshots of a 4x4 game (`terminal`), the HTML
//! viewer's escaping and self-containment (`html`), Rock'n'Roll Robot records in the terminal
//! and the viewer (`robots`), the viewer in headless Chromium (`browser`; Rollerball's and
//! Goofspiel's with their hidden hands and sealed bids: `browser_hidden`), and the verifier on
//! rounds made in memory (`in_memory`).
//!
//! The records are made once per test run by `rollarena match` with the built-in bots, a
//! clumsy Python bot (`fumbler.py`: refused attempts, logs, stderr, a crash) and a bot that
//! never starts, so they hold every kind of event a record can hold.

mod agreement;
mod browser;
mod browser_hidden;
mod golden;
mod hidden;
mod html;
mod in_memory;
mod robots;
mod rollerball;
mod terminal;
mod verify;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_rollarena");

/// Seat names a hostile organiser (or bot author) might choose.
pub const HOSTILE: [&str; 2] = [
    "<img src=x onerror=alert(1)>",
    "</script><script>alert(2)</script>",
];

/// The records of this test run, made once.
pub struct Records {
    dir: tempfile::TempDir,
    /// 4x4, greedy against positional, 2 rounds.
    pub small: PathBuf,
    /// 6x6, 4 seats: two fumblers (one crashes at its 4th turn), greedy, a bot that never
    /// starts; 4 rounds.
    pub faults: PathBuf,
    /// 4x4 with the hostile seat names, 2 rounds.
    pub hostile: PathBuf,
    /// 8x8, 4 seats (positional, greedy, a fumbler, random), 4 rounds.
    pub big: PathBuf,
}

impl Records {
    /// A scratch path in the records' directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

/// The records, made on first use.
pub fn records() -> &'static Records {
    static RECORDS: OnceLock<Records> = OnceLock::new();
    RECORDS.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("rollarena-replay-")
            .tempdir()
            .expect("a temporary directory");
        // Bots may run as another user: they must be able to read the fumbler.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let bot = dir.path().join("fumbler.py");
        std::fs::write(&bot, include_str!("fumbler.py")).unwrap();
        std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
        let fumbler = format!("/usr/bin/python3 {}", bot.display());
        let make = |name: &str, args: &[&str]| {
            let path = dir.path().join(name);
            // Records of faults, a bot that cannot start among them: no pre-flight.
            let mut argv = vec![
                "match",
                "--no-preflight",
                "--record",
                path.to_str().unwrap(),
                "--time",
                "20s",
            ];
            argv.extend_from_slice(args);
            let out = rollarena(&argv, None);
            assert!(
                out.status.success(),
                "rollarena {argv:?} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            path
        };
        let names = HOSTILE.join(",");
        let quitter = format!("{fumbler} --quit-at 4");
        Records {
            small: make(
                "small.jsonl",
                &[
                    "--size",
                    "4",
                    "--seed",
                    "7",
                    "rollarena bot greedy",
                    "rollarena bot positional",
                ],
            ),
            faults: make(
                "faults.jsonl",
                &[
                    "--size",
                    "6",
                    "--seed",
                    "9",
                    &fumbler,
                    &quitter,
                    "rollarena bot greedy",
                    "sh -c 'exit 3'",
                ],
            ),
            hostile: make(
                "hostile.jsonl",
                &[
                    "--size",
                    "4",
                    "--seed",
                    "5",
                    "--names",
                    &names,
                    "rollarena bot greedy",
                    "rollarena bot random",
                ],
            ),
            big: make(
                "big.jsonl",
                &[
                    "--seed",
                    "3",
                    "--names",
                    "positional,greedy,fumbler,random",
                    "rollarena bot positional --depth 2",
                    "rollarena bot greedy",
                    &fumbler,
                    "rollarena bot random",
                ],
            ),
            dir,
        }
    })
}

/// The Rock'n'Roll Robot records of this test run, made once (apart from the Rolit ones, so
/// that tests of one game do not wait for the other's matches).
pub struct RobotsRecords {
    dir: tempfile::TempDir,
    /// The built-in solver against a weaker one, 3 tokens.
    pub duel: PathBuf,
    /// A clumsy bot with a hostile seat name (`robots_fumbler.py`: it declares 2 at once, then
    /// fails its demonstration with wrong moves, unreadable moves, or no answer, in turn)
    /// against the solver, 3 tokens.
    pub faults: PathBuf,
    /// The solver alone (solo variant), 1 token.
    pub solo: PathBuf,
}

impl RobotsRecords {
    /// A scratch path in the records' directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

/// The robots records, made on first use.
pub fn robots_records() -> &'static RobotsRecords {
    static RECORDS: OnceLock<RobotsRecords> = OnceLock::new();
    RECORDS.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("rollarena-replay-robots-")
            .tempdir()
            .expect("a temporary directory");
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let bot = dir.path().join("robots_fumbler.py");
        std::fs::write(&bot, include_str!("robots_fumbler.py")).unwrap();
        std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
        let fumbler = format!("/usr/bin/python3 {}", bot.display());
        let make = |name: &str, args: &[&str]| {
            let path = dir.path().join(name);
            let mut argv = vec![
                "match",
                "--game",
                "robots",
                "--record",
                path.to_str().unwrap(),
            ];
            argv.extend_from_slice(args);
            let out = rollarena(&argv, None);
            assert!(
                out.status.success(),
                "rollarena {argv:?} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            path
        };
        RobotsRecords {
            duel: make(
                "duel.jsonl",
                &[
                    "--seed",
                    "2",
                    "--hourglass",
                    "300ms",
                    "--rounds",
                    "3",
                    "rollarena bot solver",
                    "rollarena bot solver --strength 6",
                ],
            ),
            faults: make(
                "faults.jsonl",
                &[
                    "--seed",
                    "5",
                    // Wide: the Python fumbler must declare before the hourglass the solver
                    // turns runs out, even on a loaded machine.
                    "--hourglass",
                    "2s",
                    "--prove-time",
                    "400ms",
                    "--rounds",
                    "3",
                    "--names",
                    &format!("{},solver", HOSTILE[0]),
                    &fumbler,
                    "rollarena bot solver",
                ],
            ),
            solo: make(
                "solo.jsonl",
                &[
                    "--seed",
                    "4",
                    "--hourglass",
                    "2s",
                    "--rounds",
                    "1",
                    "rollarena bot solver",
                ],
            ),
            dir,
        }
    })
}

/// Runs `rollarena` with the given arguments and standard input.
pub fn rollarena(args: &[&str], stdin: Option<&str>) -> Output {
    use std::io::Write;
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rollarena runs");
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).unwrap();
    }
    drop(input);
    child.wait_with_output().unwrap()
}

/// The text of an output stream.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The lines of a record file as JSON values.
pub fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Writes JSON values as a record file.
pub fn write_lines(path: &Path, lines: &[Value]) {
    let mut out = String::new();
    for l in lines {
        out.push_str(&serde_json::to_string(l).unwrap());
        out.push('\n');
    }
    std::fs::write(path, out).unwrap();
}
