//! Build-time code in Java: the Java kit uploaded with an annotation processor
//! (`tests/bots/hostile_build/HostileProcessor.java`, compiled here, its class and
//! `META-INF/services/javax.annotation.processing.Processor` at the upload's root, where
//! javac's default class path finds it). javac runs it inside the build; it tries to read the
//! victim team's source (which carries a secret), the database and the records, to connect to
//! the server's port and to send SIGTERM to the server, and prints what it got.
//!
//! It runs twice: with the arena under /tmp and outside it (as in `arena::spying`).
//!
//! Expected: the build passes (the attack costs the attacker nothing, and gains nothing), its
//! log holds the processor's whole report with every attempt refused and no secret, the
//! attacker's page shows the HTML it printed as text, the server still answers, and the
//! victim's version is checked and its source (secret included) is served to the victim alone.

use std::os::unix::fs::PermissionsExt;
use std::process::Command;
use std::time::Duration;

use super::bot_file;
use crate::arena::have;
use crate::arena::web::{Arena, Server, Who, get, kit, submit, version_id, wait_for};
use crate::check::shared_tempdir;

/// Each test's bots' and builds' uids.
const BUILDS_UNDER_TMP: [(u32, u32); 2] = [(64700, 64724), (64725, 64749)];
const BUILDS_OUTSIDE_TMP: [(u32, u32); 2] = [(64750, 64774), (64775, 64799)];

const SECRET: &str = "VICTIM-SOURCE-SECRET-5512";

/// A version's state, as the server's database has it.
fn state(arena: &Arena, version: i64) -> String {
    arena
        .db()
        .query_row("SELECT state FROM versions WHERE id = ?1", [version], |r| {
            r.get(0)
        })
        .unwrap()
}

/// The arena under /tmp: the build's private /tmp holds, of the arena, its own run directory
/// alone.
#[test]
fn java_build_time_code_reads_nothing_reaches_nothing_and_signals_nothing_under_tmp() {
    attack(shared_tempdir("rollarena-arena-"), BUILDS_UNDER_TMP);
}

