//! The shape of the source tree, as the workspace's `Cargo.toml` and each crate's `lib.rs` state
//! it, checked so that it stays true. Cargo already refuses a cycle between the layer crates;
//! these tests keep the rest:
//!
//! - the layer crates depend on each other in the workspace's order only (its `members` list:
//!   rules, run, games, tournament, arena), and the command line's package on all of them;
//! - the rules crate reaches none of the crates of the layers above (no command line, no async
//!   runtime, no web server, no database), from `Cargo.lock`, so a bot can depend on it;
//! - no file outside the games' folders (`crates/rules/src/game/`, `crates/games/src/game/`)
//!   names a game (a game is reached through the catalog or its registry entry only), whatever
//!   games the registry holds;
//! - inside a crate, a top-level module uses only the modules listed before it in the crate's
//!   `lib.rs` (`//! - [`a`], [`b`]: ...`; code lines, not comments), except a game's folder,
//!   which holds the game's parts for its layer and is reached through the registry, and
//!   except the arena's crate, whose modules still form circles.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir`, recursively.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a readable directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            out.extend(files(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The layer crates' folders under `crates/`, bottom first, as the workspace lists them.
fn layers() -> Vec<String> {
    let manifest: toml::Table = std::fs::read_to_string(root().join("Cargo.toml"))
        .expect("Cargo.toml")
        .parse()
        .expect("Cargo.toml is TOML");
    let members = manifest["workspace"]["members"]
        .as_array()
        .expect("[workspace] members");
    members
        .iter()
        .map(|m| {
            let m = m.as_str().expect("a member path");
            m.strip_prefix("crates/")
                .expect("members under crates/")
                .to_string()
        })
        .collect()
}

