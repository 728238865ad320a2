//! The rows the store reads for the pages and the JSON API ([`super::reads`]): plain serde
//! structs with typed ids and states, which `views` re-exports and puts together (it ranks,
//! adds trends, and decides who sees what). They live here, not in `views`, because the store
//! is the arena's bottom layer and returns its own types.
//!
//! Ids serialize as their numbers and states as their texts, so the JSON is what bare `i64`s
//! and `String`s gave.

use serde::Serialize;
use serde_json::Value;

use super::{MatchId, MatchKind, MatchState, VersionId, VersionState};

/// μ - 3σ, the conservative rating the leaderboard sorts by.
pub fn conservative(mu: f64, sigma: f64) -> f64 {
    mu - 3.0 * sigma
}

/// A disabled team on the leaderboard, with the version that played for it, if any.
#[derive(Clone, Debug, Serialize)]
pub struct DisabledRow {
    pub team: String,
    pub version: Option<DisabledVersion>,
}

#[derive(Clone, Debug, Serialize)]
pub struct DisabledVersion {
    pub id: VersionId,
    pub label: String,
    /// μ - 3σ.
    pub conservative: f64,
    pub matches: i64,
}

/// An enabled team's active version on the leaderboard (the store leaves `rank` 0 and
/// `trend` empty: `views` ranks).
#[derive(Clone, Debug, Serialize)]
pub struct LeaderRow {
    pub rank: usize,
    pub team: String,
    /// One of the arena's built-in bots, playing as an anchor.
    pub builtin: bool,
    pub version_id: VersionId,
    pub version_label: String,
    /// The team pinned this version (otherwise it is the team's latest ready one).
    pub pinned: bool,
    pub mu: f64,
    pub sigma: f64,
    /// μ - 3σ.
    pub conservative: f64,
    /// Rated matches of this version.
    pub matches: i64,
    /// The change of the conservative rating over the version's last few matches (`None`
    /// before its first; `views::TREND_MATCHES`).
    pub trend: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct VersionRow {
    pub id: VersionId,
    pub team: String,
    pub label: String,
    pub language: String,
    pub state: VersionState,
    /// Why it failed, in one line (only for its team and the organiser).
    pub failure: Option<String>,
    pub submitted_at: i64,
    pub built_at: Option<i64>,
    pub checked_at: Option<i64>,
    pub source_bytes: i64,
    pub mu: f64,
    pub sigma: f64,
    pub conservative: f64,
    pub matches: i64,
    /// The SPRT evaluation against the pool, as the ladder stores it (null until it has data).
    pub sprt: Option<Value>,
}

impl VersionRow {
    /// The SPRT verdict in words, if there is one.
    pub fn sprt_verdict(&self) -> Option<&'static str> {
        let v = self.sprt.as_ref()?.get("verdict")?.as_str()?;
        Some(match v {
            "better" => "better",
            "not better" => "not better",
            _ => "undecided",
        })
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct HistoryPoint {
    pub match_id: MatchId,
    pub at: i64,
    pub version_id: VersionId,
    pub conservative: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct OpponentRow {
    pub team: String,
    pub matches: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// (wins + draws / 2) / matches.
    pub score: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct MatchRow {
    pub id: MatchId,
    pub state: MatchState,
    pub kind: MatchKind,
    pub rounds: i64,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    /// In seat order.
    pub seats: Vec<SeatRow>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeatRow {
    pub seat: i64,
    pub team: String,
    pub version_id: VersionId,
    pub version_label: String,
    pub points: Option<f64>,
    /// The match's rank, from 1 (ties share one).
    pub rank: Option<i64>,
    pub forfeits: Option<i64>,
    pub mu_before: Option<f64>,
    pub sigma_before: Option<f64>,
    pub mu_after: Option<f64>,
    pub sigma_after: Option<f64>,
}

/// A team as the organiser's page lists it.
#[derive(Clone, Debug, Serialize)]
pub struct TeamRow {
    pub name: String,
    /// One of the arena's built-in bots (no token, no login).
    pub builtin: bool,
    pub disabled: bool,
    pub created_at: i64,
    pub versions: i64,
    /// The version that plays (`None`: none is ready).
    pub active_version: Option<VersionId>,
    /// The version the team (or the organiser) pinned (`None`: its latest ready one plays).
    pub pinned_version: Option<VersionId>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows' JSON is byte for byte what the same rows with bare `i64` ids and `String`
    /// states gave (the API's clients and the pages' scripts read it).
    #[test]
    fn a_row_serializes_exactly_as_with_bare_numbers_and_texts() {
        let row = MatchRow {
            id: MatchId(7),
            state: MatchState::Done,
            kind: MatchKind::Placement,
            rounds: 2,
            created_at: 1000,
            started_at: Some(1500),
            finished_at: None,
            seats: vec![SeatRow {
                seat: 0,
                team: "<b>".into(),
                version_id: VersionId(20),
                version_label: "v20".into(),
                points: Some(1.5),
                rank: Some(1),
                forfeits: Some(0),
                mu_before: Some(25.0),
                sigma_before: Some(8.25),
                mu_after: None,
                sigma_after: None,
            }],
        };
        assert_eq!(
            serde_json::to_string(&row).unwrap(),
            r#"{"id":7,"state":"done","kind":"placement","rounds":2,"created_at":1000,"#.to_owned()
                + r#""started_at":1500,"finished_at":null,"seats":[{"seat":0,"team":"<b>","#
                + r#""version_id":20,"version_label":"v20","points":1.5,"rank":1,"forfeits":0,"#
                + r#""mu_before":25.0,"sigma_before":8.25,"mu_after":null,"sigma_after":null}]}"#
        );
        let version = VersionRow {
            id: VersionId(11),
            team: "a".into(),
            label: "v11".into(),
            language: "python".into(),
            state: VersionState::Failed,
            failure: Some("check: no ready".into()),
            submitted_at: 0,
            built_at: None,
            checked_at: Some(5),
            source_bytes: 10,
            mu: 25.0,
            sigma: 8.0,
            conservative: 1.0,
            matches: 0,
            sprt: None,
        };
        assert_eq!(
            serde_json::to_string(&version).unwrap(),
            r#"{"id":11,"team":"a","label":"v11","language":"python","state":"failed","#.to_owned()
                + r#""failure":"check: no ready","submitted_at":0,"built_at":null,"#
                + r#""checked_at":5,"source_bytes":10,"mu":25.0,"sigma":8.0,"#
                + r#""conservative":1.0,"matches":0,"sprt":null}"#
        );
        let point = HistoryPoint {
            match_id: MatchId(3),
            at: 3000,
            version_id: VersionId(10),
            conservative: 15.5,
        };
        assert_eq!(
            serde_json::to_string(&point).unwrap(),
            r#"{"match_id":3,"at":3000,"version_id":10,"conservative":15.5}"#
        );
        let team = TeamRow {
            name: "a".into(),
            builtin: false,
            disabled: false,
            created_at: 0,
            versions: 2,
            active_version: Some(VersionId(12)),
            pinned_version: None,
        };
        assert_eq!(
            serde_json::to_string(&team).unwrap(),
            r#"{"name":"a","builtin":false,"disabled":false,"created_at":0,"versions":2,"#
                .to_owned()
                + r#""active_version":12,"pinned_version":null}"#
        );
    }
}
