//! The HTML viewer: one self-contained file (no network, no CDN) that replays every round of a
//! record in a browser.
//!
//! The page is a fixed template (`viewer.html`), its script (the shell `viewer.js` with the
//! drawing code each game gives through its registry entry, [`super::HtmlPart`], for the games
//! the file holds) and the data: every round of the file with what its game's rules compute
//! from the recorded moves, and the standings of every match, embedded as JSON in a `<script type="application/json">` element
//! with `<`, `>` and `&` escaped as `\u003c`, `\u003e` and `\u0026`, so nothing a bot chose (its
//! name, logs, stderr, refused lines) can close the element. The script reads the data with
//! `JSON.parse` and builds the page with `textContent` only, never `innerHTML`. A
//! Content-Security-Policy allows no network at all and no script but the viewer's own (by
//! its SHA-256), so even an injected element could neither load nor run anything.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use serde_json::Map;

use super::{generic, renderer};
use crate::record::RoundRecord;
use crate::replay::Discrepancy;
use crate::standings::MatchStandings;

const TEMPLATE: &str = include_str!("viewer.html");
/// The viewer's shell: navigation, panels every game has, the generic view, and the marker
/// where the games' own scripts go.
const SHELL: &str = include_str!("viewer.js");
const GAMES_MARKER: &str = "/*{{GAMES}}*/";
/// Where the live board's driver goes in the shell (live pages only).
const LIVE_MARKER: &str = "/*{{LIVE}}*/";
/// The live board's driver: follows a match's public messages ([`render_live`]).
const LIVE_DRIVER: &str = include_str!("live.js");

/// What the page says about verification, when it was run.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub ok: bool,
    pub text: String,
}

/// The viewer for the rounds of a record file. `title` names the file; `initial` is the round
/// shown first (from 1); `seat`, the seat whose view it shows first (`None`: every hand). Fails when a round's moves cannot be played at all.
pub fn render(
    title: &str,
    records: &[RoundRecord],
    initial: usize,
    verdict: Option<&Verdict>,
    seat: Option<usize>,
) -> Result<String, crate::replay::Discrepancy> {
    // Each round is serialised as soon as it is replayed: a file of thousands of rounds never
    // holds their JSON trees all at once.
    let mut games = String::from("[");
    for (i, r) in records.iter().enumerate() {
        let game = round_json(i + 1, r)?;
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
        "seat": seat,
        "verification": verdict.map(|v| json!({"ok": v.ok, "text": v.text})),
        "matches": matches_json(records),
    });
    let meta = embed(&meta);
    let data = format!(
        "{},\"games\":{games}}}",
        meta.strip_suffix('}').expect("an object")
    );
    Ok(page(&script(records), &data))
}

/// The live board of a match in play (the arena's): the viewer with no round yet, whose
/// script follows the match's public messages at `/api/matches/{match}/live` and shows each
/// round as it is played, with the game's view fed by the game's live part
/// ([`super::HtmlPart::live`]). `live` is what the page knows of the match before its first
/// message: `match` (its id), `game`, `options`, `seats` (names, in seat order), `rounds`,
/// `settings` (`move_ms`, `margin_ms`, `startup_ms`, `retries`). The page's policy lets it
/// connect to its own server, and nowhere else.
pub fn render_live(title: &str, game: &str, live: &Value) -> String {
    let mut parts = String::new();
    if let Ok(entry) = crate::game::registry::find(game)
        && let Some(part) = &entry.show.html
    {
        parts.push_str(part.script);
        parts.push('\n');
        if let Some(live) = part.live {
            parts.push_str(live);
            parts.push('\n');
        }
    }
    let script = SHELL
        .replacen(GAMES_MARKER, &parts, 1)
        .replacen(LIVE_MARKER, LIVE_DRIVER, 1);
    let data = json!({
        "title": title,
        "arbiter": env!("CARGO_PKG_VERSION"),
        "initial": 1,
        "seat": null,
        "verification": null,
        "matches": [],
        "games": [],
        "live": live,
    });
    page(&script, &embed(&data)).replacen(
        "default-src 'none';",
        "default-src 'none'; connect-src 'self';",
        1,
    )
}

/// The page for a script and its data (JSON already [`embed`]ded): the template with both and
/// the script's CSP hash. The data goes in last, so nothing in it is taken for a marker.
fn page(script: &str, data: &str) -> String {
    TEMPLATE
        .replace("{{SCRIPT_HASH}}", &csp_hash(script))
        .replace("{{SCRIPT}}", script)
        .replace("{{DATA}}", data)
}

