//! Resuming a match after its last finished round: what the rounds already played (read back
//! from a record) hand on to the rest, so that the match goes on as if it had never stopped.
//!
//! A match is one set of bot processes, but nothing a round depends on lives in them: round
//! seeds and openings derive from the match seed, table and round; what a round carries to the
//! next (a race game's positions and tokens) and the request counter come out of
//! re-playing the last kept round through the referee ([`crate::verify::handed_on`]); the
//! seats' names, the standings and each seat's run of crashes (for withdrawal) are folded from
//! the kept rounds. The bots are started afresh, as after a forfeit. With deterministic bots
//! the rounds played after a resume are the ones an uninterrupted match would have played.

use serde_json::Value;

use crate::Error;
use crate::record::{ForfeitKind, RoundRecord};
use crate::standings::MatchStandings;

/// A kept round the match cannot go on from: the record disagrees with the rules or with the
/// rounds before it.
fn refused(reason: String) -> Error {
    Error::Rules(rollarena_rules::Error::Mismatch(reason))
}

/// Where a match resumes: built from its kept rounds, in round order, with [`Resume::add`].
#[derive(Clone, Debug)]
pub struct Resume {
    /// Rounds kept (rounds 1 to `played`).
    pub played: u32,
    /// The seats' names as the kept rounds recorded them.
    pub names: Vec<String>,
    /// The standings over the kept rounds.
    pub standings: MatchStandings,
    /// Rounds in a row each seat lost by a crash or at start-up, up to the last kept round.
    pub streak: Vec<u32>,
    /// The request counter after the last kept round.
    pub turn_id: u64,
    /// What the last kept round carries to the next (games whose rounds are not independent).
    pub carry: Option<Value>,
    /// The last kept round ended the match by the rules: nothing is left to play.
    pub ended: bool,
}

impl Resume {
    /// Folds the next kept round in. Refuses a round out of order (the kept rounds must be
    /// rounds 1, 2, ... of one match) and a round the rules do not re-play as recorded.
    pub fn add(resume: Option<Resume>, record: &RoundRecord) -> Result<Resume, Error> {
        let expected = resume.as_ref().map_or(1, |r| r.played + 1);
        if record.round != expected {
            return Err(refused(format!(
                "round {} of match {} comes where round {expected} should",
                record.round, record.match_id
            )));
        }
        let names: Vec<String> = record.seats.iter().map(|s| s.name.clone()).collect();
        let mut r = match resume {
            Some(r) if r.names == names => r,
            Some(r) => {
                return Err(refused(format!(
                    "round {} of match {} names its seats {names:?}, the rounds before it {:?}",
                    record.round, record.match_id, r.names
                )));
            }
            None => Resume {
                played: 0,
                standings: MatchStandings::new(&names),
                streak: vec![0; names.len()],
                names,
                turn_id: 0,
                carry: None,
                ended: false,
            },
        };
        let (carry, turn_id) = crate::verify::handed_on(record).map_err(|e| {
            refused(format!(
                "round {} of match {} does not re-play as recorded ({e})",
                record.round, record.match_id
            ))
        })?;
        r.played = record.round;
        r.standings.add(record);
        for (seat, streak) in r.streak.iter_mut().enumerate() {
            let lost = record.forfeits.iter().any(|f| {
                f.seat == seat && matches!(f.kind, ForfeitKind::Crash | ForfeitKind::Startup)
            });
            *streak = if lost { *streak + 1 } else { 0 };
        }
        r.turn_id = turn_id;
        r.carry = carry;
        r.ended = record.ends_match;
        Ok(r)
    }
}
