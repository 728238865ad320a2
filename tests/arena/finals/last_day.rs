//! One arena's last day, in order: the ladder, the closing time announced then reached,
//! re-judging, the round-robin final, and the export served again.

use std::collections::BTreeMap;
use std::time::Duration;

use super::{arena, arena_cmd, close, final_rounds, published, ratings, teams};
use crate::arena::web::{
    Arena, Server, Who, get, get_with, kit, login, multipart, post, submit, wait_for,
};

/// Each version's (mu, sigma, rated matches) computed here from the done ladder matches in the
/// order they were counted: Weng-Lin from each match's ranks, as the ladder applies it.
fn expected(arena: &Arena) -> BTreeMap<i64, (f64, f64, i64)> {
    let conn = arena.db();
    let (mu0, sigma0) = rollarena::arena::rating::initial();
    let mut out: BTreeMap<i64, (f64, f64, i64)> = conn
        .prepare("SELECT id FROM versions")
        .unwrap()
        .query_map([], |r| r.get::<_, i64>(0))
        .unwrap()
        .map(|id| (id.unwrap(), (mu0, sigma0, 0)))
        .collect();
    let order: Vec<i64> = conn
        .prepare(
            "SELECT id FROM matches WHERE state = 'done' AND kind != 'final'
             ORDER BY COALESCE(counted_seq, 0), finished_at, id",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for id in order {
        let seats: Vec<(i64, u32)> = conn
            .prepare("SELECT version_id, rank FROM match_seats WHERE match_id = ?1 ORDER BY seat")
            .unwrap()
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let input: Vec<(f64, f64, u32)> = seats
            .iter()
            .map(|&(v, rank)| (out[&v].0, out[&v].1, rank))
            .collect();
        let after = rollarena::arena::rating::update(&input);
        for (&(v, _), &(mu, sigma)) in seats.iter().zip(&after) {
            let e = out.get_mut(&v).unwrap();
            *e = (mu, sigma, e.2 + 1);
        }
    }
    out
}

fn as_map(r: &[(i64, f64, f64, i64, Option<String>)]) -> BTreeMap<i64, (f64, f64, i64)> {
    r.iter().map(|x| (x.0, (x.1, x.2, x.3))).collect()
}

