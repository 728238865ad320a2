//! A bot anywhere: a program or a script named directly in /tmp, where a user puts a bot to
//! try it. Each seat gets a private tmpfs on /tmp, so before, such a bot stopped at the
//! pre-flight ("rollarena sandbox: cannot run /tmp/minibot: No such file or directory"): the
//! file itself is now bound, read-only, at its path in the seat's view. A real C bot and the
//! Python kit play from /tmp at the default level and at `strict`; one the bots' uid may not
//! read or run is refused before the match with the chmod that fixes it.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::{PYTHON, refused, run_in, shared_dir, stderr};

/// Files directly in /tmp, removed when the test ends.
struct InTmp(Vec<PathBuf>);

impl InTmp {
    /// `/tmp/rollarena-anywhere-PID-NAME`.
    fn path(&mut self, name: &str) -> PathBuf {
        let p = PathBuf::from(format!(
            "/tmp/rollarena-anywhere-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&p);
        self.0.push(p.clone());
        p
    }
}

impl Drop for InTmp {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// bench/minibot.c (answers every turn with its first legal square), compiled into `out`.
fn minibot(out: &Path) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/minibot.c");
    let built = std::process::Command::new("cc")
        .args(["-O2", "-o"])
        .arg(out)
        .arg(&src)
        .output()
        .expect("cc runs (.ci/run installs gcc)");
    assert!(built.status.success(), "cc: {}", stderr(&built));
    chmod(out, 0o755);
}

/// Plays a 2-round 6x6 match of `bot` against the built-in random bot at `level`; asserts it
/// went through without a forfeit of either seat.
fn plays(bot: &str, level: &str) {
    let dir = shared_dir();
    let out = run_in(
        dir.path(),
        &[
            "match",
            bot,
            "rollarena bot random",
            "--size",
            "6",
            "--rounds",
            "2",
            "--sandbox",
            level,
            "--record",
            "r.jsonl",
        ],
    );
    assert!(out.status.success(), "{bot} at {level}: {}", stderr(&out));
    let (rounds, torn) = rollarena::record::read_records(&dir.path().join("r.jsonl")).unwrap();
    assert!(!torn);
    assert_eq!(rounds.len(), 2, "{bot} at {level}");
    for r in &rounds {
        assert!(
            r.forfeits.is_empty(),
            "{bot} at {level} forfeited: {:?}\n{}",
            r.forfeits,
            stderr(&out)
        );
    }
}

#[test]
fn a_c_bot_directly_in_tmp_plays_at_the_default_level_and_at_strict() {
    let mut tmp = InTmp(Vec::new());
    let bot = tmp.path("minibot");
    minibot(&bot);
    let bot = bot.to_str().unwrap();
    plays(bot, "basic");
    plays(bot, "strict");
}

#[test]
fn a_python_bot_directly_in_tmp_plays_and_so_does_a_link_to_it() {
    let mut tmp = InTmp(Vec::new());
    let bot = tmp.path("bot.py");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/python/bot.py"),
        &bot,
    )
    .unwrap();
    chmod(&bot, 0o644);
    plays(&format!("{PYTHON} {}", bot.display()), "strict");
    // A symbolic link in /tmp to it: the link's path is where the command names it.
    let link = tmp.path("link.py");
    std::os::unix::fs::symlink(&bot, &link).unwrap();
    plays(&format!("{PYTHON} {}", link.display()), "basic");
}

#[test]
fn a_bot_in_tmp_that_the_bots_cannot_read_is_refused_with_the_chmod_that_fixes_it() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("SKIP: not root, so the bots run as this user, who can read its own files");
        return;
    }
    let mut tmp = InTmp(Vec::new());
    let dir = shared_dir();
    // A script the bots' uid may not read (root's, mode 0600).
    let script = tmp.path("secret.py");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/python/bot.py"),
        &script,
    )
    .unwrap();
    chmod(&script, 0o600);
    let out = run_in(
        dir.path(),
        &[
            "match",
            &format!("{PYTHON} {}", script.display()),
            "rollarena bot random",
        ],
    );
    let err = refused(&out, "cannot be read by");
    assert!(
        err.contains(&format!("`chmod a+r {}`", script.display())),
        "{err}"
    );
    assert!(err.contains("(600)"), "its mode is named: {err}");
    // A program the bots' uid may not run (mode 0700).
    let program = tmp.path("secret-bot");
    minibot(&program);
    chmod(&program, 0o700);
    let out = run_in(
        dir.path(),
        &["match", program.to_str().unwrap(), "rollarena bot random"],
    );
    let err = refused(&out, "cannot be run by");
    assert!(
        err.contains(&format!("`chmod a+rx {}`", program.display())),
        "{err}"
    );
    // Fixed as the message says, it plays.
    chmod(&program, 0o755);
    plays(program.to_str().unwrap(), "basic");
}
