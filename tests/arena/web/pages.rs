//! The pages as a contest reads them (issue 41): a crashing bot's forfeits in plain view, the
//! organiser's irreversible actions behind a second step, and tables that read well.
//!
//! "Team Alpha" submits the Python kit's directory (labelled with the directory's name); the
//! "crashers" submit the kit made to exit at its third turn whenever "Alpha" sits at its table
//! (so it passes its check, which seats built-in bots, and crashes in the ladder), writing a
//! mark to stderr first. Over HTTP: each match page lists its forfeits (cause, move, time) above
//! the results, with the stderr tail for the crashers and the organiser only; the crashers'
//! page counts the crashes and links to the worst match; every confirmable form acts only with
//! `confirm=yes`. In Chromium (`tests/browser/pages.mjs`), as the organiser, at 1280 and 800 px
//! wide: no word of a table's cell, header or badge broken across lines, numeric headers
//! aligned with their numbers, no doubled word in a title; Enter in the re-judge form's fields
//! and on a question page acts on nothing.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use super::pinning::{csrf_of, set_matchmaker};
use super::{Arena, Server, Who, get, kit, login, post, submit, version_id, wait_for};

const BOTS: (u32, u32) = (59700, 59799);
const BUILDS: (u32, u32) = (59800, 59899);
const ALPHA: &str = "Team Alpha";
const CRASHERS: &str = "crashers";
const CRASH_MARK: &str = "CRASH-MARK-OF-CRASHERS-5150";
const FORM: &str = "application/x-www-form-urlencoded";

/// The Python kit, made to exit (status 3) at its third turn of a round when a seat named
/// "Alpha" is at the table, after writing [`CRASH_MARK`] to stderr.
fn crashing_bot(dir: &Path) -> PathBuf {
    let source = std::fs::read_to_string(kit("python").join("bot.py")).unwrap();
    let (head, rest) = source
        .split_once("\nimport ")
        .expect("the kit imports something");
    let wrapper = format!(
        r#"
import json as _json, os as _os, sys as _sys


class _Doomed:
    """The kit's stdin, read line by line: exits at the third turn of a round against Alpha."""

    def __init__(self, inner):
        self.inner, self.turns, self.alpha = inner, 0, False

    def __iter__(self):
        return self

    def __next__(self):
        line = self.inner.readline()
        if not line:
            raise StopIteration
        msg = _json.loads(line) if line.strip() else {{}}
        if msg.get("type") == "hello":
            self.alpha = any("Alpha" in s for s in msg.get("seats", []))
        if msg.get("type") == "start":
            self.turns = 0
        if msg.get("type") == "turn":
            self.turns += 1
            if self.alpha and self.turns >= 3:
                _sys.stderr.write("{CRASH_MARK} at my turn %d\n" % self.turns)
                _sys.stderr.flush()
                _os._exit(3)
        return line


_sys.stdin = _Doomed(_sys.stdin)
"#
    );
    let path = dir.join("bot.py");
    std::fs::write(&path, format!("{head}\n{wrapper}\nimport {rest}")).unwrap();
    path
}

/// The finished matches where the crashers forfeited, oldest first.
fn crashed_matches(arena: &Arena) -> Vec<i64> {
    arena.ids(&format!(
        "SELECT m.id FROM matches m JOIN match_seats s ON s.match_id = m.id
         JOIN versions v ON v.id = s.version_id JOIN teams t ON t.id = v.team_id
         WHERE m.state = 'done' AND t.name = '{CRASHERS}' AND s.forfeits > 0 ORDER BY m.id"
    ))
}

