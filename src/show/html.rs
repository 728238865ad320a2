//! The HTML viewer: one self-contained file (no network, no CDN) that replays every round of a
//! record in a browser.
//!
//! The page is a fixed template (`viewer.html`, with its script in `viewer.js`) and the data:
//! every round of the file with the boards the engine computes after each move, and the
//! standings of every match, embedded as JSON in a `<script type="application/json">` element
//! with `<`, `>` and `&` escaped as `\u003c`, `\u003e` and `\u0026`, so nothing a bot chose (its
//! name, logs, stderr, refused lines) can close the element. The script reads the data with
//! `JSON.parse` and builds the page with `textContent` only, never `innerHTML`. A
//! Content-Security-Policy allows no network at all and no script but the viewer's own (by
//! its SHA-256), so even an injected element could neither load nor run anything.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::robots::{self, Action, RobotsReplay};
use super::{RolitReplay, replay};
use crate::game::robots::Cell;
use crate::record::RoundRecord;
use crate::standings::MatchStandings;

const TEMPLATE: &str = include_str!("viewer.html");
const SCRIPT: &str = include_str!("viewer.js");

/// What the page says about verification, when it was run.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub ok: bool,
    pub text: String,
}

/// The viewer for the rounds of a record file. `title` names the file; `initial` is the round
/// shown first (from 1). Fails when a round's moves cannot be played at all.
pub fn render(
    title: &str,
    records: &[RoundRecord],
    initial: usize,
    verdict: Option<&Verdict>,
) -> Result<String, crate::replay::Discrepancy> {
    // Each round is serialised as soon as it is replayed: a file of thousands of rounds never
    // holds their JSON trees all at once.
    let mut games = String::from("[");
    for (i, r) in records.iter().enumerate() {
        let game = if r.game == "robots" {
            robots_json(i + 1, r, &robots::replay(i + 1, r)?)
        } else {
            game_json(i + 1, r, &replay(i + 1, r)?)
        };
        if i > 0 {
            games.push(',');
        }
        games.push_str(&embed(&game));
    }
    games.push(']');
    let meta = json!({
        "title": title,
        "arbiter": env!("CARGO_PKG_VERSION"),
        "initial": initial,
        "verification": verdict.map(|v| json!({"ok": v.ok, "text": v.text})),
        "matches": matches_json(records),
    });
    let meta = embed(&meta);
    let data = format!(
        "{},\"games\":{games}}}",
        meta.strip_suffix('}').expect("an object")
    );
    Ok(page(&data))
}

/// The page for given data (JSON already [`embed`]ded): the template with the data, the
/// script and its CSP hash. The data goes in last, so nothing in it is taken for a marker.
fn page(data: &str) -> String {
    let hash = base64(&Sha256::digest(SCRIPT.as_bytes()));
    TEMPLATE
        .replace("{{SCRIPT_HASH}}", &format!("sha256-{hash}"))
        .replace("{{SCRIPT}}", SCRIPT)
        .replace("{{DATA}}", data)
}

