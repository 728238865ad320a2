//! Protocol v1 on the wire: the messages every game shares, as plain serde types, and the
//! parser that turns a line a bot sent into a message or a reason to refuse it.
//!
//! It sits below the referee, the live arbiter, the checker and the built-in bots, which all
//! speak it; a game's own messages (their types and schemas) live in the game's folder and
//! reach the registry's schema list.
//!
//! UTF-8, one JSON object per line, each with a `"type"`. Unknown fields are ignored in both
//! directions so the protocol can grow without breaking bots. These types are the source of
//! `protocol/schemas/*.json` (a test regenerates and compares them) and of `protocol/SPEC.md`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::game::{Seat, cut};

pub(crate) mod cursor;
mod fast;

pub use crate::standings::Standing;

/// The protocol version spoken by this arbiter (`hello.protocol`).
pub const PROTOCOL_VERSION: u32 = 1;

/// A message from the arbiter to a bot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot {
    Hello(Hello),
    Start(Start),
    Turn(Turn),
    Illegal(Illegal),
    Played(Played),
    End(End),
    Bye(Bye),
}

/// First message of a match; answered by `ready` within `startup_ms`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Hello {
    /// Protocol version (1).
    pub protocol: u32,
    /// The game's name, as the registry knows it.
    pub game: String,
    /// The game's options, canonical (`players` among them).
    pub options: Value,
    /// This bot's seat, from 0.
    pub seat: Seat,
    /// Every seat's name as the organiser gave it, in seat order.
    pub seats: Vec<String>,
    /// Rounds in the match.
    pub rounds: u32,
    /// Time allowed to answer `hello` with `ready`, in ms.
    pub startup_ms: u64,
    /// Time allowed per move, in ms: this seat's per-move cap (every answer's, whatever its
    /// bank holds).
    pub move_ms: u64,
    /// The bank this seat starts each round with, in ms (matches with a time bank).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<u64>,
    /// Added to this seat's bank after each accepted move, in ms (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub increment_ms: Option<u64>,
    /// The seat's first answer of each round may take this long on top of its bank (and past
    /// `move_ms` where longer), in ms (absent: no allowance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_move_ms: Option<u64>,
}

impl Hello {
    /// Sets the seat's time control beyond the cap (`move_ms` is the cap).
    pub fn with_tc(mut self, tc: &crate::clock::Tc) -> Hello {
        self.move_ms = tc.move_ms;
        self.bank_ms = tc.bank_ms;
        self.increment_ms = Some(tc.increment_ms).filter(|&i| i > 0);
        self.first_move_ms = Some(tc.first_move_ms).filter(|&f| f > 0);
        self
    }
}

/// A new round begins.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Start {
    /// Round number in the match, from 1.
    pub round: u32,
    /// This bot's colour in the round (games with colours).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// Each seat's colour, in seat order (games with colours).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colours: Option<Vec<String>>,
    /// The seat that moves first.
    pub first: Seat,
    /// A per-round seed the bot may use for its own randomness (below 2^53).
    pub seed: u64,
    /// The start state as this bot sees it.
    pub state: Value,
}

/// A move is wanted; answered by `move` within `time_ms`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Turn {
    /// Increases with every `turn` of the match.
    pub turn_id: u64,
    /// The state as this bot sees it.
    pub state: Value,
    /// The legal moves (never empty); absent when the match hides them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<Value>>,
    /// The time this answer may take, in ms: the per-move cap, or what the bank (and the
    /// first-move allowance) holds where that is less.
    pub time_ms: u64,
    /// What is left of this seat's bank, in ms, before this answer (matches with a time bank).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<u64>,
}

/// The last answer was refused; this asks for another `move` on the same clock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(transform = illegal_code)]
pub struct Illegal {
    /// The `turn_id` of the `turn` being answered.
    pub turn_id: u64,
    /// Why the answer was refused, for the bot's author.
    pub reason: String,
    /// Further refusals allowed before the seat forfeits.
    pub retries_left: u32,
    /// Time left for this move, in ms (the clock did not restart).
    pub time_ms: u64,
    /// What is left of this seat's bank now, in ms (matches with a time bank).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<u64>,
}

