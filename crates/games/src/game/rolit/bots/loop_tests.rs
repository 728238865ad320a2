//! Rolit's bots behind the shared loop (`crate::bots::serve`): Rolit's own `random` plays a
//! match that hides `legal` and stands in for the bots Rolit does not have, and a Rolit bot in
//! another game chooses among the listed moves and says so.

use serde::Deserialize;

use crate::bots::{Options, serve};
use crate::game::bot::BotSettings;

/// Runs the bot `name` on `input` and returns its output lines.
fn run(name: &'static str, input: &str) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    let settings = BotSettings::default();
    serve(
        name,
        Options::default(),
        settings,
        input.as_bytes(),
        &mut out,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

const ROLIT_TURN: &str = r#"{"type":"turn","turn_id":3,"state":{"board":["........","........","........","...RY...","...BG...","........","........","........"],"colours":["red","yellow","green","blue"],"ply":1,"to_move":"green"}}"#;

#[test]
fn a_game_s_own_random_plays_without_a_legal_list_and_stands_in_for_other_bots() {
    let hello = r#"{"type":"hello","game":"rolit","seat":0,"options":{"players":4,"size":8}}"#;
    for name in ["random", "heuristic"] {
        let out = run(name, &format!("{hello}\n{ROLIT_TURN}\n"));
        assert_eq!(out[0]["type"], "ready", "{out:?}");
        assert_eq!(out[0]["name"], name);
        let mv = out.iter().find(|m| m["type"] == "move").expect("a move");
        assert_eq!(mv["turn_id"], 3);
        // Computed from the position (no `legal` was sent): a square next to a ball.
        let sq = mv["move"].as_str().unwrap();
        let pos = crate::game::rolit::State::deserialize(
            &serde_json::from_str::<serde_json::Value>(ROLIT_TURN).unwrap()["state"],
        )
        .unwrap()
        .to_position(4)
        .unwrap();
        let sq = crate::game::rolit::Square::parse(sq, 8).unwrap();
        assert_ne!(sq.bit() & pos.legal_moves(), 0, "{mv}");
        let logs = out.iter().filter(|m| m["type"] == "log").count();
        assert_eq!(logs, usize::from(name != "random"), "{out:?}");
    }
}

#[test]
fn a_bot_the_game_does_not_have_chooses_among_the_listed_moves_and_says_so() {
    let input = concat!(
        r#"{"type":"hello","game":"goofspiel","seat":1}"#,
        "\n",
        r#"{"type":"start","seed":5}"#,
        "\n",
        r#"{"type":"turn","turn_id":9,"state":{},"legal":["bid 1","bid 2"]}"#,
        "\n",
        r#"{"type":"illegal","turn_id":9}"#,
        "\n",
        r#"{"type":"bye"}"#,
        "\n",
    );
    let out = run("greedy", input);
    assert_eq!(out[0]["name"], "greedy");
    assert_eq!(out[1]["type"], "log");
    let said = out[1]["text"].as_str().unwrap();
    assert!(said.contains("greedy does not play goofspiel"), "{said}");
    let moves: Vec<&str> = out
        .iter()
        .filter(|m| m["type"] == "move")
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves.len(), 2, "{out:?}");
    assert_ne!(moves[0], moves[1], "the refused move is not sent again");
}