/// JSON safe to put inside a `<script>` element: no `<`, `>` or `&` (escaped in strings, the only
/// place serde_json writes them), and no line separators that old parsers choke on.
pub fn embed(data: &Value) -> String {
    let text = serde_json::to_string(data).expect("JSON values serialise");
    // Most data has none of them (a report embeds every round of a tournament): kept as is
    // after one pass over the bytes (0xE2 leads U+2028 and U+2029 in UTF-8, among others).
    if !text.bytes().any(|b| matches!(b, b'<' | b'>' | b'&' | 0xE2)) {
        return text;
    }
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

/// The fields every round has in the viewer: where it comes from, its seats (with their
/// colours where the game has them), its moves as recorded, forfeits, faults, logs, result.
fn common_json(index: usize, r: &RoundRecord) -> Map<String, Value> {
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
                "colour": r.colours.as_ref().and_then(|c| c.get(seat)),
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
                "kind": m.kind,
                "colour": m.colour,
                "move": m.mv,
                "ms": m.ms,
                "at_ms": m.at_ms,
                "cpu_ms": m.cpu_ms,
                "refused": m.refused,
                "by_arbiter": m.by_arbiter,
            })
        })
        .collect();
    let value = json!({
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
        "first": r.first,
        "moves": moves,
        "forfeits": r.forfeits,
        "faults": r.faults,
        "logs": r.logs,
        "stderr": r.stderr,
        "result": r.result,
        "started": r.started,
        "ended": r.ended,
        "arbiter": r.arbiter,
    });
    match value {
        Value::Object(map) => map,
        _ => unreachable!("an object"),
    }
}

/// One round for the viewer: the common fields and its game's data (the generic part: each
/// state as the game's text).
fn round_json(index: usize, r: &RoundRecord) -> Result<Value, Discrepancy> {
    let mut out = common_json(index, r);
    let own = match &renderer(r).html {
        Some(part) => (part.data)(index, r)?,
        None => {
            let mut m = Map::new();
            m.insert("frames".into(), json!(generic::frames(index, r)?));
            m
        }
    };
    out.extend(own);
    Ok(Value::Object(out))
}

/// The viewer's script: the shell with the drawing code of the games in `records` (in the
/// registry's order) where its marker stands.
fn script(records: &[RoundRecord]) -> String {
    let mut parts = String::new();
    for entry in crate::game::registry::GAMES {
        if let Some(part) = &entry.show.html
            && records.iter().any(|r| r.game == entry.name)
        {
            parts.push_str(part.script);
            parts.push('\n');
        }
    }
    SHELL.replacen(GAMES_MARKER, &parts, 1)
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

/// A script's Content-Security-Policy source: `sha256-` and its hash in standard base64.
pub fn csp_hash(script: &str) -> String {
    use base64::Engine;
    let digest = Sha256::digest(script.as_bytes());
    format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_csp_hash_is_the_scripts_sha256_in_base64() {
        // `printf 'viewer()' | openssl dgst -sha256 -binary | base64`
        assert_eq!(
            csp_hash("viewer()"),
            "sha256-tG8VfZEzoiDkq3b2urU476XzrQ5EPCjyKVJgQYpeS14="
        );
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
        assert_eq!(SHELL.matches(GAMES_MARKER).count(), 1);
        let scripts = [SHELL, LIVE_DRIVER].into_iter().chain(
            crate::game::registry::GAMES
                .iter()
                .filter_map(|e| e.show.html.as_ref())
                .flat_map(|h| std::iter::once(h.script).chain(h.live)),
        );
        for script in scripts {
            assert!(
                !script.contains("innerHTML"),
                "the viewer builds the page with textContent"
            );
            assert!(!script.contains("</script"));
        }
    }

    #[test]
    fn a_live_page_may_connect_to_its_own_server_only_and_carries_its_games_live_part() {
        assert_eq!(SHELL.matches(LIVE_MARKER).count(), 1);
        for entry in crate::game::registry::GAMES {
            let live = json!({"match": 7, "game": entry.name, "seats": ["a", "b"]});
            let html = render_live("Match 7", entry.name, &live);
            let policy = &html[html.find("Content-Security-Policy").unwrap()..];
            let policy = &policy[..policy.find('>').unwrap()];
            assert!(
                policy.contains("default-src 'none'; connect-src 'self';"),
                "{policy}"
            );
            assert!(html.contains(LIVE_DRIVER), "{}: no live driver", entry.name);
            if let Some(part) = entry.show.html.as_ref().and_then(|h| h.live) {
                assert!(html.contains(part), "{}: no live part", entry.name);
            }
            assert!(html.contains(r#""live":{"#), "{}", entry.name);
        }
        // A replay has no live driver, and connects nowhere.
        assert!(!script(&[]).contains(LIVE_DRIVER));
        assert!(!TEMPLATE.contains("connect-src"));
    }
}
