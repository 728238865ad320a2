//! The read models over a database filled by the store's functions and its test fixtures:
//! the leaderboard's order and trend, a team's opponents, who sees what.

use rusqlite::Connection;

use super::*;
use crate::store::db;
use crate::store::fixtures::{self, Version};
use crate::store::leases::{self, SeatScore};
use crate::store::{MatchKind, VersionState, ladder, teams};

/// A team named `name`, expected to get id `id`.
fn add_team(conn: &Connection, id: i64, name: &str) {
    let team = teams::insert(conn, name, &format!("h{id}"), 0, false).unwrap();
    assert_eq!(team, TeamId(id));
}

/// A version `id` of team `team` labelled `v{id}`, rated `mu` ± `sigma` after `matches`.
fn add_version(
    conn: &Connection,
    (id, team): (i64, i64),
    state: VersionState,
    rating: (f64, f64),
    matches: i64,
) {
    Version {
        failure: (state == VersionState::Failed).then_some("check: no ready"),
        label: &format!("v{id}"),
        mu: rating.0,
        sigma: rating.1,
        matches,
        ..Version::new(VersionId(id), TeamId(team), state)
    }
    .insert(conn);
}

/// teams: a (id 1), b (id 2), c (id 3, disabled), d (id 4, nothing ready).
fn arena() -> (tempfile::TempDir, Connection) {
    let dir = tempfile::tempdir().unwrap();
    let conn = db::create(dir.path()).unwrap();
    for (id, name) in [(1, "a"), (2, "<b>"), (3, "c"), (4, "d")] {
        add_team(&conn, id, name);
    }
    teams::set_disabled(&conn, TeamId(3), true).unwrap();
    // (version, team, state, mu, sigma, matches)
    for (v, team, state, mu, sigma, matches) in [
        (10, 1, VersionState::Ready, 30.0, 2.0, 3),
        (11, 1, VersionState::Failed, 25.0, 8.0, 0),
        (20, 2, VersionState::Ready, 28.0, 1.0, 3),
        (30, 3, VersionState::Ready, 50.0, 1.0, 0),
        (40, 4, VersionState::Building, 25.0, 8.0, 0),
    ] {
        add_version(&conn, (v, team), state, (mu, sigma), matches);
    }
    // Three rated ladder matches of a against <b>: a wins 2, draws 1.
    for (m, rank_a, rank_b) in [(1, 1, 2), (2, 1, 1), (3, 1, 2)] {
        let seats = [VersionId(10), VersionId(20)];
        let id = ladder::insert_match(&conn, MatchKind::Ladder, 0, 1, 2, &seats).unwrap();
        assert_eq!(id, MatchId(m));
        let before = 20.0 + m as f64;
        for (seat, rank) in [(0, rank_a), (1, rank_b)] {
            let score = SeatScore {
                points: 1.0,
                rank,
                forfeits: 0,
                ratings: Some(((before, 2.0), (before + 1.0, 2.0))),
            };
            leases::score_seat(&conn, id, seat, &score).unwrap();
        }
        fixtures::done_rated(&conn, id, m * 1000);
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
        .map(|r| (r.team.as_str(), r.version_id.0, r.rank))
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
        add_team(&conn, id, name);
        add_version(&conn, (v, id), VersionState::Ready, (mu, sigma), matches);
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
    let json = serde_json::to_value(&lb).unwrap();
    assert_eq!(json["placing"][2]["team"], "f");
    assert!(json["at_rest_since"].is_null());
    crate::store::rest::set(&conn).unwrap();
    assert!(leaderboard(&conn, 4).unwrap().at_rest_since.is_some());
}

#[test]
fn a_pinned_version_plays_instead_of_the_latest() {
    let (_dir, conn) = arena();
    fixtures::version(&conn, VersionId(12), TeamId(1), VersionState::Ready, None);
    let lb = leaderboard(&conn, 0).unwrap();
    assert!(
        lb.rows
            .iter()
            .any(|r| r.version_id == VersionId(12) && !r.pinned)
    );
    assert!(lb.rows.iter().all(|r| !r.pinned));
    let row = |o: &OrganiserPage| {
        let t = o.teams.iter().find(|t| t.name == "a").unwrap();
        (t.active_version, t.pinned_version)
    };
    let v = |id| Some(VersionId(id));
    assert_eq!(row(&organiser(&conn).unwrap()), (v(12), None));
    teams::set_pinned(&conn, TeamId(1), v(10)).unwrap();
    let lb = leaderboard(&conn, 0).unwrap();
    assert!(
        lb.rows
            .iter()
            .any(|r| r.version_id == VersionId(10) && r.pinned)
    );
    assert!(!lb.rows.iter().any(|r| r.version_id == VersionId(12)));
    assert_eq!(lb.rows.iter().filter(|r| r.pinned).count(), 1);
    assert_eq!(row(&organiser(&conn).unwrap()), (v(10), v(10)));
}

#[test]
fn a_team_page_counts_results_against_each_opponent_and_hides_failures_from_others() {
    let (dir, conn) = arena();
    let own = team(
        &conn,
        dir.path(),
        "a",
        &Viewer::Team {
            id: TeamId(1),
            name: "a".into(),
        },
    )
    .unwrap();
    assert!(own.own);
    assert_eq!(own.active_version, Some(VersionId(10)));
    assert_eq!(own.opponents.len(), 1);
    let o = &own.opponents[0];
    assert_eq!(
        (o.team.as_str(), o.matches, o.wins, o.draws, o.losses),
        ("<b>", 3, 2, 1, 0)
    );
    assert!((o.score - 2.5 / 3.0).abs() < 1e-9);
    assert_eq!(own.history.len(), 3);
    assert_eq!(
        own.recent.iter().map(|m| m.id.0).collect::<Vec<_>>(),
        [3, 2, 1]
    );
    let failed = own.versions.iter().find(|v| v.id == VersionId(11)).unwrap();
    assert_eq!(failed.failure.as_deref(), Some("check: no ready"));

    for viewer in [
        Viewer::Public,
        Viewer::Team {
            id: TeamId(2),
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
        VersionId(10),
        &Viewer::Team {
            id: TeamId(1),
            name: "a".into(),
        },
    )
    .unwrap();
    assert!(own.active);
    assert_eq!(own.build_log.as_deref(), Some("cc -O2"));
    assert_eq!(own.check.as_ref().unwrap()["passed"], true);
    assert_eq!(own.files.len(), 1);
    assert_eq!(own.files[0].path, "src/main.c");
    assert!(submission(&conn, dir.path(), VersionId(10), &Viewer::Organiser).is_ok());
    for viewer in [
        Viewer::Public,
        Viewer::Team {
            id: TeamId(2),
            name: "<b>".into(),
        },
    ] {
        assert!(matches!(
            submission(&conn, dir.path(), VersionId(10), &viewer),
            Err(ViewError::Forbidden(_))
        ));
    }
}

#[test]
fn an_unfinished_match_shows_nothing() {
    let (dir, conn) = arena();
    let running = MatchId(9);
    fixtures::match_row(&conn, running, MatchKind::Ladder, MatchState::Running, None);
    assert!(matches!(
        match_page(&conn, dir.path(), running, &Viewer::Public),
        Err(ViewError::NotFound(_))
    ));
    assert!(matches!(
        match_records(&conn, dir.path(), running, &Viewer::Organiser),
        Err(ViewError::NotFound(_))
    ));
    let done = match_page(&conn, dir.path(), MatchId(1), &Viewer::Public).unwrap();
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
    assert_eq!(
        (c.team.as_str(), v.id.0, v.label.as_str()),
        ("c", 30, "v30")
    );
    assert!((v.conservative - 47.0).abs() < 1e-9);
    teams::set_disabled(&conn, TeamId(4), true).unwrap();
    let lb = leaderboard(&conn, 0).unwrap();
    let names: Vec<_> = lb.disabled.iter().map(|d| d.team.as_str()).collect();
    assert_eq!(names, ["c", "d"]);
    assert!(lb.disabled[1].version.is_none(), "d has nothing ready");
    assert!(lb.unranked.is_empty());
}

#[test]
fn a_page_serializes_its_ids_as_numbers_and_its_states_as_texts() {
    let (dir, conn) = arena();
    let viewer = Viewer::Team {
        id: TeamId(1),
        name: "a".into(),
    };
    assert_eq!(
        serde_json::to_string(&viewer).unwrap(),
        r#"{"role":"team","id":1,"name":"a"}"#
    );
    let page = team(&conn, dir.path(), "a", &viewer).unwrap();
    let json = serde_json::to_value(&page).unwrap();
    assert_eq!(
        (&json["active_version"], &json["pinned_version"]),
        (&serde_json::json!(10), &Value::Null)
    );
    assert_eq!(json["versions"][0]["state"], "failed");
    assert_eq!(json["history"][0]["match_id"], 1);
    let m = &json["recent"][0];
    assert_eq!(
        (
            &m["id"],
            &m["state"],
            &m["kind"],
            &m["seats"][1]["version_id"]
        ),
        (
            &serde_json::json!(3),
            &serde_json::json!("done"),
            &serde_json::json!("ladder"),
            &serde_json::json!(20)
        )
    );
}
