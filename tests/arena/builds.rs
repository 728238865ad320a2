//! Builds and checks, as real processes in the sandbox: a build that runs past its time, one
//! that uses more memory than its limit, one that prints more than its output limit (each
//! killed, failed with the limit named in its log), a bot that builds but fails `check`
//! with the diagnosis kept in `check.json`, and the JavaScript, C++ and Java kits built and
//! passing with the default recipes (Python and C: `ladder`).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rollarena::arena::config::Recipe;
use rollarena::arena::rundir::Sandboxes;
use rollarena::arena::service::build_once;
use rollarena::arena::submissions::{Upload, accept};

use super::{arena, state, team};

/// Builds and checks the next queued version, as the server's builder does (in a child
/// process); the sandboxes are probed first, as the server does at its start.
pub(super) fn build_next(arena: &rollarena::arena::Arena, sandboxes: &Sandboxes) {
    let _ = sandboxes;
    let built = build_once(arena, "embedded:test:builder", &AtomicBool::new(false));
    assert!(built.unwrap(), "a version was queued");
}

/// A recipe whose build is `build`, for a single file `bot.sh`.
pub(super) fn recipe(name: &str, build: &str) -> Recipe {
    Recipe {
        name: name.into(),
        main: "bot.sh".into(),
        extensions: vec![],
        build: build.into(),
        run: "/bin/sh bot.sh".into(),
        probe: String::new(),
    }
}

pub(super) fn submit(
    arena: &rollarena::arena::Arena,
    team: rollarena::arena::store::TeamId,
    language: &str,
    file: &str,
    bytes: &[u8],
) -> i64 {
    accept(
        arena,
        team,
        Upload {
            file_name: file.into(),
            bytes: bytes.to_vec(),
            language: Some(language.into()),
            label: None,
        },
    )
    .unwrap()
}

#[test]
fn builds_past_their_limits_are_killed_and_fail_naming_the_limit() {
    let (_tmp, arena) = arena("rolit", |c| {
        c.build.time = Duration::from_secs(3);
        c.build.memory = 64 << 20;
        c.build.max_output = 64 << 10;
        c.recipes.push(recipe("slow", "echo compiling; sleep 600"));
        c.recipes.push(recipe(
            "greedy",
            "/usr/bin/python3 -c 'x = bytearray(512 * 1024 * 1024); print(len(x))'",
        ));
        c.recipes.push(recipe(
            "chatty",
            "yes 'a line of output' | head -c 5000000; sleep 600",
        ));
        c.recipes.push(recipe("fine", "echo built > built.txt"));
    });
    let sandboxes = Sandboxes::new(&arena).unwrap();
    // A team each: a team's newer upload would supersede its queued one.
    let each = |name: &str| submit(&arena, team(&arena, name), name, "bot.sh", b"exit 0\n");
    let slow = each("slow");
    let greedy = each("greedy");
    let chatty = each("chatty");
    let fine = each("fine");
    let started = std::time::Instant::now();
    for _ in 0..4 {
        build_next(&arena, &sandboxes);
    }
    // Each of the killed builds would take ten minutes: they were stopped at their limit.
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "{:?}",
        started.elapsed()
    );
    let log = |v: i64| std::fs::read_to_string(arena.version_dir(v).join("build.log")).unwrap();

    let (s, why) = state(&arena, slow);
    assert_eq!(s, "failed");
    assert!(
        why.as_deref()
            .unwrap()
            .contains("ran longer than the limit of 3s"),
        "{why:?}"
    );
    assert!(log(slow).contains("compiling"), "{}", log(slow));
    assert!(log(slow).contains("build failed after"), "{}", log(slow));

    let (s, why) = state(&arena, greedy);
    assert_eq!(s, "failed");
    let why = why.unwrap();
    if rollarena::sandbox::cgroup::available() {
        assert!(why.contains("more memory than the limit of 64M"), "{why}");
    } else {
        // Without cgroups the memory limit is an rlimit: the allocation fails in Python.
        assert!(log(greedy).contains("MemoryError"), "{}", log(greedy));
    }

    let (s, why) = state(&arena, chatty);
    assert_eq!(s, "failed");
    assert!(
        why.as_deref()
            .unwrap()
            .contains("output exceeded the limit of 64K"),
        "{why:?}"
    );
    let chatty_log = log(chatty);
    assert!(
        chatty_log.len() < 80 << 10,
        "the log is cut: {} bytes",
        chatty_log.len()
    );
    assert!(chatty_log.contains("output cut at 64K"));

    // A build within its limits succeeds; its check then fails (the bot says nothing), with
    // the diagnosis kept, and a failed version keeps its log but not its build tree.
    let (s, why) = state(&arena, fine);
    assert_eq!(s, "failed");
    assert!(why.unwrap().starts_with("check:"));
    assert!(arena.version_dir(fine).join("check.json").is_file());
    assert!(!arena.version_dir(fine).join("build").exists());
    assert!(log(fine).contains("build: ok"), "{}", log(fine));
}

