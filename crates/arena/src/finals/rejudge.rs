//! Re-judging: the organiser voids a match (it never counts: state `void`, the reason in
//! `error`) or has it played again (queued afresh, its old record kept aside as
//! `records/<id>.rejudged-<n>.jsonl`); either way the ratings, rated-match counts and SPRT
//! states of every version are then rebuilt from scratch ([`recompute`]) from the done ladder
//! matches in the order they were counted, in the same transaction. [`recompute`] alone
//! serves after a manual fix of the database, and gives exactly the ratings the ladder
//! computed match by match when nothing changed (the same updates, in the same order, from
//! the same ranks).
//!
//! A final's match re-judged makes the final unpublished; it is published again once its
//! tables are over.

use rusqlite::Connection;

use crate::ladder::evaluation;
use crate::rating;
use crate::store::{MatchId, MatchKind, MatchState, ratings, versions};
use crate::{Arena, sql};

/// What the organiser does to a match.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Never counts; the reason is kept.
    Void { reason: String },
    /// Played again from its first round.
    Rerun { reason: String },
}

/// What a re-judging changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejudged {
    /// The match's state before.
    pub was: String,
    /// Where its old record was kept (a re-run of a played match).
    pub kept: Option<String>,
    /// Ladder matches the ratings were rebuilt from.
    pub counted: usize,
}

/// Voids or re-runs match `id`, and rebuilds the ratings, in one transaction.
pub fn rejudge(arena: &Arena, id: i64, action: &Action) -> Result<Rejudged, String> {
    let mut conn = arena.conn()?;
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(sql)?;
    let row = ratings::state_and_kind(&tx, MatchId(id))?;
    let Some((was, kind)) = row else {
        return Err(format!(
            "there is no match {id}: the matches page (/matches) lists them with their ids"
        ));
    };
    let mut kept = None;
    match action {
        Action::Void { reason } => {
            if was == MatchState::Void {
                return Err(format!("match {id} is void already"));
            }
            let why = if reason.trim().is_empty() {
                "voided by the organiser".to_string()
            } else {
                format!("voided by the organiser: {}", reason.trim())
            };
            ratings::void(&tx, MatchId(id), &why, crate::store::db::now_ms())?;
        }
        Action::Rerun { reason } => {
            if matches!(was, MatchState::Queued | MatchState::Running) {
                return Err(format!(
                    "match {id} is {was}: it has not been played yet, so there is nothing to \
                     play again"
                ));
            }
            tracing::info!("match {id} re-run by the organiser: {reason}");
            ratings::requeue_afresh(&tx, MatchId(id))?;
            // Last before the commit: a failure from here on puts the record back.
            // The record as stored: compressed once counted (it is kept aside as it is).
            if let Some(from) = crate::records::find(&arena.dir, id) {
                let ext = if from.ends_with(".gz") { ".gz" } else { "" };
                let n = (1..)
                    .find(|n| {
                        let p = format!("{}{ext}", kept_path(id, *n));
                        !arena.dir.join(p).exists()
                    })
                    .expect("a free name");
                let to = format!("{}{ext}", kept_path(id, n));
                std::fs::rename(arena.dir.join(&from), arena.dir.join(&to))
                    .map_err(|e| format!("cannot keep the old record aside: {e}"))?;
                kept = Some((to, from));
            }
        }
    }
    let counted = (|| {
        if kind == MatchKind::Final {
            super::tournament::unpublish(&tx)?;
        }
        let n = rebuild(&tx, arena)?;
        tx.commit().map_err(sql)?;
        Ok(n)
    })();
    let counted = match counted {
        Ok(n) => n,
        Err(e) => {
            // Nothing changed in the database: the record goes back where the match says it is.
            if let Some((to, from)) = &kept {
                let _ = std::fs::rename(arena.dir.join(to), arena.dir.join(from));
            }
            return Err(e);
        }
    };
    Ok(Rejudged {
        was: was.as_str().to_string(),
        kept: kept.map(|(to, _)| to),
        counted,
    })
}

/// Where the `n`th re-run of match `id` keeps its old record (relative to the arena).
pub fn kept_path(id: i64, n: u32) -> String {
    format!("records/{id}.rejudged-{n}.jsonl")
}

/// Rebuilds every version's rating, rated-match count and SPRT from scratch (see the module
/// header), in one transaction; returns how many matches it counted.
pub fn recompute(arena: &Arena) -> Result<usize, String> {
    let mut conn = arena.conn()?;
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(sql)?;
    let n = rebuild(&tx, arena)?;
    tx.commit().map_err(sql)?;
    Ok(n)
}

/// The rebuild, inside the caller's transaction.
fn rebuild(conn: &Connection, arena: &Arena) -> Result<usize, String> {
    let test = arena.config.sprt()?;
    // Only done ladder matches count; the order is the one they were counted in.
    let order = ratings::reset(conn, rating::initial())?;
    let mut touched = std::collections::BTreeSet::new();
    for &id in &order {
        let seats = ratings::rated_seats(conn, id)?;
        if seats.iter().any(|s| s.rank.is_none()) {
            return Err(format!(
                "match {id} is done but a seat has no rank: fix the database (or void the \
                 match) and recompute"
            ));
        }
        let input: Vec<(f64, f64, u32)> = seats
            .iter()
            .map(|s| (s.mu, s.sigma, s.rank.expect("checked")))
            .collect();
        let after = rating::update(&input);
        for (s, &(mu1, s1)) in seats.iter().zip(&after) {
            ratings::rate_seat(conn, id, s.seat, (s.mu, s.sigma), (mu1, s1))?;
            versions::rate(conn, s.version, (mu1, s1))?;
            touched.insert(s.version);
        }
    }
    for version in touched {
        evaluation::update(conn, &test, version.0)?;
    }
    Ok(order.len())
}
