//! The read models over a database filled by hand: the leaderboard's order and trend, a
//! team's opponents, who sees what.

use rusqlite::{Connection, params};

use super::*;
use crate::store::db;

/// teams: a (id 1), b (id 2), c (id 3, disabled), d (id 4, nothing ready).
fn arena() -> (tempfile::TempDir, Connection) {
    let dir = tempfile::tempdir().unwrap();
    let conn = db::create(dir.path()).unwrap();
    for (id, name, disabled) in [(1, "a", 0), (2, "<b>", 0), (3, "c", 1), (4, "d", 0)] {
        conn.execute(
            "INSERT INTO teams (id, name, token_hash, created_at, disabled)
             VALUES (?1, ?2, ?3, 0, ?4)",
            params![id, name, format!("h{id}"), disabled],
        )
        .unwrap();
    }
    // (version, team, state, mu, sigma, matches)
    for (v, team, state, mu, sigma, matches) in [
        (10, 1, "ready", 30.0, 2.0, 3),
        (11, 1, "failed", 25.0, 8.0, 0),
        (20, 2, "ready", 28.0, 1.0, 3),
        (30, 3, "ready", 50.0, 1.0, 0),
        (40, 4, "building", 25.0, 8.0, 0),
    ] {
        conn.execute(
            "INSERT INTO versions (id, team_id, label, language, source_sha256, source_bytes,
                submitted_at, state, failure, mu, sigma, matches)
             VALUES (?1, ?2, ?3, 'python', 'x', 10, 0, ?4, ?5, ?6, ?7, ?8)",
            params![
                v,
                team,
                format!("v{v}"),
                state,
                (state == "failed").then_some("check: no ready"),
                mu,
                sigma,
                matches
            ],
        )
        .unwrap();
    }
    // Three matches of a against <b>: a wins 2, draws 1.
    for (m, rank_a, rank_b) in [(1, 1, 2), (2, 1, 1), (3, 1, 2)] {
        conn.execute(
            "INSERT INTO matches (id, created_at, state, kind, seed, rounds, finished_at, rated,
                record_path)
             VALUES (?1, 0, 'done', 'ladder', 1, 2, ?2, 1, NULL)",
            params![m, m * 1000],
        )
        .unwrap();
        let before = 20.0 + m as f64;
        for (seat, version, rank) in [(0, 10, rank_a), (1, 20, rank_b)] {
            conn.execute(
                "INSERT INTO match_seats (match_id, seat, version_id, points, rank, forfeits,
                    mu_before, sigma_before, mu_after, sigma_after)
                 VALUES (?1, ?2, ?3, 1, ?4, 0, ?5, 2.0, ?6, 2.0)",
                params![m, seat, version, rank, before, before + 1.0],
            )
            .unwrap();
        }
    }
    (dir, conn)
}

#[test]
fn the_leaderboard_ranks_active_versions_of_enabled_teams_by_conservative_rating() {
    let (_dir, conn) = arena();
    let lb = leaderboard(&conn, 0).unwrap();
    let teams: Vec<(&str, i64, usize)> = lb
        .rows
        .iter()
        .map(|r| (r.team.as_str(), r.version_id, r.rank))
        .collect();
    // a: 30 - 6 = 24; <b>: 28 - 3 = 25; c is disabled; d has nothing ready.
    assert_eq!(teams, [("<b>", 20, 1), ("a", 10, 2)]);
    assert_eq!(lb.unranked, ["d"]);
    assert_eq!(lb.matches, 3);
    // Trend: now (28 - 3) against before its first match of the three (21 - 6).
    assert!((lb.rows[0].trend.unwrap() - (25.0 - 15.0)).abs() < 1e-9);
}

