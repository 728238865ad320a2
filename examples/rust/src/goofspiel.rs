//! Goofspiel (`hello.game` "goofspiel"): protocol/games/goofspiel.md. Every turn is a sealed
//! bid for the prize on show, answered with one card of the hand.

use serde_json::Value;

/// Bid the card that stands among my cards where the prize stands among the prizes still to
/// be won: the top card for the top prize, the lowest card for the lowest, so the high cards
/// are kept for the high prizes. (At the start the hand and the prizes are both 1 to N, so
/// this bids the prize's own value.)
pub fn choose(state: &Value, legal: &[String]) -> String {
    // STRATEGY: the place for your Goofspiel play: `state.history` has every bid so far.
    let prize = state["prize"].as_i64().unwrap_or(0);
    let mut prizes: Vec<i64> = state["prizes_left"]
        .as_array()
        .map(|left| left.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default();
    prizes.push(prize);
    prizes.sort();
    let mut hand = legal.to_vec();
    hand.sort_by_key(|card| card.parse::<i64>().unwrap_or(0));
    let rank = prizes.iter().position(|&p| p == prize).unwrap_or(0); // 0: the lowest prize left
    hand[rank * hand.len() / prizes.len()].clone()
}
