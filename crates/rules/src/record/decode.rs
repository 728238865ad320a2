//! Reading a [`MoveRecord`] without serde's `flatten`, which buffers each move into an
//! intermediate tree before sorting its keys out: a record holds a move per ply, and every
//! reader of records (`replay --verify`, resume, `merge`, the report) reads them all. The
//! fields are the derived `Serialize`'s; a key that is not one of them is one of the game's
//! effects, kept in `effects` as it was written.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::MoveRecord;
use super::fault::Refused;

/// A key of a move's object.
enum Key {
    Ply,
    Kind,
    Seat,
    Colour,
    Move,
    Ms,
    AtMs,
    CpuMs,
    BankMs,
    Refused,
    ByArbiter,
    Opening,
    Effect(String),
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
                Ok(match v {
                    "ply" => Key::Ply,
                    "kind" => Key::Kind,
                    "seat" => Key::Seat,
                    "colour" => Key::Colour,
                    "move" => Key::Move,
                    "ms" => Key::Ms,
                    "at_ms" => Key::AtMs,
                    "cpu_ms" => Key::CpuMs,
                    "bank_ms" => Key::BankMs,
                    "refused" => Key::Refused,
                    "by_arbiter" => Key::ByArbiter,
                    "opening" => Key::Opening,
                    other => Key::Effect(other.to_string()),
                })
            }
        }
        d.deserialize_identifier(KeyVisitor)
    }
}

impl<'de> Deserialize<'de> for MoveRecord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<MoveRecord, D::Error> {
        d.deserialize_map(MoveVisitor)
    }
}

struct MoveVisitor;

/// Stores a field's value, refusing a second one as the derived reader does.
fn once<'de, T: Deserialize<'de>, A: MapAccess<'de>>(
    slot: &mut Option<T>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

impl<'de> Visitor<'de> for MoveVisitor {
    type Value = MoveRecord;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a move record (an object)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MoveRecord, A::Error> {
        let mut ply = None;
        let mut kind: Option<Option<String>> = None;
        let mut seat = None;
        let mut colour: Option<Option<String>> = None;
        let mut mv: Option<Value> = None;
        let mut ms = None;
        let mut at_ms: Option<Option<f64>> = None;
        let mut cpu_ms: Option<Option<f64>> = None;
        let mut bank_ms: Option<Option<f64>> = None;
        let mut refused: Option<Vec<Refused>> = None;
        let mut by_arbiter = None;
        let mut opening = None;
        let mut effects = BTreeMap::new();
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Ply => once(&mut ply, &mut map, "ply")?,
                Key::Kind => once(&mut kind, &mut map, "kind")?,
                Key::Seat => once(&mut seat, &mut map, "seat")?,
                Key::Colour => once(&mut colour, &mut map, "colour")?,
                Key::Move => once(&mut mv, &mut map, "move")?,
                Key::Ms => once(&mut ms, &mut map, "ms")?,
                Key::AtMs => once(&mut at_ms, &mut map, "at_ms")?,
                Key::CpuMs => once(&mut cpu_ms, &mut map, "cpu_ms")?,
                Key::BankMs => once(&mut bank_ms, &mut map, "bank_ms")?,
                Key::Refused => once(&mut refused, &mut map, "refused")?,
                Key::ByArbiter => once(&mut by_arbiter, &mut map, "by_arbiter")?,
                Key::Opening => once(&mut opening, &mut map, "opening")?,
                Key::Effect(name) => {
                    let value: Value = map.next_value()?;
                    effects.insert(name, value);
                }
            }
        }
        Ok(MoveRecord {
            ply: ply.ok_or_else(|| de::Error::missing_field("ply"))?,
            kind: kind.flatten(),
            seat: seat.ok_or_else(|| de::Error::missing_field("seat"))?,
            colour: colour.flatten(),
            mv: mv.ok_or_else(|| de::Error::missing_field("move"))?,
            effects,
            ms: ms.ok_or_else(|| de::Error::missing_field("ms"))?,
            at_ms: at_ms.flatten(),
            cpu_ms: cpu_ms.flatten(),
            bank_ms: bank_ms.flatten(),
            refused: refused.unwrap_or_default(),
            by_arbiter: by_arbiter.ok_or_else(|| de::Error::missing_field("by_arbiter"))?,
            opening: opening.unwrap_or_default(),
        })
    }
}

