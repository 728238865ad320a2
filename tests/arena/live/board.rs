//! The live board of each game, watched in Chromium on loopback: `rollarena serve` with
//! `random` as an anchor and one team whose bot (a small Python program) plays a random legal
//! move after a pause, so that a match of two short rounds lasts a few seconds (in Rock'n'Roll
//! Robot, the solver and `random` as anchors, a round lasting up to its 2 s hourglass). The
//! browser opens the first match's page (before it starts, where a team's check comes first)
//! and watches it to its end (`tests/browser/live_board.mjs`): the board at step 0 and move by
//! move, the clocks, hands as backs, the board moving on when a round ends, the finished page
//! in place at the end. With `ROLLARENA_SCREENSHOTS=DIR` it saves `DIR/live-GAME.png` (the
//! book's are made so).

use std::time::Duration;

use serde_json::json;

use crate::arena::wait_for;
use crate::arena::web::{Arena, Server, Who, get, submit};

/// A bot for every game: `ready`, then a random legal move after `PAUSE` seconds (a second
/// more before its first, another one at once when refused); in a game without turns
/// (declarations), a pass after `PAUSE` seconds at each round's start.
const BOT: &str = r#"import json, random, sys, time
PAUSE = {pause}
def send(m):
    sys.stdout.write(json.dumps(m) + "\n")
    sys.stdout.flush()
GAME = LAST = None
for line in sys.stdin:
    if not line.strip():
        continue
    m = json.loads(line)
    t = m.get("type")
    if t == "hello":
        GAME = m.get("game")
        send({"type": "ready", "name": "slow", "version": "1"})
    elif t == "bye":
        break
    elif (t == "turn" and m.get("legal")) or (t == "illegal" and LAST):
        if t == "turn":
            # The match's first move waits for a browser slow to open the page.
            time.sleep(PAUSE + (1.0 if LAST is None else 0))
            LAST = m
        out = {"type": "move", "move": random.choice(LAST["legal"])}
        if "turn_id" in LAST:
            out["turn_id"] = m.get("turn_id", LAST["turn_id"])
        send(out)
    elif t == "start" and GAME == "robots":
        time.sleep(PAUSE)
        send({"type": "pass"})
    elif t == "prove":
        send({"type": "solution", "moves": [], "turn_id": m.get("turn_id")})
"#;

/// One game's live board: `flags` for `arena init`, the bot's pause, what its board draws
/// (a selector and how many at least), whether hands are hidden, and the arena's uids.
struct Watch {
    game: &'static str,
    flags: &'static [&'static str],
    /// Rounds a match plays.
    rounds: u32,
    /// The built-in bots in the ladder.
    anchors: &'static [&'static str],
    /// The team's bot's pause, for a team (none: the anchors play each other).
    pause: Option<f64>,
    pieces: &'static str,
    min: usize,
    hidden: bool,
    /// Different counts of moves the browser must see in play, at least.
    counts: usize,
    uids: [(u32, u32); 2],
}

fn watch(w: Watch) {
    if !crate::chromium::ready("the live board's browser test") {
        return;
    }
    let rounds = w.rounds.to_string();
    let mut flags = vec!["--players", "2", "--rounds", &rounds, "--time", "5s"];
    for anchor in w.anchors {
        flags.extend(["--anchor", anchor]);
    }
    flags.extend_from_slice(w.flags);
    let arena = Arena::init_game(w.game, &flags, "");
    arena.own_uids(w.uids[0], w.uids[1]);
    let token = w.pause.map(|_| arena.team("slow"));
    let server = Server::start(&arena, 1);
    let tmp = crate::check::shared_tempdir("rollarena-board-");
    let bot = tmp.path().join("bot.py");
    if let Some(pause) = w.pause {
        std::fs::write(&bot, BOT.replace("{pause}", &pause.to_string())).unwrap();
    }
    let shot = std::env::var_os("ROLLARENA_SCREENSHOTS")
        .map(|d| std::path::PathBuf::from(d).join(format!("live-{}.png", w.game)));
    let expect = json!({
        "url": server.url,
        "match": 1,
        "game": w.game,
        "pieces": w.pieces,
        "min": w.min,
        "hidden": w.hidden,
        "counts": w.counts,
        "screenshot": shot,
        "min_shot": w.counts * 2,
        "seconds": 90,
    });
    let path = tmp.path().join("expect.json");
    // The browser waits for the first match while the bot is built and checked.
    let browser =
        std::thread::spawn(move || crate::chromium::run_script("live_board.mjs", &expect, &path));
    if let Some(token) = &token {
        let (code, out, err) = submit(&server, token, &bot, &["--wait"]);
        assert_eq!(code, 0, "{out}{err}");
    }
    let out = browser.join().expect("the browser test ran");
    assert!(out.contains("without a reload"), "{out}");
    wait_for("match 1 counted", Duration::from_secs(30), || {
        arena.count("SELECT count(*) FROM matches WHERE id = 1 AND state = 'done'") == 1
    });
    assert_eq!(
        arena.count("SELECT count(*) FROM match_seats WHERE match_id = 1"),
        2,
        "match 1 has two seats"
    );
    // Over, its live board is its replay; no match, no board.
    let over = get(&format!("{}/matches/1/watch", server.url), Who::Nobody);
    assert_eq!(over.status, 303);
    assert_eq!(over.header("location"), Some("/matches/1/replay"));
    let none = get(&format!("{}/matches/999/watch", server.url), Who::Nobody);
    assert_eq!(none.status, 404, "{}", none.body);
}

#[test]
fn a_rolit_match_on_its_live_board() {
    watch(Watch {
        game: "rolit",
        rounds: 2,
        anchors: &["random"],
        flags: &["--size", "6"],
        pause: Some(0.08),
        pieces: "#board circle.ball",
        min: 4,
        hidden: false,
        counts: 3,
        uids: [(59200, 59239), (59240, 59249)],
    });
}

#[test]
fn a_goofspiel_match_on_its_live_board() {
    watch(Watch {
        game: "goofspiel",
        rounds: 2,
        anchors: &["random"],
        flags: &["--cards", "6"],
        pause: Some(0.25),
        pieces: "#board g.bid",
        min: 2,
        hidden: true,
        counts: 3,
        uids: [(59250, 59289), (59290, 59299)],
    });
}

#[test]
fn a_rollerball_match_on_its_live_board() {
    watch(Watch {
        game: "rollerball",
        rounds: 2,
        anchors: &["random"],
        flags: &["--turn-limit", "10"],
        pause: Some(0.12),
        pieces: "#board rect.track",
        min: 48,
        hidden: true,
        counts: 3,
        uids: [(59300, 59339), (59340, 59349)],
    });
}

#[test]
fn a_robots_match_on_its_live_board() {
    watch(Watch {
        game: "robots",
        // The anchors' match starts with the server, maybe before the browser is up: enough
        // rounds that it sees one end, whenever it comes in.
        rounds: 4,
        anchors: &["solver", "random"],
        flags: &["--hourglass", "2s", "--first-declaration", "2s"],
        pause: None,
        pieces: "#board g.robot",
        min: 4,
        hidden: false,
        // A declaration and a pass at the start, the rest at the hourglass's end.
        counts: 1,
        uids: [(59350, 59389), (59390, 59399)],
    });
}