/// JSON safe to put inside a `<script>` element: no `<`, `>` or `&` (escaped in strings, the only
/// place serde_json writes them), and no line separators that old parsers choke on.
pub fn embed(data: &Value) -> String {
    let text = serde_json::to_string(data).expect("JSON values serialise");
    let mut out = String::with_capacity(text.len() + 64);
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// One round for the viewer: the record's fields plus the engine's board after every move.
fn game_json(index: usize, r: &RoundRecord, replayed: &RolitReplay) -> Value {
    let seats: Vec<Value> = r
        .seats
        .iter()
        .enumerate()
        .map(|(seat, s)| {
            json!({
                "name": s.name,
                "command": s.command,
                "bot_name": s.bot_name,
                "bot_version": s.bot_version,
                "bot_author": s.bot_author,
                "colour": replayed.colours.get(seat),
            })
        })
        .collect();
    let moves: Vec<Value> = r
        .moves
        .iter()
        .map(|m| {
            json!({
                "ply": m.ply,
                "seat": m.seat,
                "colour": m.colour,
                "move": m.mv,
                "flipped": m.effects.get("flipped").cloned().unwrap_or(json!([])),
                "ms": m.ms,
                "cpu_ms": m.cpu_ms,
                "refused": m.refused,
                "by_arbiter": m.by_arbiter,
            })
        })
        .collect();
    let boards: Vec<String> = replayed.boards.iter().map(|b| b.concat()).collect();
    json!({
        "index": index,
        "match": r.match_id,
        "table": r.table,
        "round": r.round,
        "rounds": r.rounds,
        "game": r.game,
        "options": r.options,
        "size": replayed.size,
        "match_seed": r.match_seed,
        "seed": r.seed,
        "settings": r.settings,
        "seats": seats,
        "first": r.first,
        "boards": boards,
        "moves": moves,
        "forfeits": r.forfeits,
        "faults": r.faults,
        "logs": r.logs,
        "stderr": r.stderr,
        "result": r.result,
        "started": r.started,
        "ended": r.ended,
        "arbiter": r.arbiter,
    })
}

/// One token of Rock'n'Roll Robot for the viewer: the record's fields, the board (walls as 256
/// hex digits of N 1, E 2, S 4, W 8 by cell index, `a1` first), the token, every action, and the
/// steps the viewer goes through with the robots after each (a declaration is a step, a
/// demonstration one step per move, and one more when it fails and the robots go back), all
/// computed by the engine.
fn robots_json(index: usize, r: &RoundRecord, rp: &RobotsReplay) -> Value {
    let seats: Vec<Value> = r
        .seats
        .iter()
        .map(|s| {
            json!({
                "name": s.name,
                "command": s.command,
                "bot_name": s.bot_name,
                "bot_version": s.bot_version,
                "bot_author": s.bot_author,
            })
        })
        .collect();
    let b = &rp.board;
    let walls: String = Cell::all()
        .map(|c| char::from_digit(u32::from(b.walls(c)), 16).expect("4 bits"))
        .collect();
    let blocked: Vec<String> = Cell::all()
        .filter(|&c| b.is_blocked(c))
        .map(|c| c.to_string())
        .collect();
    let diagonals: Vec<Value> = Cell::all()
        .filter_map(|c| {
            b.diagonal(c)
                .map(|d| json!({"cell": c.to_string(), "colour": d.colour, "kind": d.kind}))
        })
        .collect();
    let targets: Vec<Value> = b
        .targets()
        .iter()
        .map(|(t, c)| json!({"cell": c.to_string(), "token": t.to_string()}))
        .collect();
    let mut actions = Vec::with_capacity(r.moves.len());
    let mut steps = vec![json!({"action": null, "robots": rp.start})];
    for (i, (m, a)) in r.moves.iter().zip(&rp.actions).enumerate() {
        let mut v = json!({
            "ply": m.ply,
            "kind": m.kind,
            "seat": m.seat,
            "move": m.mv,
            "at_ms": m.at_ms.unwrap_or(m.ms),
            "cpu_ms": m.cpu_ms,
            "by_arbiter": m.by_arbiter,
            "refused": m.refused,
            "hourglass_ends_ms": m.effects.get("hourglass_ends_ms"),
        });
        let o = v.as_object_mut().expect("an object");
        o.insert("step".into(), json!(steps.len()));
        match a {
            Action::Declare { moves } => {
                o.insert("declared".into(), json!(moves));
                steps.push(json!({"action": i, "robots": rp.after[i + 1]}));
            }
            Action::Solution(d) => {
                o.insert("declared".into(), json!(d.declared));
                o.insert("sent".into(), json!(d.sent));
                o.insert("count".into(), json!(d.count));
                o.insert("unreadable".into(), json!(d.unreadable.is_some()));
                o.insert("ok".into(), json!(d.ok));
                o.insert("reason".into(), json!(d.reason));
                for (k, st) in d.steps.iter().enumerate() {
                    let path: Vec<Cell> = std::iter::once(st.from)
                        .chain(st.path.iter().copied())
                        .collect();
                    steps.push(json!({
                        "action": i,
                        "move": k,
                        "robot": st.mv.robot,
                        "dir": st.mv.dir,
                        "from": st.from,
                        "to": st.to,
                        "path": path,
                        "turned": st.turned,
                        "illegal": st.illegal,
                        "robots": st.after,
                        "verdict": d.ok && k + 1 == d.steps.len(),
                    }));
                }
                if !d.ok || d.steps.is_empty() {
                    steps.push(json!({"action": i, "robots": rp.after[i + 1], "verdict": true}));
                }
            }
            Action::Other => {
                steps.push(json!({"action": i, "robots": rp.after[i + 1]}));
            }
        }
        actions.push(v);
    }
    let won_before: Vec<usize> = rp.won_before.iter().map(Vec::len).collect();
    json!({
        "index": index,
        "match": r.match_id,
        "table": r.table,
        "round": r.round,
        "rounds": r.rounds,
        "game": r.game,
        "options": r.options,
        "match_seed": r.match_seed,
        "seed": r.seed,
        "settings": r.settings,
        "seats": seats,
        "board": {
            "walls": walls,
            "blocked": blocked,
            "diagonals": diagonals,
            "targets": targets,
            "boards": b.assembly(),
        },
        "token": rp.token,
        "token_robot": rp.token.robot(),
        "target": rp.target,
        "start": rp.start,
        "actions": actions,
        "steps": steps,
        "winner": rp.winner.map(|w| w.0),
        "optimal": r.board.get("optimal"),
        "tokens_before": won_before,
        "tokens_after": rp.tokens_after(),
        "face_down": rp.face_down_before.len(),
        "pile": rp.pile,
        "ends_match": r.ends_match,
        "forfeits": r.forfeits,
        "faults": r.faults,
        "logs": r.logs,
        "stderr": r.stderr,
        "result": r.result,
        "started": r.started,
        "ended": r.ended,
        "arbiter": r.arbiter,
    })
}

/// The standings of every match in the file, over the rounds it holds; `whole` says whether it
/// holds all of them. Computed with the arbiter's own [`MatchStandings`].
fn matches_json(records: &[RoundRecord]) -> Vec<Value> {
    let mut order = Vec::new();
    let mut groups: BTreeMap<(&str, Option<u32>), Vec<usize>> = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        let games = groups.entry((&r.match_id, r.table)).or_default();
        if games.is_empty() {
            order.push((r.match_id.as_str(), r.table));
        }
        games.push(i);
    }
    order
        .into_iter()
        .map(|key| {
            let mut games = groups.remove(&key).unwrap_or_default();
            games.sort_by_key(|&g| records[g].round);
            let first = &records[games[0]];
            let names: Vec<String> = first.seats.iter().map(|s| s.name.clone()).collect();
            let mut standings = MatchStandings::new(&names);
            let mut rounds = std::collections::BTreeSet::new();
            for &g in &games {
                if records[g].seats.len() == names.len() {
                    standings.add(&records[g]);
                    rounds.insert(records[g].round);
                }
            }
            json!({
                "match": key.0,
                "table": key.1,
                "rounds": first.rounds,
                "games": games.iter().map(|g| g + 1).collect::<Vec<_>>(),
                "whole": rounds.len() == first.rounds as usize && games.len() == rounds.len(),
                "standings": standings.table(),
            })
        })
        .collect()
}

/// Standard base64 with padding (for the CSP hash).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_examples() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (input, want) in cases {
            assert_eq!(base64(input.as_bytes()), want);
        }
    }

    #[test]
    fn embedded_json_cannot_close_the_script_element() {
        let data = json!({"name": "</script><img src=x onerror=alert(1)>&\u{2028}"});
        let text = embed(&data);
        assert!(!text.contains('<') && !text.contains('>') && !text.contains('&'));
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, data);
    }

    #[test]
    fn the_page_has_one_data_slot_and_one_script() {
        assert_eq!(TEMPLATE.matches("{{DATA}}").count(), 1);
        assert_eq!(TEMPLATE.matches("{{SCRIPT}}").count(), 1);
        assert!(
            !SCRIPT.contains("innerHTML"),
            "the viewer builds the page with textContent"
        );
        assert!(!SCRIPT.contains("</script"));
    }
}