/// The `rollarena-*` crates a manifest depends on (normal dependencies).
fn layer_dependencies(manifest: &Path) -> Vec<String> {
    let manifest: toml::Table = std::fs::read_to_string(manifest)
        .expect("a manifest")
        .parse()
        .expect("a manifest is TOML");
    manifest
        .get("dependencies")
        .and_then(|d| d.as_table())
        .map(|d| {
            d.keys()
                .filter_map(|k| k.strip_prefix("rollarena-"))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_layer_crates_depend_on_the_layers_below_only() {
    let order = layers();
    assert_eq!(
        order,
        ["rules", "run", "games", "tournament", "arena"],
        "the workspace's members changed: update README's picture of the crates and this test"
    );
    let mut wrong = Vec::new();
    for (rank, layer) in order.iter().enumerate() {
        for dep in layer_dependencies(&root().join("crates").join(layer).join("Cargo.toml")) {
            match order.iter().position(|l| *l == dep) {
                Some(r) if r < rank => {}
                _ => wrong.push(format!("rollarena-{layer} depends on rollarena-{dep}")),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "layers out of order:\n{}",
        wrong.join("\n")
    );
    let top = layer_dependencies(&root().join("Cargo.toml"));
    for layer in &order {
        assert!(
            top.contains(layer),
            "the command line does not depend on {layer}"
        );
    }
}

/// Every package `Cargo.lock` says `name` depends on, directly or not.
fn closure(name: &str) -> BTreeSet<String> {
    let lock: toml::Table = std::fs::read_to_string(root().join("Cargo.lock"))
        .expect("Cargo.lock")
        .parse()
        .expect("Cargo.lock is TOML");
    let mut deps: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for p in lock["package"].as_array().expect("packages") {
        let list: Vec<String> = p
            .get("dependencies")
            .and_then(|d| d.as_array())
            .map(|d| {
                d.iter()
                    // "name", or "name version" when two versions are locked.
                    .map(|x| x.as_str().unwrap().split(' ').next().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default();
        deps.entry(p["name"].as_str().unwrap().to_string())
            .or_default()
            .extend(list);
    }
    let mut seen = BTreeSet::new();
    let mut todo = vec![name.to_string()];
    while let Some(n) = todo.pop() {
        if seen.insert(n.clone()) {
            todo.extend(deps.get(&n).cloned().unwrap_or_default());
        }
    }
    seen
}

#[test]
fn the_rules_reach_no_command_line_runtime_server_or_database() {
    let reached = closure("rollarena-rules");
    assert!(reached.contains("serde_json"), "{reached:?}");
    let above: Vec<&String> = reached
        .iter()
        .filter(|c| {
            [
                "clap",
                "tokio",
                "axum",
                "hyper",
                "rusqlite",
                "libsqlite3-sys",
                "landlock",
            ]
            .contains(&c.as_str())
                || c.starts_with("rollarena-") && *c != "rollarena-rules"
        })
        .collect();
    assert!(
        above.is_empty(),
        "rollarena-rules reaches {above:?}: the rules are a library without them"
    );
}

/// The words that name a game: each registry name (and a plural), and a game's title's first
/// word where it is a proper name.
fn game_words() -> Regex {
    let mut words: Vec<String> = Vec::new();
    for entry in rollarena::game::registry::GAMES {
        words.push(regex::escape(entry.name));
        let first = entry.title.split([' ', ',']).next().unwrap_or_default();
        if first.len() > 3 {
            words.push(regex::escape(first));
        }
    }
    Regex::new(&format!(r"(?i)\b({})s?\b", words.join("|"))).expect("a regex")
}

/// Every crate's sources: the command line's `src/` and each layer's `crates/NAME/src/`.
fn source_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![root().join("src")];
    dirs.extend(
        layers()
            .iter()
            .map(|l| root().join("crates").join(l).join("src")),
    );
    dirs
}

#[test]
fn no_file_outside_the_games_names_a_game() {
    let words = game_words();
    let game_dirs = [
        root().join("crates/rules/src/game"),
        root().join("crates/games/src/game"),
    ];
    let mut found = Vec::new();
    for dir in source_dirs() {
        for path in files(&dir) {
            if game_dirs.iter().any(|g| path.starts_with(g)) {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            for (n, line) in text.lines().enumerate() {
                if let Some(m) = words.find(line) {
                    found.push(format!(
                        "{}:{}: {:?} in {}",
                        path.strip_prefix(root()).unwrap().display(),
                        n + 1,
                        m.as_str(),
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "files outside the games' folders name a game ({} lines); reach the game through its \
         registry entry instead:\n{}",
        found.len(),
        found.join("\n")
    );
}

/// A crate's top-level modules in the order its `lib.rs` lists them (`//! - [`a`], [`b`]: ...`).
fn modules(src: &Path) -> Vec<String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let item = Regex::new(r"\[`([a-z_]+)`\]").unwrap();
    let mut order = Vec::new();
    for line in lib.lines().filter(|l| l.starts_with("//! - ")) {
        let head = line.split(':').next().unwrap_or_default();
        for c in item.captures_iter(head) {
            order.push(c[1].to_string());
        }
    }
    order
}

#[test]
fn modules_use_only_the_modules_below_them_in_their_crate() {
    let uses = Regex::new(r"crate::([a-z_]+)").unwrap();
    let mut wrong = Vec::new();
    let mut listed = 0;
    // The arena's own modules still use each other in circles (its finals and ladder, its
    // views and live matches): it is not held to its list until they are cut.
    let arena = root().join("crates/arena/src");
    for src in source_dirs().into_iter().filter(|s| *s != arena) {
        let order = modules(&src);
        listed += order.len();
        for (rank, module) in order.iter().enumerate() {
            let dir = src.join(module);
            let paths = if dir.is_dir() {
                files(&dir)
            } else {
                vec![src.join(format!("{module}.rs"))]
            };
            for path in paths {
                let name = path.strip_prefix(root()).unwrap().display().to_string();
                // A game's folder and the registry that lists them: the game's parts.
                if module == "game" && !name.ends_with("crates/rules/src/game/mod.rs") {
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                for (n, line) in text.lines().enumerate() {
                    let code = line.trim_start();
                    if code.starts_with("//") {
                        continue;
                    }
                    for c in uses.captures_iter(code) {
                        let used = &c[1];
                        if let Some(r) = order.iter().position(|m| m == used)
                            && r > rank
                        {
                            wrong.push(format!("{name}:{}: {module} uses {used}", n + 1));
                        }
                    }
                }
            }
        }
    }
    assert!(
        listed >= 15,
        "the crates' lib.rs list only {listed} modules"
    );
    assert!(
        wrong.is_empty(),
        "modules using a module above them (each crate's lib.rs lists the order):\n{}",
        wrong.join("\n")
    );
}
