//! Games with hidden information end to end: Goofspiel and Rollerball matches among built-in
//! bots, their records verified, replayed in the terminal, and a table of tampered records
//! each refused with its reason (a changed bid, a changed drawn card, a changed deck order, a
//! move changed to another legal one, a changed result).

use serde_json::{Value, json};

use super::{lines, rollarena, text, write_lines};

/// Plays a match into a fresh record and returns its path (in a directory kept alive).
fn record(dir: &tempfile::TempDir, name: &str, args: &[&str]) -> std::path::PathBuf {
    let path = dir.path().join(name);
    let mut argv = vec!["match", "--record", path.to_str().unwrap(), "--time", "20s"];
    argv.extend_from_slice(args);
    let out = rollarena(&argv, None);
    assert!(out.status.success(), "{argv:?}: {}", text(&out.stderr));
    path
}

fn verify(path: &std::path::Path) -> (i32, String, String) {
    let out = rollarena(&["replay", path.to_str().unwrap(), "--verify"], None);
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// Every move of a round (index, move record) as JSON values.
fn moves(round: &Value) -> Vec<Value> {
    round["moves"].as_array().unwrap().clone()
}

#[test]
fn goofspiel_and_a_six_player_rollerball_play_verify_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    let g = record(
        &dir,
        "goofspiel.jsonl",
        &[
            "--game",
            "goofspiel",
            "--cards",
            "7",
            "--rounds",
            "2",
            "--seed",
            "1234567890123456",
        ],
    );
    let (code, out, err) = verify(&g);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("verified 2 rounds and 28 moves"), "{out}");
    let r = record(
        &dir,
        "rollerball.jsonl",
        &[
            "--game",
            "rollerball",
            "--players",
            "6",
            "--rounds",
            "1",
            "--turn-limit",
            "80",
        ],
    );
    let (code, out, err) = verify(&r);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("verified 1 round"), "{out}");
    let round = &lines(&r)[0];
    assert_eq!(round["result"]["points"].as_array().unwrap().len(), 6);
    let shown = rollarena(
        &["replay", r.to_str().unwrap(), "--round", "1", "--to", "10"],
        None,
    );
    assert!(shown.status.success(), "{}", text(&shown.stderr));
    let screen = text(&shown.stdout);
    assert!(screen.contains("decision 10/"), "{screen}");
    assert!(screen.contains("::::::|"), "the board is drawn: {screen}");
    // A short seed for a game with hidden information draws a warning.
    let warned = rollarena(
        &[
            "match",
            "--game",
            "goofspiel",
            "--cards",
            "2",
            "--rounds",
            "1",
            "--seed",
            "5",
        ],
        None,
    );
    assert!(
        text(&warned.stderr).contains("--seed 5 is short"),
        "{}",
        text(&warned.stderr)
    );
}

#[test]
fn tampered_hidden_information_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let source = record(
        &dir,
        "clean.jsonl",
        &[
            "--game",
            "rollerball",
            "--players",
            "4",
            "--rounds",
            "1",
            "--seed",
            "987654321987654",
        ],
    );
    assert_eq!(verify(&source).0, 0);
    let round = lines(&source).remove(0);
    let all = moves(&round);
    let find = |pred: &dyn Fn(&Value) -> bool| all.iter().position(pred).expect("a move");
    let drawn = find(&|m| {
        m["secrets"]
            .as_array()
            .is_some_and(|s| s.iter().any(|x| x["secret"] == "drawn"))
    });
    let bid = find(&|m| {
        m["secrets"].as_array().is_some_and(|s| {
            s.iter()
                .any(|x| x["secret"] == "bid" && x["cards"] != json!([]))
        })
    });
    let used = find(&|m| {
        let mv = m["move"].as_str().unwrap_or("");
        mv.starts_with("build") || mv.starts_with("blowup") || mv.starts_with("replace")
    });
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "a changed bid",
            Box::new(move |r: &mut Value| {
                let s = &mut r["moves"][bid]["secrets"];
                let b = s
                    .as_array_mut()
                    .unwrap()
                    .iter_mut()
                    .find(|x| x["secret"] == "bid");
                b.unwrap()["cards"] = json!(["UM", "UM", "UM"]);
            }),
            "secrets",
        ),
        (
            "a changed drawn card",
            Box::new(move |r: &mut Value| {
                let s = &mut r["moves"][drawn]["secrets"];
                let d = s
                    .as_array_mut()
                    .unwrap()
                    .iter_mut()
                    .find(|x| x["secret"] == "drawn");
                let d = d.unwrap();
                let was = d["card"].clone();
                d["card"] = if was == "DM" {
                    json!("UM")
                } else {
                    json!("DM")
                };
            }),
            "secrets",
        ),
        (
            "a changed deck order",
            Box::new(|r: &mut Value| {
                let deck = r["moves"][0]["deal"]["deck"].as_array_mut().unwrap();
                let i = (1..deck.len()).find(|&i| deck[i] != deck[0]).unwrap();
                deck.swap(0, i);
            }),
            "deal",
        ),
        (
            "a move changed to another legal one",
            Box::new(move |r: &mut Value| r["moves"][used]["move"] = json!("none")),
            "",
        ),
        (
            "a changed result",
            Box::new(|r: &mut Value| {
                let p = r["result"]["points"][0].as_u64().unwrap();
                r["result"]["points"][0] = json!(p + 1);
            }),
            "points are recorded as",
        ),
    ];
    for (what, edit, reason) in cases {
        let mut r = round.clone();
        edit(&mut r);
        let path = dir.path().join("tampered.jsonl");
        write_lines(&path, &[r]);
        let (code, _, err) = verify(&path);
        assert_eq!(code, 1, "{what} must be refused: {err}");
        assert!(err.contains("does not verify"), "{what}: {err}");
        assert!(
            err.contains(reason),
            "{what}: the reason names {reason:?}: {err}"
        );
    }
}
