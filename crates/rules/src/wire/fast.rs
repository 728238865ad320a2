//! The reading of the one line a match is made of, a bot's `move` (`{"type":"move","move":"d3",
//! "turn_id":7}`), without building a JSON tree for it: every move of every match (and of
//! every verification, which feeds a record's moves back as lines) passes here. Only a flat
//! object of plain strings (no escapes), unsigned integers and `null`s is read; anything else,
//! or anything this reader doubts (an escape, a repeated key, a `turn_id` that is not a
//! number), is left to the general parser, whose reading and errors stay the protocol's.

use serde_json::Value;

use super::cursor::Cursor;
use super::{FromBot, Incoming, Move};

/// A plain value of a flat object.
#[derive(Clone, Copy, PartialEq)]
enum Plain<'a> {
    Str(&'a str),
    Num(u64),
    Null,
}

/// The `move` the line is, when it is a plain one; `None` sends it to the general parser.
pub(super) fn plain_move(text: &str) -> Option<Incoming> {
    let mut r = Cursor::new(text);
    let (mut kind, mut mv, mut turn_id) = (None, None, None);
    let mut other: Option<Plain<'_>>;
    r.ws();
    r.eat(b'{')?;
    r.ws();
    if r.peek()? != b'}' {
        loop {
            let key = r.plain_string()?;
            r.ws();
            r.eat(b':')?;
            r.ws();
            let value = value(&mut r)?;
            let slot = match key {
                "type" => &mut kind,
                "move" => &mut mv,
                "turn_id" => &mut turn_id,
                _ => {
                    other = None; // a field the protocol ignores (a repeat of it too)
                    &mut other
                }
            };
            if slot.replace(value).is_some() {
                return None; // a repeated key: the general parser says which one counts
            }
            r.ws();
            match r.next()? {
                b',' => r.ws(),
                b'}' => break,
                _ => return None,
            }
        }
    } else {
        r.at += 1;
    }
    r.ws();
    if r.at != r.b.len() || kind != Some(Plain::Str("move")) {
        return None;
    }
    let turn_id = match turn_id {
        None | Some(Plain::Null) => None,
        Some(Plain::Num(n)) => Some(n),
        Some(Plain::Str(_)) => return None,
    };
    let mv = match mv? {
        Plain::Str(s) => Value::String(s.to_string()),
        Plain::Num(n) => Value::from(n),
        Plain::Null => Value::Null,
    };
    Some(Incoming::Message(FromBot::Move(Move { mv, turn_id })))
}

/// A plain value of a flat object.
fn value<'a>(r: &mut Cursor<'a>) -> Option<Plain<'a>> {
    match r.peek()? {
        b'"' => r.plain_string().map(Plain::Str),
        b'n' => {
            let rest = r.b.get(r.at..r.at + 4)?;
            r.at += 4;
            (rest == b"null").then_some(Plain::Null)
        }
        b'0'..=b'9' => {
            let start = r.at;
            r.digits();
            let digits = &r.text[start..r.at];
            // A fraction or an exponent is a number of another kind; a leading zero is
            // not JSON.
            if matches!(r.peek(), Some(b'.' | b'e' | b'E'))
                || (digits.len() > 1 && digits.starts_with('0'))
            {
                return None;
            }
            digits.parse().ok().map(Plain::Num)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The general parser's reading of a line, for comparison.
    fn general(text: &str) -> Option<Incoming> {
        let Ok(Value::Object(mut map)) = serde_json::from_str::<Value>(text) else {
            return None;
        };
        if map.get("type") != Some(&Value::from("move")) {
            return None;
        }
        let turn_id = match map.get("turn_id") {
            None | Some(Value::Null) => None,
            Some(t) => Some(t.as_u64()?),
        };
        let mv = map.remove("move")?;
        Some(Incoming::Message(FromBot::Move(Move { mv, turn_id })))
    }

    #[test]
    fn reads_plain_moves_as_the_general_parser_does() {
        for text in [
            r#"{"type":"move","move":"d3"}"#,
            r#"{"move":"d3","type":"move"}"#,
            r#" { "type" : "move" , "move" : "c4" , "turn_id" : 17 } "#,
            r#"{"type":"move","move":"a1","turn_id":null}"#,
            r#"{"type":"move","move":"a1","turn_id":0,"note":"x","n":3,"z":null}"#,
            r#"{"type":"move","move":"é5","turn_id":18446744073709551615}"#,
            r#"{"type":"move","move":7}"#,
            r#"{"type":"move","move":null}"#,
            "{\"type\":\"move\",\t\"move\":\"h8\"}\r\n",
        ] {
            let fast = plain_move(text);
            assert!(fast.is_some(), "{text} was not read");
            assert_eq!(fast, general(text), "{text}");
        }
    }

    #[test]
    fn leaves_everything_else_to_the_general_parser() {
        for text in [
            r#"{"type":"move"}"#,
            r#"{"type":"ready","move":"d3"}"#,
            r#"{"type":"move","move":"d\u0033"}"#,
            r#"{"type":"move","move":"d3","move":"c4"}"#,
            r#"{"type":"move","move":"d3","turn_id":"7"}"#,
            r#"{"type":"move","move":"d3","turn_id":-1}"#,
            r#"{"type":"move","move":"d3","turn_id":1.5}"#,
            r#"{"type":"move","move":"d3","turn_id":1e3}"#,
            r#"{"type":"move","move":"d3","turn_id":07}"#,
            r#"{"type":"move","move":"d3","turn_id":18446744073709551616}"#,
            r#"{"type":"move","move":["d3"]}"#,
            r#"{"type":"move","move":"d3","x":true}"#,
            r#"{"type":"move","move":"d3"} x"#,
            r#"{"type":"move","move":"d3",}"#,
            r#"{"type":"move","move":"d3""#,
            r#"{"type":"move","move":"d3"}}"#,
            r#"{"type":"move","move":nul}"#,
            "\u{a0}{\"type\":\"move\",\"move\":\"d3\"}",
            "{\"type\":\"move\",\"move\":\"d\u{1}3\"}",
            r#"["move"]"#,
            r#"{}"#,
        ] {
            assert!(plain_move(text).is_none(), "{text} was read");
        }
    }
}