#[test]
fn a_version_is_ranked_after_its_placement_and_equal_ratings_share_a_rank() {
    let (_dir, conn) = arena();
    // Two more teams: e equal to a (30 - 3 x 2 = 24) and f new, with no match at all.
    for (id, name, v, mu, sigma, matches) in
        [(5, "e", 50, 27.0, 1.0, 4), (6, "f", 60, 25.0, 8.333, 0)]
    {
        conn.execute(
            "INSERT INTO teams (id, name, token_hash, created_at) VALUES (?1, ?2, ?3, 0)",
            params![id, name, format!("h{id}")],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO versions (id, team_id, label, language, source_sha256, source_bytes,
                submitted_at, state, mu, sigma, matches)
             VALUES (?1, ?2, 'v', 'python', 'x', 10, 0, 'ready', ?3, ?4, ?5)",
            params![v, id, mu, sigma, matches],
        )
        .unwrap();
    }
    let ranks = |lb: &Leaderboard| -> Vec<(String, usize)> {
        lb.rows.iter().map(|r| (r.team.clone(), r.rank)).collect()
    };
    let placing = |lb: &Leaderboard| -> Vec<(String, i64)> {
        lb.placing
            .iter()
            .map(|r| (r.team.clone(), r.matches))
            .collect()
    };
    // Placement 0: everyone ranked; <b> 25 first, a and e 24 share 2, the new f last, 4th.
    let lb = leaderboard(&conn, 0).unwrap();
    let s = |v: &[(&str, usize)]| -> Vec<(String, usize)> {
        v.iter().map(|(t, r)| (t.to_string(), *r)).collect()
    };
    assert_eq!(ranks(&lb), s(&[("<b>", 1), ("a", 2), ("e", 2), ("f", 4)]));
    assert!(lb.placing.is_empty());
    // Placement 4: a and <b> (3 matches) and f (0) place, apart and unranked; e alone is 1st.
    let lb = leaderboard(&conn, 4).unwrap();
    assert_eq!(ranks(&lb), s(&[("e", 1)]));
    assert_eq!(
        placing(&lb),
        [
            ("<b>".to_string(), 3),
            ("a".to_string(), 3),
            ("f".to_string(), 0)
        ]
    );
    assert_eq!(lb.placement_matches, 4);
    // The page lists them apart, each with its count.
    let page = crate::web::templates::leaderboard(&lb).into_string();
    let (ranked, apart) = page.split_once("id=\"placing\"").unwrap();
    assert!(ranked.contains(">e<") && !ranked.contains(">f<"), "{page}");
    assert!(
        apart.contains(">f<") && apart.contains("placing: 0 of 4"),
        "{page}"
    );
    assert!(apart.contains("placing: 3 of 4"), "{page}");
    let json = serde_json::to_value(&lb).unwrap();
    assert_eq!(json["placing"][2]["team"], "f");
    assert!(json["at_rest_since"].is_null());
    crate::store::rest::set(&conn).unwrap();
    assert!(leaderboard(&conn, 4).unwrap().at_rest_since.is_some());
}

#[test]
fn a_pinned_version_plays_instead_of_the_latest() {
    let (_dir, conn) = arena();
    conn.execute(
        "INSERT INTO versions (id, team_id, label, language, source_sha256, source_bytes,
            submitted_at, state, mu, sigma) VALUES (12, 1, 'new', 'c', 'x', 1, 0, 'ready', 25, 8)",
        [],
    )
    .unwrap();
    let lb = leaderboard(&conn, 0).unwrap();
    assert!(lb.rows.iter().any(|r| r.version_id == 12 && !r.pinned));
    assert!(lb.rows.iter().all(|r| !r.pinned));
    let row = |o: &OrganiserPage| {
        let t = o.teams.iter().find(|t| t.name == "a").unwrap();
        (t.active_version, t.pinned_version)
    };
    assert_eq!(row(&organiser(&conn).unwrap()), (Some(12), None));
    conn.execute("UPDATE teams SET pinned_version = 10 WHERE id = 1", [])
        .unwrap();
    let lb = leaderboard(&conn, 0).unwrap();
    assert!(lb.rows.iter().any(|r| r.version_id == 10 && r.pinned));
    assert!(!lb.rows.iter().any(|r| r.version_id == 12));
    assert_eq!(lb.rows.iter().filter(|r| r.pinned).count(), 1);
    assert_eq!(row(&organiser(&conn).unwrap()), (Some(10), Some(10)));
}

