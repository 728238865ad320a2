//! The starter kits of `examples/`, each built with the machine's own toolchain (gcc, g++,
//! javac, node, python3, cargo), put through `rollarena check` for every game (`--game robots`,
//! `goofspiel` and `rollerball` too: every item must pass), and
//! played in matches against the built-in bots: Rolit 8x8 with four players and the legal
//! moves hidden (so the kit's own rules engine chooses every move), Rolit 6x6 with two, and
//! two tokens of Rock'n'Roll Robot against `solver --strength 2` (the kit's own search must
//! win a token, its declarations, passes and demonstrations must all be accepted), and a
//! Rollerball game of three. The records are read back: the kit's seat must have no refused
//! attempt, no forfeit and no fault.
//!
//! Every kit plays a real strategy in every game, so each also plays `rollarena bot random`
//! in each game over a fixed seed and must win more rounds outright than it does; and a
//! Rollerball match of the kit against itself must decide every round (no round shared at the
//! turn limit). The kits are deterministic and `random` is seeded, so these matches play the
//! same way every time (only the order in which sealed bids arrive may differ); the six kits
//! play the same rules, so they play the same moves and share the seeds.
//!
//! Kits are built in a world-readable temporary directory and interpreters are named by their
//! system paths, since bots run as the unprivileged bot user when the tests run as root. A
//! missing toolchain skips its kit loudly, or fails the test when `CI` is set.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use rollarena::record::{RoundRecord, read_records};

use crate::check::{PYTHON, check, items_with, rollarena, shared_tempdir};

/// The kit's sources.
fn kit_dir(kit: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(kit)
}

/// A program by absolute path or found in PATH.
fn find(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Path::new(program).is_file().then(|| PathBuf::from(program));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Whether every tool is there; a missing one skips the kit, loudly (fails under CI).
fn tools(kit: &str, programs: &[&str]) -> bool {
    let missing: Vec<&str> = programs
        .iter()
        .copied()
        .filter(|p| find(p).is_none())
        .collect();
    if missing.is_empty() {
        return true;
    }
    let message = format!(
        "the {kit} kit needs {} to build or run, and it is missing",
        missing.join(", ")
    );
    assert!(std::env::var_os("CI").is_none(), "{message} (CI is set)");
    eprintln!("\n!!!!!!!! SKIP: {message} !!!!!!!!\n");
    false
}

/// Copies files of a kit into `to`, readable by everyone.
fn copy(kit: &str, files: &[&str], to: &Path) {
    for file in files {
        let target = to.join(file);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).expect("make a directory");
            std::fs::set_permissions(parent, std::fs::Permissions::from_mode(0o755))
                .expect("chmod a directory");
        }
        std::fs::copy(kit_dir(kit).join(file), &target).expect("copy a kit file");
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644))
            .expect("chmod a kit file");
    }
}

