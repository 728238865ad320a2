//! A Rollerball match watched live on loopback: `rollarena serve` plays two teams with hostile
//! names (the Python kit, slowed to a few decisions a second so there is something to watch);
//! a raw SSE client records every message the server streams for one match, while Chromium
//! watches the match's page to its end and the leaderboard in another tab. Every message sent
//! before its round ended is checked against the finished record: no card of a hand or of the
//! deck, no sealed bid before the reveal, nothing of a move beyond what was announced.

use std::io::{BufRead, BufReader};
use std::time::{Duration, Instant};

use rollarena::record::RoundRecord;
use serde_json::{Value, json};

use super::projection::walk;
use crate::arena::wait_for;
use crate::arena::web::{Arena, Server, Who, get, kit, submit};

const TEAM_A: &str = "<img src=x onerror=alert(1)>";
const TEAM_B: &str = "\"><script>alert(2)</script>";

/// This arena's bot and build uids: ranges of the live tests' own.
const UIDS: [(u32, u32); 2] = [(63500, 63699), (63700, 63799)];

/// One server-sent event.
#[derive(Debug)]
struct Received {
    id: Option<usize>,
    event: String,
    data: String,
}

/// Reads a match's stream to its end: every event, in order. Retries while the match is
/// running but not yet streaming (its bots are starting).
fn record_stream(url: String) -> Vec<Received> {
    read_stream(&url, None, usize::MAX)
}

/// Reads up to `most` events of a stream, as a client that got message `last` already.
fn read_stream(url: &str, last: Option<usize>, most: usize) -> Vec<Received> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let started = Instant::now();
    let response = loop {
        let mut request = agent.get(url);
        if let Some(last) = last {
            request = request.header("Last-Event-ID", &last.to_string());
        }
        let r = request.call().expect("the stream answers");
        if r.status() == 200 {
            break r;
        }
        assert_eq!(r.status(), 204, "the stream of a match not yet in play");
        assert!(started.elapsed() < Duration::from_secs(60), "never in play");
        std::thread::sleep(Duration::from_millis(50));
    };
    let kind = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(kind.starts_with("text/event-stream"), "{kind}");
    let reader = BufReader::new(response.into_body().into_reader());
    let mut out = Vec::new();
    let (mut id, mut event, mut data) = (None, String::new(), String::new());
    for line in reader.lines() {
        let line = line.expect("the stream reads");
        if line.is_empty() {
            if !data.is_empty() {
                out.push(Received {
                    id: id.take(),
                    event: std::mem::take(&mut event),
                    data: std::mem::take(&mut data),
                });
                if out.len() >= most {
                    break;
                }
            }
            continue;
        }
        if line.starts_with(':') {
            continue; // a heartbeat
        }
        let (field, value) = line.split_once(':').unwrap_or((&line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "id" => id = value.parse().ok(),
            "event" => event = value.to_string(),
            "data" => data.push_str(value),
            _ => {}
        }
    }
    out
}