#[test]
fn a_team_page_counts_results_against_each_opponent_and_hides_failures_from_others() {
    let (dir, conn) = arena();
    let own = team(
        &conn,
        dir.path(),
        "a",
        &Viewer::Team {
            id: 1,
            name: "a".into(),
        },
    )
    .unwrap();
    assert!(own.own);
    assert_eq!(own.active_version, Some(10));
    assert_eq!(own.opponents.len(), 1);
    let o = &own.opponents[0];
    assert_eq!(
        (o.team.as_str(), o.matches, o.wins, o.draws, o.losses),
        ("<b>", 3, 2, 1, 0)
    );
    assert!((o.score - 2.5 / 3.0).abs() < 1e-9);
    assert_eq!(own.history.len(), 3);
    assert_eq!(
        own.recent.iter().map(|m| m.id).collect::<Vec<_>>(),
        [3, 2, 1]
    );
    let failed = own.versions.iter().find(|v| v.id == 11).unwrap();
    assert_eq!(failed.failure.as_deref(), Some("check: no ready"));

    for viewer in [
        Viewer::Public,
        Viewer::Team {
            id: 2,
            name: "<b>".into(),
        },
    ] {
        let other = team(&conn, dir.path(), "a", &viewer).unwrap();
        assert!(!other.own);
        assert!(other.versions.iter().all(|v| v.failure.is_none()));
    }
    let org = team(&conn, dir.path(), "a", &Viewer::Organiser).unwrap();
    assert!(org.own);
    assert!(matches!(
        team(&conn, dir.path(), "zz", &Viewer::Public),
        Err(ViewError::NotFound(_))
    ));
}

#[test]
fn a_submission_shows_only_to_its_team_and_the_organiser() {
    let (dir, conn) = arena();
    let base = dir.path().join("versions/10");
    std::fs::create_dir_all(base.join("source/src")).unwrap();
    std::fs::write(base.join("source/src/main.c"), "int main;").unwrap();
    std::fs::write(base.join("build.log"), "cc -O2").unwrap();
    std::fs::write(base.join("check.json"), r#"{"passed":true,"items":[]}"#).unwrap();
    let own = submission(
        &conn,
        dir.path(),
        10,
        &Viewer::Team {
            id: 1,
            name: "a".into(),
        },
    )
    .unwrap();
    assert!(own.active);
    assert_eq!(own.build_log.as_deref(), Some("cc -O2"));
    assert_eq!(own.check.as_ref().unwrap()["passed"], true);
    assert_eq!(own.files.len(), 1);
    assert_eq!(own.files[0].path, "src/main.c");
    assert!(submission(&conn, dir.path(), 10, &Viewer::Organiser).is_ok());
    for viewer in [
        Viewer::Public,
        Viewer::Team {
            id: 2,
            name: "<b>".into(),
        },
    ] {
        assert!(matches!(
            submission(&conn, dir.path(), 10, &viewer),
            Err(ViewError::Forbidden(_))
        ));
    }
}

#[test]
fn an_unfinished_match_shows_nothing() {
    let (dir, conn) = arena();
    conn.execute(
        "INSERT INTO matches (id, created_at, state, kind, seed, rounds)
         VALUES (9, 0, 'running', 'ladder', 1, 2)",
        [],
    )
    .unwrap();
    assert!(matches!(
        match_page(&conn, dir.path(), 9, &Viewer::Public),
        Err(ViewError::NotFound(_))
    ));
    assert!(matches!(
        match_records(&conn, dir.path(), 9, &Viewer::Organiser),
        Err(ViewError::NotFound(_))
    ));
    let done = match_page(&conn, dir.path(), 1, &Viewer::Public).unwrap();
    assert_eq!(done.row.seats.len(), 2);
    assert_eq!(done.row.seats[1].team, "<b>");
}

#[test]
fn a_disabled_team_is_listed_apart_with_the_version_that_played_for_it() {
    let (_dir, conn) = arena();
    let lb = leaderboard(&conn, 0).unwrap();
    assert!(lb.rows.iter().all(|r| r.team != "c"));
    assert_eq!(lb.disabled.len(), 1);
    let c = &lb.disabled[0];
    let v = c.version.as_ref().unwrap();
    assert_eq!((c.team.as_str(), v.id, v.label.as_str()), ("c", 30, "v30"));
    assert!((v.conservative - 47.0).abs() < 1e-9);
    conn.execute("UPDATE teams SET disabled = 1 WHERE id = 4", [])
        .unwrap();
    let lb = leaderboard(&conn, 0).unwrap();
    let names: Vec<_> = lb.disabled.iter().map(|d| d.team.as_str()).collect();
    assert_eq!(names, ["c", "d"]);
    assert!(lb.disabled[1].version.is_none(), "d has nothing ready");
    assert!(lb.unranked.is_empty());
}
