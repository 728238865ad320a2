//! The ladder end to end through `Service`: the Python and C kits submitted with
//! `submissions::accept`, built and checked in the sandbox, reaching `ready`, and playing
//! ladder matches (with a built-in anchor) whose records verify and whose ratings moved exactly
//! once per match.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use rollarena::arena::service::Service;
use rollarena::arena::submissions::{Upload, accept};

use super::{arena, failed_matches, have, kit_file, state, team, wait_for};

#[test]
fn the_python_and_c_kits_are_built_checked_and_rated_once_per_match() {
    if !have("/usr/bin/gcc") || !have("/usr/bin/python3") {
        return;
    }
    let (_tmp, arena) = arena("rolit", |c| {
        c.options.insert("size".into(), "6".into());
        c.ladder.anchors = vec!["greedy".into()];
    });
    let python = team(&arena, "Python <kit>");
    let c = team(&arena, "C kit");
    let py_v = accept(
        &arena,
        python,
        Upload {
            file_name: "bot.py".into(),
            bytes: kit_file("python", "bot.py"),
            language: None,
            label: Some("kit".into()),
        },
    )
    .unwrap();
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for file in ["bot.c", "json.h"] {
        use std::io::Write;
        zip.start_file(
            format!("c-kit/{file}"),
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
        zip.write_all(&kit_file("c", file)).unwrap();
    }
    let c_v = accept(
        &arena,
        c,
        Upload {
            file_name: "c-kit.zip".into(),
            bytes: zip.finish().unwrap().into_inner(),
            language: None,
            label: None,
        },
    )
    .unwrap();
    let arena = Arc::new(arena);
    let service = Service::start(arena.clone(), 2).unwrap();
    let conn = arena.conn().unwrap();
    wait_for(
        "both kits to be built and checked",
        Duration::from_secs(300),
        || {
            let done = |v| {
                !matches!(
                    state(&arena, v).0.as_str(),
                    "queued" | "building" | "checking"
                )
            };
            done(py_v) && done(c_v)
        },
    );
    for v in [py_v, c_v] {
        let (s, why) = state(&arena, v);
        let log =
            std::fs::read_to_string(arena.version_dir(v).join("build.log")).unwrap_or_default();
        assert_eq!(s, "ready", "version {v}: {why:?}\n{log}");
        assert!(arena.version_dir(v).join("check.json").is_file());
    }
    let done = || -> i64 {
        conn.query_row(
            "SELECT COUNT(*) FROM matches WHERE state = 'done'",
            [],
            |r| r.get(0),
        )
        .unwrap()
    };
    let played = |v: i64| -> i64 {
        conn.query_row("SELECT matches FROM versions WHERE id = ?1", [v], |r| {
            r.get(0)
        })
        .unwrap()
    };
    wait_for(
        "six rated matches, each kit's placement among them",
        Duration::from_secs(600),
        || done() >= 6 && played(py_v) >= 2 && played(c_v) >= 2,
    );
    service.shutdown();

    // Nothing is left running or leased after shutdown.
    let running: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM matches WHERE state = 'running' OR lease_owner IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(running, 0);
    let failed = failed_matches(&conn);
    assert!(failed.is_empty(), "failed matches: {failed:?}");

    // Every counted match: rated, its record verifies, its seats' ratings chain.
    let mut stmt = conn
        .prepare(
            "SELECT id, record_path, rated, kind FROM matches WHERE state = 'done' ORDER BY id",
        )
        .unwrap();
    let matches: Vec<(i64, String, bool, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(matches.iter().any(|m| m.3 == "placement"));
    let mut per_version: BTreeMap<i64, Vec<(f64, f64, f64, f64)>> = BTreeMap::new();
    for (id, path, rated, _) in &matches {
        assert!(rated, "match {id} is done but not rated");
        let (records, torn) = rollarena::record::read_records(&arena.dir.join(path)).unwrap();
        assert!(!torn);
        let report = rollarena::verify::verify(&records).unwrap();
        assert!(report.matches[0].whole());
        let seats: Vec<(i64, f64, f64, f64, f64, u32)> = conn
            .prepare(
                "SELECT version_id, mu_before, sigma_before, mu_after, sigma_after, rank
                 FROM match_seats WHERE match_id = ?1 ORDER BY seat",
            )
            .unwrap()
            .query_map([id], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            })
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(seats.len(), 2);
        let standings = report.matches[0].standings.as_ref().unwrap();
        for st in standings {
            assert_eq!(
                seats[st.seat].5, st.rank,
                "match {id}: the rank is the record's"
            );
        }
        for (v, mu0, s0, mu1, s1, _) in seats {
            assert!(s1 < s0, "match {id}: sigma shrinks");
            per_version.entry(v).or_default().push((mu0, s0, mu1, s1));
        }
    }
    let (mu_start, sigma_start) = rollarena::arena::rating::initial();
    for (v, chain) in &per_version {
        // Applied once each: matches finish in any order, but each starts from the rating the
        // one counted before it left, so the matches form one chain from the initial rating
        // to the version's rating now, using every match once.
        let mut left: Vec<(f64, f64, f64, f64)> = chain.clone();
        let mut at = (mu_start, sigma_start);
        while let Some(i) = left.iter().position(|m| (m.0, m.1) == at) {
            let m = left.swap_remove(i);
            at = (m.2, m.3);
        }
        assert!(
            left.is_empty(),
            "version {v}: matches off the chain: {left:?}"
        );
        let (mu, sigma, count): (f64, f64, i64) = conn
            .query_row(
                "SELECT mu, sigma, matches FROM versions WHERE id = ?1",
                [v],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!((mu, sigma), at, "version {v}");
        assert_eq!(count as usize, chain.len(), "version {v}");
        let sprt: serde_json::Value = serde_json::from_str(
            &conn
                .query_row("SELECT sprt FROM versions WHERE id = ?1", [v], |r| {
                    r.get::<_, String>(0)
                })
                .unwrap(),
        )
        .unwrap();
        assert!(
            ["better", "not better", "undecided"].contains(&sprt["verdict"].as_str().unwrap()),
            "{sprt}"
        );
    }
    assert!(
        per_version.contains_key(&py_v) && per_version.contains_key(&c_v),
        "both kits played: {:?} ({py_v}, {c_v})",
        per_version.keys()
    );
}
