//! Rock'n'Roll Robot's part of the HTML viewer: its drawing code (`viewer.js`: the board with
//! its walls, diagonals and targets, the robots sliding through each demonstration, the
//! declarations over the round time, the tokens over the match) and the data it draws.

use serde_json::{Map, Value, json};

use super::Cell;
use super::show::{Action, replay};
use crate::record::RoundRecord;
use crate::replay::Discrepancy;
use crate::show::HtmlPart;

/// In the registry entry.
pub const HTML: HtmlPart = HtmlPart {
    script: include_str!("viewer.js"),
    data,
    live: Some(include_str!("viewer_live.js")),
};

/// One token of Rock'n'Roll Robot for the viewer: the record's fields, the board (walls as 256
/// hex digits of N 1, E 2, S 4, W 8 by cell index, `a1` first), the token, every action, and the
/// steps the viewer goes through with the robots after each (a declaration is a step, a
/// demonstration one step per move, and one more when it fails and the robots go back), all
/// computed by the engine.
fn data(index: usize, r: &RoundRecord) -> Result<Map<String, Value>, Discrepancy> {
    let rp = &replay(index, r)?;
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
    let out = json!({
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
        "pile": rp.pile_after(),
        "ends_match": r.ends_match,
        "forfeits": r.forfeits,
        "faults": r.faults,
        "logs": r.logs,
        "stderr": r.stderr,
        "result": r.result,
        "started": r.started,
        "ended": r.ended,
        "arbiter": r.arbiter,
    });
    match out {
        Value::Object(map) => Ok(map),
        _ => unreachable!("an object"),
    }
}
