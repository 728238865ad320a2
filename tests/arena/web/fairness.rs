//! Fair builds (issue 40), on the real server with one builder: team A sends ten uploads whose
//! build is slow, then team B sends one. A's queued version is superseded by each next one
//! (each says by which, through the API, on the team's page and in `submit --wait`), and B's
//! build starts after at most one of A's (teams are served round-robin). A team's 13th
//! upload within the hour is refused with HTTP 429, a `Retry-After` header and a message that
//! says when the next is accepted: through the API, the web form and `rollarena submit`.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::{Arena, Server, Who, get, login, multipart, post, submit, version_id, wait_for};
use crate::check::rollarena;

/// A build that takes a few seconds; the bot then fails its check at once (it says nothing),
/// which is all this test needs of it.
const SLOW: &str = r#"
[[recipes]]
name = "slowsh"
main = "bot.sh"
extensions = []
build = "sleep 3"
run = "/bin/sh bot.sh"
"#;

const UIDS: [(u32, u32); 2] = [(65100, 65199), (65200, 65299)];

/// Uploads `bot.sh` for `token` through the API; the answer.
fn upload(server: &Server, token: &str, n: usize) -> super::Answer {
    let (content_type, body) = multipart(&[
        ("file", Some("bot.sh"), format!("exit {n}\n").as_bytes()),
        ("language", None, b"slowsh"),
    ]);
    post(
        &format!("{}/api/submissions", server.url),
        Who::Token(token),
        &content_type,
        &body,
    )
}

fn uploaded(server: &Server, token: &str, n: usize) -> i64 {
    let answer = upload(server, token, n);
    assert_eq!(answer.status, 201, "{}", answer.body);
    answer.json()["id"].as_i64().unwrap()
}

/// When version `id`'s build started, and when it was submitted (ms).
fn started(arena: &Arena, id: i64) -> Option<(i64, i64)> {
    arena
        .db()
        .query_row(
            "SELECT build_started_at, submitted_at FROM versions WHERE id = ?1",
            [id],
            |r| {
                let submitted: i64 = r.get(1)?;
                Ok(r.get::<_, Option<i64>>(0)?.map(|s| (s, submitted)))
            },
        )
        .unwrap()
}

