//! Whole matches: tokens nobody declares, the black robot, solo play, a two-player match to 8
//! tokens, and the usage errors of the robots options.

use std::collections::BTreeSet;
use std::time::Duration;

use serde_json::{Value, json};

use super::*;

/// The carried state a round started from (rounds after the first).
fn carry(r: &RoundRecord) -> &Value {
    r.carry
        .as_ref()
        .unwrap_or_else(|| panic!("round {} carries its start state", r.round))
}

/// The tokens of a list in the carried state.
fn tokens(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("a list of tokens: {v}"))
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

/// Two bots that never declare, `--first-declaration 300ms --hourglass 300ms`, 3 rounds:
/// each token waits for the first declaration, then for the hourglass turned anyway, and goes
/// back: no action, no winner, the pile whole (17 tokens) in the state carried to the next
/// round, the robots where they started.
#[test]
fn with_no_declaration_the_token_goes_back_and_nothing_moves() {
    let run = Table::new("no-declaration")
        .flags(&[
            "--seed",
            "4",
            "--first-declaration",
            "300ms",
            "--hourglass",
            "300ms",
        ])
        .rounds(3)
        .zoo("")
        .zoo("")
        .run();
    let rounds = run.ok(3);
    let robots = &rounds[0].board["robots"];
    for r in rounds {
        assert!(r.moves.is_empty(), "round {}: {:#?}", r.round, r.moves);
        assert!(r.faults.is_empty() && r.forfeits.is_empty(), "{r:#?}");
        assert_nobody_won(r);
        assert_eq!(
            r.board["robots"], *robots,
            "round {}: nothing moved",
            r.round
        );
        assert_eq!(
            r.board["pile"], 16,
            "round {}: the token is out of the pile",
            r.round
        );
        assert!(!r.ends_match);
        if r.round > 1 {
            let c = carry(r);
            let pile: BTreeSet<String> = tokens(&c["pile"]).into_iter().collect();
            assert_eq!(
                pile.len(),
                17,
                "round {}: the token went back: {c}",
                r.round
            );
            assert_eq!(c["won"], json!([[], []]));
            assert_eq!(c["since_win"], r.round - 1);
            assert_eq!(c["robots"], *robots);
        }
    }
    assert!(
        run.elapsed >= Duration::from_millis(1800),
        "each token waits 300 ms for a declaration and 300 ms for the hourglass: {:?}",
        run.elapsed
    );
    assert_verifies(&run);
}

/// `--black`: a fifth robot stands on the board and in the carried state (on its own cell),
/// and a match of solver bots is played and verifies.
#[test]
fn the_black_robot_variant_plays_and_verifies() {
    let run = Table::new("black")
        .flags(&[
            "--seed",
            "4",
            "--black",
            "--hourglass",
            "300ms",
            "--margin",
            "50ms",
        ])
        .rounds(3)
        .solver("")
        .solver("")
        .run();
    let rounds = run.ok(3);
    let mut won = 0;
    for r in rounds {
        assert_eq!(r.options["black"], true);
        let robots = r.board["robots"].as_object().expect("robots");
        let names: BTreeSet<&str> = robots.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            BTreeSet::from(["black", "blue", "green", "red", "yellow"]),
            "round {}",
            r.round
        );
        let cells: BTreeSet<&str> = robots.values().map(|c| c.as_str().unwrap()).collect();
        assert_eq!(cells.len(), 5, "five robots on five cells: {robots:?}");
        if r.round > 1 {
            assert!(carry(r)["robots"]["black"].is_string(), "{}", carry(r));
        }
        won += r.result.points.iter().sum::<u32>();
    }
    assert!(won >= 1, "the solvers win tokens");
    assert_verifies(&run);
}

/// Solo: `rollarena bot solver` alone, hourglass 1 s from the start of each token: every
/// declaration is verified at once (no `hourglass_ends_ms`), tokens solved are won face up,
/// and the match ends when the 17 tokens are used up (only the last line ends it).
#[test]
fn solo_the_solver_wins_tokens_face_up_until_the_pile_is_used_up() {
    let run = Table::new("solo-solver")
        .flags(&["--seed", "4", "--hourglass", "1s"])
        .all_rounds()
        .solver("")
        .run();
    let rounds = run.ok(17);
    for r in rounds {
        assert_eq!(r.ends_match, r.round == 17, "round {}", r.round);
        for d in actions(r, "declare") {
            assert!(
                !d.effects.contains_key("hourglass_ends_ms"),
                "solo: verified at once: {d:?}"
            );
        }
        let solutions = actions(r, "solution");
        assert!(solutions.len() <= 1, "{:#?}", r.moves);
        if let Some(s) = solutions.first() {
            assert!(at(s) >= at(actions(r, "declare")[0]));
        }
        assert!(r.forfeits.is_empty(), "{:#?}", r.forfeits);
    }
    let face_up: u32 = rounds.iter().map(|r| r.result.points[0]).sum();
    assert!(
        face_up >= 14,
        "the solver solves most tokens in time: {face_up}"
    );
    let last = &rounds[16];
    let c = carry(last);
    assert_eq!(tokens(&c["pile"]).len(), 1, "the last token: {c}");
    let up = tokens(&c["won"][0]).len() + usize::from(last.board["winner"] == 0);
    let down = c.get("face_down").map_or(0, |d| tokens(d).len())
        + usize::from(last.board["winner"].is_null());
    assert_eq!(
        up as u32, face_up,
        "face up, counted in the state and the points"
    );
    assert_eq!(up + down, 17);
    assert_verifies(&run);
}