/// A round's moves (`RoundRecord::moves`), read into a vector with room for a round of the
/// common games from the start: grown from empty, it would be reallocated (every move read so
/// far copied) five times in a round of 60 moves.
pub(super) fn moves<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<MoveRecord>, D::Error> {
    struct Moves;
    impl<'de> Visitor<'de> for Moves {
        type Value = Vec<MoveRecord>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a sequence")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<MoveRecord>, A::Error> {
            let mut moves = Vec::with_capacity(seq.size_hint().unwrap_or(64));
            while let Some(m) = seq.next_element()? {
                moves.push(m);
            }
            Ok(moves)
        }
    }
    d.deserialize_seq(Moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader this one replaced: the derived one, with `flatten`.
    #[derive(serde::Deserialize)]
    struct Derived {
        ply: u32,
        #[serde(default)]
        kind: Option<String>,
        seat: usize,
        #[serde(default)]
        colour: Option<String>,
        #[serde(rename = "move")]
        mv: Value,
        #[serde(flatten)]
        effects: BTreeMap<String, Value>,
        ms: f64,
        #[serde(default)]
        at_ms: Option<f64>,
        #[serde(default)]
        cpu_ms: Option<f64>,
        #[serde(default)]
        bank_ms: Option<f64>,
        #[serde(default)]
        refused: Vec<Refused>,
        by_arbiter: bool,
        #[serde(default)]
        opening: bool,
    }

    type Read = Result<MoveRecord, serde_json::Error>;

    fn both(text: &str) -> (Read, Read) {
        let ours = serde_json::from_str::<MoveRecord>(text);
        let derived = serde_json::from_str::<Derived>(text).map(|d| MoveRecord {
            ply: d.ply,
            kind: d.kind,
            seat: d.seat,
            colour: d.colour,
            mv: d.mv,
            effects: d.effects,
            ms: d.ms,
            at_ms: d.at_ms,
            cpu_ms: d.cpu_ms,
            bank_ms: d.bank_ms,
            refused: d.refused,
            by_arbiter: d.by_arbiter,
            opening: d.opening,
        });
        (ours, derived)
    }

    #[test]
    fn reads_what_the_derived_reader_read() {
        for text in [
            r#"{"ply":1,"seat":2,"colour":"green","move":"c4","flipped":["d4"],"ms":0.031,"cpu_ms":0.008,"by_arbiter":false}"#,
            r#"{"ply":4,"seat":1,"move":"b2","ms":3.5,"cpu_ms":1.0,"bank_ms":5996.5,"by_arbiter":false}"#,
            r#"{"ply":3,"kind":"declare","seat":0,"move":{"moves":5},"ms":12,"at_ms":40.5,"by_arbiter":false,"opening":true}"#,
            r#"{"ply":2,"seat":1,"move":"a1","ms":0,"by_arbiter":true,"refused":[{"line":"x","reason":"not JSON","ms":1.5}],"score":{"a":[1,2]},"kind":null,"cpu_ms":null}"#,
        ] {
            let (ours, derived) = both(text);
            assert_eq!(ours.expect(text), derived.expect(text), "{text}");
        }
    }

    #[test]
    fn refuses_what_the_derived_reader_refused() {
        for text in [
            r#"{"seat":2,"move":"c4","ms":0.0,"by_arbiter":false}"#,
            r#"{"ply":1,"seat":2,"ms":0.0,"by_arbiter":false}"#,
            r#"{"ply":1,"seat":-2,"move":"c4","ms":0.0,"by_arbiter":false}"#,
            r#"{"ply":1,"seat":2,"move":"c4","ms":"fast","by_arbiter":false}"#,
            r#"{"ply":1,"seat":2,"move":"c4","ms":0.0}"#,
            r#"["ply",1]"#,
        ] {
            let (ours, derived) = both(text);
            assert!(ours.is_err(), "{text} was read: {ours:?}");
            assert!(derived.is_err(), "{text}");
        }
    }

    #[test]
    fn round_trips_through_the_writer() {
        let text = r#"{"ply":7,"seat":0,"colour":"red","move":"d3","flipped":["c3","d4"],"ms":0.033,"cpu_ms":0.012,"refused":[{"line":"{}","reason":"no type","code":"no_type","ms":0.5}],"by_arbiter":false}"#;
        let m: MoveRecord = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&m).unwrap(), text);
    }
}
