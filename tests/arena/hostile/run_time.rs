//! Run-time code in Python: the attacker's seat (`tests/bots/hostile_seat.py` over the Python
//! kit) plays a ladder match against the victim (the Python kit, a secret in its source and
//! another on its stderr) on the real server. At its first message it tries /proc (every
//! process it can see that is not its own: command line, environment, working directory,
//! root), the arena's database, versions, records and run directories, the server's port and
//! a listener this test opens on the host's loopback (which greets with a third secret), and
//! signals (SIGTERM to the server, SIGUSR1 to every process not its own), and prints what it got.
//!
//! Expected: both versions pass their check, the match is played to its end with no forfeit
//! (the victim was not signalled), the attacker's report (in its own record) shows every
//! attempt refused, the listener saw no connection, none of the victim's secrets is in any
//! answer the attacker gets, the HTML the attacker printed, the HTML file name it uploaded and
//! its version's HTML label show as text on its pages, and the server and the victim's pages
//! still answer.

use std::io::Write;
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::bot_file;
use crate::arena::have;
use crate::arena::web::{Arena, Server, Who, get, kit, submit, version_id, wait_for};
use crate::check::shared_tempdir;

const BOTS: (u32, u32) = (64800, 64849);
const BUILDS: (u32, u32) = (64850, 64899);

const SOURCE_SECRET: &str = "VICTIM-SOURCE-SECRET-9931";
const STDERR_SECRET: &str = "VICTIM-STDERR-SECRET-2718";
const LISTENER_SECRET: &str = "HOST-LISTENER-SECRET-1618";

/// The file the attacker uploads whose name is HTML.
const HTML_NAME: &str = "<img src=x onerror=alert(5)>.txt";

/// The attacker's label for its version, HTML too.
const LABEL: &str = "<img src=x onerror=alert(6)> v1";

/// A listener on the host's loopback that greets every connection with its secret; the count
/// of connections it accepted.
fn listener() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            count.fetch_add(1, Ordering::SeqCst);
            let _ = (&stream).write_all(LISTENER_SECRET.as_bytes());
        }
    });
    (port, accepted)
}

