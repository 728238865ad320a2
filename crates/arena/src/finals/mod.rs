//! The contest's last day: the organiser freezes the arena ([`crate::freeze`]: submissions
//! closed at a set time, announced on every page; the ladder makes no more matches), runs the
//! final [`tournament`] on the active versions with a schedule of `rollarena tournament` (its
//! matches played by the arena's workers, its standings and report computed as `tournament`
//! computes them), [`rejudge`]s a match (void it, or play it again) with the ratings rebuilt
//! from the counted matches, and [`export`]s the whole arena as one archive.
//!
//! The final's files live in `DIR/final/`: a tournament output directory (`tournament.json`,
//! `results.jsonl`, `standings.json`, `standings.csv`) and its report in `DIR/final/report/`,
//! written once every match of the final is over. protocol/ARENA.md (sections 11 to 14)
//! describes them.

pub mod export;
pub mod rejudge;
pub mod tournament;

use super::store::MatchKind;

/// The match kind of the final tournament's matches.
pub const KIND: MatchKind = MatchKind::Final;
