//! The report of an arena's final, as `arena final` publishes it: its tournament has no file,
//! so "to reproduce" says how it was played instead of a command with an empty
//! `(SHA-256 )`, and every page links back to the arena's site. A tournament's own report
//! keeps its command and file hash, and links nowhere.

use std::path::Path;

use serde_json::Value;

use super::page_data;

/// A tournament of one table (two built-in bots, two rounds), played in `dir`.
fn one_table(dir: &Path) -> std::path::PathBuf {
    let file = dir.join("one.toml");
    std::fs::write(
        &file,
        "name = \"one\"\ngame = \"rolit\"\nplayers = 2\nrounds = 2\nseed = 3\n[options]\nsize = 6\n\
         [sandbox]\nlevel = \"none\"\n[[bot]]\nname = \"greedy\"\ncommand = \"rollarena bot greedy\"\n\
         [[bot]]\nname = \"random\"\ncommand = \"rollarena bot random\"\n",
    )
    .unwrap();
    let run = super::rollarena(&["tournament", file.to_str().unwrap()]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    dir.join("one-out")
}

/// The data of every page of a report.
fn pages(report: &Path) -> Vec<(String, Value)> {
    ["index.html", "tables.html", "bots/1.html", "bots/2.html"]
        .iter()
        .map(|p| (p.to_string(), page_data(&report.join(p))))
        .collect()
}

#[test]
fn a_finals_report_says_how_it_was_played_and_links_back_to_the_site() {
    let tmp = tempfile::tempdir().unwrap();
    let out = one_table(tmp.path());
    // The tournament's own report: its command, with the file's hash; no link to a site.
    let index = page_data(&out.join("report/index.html"));
    let reproduce = index["about"]["reproduce"].as_str().unwrap();
    let hash = index["about"]["file_sha256"].as_str().unwrap();
    assert_eq!(hash.len(), 64, "{hash:?}");
    assert!(
        reproduce.contains(&format!("(SHA-256 {hash})"))
            && reproduce.contains("rollarena tournament"),
        "{reproduce}"
    );
    for (page, data) in pages(&out.join("report")) {
        assert!(data["home"].is_null(), "{page}: {}", data["home"]);
    }

    // As the final writes its tournament.json: no file, no hash.
    let meta_path = out.join("tournament.json");
    let mut meta: Value = serde_json::from_slice(&std::fs::read(&meta_path).unwrap()).unwrap();
    meta["file"] = Value::from("");
    meta["file_sha256"] = Value::from("");
    std::fs::write(&meta_path, serde_json::to_vec(&meta).unwrap()).unwrap();
    let report = out.join("final-report");
    let home = rollarena::report::Home {
        href: "/",
        label: "the arena",
    };
    rollarena::report::write_with_home(&out, &report, Some(home)).unwrap();
    let index = page_data(&report.join("index.html"));
    let reproduce = index["about"]["reproduce"].as_str().unwrap();
    assert!(!reproduce.contains("SHA-256"), "{reproduce}");
    assert!(!reproduce.contains("FILE.toml"), "{reproduce}");
    assert!(
        reproduce.contains("an arena's final") && reproduce.contains("(3)"),
        "how it was played, with its seed: {reproduce}"
    );
    for (page, data) in pages(&report) {
        assert_eq!(
            data["home"],
            serde_json::json!({"href": "/", "label": "the arena"}),
            "{page}"
        );
    }
}
