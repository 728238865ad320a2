//! Goofspiel's part of the HTML viewer, the small example of one: its drawing code
//! (`viewer.js`: the prize card, each seat's bid, sealed until all are in, the scores and
//! hands) and the data it draws, the spectator's state after each recorded bid as the rules
//! compute it. Its terminal replay is the generic one (the game's own text).

use serde_json::{Map, Value, json};

use crate::record::RoundRecord;
use crate::replay::{Discrepancy, replay_states};
use crate::show::HtmlPart;

/// In the registry entry.
pub const HTML: HtmlPart = HtmlPart {
    script: include_str!("viewer.js"),
    data,
    live: Some(include_str!("viewer_live.js")),
};

/// `states[p]`: the spectator's view after `p` bids.
fn data(index: usize, r: &RoundRecord) -> Result<Map<String, Value>, Discrepancy> {
    let mut states = Vec::with_capacity(r.moves.len() + 1);
    replay_states(index, r, |round, _| states.push(round.public_view()))?;
    let mut out = Map::new();
    out.insert("states".into(), json!(states));
    Ok(out)
}
