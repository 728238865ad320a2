//! Every message of every game's live traffic against the schemas, strictly.
//!
//! A match of each game is played with every bot behind a tap (`sh -c 'tee IN | BOT | tee
//! OUT'`), so the test sees the lines exactly as they crossed the pipes. Bots are chosen so
//! that every message type occurs: a refused move (`illegal`), a `log`, a failed and a
//! successful demonstration (`verified` with `reason`, and with `robots`), passes. Then:
//!
//! - every line the arbiter sent validates against `to-bot.json` or the game's
//!   `<game>-to-bot.json`, and every line a bot sent against `from-bot.json` or
//!   `<game>-from-bot.json`, **with no field the schema does not name** (the schemas are made
//!   strict for the test: `unevaluatedProperties: false` on every object that does not say
//!   otherwise);
//! - every `state` (`start`, `turn`, `prove`) validates strictly against `<game>-state.json`,
//!   and a Rollerball `played.events[]` against `rollerball-event.json`;
//! - `played` carries the game's own effects beside the shared fields: each must be named (in
//!   backquotes) in the game's document, `protocol/games/<game>.md`;
//! - the traffic holds every message type the schemas know, so nothing goes unchecked;
//! - the rounds of the same matches validate strictly against `record.json`.

use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use jsonschema::Validator;
use rollarena::schema::schemas;
use serde_json::{Map, Value};

use super::errors;
use crate::check::{PYTHON, rollarena};

/// `schema` with `unevaluatedProperties: false` on every object schema that names its
/// properties, except the definitions a root `oneOf` variant refers to (the variant itself,
/// which adds `type`, is made strict instead). An object that allows any other field
/// (`additionalProperties: true`, from a flattened map) loses that, unless its path is in
/// `lenient`: `played`, whose effects each game's document names.
fn strict(schema: &Value, lenient: &[&str]) -> Value {
    let variants: BTreeSet<String> = schema["oneOf"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v["$ref"].as_str().map(str::to_string))
        .collect();
    fn walk(v: &mut Value, path: &str, variants: &BTreeSet<String>, lenient: &[&str]) {
        match v {
            Value::Object(map) => {
                if map.get("additionalProperties") == Some(&Value::Bool(true))
                    && !lenient.contains(&path)
                {
                    map.remove("additionalProperties");
                }
                if map.get("properties").is_some_and(Value::is_object)
                    && !map.contains_key("additionalProperties")
                    && !variants.contains(path)
                {
                    map.insert("unevaluatedProperties".into(), Value::Bool(false));
                }
                for (k, child) in map.iter_mut() {
                    walk(child, &format!("{path}/{k}"), variants, lenient);
                }
            }
            Value::Array(items) => items
                .iter_mut()
                .enumerate()
                .for_each(|(i, child)| walk(child, &format!("{path}/{i}"), variants, lenient)),
            _ => {}
        }
    }
    let mut s = schema.clone();
    walk(&mut s, "#", &variants, lenient);
    s
}

/// The objects that carry a game's own effects beside their shared fields: `played`, and a
/// move of the record. Each game's document names those effects (checked here on the traffic).
const LENIENT: &[&str] = &["#/$defs/Played", "#/$defs/MoveRecord"];

/// The strict validator of a schema file, or `None` when no schema has that name.
fn strict_validator(file: &str) -> Option<Validator> {
    let (_, schema) = schemas().into_iter().find(|(name, _)| *name == file)?;
    Some(
        jsonschema::validator_for(&strict(&schema, LENIENT))
            .unwrap_or_else(|e| panic!("{file}, made strict, does not compile: {e}")),
    )
}

/// The message types a schema's root `oneOf` knows.
fn types_of(file: &str) -> BTreeSet<String> {
    let (_, schema) = schemas()
        .into_iter()
        .find(|(name, _)| *name == file)
        .expect("the schema exists");
    schema["oneOf"]
        .as_array()
        .expect("a message schema is a oneOf")
        .iter()
        .filter_map(|v| {
            v["properties"]["type"]["const"]
                .as_str()
                .map(str::to_string)
        })
        .collect()
}

/// A bot command behind a tap: what it receives is appended to `dir/in-<tag>`, what it sends to
/// `dir/out-<tag>`.
///
/// The directory is a word of the command of its own (the shell's `$0`), so that the sandbox
/// lets the bot see it (a bot sees of the host's `/tmp` only what its command names, word by
/// word), and the
/// tap files are made beforehand, writable by all: every bot process runs under a uid of its
/// own, a restarted one under another.
fn tapped(dir: &Path, tag: &str, command: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    for name in [format!("in-{tag}"), format!("out-{tag}")] {
        let file = dir.join(name);
        std::fs::write(&file, "").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
    }
    // The absolute paths the bot's own command names follow as words of their own (the
    // script ignores them), for the same reason: a path inside the `-c` script is not seen.
    let paths: Vec<&str> = command.split(' ').filter(|w| w.starts_with('/')).collect();
    format!(
        "/bin/sh -c 'tee -a \"$0/in-{tag}\" | {command} | tee -a \"$0/out-{tag}\"' {dir} {paths}",
        dir = dir.display(),
        paths = paths.join(" ")
    )
}