fn state_of(arena: &Arena, id: i64) -> String {
    arena
        .db()
        .query_row("SELECT state FROM matches WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .unwrap()
}

fn disabled(arena: &Arena, team: &str) -> bool {
    arena
        .db()
        .query_row("SELECT disabled FROM teams WHERE name = ?1", [team], |r| {
            r.get(0)
        })
        .unwrap()
}

#[test]
fn forfeits_show_at_the_top_destructive_forms_ask_first_and_tables_read_well() {
    let arena = Arena::init(&["--size", "6"], "");
    arena.own_uids(BOTS, BUILDS);
    let alpha = arena.team(ALPHA);
    let crashers = arena.team(CRASHERS);
    let server = Server::start(&arena, 1);
    let url = server.url.clone();

    // A directory is labelled with its name, not the archive's.
    let (code, out, err) = submit(&server, &alpha, &kit("python"), &["--wait"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let v = version_id(&out);
    let view = get(&format!("{url}/api/submissions/{v}"), Who::Token(&alpha)).json();
    assert_eq!(view["label"], "python", "{view}");
    let tmp = crate::check::shared_tempdir("rollarena-pages-");
    let bot = crashing_bot(tmp.path());
    let (code, out, err) = submit(&server, &crashers, &bot, &["--wait"]);
    assert_eq!(code, 0, "the crashing bot passes its check: {out}\n{err}");

    wait_for(
        "three matches with crashes",
        Duration::from_secs(300),
        || crashed_matches(&arena).len() >= 3,
    );
    let organiser = login(&url, &arena.organiser);
    let csrf = csrf_of(&get(&format!("{url}/organiser"), Who::Cookie(&organiser)).body);
    set_matchmaker(&url, &organiser, &csrf, true);
    wait_for("the ladder drained", Duration::from_secs(300), || {
        arena.count("SELECT COUNT(*) FROM matches WHERE state IN ('queued', 'running')") == 0
    });
    let crashed = crashed_matches(&arena);
    let m = crashed[0];

    // Forfeits at the top of the match page: cause, move, time; stderr for its own only.
    let forfeits_in_db = arena.count(&format!(
        "SELECT SUM(forfeits) FROM match_seats WHERE match_id = {m}"
    ));
    let crashers_session = login(&url, &crashers);
    for (label, who, sees) in [
        ("the public", Who::Nobody, false),
        ("Team Alpha", Who::Token(&alpha), false),
        ("the crashers", Who::Token(&crashers), true),
        (
            "the crashers' session",
            Who::Cookie(&crashers_session),
            true,
        ),
        ("the organiser", Who::Token(&arena.organiser), true),
    ] {
        let page = get(&format!("{url}/matches/{m}"), who);
        assert_eq!(page.status, 200, "{label}: {}", page.body);
        let (list, results) = (
            page.body
                .find("id=\"forfeit-list\"")
                .expect("a forfeit list"),
            page.body.find("id=\"seats\"").unwrap(),
        );
        assert!(
            list < results,
            "{label}: the forfeits come after the results"
        );
        let section = &page.body[list..results];
        // Three crashes in a row, then the bot is withdrawn: its last round a forfeit at once.
        assert_eq!(
            section.matches("<span class=\"badge fail\">").count() as i64,
            forfeits_in_db,
            "{label}: every forfeit listed: {section}"
        );
        assert!(
            section.contains("<span class=\"badge fail\">crash</span>")
                && section.contains("the bot exited with status 3"),
            "{label}: {section}"
        );
        assert_eq!(section.contains(CRASH_MARK), sees, "{label}: {section}");
        let api = get(&format!("{url}/api/matches/{m}"), who).json();
        let rows = api["forfeits"].as_array().unwrap();
        assert_eq!(rows.len() as i64, forfeits_in_db, "{label}: {api}");
        for f in rows {
            assert_eq!(f["team"], CRASHERS, "{f}");
            let (kind, ply) = (f["kind"].as_str().unwrap(), f["ply"].as_u64().unwrap());
            let tail = f["stderr_tail"].as_str().unwrap_or("");
            assert!(f["at_ms"].as_f64().unwrap() >= 0.0, "{f}");
            if kind == "crash" {
                // Its third turn: the ply is 5 or 6, whoever moved first.
                assert!((5..=6).contains(&ply), "{label}: {f}");
                assert_eq!(tail.contains(CRASH_MARK), sees, "{label}: {f}");
            } else {
                assert_eq!((kind, ply), ("startup", 0), "{label}: {f}");
                assert!(
                    f["detail"].as_str().unwrap().starts_with("withdrawn"),
                    "{f}"
                );
                assert!(sees || tail.is_empty(), "{label}: {f}");
            }
        }
    }

    // The crashers' page counts their crashes over their last matches and links to the worst.
    let team = get(&format!("{url}/api/teams/{CRASHERS}"), Who::Nobody).json();
    let summary = &team["forfeits"];
    let recent = arena.count(&format!(
        "SELECT SUM(f) FROM (SELECT SUM(s.forfeits) AS f FROM match_seats s
         JOIN versions v ON v.id = s.version_id JOIN teams t ON t.id = v.team_id
         JOIN matches m ON m.id = s.match_id
         WHERE t.name = '{CRASHERS}' AND m.state = 'done'
         GROUP BY s.match_id ORDER BY s.match_id DESC LIMIT 20)"
    ));
    let crashes = summary["crashes"].as_i64().unwrap();
    assert!(crashes >= 3, "{summary}");
    assert_eq!(
        crashes + summary["withdrawn"].as_i64().unwrap(),
        recent,
        "{summary}"
    );
    assert_eq!(
        (summary["timeouts"].as_i64(), summary["illegal"].as_i64()),
        (Some(0), Some(0)),
        "{summary}"
    );
    let worst = summary["worst"]["id"].as_i64().unwrap();
    let page = get(&format!("{url}/teams/{CRASHERS}"), Who::Nobody).body;
    assert!(
        page.contains("id=\"forfeit-summary\"")
            && page.contains(&format!("{crashes} crashes"))
            && page.contains(&format!("href=\"/matches/{worst}\"")),
        "{page}"
    );
    let alpha_page = get(&format!("{url}/teams/Team%20Alpha"), Who::Nobody).body;
    assert!(
        alpha_page.contains("No forfeit in its last"),
        "{alpha_page}"
    );
    assert!(
        alpha_page.contains("<h1>Team Alpha</h1>") && !alpha_page.contains("Team Team"),
        "{alpha_page}"
    );

    // Every confirmable form: without `confirm=yes` a question, and nothing done.
    let send = |path: &str, fields: &str| {
        post(
            &format!("{url}{path}"),
            Who::Cookie(&organiser),
            FORM,
            format!("csrf={csrf}&{fields}").as_bytes(),
        )
    };
    let asked = |path: &str, fields: &str, question: &str| {
        for confirm in ["", "&confirm=", "&confirm=no"] {
            let a = send(path, &format!("{fields}{confirm}"));
            assert_eq!(a.status, 200, "{path} {fields}{confirm}: {}", a.body);
            assert!(
                a.body.contains(question)
                    && a.body.contains("id=\"confirm-yes\"")
                    && a.body.contains("autofocus"),
                "{path} {fields}{confirm}: {}",
                a.body
            );
        }
    };
    let void = crashed[1];
    asked(
        "/organiser/rejudge",
        &format!("action=void&match={void}&reason=test"),
        &format!("Void match #{void}?"),
    );
    asked(
        "/organiser/rejudge",
        &format!("action=rerun&match={void}"),
        &format!("Play match #{void} again?"),
    );
    asked(
        "/organiser/rejudge",
        "action=recompute&match=",
        "Recompute every rating?",
    );
    asked(
        "/organiser/freeze",
        "action=now&at=",
        "Close the contest now?",
    );
    asked(
        "/organiser/team",
        &format!("team={CRASHERS}&action=disable"),
        "Disable Team crashers?",
    );
    asked(
        "/organiser/team",
        &format!("team={CRASHERS}&action=token"),
        "a new token?",
    );
    assert_eq!(state_of(&arena, void), "done");
    assert!(!disabled(&arena, CRASHERS));
    assert_eq!(
        get(&format!("{url}/api/whoami"), Who::Token(&crashers)).status,
        200,
        "the old token still works"
    );
    assert!(get(&format!("{url}/api/final"), Who::Nobody).json()["closing"].is_null());
    // A final cannot start while the contest is open: refused at once, without a question.
    let open = send("/organiser/final", "schedule=round-robin");
    assert_eq!(open.status, 400, "{}", open.body);
    assert!(
        open.body.contains("the contest is still open"),
        "{}",
        open.body
    );
    // A match that is not there is refused at once, without a question.
    let none = send("/organiser/rejudge", "action=void&match=999999");
    assert_eq!(none.status, 400, "{}", none.body);
    assert!(
        none.body.contains("there is no match 999999"),
        "{}",
        none.body
    );

    // Confirmed, they act.
    let a = send(
        "/organiser/rejudge",
        &format!("action=void&match={void}&reason=test&confirm=yes"),
    );
    assert_eq!(a.status, 303, "{}", a.body);
    assert_eq!(state_of(&arena, void), "void");
    let a = send(
        "/organiser/team",
        &format!("team={CRASHERS}&action=token&confirm=yes"),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(a.body.contains("id=\"new-token\""), "{}", a.body);
    assert_eq!(
        get(&format!("{url}/api/whoami"), Who::Token(&crashers)).status,
        401
    );
    let a = send(
        "/organiser/team",
        &format!("team={CRASHERS}&action=disable&confirm=yes"),
    );
    assert_eq!(a.status, 303, "{}", a.body);
    assert!(disabled(&arena, CRASHERS));

    // A disabled team is marked on the leaderboard, not gone.
    let lb = get(&format!("{url}/api/leaderboard"), Who::Nobody).json();
    assert!(
        lb["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["team"] != CRASHERS),
        "{lb}"
    );
    assert_eq!(lb["disabled"][0]["team"], CRASHERS, "{lb}");
    let board = get(&format!("{url}/"), Who::Nobody).body;
    let at = board
        .find("id=\"disabled-teams\"")
        .expect("the disabled teams' table");
    assert!(
        board[at..].contains(CRASHERS) && board[at..].contains(">disabled<"),
        "{board}"
    );

    if crate::chromium::ready("the pages' browser test") {
        // A registered worker: the organiser's page shows the workers' table too.
        arena.token("worker", "a-worker-with-a-long-name-on-host-17");
        let kept = crashed[2];
        let expect = json!({
            "url": url,
            "token": arena.organiser,
            "widths": [1280, 800],
            "pages": [
                "/",
                "/matches",
                format!("/matches/{m}"),
                format!("/matches/{void}"),
                "/teams/Team%20Alpha",
                format!("/teams/{CRASHERS}"),
                format!("/submissions/{v}"),
                "/organiser",
            ],
            "rejudge": kept,
            "team": ALPHA,
        });
        let out =
            crate::chromium::run_script("pages.mjs", &expect, &tmp.path().join("expect.json"));
        assert!(out.contains("ok: Enter"), "{out}");
        // Enter pressed in every field, and on every question: nothing happened.
        assert_eq!(state_of(&arena, kept), "done");
        assert!(!disabled(&arena, ALPHA));
        let final_state: Value = get(&format!("{url}/api/final"), Who::Nobody).json();
        assert!(final_state["closing"].is_null(), "{final_state}");
    }
    assert!(server.stop().success());
}

/// One snapshot per render: while a writer adds finished matches (about a thousand a second,
/// each in one transaction with the versions' match counts), every answer for a team's page
/// agrees with itself: its versions' matches (read first) and its matches against each
/// opponent (read last) are the same count. Read outside one transaction, a match committed between
/// the two reads made them differ ("1,407 matches in one table and 1,410 in the next").
#[test]
fn every_table_of_a_team_page_is_read_from_one_snapshot() {
    let arena = Arena::init(&["--size", "6"], "");
    let _ = (arena.team("a"), arena.team("b"));
    let db = arena.db();
    db.execute_batch(
        "INSERT INTO state (key, value) VALUES ('paused', 'true')
             ON CONFLICT (key) DO UPDATE SET value = 'true';
         INSERT INTO versions (id, team_id, label, language, source_sha256, source_bytes,
             submitted_at, state, mu, sigma)
         SELECT CASE name WHEN 'a' THEN 101 ELSE 102 END, id, 'v', 'python', 'x', 1, 0,
             'ready', 25.0, 8.3
         FROM teams WHERE name IN ('a', 'b');",
    )
    .unwrap();
    let server = Server::start(&arena, 0);
    let url = server.url.clone();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (stop, mut conn) = (stop.clone(), arena.db());
        // As the server writes: no sync to the disk at each commit (WAL, NORMAL).
        conn.execute_batch("PRAGMA synchronous = NORMAL").unwrap();
        std::thread::spawn(move || {
            let mut written = 0u32;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                let tx = conn.transaction().unwrap();
                let id = 1000 + i64::from(written);
                tx.execute(
                    "INSERT INTO matches (id, created_at, state, kind, seed, rounds, finished_at)
                     VALUES (?1, 0, 'done', 'ladder', 1, 4, 1)",
                    [id],
                )
                .unwrap();
                tx.execute(
                    "INSERT INTO match_seats (match_id, seat, version_id, points, rank)
                     SELECT ?1, id - 101, id, 1.0, id - 100 FROM versions WHERE id IN (101, 102)",
                    [id],
                )
                .unwrap();
                tx.execute(
                    "UPDATE versions SET matches = matches + 1 WHERE id IN (101, 102)",
                    [],
                )
                .unwrap();
                tx.commit().unwrap();
                written += 1;
                // Thousands a second would slow the reads down to a few.
                std::thread::sleep(Duration::from_micros(500));
            }
            written
        })
    };
    let mut reads = 0;
    let started = std::time::Instant::now();
    while started.elapsed() < Duration::from_secs(3) {
        let team = get(&format!("{url}/api/teams/a"), Who::Nobody).json();
        let versions: i64 = team["versions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["matches"].as_i64().unwrap())
            .sum();
        let against: i64 = team["opponents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["matches"].as_i64().unwrap())
            .sum();
        assert_eq!(versions, against, "read {reads}: one answer, two counts");
        reads += 1;
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let written = writer.join().unwrap();
    eprintln!("{reads} reads of a team while {written} matches were written");
    // On the server before one snapshot per render, about one answer in 15 disagreed with a
    // writer of 160 matches in 150 reads.
    assert!(
        reads >= 20 && written >= 200,
        "the writer wrote {written} matches in {reads} reads: too few to test"
    );
    assert!(server.stop().success());
}
