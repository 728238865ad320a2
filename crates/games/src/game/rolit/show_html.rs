//! Rolit's part of the HTML viewer: its drawing code (`viewer.js`: the board with the placed
//! and flipped balls, the balls per colour, the score plot) and the data it draws, the board
//! the engine computes after every move.

use serde_json::{Map, Value, json};

use super::show::replay;
use crate::record::RoundRecord;
use crate::replay::Discrepancy;
use crate::show::HtmlPart;

/// In the registry entry.
pub const HTML: HtmlPart = HtmlPart {
    script: include_str!("viewer.js"),
    data,
    live: Some(include_str!("viewer_live.js")),
};

/// The board size, the board after every move (rows joined, highest rank first) and the
/// moves with the balls each flipped.
fn data(index: usize, r: &RoundRecord) -> Result<Map<String, Value>, Discrepancy> {
    let replayed = replay(index, r)?;
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
    let mut out = Map::new();
    out.insert("size".into(), json!(replayed.size));
    out.insert("boards".into(), json!(boards));
    out.insert("moves".into(), json!(moves));
    Ok(out)
}
