//! `rollarena replay --verify` on real records: clean ones pass and say what was checked;
//! edited ones are rejected with exit code 1, the game, the move and the reason.

use serde_json::{Value, json};

use super::{lines, records, rollarena, text, write_lines};

/// Verifies a record and returns (exit code, stdout, stderr).
fn verify(path: &std::path::Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["replay", path.to_str().unwrap(), "--verify"];
    args.extend_from_slice(extra);
    let out = rollarena(&args, None);
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// A copy of a record with one round edited; verifies it and returns (code, stderr).
fn tampered(
    name: &str,
    source: &std::path::Path,
    game: usize,
    edit: impl Fn(&mut Value),
) -> (i32, String) {
    let mut rounds = lines(source);
    edit(&mut rounds[game - 1]);
    let path = records().path(name);
    write_lines(&path, &rounds);
    let (code, _, stderr) = verify(&path, &[]);
    (code, stderr)
}

#[test]
fn clean_records_verify() {
    let r = records();
    let (code, out, err) = verify(&r.small, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("verified 2 rounds and 24 moves"), "{out}");
    assert!(out.contains("all 2 rounds; standings:"), "{out}");

    let (code, out, err) = verify(&r.faults, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("verified 4 rounds and 128 moves"), "{out}");
    assert!(out.contains("reproduced with the seeded fallback"), "{out}");
    assert!(out.contains("refused attempts re-judged"), "{out}");
    assert!(out.contains("forfeits"), "{out}");

    let (code, out, _) = verify(&r.big, &["--round", "3"]);
    assert_eq!(code, 0);
    assert!(out.contains("verified 1 round and 60 moves"), "{out}");
    // --game N, the flag's old name, still picks the same round.
    let (old_code, old_out, _) = verify(&r.big, &["--game", "3"]);
    assert_eq!((old_code, old_out), (code, out));
}

#[test]
fn a_changed_move_is_rejected() {
    let r = records();
    // Swap two of a seat's moves (moves 5 and 7 are the same seat's on 2 players).
    let (code, err) = tampered("move.jsonl", &r.small, 2, |round| {
        let five = round["moves"][4]["move"].clone();
        round["moves"][4]["move"] = round["moves"][6]["move"].clone();
        round["moves"][6]["move"] = five;
    });
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("does not verify: round 2, move 5:")
            || err.contains("does not verify: round 2, move 7:"),
        "{err}"
    );
    // An occupied square.
    let (code, err) = tampered("occupied.jsonl", &r.small, 1, |round| {
        let first = round["moves"][0]["move"].clone();
        round["moves"][3]["move"] = first;
    });
    assert_eq!(code, 1);
    assert!(
        err.contains("round 1, move 4:") && err.contains("is occupied"),
        "{err}"
    );
}

#[test]
fn a_raised_score_is_rejected() {
    let r = records();
    let (code, err) = tampered("score.jsonl", &r.big, 2, |round| {
        let colour = round["colours"][1].as_str().unwrap().to_string();
        let s = round["result"]["scores"][&colour].as_u64().unwrap();
        round["result"]["scores"][&colour] = json!(s + 5);
        let p = round["result"]["points"][1].as_u64().unwrap();
        round["result"]["points"][1] = json!(p + 5);
    });
    assert_eq!(code, 1);
    assert!(
        err.contains("round 2: ") && err.contains("score is recorded as"),
        "{err}"
    );
    // Points alone.
    let (code, err) = tampered("points.jsonl", &r.big, 4, |round| {
        let p = round["result"]["points"][0].as_u64().unwrap();
        round["result"]["points"][0] = json!(p + 1);
    });
    assert_eq!(code, 1);
    assert!(
        err.contains("round 4: seat 0's points are recorded as"),
        "{err}"
    );
}

#[test]
fn a_changed_flip_is_rejected() {
    let r = records();
    let (code, err) = tampered("flip.jsonl", &r.big, 1, |round| {
        let flipped = round["moves"][9]["flipped"].as_array_mut().unwrap();
        flipped.pop();
    });
    assert_eq!(code, 1);
    assert!(
        err.contains("round 1, move 10:") && err.contains("flipped"),
        "{err}"
    );
}

#[test]
fn a_dropped_move_is_rejected() {
    let r = records();
    let (code, err) = tampered("drop.jsonl", &r.small, 1, |round| {
        round["moves"].as_array_mut().unwrap().remove(6);
    });
    assert_eq!(code, 1);
    assert!(
        err.contains("round 1, move 7: the move is numbered 8"),
        "{err}"
    );
}

