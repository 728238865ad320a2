//! JSON Schemas of the wire messages and the record, generated from the serde types.
//!
//! The serde types are the truth: [`ToBot`] and [`FromBot`] are what the arbiter writes and
//! parses, [`RoundRecord`] is what it records, and each game's registry entry gives the
//! schemas of its own types (its state, and its own messages, events or secrets where it has
//! them). This module turns them into the files under `protocol/schemas/`, for bot authors and
//! record readers in other languages. The integration test `schemas` regenerates every file
//! and fails when a committed one differs (`UPDATE_SCHEMAS=1` rewrites them), so the files
//! cannot drift from the code.
//!
//! The output is deterministic so that a diff of a schema file means a change of the types:
//! object keys are sorted at every level (whatever order `serde_json`'s `preserve_order`
//! feature, which another crate may switch on, would give) and the text is pretty-printed with
//! a final newline.

use schemars::{JsonSchema, schema_for};
use serde_json::{Map, Value};

use crate::game::registry::GAMES;
use crate::record::RoundRecord;
use crate::wire::{FromBot, ToBot};

/// The directory of the schema files, relative to the repository root.
pub const SCHEMA_DIR: &str = "protocol/schemas";

/// Every schema, as (file name, schema), in a fixed order.
pub fn schemas() -> Vec<(&'static str, Value)> {
    let mut all = vec![
        ("to-bot.json", generate::<ToBot>()),
        ("from-bot.json", generate::<FromBot>()),
        ("record.json", generate::<RoundRecord>()),
    ];
    all.extend(
        GAMES
            .iter()
            .flat_map(|e| (e.schemas)())
            .map(|(name, schema)| (name, sorted(&schema.to_value()))),
    );
    all
}

/// The text of a schema file: pretty-printed JSON with sorted keys and a final newline.
pub fn to_text(schema: &Value) -> String {
    let mut text = serde_json::to_string_pretty(&sorted(schema)).expect("a schema serialises");
    text.push('\n');
    text
}

/// The schema of one type, keys sorted.
fn generate<T: JsonSchema>() -> Value {
    sorted(&schema_for!(T).to_value())
}

/// A copy of `v` with the keys of every object in sorted order.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for k in keys {
                out.insert(k.clone(), sorted(&map[k]));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_sorted_and_names_unique() {
        let all = schemas();
        let mut names: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len(), "a schema file name is used twice");
        for entry in GAMES {
            for (name, _) in (entry.schemas)() {
                assert!(
                    name.starts_with(&format!("{}-", entry.name)),
                    "{name} is not named after its game {}",
                    entry.name
                );
            }
        }
        let text = to_text(&serde_json::json!({"b": 1, "a": {"d": 2, "c": 3}}));
        assert_eq!(
            text,
            "{\n  \"a\": {\n    \"c\": 3,\n    \"d\": 2\n  },\n  \"b\": 1\n}\n"
        );
    }
}