/// The arbiter adds `code` to every `illegal` it sends (a stable machine name of the kind of
/// refusal, protocol/SPEC.md §7.2); a bot may switch on it. It is written beside the message,
/// not in [`Illegal`], which bots of every version read the same.
fn illegal_code(schema: &mut schemars::Schema) {
    if let Some(props) = schema
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    {
        props.insert(
            "code".into(),
            serde_json::json!({
                "type": "string",
                "description": "The refusal's code: a stable machine name of the kind of refusal \
                    (protocol/SPEC.md §7.2 lists them), to switch on; the reason is for people \
                    and may be reworded. Sent by the arbiter always; absent from older arbiters."
            }),
        );
    }
}

/// A move was played (sent to every live bot, the mover included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Played {
    /// The seat that moved.
    pub seat: Seat,
    /// Its colour (games with colours).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// The move in canonical notation ("d3").
    #[serde(rename = "move")]
    pub mv: Value,
    /// The game's own effects of the move (its rules document lists them).
    #[serde(flatten)]
    pub effects: BTreeMap<String, Value>,
    /// True when the arbiter played for a forfeited seat.
    pub by_arbiter: bool,
}

/// The round is over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct End {
    /// Round number, from 1.
    pub round: u32,
    /// The game's score per colour.
    pub scores: BTreeMap<String, u32>,
    /// Points per seat (0 for a forfeited seat).
    pub points: Vec<u32>,
    /// Rank per seat, 1 best; ties share a rank.
    pub ranks: Vec<u32>,
    /// Seats that share the round win.
    pub winners: Vec<Seat>,
    /// Seats that forfeited the round.
    pub forfeits: Vec<Seat>,
}

/// The match is over; the bot must exit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Bye {
    /// Final standings, best first.
    pub standings: Vec<Standing>,
}

/// A message from a bot to the arbiter that the arbiter itself reads. A game's own messages
/// (a declaration in a race, say) reach it as [`Incoming::Other`], and their types and
/// schemas live with the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromBot {
    Ready(Ready),
    Move(Move),
    Log(Log),
}

/// Answer to `hello`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Ready {
    /// The bot's own name.
    pub name: String,
    /// The bot's version.
    #[serde(default)]
    pub version: String,
    /// The bot's author.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
}

/// Answer to `turn` or `illegal`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Move {
    /// The move, in the game's canonical notation.
    #[serde(rename = "move")]
    pub mv: Value,
    /// The `turn_id` being answered (optional; an answer naming a past turn is ignored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_id: Option<u64>,
}

/// Free text kept in the record (bounded); may be sent at any time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Log {
    pub text: String,
}

/// A line from a bot, read as far as the protocol goes.
#[derive(Clone, Debug, PartialEq)]
pub enum Incoming {
    /// A protocol message.
    Message(FromBot),
    /// A well-formed object of a type the arbiter does not read itself; the game may (its own
    /// messages), otherwise it is refused.
    Other { kind: String, message: Value },
}

/// Parses one line (without its `\n`). The error is the code and the reason sent back in
/// `illegal`.
pub fn parse_line(line: &[u8]) -> Result<Incoming, (&'static str, String)> {
    let text = std::str::from_utf8(line).map_err(|e| {
        (
            "not_utf8",
            format!(
                "the line is not valid UTF-8 (bad byte at offset {})",
                e.valid_up_to()
            ),
        )
    })?;
    let text = text.strip_suffix('\r').unwrap_or(text);
    if text.trim().is_empty() {
        return Err((
            "empty_line",
            "the line is empty: send one JSON object per line".into(),
        ));
    }
    if let Some(plain) = fast::plain_move(text) {
        return Ok(plain);
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        (
            "not_json",
            format!("the line is not JSON ({e}): {}", cut(text, 80)),
        )
    })?;
    let Value::Object(mut map) = value else {
        return Err((
            "not_an_object",
            format!("the line is JSON but not an object: {}", cut(text, 80)),
        ));
    };
    let kind = match map.get("type") {
        Some(Value::String(k)) => k.clone(),
        Some(other) => {
            return Err((
                "bad_type",
                format!(
                    "\"type\" must be a string, got {}",
                    crate::game::short_json(other)
                ),
            ));
        }
        None => {
            return Err(("no_type", "the object has no \"type\" field".into()));
        }
    };
    if kind == "move"
        && let Some(turn_id) = match map.get("turn_id") {
            None | Some(Value::Null) => Some(None),
            Some(t) => t.as_u64().map(Some),
        }
        && let Some(mv) = map.remove("move")
    {
        // A well-formed move, every move of a match: taken from the object as it is, where
        // the typed reader below would walk it again (its errors are the same for the rest).
        return Ok(Incoming::Message(FromBot::Move(Move { mv, turn_id })));
    }
    let value = Value::Object(map);
    match kind.as_str() {
        "ready" | "move" | "log" => serde_json::from_value::<FromBot>(value)
            .map(Incoming::Message)
            .map_err(|e| ("bad_message", format!("bad {kind:?} message: {e}"))),
        _ => Ok(Incoming::Other {
            kind,
            message: value,
        }),
    }
}

