//! Driving Debian's Chromium from a Node script (playwright-core, installed by `npm ci` in
//! `tests/browser`), shared by the HTML viewer's and the report's browser tests: whether such
//! a test can run here (a loud SKIP when it cannot, a failure in CI), and running a script on
//! an expectation file under a time limit.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const CHROMIUM: &str = "/usr/bin/chromium";
/// How long a browser script may take before it is killed.
const LIMIT: Duration = Duration::from_secs(180);

/// The directory of the browser scripts and their `node_modules`.
pub fn browser_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// Whether `test` (its name, for the message) can run here. Prints a loud SKIP when it
/// cannot, and panics instead in CI.
pub fn ready(test: &str) -> bool {
    let mut missing = Vec::new();
    if !Path::new(CHROMIUM).exists() {
        missing.push(format!("{CHROMIUM} (apt-get install chromium)"));
    }
    if !browser_dir().join("node_modules/playwright-core").is_dir() {
        missing.push("tests/browser/node_modules/playwright-core (npm ci in tests/browser)".into());
    }
    let node = Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !node.is_ok_and(|s| s.success()) {
        missing.push("node".into());
    }
    if missing.is_empty() {
        return true;
    }
    let what = missing.join(", ");
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
        panic!("CI is set but {test} cannot run: missing {what}; .ci/run installs them");
    }
    // Straight to the process's stderr: libtest hides what a passing test prints with
    // eprintln!, and this must be seen.
    let _ = writeln!(
        std::io::stderr(),
        "\n{bar}\nSKIP: {test} did not run: missing {what}.\n\
         .ci/run installs them (as root); in CI this test fails instead.\n{bar}\n",
        bar = "*".repeat(78)
    );
    false
}

/// Runs `script` (a file of `tests/browser`) on the expectations `expect`, written to `path`;
/// returns what it printed, and panics with its output when it fails or runs too long.
pub fn run_script(script: &str, expect: &Value, path: &Path) -> String {
    std::fs::write(path, serde_json::to_vec_pretty(expect).unwrap()).unwrap();
    let mut child = Command::new("node")
        .arg(browser_dir().join(script))
        .arg(path)
        .current_dir(browser_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the browser script took more than {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        status.success(),
        "the browser test failed:\n{stdout}\n{stderr}"
    );
    stdout
}