/// Solo with a bot that never declares: each token is turned face down when the hourglass,
/// running from the start, runs out (`--first-declaration` plays no part alone), and leaves the
/// pile.
#[test]
fn solo_without_a_declaration_turns_tokens_face_down() {
    let run = Table::new("solo-silent")
        .flags(&[
            "--seed",
            "4",
            "--hourglass",
            "300ms",
            "--first-declaration",
            "20s",
        ])
        .rounds(3)
        .zoo("")
        .run();
    let rounds = run.ok(3);
    for r in rounds {
        assert!(r.moves.is_empty(), "{:#?}", r.moves);
        assert_nobody_won(r);
        if r.round > 1 {
            let c = carry(r);
            assert_eq!(tokens(&c["face_down"]).len() as u32, r.round - 1, "{c}");
            assert_eq!(tokens(&c["pile"]).len() as u32, 18 - r.round, "{c}");
            assert_eq!(c["won"], json!([[]]));
        }
    }
    // Face down tokens are not drawn again.
    let drawn: BTreeSet<String> = rounds
        .iter()
        .map(|r| r.board["token"].to_string())
        .collect();
    assert_eq!(drawn.len(), 3, "three different tokens");
    assert!(
        run.elapsed < Duration::from_secs(15),
        "the solo hourglass does not wait for --first-declaration: {:?}",
        run.elapsed
    );
    assert_verifies(&run);
}

/// Two solver bots play a whole match: it ends on the round where one reaches 8 tokens
/// (`ends_match` on that line only), and the standings rank that seat first with 8 points.
#[test]
fn a_two_player_match_ends_when_a_player_has_eight_tokens() {
    let run = Table::new("to-eight")
        .flags(&[
            "--seed",
            "4",
            "--hourglass",
            "300ms",
            "--margin",
            "50ms",
            "--json",
        ])
        .all_rounds()
        .solver("")
        .solver("")
        .run();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rounds = &run.rounds;
    let n = rounds.len();
    assert!((8..=40).contains(&n), "{n} rounds");
    for r in rounds {
        assert_eq!(r.ends_match, r.round as usize == n, "round {}", r.round);
        assert!(r.forfeits.is_empty(), "{:#?}", r.forfeits);
    }
    let tokens_of = |seat: usize| -> u32 { rounds.iter().map(|r| r.result.points[seat]).sum() };
    let (a, b) = (tokens_of(0), tokens_of(1));
    let winner = usize::from(b > a);
    assert_eq!(a.max(b), 8, "tokens: {a} and {b}");
    assert!(a.min(b) < 8);
    let last = &rounds[n - 1];
    assert_won_by(last, winner);
    assert_eq!(tokens(&carry(last)["won"][winner]).len(), 7);

    let summary: Value = serde_json::from_str(&run.stdout).expect("--json prints JSON");
    let top = &summary["standings"][0];
    assert_eq!(top["seat"], winner, "{summary:#}");
    assert_eq!(top["rank"], 1);
    assert_eq!(top["points"], 8);
    assert_verifies(&run);
    assert_tamper_rejected(&run, "the last round not ending the match", |lines| {
        let last = lines.last_mut().unwrap();
        last.as_object_mut().unwrap().remove("ends_match");
    });
    assert_tamper_rejected(&run, "a robot moved between two rounds", |lines| {
        let c = &mut lines[1]["carry"]["robots"];
        let red = c["red"].clone();
        c["red"] = c["blue"].clone();
        c["blue"] = red;
    });
}

/// Options of the wrong game, or out of range, are usage errors (exit 2) that name the option.
#[test]
fn robots_usage_errors_say_what_was_wrong() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["--black", "rollarena bot greedy", "rollarena bot greedy"],
            "--black is an option of --game robots, not of rolit",
        ),
        (
            &[
                "--cpu-tiebreak",
                "rollarena bot greedy",
                "rollarena bot greedy",
            ],
            "--cpu-tiebreak is an option of --game robots",
        ),
        (
            &[
                "--game",
                "robots",
                "--hourglass",
                "0s",
                "rollarena bot solver",
            ],
            // The flag and a tournament file's option share one parser, which names the option.
            "hourglass must be longer than 0",
        ),
        (
            &["--game", "robots", "--players", "9"],
            "1 to 8 players, not 9",
        ),
    ];
    for (args, message) in cases {
        let mut argv = vec!["match", "--rounds", "1"];
        argv.extend_from_slice(args);
        let out = cli(&argv);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{argv:?}: {stderr}");
        assert!(
            stderr.contains(message),
            "{argv:?} says {message:?}: {stderr}"
        );
    }
}

/// `--size` is an option of Rolit; Rock'n'Roll Robot's board is always 16x16, so
/// `--game robots --size 6` should be refused like `--black` is for Rolit.
#[test]
fn size_is_refused_for_robots() {
    let out = cli(&[
        "match",
        "--game",
        "robots",
        "--size",
        "6",
        "--rounds",
        "1",
        "--hourglass",
        "300ms",
        "rollarena bot solver",
        "rollarena bot solver",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--size"),
        "the error names --size: {stderr}"
    );
}