#[test]
fn a_python_seat_reaches_no_process_file_or_port_and_its_pages_show_its_html_as_text() {
    if !have("/usr/bin/python3") {
        return;
    }
    let arena = Arena::init(&["--size", "6"], "");
    arena.own_uids(BOTS, BUILDS);
    let victim = arena.team("victims");
    let attacker = arena.team("attackers");
    let server = Server::start(&arena, 1);
    let url = server.url.clone();
    let port: u16 = url.rsplit(':').next().unwrap().parse().unwrap();
    let (listener_port, accepted) = listener();

    // The victim: the Python kit with a secret in its source and another on its stderr.
    let tmp = shared_tempdir("rollarena-hostile-seat-");
    let kit_source = std::fs::read_to_string(kit("python").join("bot.py")).unwrap();
    let (head, rest) = kit_source
        .split_once("\nimport ")
        .expect("the kit imports something");
    let victim_dir = tmp.path().join("victim");
    std::fs::create_dir(&victim_dir).unwrap();
    std::fs::write(
        victim_dir.join("bot.py"),
        format!(
            "{head}\n# {SOURCE_SECRET}\nimport sys as _s; _s.stderr.write('{STDERR_SECRET}\\n'); \
             _s.stderr.flush()\nimport {rest}"
        ),
    )
    .unwrap();
    let (code, out, err) = submit(&server, &victim, &victim_dir.join("bot.py"), &["--wait"]);
    assert_eq!(code, 0, "{out}{err}");
    let victim_version = version_id(&out);

    // The attacker: its seat over the kit, what it "guessed", and a file whose name is HTML.
    let upload = tmp.path().join("attacker");
    std::fs::create_dir(&upload).unwrap();
    std::fs::copy(bot_file("hostile_seat.py"), upload.join("bot.py")).unwrap();
    std::fs::copy(kit("python").join("bot.py"), upload.join("kit.py")).unwrap();
    std::fs::write(
        upload.join("targets.json"),
        serde_json::json!({
            "server": port,
            "listener": listener_port,
            "server_pid": server.child.id(),
        })
        .to_string(),
    )
    .unwrap();
    std::fs::write(upload.join(HTML_NAME), "hello\n").unwrap();
    let (code, out, err) = submit(&server, &attacker, &upload, &["--name", LABEL, "--wait"]);
    assert_eq!(
        code, 0,
        "the attacker's version passes its check: {out}{err}"
    );
    let attacker_version = version_id(&out);

    wait_for("a match of the two", Duration::from_secs(120), || {
        arena.count("SELECT COUNT(*) FROM matches WHERE state IN ('done', 'failed')") >= 1
    });
    let m = arena.count("SELECT MIN(id) FROM matches WHERE state IN ('done', 'failed')");
    let summary = get(&format!("{url}/api/matches/{m}"), Who::Nobody).json();
    assert_eq!(summary["state"], "done", "{summary}");

    // The attacker's own record: its report, whole, and every attempt refused.
    let record = get(
        &format!("{url}/api/matches/{m}/record"),
        Who::Token(&attacker),
    );
    assert_eq!(record.status, 200, "{}", record.body);
    let report = crate::arena::spying::stderr_tails(&record.body)
        .into_iter()
        .find_map(|t| {
            let (_, rest) = t.split_once("HOSTILE SEAT BEGIN\n")?;
            Some(rest.split_once("HOSTILE SEAT END\n")?.0.to_string())
        })
        .unwrap_or_else(|| panic!("the seat's whole report is in its record: {}", record.body));
    println!("{report}");
    let lines: Vec<&str> = report.lines().collect();
    assert!(!report.contains("FAILED "), "{report}");
    // Under /tmp the sandbox's private /tmp holds, of the arena, the seat's own run directory
    // alone, which it may list.
    let own = lines
        .iter()
        .find_map(|l| l.strip_prefix("SELF "))
        .and_then(|l| l.rsplit('/').next())
        .unwrap_or_else(|| panic!("the seat names its directory: {report}"));
    let own_view = |l: &str| l.contains("/run (") && l.ends_with(&format!(": b\"['{own}']\""));
    let read: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("READ ") && !own_view(l))
        .collect();
    assert!(read.is_empty(), "the seat read: {read:#?}");
    for what in [
        "arena.db",
        "versions",
        "records",
        "versions/1/source/bot.py",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("DENIED ") && l.contains(&format!("/{what}: "))),
            "{what} was tried: {report}"
        );
    }
    for what in ["server", "listener"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("NET ") && l.contains(&format!("({what}) refused: "))),
            "the {what} is out of reach: {report}"
        );
    }
    assert_eq!(
        accepted.load(Ordering::SeqCst),
        0,
        "the listener was reached"
    );
    let signals: Vec<&&str> = lines.iter().filter(|l| l.starts_with("SIGNAL ")).collect();
    assert!(
        signals
            .first()
            .is_some_and(|l| l.starts_with(&format!("SIGNAL {} refused", server.child.id()))),
        "SIGTERM to the server was tried and refused: {report}"
    );
    assert!(
        signals.iter().all(|l| l.contains(" refused: ")),
        "a signal was delivered: {signals:#?}"
    );

    // The match ended without a forfeit: the victim's seat played to the end.
    for line in record.body.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let forfeits = v["forfeits"].as_array().map_or(0, Vec::len);
        assert_eq!(forfeits, 0, "a forfeit: {line}");
    }

    // No answer the attacker gets holds the victim's secrets; its HTML shows as text.
    let session = crate::arena::web::login(&url, &attacker);
    let addresses = [
        "/".to_string(),
        "/teams/victims".to_string(),
        "/api/teams/victims".to_string(),
        "/teams/attackers".to_string(),
        format!("/matches/{m}"),
        format!("/matches/{m}/replay"),
        format!("/api/matches/{m}"),
        format!("/api/matches/{m}/record"),
        format!("/submissions/{attacker_version}"),
        format!("/api/submissions/{attacker_version}"),
        format!("/submissions/{victim_version}"),
    ];
    for who in [Who::Token(&attacker), Who::Cookie(&session)] {
        for path in &addresses {
            let answer = get(&format!("{url}{path}"), who);
            assert!(answer.status < 500, "{path}: {}", answer.body);
            for secret in [SOURCE_SECRET, STDERR_SECRET, LISTENER_SECRET] {
                assert!(!answer.body.contains(secret), "{path} shows {secret}");
            }
            if !path.starts_with("/api/") {
                for raw in [
                    "<img src=x onerror=alert('stderr')>",
                    "<img src=x onerror=alert(5)>",
                    "<img src=x onerror=alert(6)>",
                ] {
                    assert!(!answer.body.contains(raw), "{path} holds {raw} as HTML");
                }
            }
        }
    }
    let page = get(
        &format!("{url}/submissions/{attacker_version}"),
        Who::Cookie(&session),
    );
    assert!(
        page.body.contains("&lt;img src=x onerror=alert(5)&gt;.txt"),
        "the file list shows the HTML name as text: {}",
        page.body
    );
    let team_page = get(&format!("{url}/teams/attackers"), Who::Nobody);
    assert!(
        team_page
            .body
            .contains("&lt;img src=x onerror=alert(6)&gt; v1"),
        "the team's page shows the HTML label as text: {}",
        team_page.body
    );

    // The control: the victim sees its own secrets, so they were there to find.
    let own = get(
        &format!("{url}/api/matches/{m}/record"),
        Who::Token(&victim),
    );
    assert!(own.body.contains(STDERR_SECRET), "the victim's stderr");
    let file = get(
        &format!("{url}/submissions/{victim_version}/files/bot.py"),
        Who::Token(&victim),
    );
    assert!(file.body.contains(SOURCE_SECRET), "the victim's source");
    let team = get(&format!("{url}/api/teams/victims"), Who::Token(&victim));
    assert_eq!(team.status, 200, "{}", team.body);
    assert!(!server.stderr().contains("panicked"), "{}", server.stderr());
}
