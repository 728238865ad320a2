//! Rollerball's part of the HTML viewer: its drawing code (`viewer.js`: the board as SVG with
//! the tracks, bases, workmen, balls and cards, the ball phase animated step by step, hands
//! with a switch to one seat's view, victory points over the turns) and the data it draws,
//! re-played by the engine ([`super::show::replay`]).

use serde_json::{Map, Value, json};

use super::show::{event_text, replay, secret_text};
use super::square::{Square, tracks};
use crate::record::RoundRecord;
use crate::replay::Discrepancy;
use crate::show::HtmlPart;

/// In the registry entry.
pub const HTML: HtmlPart = HtmlPart {
    script: include_str!("viewer.js"),
    data,
    live: Some(include_str!("viewer_live.js")),
};

/// The tracks, the spectator's state after each decision, each decision's events (as data and
/// in words), the secrets in words with the seat they belong to, its ball-phase steps, and each
/// seat's victory points at the end of every turn.
fn data(index: usize, r: &RoundRecord) -> Result<Map<String, Value>, Discrepancy> {
    let rp = replay(index, r)?;
    let decisions: Vec<Value> =
        rp.played
            .iter()
            .map(|p| {
                let secrets: Vec<Value> =
                    p.secrets
                        .iter()
                        .filter_map(|s| {
                            let seat = match s {
                                super::Secret::Bid { seat, .. }
                                | super::Secret::Drawn { seat, .. } => *seat,
                                _ => return None,
                            };
                            secret_text(s, None).map(|t| json!({"seat": seat, "text": t}))
                        })
                        .collect();
                let steps: Vec<Value> = p
                    .frames
                    .iter()
                    .map(|f| {
                        json!({"label": f.label, "events": f.events, "balls": f.balls,
                           "cards": f.cards, "workmen": f.workmen})
                    })
                    .collect();
                json!({
                    "events": p.events,
                    "words": p.events.iter().map(event_text).collect::<Vec<_>>(),
                    "secrets": secrets,
                    "steps": steps,
                })
            })
            .collect();
    // Victory points at the end of each turn (turn 0: after the setup), per seat.
    let mut vp: Vec<Value> = Vec::new();
    let mut turn_of = Vec::with_capacity(rp.states.len());
    for (i, s) in rp.states.iter().enumerate() {
        turn_of.push(s.turn);
        let next = rp.states.get(i + 1).map(|n| n.turn);
        if next != Some(s.turn) {
            let each: Vec<usize> = s.players.iter().map(|p| p.vp.len()).collect();
            vp.push(json!({"turn": s.turn, "vp": each}));
        }
    }
    let tracks: Vec<Vec<Square>> = tracks().to_vec();
    let mut out = Map::new();
    out.insert("tracks".into(), json!(tracks));
    // The tracks are the same in every state: sent once.
    let states: Vec<Value> = rp
        .states
        .iter()
        .map(|s| {
            let mut v = json!(s);
            if let Some(o) = v.as_object_mut() {
                o.remove("tracks");
            }
            v
        })
        .collect();
    out.insert("states".into(), json!(states));
    out.insert("decisions".into(), json!(decisions));
    out.insert("vp".into(), json!(vp));
    out.insert("turns".into(), json!(turn_of));
    Ok(out)
}
