//! A recorded action as the verifier reads it, whichever way the record was read: borrowed from
//! a [`MoveRecord`] (a record read whole, as `--round` and the arena's callers do), or read
//! lean from the line itself (`lean.rs`, what `replay --verify` of a file does) with its
//! notation and effects kept as the JSON text they were written as, not built into [`Value`]
//! trees. The referee's actions are compared with the text first (the record's
//! writer writes them in one canonical form) and, where the text differs, with the values it
//! reads as, the way a record read whole is compared: the verdicts and messages are the same
//! either way.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::Value;

use crate::record::MoveRecord;
use crate::record::fault::Refused;

/// One recorded action: [`MoveRecord`]'s fields.
pub(crate) struct Recorded<'a> {
    pub ply: u32,
    pub kind: Option<&'a str>,
    pub seat: usize,
    pub colour: Option<&'a str>,
    pub mv: Notation<'a>,
    pub effects: Effects<'a>,
    pub ms: f64,
    pub at_ms: Option<f64>,
    pub cpu_ms: Option<f64>,
    pub bank_ms: Option<f64>,
    pub refused: &'a [Refused],
    pub by_arbiter: bool,
    pub opening: bool,
}

/// The action's notation (`move`): a value, or its JSON text.
pub(crate) enum Notation<'a> {
    Tree(&'a Value),
    Text(&'a str),
}

/// The game's effects of the action (the move object's other keys): values, or each key and
/// its value's JSON text in file order.
pub(crate) enum Effects<'a> {
    Tree(&'a BTreeMap<String, Value>),
    Text(Vec<(&'a str, &'a str)>),
}

impl<'a> Recorded<'a> {
    pub fn of(m: &'a MoveRecord) -> Recorded<'a> {
        Recorded {
            ply: m.ply,
            kind: m.kind.as_deref(),
            seat: m.seat,
            colour: m.colour.as_deref(),
            mv: Notation::Tree(&m.mv),
            effects: Effects::Tree(&m.effects),
            ms: m.ms,
            at_ms: m.at_ms,
            cpu_ms: m.cpu_ms,
            bank_ms: m.bank_ms,
            refused: &m.refused,
            by_arbiter: m.by_arbiter,
            opening: m.opening,
        }
    }
}

/// What JSON text reads as (the lean reader took it as JSON).
fn read(raw: &str) -> Value {
    serde_json::from_str(raw).expect("text read as JSON reads again")
}

/// The text of a JSON string with nothing escaped in it: `"d3"` (what the writer writes for
/// every plain notation).
fn plain_string(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains('\\')).then_some(inner)
}

impl Notation<'_> {
    /// The notation as a value.
    pub fn value(&self) -> Cow<'_, Value> {
        match self {
            Notation::Tree(v) => Cow::Borrowed(*v),
            Notation::Text(raw) => Cow::Owned(read(raw)),
        }
    }

    /// Whether the notation is `v`.
    pub fn is(&self, v: &Value, scratch: &mut Vec<u8>) -> bool {
        match self {
            Notation::Tree(x) => *x == v,
            Notation::Text(raw) => {
                if let (Value::String(s), Some(text)) = (v, plain_string(raw)) {
                    return s == text;
                }
                same_text(raw, v, scratch) || read(raw) == *v
            }
        }
    }

    /// Appends the notation as JSON, as the writer writes its value.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            Notation::Text(raw) if plain_string(raw).is_some() => {
                out.extend_from_slice(raw.as_bytes());
            }
            other => serde_json::to_writer(out, &*other.value()).expect("JSON"),
        }
    }
}

/// Whether `raw` is written exactly as the writer writes `v`.
fn same_text(raw: &str, v: &Value, scratch: &mut Vec<u8>) -> bool {
    scratch.clear();
    serde_json::to_writer(&mut *scratch, v).expect("JSON");
    scratch.as_slice() == raw.as_bytes()
}

impl Effects<'_> {
    /// The effects as values (a key written twice: its last value, as a record read whole
    /// keeps it).
    pub fn map(&self) -> Cow<'_, BTreeMap<String, Value>> {
        match self {
            Effects::Tree(m) => Cow::Borrowed(*m),
            Effects::Text(list) => {
                let mut map = BTreeMap::new();
                for (k, raw) in list {
                    map.insert(k.to_string(), read(raw));
                }
                Cow::Owned(map)
            }
        }
    }

    /// Whether the effects are the engine's, `alike` deciding for two values (numbers to the
    /// precision a record keeps).
    pub fn agree(
        &self,
        engine: &BTreeMap<String, Value>,
        alike: fn(&Value, &Value) -> bool,
        scratch: &mut Vec<u8>,
    ) -> bool {
        if let Effects::Text(list) = self
            && list.len() == engine.len()
            && list
                .iter()
                .zip(engine)
                .all(|((k, raw), (ek, ev))| k == ek && same_text(raw, ev, scratch))
        {
            return true;
        }
        let recorded = self.map();
        engine.len() == recorded.len()
            && engine
                .iter()
                .all(|(k, v)| recorded.get(k).is_some_and(|w| alike(v, w)))
    }
}