/// The arena elsewhere (the test's target directory), as an organiser's usually is: only the
/// modes of the arena's files keep the build out.
#[test]
fn java_build_time_code_reads_nothing_reaches_nothing_and_signals_nothing_outside_tmp() {
    let tmp = tempfile::Builder::new()
        .prefix("rollarena-arena-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    attack(tmp, BUILDS_OUTSIDE_TMP);
}

fn attack(tmp: tempfile::TempDir, uids: [(u32, u32); 2]) {
    if !have("/usr/bin/javac") || !have("/usr/bin/java") {
        return;
    }
    let arena = Arena::init_in(tmp, "rolit", &["--size", "6"], "");
    arena.own_uids(uids[0], uids[1]);
    let victim = arena.team("victims");
    let attacker = arena.team("attackers");
    let server = Server::start(&arena, 0);
    let url = server.url.clone();
    let port = url.rsplit(':').next().unwrap().to_string();

    // The victim: the Python kit, a secret in its source.
    let tmp = shared_tempdir("rollarena-hostile-java-");
    let victim_dir = tmp.path().join("victim");
    std::fs::create_dir(&victim_dir).unwrap();
    let mut source = std::fs::read_to_string(kit("python").join("bot.py")).unwrap();
    source.push_str(&format!("\n# {SECRET}\n"));
    std::fs::write(victim_dir.join("bot.py"), source).unwrap();
    let (code, out, err) = submit(&server, &victim, &victim_dir.join("bot.py"), &[]);
    assert_eq!(code, 0, "{out}{err}");
    let victim_version = version_id(&out);

    // The attacker: the Java kit, the processor's class and its service file, and what it
    // "guessed": the server's port and pid.
    let upload = tmp.path().join("attacker");
    std::fs::create_dir_all(upload.join("META-INF/services")).unwrap();
    for file in ["RolitBot.java", "Json.java"] {
        std::fs::copy(kit("java").join(file), upload.join(file)).unwrap();
    }
    let javac = Command::new("/usr/bin/javac")
        .arg("-d")
        .arg(&upload)
        .arg(bot_file("hostile_build/HostileProcessor.java"))
        .output()
        .unwrap();
    assert!(
        javac.status.success(),
        "javac: {}",
        String::from_utf8_lossy(&javac.stderr)
    );
    std::fs::write(
        upload.join("META-INF/services/javax.annotation.processing.Processor"),
        "HostileProcessor\n",
    )
    .unwrap();
    std::fs::write(
        upload.join("targets.txt"),
        format!("port {port}\npid {}\n", server.child.id()),
    )
    .unwrap();
    let (code, out, err) = submit(&server, &attacker, &upload, &[]);
    assert_eq!(code, 0, "{out}{err}");
    let attacker_version = version_id(&out);

    wait_for("the attacker's build", Duration::from_secs(120), || {
        !matches!(
            state(&arena, attacker_version).as_str(),
            "queued" | "building"
        )
    });
    let api = get(
        &format!("{url}/api/submissions/{attacker_version}"),
        Who::Token(&attacker),
    );
    assert_eq!(api.status, 200, "{}", api.body);
    let api = api.json();
    let log = api["build_log"].as_str().unwrap_or_default().to_string();
    println!("{log}");
    // The build passed (what its check then says of the Java kit is not this test's).
    assert!(log.contains("\nbuild: ok in "), "the build passes: {api}");

    // The processor ran, tried everything, and got nothing.
    let report = log
        .split_once("HOSTILE BUILD BEGIN\n")
        .and_then(|(_, rest)| rest.split_once("HOSTILE BUILD END\n"))
        .map(|(report, _)| report)
        .unwrap_or_else(|| panic!("the processor's whole report is in the build log: {log}"));
    assert!(!report.contains("FAILED "), "{report}");
    let lines: Vec<&str> = report.lines().collect();
    let read: Vec<&&str> = lines.iter().filter(|l| l.starts_with("READ ")).collect();
    assert!(read.is_empty(), "the build read: {read:#?}");
    let denied = lines.iter().filter(|l| l.starts_with("DENIED ")).count();
    assert_eq!(
        denied,
        4 + 4 * 7,
        "every read was tried and refused: {report}"
    );
    for what in ["arena.db", "versions/1/source/bot.py", "records"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("DENIED ") && l.contains(what)),
            "{what} was tried: {report}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("NET 127.0.0.1:{port} refused: "))),
        "the server's port is out of reach: {report}"
    );
    let signals: Vec<&&str> = lines.iter().filter(|l| l.starts_with("SIGNAL ")).collect();
    assert_eq!(signals.len(), 2, "{report}");
    assert!(
        signals.iter().all(|l| l.contains(" refused")),
        "a signal reached the server: {signals:#?}"
    );
    // It sees its own processes only (the build's PID namespace): none is the server's.
    let server_pid = format!("PROC {} ", server.child.id());
    assert!(
        lines.iter().all(|l| !l.contains("rollarena serve")),
        "the build saw the server: {report}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with(&server_pid)),
        "{report}"
    );
    assert!(
        !log.contains(SECRET),
        "the build log holds the victim's secret"
    );

    // The attacker's page shows the processor's HTML as text.
    let page = get(
        &format!("{url}/submissions/{attacker_version}"),
        Who::Token(&attacker),
    );
    assert_eq!(page.status, 200);
    assert!(
        page.body
            .contains("&lt;script&gt;alert('build log')&lt;/script&gt;")
            || page
                .body
                .contains("&lt;script&gt;alert(&#39;build log&#39;)&lt;/script&gt;"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("<script>alert"), "{}", page.body);

    // The server answers, the victim's version is checked and its source served to it alone.
    wait_for("the victim's check", Duration::from_secs(120), || {
        state(&arena, victim_version) == "ready"
    });
    let team = get(&format!("{url}/api/teams/victims"), Who::Nobody);
    assert_eq!(team.status, 200, "{}", team.body);
    let file = format!("{url}/submissions/{victim_version}/files/bot.py");
    let own = get(&file, Who::Token(&victim));
    assert_eq!(own.status, 200);
    assert!(
        own.body.contains(SECRET),
        "the control: the secret was there"
    );
    let theirs = get(&file, Who::Token(&attacker));
    assert_eq!(theirs.status, 403, "{}", theirs.body);
    assert!(!theirs.body.contains(SECRET));
    assert!(!server.stderr().contains("panicked"), "{}", server.stderr());
}