/// The announcement of an applied action: `played` for a move, else the message type the
/// game names ([`crate::game::Applied::announced_as`]). The action's notation is under `move` for moves; for other kinds its fields are
/// spread into the message, with `at_ms`, the round time of the action, where the rules run on
/// a clock. Encoded once for every bot.
pub fn announcement(
    applied: &crate::game::Applied,
    by_arbiter: bool,
    at_ms: Option<f64>,
) -> Vec<u8> {
    let mut line = Vec::new();
    announcement_into(applied, by_arbiter, at_ms, &mut line);
    line
}

/// [`announcement`], appended to a buffer the caller keeps. A `played` line (every move) is
/// written field by field, as serde writes [`Played`] with the effects spread into it, without
/// the intermediate buffers of a flattened struct.
pub fn announcement_into(
    applied: &crate::game::Applied,
    by_arbiter: bool,
    at_ms: Option<f64>,
    line: &mut Vec<u8>,
) {
    if applied.kind == "move" {
        line.extend_from_slice(b"{\"type\":\"played\",\"seat\":");
        line.extend_from_slice(itoa::Buffer::new().format(applied.seat).as_bytes());
        if let Some(colour) = &applied.colour {
            line.extend_from_slice(b",\"colour\":");
            put(line, colour.as_str());
        }
        line.extend_from_slice(b",\"move\":");
        put(line, &applied.notation);
        for (key, value) in &applied.effects {
            line.push(b',');
            put(line, key.as_str());
            line.push(b':');
            put(line, value);
        }
        line.extend_from_slice(if by_arbiter {
            b",\"by_arbiter\":true}\n"
        } else {
            b",\"by_arbiter\":false}\n"
        });
        return;
    }
    let mut msg = serde_json::Map::new();
    msg.insert("type".into(), Value::from(applied.announced_as));
    msg.insert("seat".into(), Value::from(applied.seat));
    if let Some(c) = &applied.colour {
        msg.insert("colour".into(), Value::from(c.clone()));
    }
    if let Value::Object(fields) = &applied.notation {
        msg.extend(fields.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    msg.extend(applied.effects.iter().map(|(k, v)| (k.clone(), v.clone())));
    if let Some(at) = at_ms {
        msg.insert("at_ms".into(), Value::from(at));
    }
    msg.insert("by_arbiter".into(), Value::from(by_arbiter));
    serde_json::to_writer(&mut *line, &msg).expect("messages serialise");
    line.push(b'\n');
}

/// Appends a value as compact JSON, as serde_json writes it.
fn put<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    serde_json::to_writer(out, value).expect("JSON serialises");
}

/// Serialises a message as one line, `\n` included.
pub fn to_line(msg: &ToBot) -> Vec<u8> {
    let mut line = serde_json::to_vec(msg).expect("messages serialise");
    line.push(b'\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_messages_and_explains_refusals() {
        let m = parse_line(br#"{"type":"move","move":"d3","extra":1}"#).unwrap();
        assert_eq!(
            m,
            Incoming::Message(FromBot::Move(Move {
                mv: Value::String("d3".into()),
                turn_id: None
            }))
        );
        let err = |line: &[u8]| parse_line(line).unwrap_err();
        assert!(err(b"").1.contains("empty") && err(b"").0 == "empty_line");
        assert_eq!(err(b"\xff\xfe").0, "not_utf8");
        assert!(err(b"\xff\xfe").1.contains("UTF-8"));
        assert_eq!(err(b"[1,2]").0, "not_an_object");
        assert!(err(b"{nope").1.contains("not JSON") && err(b"{nope").0 == "not_json");
        assert_eq!(err(br#"{"move":"d3"}"#).0, "no_type");
        assert!(err(br#"{"move":"d3"}"#).1.contains("no \"type\""));
        assert_eq!(err(br#"{"type":7}"#).0, "bad_type");
        assert_eq!(err(br#"{"type":"move"}"#).0, "bad_message");
        assert!(err(br#"{"type":"move"}"#).1.contains("bad \"move\""));
        assert!(matches!(
            parse_line(br#"{"type":"declare","moves":4}"#).unwrap(),
            Incoming::Other { .. }
        ));
    }

    #[test]
    fn a_move_reads_as_the_typed_reader_reads_it() {
        for line in [
            r#"{"type":"move","move":"d3"}"#,
            r#"{"type":"move","move":{"from":"a1","to":"b2"},"turn_id":7}"#,
            r#"{"type":"move","move":null,"turn_id":null}"#,
            r#"{"type":"move","move":"d3","turn_id":-1}"#,
            r#"{"type":"move","move":"d3","turn_id":2.5}"#,
            r#"{"type":"move","move":"d3","turn_id":"7"}"#,
            r#"{"type":"move","turn_id":7}"#,
        ] {
            let value: Value = serde_json::from_str(line).unwrap();
            let typed = serde_json::from_value::<FromBot>(value)
                .map(Incoming::Message)
                .map_err(|e| format!("bad \"move\" message: {e}"));
            let read = parse_line(line.as_bytes()).map_err(|(code, reason)| {
                assert_eq!(code, "bad_message");
                reason
            });
            match (read, typed) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{line}"),
                (Err(a), Err(b)) => assert_eq!(a, b, "{line}"),
                (a, b) => panic!("{line}: read {a:?}, typed {b:?}"),
            }
        }
    }

    #[test]
    fn the_announcement_of_a_move_is_played_byte_for_byte() {
        let mut applied =
            crate::game::Applied::moved(2, Some("green".into()), Value::String("c4".into()));
        applied
            .effects
            .insert("flipped".into(), serde_json::json!(["d4", "e4"]));
        let mut effects = BTreeMap::new();
        effects.insert("flipped".into(), serde_json::json!(["d4", "e4"]));
        let played = to_line(&ToBot::Played(Played {
            seat: 2,
            colour: Some("green".into()),
            mv: "c4".into(),
            effects,
            by_arbiter: true,
        }));
        assert_eq!(announcement(&applied, true, None), played);
        // No colour, several effects (one whose key needs escaping), a notation that is not a
        // string, a move by the bot: the same bytes as the typed message.
        let mut applied = crate::game::Applied::moved(0, None, serde_json::json!({"a": [1, 2]}));
        let effects: BTreeMap<String, Value> = [
            ("z\"q".to_string(), serde_json::json!("é\n")),
            ("flipped".to_string(), serde_json::json!([])),
            ("n".to_string(), serde_json::json!(1.5)),
        ]
        .into_iter()
        .collect();
        applied.effects = effects.clone().into_iter().collect();
        let played = to_line(&ToBot::Played(Played {
            seat: 0,
            colour: None,
            mv: serde_json::json!({"a": [1, 2]}),
            effects,
            by_arbiter: false,
        }));
        let mut line = b"kept".to_vec();
        announcement_into(&applied, false, Some(3.0), &mut line);
        assert_eq!(&line[..4], b"kept", "appended");
        assert_eq!(line[4..], played[..]);
    }

    #[test]
    fn played_flattens_effects() {
        let mut effects = BTreeMap::new();
        effects.insert("flipped".into(), serde_json::json!(["e4"]));
        let line = to_line(&ToBot::Played(Played {
            seat: 1,
            colour: Some("red".into()),
            mv: "d3".into(),
            effects,
            by_arbiter: false,
        }));
        let text = String::from_utf8(line).unwrap();
        assert_eq!(
            text,
            "{\"type\":\"played\",\"seat\":1,\"colour\":\"red\",\"move\":\"d3\",\"flipped\":[\"e4\"],\"by_arbiter\":false}\n"
        );
    }
}
