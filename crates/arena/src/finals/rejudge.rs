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

use rusqlite::{Connection, OptionalExtension, params};

use crate::ladder::{evaluation, rating};
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
    let row: Option<(String, String)> = tx
        .query_row("SELECT state, kind FROM matches WHERE id = ?1", [id], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()
        .map_err(sql)?;
    let Some((was, kind)) = row else {
        return Err(format!(
            "there is no match {id}: the matches page (/matches) lists them with their ids"
        ));
    };
    let mut kept = None;
    match action {
        Action::Void { reason } => {
            if was == "void" {
                return Err(format!("match {id} is void already"));
            }
            let why = if reason.trim().is_empty() {
                "voided by the organiser".to_string()
            } else {
                format!("voided by the organiser: {}", reason.trim())
            };
            tx.execute(
                "UPDATE matches SET state = 'void', rated = 0, error = ?1, lease_owner = NULL,
                     lease_until = NULL, counted_seq = NULL,
                     finished_at = COALESCE(finished_at, ?2)
                 WHERE id = ?3",
                params![why, crate::db::now_ms(), id],
            )
            .map_err(sql)?;
        }
        Action::Rerun { reason } => {
            if was == "queued" || was == "running" {
                return Err(format!(
                    "match {id} is {was}: it has not been played yet, so there is nothing to \
                     play again"
                ));
            }
            tracing::info!("match {id} re-run by the organiser: {reason}");
            tx.execute(
                "UPDATE matches SET state = 'queued', rated = 0, error = NULL, attempts = 0, crashes = 0,
                     lease_owner = NULL, lease_until = NULL, started_at = NULL,
                     finished_at = NULL, record_path = NULL, counted_seq = NULL
                 WHERE id = ?1",
                [id],
            )
            .map_err(sql)?;
            tx.execute(
                "UPDATE match_seats SET points = NULL, rank = NULL, forfeits = NULL,
                     mu_before = NULL, sigma_before = NULL, mu_after = NULL, sigma_after = NULL
                 WHERE match_id = ?1",
                [id],
            )
            .map_err(sql)?;
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
        if kind == super::KIND {
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
        was,
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
    let (mu0, sigma0) = rating::initial();
    conn.execute(
        "UPDATE versions SET mu = ?1, sigma = ?2, matches = 0, sprt = NULL",
        params![mu0, sigma0],
    )
    .map_err(sql)?;
    // Only done ladder matches count; the order is the one they were counted in.
    conn.execute(
        "UPDATE matches SET rated = (state = 'done' AND kind != ?1)",
        [super::KIND],
    )
    .map_err(sql)?;
    let order: Vec<i64> = conn
        .prepare(
            "SELECT id FROM matches WHERE rated = 1
             ORDER BY COALESCE(counted_seq, 0), finished_at, id",
        )
        .map_err(sql)?
        .query_map([], |r| r.get(0))
        .map_err(sql)?
        .collect::<Result<_, _>>()
        .map_err(sql)?;
    let mut seats_of = conn
        .prepare(
            "SELECT s.seat, s.version_id, s.rank, v.mu, v.sigma FROM match_seats s
             JOIN versions v ON v.id = s.version_id WHERE s.match_id = ?1 ORDER BY s.seat",
        )
        .map_err(sql)?;
    let mut touched = std::collections::BTreeSet::new();
    for &id in &order {
        let seats: Vec<(i64, i64, Option<u32>, f64, f64)> = seats_of
            .query_map([id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .map_err(sql)?
            .collect::<Result<_, _>>()
            .map_err(sql)?;
        if seats.iter().any(|s| s.2.is_none()) {
            return Err(format!(
                "match {id} is done but a seat has no rank: fix the database (or void the \
                 match) and recompute"
            ));
        }
        let input: Vec<(f64, f64, u32)> = seats
            .iter()
            .map(|s| (s.3, s.4, s.2.expect("checked")))
            .collect();
        let after = rating::update(&input);
        for (s, &(mu1, s1)) in seats.iter().zip(&after) {
            conn.execute(
                "UPDATE match_seats SET mu_before = ?1, sigma_before = ?2, mu_after = ?3,
                     sigma_after = ?4 WHERE match_id = ?5 AND seat = ?6",
                params![s.3, s.4, mu1, s1, id, s.0],
            )
            .map_err(sql)?;
            conn.execute(
                "UPDATE versions SET mu = ?1, sigma = ?2, matches = matches + 1 WHERE id = ?3",
                params![mu1, s1, s.1],
            )
            .map_err(sql)?;
            touched.insert(s.1);
        }
    }
    for version in touched {
        evaluation::update(conn, &test, version)?;
    }
    Ok(order.len())
}