#[test]
fn a_broken_bot_fails_its_check_with_the_diagnosis_in_check_json() {
    let (_tmp, arena) = arena("rolit", |c| c.startup = Duration::from_secs(3));
    let sandboxes = Sandboxes::new(&arena).unwrap();
    let team = team(&arena, "broken");
    // Talks before it is asked and never answers hello in the protocol.
    let bot = b"import sys\nprint('Hello, arena!', flush=True)\nfor line in sys.stdin:\n    pass\n";
    let v = submit(&arena, team, "python", "bot.py", bot);
    build_next(&arena, &sandboxes);
    let (s, why) = state(&arena, v);
    assert_eq!(s, "failed");
    let why = why.unwrap();
    assert!(why.starts_with("check: handshake"), "{why}");
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(arena.version_dir(v).join("check.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(report["passed"], false);
    let handshake = report["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["item"]["id"] == "handshake" || i["item"] == "handshake")
        .unwrap_or_else(|| panic!("no handshake item: {report:#}"));
    assert_eq!(handshake["status"], "fail");
    let problem = &handshake["problem"];
    assert!(
        problem["hint"].as_str().is_some_and(|h| !h.is_empty()),
        "a hint: {problem:#}"
    );
    assert!(
        problem.to_string().contains("Hello, arena!"),
        "the exchange shows what the bot said: {problem:#}"
    );
}

/// A kit's files as a zip of its folder.
fn zipped(kit: &str, files: &[&str]) -> Vec<u8> {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for file in files {
        zip.start_file(
            format!("{kit}/{file}"),
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
        zip.write_all(&super::kit_file(kit, file)).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

#[test]
fn the_javascript_cpp_and_java_kits_build_and_pass_with_the_default_recipes() {
    let (_tmp, arena) = arena("rolit", |c| {
        c.startup = Duration::from_secs(20);
        c.sandbox.memory = 2 << 30;
    });
    let sandboxes = Sandboxes::new(&arena).unwrap();
    let team = team(&arena, "kits");
    let mut versions = Vec::new();
    for (kit, files, tools) in [
        ("javascript", &["bot.js"][..], &["/usr/bin/node"][..]),
        ("cpp", &["bot.cpp", "json.hpp"], &["/usr/bin/g++"]),
        (
            "java",
            &["RolitBot.java", "Json.java"],
            &["/usr/bin/javac", "/usr/bin/java"],
        ),
    ] {
        if !tools.iter().all(|t| super::have(t)) {
            continue;
        }
        // Found by its main file, with no language given.
        let v = accept(
            &arena,
            team,
            Upload {
                file_name: format!("{kit}.zip"),
                bytes: zipped(kit, files),
                language: None,
                label: None,
            },
        )
        .unwrap();
        // Built before the next upload, which would supersede it while queued.
        build_next(&arena, &sandboxes);
        versions.push((kit, v));
    }
    for (kit, v) in versions {
        let (s, why) = state(&arena, v);
        let log = std::fs::read_to_string(arena.version_dir(v).join("build.log")).unwrap();
        assert_eq!(s, "ready", "the {kit} kit: {why:?}\n{log}");
        let language: String = arena
            .conn()
            .unwrap()
            .query_row("SELECT language FROM versions WHERE id = ?1", [v], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(language, kit);
    }
}
