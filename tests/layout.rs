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
//!   `lib.rs` (`//! - [`a`], [`b`]: ...`, which lists every module once it lists any), in
//!   every file of the module (its tests and `#[path]` files included; code lines, not
//!   comments), whether it names them from `crate::`, in a `crate::{...}` group or by climbing
//!   with `super::`, except a game's folder, which holds the game's parts for its layer and is
//!   reached through the registry.

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

/// The modules a crate's `lib.rs` declares (`mod a;`, `pub mod b;`).
fn declared_modules(src: &Path) -> Vec<String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let decl = Regex::new(r"(?m)^\s*(?:pub(?:\([a-z]+\))? )?mod ([a-z_]+);").unwrap();
    decl.captures_iter(&lib).map(|c| c[1].to_string()).collect()
}

/// Every file of a crate's top-level module `name`: `name.rs`, the `.rs` files under `name/`,
/// and the files their `#[path]` attributes name; each with its depth below the crate's root
/// (`name.rs` and `name/mod.rs` are 1, `name/a.rs` 2), the number of `super::` that climb to
/// the root from its top.
fn module_files(src: &Path, name: &str) -> Vec<(PathBuf, usize)> {
    let mut out = Vec::new();
    let file = src.join(format!("{name}.rs"));
    if file.is_file() {
        out.push((file, 1));
    }
    let dir = src.join(name);
    if dir.is_dir() {
        for path in files(&dir) {
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let mut depth = path.strip_prefix(src).unwrap().components().count();
            if path.ends_with("mod.rs") {
                depth -= 1;
            }
            out.push((path, depth));
        }
    }
    let attr = Regex::new(r#"#\[path = "([^"]+)"\]"#).unwrap();
    let mut next = 0;
    while next < out.len() {
        let (path, depth) = out[next].clone();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for c in attr.captures_iter(&text) {
            out.push((path.parent().unwrap().join(&c[1]), depth + 1));
        }
        next += 1;
    }
    out
}

/// The names a file's code reaches at its crate's root, with their line numbers (from 1):
/// `crate::a`, each item of `crate::{a, b::c}` (over several lines too), and the same after
/// as many `super::` as climb from where they are written (the file's `depth`, plus one per
/// inline `mod x {` around them) to the root. Comment lines are skipped.
fn root_names(text: &str, depth: usize) -> Vec<(usize, String)> {
    let path = Regex::new(r"\b(crate|super(?:::super)*)::(\{|[a-z_]+)").unwrap();
    let inline = Regex::new(r"^(?:pub(?:\([a-z]+\))? )?mod [a-z_]+ \{").unwrap();
    let mut found = Vec::new();
    // The indentation of each inline module the line is in (rustfmt indents their bodies).
    let mut inside: Vec<usize> = Vec::new();
    let mut offset = 0;
    for (n, line) in text.lines().enumerate() {
        let start = offset;
        offset += line.len() + 1;
        let code = line.trim_start();
        let indent = line.len() - code.len();
        if code.is_empty() || code.starts_with("//") {
            continue;
        }
        while inside.last().is_some_and(|&i| indent <= i) {
            inside.pop();
        }
        let here = depth + inside.len();
        for c in path.captures_iter(line) {
            let climbs = match &c[1] {
                "crate" => here,
                supers => supers.matches("super").count(),
            };
            if climbs != here {
                continue;
            }
            if &c[2] != "{" {
                found.push((n + 1, c[2].to_string()));
                continue;
            }
            // A group: its items' first names, up to the matching brace.
            let from = start + c.get(2).unwrap().end();
            let mut level = 1;
            let end = text[from..]
                .find(|ch| {
                    level += match ch {
                        '{' => 1,
                        '}' => -1,
                        _ => 0,
                    };
                    level == 0
                })
                .map_or(text.len(), |e| from + e);
            let mut item = String::new();
            level = 0;
            for ch in text[from..end].chars().chain([',']) {
                match ch {
                    '{' => level += 1,
                    '}' => level -= 1,
                    ',' if level == 0 => {
                        let first = item.trim_start();
                        let name: String = first
                            .chars()
                            .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                            .collect();
                        if !name.is_empty() {
                            found.push((n + 1, name));
                        }
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(ch);
            }
        }
        if inline.is_match(code) && !code.ends_with('}') {
            inside.push(indent);
        }
    }
    found
}

#[test]
fn root_names_follow_groups_and_climbs() {
    let text = "use crate::a::X;\nuse crate::{b, c::Y, Arena};\nuse super::d;\nuse crate::{\n    \
                e,\n    f::{G, h},\n};\n// crate::z\nmod tests {\n    use super::super::i;\n    \
                use super::j;\n}\nfn k() { super::super::l(); }\n";
    let names: Vec<(usize, String)> = root_names(text, 1);
    let names: Vec<(usize, &str)> = names.iter().map(|(n, s)| (*n, s.as_str())).collect();
    assert_eq!(
        names,
        [
            (1, "a"),
            (2, "b"),
            (2, "c"),
            (3, "d"),
            (4, "e"),
            (4, "f"),
            (10, "i")
        ]
    );
}

#[test]
fn modules_use_only_the_modules_below_them_in_their_crate() {
    let mut wrong = Vec::new();
    let mut listed = 0;
    for src in source_dirs() {
        let order = modules(&src);
        listed += order.len();
        if !order.is_empty() {
            for module in declared_modules(&src) {
                if !order.contains(&module) {
                    wrong.push(format!(
                        "{}: {module} is not in the list",
                        src.join("lib.rs").strip_prefix(root()).unwrap().display()
                    ));
                }
            }
        }
        for (rank, module) in order.iter().enumerate() {
            for (path, depth) in module_files(&src, module) {
                let name = path.strip_prefix(root()).unwrap().display().to_string();
                // A game's folder and the registry that lists them: the game's parts.
                if module == "game" && !name.ends_with("crates/rules/src/game/mod.rs") {
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                for (line, used) in root_names(&text, depth) {
                    if let Some(r) = order.iter().position(|m| *m == used)
                        && r > rank
                    {
                        wrong.push(format!("{name}:{line}: {module} uses {used}"));
                    }
                }
            }
        }
    }
    assert!(
        listed >= 30,
        "the crates' lib.rs list only {listed} modules"
    );
    assert!(
        wrong.is_empty(),
        "modules using a module above them (each crate's lib.rs lists the order):\n{}",
        wrong.join("\n")
    );
}
