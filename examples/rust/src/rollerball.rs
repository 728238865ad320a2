//! Rollerball (`hello.game` "rollerball"): protocol/games/rollerball.md. A ball that enters a
//! player's base earns that player a card, which this bot always lays as a victory point (five
//! win). So the bot puts its base on the track the fewest other bases share, and then every
//! diversion card it lays leads balls towards that track; the workman waits on its own base,
//! where no ball can hit it, and walks out to build such a card while a ball rolls on another
//! track.

use serde_json::Value;

/// A Move card sends every ball leaving s1 across to s2.
const MOVES: [&str; 2] = ["DM", "UM"];
/// A Splitter sends a new ball across to s2, the ball goes on.
const SPLITTERS: [&str; 2] = ["SD", "SU"];

/// The tracks of `state.tracks`, each a list of squares.
fn tracks(state: &Value) -> Vec<Vec<&str>> {
    let tracks = state["tracks"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    tracks
        .iter()
        .map(|t| {
            t.as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect()
        })
        .collect()
}

/// 1 (outer), 2 or 3 (inner): the track `square` belongs to (`state.tracks` lists them).
fn track_of(state: &Value, square: &str) -> i32 {
    let number = tracks(state).iter().position(|t| t.contains(&square));
    number.map_or(0, |i| i as i32 + 1)
}

/// How many tracks closer to mine (the track of my base) a card on s1-s2 brings the balls it
/// diverts: positive for a card that leads balls to my base, negative for one that leads them
/// away. A Splitter never takes a ball away (the ball goes on, a new one crosses).
fn card_gain(state: &Value, mine: i32, code: &str, s1: &str, s2: &str) -> i32 {
    let gain = (track_of(state, s1) - mine).abs() - (track_of(state, s2) - mine).abs();
    if MOVES.contains(&code) {
        gain
    } else if SPLITTERS.contains(&code) {
        gain.max(0)
    } else {
        0 // a ball changer diverts nothing
    }
}

/// Squares a ball on `square` rolls along its track to reach `target` (99: never).
fn distance_to(state: &Value, square: &str, target: &str) -> usize {
    for t in tracks(state) {
        let from = t.iter().position(|s| *s == square);
        let to = t.iter().position(|s| *s == target);
        if let (Some(from), Some(to)) = (from, to) {
            return (to + t.len() - from) % t.len();
        }
    }
    99
}

/// The first of `moves` with the lowest `key` (`moves` in the order of `legal`).
fn first_lowest<K: Ord>(moves: &[String], key: impl Fn(&str) -> K) -> String {
    let mut best = &moves[0];
    for m in moves {
        if key(m) < key(best) {
            best = m;
        }
    }
    best.clone()
}

/// The square (or the card) a move names after its first word: "base a1" gives "a1".
fn square(mv: &str) -> &str {
    mv.split(' ').nth(1).unwrap_or("")
}

/// No card ever covers a corner.
const CORNERS: [&str; 12] = [
    "a1", "h1", "b2", "g2", "c3", "f3", "c6", "f6", "b7", "g7", "a8", "h8",
];

/// The squares orthogonally next to `square`.
fn neighbours(square: &str) -> Vec<String> {
    let file = square.as_bytes()[0] as i32;
    let rank: i32 = square[1..].parse().unwrap_or(0);
    let steps = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    steps
        .iter()
        .map(|(df, dr)| (file + df, rank + dr))
        .filter(|&(f, r)| (b'a' as i32..=b'h' as i32).contains(&f) && (1..=8).contains(&r))
        .map(|(f, r)| format!("{}{r}", f as u8 as char))
        .collect()
}

/// The most a Move or Splitter card of my hand would gain ([`card_gain`]) built on a slot
/// that includes `square`, 0 if none: a slot of a track changer is two orthogonally adjacent
/// squares of adjacent tracks, neither a corner, and a build needs both free of balls, cards,
/// bases and the other players' workmen.
fn build_gain(state: &Value, mine: i32, square: &str) -> i32 {
    let list = |key: &str| {
        state[key]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .to_vec()
    };
    let seat = state["seat"].as_u64().unwrap_or(0) as usize;
    let mut blocked: Vec<String> = CORNERS.iter().map(|s| s.to_string()).collect();
    let mut block = |v: &Value| blocked.extend(v.as_str().map(String::from));
    list("balls").iter().for_each(|ball| block(&ball["at"]));
    for card in list("cards") {
        block(&card["at"][0]);
        block(&card["at"][1]);
    }
    for (p, player) in list("players").iter().enumerate() {
        block(&player["base"]);
        if p != seat {
            block(&player["workman"]);
        }
    }
    let mut best = 0;
    for other in neighbours(square) {
        let (outer, inner) = if track_of(state, &other) < track_of(state, square) {
            (other.as_str(), square)
        } else {
            (square, other.as_str())
        };
        if blocked.iter().any(|b| b == square || *b == other) {
            continue;
        }
        if track_of(state, inner) != track_of(state, outer) + 1 {
            continue; // the same track, or the logo
        }
        for code in list("hand").iter().filter_map(Value::as_str) {
            // DM and SD lie from the outer square to the inner one, UM and SU the other way.
            let (s1, s2) = if matches!(code, "DM" | "SD") {
                (outer, inner)
            } else {
                (inner, outer)
            };
            best = best.max(card_gain(state, mine, code, s1, s2));
        }
    }
    best
}

/// One decision of Rollerball: `state.phase` names it (the rules' section "Decisions and
/// notation" lists each phase's moves).
pub fn choose(state: &Value, legal: &[String]) -> String {
    // STRATEGY: the place for your Rollerball play; each phase below is a simple rule.
    let phase = state["phase"].as_str().unwrap_or("");
    let players = state["players"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let me = &state["players"][state["seat"].as_u64().unwrap_or(0) as usize];
    let base = me["base"].as_str().unwrap_or(""); // "" before it is placed
    if phase == "base" {
        // The base track (1 or 2) the fewest other bases stand on, the shorter one (2) on a
        // tie: a ball on it comes back to my base every 10 turns.
        return first_lowest(legal, |m| {
            let track = track_of(state, square(m));
            let others = players
                .iter()
                .filter_map(|p| p["base"].as_str())
                .filter(|b| track_of(state, b) == track)
                .count() as i32;
            10 * others - track
        });
    }
    let mine = track_of(state, base);
    match phase {
        // On a base square no ball can hit the workman.
        "workman" if legal.contains(&format!("workman {base}")) => format!("workman {base}"),
        "ball" => {
            // As near before my base as the rules allow: it scores in the first turn.
            first_lowest(legal, |m| distance_to(state, square(m), base))
        }
        "reward" => {
            // Always a victory point: from the deck (`vp`), else a card off the board, the one
            // that leads balls away from my base first.
            if legal.iter().any(|m| m == "vp") {
                return "vp".into();
            }
            let takes: Vec<String> = legal
                .iter()
                .filter(|m| m.ends_with(" vp"))
                .cloned()
                .collect();
            if takes.is_empty() {
                return legal[0].clone();
            }
            let cards = state["cards"].as_array().map(Vec::as_slice).unwrap_or(&[]);
            first_lowest(&takes, |m| {
                let card = cards
                    .iter()
                    .find(|c| c["at"][0] == square(m) || c["at"][1] == square(m));
                card.map_or(0, |c| {
                    let at = |i: usize| c["at"][i].as_str().unwrap_or("");
                    card_gain(state, mine, c["card"].as_str().unwrap_or(""), at(0), at(1))
                })
            })
        }
        "card" | "use" => {
            // The card that brings balls nearest my track (`pass` or `none` if none brings any).
            let mut best = &legal[0];
            let mut best_gain = 0;
            for m in legal {
                let words: Vec<&str> = m.split(' ').collect();
                if !matches!(words[0], "place" | "build") || words.len() < 4 {
                    continue;
                }
                let gain = card_gain(state, mine, words[1], words[2], words[3]);
                if gain > best_gain {
                    (best, best_gain) = (m, gain);
                }
            }
            best.clone()
        }
        "discard" => {
            // A card that diverts nothing first (ball changers, Replacers), then any.
            let useless = legal
                .iter()
                .find(|m| !MOVES.contains(&square(m)) && !SPLITTERS.contains(&square(m)));
            useless.unwrap_or(&legal[0]).clone()
        }
        "move" => {
            // Away from home, back home. At home, stay while every ball rolls on my track;
            // else walk to the square from which a card of my hand would bring balls nearest
            // (the `use` decision then builds it), or stay if none would.
            if me["workman"].as_str() != Some(base) {
                let home = format!("move {base}");
                return if legal.contains(&home) {
                    home
                } else {
                    legal[0].clone()
                };
            }
            let balls = state["balls"].as_array().map(Vec::as_slice).unwrap_or(&[]);
            if balls
                .iter()
                .all(|ball| track_of(state, ball["at"].as_str().unwrap_or("")) == mine)
            {
                return legal[0].clone();
            }
            let mut best = &legal[0];
            let mut best_gain = 0;
            for m in legal {
                if m.starts_with("move ") && build_gain(state, mine, square(m)) > best_gain {
                    (best, best_gain) = (m, build_gain(state, mine, square(m)));
                }
            }
            best.clone()
        }
        // "bid": nothing; "extra" (5 and 6 players): `stay`; anything else: the first.
        _ => legal[0].clone(),
    }
}
