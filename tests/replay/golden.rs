//! The golden records (`tests/records/`): genuine records of every game, rules version and
//! format version this project released. Each must verify, now and in every later version; a
//! version with no record there fails, so that each new version adds its own.

use std::collections::BTreeSet;
use std::path::PathBuf;

use rollarena::game::registry::GAMES;
use rollarena::record::{FORMAT_VERSION, read_records};
use rollarena::verify::verify;

fn golden() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/records");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/records")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_golden_record_verifies() {
    let files = golden();
    assert!(files.len() >= 20, "{files:?}");
    for path in files {
        let (rounds, torn) = read_records(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        assert!(!torn, "{path:?} has a torn line");
        assert!(!rounds.is_empty(), "{path:?}");
        if let Err(d) = verify(&rounds) {
            panic!("{} no longer verifies: {d}", path.display());
        }
    }
}

#[test]
fn every_released_version_has_golden_records() {
    let mut held: BTreeSet<(String, u32, u32)> = BTreeSet::new();
    for path in golden() {
        let (rounds, _) = read_records(&path).unwrap();
        for r in rounds {
            held.insert((r.game.clone(), r.rules, r.format));
        }
    }
    for entry in GAMES {
        for rules in 1..=entry.rules_version {
            assert!(
                held.iter().any(|(g, v, _)| g == entry.name && *v == rules),
                "no golden record of {} rules version {rules}: add genuine records made by \
                 this version to tests/records/ (see its README)",
                entry.name
            );
        }
        assert!(
            held.iter().any(|(g, v, f)| g == entry.name
                && *v == entry.rules_version
                && *f == FORMAT_VERSION),
            "no golden record of {} in format {FORMAT_VERSION}",
            entry.name
        );
    }
}

#[test]
fn a_record_of_a_newer_rules_version_is_refused_as_such() {
    let path = golden()
        .into_iter()
        .find(|p| p.ends_with("rolit_4x4.jsonl"))
        .unwrap();
    let (mut rounds, _) = read_records(&path).unwrap();
    for r in &mut rounds {
        r.rules = 99;
    }
    let d = verify(&rounds).unwrap_err();
    assert!(
        d.reason.contains("newer than this build") && d.reason.contains("not tampered"),
        "{d}"
    );
}
