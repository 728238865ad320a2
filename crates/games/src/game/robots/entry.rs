//! Rock'n'Roll Robot in the registry: its flags, its options (as a user gives them, or in the
//! canonical form a record holds), its demo and its line per token.

use serde_json::{Map, Value};

use crate::game::registry::{Entry, Flag, Takes};
use crate::record::RoundRecord;
use crate::show::renderer::Renderer;
use schemars::{Schema, schema_for};

pub static ENTRY: Entry = Entry {
    name: super::options::RULES.name,
    title: "Rock'n'Roll Robot, a race to the target (protocol/games/robots.md)",
    rules_version: super::options::RULES.rules_version,
    flags: FLAGS,
    build: |options| (super::options::RULES.build)(options).map_err(crate::Error::options),
    demo,
    summary,
    players: 1..=8,
    schemas,
    perft: None,
    show: Renderer {
        about: "a round is a token and a step an action (--to N: after action N): the board with its walls, diagonals, targets and robots, the token and its target, each declaration with its round and CPU time, each demonstration move by move with the rules' verdict (and the robots' paths after a winning one), the winner beside the solver's optimal length, the tokens so far; the viewer animates the demonstrations and plots declarations over time",
        text: Some(super::show_text::play),
        html: Some(super::show_html::HTML),
    },
    check: &super::check::CHECK,
    bots: &[super::solver_bot::BOT],
    analysis: Some(super::grade::ANALYSIS),
};

const FLAGS: &[Flag] = &[
    Flag {
        id: "diagonals",
        long: "no-diagonals",
        takes: Takes::Negation,
        help: "Boards on side A only, without the coloured diagonal walls (the rules advise it \
               for first games)",
    },
    Flag {
        id: "black",
        long: "black",
        takes: Takes::Switch,
        help: "The black robot variant (a fifth robot, moved like the others; it may take the \
               vortex)",
    },
    Flag::value(
        "hourglass",
        "hourglass",
        "DURATION",
        "The hourglass, turned by the first declaration [default: 60s]",
    ),
    Flag::value(
        "first_declaration",
        "first-declaration",
        "DURATION",
        "With no declaration by then, the hourglass is turned anyway [default: 5m]",
    ),
    Flag::value(
        "prove_time",
        "prove-time",
        "DURATION",
        "Time to answer `prove` with the moves [default: 60s]",
    ),
    Flag {
        id: "cpu_tiebreak",
        long: "cpu-tiebreak",
        takes: Takes::Switch,
        help: "Break ties between equal declarations by the CPU time the bots had used when \
               declaring, not by who declared first (for machines where bots share cores)",
    },
];

/// Solvers of different strengths, strongest first.
const DEMO: &[&str] = &[
    "rollarena bot solver",
    "rollarena bot solver --strength 6",
    "rollarena bot solver --strength 4",
    "rollarena bot solver --strength 2",
];

fn demo(_: &Map<String, Value>) -> (&'static [&'static str], usize) {
    (DEMO, 2)
}

/// A token in words: who won it with how many moves, the solver's optimal length, the tokens
/// so far.
fn summary(record: &RoundRecord, names: &[String]) -> String {
    let b = &record.board;
    let token = b.get("token").and_then(Value::as_str).unwrap_or("?");
    let optimal = match b.get("optimal") {
        Some(o) if o.get("moves").is_some() => format!("optimal {}", o["moves"]),
        Some(o) if o.get("gave_up").is_some() => {
            format!("the solver gave up (at least {})", o["at_least"])
        }
        Some(o) if o.get("impossible").is_some() => "impossible".to_string(),
        _ => "optimal unknown".to_string(),
    };
    let won = b.get("winner").and_then(Value::as_u64);
    let how = match won {
        Some(w) => {
            let moves = record
                .moves
                .iter()
                .rev()
                .find(|m| m.seat == w as usize && m.effects.get("ok") == Some(&true.into()))
                .and_then(|m| m.effects.get("declared").cloned())
                .unwrap_or_default();
            format!("{} won it with {moves} moves", names[w as usize])
        }
        None => "nobody won it".to_string(),
    };
    if names.len() == 1 {
        let up = record.result.scores.get("0").copied().unwrap_or(0);
        let down = record.round - up;
        return format!(
            "token {} ({token}): {} ({optimal}); face up {up}, face down {down}",
            record.round,
            if won.is_some() {
                "won face up"
            } else {
                "face down"
            },
        );
    }
    let tokens: Vec<String> = (0..names.len())
        .map(|s| {
            let n = record
                .result
                .scores
                .get(&s.to_string())
                .copied()
                .unwrap_or(0);
            format!("{} {n}", names[s])
        })
        .collect();
    format!(
        "token {} ({token}): {how} ({optimal}); tokens: {}",
        record.round,
        tokens.join(", ")
    )
}

/// Its state and its own messages (`protocol/schemas/robots-*.json`).
fn schemas() -> Vec<(&'static str, Schema)> {
    vec![
        ("robots-state.json", schema_for!(super::StateView)),
        ("robots-to-bot.json", schema_for!(super::wire::ToBot)),
        ("robots-from-bot.json", schema_for!(super::wire::FromBot)),
    ]
}