fn done_ladder(arena: &Arena) -> Vec<i64> {
    arena
        .db()
        .prepare("SELECT id FROM matches WHERE state = 'done' AND kind != 'final' ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn freeze_rejudge_final_and_export() {
    let arena = arena();
    let server = Server::start(&arena, 2);
    let names = ["Alpha", "Bravo", "Charlie", "Delta"];
    let teams = teams(&arena, &server, &names);
    wait_for("eight ladder matches", Duration::from_secs(600), || {
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'done'") >= 8
    });

    // A closing time ahead: announced on every page; a time in the past is refused; taken back.
    let ahead =
        humantime::format_rfc3339_seconds(std::time::SystemTime::now() + Duration::from_secs(3600))
            .to_string();
    // Set through the organiser's page (its form and CSRF token).
    let cookie = login(&server.url, &arena.organiser);
    let organiser = get(&format!("{}/organiser", server.url), Who::Cookie(&cookie)).body;
    assert!(organiser.contains("id=\"last-day\""), "{organiser}");
    let csrf = organiser
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap()
        .to_string();
    let form = |action: &str, at: &str| {
        post(
            &format!("{}/organiser/freeze", server.url),
            Who::Cookie(&cookie),
            "application/x-www-form-urlencoded",
            format!("csrf={csrf}&action={action}&at={at}").as_bytes(),
        )
    };
    assert_eq!(form("at", &ahead).status, 303);
    let page = get(&format!("{}/", server.url), Who::Nobody).body;
    assert!(page.contains("Submissions close at"), "{page}");
    let refused = form("at", "yesterday");
    assert_eq!(refused.status, 400);
    assert!(refused.body.contains("RFC 3339"), "{}", refused.body);
    let (code, _, err) = arena_cmd(&arena, &["freeze", "--at", "2001-01-01T00:00:00Z"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("in the past") && err.contains("--now"),
        "{err}"
    );
    // Taken back through the organiser's JSON API (a team's token is refused).
    let undo = br#"{"action": "undo"}"#;
    let url = format!("{}/api/final/closing", server.url);
    let a = post(&url, Who::Token(&teams[0].0), "application/json", undo);
    assert_eq!(a.status, 403, "{}", a.body);
    let a = post(&url, Who::Token(&arena.organiser), "application/json", undo);
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(a.json()["closing"].is_null());
    assert!(
        !get(&format!("{}/", server.url), Who::Nobody)
            .body
            .contains("id=\"closing\"")
    );

    // Closed: submissions refused (HTTP and `submit`), pages say so, the ladder stops.
    close(&arena);
    let (code, _, err) = arena_cmd(&arena, &["freeze", "--undo"]);
    assert_eq!(code, 2);
    assert!(err.contains("closed at"), "{err}");
    let (code, out, err) = submit(&server, &teams[0].0, &kit("python"), &[]);
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(err.contains("the contest closed at"), "{err}");
    let bot = std::fs::read(kit("python").join("bot.py")).unwrap();
    let (ct, body) = multipart(&[("file", Some("bot.py"), &bot)]);
    let answer = post(
        &format!("{}/api/submissions", server.url),
        Who::Token(&teams[1].0),
        &ct,
        &body,
    );
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert!(
        answer.json()["error"]
            .as_str()
            .unwrap()
            .starts_with("the contest closed at"),
        "{}",
        answer.body
    );
    for path in ["/", "/matches", &format!("/teams/{}", names[2])] {
        let page = get(&format!("{}{path}", server.url), Who::Nobody).body;
        assert!(
            page.contains("id=\"closing\"") && page.contains("The contest is closed"),
            "{path}: {page}"
        );
    }
    // The replay viewer opened alone carries the banner; in the match page's frame, whose
    // page carries it, it does not.
    let done = arena.count("SELECT MIN(id) FROM matches WHERE state = 'done'");
    let replay = format!("{}/matches/{done}/replay", server.url);
    let alone = get_with(&replay, Who::Nobody, &[("Sec-Fetch-Dest", "document")]);
    assert_eq!(alone.status, 200);
    assert!(
        alone.body.contains("id=\"closing\"") && alone.body.contains("The contest is closed"),
        "{}",
        alone.body
    );
    let framed = get_with(&replay, Who::Nobody, &[("Sec-Fetch-Dest", "iframe")]);
    assert_eq!(framed.status, 200);
    assert!(!framed.body.contains("id=\"closing\""), "{}", framed.body);
    let ladder = arena.count("SELECT COUNT(*) FROM matches");
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(
        arena.count("SELECT COUNT(*) FROM matches"),
        ladder,
        "no new ladder match"
    );

    // Recomputing from scratch gives exactly what the ladder computed match by match.
    let incremental = ratings(&arena);
    let (code, _, err) = arena_cmd(&arena, &["rejudge", "--recompute"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(ratings(&arena), incremental, "recomputed from scratch");
    assert_eq!(as_map(&incremental), expected(&arena));

    // A voided match: never counts, its reason kept, the ratings those recomputed without it.
    let done = done_ladder(&arena);
    let voided = done[0];
    let (code, _, err) = arena_cmd(
        &arena,
        &[
            "rejudge",
            &voided.to_string(),
            "--void",
            "--reason",
            "a seat was misconfigured",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (state, error): (String, String) = arena
        .db()
        .query_row(
            "SELECT state, error FROM matches WHERE id = ?1",
            [voided],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(state, "void");
    assert!(error.contains("a seat was misconfigured"), "{error}");
    let after_void = ratings(&arena);
    assert_ne!(
        after_void, incremental,
        "voiding a match changes the ratings"
    );
    assert_eq!(as_map(&after_void), expected(&arena));
    let total: i64 = after_void.iter().map(|r| r.3).sum();
    assert_eq!(
        total,
        2 * (done.len() as i64 - 1),
        "every seat of every other match, once"
    );
    let (code, _, err) = arena_cmd(&arena, &["rejudge", &voided.to_string(), "--void"]);
    assert_eq!(code, 2);
    assert!(err.contains("void already"), "{err}");
    let (code, _, err) = arena_cmd(&arena, &["rejudge", "99999", "--rerun"]);
    assert_eq!(code, 2);
    assert!(err.contains("no match 99999"), "{err}");

    // A re-run match: played again by the workers (closed or not), its old record kept aside
    // (compressed, as it was stored), counted once.
    let rerun = done[1];
    let (code, _, err) = arena_cmd(&arena, &["rejudge", &rerun.to_string(), "--rerun"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        arena
            .dir()
            .join(format!("records/{rerun}.rejudged-1.jsonl.gz"))
            .is_file()
    );
    wait_for("the re-run match played", Duration::from_secs(300), || {
        arena.count(&format!(
            "SELECT COUNT(*) FROM matches WHERE id = {rerun} AND state = 'done'"
        )) == 1
    });
    let after_rerun = ratings(&arena);
    assert_eq!(as_map(&after_rerun), expected(&arena));
    let total: i64 = after_rerun.iter().map(|r| r.3).sum();
    assert_eq!(
        total,
        2 * (done.len() as i64 - 1),
        "the re-run match counted once"
    );
    let (code, _, err) = arena_cmd(&arena, &["rejudge", "--recompute"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(ratings(&arena), after_rerun);

    // The final: a round robin of the four active versions, played by the embedded workers.
    let (code, _, err) = arena_cmd(&arena, &["final", "--schedule", "knockout"]);
    assert_eq!(code, 2);
    assert!(err.contains("round-robin, gauntlet or swiss"), "{err}");
    let (code, _, err) = arena_cmd(
        &arena,
        &["final", "--schedule", "round-robin", "--rounds", "4"],
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = arena_cmd(&arena, &["final"]);
    assert_eq!(code, 2);
    assert!(err.contains("started already"), "{err}");
    let api = published(&server);
    assert_eq!(api["final"]["done"], 6, "{api}");
    assert_eq!(api["final"]["tables_scheduled"], 6, "{api}");
    assert_eq!(
        arena.count(
            "SELECT COUNT(*) FROM matches WHERE kind = 'final' AND rated = 0 AND state = 'done'"
        ),
        6
    );
    assert_eq!(ratings(&arena), after_rerun, "the final rates nothing");

    // Its standings are `tournament`'s aggregation of the same records: `rollarena merge`
    // folds the final's tournament.json and results.jsonl into standings of its own.
    let final_dir = arena.dir().join("final");
    let check = crate::check::shared_tempdir("rollarena-final-check-");
    let input = check.path().join("in");
    std::fs::create_dir(&input).unwrap();
    for f in ["tournament.json", "results.jsonl"] {
        std::fs::copy(final_dir.join(f), input.join(f)).unwrap();
    }
    let out = std::process::Command::new(crate::check::rollarena())
        .arg("merge")
        .arg(&input)
        .arg("--output")
        .arg(check.path().join("out"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = |p: std::path::PathBuf| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
    };
    let ours = read(final_dir.join("standings.json"));
    let theirs = read(check.path().join("out/standings.json"));
    assert_eq!(ours["standings"], theirs["standings"]);
    assert_eq!(ours["rounds_played"], 24);
    assert_eq!(api["standings"], ours);
    let bots: Vec<&str> = ours["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bot"].as_str().unwrap())
        .collect();
    for (name, (_, v)) in names.iter().zip(&teams) {
        assert!(bots.contains(&format!("{name} #{v}").as_str()), "{bots:?}");
    }

    // Published: the report, every record without any seat's stderr or logs, the standings on
    // the leaderboard.
    let report = get(&format!("{}/final/", server.url), Who::Nobody);
    assert_eq!(report.status, 200);
    assert!(
        report.body.contains("Content-Security-Policy"),
        "the report page"
    );
    // Served as `report` wrote it: the published report is not wrapped in the site's banner.
    let written =
        std::fs::read_to_string(arena.dir().join("final").join("report").join("index.html"))
            .unwrap();
    assert!(report.body == written, "the report page as written");
    let rounds = final_rounds(&arena.dir());
    assert_eq!(rounds.len(), 24);
    assert!(rounds.iter().all(|r| r.table.is_some()
        && r.stderr.iter().all(String::is_empty)
        && r.logs.is_empty()
        && r.forfeits.iter().all(|f| f.stderr_tail.is_empty())));
    let served = get(&format!("{}/final/results.jsonl", server.url), Who::Nobody);
    assert_eq!(served.status, 200);
    assert_eq!(served.body.lines().count(), 24);
    for bad in [
        "/final/../arena.db",
        "/final/%2e%2e/arena.toml",
        "/final/bots/../../arena.db",
    ] {
        let a = get(&format!("{}{bad}", server.url), Who::Nobody);
        assert_eq!(a.status, 404, "{bad}: {}", a.body);
        assert!(
            a.body.contains("The contest is closed"),
            "{bad}: {}",
            a.body
        );
    }
    let board = get(&format!("{}/", server.url), Who::Nobody).body;
    assert!(board.contains("id=\"final-standings\""), "{board}");
    let organiser = get(&format!("{}/organiser", server.url), Who::Cookie(&cookie)).body;
    assert!(organiser.contains("Published"), "{organiser}");
    let first_final: i64 = arena
        .db()
        .query_row("SELECT MIN(match_id) FROM final_tables", [], |r| r.get(0))
        .unwrap();
    let page = get(
        &format!("{}/matches/{first_final}", server.url),
        Who::Nobody,
    );
    assert_eq!(page.status, 200, "a final match's page");

    // Exported while the server runs; a second export to the same file refused; the archive
    // unpacked and served again shows the same leaderboard and final.
    let exports = crate::check::shared_tempdir("rollarena-export-");
    let file = exports.path().join("arena.tar.gz");
    let file_arg = file.to_str().unwrap();
    let (code, _, err) = arena_cmd(&arena, &["export", file_arg]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = arena_cmd(&arena, &["export", file_arg]);
    assert_eq!(code, 2);
    assert!(err.contains("exists already"), "{err}");
    let copy_tmp = crate::check::shared_tempdir("rollarena-copy-");
    let status = std::process::Command::new("tar")
        .arg("xzf")
        .arg(&file)
        .arg("-C")
        .arg(copy_tmp.path())
        .status()
        .unwrap();
    assert!(status.success());
    let copy = Arena {
        tmp: copy_tmp,
        organiser: arena.organiser.clone(),
    };
    assert!(
        copy.dir().join("arena.db").is_file()
            && copy.dir().join("final/report/index.html").is_file()
    );
    let leaderboard = get(&format!("{}/api/leaderboard", server.url), Who::Nobody).json();
    let copy_server = Server::start(&copy, 1);
    let copied = get(&format!("{}/api/leaderboard", copy_server.url), Who::Nobody).json();
    assert_eq!(copied["rows"], leaderboard["rows"]);
    assert_eq!(copied["matches"], leaderboard["matches"]);
    let copied_final = get(&format!("{}/api/final", copy_server.url), Who::Nobody).json();
    assert_eq!(copied_final["standings"], api["standings"]);
    assert_eq!(
        get(&format!("{}/final/", copy_server.url), Who::Nobody).status,
        200
    );
    let org = get(
        &format!("{}/api/whoami", copy_server.url),
        Who::Token(&copy.organiser),
    )
    .json();
    assert_eq!(
        org["role"], "organiser",
        "the organiser's token works on the copy"
    );
    assert!(copy_server.stop().success());
    assert!(server.stop().success());
}