/// The JSON lines of every tap file of `dir` whose name starts with `prefix`.
fn lines(dir: &Path, prefix: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the tap directory")
        .map(|e| e.expect("an entry").path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .collect();
    files.sort();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        for (n, line) in std::fs::read_to_string(&file)
            .expect("a tap file")
            .lines()
            .enumerate()
        {
            let value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{name}:{}: not JSON ({e}): {line}", n + 1));
            out.push((format!("{name}:{}", n + 1), value));
        }
    }
    out
}

/// One game's match, tapped: (the lines to bots, the lines from bots, the record's rounds).
type Traffic = (Vec<(String, Value)>, Vec<(String, Value)>, Vec<Value>);

fn play(game: &str, bots: &[&str], flags: &[&str]) -> Traffic {
    let dir = tempfile::Builder::new()
        .prefix("rollarena-traffic-")
        .tempdir()
        .expect("a temporary directory");
    // The bots run as the unprivileged bot user: the taps must be able to write here.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777))
        .expect("chmod the tap directory");
    let record = dir.path().join("record.jsonl");
    let exe = rollarena().display().to_string();
    let commands: Vec<String> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| tapped(dir.path(), &i.to_string(), &b.replace("rollarena", &exe)))
        .collect();
    let out = Command::new(rollarena())
        .args(["--quiet", "match", "--game", game])
        .args(&commands)
        .args(flags)
        .arg("--record")
        .arg(&record)
        .output()
        .expect("rollarena runs");
    assert!(
        out.status.success(),
        "{game}: rollarena match failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let rounds = std::fs::read_to_string(&record)
        .expect("the record")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a record line is JSON"))
        .collect();
    (lines(dir.path(), "in-"), lines(dir.path(), "out-"), rounds)
}

/// The fields of `played` every game shares; the others are the game's own effects.
const PLAYED: &[&str] = &["type", "seat", "colour", "move", "by_arbiter"];