/// Runs a build step; panics with its output if it fails.
fn run(what: &str, command: &mut Command) {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Makes everything under `dir` readable (and directories enterable) by everyone.
fn open_up(dir: &Path) {
    for entry in std::fs::read_dir(dir).expect("read a directory").flatten() {
        let path = entry.path();
        let mode = if path.is_dir() { 0o755 } else { 0o644 };
        let keep_exec = std::fs::metadata(&path)
            .map(|m| m.permissions().mode() & 0o100 != 0)
            .unwrap_or(false);
        let mode = if keep_exec { 0o755 } else { mode };
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
        if path.is_dir() {
            open_up(&path);
        }
    }
}

/// Builds a kit in `dir`; returns the command that runs it, or `None` when it is skipped.
fn build(kit: &str, dir: &Path) -> Option<String> {
    match kit {
        "python" => {
            tools(kit, &[PYTHON]).then_some(())?;
            copy(kit, &["bot.py"], dir);
            Some(format!("{PYTHON} {}/bot.py", dir.display()))
        }
        "javascript" => {
            tools(kit, &["/usr/bin/node"]).then_some(())?;
            copy(kit, &["bot.js"], dir);
            Some(format!("/usr/bin/node {}/bot.js", dir.display()))
        }
        "c" => {
            tools(kit, &["gcc"]).then_some(())?;
            copy(kit, &["bot.c", "json.h"], dir);
            run(
                "gcc",
                Command::new("gcc")
                    .args(["-O2", "-Wall", "-Wextra", "-Werror", "-o", "bot", "bot.c"])
                    .current_dir(dir),
            );
            Some(format!("{}/bot", dir.display()))
        }
        "cpp" => {
            tools(kit, &["g++"]).then_some(())?;
            copy(kit, &["bot.cpp", "json.hpp"], dir);
            run(
                "g++",
                Command::new("g++")
                    .args(["-O2", "-std=c++17", "-Wall", "-Wextra", "-Werror"])
                    .args(["-o", "bot", "bot.cpp"])
                    .current_dir(dir),
            );
            Some(format!("{}/bot", dir.display()))
        }
        "java" => {
            tools(kit, &["javac", "/usr/bin/java"]).then_some(())?;
            copy(kit, &["RolitBot.java", "Json.java"], dir);
            run(
                "javac",
                Command::new("javac")
                    .args(["-Xlint:all", "-Werror", "-d", "classes"])
                    .args(["RolitBot.java", "Json.java"])
                    .current_dir(dir),
            );
            open_up(dir);
            Some(format!(
                "/usr/bin/java -cp {}/classes RolitBot",
                dir.display()
            ))
        }
        "rust" => {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            tools(kit, &[&cargo]).then_some(())?;
            copy(
                kit,
                &[
                    "Cargo.toml",
                    "Cargo.lock",
                    "src/main.rs",
                    "src/robots.rs",
                    "src/any_game.rs",
                    "src/goofspiel.rs",
                    "src/rollerball.rs",
                ],
                dir,
            );
            run(
                "cargo build",
                Command::new(&cargo)
                    .args(["build", "--release", "--locked", "--quiet"])
                    .arg("--target-dir")
                    .arg(dir.join("target"))
                    .current_dir(dir)
                    .env_remove("CARGO_TARGET_DIR")
                    .env_remove("RUSTFLAGS"),
            );
            open_up(dir);
            Some(format!("{}/target/release/starter-rust", dir.display()))
        }
        _ => panic!("no kit {kit}"),
    }
}

/// Plays a match of the kit (seat 0) against built-in bots and returns its rounds.
fn play(kit: &str, command: &str, dir: &Path, name: &str, flags: &[&str]) -> Vec<RoundRecord> {
    let record = dir.join(format!("{name}.jsonl"));
    let output = Command::new(rollarena())
        .arg("match")
        .arg(command)
        .args(flags)
        .arg("--record")
        .arg(&record)
        .args(["--time", "10s"])
        .args(if flags.contains(&"--seed") {
            &[][..]
        } else {
            &["--seed", "7"][..]
        })
        .output()
        .expect("run rollarena match");
    assert!(
        output.status.success(),
        "{kit}: the {name} match failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let (rounds, torn) = read_records(&record).expect("read the record");
    assert!(!torn, "{kit}: a torn record");
    rounds
}

/// The kit's seat (0) played every move itself, none refused, no forfeit, no fault.
fn clean(kit: &str, match_name: &str, rounds: &[RoundRecord], expected_rounds: usize) {
    assert_eq!(
        rounds.len(),
        expected_rounds,
        "{kit}: rounds of the {match_name} match"
    );
    for r in rounds {
        let at = format!("{kit}, {match_name} match, round {}", r.round);
        assert!(
            r.forfeits.iter().all(|f| f.seat != 0),
            "{at}: forfeits {:?}\nstderr: {}",
            r.forfeits,
            r.stderr[0]
        );
        assert!(
            r.faults.iter().all(|f| f.seat != 0),
            "{at}: faults {:?}",
            r.faults
        );
        let mine: Vec<_> = r.moves.iter().filter(|m| m.seat == 0).collect();
        assert!(!mine.is_empty(), "{at}: the kit made no move");
        for m in mine {
            assert!(
                m.refused.is_empty() && !m.by_arbiter,
                "{at}: move {} {:?}: refused {:?}",
                m.ply,
                m.mv,
                m.refused
            );
        }
    }
}

/// Rounds `seat` won alone.
fn won(rounds: &[RoundRecord], seat: usize) -> usize {
    rounds
        .iter()
        .filter(|r| r.result.winners() == [seat])
        .count()
}

/// The kit (seat 0) won more rounds of `game` outright than `random` (seat 1).
fn beats_random(kit: &str, game: &str, rounds: &[RoundRecord]) {
    let (mine, random) = (won(rounds, 0), won(rounds, 1));
    let points: Vec<_> = rounds.iter().map(|r| r.result.points.clone()).collect();
    assert!(
        mine > random,
        "{kit}: won {mine} rounds of {game} against random's {random} (points per round, the \
         kit first: {points:?}); its strategy for {game} plays no better than chance"
    );
}

/// Plays the kit against `rollarena bot random` in every game, then a Rollerball match
/// against itself, and checks that it wins and that its own rounds are decided.
fn plays_every_game(kit: &str, command: &str, dir: &Path) {
    let random = "rollarena bot random";
    // Two rounds of Rolit 8x8 (each kit colour once).
    let rolit = play(kit, command, dir, "rolit-random", &[random]);
    clean(kit, "rolit-random", &rolit, 2);
    beats_random(kit, "rolit", &rolit);
    // One token of Rock'n'Roll Robot: `random` never passes, so the token lasts the hourglass
    // from the kit's declaration; a short one keeps it short (the kit searches half of it).
    let robots = play(
        kit,
        command,
        dir,
        "robots-random",
        &[
            random,
            "--game",
            "robots",
            "--rounds",
            "1",
            "--hourglass",
            "3s",
            "--seed",
            "24",
        ],
    );
    clean(kit, "robots-random", &robots, 1);
    beats_random(kit, "robots", &robots);
    // Four rounds of Goofspiel (13 cards).
    let goofspiel = play(
        kit,
        command,
        dir,
        "goofspiel-random",
        &[random, "--game", "goofspiel", "--rounds", "4"],
    );
    clean(kit, "goofspiel-random", &goofspiel, 4);
    beats_random(kit, "goofspiel", &goofspiel);
    // Six rounds of Rollerball: with seed 2 the kit wins all six.
    let rollerball = play(
        kit,
        command,
        dir,
        "rollerball-random",
        &[
            random,
            "--game",
            "rollerball",
            "--rounds",
            "6",
            "--seed",
            "2",
        ],
    );
    clean(kit, "rollerball-random", &rollerball, 6);
    beats_random(kit, "rollerball", &rollerball);
    // The kit against itself: somebody scores five points, no round runs out 0-0.
    let mirror = play(
        kit,
        command,
        dir,
        "rollerball-mirror",
        &[command, "--game", "rollerball", "--rounds", "2"],
    );
    clean(kit, "rollerball-mirror", &mirror, 2);
    for r in &mirror {
        assert!(
            r.result.winners().len() == 1 && r.result.points.contains(&5),
            "{kit}: round {} of the kit against itself at Rollerball was not decided by five \
             points (points {:?}, {} decisions)",
            r.round,
            r.result.points,
            r.moves.len()
        );
    }
}

/// Builds the kit, checks it, plays it.
fn kit(kit: &str) {
    let dir = shared_tempdir(&format!("rollarena-kit-{kit}-"));
    let Some(command) = build(kit, dir.path()) else {
        return;
    };
    let (code, report, output) = check(&command, &[]);
    assert_eq!(
        code,
        0,
        "{kit}: rollarena check failed (items {:?}):\n{}\n{}",
        items_with(&report, "fail"),
        serde_json::to_string_pretty(&report).unwrap_or_default(),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(items_with(&report, "pass").len(), 10, "{kit}: {report}");
    for (game, items) in [("robots", 10), ("goofspiel", 7), ("rollerball", 7)] {
        let (code, report, output) = check(&command, &["--game", game]);
        assert_eq!(
            code,
            0,
            "{kit}: rollarena check --game {game} failed (items {:?}):\n{}\n{}",
            items_with(&report, "fail"),
            serde_json::to_string_pretty(&report).unwrap_or_default(),
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(
            items_with(&report, "pass").len(),
            items,
            "{kit} {game}: {report}"
        );
    }
    let four = play(
        kit,
        &command,
        dir.path(),
        "four",
        &[
            "rollarena bot greedy",
            "rollarena bot positional",
            "rollarena bot random",
            "--hide-legal",
        ],
    );
    clean(kit, "four", &four, 4);
    let two = play(
        kit,
        &command,
        dir.path(),
        "two",
        &["rollarena bot positional --depth 2", "--size", "6"],
    );
    clean(kit, "two", &two, 2);
    if ["python", "javascript"].contains(&kit) {
        // These kits plan each answer from the bank the turn says is left.
        let banked = play(
            kit,
            &command,
            dir.path(),
            "banked",
            &["rollarena bot greedy", "--tc", "20s+100ms"],
        );
        clean(kit, "banked", &banked, 2);
        let stderr: String = banked.iter().map(|r| r.stderr[0].as_str()).collect();
        assert!(
            stderr.contains("ms left in the bank)"),
            "{kit}: the kit does not read turn.bank_ms; its stderr:\n{stderr}"
        );
    }
    let robots = play(
        kit,
        &command,
        dir.path(),
        "robots",
        &[
            "rollarena bot solver --strength 2",
            "--game",
            "robots",
            "--rounds",
            "2",
            "--hourglass",
            "10s",
            // Two tokens of 5 moves: more than solver --strength 2 looks for, and well within
            // the reach of every kit's search in half the hourglass, even on a loaded machine.
            "--seed",
            "24",
        ],
    );
    clean(kit, "robots", &robots, 2);
    // The search's time comes from the contest's hourglass (10 s here), not a fixed 3 s that a
    // short hourglass (`--hourglass 1s`) would overrun.
    let stderr: String = robots.iter().map(|r| r.stderr[0].as_str()).collect();
    assert!(
        stderr.contains("searching at most 5000 ms a token (hourglass 10000 ms)"),
        "{kit}: the kit does not plan its search from hello.options.hourglass_ms; its stderr:\n{stderr}"
    );
    let won = robots.iter().filter(|r| r.result.points[0] == 1).count();
    assert!(won >= 1, "{kit}: won no token against solver --strength 2");
    // Rollerball with three seats: the kit plays cleanly among more than two.
    let rollerball = play(
        kit,
        &command,
        dir.path(),
        "rollerball",
        &[
            "rollarena bot random",
            "rollarena bot random --seed 2",
            "--game",
            "rollerball",
            "--rounds",
            "1",
            "--turn-limit",
            "60",
        ],
    );
    clean(kit, "rollerball", &rollerball, 1);
    plays_every_game(kit, &command, dir.path());
}

#[test]
fn python_kit() {
    kit("python");
}

#[test]
fn javascript_kit() {
    kit("javascript");
}

#[test]
fn c_kit() {
    kit("c");
}

#[test]
fn cpp_kit() {
    kit("cpp");
}

#[test]
fn java_kit() {
    kit("java");
}

#[test]
fn rust_kit() {
    kit("rust");
}

#[test]
fn the_readmes_link_every_kit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let index =
        std::fs::read_to_string(root.join("examples/README.md")).expect("examples/README.md");
    let front = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    for kit in ["python", "javascript", "c", "cpp", "java", "rust"] {
        let readme = kit_dir(kit).join("README.md");
        assert!(readme.is_file(), "{} is missing", readme.display());
        assert!(
            index.contains(&format!("({kit}/)")),
            "examples/README.md does not link {kit}/"
        );
        assert!(
            front.contains(&format!("(examples/{kit}/)")),
            "README.md does not link examples/{kit}/"
        );
    }
}