#[test]
fn forged_faults_are_rejected() {
    let r = records();
    // A fallback move the seeded fallback would not play.
    let (code, err) = tampered("fallback.jsonl", &r.faults, 1, |round| {
        let moves = round["moves"].as_array_mut().unwrap();
        let i = moves
            .iter()
            .position(|m| m["by_arbiter"] == json!(true))
            .unwrap();
        moves[i]["by_arbiter"] = json!(false);
    });
    assert_eq!(code, 1);
    assert!(
        err.contains("yet its bot is recorded as playing this move"),
        "{err}"
    );
    // A refused attempt whose code was edited.
    let (code, err) = tampered("code.jsonl", &r.faults, 2, |round| {
        let moves = round["moves"].as_array_mut().unwrap();
        let m = moves
            .iter_mut()
            .find(|m| m.get("refused").is_some())
            .unwrap();
        m["refused"][0]["code"] = json!("because_i_said_so");
    });
    assert_eq!(code, 1);
    assert!(
        err.contains("refused attempt 1") && err.contains("because_i_said_so"),
        "{err}"
    );
    // Its reason reworded: words, not the verdict, so the record still verifies; without its
    // code (a record made before codes), the reason is compared.
    let (code, err) = tampered("reason.jsonl", &r.faults, 2, |round| {
        let moves = round["moves"].as_array_mut().unwrap();
        let m = moves
            .iter_mut()
            .find(|m| m.get("refused").is_some())
            .unwrap();
        m["refused"][0]["reason"] = json!("reworded");
    });
    assert_eq!(code, 0, "{err}");
    let (code, err) = tampered("uncoded.jsonl", &r.faults, 2, |round| {
        let moves = round["moves"].as_array_mut().unwrap();
        let m = moves
            .iter_mut()
            .find(|m| m.get("refused").is_some())
            .unwrap();
        m["refused"][0].as_object_mut().unwrap().remove("code");
        m["refused"][0]["reason"] = json!("because I said so");
    });
    assert_eq!(code, 1);
    assert!(err.contains("because I said so"), "{err}");
    // A forfeit removed: the arbiter's moves are no longer explained.
    let (code, err) = tampered("forfeit.jsonl", &r.faults, 3, |round| {
        round["forfeits"].as_array_mut().unwrap().pop();
    });
    assert_eq!(code, 1);
    assert!(
        err.contains("round 3") && err.contains("had not forfeited"),
        "{err}"
    );
}

#[test]
fn torn_and_bad_files() {
    let r = records();
    // A torn last line is ignored, with a note.
    let mut bytes = std::fs::read(&r.small).unwrap();
    bytes.extend_from_slice(b"{\"format\":1,\"arbi");
    let torn = r.path("torn.jsonl");
    std::fs::write(&torn, bytes).unwrap();
    let (code, out, err) = verify(&torn, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("torn"), "{err}");
    assert!(out.contains("verified 2 rounds"), "{out}");
    // A file that is not a record: its first line is damage (exit 1); a round that does not
    // exist: a usage error.
    let junk = r.path("junk.jsonl");
    std::fs::write(&junk, "hello\nworld\n").unwrap();
    assert_eq!(verify(&junk, &[]).0, 1);
    assert_eq!(verify(&r.small, &["--round", "3"]).0, 2);
    assert_eq!(verify(&r.small, &["--round", "0"]).0, 2);
    let (_, _, err) = verify(&r.small, &["--round", "3"]);
    assert!(
        err.contains("--round 3: the record holds 2 rounds"),
        "{err}"
    );
    assert_eq!(verify(&r.path("missing.jsonl"), &[]).0, 2);
}

#[test]
fn a_damaged_middle_line_is_an_error_and_a_torn_last_line_a_note() {
    let r = records();
    let text = std::fs::read_to_string(&r.faults).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    // Line 2 cut in half: damage, named with its round, exit 1.
    let mut damaged = String::new();
    for (i, l) in lines.iter().enumerate() {
        damaged += if i == 1 { &l[..l.len() / 2] } else { l };
        damaged.push('\n');
    }
    let path = r.path("damaged-middle.jsonl");
    std::fs::write(&path, damaged).unwrap();
    let (code, out, err) = verify(&path, &[]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("line 2 is damaged") && err.contains("the file's round 2"),
        "{err}"
    );
    assert!(!err.contains("note:"), "not a note: {err}");
    // The first line cut: the same.
    let path = r.path("damaged-first.jsonl");
    std::fs::write(&path, format!("{}\n{}\n", &lines[0][..100], lines[1])).unwrap();
    let (code, _, err) = verify(&path, &[]);
    assert_eq!(code, 1);
    assert!(err.contains("line 1 is damaged"), "{err}");
    // The last line torn (no newline after it): a note naming it, the rest verified.
    let path = r.path("torn-last.jsonl");
    let torn = format!(
        "{}\n{}\n{}\n{}",
        lines[0],
        lines[1],
        lines[2],
        &lines[3][..300]
    );
    std::fs::write(&path, torn).unwrap();
    let (code, out, err) = verify(&path, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("line 4 of") && err.contains("is torn"),
        "{err}"
    );
    assert!(out.contains("verified 3 rounds"), "{out}");
    assert!(
        out.contains("checked 3 rounds of the file's 4 lines; line 4, the last, is torn"),
        "{out}"
    );
}

#[test]
fn table_and_round_pick_a_tournament_round_by_the_schedule() {
    let r = records();
    // Two tables' rounds in completion order: table 2's round 2, table 1's, table 2's round 1.
    let rounds = lines(&r.small);
    let mut file = Vec::new();
    for (table, k) in [(2u32, 1usize), (1, 0), (1, 1), (2, 0)] {
        let mut round = rounds[k].clone();
        round["table"] = json!(table);
        file.push(round);
    }
    let path = r.path("tables.jsonl");
    write_lines(&path, &file);
    let out = rollarena(
        &[
            "replay",
            path.to_str().unwrap(),
            "--table",
            "2",
            "--round",
            "1",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The file's 4th line is table 2's round 1.
    assert!(
        text(&out.stdout).starts_with("round 4 of 4:"),
        "{}",
        text(&out.stdout)
    );
    let out = rollarena(&["replay", path.to_str().unwrap(), "--table", "3"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no round of table 3")
            && text(&out.stderr).contains("tables 1 to 2"),
        "{}",
        text(&out.stderr)
    );
}