#[test]
fn one_team_cannot_hold_the_builder_and_uploads_are_rate_limited() {
    let arena = Arena::init(&[], SLOW);
    arena.own_uids(UIDS[0], UIDS[1]);
    let toml = arena.dir().join("arena.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    assert!(text.contains("workers = 0") && text.contains("per_hour = 12"));
    std::fs::write(&toml, text.replace("workers = 0", "workers = 1")).unwrap();
    let (a, b, c) = (arena.team("a"), arena.team("b"), arena.team("c"));
    let server = Server::start(&arena, 0);

    let a_versions: Vec<i64> = (1..=10).map(|n| uploaded(&server, &a, n)).collect();
    let b1 = uploaded(&server, &b, 1);

    // C waits for its upload, which its next upload supersedes before it is built.
    let tmp = crate::check::shared_tempdir("rollarena-fair-");
    std::fs::write(tmp.path().join("bot.sh"), "exit 0\n").unwrap();
    let mut waiting = Command::new(rollarena())
        .arg("submit")
        .args([
            "--server",
            &server.url,
            "--token",
            &c,
            "--language",
            "slowsh",
        ])
        .arg("--wait")
        .arg(tmp.path().join("bot.sh"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(waiting.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let c1 = version_id(&first);
    let c2 = uploaded(&server, &c, 2);
    let status = waiting.wait().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    assert_eq!(status.code(), Some(1), "{rest}");
    assert!(
        rest.contains(&format!("version {c1} was superseded by version {c2}")),
        "{rest}"
    );

    // B's build starts after at most one of A's; C's newest goes before A's queued one too.
    wait_for(
        "B's and C's builds started",
        Duration::from_secs(120),
        || started(&arena, b1).is_some() && started(&arena, c2).is_some(),
    );
    let (b_start, b_submitted) = started(&arena, b1).unwrap();
    let before_b: Vec<i64> = a_versions
        .iter()
        .copied()
        .filter(|&v| started(&arena, v).is_some_and(|(s, _)| s <= b_start))
        .collect();
    eprintln!(
        "B's queue wait behind A's ten slow uploads: {:.1} s ({} of A's builds before it)",
        (b_start - b_submitted) as f64 / 1000.0,
        before_b.len()
    );
    assert!(before_b.len() <= 1, "A's builds before B's: {before_b:?}");
    // C's newest too: C had no build yet, A had one.
    let (c_start, _) = started(&arena, c2).unwrap();
    let before_c = a_versions
        .iter()
        .filter(|&&v| started(&arena, v).is_some_and(|(s, _)| s <= c_start))
        .count();
    assert!(before_c <= 1, "{before_c} of A's builds before C's");

    // A's uploads while one of its versions waited: each superseded by the next, never built
    // (the first too, when the builder had not taken it yet; the second to ninth always).
    let mut superseded = 0;
    for (k, &v) in a_versions[..9].iter().enumerate() {
        let view = get(
            &format!("{}/api/submissions/{v}", server.url),
            Who::Token(&a),
        )
        .json();
        if k == 0 && view["state"] != "superseded" {
            continue;
        }
        assert_eq!(view["state"], "superseded", "{view}");
        let next = a_versions[k + 1];
        assert!(
            view["failure"]
                .as_str()
                .unwrap()
                .starts_with(&format!("superseded by version {next}")),
            "{view}"
        );
        assert!(started(&arena, v).is_none(), "version {v} was built");
        superseded += 1;
    }
    assert!(superseded >= 8);
    let session = login(&server.url, &a);
    let page = get(&format!("{}/teams/a", server.url), Who::Cookie(&session)).body;
    assert!(
        page.contains("badge superseded")
            && page.contains(&format!("superseded by version {}", a_versions[2])),
        "the team's page shows the state"
    );

    // Twelve uploads an hour: A's 11th and 12th are taken, the 13th is refused.
    uploaded(&server, &a, 11);
    uploaded(&server, &a, 12);
    let refused = upload(&server, &a, 13);
    assert_eq!(refused.status, 429, "{}", refused.body);
    let retry: u64 = refused
        .header("retry-after")
        .expect("a Retry-After header")
        .parse()
        .unwrap();
    assert!((3000..=3600).contains(&retry), "Retry-After: {retry}");
    let message = refused.json()["error"].as_str().unwrap().to_string();
    assert!(
        message.contains("12 uploads in the last hour")
            && message.contains("per_hour")
            && message.contains("the next upload is accepted in"),
        "{message}"
    );
    // The form says the same on its page.
    let csrf = super::pinning::csrf_of(
        &get(&format!("{}/submit", server.url), Who::Cookie(&session)).body,
    );
    let (content_type, body) = multipart(&[
        ("csrf", None, csrf.as_bytes()),
        ("file", Some("bot.sh"), b"exit 13\n"),
        ("language", None, b"slowsh"),
    ]);
    let form = post(
        &format!("{}/submit", server.url),
        Who::Cookie(&session),
        &content_type,
        &body,
    );
    assert_eq!(form.status, 429, "{}", form.body);
    assert!(form.header("retry-after").is_some());
    assert!(
        form.body.contains("the next upload is accepted in"),
        "{}",
        form.body
    );
    // And `rollarena submit` prints it.
    let (code, out, err) = submit(
        &server,
        &a,
        &tmp.path().join("bot.sh"),
        &["--language", "slowsh"],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("429") && err.contains("the next upload is accepted in"),
        "{err}"
    );
    // Nothing of the refused uploads was stored.
    assert_eq!(
        arena.count(
            "SELECT COUNT(*) FROM versions WHERE team_id = (SELECT id FROM teams WHERE name = 'a')"
        ),
        12
    );
    assert!(server.stop().success());
}
