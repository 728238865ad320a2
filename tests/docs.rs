//! The documents a bot author reads (README.md, `protocol/`, the kits' READMEs) against the
//! code and against themselves:
//!
//! - every relative link names a file that exists, and every `#anchor` a heading of it;
//! - every cross-reference in words (`SPEC §13.2`, `SPEC "Round time"`) names a section that
//!   exists;
//! - SPEC.md lists every game's document, and names every game of the registry where it says
//!   what `hello.game` may be; the README's tournament file names every game too;
//! - the README's "Writing a bot" comes before the organiser's material (tournaments).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use regex::Regex;
use rollarena::game::registry::GAMES;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// The Markdown documents of the repository a reader follows links through.
fn documents() -> Vec<PathBuf> {
    let mut out = vec![
        root().join("README.md"),
        root().join("protocol/SPEC.md"),
        root().join("protocol/RECORD.md"),
        root().join("protocol/ARENA.md"),
        root().join("examples/README.md"),
    ];
    for dir in ["protocol/games", "examples"] {
        for entry in std::fs::read_dir(root().join(dir)).expect("a directory") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            } else if path.join("README.md").is_file() {
                out.push(path.join("README.md"));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The text of a Markdown document outside its fenced code blocks.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The headings of a Markdown document.
fn headings(text: &str) -> Vec<String> {
    prose(text)
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim().to_string())
        .collect()
}

/// GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(
        slug("13. Simultaneous play (Rock'n'Roll Robot)"),
        "13-simultaneous-play-rocknroll-robot"
    );
    assert_eq!(slug("`hello`: a match begins"), "hello-a-match-begins");
}

#[test]
fn every_relative_link_and_anchor_exists() {
    let link = Regex::new(r"\]\(([^)\s]+)\)").unwrap();
    let mut broken = Vec::new();
    for doc in documents() {
        let text = read(&doc);
        let dir = doc.parent().expect("a document's directory");
        for cap in link.captures_iter(&prose(&text)) {
            let target = &cap[1];
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target, None),
            };
            let path = if file.is_empty() {
                doc.clone()
            } else {
                dir.join(file)
            };
            let shown = doc
                .strip_prefix(root())
                .unwrap_or(&doc)
                .display()
                .to_string();
            if !path.exists() {
                broken.push(format!("{shown}: {target}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                let slugs: BTreeSet<String> =
                    headings(&read(&path)).iter().map(|h| slug(h)).collect();
                if !slugs.contains(anchor) {
                    broken.push(format!(
                        "{shown}: {target}: no heading has the anchor #{anchor}"
                    ));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn references_in_words_name_sections_that_exist() {
    let spec = read(&root().join("protocol/SPEC.md"));
    let numbers: BTreeSet<String> = headings(&spec)
        .iter()
        .filter_map(|h| {
            h.split_once(' ')
                .map(|(n, _)| n.trim_end_matches('.').to_string())
        })
        .collect();
    let bold: BTreeSet<String> = Regex::new(r"\*\*([^*]+?)\.?\*\*")
        .unwrap()
        .captures_iter(&spec)
        .map(|c| c[1].trim_end_matches('.').to_string())
        .collect();
    let by_number = Regex::new(r"SPEC(?:\.md)?\)? §(\d+(?:\.\d+)*)").unwrap();
    let by_title = Regex::new(r#"SPEC(?:\.md)? "([^"]*)"(\S*)"#).unwrap();
    let mut bad = Vec::new();
    for doc in documents() {
        let text = prose(&read(&doc));
        let shown = doc
            .strip_prefix(root())
            .unwrap_or(&doc)
            .display()
            .to_string();
        for cap in by_number.captures_iter(&text) {
            if !numbers.contains(&cap[1]) {
                bad.push(format!(
                    "{shown}: {}: SPEC.md has no section {}",
                    &cap[0], &cap[1]
                ));
            }
        }
        for cap in by_title.captures_iter(&text) {
            let title = &cap[1];
            let named = headings(&spec).iter().any(|h| h.ends_with(title)) || bold.contains(title);
            if !named || !cap[2].is_empty() && !cap[2].starts_with([')', ',', '.', ';']) {
                bad.push(format!(
                    "{shown}: {}: no section of SPEC.md is called that",
                    &cap[0]
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "references to no section:\n{}",
        bad.join("\n")
    );
}

#[test]
fn spec_and_readme_name_every_game() {
    let spec = read(&root().join("protocol/SPEC.md"));
    let head = &spec[..spec.find("## 2.").expect("SPEC.md has a §2")];
    for entry in std::fs::read_dir(root().join("protocol/games")).expect("protocol/games") {
        let name = entry.expect("an entry").file_name();
        let name = name.to_string_lossy();
        assert!(
            head.contains(&format!("](games/{name})")),
            "SPEC.md's list of game documents (before §2) has no link to games/{name}"
        );
    }
    let hello = &spec[spec.find("### 4.1").expect("SPEC.md has a §4.1")..];
    let hello = &hello[..hello.find("```").expect("§4.1 has an example")];
    let readme = read(&root().join("README.md"));
    let toml_game = readme
        .lines()
        .find(|l| l.starts_with("game = "))
        .expect("the README's tournament file has a game line");
    for entry in GAMES {
        let quoted = format!("\"{}\"", entry.name);
        assert!(
            hello.contains(&quoted),
            "SPEC.md §4.1 does not give {quoted} as a value of hello.game"
        );
        assert!(
            toml_game.contains(entry.name),
            "the README's tournament file says `{toml_game}`, without {}",
            entry.name
        );
        assert!(
            hello.contains(&format!("{}:", title(entry.name))) || entry.name == "robots",
            "SPEC.md §4.1 gives no options of {}",
            entry.name
        );
    }
    assert!(
        hello.contains("Rock'n'Roll Robot:"),
        "SPEC.md §4.1 gives no options of Rock'n'Roll Robot"
    );
}

/// A game's name as its documents write it.
fn title(game: &str) -> String {
    let mut chars = game.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[test]
fn writing_a_bot_comes_before_the_organisers_material() {
    let readme = read(&root().join("README.md"));
    let at = |h: &str| {
        readme
            .find(&format!("\n## {h}\n"))
            .unwrap_or_else(|| panic!("the README has no section {h}"))
    };
    assert!(at("Writing a bot") < at("Tournaments"));
    assert!(at("Starter kits") < at("Tournaments"));
    let section = &readme[at("Writing a bot")..at("Starter kits")];
    for pitfall in [
        "PYTHONUNBUFFERED",
        "fgets",
        "process.exit()",
        "hourglass_ms",
        "--players 1",
        "illegal",
    ] {
        assert!(
            section.contains(pitfall),
            "the README's \"Writing a bot\" does not mention {pitfall}"
        );
    }
}
