//! The shape of the source tree, as `src/lib.rs` states it, checked so that it stays true:
//!
//! - no file under `src/` outside `src/game/` names a game (a game is reached through its
//!   registry entry only), whatever games the registry holds;
//! - a top-level module uses only the modules listed before it in `src/lib.rs`'s list (code
//!   lines, not comments), except a game's folder, which holds the game's parts for every
//!   layer and is reached through the registry.

use std::path::{Path, PathBuf};

use regex::Regex;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
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

#[test]
fn no_file_outside_the_games_names_a_game() {
    let words = game_words();
    let game_dir = src().join("game");
    let mut found = Vec::new();
    for path in files(&src()) {
        if path.starts_with(&game_dir) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            if let Some(m) = words.find(line) {
                found.push(format!(
                    "{}:{}: {:?} in {}",
                    path.strip_prefix(src()).unwrap().display(),
                    n + 1,
                    m.as_str(),
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "files outside src/game/ name a game ({} lines); reach the game through its registry \
         entry instead:\n{}",
        found.len(),
        found.join("\n")
    );
}

/// The top-level modules in the order `src/lib.rs` lists them (`//! - [`a`], [`b`]: ...`).
fn layers() -> Vec<String> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("src/lib.rs");
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
fn modules_use_only_the_layers_below_them() {
    let order = layers();
    assert!(order.len() >= 15, "src/lib.rs lists {order:?}");
    let uses = Regex::new(r"crate::([a-z_]+)").unwrap();
    let mut wrong = Vec::new();
    for (rank, module) in order.iter().enumerate() {
        let dir = src().join(module);
        let paths = if dir.is_dir() {
            files(&dir)
        } else {
            vec![src().join(format!("{module}.rs"))]
        };
        for path in paths {
            let name = path.strip_prefix(src()).unwrap().display().to_string();
            // A game's folder and the registry that lists them: the game's parts for each layer.
            if module == "game" && name != "game/mod.rs" {
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
                    match order.iter().position(|m| m == used) {
                        Some(r) if r > rank => {
                            wrong.push(format!("{name}:{}: {module} uses {used}", n + 1))
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "modules using a layer above them (src/lib.rs lists the order):\n{}",
        wrong.join("\n")
    );
}
