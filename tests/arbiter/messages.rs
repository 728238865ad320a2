//! What bots receive and what of theirs is kept: every message type with its fields as the
//! bot saw them, `log` messages, stderr, names, and the `--json` summary.

use serde_json::Value;

use super::*;

/// Two well-behaved zoo bots that log every message they get (one refuses once, to see
/// `illegal`), two rounds: hello, start, turn, illegal, played and end arrive with the fields
/// the record agrees with; bye arrives (each bot writes a marker file) with the standings.
#[test]
fn every_message_type_reaches_the_bots() {
    let run = Arena::new("messages")
        .flags(&["--json", "--names", "alpha,beta"])
        .zoo_in_dir("--log-messages")
        .zoo_in_dir("--log-messages --behaviour illegal-once --at 2 --round 2")
        .run();
    let rounds = run.ok(2);
    for r in rounds {
        assert_complete(r);
        assert!(r.forfeits.is_empty(), "{:#?}", r.forfeits);
        assert!(
            r.logs.iter().all(|l| !l.text.starts_with("MISMATCH")),
            "the zoo's own move generator agrees with `legal`: {:#?}",
            r.logs
        );
    }
    let summary: Value = serde_json::from_str(&run.stdout).expect("--json prints JSON");
    let all_moves: Vec<_> = rounds.iter().flat_map(|r| r.moves.iter()).collect();

    for seat in 0..2 {
        let got = received(rounds, seat);
        let kinds: Vec<&str> = got.iter().map(|g| g["got"].as_str().unwrap()).collect();
        for kind in ["hello", "start", "turn", "played", "end"] {
            assert!(kinds.contains(&kind), "seat {seat} got {kind}: {kinds:?}");
        }
        assert_eq!(kinds[0], "hello", "hello comes first");
        assert_eq!(kinds[1], "start", "then start");

        let hello = &got[0];
        assert_eq!(hello["protocol"], 1);
        assert_eq!(hello["game"], "rolit");
        assert_eq!(hello["options"]["size"], 4);
        assert_eq!(hello["options"]["players"], 2);
        assert_eq!(hello["seat"], seat);
        assert_eq!(hello["seats"], serde_json::json!(["alpha", "beta"]));
        assert_eq!(hello["rounds"], 2);
        assert_eq!(hello["startup_ms"], 10_000);
        assert_eq!(hello["move_ms"], 10_000);

        // One start per round, agreeing with the record.
        let starts: Vec<&Value> = got.iter().filter(|g| g["got"] == "start").collect();
        assert_eq!(starts.len(), 2);
        for (start, r) in starts.iter().zip(rounds) {
            let colours = r.colours.as_ref().unwrap();
            assert_eq!(start["round"], r.round);
            assert_eq!(start["colour"], colours[seat].as_str());
            assert_eq!(start["colours"], serde_json::json!(colours));
            assert_eq!(start["first"], r.first);
            assert_eq!(start["seed"], r.seed);
        }
        assert_ne!(rounds[0].first, rounds[1].first, "the first seat rotates");

        // Turns: the full clock, legal moves and state sent, turn ids increasing.
        let turns: Vec<&Value> = got.iter().filter(|g| g["got"] == "turn").collect();
        assert_eq!(turns.len(), 12, "6 turns a round, 2 rounds");
        for t in &turns {
            assert_eq!(t["time_ms"], 10_000);
            assert_eq!(t["has_legal"], true);
            assert_eq!(t["has_state"], true);
        }
        let ids: Vec<u64> = turns
            .iter()
            .map(|t| t["turn_id"].as_u64().unwrap())
            .collect();
        assert!(
            ids.windows(2).all(|w| w[0] < w[1]),
            "turn ids grow: {ids:?}"
        );

        // Each log carries the ply at which the arbiter read it: hello's before any move,
        // each turn's just before the bot's move.
        for r in rounds {
            let mine: Vec<_> = r.logs.iter().filter(|l| l.seat == seat).collect();
            assert!(mine.windows(2).all(|w| w[0].ply <= w[1].ply));
            let turn_plies: Vec<u32> = mine
                .iter()
                .filter(|l| l.text.starts_with(r#"{"got":"turn""#))
                .map(|l| l.ply)
                .collect();
            let move_plies: Vec<u32> = own_plies(r, seat).iter().map(|p| p - 1).collect();
            assert_eq!(turn_plies, move_plies, "round {} seat {seat}", r.round);
        }
        let hello = rounds[0].logs.iter().find(|l| l.seat == seat).unwrap();
        assert!(hello.text.starts_with(r#"{"got":"hello""#));
        assert_eq!(hello.ply, 0, "read at start-up");

        // `played` in the order of the record's moves (those after the bot's last turn of
        // the match are read only after `bye`, when logs are no longer collected).
        let played: Vec<&Value> = got.iter().filter(|g| g["got"] == "played").collect();
        assert!(played.len() >= 22, "seat {seat} saw {} moves", played.len());
        for (p, m) in played.iter().zip(&all_moves) {
            assert_eq!(p["move"], m.mv, "played in order");
            assert_eq!(p["seat"], m.seat);
            assert_eq!(p["colour"].as_str(), m.colour.as_deref());
            assert_eq!(p["flipped"], m.effects["flipped"]);
            assert_eq!(p["by_arbiter"], false);
        }

        // The end of round 1 (round 2's is read after bye).
        let end = got.iter().find(|g| g["got"] == "end").unwrap();
        let r1 = &rounds[0].result;
        assert_eq!(end["round"], 1);
        assert_eq!(end["points"], serde_json::json!(r1.points));
        assert_eq!(end["ranks"], serde_json::json!(r1.ranks));
        assert_eq!(end["scores"], serde_json::json!(r1.scores));
        assert_eq!(end["forfeits"], serde_json::json!([]));
        let winners: Vec<usize> = (0..2).filter(|&s| r1.wins[s] > 0.0).collect();
        assert_eq!(end["winners"], serde_json::json!(winners));

        // Bye, with the standings the CLI printed.
        let bye = run
            .marker(&format!("bye-{seat}"))
            .unwrap_or_else(|| panic!("seat {seat} got bye"));
        let bye: Value = serde_json::from_str(&bye).unwrap();
        assert_eq!(bye["type"], "bye");
        assert_eq!(bye["standings"], summary["standings"]);
    }

    // `illegal` reached seat 1 on its second turn of round 2, on the same turn id.
    let got = received(rounds, 1);
    let i = got.iter().position(|g| g["got"] == "illegal").unwrap();
    let illegal = &got[i];
    assert_eq!(illegal["retries_left"], 1, "--retries 2 by default");
    assert!(illegal["reason"].as_str().unwrap().contains("occupied"));
    let turn = got[..i].iter().rev().find(|g| g["got"] == "turn").unwrap();
    assert_eq!(illegal["turn_id"], turn["turn_id"]);
    assert!(illegal["time_ms"].as_u64().unwrap() <= 10_000);
    let ply = ply_of_turn(&rounds[1], 1, 2);
    let refused = &rounds[1].moves[ply as usize - 1].refused;
    assert_eq!(refused.len(), 1, "the refused attempt is in the record");
}

/// The `--json` summary holds the match, seed, record and standings.
#[test]
fn json_summary_and_seat_records() {
    let run = Arena::new("json")
        .flags(&["--json", "--seed", "42", "--names", "left,right"])
        .zoo("--name first-bot")
        .zoo("--behaviour crash-mid --at 3")
        .run();
    let rounds = run.ok(2);
    let v: Value = serde_json::from_str(&run.stdout).expect("--json prints one JSON object");
    assert_eq!(v["game"], "rolit");
    assert_eq!(v["seed"], 42);
    assert_eq!(v["rounds"], 2);
    assert_eq!(v["options"]["size"], 4);
    assert_eq!(v["match"], rounds[0].match_id.as_str());
    assert!(v["record"].as_str().unwrap().ends_with("record.jsonl"));
    let standings = v["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 2);
    assert_eq!(standings[0]["name"], "left");
    assert_eq!(standings[0]["rank"], 1);
    assert_eq!(standings[0]["wins"], 2.0);
    assert_eq!(standings[1]["name"], "right");
    assert_eq!(standings[1]["rank"], 2);
    assert_eq!(standings[1]["points"], 0);
    assert_eq!(standings[1]["forfeits"]["crash"], 2);

    for r in rounds {
        assert_eq!(r.match_seed, 42);
        assert_eq!(r.seats[0].name, "left");
        assert_eq!(r.seats[1].name, "right");
        assert_eq!(r.seats[0].bot_name.as_deref(), Some("first-bot"));
        assert_eq!(r.seats[1].bot_name.as_deref(), Some("zoo-crash-mid"));
        assert_eq!(r.seats[0].bot_version.as_deref(), Some("1.0"));
        assert_eq!(r.seats[0].bot_author.as_deref(), Some("rollarena tests"));
        assert!(r.seats[0].command.contains("zoo.py"));
        let zoo = zoo_path().display().to_string();
        assert!(
            r.seats[0].files.contains_key(&zoo),
            "the script is hashed: {:?}",
            r.seats[0].files
        );
        assert_eq!(r.seats[0].files[&zoo].len(), 64, "SHA-256 in hex");
        assert_eq!(r.settings.move_ms, 10_000);
        assert_eq!(r.settings.retries, 2);
        assert!(r.settings.freeze);
        assert!(r.settings.legal);
    }
}

/// With `--hide-legal`, `turn` carries no `legal` and bots find their moves themselves.
#[test]
fn hidden_legal_moves() {
    let run = Arena::new("hide-legal")
        .flags(&["--hide-legal", "--rounds", "1"])
        .zoo("--log-messages")
        .zoo("--log-messages")
        .run();
    let r = &run.ok(1)[0];
    assert!(!r.settings.legal);
    for seat in 0..2 {
        assert_clean(r, seat);
        let turns: Vec<Value> = received(&run.rounds, seat)
            .into_iter()
            .filter(|g| g["got"] == "turn")
            .collect();
        assert_eq!(turns.len(), 6);
        assert!(turns.iter().all(|t| t["has_legal"] == false));
    }
}

/// `log` messages are kept in order with the ply at which the arbiter read them; a long text
/// is cut.
#[test]
fn logs_are_kept_cut_and_placed() {
    let run = Arena::new("log")
        .flags(&["--rounds", "1"])
        .zoo("")
        .zoo("--behaviour log --at 2 --count 3")
        .run();
    let r = &run.ok(1)[0];
    assert_clean(r, 0);
    assert_clean(r, 1);
    let logs: Vec<_> = r.logs.iter().filter(|l| l.seat == 1).collect();
    assert_eq!(logs.len(), 4, "{logs:#?}");
    for (i, l) in logs[..3].iter().enumerate() {
        assert_eq!(l.text, format!("zoo log {} of turn 2 round 1", i + 1));
    }
    let long = &logs[3].text;
    assert!(long.starts_with("LLLL"));
    assert!(
        long.chars().filter(|&c| c == 'L').count() <= 2000,
        "a 3000-character log is cut"
    );
    assert!(long.contains("3000 bytes in all"), "{long}");
    // Sent with the answer to the bot's second turn: read once the moves before it were
    // played.
    let ply = ply_of_turn(r, 1, 2);
    for l in &logs {
        assert_eq!(l.ply, ply - 1, "logs carry the ply at which they were read");
    }
}

/// A `log` written right after a move (in the same write) belongs to the round of that move,
/// the round's last move included: the round ends only after what is in the pipes is read.
#[test]
fn a_log_after_the_last_move_stays_in_its_round() {
    let arena = Arena::new("log-after");
    let script = arena.dir.path().join("log_after.py");
    std::fs::write(
        &script,
        r#"import json, sys
rnd, legal = 0, []
for line in sys.stdin:
    m = json.loads(line)
    t = m["type"]
    if t == "hello":
        sys.stdout.write(json.dumps({"type": "ready", "name": "log-after"}) + "\n")
    elif t == "start":
        rnd = m["round"]
    elif t in ("turn", "illegal"):
        legal = m.get("legal") or legal
        move = {"type": "move", "move": legal[0]}
        log = {"type": "log", "text": "after %s in round %d" % (legal[0], rnd)}
        sys.stdout.write(json.dumps(move) + "\n" + json.dumps(log) + "\n")
    elif t == "bye":
        break
    sys.stdout.flush()
"#,
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o644)).unwrap();
    let command = format!("{PYTHON} {}", script.display());
    let run = arena
        .flags(&["--rounds", "2"])
        .bot(&command)
        .bot(&command)
        .run();
    let rounds = run.ok(2);
    for r in rounds {
        let own: Vec<&String> = r.logs.iter().map(|l| &l.text).collect();
        let moves = r.moves.iter().filter(|m| !m.by_arbiter).count();
        assert_eq!(
            own.len(),
            moves,
            "one log per move in round {}: {own:?}",
            r.round
        );
        for l in &r.logs {
            assert!(l.text.ends_with(&format!("in round {}", r.round)), "{l:?}");
        }
        let last = r.logs.last().unwrap();
        assert_eq!(last.ply as usize, r.moves.len(), "read after the last move");
    }
}

/// stderr: the record keeps a bounded tail per seat; `--bot-logs` keeps all of it.
#[test]
fn stderr_tail_and_bot_log_files() {
    let arena = Arena::new("stderr");
    let logs_dir = arena.dir.path().join("bot-logs");
    let logs_arg = logs_dir.display().to_string();
    let run = arena
        .flags(&[
            "--rounds",
            "1",
            "--bot-logs",
            &logs_arg,
            "--names",
            "quiet,noisy",
        ])
        .zoo("")
        .zoo("--behaviour stderr --at 1 --count 10000")
        .run();
    let r = &run.ok(1)[0];
    assert_clean(r, 1);
    assert_eq!(r.stderr[0], "");
    let tail = &r.stderr[1];
    assert!(tail.ends_with("zoo-stderr-end\n"), "{tail:?}");
    assert!(
        tail.len() <= 4096,
        "the tail is bounded: {} bytes",
        tail.len()
    );
    assert!(tail.len() > 1000);
    let file = std::fs::read_to_string(logs_dir.join("seat-1-noisy.log")).expect("a log file");
    assert_eq!(file.len(), 10_000 + "zoo-stderr-end\n".len());
    assert!(file.ends_with("zoo-stderr-end\n"));
    let quiet = std::fs::read_to_string(logs_dir.join("seat-0-quiet.log")).unwrap();
    assert_eq!(quiet, "");
}
