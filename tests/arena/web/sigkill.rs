//! Nothing lost: the server is killed with SIGKILL while a match is being played and a build
//! is running, then started again. No bot or build process survives it; every match finished
//! before the kill is there once, unchanged; the unfinished match and build run again; every
//! record holds its rounds once; and every version's ratings form one unbroken chain (each
//! match's rating before is the previous match's rating after, the last is the version's), so
//! no match was rated twice or skipped.

use std::time::Duration;

use super::{Arena, Server, kit, processes_of, submit, version_id, wait_for};

/// A C recipe whose build takes a while, so that the kill finds it building.
const SLOW_RECIPE: &str = r#"
[[recipes]]
name = "slowc"
main = "bot.c"
extensions = []
build = "sleep 12 && gcc -O2 -o bot bot.c -lm"
run = "bot"
"#;

/// The uids of this arena's bots and builds: ranges no other test uses, so that the processes
/// counted are this server's only while other tests run beside it.
const UIDS: [(u32, u32); 2] = [(62000, 62099), (62100, 62199)];

#[test]
fn a_killed_server_loses_nothing_and_leaves_no_process() {
    let arena = Arena::init(&[], SLOW_RECIPE);
    let toml = arena.dir().join("arena.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let text = text
        .replace(
            "bot_uids = \"60000-60999\"",
            &format!("bot_uids = \"{}-{}\"", UIDS[0].0, UIDS[0].1),
        )
        .replace(
            "uids = \"61000-61099\"",
            &format!("uids = \"{}-{}\"", UIDS[1].0, UIDS[1].1),
        );
    assert!(
        text.contains("62000-62099") && text.contains("62100-62199"),
        "{text}"
    );
    std::fs::write(&toml, text).unwrap();
    let token_a = arena.team("a");
    let token_b = arena.team("b");
    let token_c = arena.team("c");
    let server = Server::start(&arena, 1);

    // Bots that take a second to start: a match lasts long enough to be caught running.
    let tmp = crate::check::shared_tempdir("rollarena-slow-");
    let source = std::fs::read_to_string(kit("python").join("bot.py")).unwrap();
    let (head, rest) = source.split_once("\nimport ").unwrap();
    let slow = format!("{head}\nimport time as _t; _t.sleep(1)\nimport {rest}");
    std::fs::write(tmp.path().join("bot.py"), slow).unwrap();
    for token in [&token_a, &token_b] {
        let (code, out, err) = submit(&server, token, &tmp.path().join("bot.py"), &["--wait"]);
        assert_eq!(code, 0, "{out}{err}");
    }
    wait_for("two finished matches", Duration::from_secs(300), || {
        arena.count("SELECT COUNT(*) FROM matches WHERE state = 'done'") >= 2
    });
    let (code, out, err) = submit(&server, &token_c, &kit("c"), &["--language", "slowc"]);
    assert_eq!(code, 0, "{out}{err}");
    let building = version_id(&out);
    wait_for(
        "a build and a match under way",
        Duration::from_secs(120),
        || {
            arena.count(&format!(
                "SELECT COUNT(*) FROM versions WHERE id = {building} AND state = 'building'"
            )) == 1
                && arena.count("SELECT COUNT(*) FROM matches WHERE state = 'running'") >= 1
        },
    );
    assert!(
        !processes_of(&UIDS).is_empty(),
        "bots and the build run as the arena's uids"
    );
    let running: Vec<i64> = arena.ids("SELECT id FROM matches WHERE state = 'running'");
    let done_before = arena.count("SELECT COUNT(*) FROM matches WHERE state = 'done'");
    let before: Vec<String> = arena
        .db()
        .prepare(
            "SELECT s.match_id || ':' || s.seat, s.mu_after || ',' || s.sigma_after
                  FROM match_seats s JOIN matches m ON m.id = s.match_id WHERE m.state = 'done'",
        )
        .unwrap()
        .query_map([], |r| {
            Ok(format!(
                "{}={}",
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    server.kill();

    // No bot or build outlives the server (they die with it, by their parent-death signal).
    wait_for(
        "every bot and build process gone",
        Duration::from_secs(30),
        || processes_of(&UIDS).is_empty(),
    );

    let server = Server::start(&arena, 1);
    wait_for(
        "the killed build done again",
        Duration::from_secs(300),
        || {
            arena.count(&format!(
                "SELECT COUNT(*) FROM versions WHERE id = {building} AND state = 'ready'"
            )) == 1
        },
    );
    let running_list = running
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    wait_for(
        "the killed match played again",
        Duration::from_secs(300),
        || {
            arena.count(&format!(
                "SELECT COUNT(*) FROM matches WHERE id IN ({running_list}) AND state = 'running'"
            )) == 0
        },
    );
    let status = server.stop();
    assert!(status.success());
    assert!(
        processes_of(&UIDS).is_empty(),
        "no process left after the stop"
    );

    let conn = arena.db();
    // The matches finished before the kill: there, once, unchanged.
    for seat in &before {
        let (key, value) = seat.split_once('=').unwrap();
        let (m, s) = key.split_once(':').unwrap();
        let now: String = conn
            .query_row(
                "SELECT s.mu_after || ',' || s.sigma_after FROM match_seats s JOIN matches m
                 ON m.id = s.match_id WHERE m.state = 'done' AND s.match_id = ?1 AND s.seat = ?2",
                [m, s],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(&now, value, "match {m} seat {s} changed after the restart");
    }
    // The killed match: done now (or given up with its reason), never left running.
    for id in &running {
        let state: String = conn
            .query_row("SELECT state FROM matches WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .unwrap();
        assert!(
            ["done", "queued", "failed"].contains(&state.as_str()),
            "match {id}: {state}"
        );
    }
    // Every finished match's record holds each of its rounds once.
    let done: Vec<(i64, i64, String)> = conn
        .prepare("SELECT id, rounds, record_path FROM matches WHERE state = 'done'")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(
        done.len() as i64 > done_before,
        "matches played after the restart"
    );
    for (id, rounds, path) in &done {
        let (records, _) = rollarena::record::read_records(&arena.dir().join(path)).unwrap();
        let mut numbers: Vec<u32> = records.iter().map(|r| r.round).collect();
        numbers.sort();
        assert_eq!(
            numbers,
            (1..=*rounds as u32).collect::<Vec<_>>(),
            "match {id}'s record"
        );
    }
    // Ratings: one unbroken chain per version, and the version's count is its rated matches.
    let versions = arena.ids("SELECT id FROM versions WHERE state = 'ready'");
    for v in versions {
        let chain: Vec<(f64, f64, f64, f64)> = conn
            .prepare(
                "SELECT s.mu_before, s.sigma_before, s.mu_after, s.sigma_after
                 FROM match_seats s JOIN matches m ON m.id = s.match_id
                 WHERE s.version_id = ?1 AND m.rated = 1 ORDER BY m.finished_at, m.id",
            )
            .unwrap()
            .query_map([v], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for pair in chain.windows(2) {
            assert_eq!(
                (pair[0].2, pair[0].3),
                (pair[1].0, pair[1].1),
                "version {v}: a rating applied twice or skipped"
            );
        }
        let (mu, sigma, matches): (f64, f64, i64) = conn
            .query_row(
                "SELECT mu, sigma, matches FROM versions WHERE id = ?1",
                [v],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(
            matches,
            chain.len() as i64,
            "version {v}'s count of rated matches"
        );
        if let Some(last) = chain.last() {
            assert_eq!(
                (mu, sigma),
                (last.2, last.3),
                "version {v}'s rating is its last match's"
            );
        }
    }
}
