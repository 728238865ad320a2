//! "Where the game was lost" in the arena: a counted Rolit match (the recorded 4x4 match the
//! `solve` suite checks against minimax, stored compressed as the arena stores its records) is
//! graded by the arena's grader once, and its seats' accuracy and losses are those `rollarena
//! analyse` gives for the same record; the match's page data carries them. An arena of a game
//! without analysis, or whose analysis is not for the arena, grades nothing: its grader ends
//! at once.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rollarena::arena::store::MatchId;
use rollarena::arena::{grading, records, views};
use rusqlite::params;

use super::arena_in;
use crate::check::rollarena;

#[test]
fn a_counted_rolit_match_is_graded_once_as_analyse_grades_it() {
    let (_tmp, arena) = arena_in(tempfile::tempdir().unwrap(), "rolit", |c| {
        c.options.insert("size".into(), "4".into());
        c.options.insert("players".into(), 2.into());
        c.ladder.anchors = vec![];
    });
    let conn = arena.conn().unwrap();
    for (id, name) in [(1, "alpha"), (2, "beta")] {
        conn.execute(
            "INSERT INTO teams (id, name, token_hash, created_at) VALUES (?1, ?2, ?3, 0)",
            params![id, name, format!("h{id}")],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO versions (id, team_id, label, language, source_sha256, source_bytes,
                submitted_at, state, mu, sigma, matches)
             VALUES (?1, ?1, 'v', 'python', 'x', 10, 0, 'ready', 25, 8, 1)",
            params![id],
        )
        .unwrap();
    }
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rolit-4x4.jsonl");
    let plain = arena.dir.join(rollarena::arena::Arena::record_path(7));
    std::fs::create_dir_all(plain.parent().unwrap()).unwrap();
    std::fs::copy(&source, &plain).unwrap();
    let gz = arena.dir.join(records::compressed_path(7));
    records::compress_file(&plain, &gz).unwrap();
    std::fs::remove_file(&plain).unwrap();
    conn.execute(
        "INSERT INTO matches (id, created_at, state, kind, seed, rounds, finished_at, rated,
            record_path)
         VALUES (7, 0, 'done', 'ladder', 1, 2, 1000, 1, ?1)",
        [records::compressed_path(7)],
    )
    .unwrap();
    for seat in 0..2 {
        conn.execute(
            "INSERT INTO match_seats (match_id, seat, version_id, points, rank, forfeits,
                mu_before, sigma_before, mu_after, sigma_after)
             VALUES (7, ?1, ?2, 1, 1, 0, 25, 8, 25, 8)",
            params![seat, seat + 1],
        )
        .unwrap();
    }

    let before = views::match_page(&conn, &arena.dir, MatchId(7), &views::Viewer::Public).unwrap();
    assert!(
        before.grades.is_none(),
        "no grades before the grader's pass"
    );
    let stop = AtomicBool::new(false);
    assert!(
        grading::grade_next(&arena, &stop).unwrap(),
        "a match to grade"
    );
    assert!(
        !grading::grade_next(&arena, &stop).unwrap(),
        "a graded match is not graded again"
    );
    let grades = grading::read(&arena.dir, 7).expect("the grades file");
    use std::os::unix::fs::MetadataExt;
    let mode = std::fs::metadata(grading::path(&arena.dir, 7))
        .unwrap()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600, "root's only, as the records are");
    assert_eq!(grades.error, None);

    // The same record through `rollarena analyse`: per seat, its moves, those within one ball
    // and its balls lost, summed over the rounds.
    let out = std::process::Command::new(rollarena())
        .args(["analyse", source.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut want = vec![(0u64, 0u64, 0i64); 2];
    for round in report["rounds"].as_array().unwrap() {
        for s in round["seats"].as_array().unwrap() {
            let seat = s["seat"].as_u64().unwrap() as usize;
            want[seat].0 += s["moves"].as_u64().unwrap();
            want[seat].1 += s["within_one"].as_u64().unwrap();
            want[seat].2 += s["total_loss"].as_i64().unwrap();
        }
    }
    let got: Vec<(u64, u64, i64)> = grades
        .seats
        .iter()
        .map(|s| (s.moves as u64, s.within_one as u64, s.total_loss))
        .collect();
    assert_eq!(got, want);
    assert!(
        want.iter().any(|w| w.2 > 0),
        "the record has losses: {want:?}"
    );
    for s in &grades.seats {
        assert_eq!(s.exact, s.moves, "4x4 is graded exactly");
        let losses: Vec<i32> = s.worst.iter().map(|w| w.loss).collect();
        assert!(losses.windows(2).all(|w| w[0] >= w[1]), "{losses:?}");
        assert!(losses.iter().all(|&l| l > 0));
    }
    let page = views::match_page(&conn, &arena.dir, MatchId(7), &views::Viewer::Public).unwrap();
    let json = serde_json::to_value(&page).unwrap();
    assert_eq!(json["grades"]["seats"].as_array().unwrap().len(), 2);
    // The page: a section with each team's accuracy, its balls lost and its largest loss.
    let html = rollarena::arena::web::templates::match_page(&page).into_string();
    let section = &html[html.find("Where the game was lost").expect("the section")..];
    for (s, team) in grades.seats.iter().zip(["alpha", "beta"]) {
        assert!(section.contains(team), "{team} in {section}");
        let accuracy = format!("{:.0}%", s.accuracy() * 100.0);
        assert!(section.contains(&accuracy), "{accuracy} in {section}");
        if let Some(w) = s.worst.first() {
            let said = format!("move {}: {} lost {}", w.ply, w.mv, w.loss);
            assert!(section.contains(&said), "{said} in {section}");
        }
    }
}

#[test]
fn an_arena_of_a_game_without_analysis_grades_nothing() {
    // Rock'n'Roll Robot has `analyse` but not for the arena: its match pages speak of balls.
    for game in ["goofspiel", "robots"] {
        let (_tmp, arena) = arena_in(tempfile::tempdir().unwrap(), game, |c| {
            c.ladder.anchors = vec![];
        });
        let stop = AtomicBool::new(false);
        let started = Instant::now();
        grading::run(&arena, &stop);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{game}: the grader ends at once"
        );
    }
}
