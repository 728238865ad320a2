//! The documents a reader follows (README.md, the book in `docs/`, `protocol/`, the kits'
//! READMEs, `bench/README.md`) against the code and against themselves:
//!
//! - every relative link names a file that exists, and every `#anchor` a heading of it; a book
//!   page's `{{#include FILE}}` is expanded first, as mdBook does, so the included text's links
//!   are resolved from the including page's place (which is why `docs/reference/` mirrors
//!   `protocol/`'s layout);
//! - the book's `docs/SUMMARY.md` lists chapters that exist, every Markdown file of `docs/` is
//!   one of them, and every document of `protocol/` and every schema is shown in the book;
//! - every cross-reference in words (`SPEC §13.2`, `SPEC "Round time"`) names a section that
//!   exists;
//! - SPEC.md lists every game's document, and names every game of the registry where it says
//!   what `hello.game` may be; the book's tournament file names every game too;
//! - the book's "Writing a bot" comes before the organiser's material (tournaments, the arena)
//!   and names the pitfalls that cost bot authors time.

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
        root().join("bench/README.md"),
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
    out.extend(book_pages());
    out.sort();
    out.dedup();
    out
}

/// The book's Markdown files: every `.md` under `docs/`, `SUMMARY.md` included (symbolic links,
/// such as `docs/reference/schemas`, are not followed).
fn book_pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("a directory of docs/") {
            let entry = entry.expect("an entry");
            let path = entry.path();
            let kind = entry.file_type().expect("a file type");
            if kind.is_dir() {
                walk(&path, out);
            } else if kind.is_file() && path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root().join("docs"), &mut out);
    out.sort();
    out
}

/// A document as mdBook renders it: every `{{#include FILE}}` (or `FILE:LINES`) replaced by the
/// whole file, itself expanded, read from the including document's directory.
fn expanded(path: &Path) -> String {
    let include = Regex::new(r"\{\{#include\s+([^}\s]+)\s*\}\}").unwrap();
    let text = read(path);
    let dir = path.parent().expect("a document's directory");
    include
        .replace_all(&text, |cap: &regex::Captures| {
            let file = cap[1].split(':').next().expect("a file name");
            let included = dir.join(file);
            assert!(
                included.is_file(),
                "{}: {} includes {file}, which does not exist",
                shown(path),
                &cap[0]
            );
            expanded(&included)
        })
        .into_owned()
}

/// A path as the messages show it: from the repository's root.
fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
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
        let text = expanded(&doc);
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
            let shown = shown(&doc);
            if !path.exists() {
                broken.push(format!("{shown}: {target}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                let slugs: BTreeSet<String> =
                    headings(&expanded(&path)).iter().map(|h| slug(h)).collect();
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
        let text = prose(&expanded(&doc));
        let shown = shown(&doc);
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
fn spec_and_the_book_name_every_game() {
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
    let tournaments = read(&root().join("docs/tournaments.md"));
    let toml_game = tournaments
        .lines()
        .find(|l| l.starts_with("game = "))
        .expect("the tournament file of docs/tournaments.md has a game line");
    for entry in GAMES {
        let quoted = format!("\"{}\"", entry.name);
        assert!(
            hello.contains(&quoted),
            "SPEC.md §4.1 does not give {quoted} as a value of hello.game"
        );
        assert!(
            toml_game.contains(entry.name),
            "the tournament file of docs/tournaments.md says `{toml_game}`, without {}",
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
    let summary = read(&root().join("docs/SUMMARY.md"));
    let at = |page: &str| {
        summary
            .find(&format!("]({page})"))
            .unwrap_or_else(|| panic!("docs/SUMMARY.md does not list {page}"))
    };
    assert!(at("writing-a-bot.md") < at("tournaments.md"));
    assert!(at("writing-a-bot.md") < at("arena.md"));
    let chapter = read(&root().join("docs/writing-a-bot.md"));
    let from = |h: &str| {
        chapter
            .find(&format!("\n## {h}\n"))
            .unwrap_or_else(|| panic!("docs/writing-a-bot.md has no section {h}"))
    };
    let section = &chapter[from("The protocol in practice")..from("Starter kits")];
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
            "docs/writing-a-bot.md's \"The protocol in practice\" does not mention {pitfall}"
        );
    }
}

#[test]
fn the_books_summary_lists_every_chapter_and_only_chapters_that_exist() {
    let book = read(&root().join("book.toml"));
    for setting in ["src = \"docs\"", "build-dir = \"target/book\""] {
        assert!(book.contains(setting), "book.toml does not say {setting}");
    }
    let summary_path = root().join("docs/SUMMARY.md");
    let link = Regex::new(r"\]\(([^)\s]+)\)").unwrap();
    let mut listed = BTreeSet::new();
    let mut bad = Vec::new();
    for cap in link.captures_iter(&read(&summary_path)) {
        let page = root().join("docs").join(&cap[1]);
        if !page.is_file() {
            bad.push(format!(
                "docs/SUMMARY.md lists {}, which does not exist",
                &cap[1]
            ));
        } else if !listed.insert(page) {
            bad.push(format!("docs/SUMMARY.md lists {} twice", &cap[1]));
        }
    }
    for page in book_pages() {
        if page != summary_path && !listed.contains(&page) {
            bad.push(format!(
                "{} is in docs/ but not in docs/SUMMARY.md: list it there (or move it out)",
                shown(&page)
            ));
        }
    }
    assert!(bad.is_empty(), "the book's chapters:\n{}", bad.join("\n"));
}

#[test]
fn the_book_shows_every_protocol_document_and_schema() {
    let protocol = root().join("protocol");
    let mut documents = vec![];
    for dir in [protocol.clone(), protocol.join("games")] {
        for entry in std::fs::read_dir(&dir).expect("protocol/") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "md") {
                documents.push(path);
            }
        }
    }
    for document in documents {
        let relative = document.strip_prefix(&protocol).expect("under protocol/");
        let page = root().join("docs/reference").join(relative);
        assert!(
            page.is_file(),
            "{} has no page in the book: write {} holding only its {{{{#include}}}}",
            shown(&document),
            shown(&page)
        );
        assert_eq!(
            expanded(&page).trim_end(),
            read(&document).trim_end(),
            "{} does not show {} as it is (one {{{{#include}}}} of it, nothing else)",
            shown(&page),
            shown(&document)
        );
    }
    let schemas = root().join("docs/reference/schemas");
    assert_eq!(
        schemas.canonicalize().ok(),
        protocol.join("schemas").canonicalize().ok(),
        "docs/reference/schemas must be a symbolic link to ../../protocol/schemas"
    );
    let page = read(&root().join("docs/reference/schemas.md"));
    for entry in std::fs::read_dir(protocol.join("schemas")).expect("protocol/schemas") {
        let name = entry.expect("an entry").file_name();
        let name = name.to_string_lossy();
        assert!(
            page.contains(&format!("](schemas/{name})")),
            "docs/reference/schemas.md does not link schemas/{name}"
        );
    }
}
