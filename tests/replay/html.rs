//! The HTML viewer without a browser: one self-contained file, data that cannot close its
//! element, a script allowed by hash only, and nothing fetched from anywhere.

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{HOSTILE, lines, records, rollarena, text, write_lines};

/// Writes a viewer; returns (exit code, page, stderr).
fn viewer(record: &std::path::Path, name: &str) -> (i32, String, String) {
    let out_path = records().path(name);
    let out = rollarena(
        &[
            "replay",
            record.to_str().unwrap(),
            "--html",
            out_path.to_str().unwrap(),
        ],
        None,
    );
    let page = std::fs::read_to_string(&out_path).unwrap_or_default();
    (out.status.code().unwrap_or(-1), page, text(&out.stderr))
}

/// The text between two markers.
fn between<'a>(s: &'a str, start: &str, end: &str) -> &'a str {
    let from = s.find(start).unwrap_or_else(|| panic!("no {start}")) + start.len();
    let to = from + s[from..].find(end).unwrap_or_else(|| panic!("no {end}"));
    &s[from..to]
}

#[test]
fn hostile_names_stay_data() {
    let r = records();
    let (code, page, err) = viewer(&r.hostile, "hostile.html");
    assert_eq!(code, 0, "{err}");
    for name in HOSTILE {
        assert!(!page.contains(name), "{name} appears raw in the page");
    }
    assert!(!page.contains("<img"));
    assert_eq!(
        page.matches("<script").count(),
        2,
        "the data and the viewer"
    );
    assert_eq!(page.matches("</script>").count(), 2);
    let data: Value =
        serde_json::from_str(between(&page, r#"id="replay-data">"#, "</script>")).unwrap();
    let names: Vec<&str> = data["games"][0]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, HOSTILE, "the names survive as data");
}

#[test]
fn the_page_is_self_contained_and_its_script_is_pinned() {
    let r = records();
    let (code, page, err) = viewer(&r.faults, "faults.html");
    assert_eq!(code, 0, "{err}");
    let script = between(&page, "<script>", "</script>");
    let digest = Sha256::digest(script.as_bytes());
    let csp = between(&page, "script-src '", "'");
    assert_eq!(csp, format!("sha256-{}", base64(&digest)));
    assert!(page.contains("default-src 'none'"));
    // Nothing outside the data refers to another file or host (the SVG namespace is a name).
    let outside = page.replace(between(&page, r#"id="replay-data">"#, "</script>"), "");
    for needle in [
        "src=",
        "href=",
        "@import",
        "url(http",
        "fetch(",
        "XMLHttpRequest",
    ] {
        assert!(!outside.contains(needle), "the page contains {needle}");
    }
    let urls: Vec<&str> = outside
        .match_indices("://")
        .map(|(i, _)| &outside[i.saturating_sub(4)..(i + 25).min(outside.len())])
        .collect();
    assert!(
        urls.iter()
            .all(|u| u.starts_with("http://www.w3.org/2000/svg")),
        "{urls:?}"
    );
    // Every round of the file is in it, with a board per move.
    let data: Value =
        serde_json::from_str(between(&page, r#"id="replay-data">"#, "</script>")).unwrap();
    let games = data["games"].as_array().unwrap();
    assert_eq!(games.len(), lines(&r.faults).len());
    for g in games {
        assert_eq!(
            g["boards"].as_array().unwrap().len(),
            g["moves"].as_array().unwrap().len() + 1
        );
    }
    assert_eq!(data["verification"]["ok"], true);
    assert_eq!(data["matches"][0]["whole"], true);
}

#[test]
fn a_tampered_record_still_gets_a_viewer_saying_so() {
    let r = records();
    let mut rounds = lines(&r.small);
    rounds[1]["result"]["points"][0] = serde_json::json!(99);
    let path = r.path("tampered-for-html.jsonl");
    write_lines(&path, &rounds);
    let (code, page, err) = viewer(&path, "tampered.html");
    assert_eq!(code, 1);
    assert!(err.contains("round 2: seat 0's points"), "{err}");
    assert!(page.contains(r#""ok":false"#));
    // A move the rules cannot play at all: no viewer.
    rounds[0]["moves"][0]["move"] = serde_json::json!("b2");
    write_lines(&path, &rounds);
    let (code, _, err) = viewer(&path, "unplayable.html");
    assert_eq!(code, 1);
    assert!(err.contains("does not replay"), "{err}");
}

/// Standard base64 (a second implementation, to check the viewer's CSP hash).
fn base64(bytes: &[u8]) -> String {
    let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".as_bytes();
    let mut bits = String::new();
    for b in bytes {
        bits.push_str(&format!("{b:08b}"));
    }
    while !bits.len().is_multiple_of(6) {
        bits.push('0');
    }
    let mut out: String = bits
        .as_bytes()
        .chunks(6)
        .map(|c| {
            alphabet[usize::from_str_radix(std::str::from_utf8(c).unwrap(), 2).unwrap()] as char
        })
        .collect();
    while !out.len().is_multiple_of(4) {
        out.push('=');
    }
    out
}
