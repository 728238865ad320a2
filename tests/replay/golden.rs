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

/// The banked record: its flag falls are re-judged from the time control and the answers'
/// times, so a faster clock, a bigger bank or an edited bank is refused.
#[test]
fn the_banked_record_re_judges_its_flag_falls() {
    use rollarena::record::fault::ForfeitKind;
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/records/rolit_bank.jsonl");
    let (rounds, _) = read_records(&path).unwrap();
    let r = &rounds[0];
    assert!(r.settings.clocks.is_some());
    assert_eq!(r.forfeits[0].kind, ForfeitKind::Timeout);
    assert!(verify(&rounds).is_ok());
    let refused = |edit: &dyn Fn(&mut rollarena::record::RoundRecord)| {
        let mut edited = rounds.clone();
        edit(&mut edited[0]);
        verify(&edited).unwrap_err().to_string()
    };
    // A seat 0 that answered at once would still have its bank: no flag fall.
    let quick = refused(&|r| {
        for m in r.moves.iter_mut().filter(|m| m.seat == 0 && !m.by_arbiter) {
            m.ms = 1.0;
        }
    });
    assert!(quick.contains("time bank after the move"), "{quick}");
    let bigger = refused(&|r| {
        r.settings.clocks.as_mut().unwrap()[0].bank_ms = Some(60_000);
    });
    assert!(bigger.contains("time bank"), "{bigger}");
}