/// The checks of one round's messages (those before its `round_end`) against its record.
fn check_round(record: &RoundRecord, messages: &[&Value], end: &Value) {
    let r = record.round;
    let deal = record.moves[0]
        .effects
        .get("deal")
        .expect("the record keeps the deal");
    let deck = serde_json::to_string(&deal["deck"]).unwrap();
    assert!(deal["deck"].as_array().unwrap().len() > 10, "{deal}");
    let moves: Vec<&&Value> = messages.iter().filter(|m| m["type"] == "move").collect();
    assert_eq!(
        moves.len(),
        record.moves.len(),
        "round {r}: a message per move"
    );
    let mut revealed = false;
    let mut sealed_bids = 0;
    for m in messages {
        let text = m.to_string();
        assert!(!text.contains(&deck), "round {r}: the deck order in {text}");
        let mut keys = Vec::new();
        walk(m, &mut keys);
        for (k, v) in keys {
            assert!(
                !["deal", "secrets", "secret", "hands"].contains(&k),
                "round {r}: {k} in {text}"
            );
            if k == "hand" || k == "deck" {
                assert!(
                    v.is_number(),
                    "round {r}: a {k} that is not a count in {text}"
                );
            }
            if k == "pending" && !v.is_null() {
                assert!(v.get("card").is_none(), "round {r}: a drawn card in {text}");
            }
        }
    }
    for (m, rec) in moves.iter().zip(&record.moves) {
        assert_eq!(m["ply"], rec.ply);
        assert_eq!(m["seat"], rec.seat);
        let events = m["effects"]["events"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let bid = rec.mv.as_str().is_some_and(|s| s.starts_with("bid"));
        if bid {
            // Every bid shows sealed; the turn's last one reveals them all in its events.
            assert_eq!(m["move"], "bid (sealed)", "round {r}: a bid shown: {m}");
            sealed_bids += 1;
        } else {
            assert_eq!(m["move"], rec.mv, "round {r} move {}", rec.ply);
        }
        // Exactly what the record says of the move but its secrets.
        let mut public = rec.effects.clone();
        public.remove("deal");
        public.remove("secrets");
        assert_eq!(m["effects"], json!(public), "round {r} move {}", rec.ply);
        if !revealed && !events.iter().any(|e| e["event"] == "bids") {
            assert!(bid, "round {r}: a move before the bids were in: {m}");
        }
        if events.iter().any(|e| e["event"] == "bids") {
            revealed = true;
        }
        for p in m["state"]["players"]
            .as_array()
            .expect("the state's players")
        {
            if !revealed {
                assert!(
                    p["bid"].is_null() || p["bid"] == "sealed",
                    "round {r}: a bid before the reveal: {m}"
                );
            }
        }
    }
    assert!(sealed_bids > 0, "round {r}: no sealed bid was checked");
    // Once over, the round's record as the finished match's page shows it.
    let mut public = record.clone();
    rollarena::arena::records::strip(&mut public, &|_| false);
    assert_eq!(end["record"], json!(public), "round {r}'s record");
}

#[test]
fn a_rollerball_match_watched_live_shows_no_secret_before_its_round_ends() {
    let arena = Arena::init_game(
        "rollerball",
        &["--players", "2", "--rounds", "2", "--time", "2s"],
        "",
    );
    arena.own_uids(UIDS[0], UIDS[1]);
    let tokens = [arena.team(TEAM_A), arena.team(TEAM_B)];
    let server = Server::start(&arena, 1);

    // The Python kit, a random legal move after 30 ms: a few decisions a second to watch.
    let tmp = crate::check::shared_tempdir("rollarena-live-");
    let source = std::fs::read_to_string(kit("python").join("bot.py")).unwrap();
    let slow = source.replace(
        "        if self.strategy is None:\n            return legal[0]\n        return self.strategy(state, legal)\n",
        "        import random, time\n        time.sleep(0.03)\n        return random.choice(legal)\n",
    );
    assert_ne!(
        slow, source,
        "the kit's `choose` changed: this test replaces its body"
    );
    std::fs::write(tmp.path().join("bot.py"), slow).unwrap();
    for token in &tokens {
        let (code, out, err) = submit(&server, token, &tmp.path().join("bot.py"), &["--wait"]);
        assert_eq!(code, 0, "{out}{err}");
    }

    // The first match that starts.
    let mut id = 0;
    wait_for("a match in play", Duration::from_secs(120), || {
        id = arena
            .db()
            .query_row(
                "SELECT coalesce(min(id), 0) FROM matches WHERE state = 'running'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        id > 0
    });
    let url = format!("{}/api/matches/{id}/live", server.url);
    let stream = std::thread::spawn(move || record_stream(url));

    // Listed as in play, on the API and on the matches page.
    wait_for("the match listed in play", Duration::from_secs(60), || {
        let playing = get(&format!("{}/api/playing", server.url), Who::Nobody).json();
        playing.as_array().unwrap().iter().any(|m| m["id"] == id)
    });
    // A client that reconnects after message 1 gets message 2 next.
    let resumed = read_stream(&format!("{}/api/matches/{id}/live", server.url), Some(1), 1);
    assert_eq!(resumed[0].id, Some(2), "{resumed:?}");
    let page = get(&format!("{}/matches", server.url), Who::Nobody);
    assert!(
        page.body.contains(&format!("href=\"/matches/{id}\"")),
        "{}",
        page.body
    );
    assert!(page.body.contains("In play"));

    if crate::chromium::ready("the live match's browser test") {
        let expect = json!({
            "url": server.url,
            "match": id,
            "hostile": [TEAM_A, TEAM_B],
            "seconds": 240,
        });
        let out = crate::chromium::run_script("live.mjs", &expect, &tmp.path().join("expect.json"));
        eprintln!("{out}");
    }
    let events = stream.join().expect("the stream was read");
    wait_for("the match counted", Duration::from_secs(60), || {
        arena.count(&format!(
            "SELECT count(*) FROM matches WHERE id = {id} AND state = 'done'"
        )) == 1
    });

    // The stream: numbered from 0 without a gap, a round's messages, then its end.
    assert!(!events.is_empty());
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e.id, Some(i), "event {i}: {e:?}");
        assert_eq!(e.event, "", "event {i}: {e:?}");
    }
    let messages: Vec<Value> = events
        .iter()
        .map(|e| serde_json::from_str(&e.data).expect("JSON data"))
        .collect();
    assert_eq!(
        messages[0],
        json!({"type": "round", "round": 1, "rounds": 2})
    );
    assert_eq!(messages.last().unwrap()["type"], "end");
    let path: String = arena
        .db()
        .query_row("SELECT record_path FROM matches WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .unwrap();
    let (records, _) = rollarena::record::read_records(&arena.dir().join(path)).unwrap();
    assert!(!records.is_empty());
    let mut round: Vec<&Value> = Vec::new();
    let mut ended = 0;
    for m in &messages {
        if m["type"] == "round_end" {
            let record = &records[ended];
            assert_eq!(m["round"], record.round);
            check_round(record, &round, m);
            ended += 1;
            round.clear();
        } else {
            round.push(m);
        }
    }
    assert_eq!(ended, records.len(), "a round_end per round of the record");
    let moves = messages.iter().filter(|m| m["type"] == "move").count();
    let bytes: usize = events.iter().map(|e| e.data.len()).sum();
    let record_bytes: usize = records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap().len())
        .sum();
    eprintln!(
        "match {id}: {} messages ({moves} moves, {} rounds), {bytes} bytes of data ({} a move); \
         its record {record_bytes} bytes",
        messages.len(),
        records.len(),
        bytes / moves.max(1)
    );
    // Over: the stream answers 204, so browsers stop asking.
    let over = get(
        &format!("{}/api/matches/{id}/live", server.url),
        Who::Nobody,
    );
    assert_eq!(over.status, 204);
    let none = get(
        &format!("{}/api/matches/999999/live", server.url),
        Who::Nobody,
    );
    assert_eq!(none.status, 404);
    assert!(none.json()["error"].as_str().unwrap().contains("999999"));
}