#[test]
fn every_message_of_every_games_traffic_validates_strictly() {
    let zoo = format!("{PYTHON} {}/tests/bots/zoo.py", env!("CARGO_MANIFEST_DIR"));
    let robots_zoo = format!(
        "{PYTHON} {}/tests/bots/robots_zoo.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let illegal = format!("{zoo} --behaviour illegal-once --at 2");
    let clumsy = format!("{robots_zoo} --declare 2@0 --prove wrong");
    let games: [(&str, Vec<&str>, &[&str]); 4] = [
        (
            "rolit",
            vec![&illegal, "rollarena bot greedy", "rollarena bot random"],
            &["--size", "6", "--rounds", "3", "--seed", "4"],
        ),
        (
            "robots",
            vec!["rollarena bot solver", &clumsy],
            &["--rounds", "2", "--hourglass", "1s", "--seed", "2"],
        ),
        (
            // `greedy` does not play Goofspiel: it says so with a `log` line and plays on.
            "goofspiel",
            vec!["rollarena bot random", "rollarena bot greedy"],
            &["--cards", "5", "--rounds", "2", "--seed", "3"],
        ),
        (
            "rollerball",
            vec![
                "rollarena bot random",
                "rollarena bot random --seed 2",
                "rollarena bot random --seed 3",
            ],
            &["--turn-limit", "40", "--rounds", "1", "--seed", "5"],
        ),
    ];
    let to_bot = strict_validator("to-bot.json").expect("to-bot.json");
    let from_bot = strict_validator("from-bot.json").expect("from-bot.json");
    let record = strict_validator("record.json").expect("record.json");
    let mut seen_to = BTreeSet::new();
    let mut seen_from = BTreeSet::new();
    let mut bad = Vec::new();
    for (game, bots, flags) in &games {
        let (sent, received, rounds) = play(game, bots, flags);
        let own_to = strict_validator(&format!("{game}-to-bot.json"));
        let own_from = strict_validator(&format!("{game}-from-bot.json"));
        let state = strict_validator(&format!("{game}-state.json")).expect("a state schema");
        let event = strict_validator(&format!("{game}-event.json"));
        let doc = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("protocol/games/{game}.md")),
        )
        .expect("the game's document");
        assert!(
            !sent.is_empty() && !received.is_empty(),
            "{game}: no traffic"
        );
        for (at, msg) in &sent {
            let kind = msg["type"].as_str().unwrap_or("?").to_string();
            let errs = first_valid(&to_bot, own_to.as_ref(), msg);
            if !errs.is_empty() {
                bad.push(format!("{game} {at} ({kind}): {}", errs.join("; ")));
            }
            if let Some(s) = msg.get("state") {
                let errs = errors(&state, s);
                if !errs.is_empty() {
                    bad.push(format!("{game} {at} ({kind}.state): {}", errs.join("; ")));
                }
            }
            if kind == "played" {
                let map: &Map<String, Value> = msg.as_object().expect("an object");
                for key in map.keys().filter(|k| !PLAYED.contains(&k.as_str())) {
                    if !doc.contains(&format!("`{key}`")) {
                        bad.push(format!(
                            "{game} {at}: played carries `{key}`, which protocol/games/{game}.md never names"
                        ));
                    }
                }
                if let (Some(v), Some(events)) = (&event, msg["events"].as_array()) {
                    for e in events {
                        let errs = errors(v, e);
                        if !errs.is_empty() {
                            bad.push(format!(
                                "{game} {at} (played.events[]): {}",
                                errs.join("; ")
                            ));
                        }
                    }
                }
            }
            seen_to.insert(kind);
        }
        for (at, msg) in &received {
            let kind = msg["type"].as_str().unwrap_or("?").to_string();
            let errs = first_valid(&from_bot, own_from.as_ref(), msg);
            if !errs.is_empty() {
                bad.push(format!("{game} {at} ({kind}): {}", errs.join("; ")));
            }
            seen_from.insert(kind);
        }
        for (i, round) in rounds.iter().enumerate() {
            let errs = errors(&record, round);
            if !errs.is_empty() {
                bad.push(format!(
                    "{game} record, round {}: {}",
                    i + 1,
                    errs.join("; ")
                ));
            }
            let shared: BTreeSet<String> = schemas()
                .into_iter()
                .find(|(n, _)| *n == "record.json")
                .and_then(|(_, s)| s["$defs"]["MoveRecord"]["properties"].as_object().cloned())
                .expect("record.json defines MoveRecord")
                .keys()
                .cloned()
                .collect();
            for mv in round["moves"].as_array().into_iter().flatten() {
                for key in mv.as_object().into_iter().flatten().map(|(k, _)| k) {
                    if !shared.contains(key) && !doc.contains(&format!("`{key}`")) {
                        bad.push(format!(
                            "{game} record, round {}: a move carries `{key}`, which protocol/games/{game}.md never names",
                            i + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "messages the schemas do not describe exactly:\n{}",
        bad.join("\n")
    );
    let mut want_to = types_of("to-bot.json");
    want_to.extend(types_of("robots-to-bot.json"));
    let mut want_from = types_of("from-bot.json");
    want_from.extend(types_of("robots-from-bot.json"));
    let missing: Vec<_> = want_to
        .difference(&seen_to)
        .chain(want_from.difference(&seen_from))
        .collect();
    assert!(
        missing.is_empty(),
        "the traffic never showed {missing:?}: add a bot that makes it happen"
    );
}

/// The errors of `msg` against the shared schema, or none if the game's own accepts it.
fn first_valid(shared: &Validator, own: Option<&Validator>, msg: &Value) -> Vec<String> {
    let errs = errors(shared, msg);
    if errs.is_empty() {
        return errs;
    }
    match own {
        Some(v) if errors(v, msg).is_empty() => Vec::new(),
        Some(v) => errs.into_iter().chain(errors(v, msg)).collect(),
        None => errs,
    }
}

#[test]
fn strict_schemas_refuse_an_unnamed_field() {
    let to_bot = strict_validator("to-bot.json").expect("to-bot.json");
    let hello = serde_json::json!({"type": "hello", "protocol": 1, "game": "rolit",
        "options": {}, "seat": 0, "seats": ["a"], "rounds": 1, "startup_ms": 1, "move_ms": 1});
    assert!(
        errors(&to_bot, &hello).is_empty(),
        "{:?}",
        errors(&to_bot, &hello)
    );
    let mut extra = hello.clone();
    extra["surprise"] = Value::from(1);
    assert!(!errors(&to_bot, &extra).is_empty());
    // `played` names its game's effects elsewhere (the game's document): they pass here.
    let played = serde_json::json!({"type": "played", "seat": 0, "move": "d3",
        "flipped": ["d4"], "by_arbiter": false});
    assert!(errors(&to_bot, &played).is_empty());
    let robots = strict_validator("robots-to-bot.json").expect("robots-to-bot.json");
    let verified = serde_json::json!({"type": "verified", "seat": 0, "moves": null,
        "declared": 4, "ok": false, "reason": "late", "at_ms": 1.0, "by_arbiter": true});
    assert!(
        errors(&robots, &verified).is_empty(),
        "{:?}",
        errors(&robots, &verified)
    );
    let mut odd = verified.clone();
    odd["okay"] = Value::from(true);
    assert!(!errors(&robots, &odd).is_empty());
}
