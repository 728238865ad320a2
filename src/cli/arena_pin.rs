//! `rollarena arena pin DIR TEAM VERSION | --latest`: the organiser chooses, from the host's
//! shell, which of a team's versions plays (while `rollarena serve` runs on the arena, or
//! not: the database is shared, and the matchmaker reads the active versions afresh for every
//! match). The rules and their words are [`crate::arena::pinning::pin`]'s, the same as
//! `POST /api/teams/NAME/pin`'s; a refusal is bad input (exit 2), a database that fails the
//! arbiter's (exit 3).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgGroup, Args};

use super::UsageError;
use crate::arena::Arena;
use crate::arena::pinning::{self, PinError, Pinned};

/// Choose which version of a team plays: pin one of its ready versions (it plays whatever the
/// team submits next), or with --latest go back to its latest version that passed its check.
///
/// The next matches the ladder makes seat it (matches already queued keep theirs); the final
/// plays the version that plays at the closing time, after which this is refused. Works while
/// `rollarena serve` runs on the arena. Prints which version plays now and whether it is
/// pinned.
#[derive(Args, Debug)]
#[command(
    group(ArgGroup::new("choice").required(true).args(["version", "latest"])),
    override_usage = "rollarena arena pin [OPTIONS] DIR TEAM VERSION\n       \
                      rollarena arena pin [OPTIONS] DIR TEAM --latest"
)]
pub struct PinArgs {
    /// The arena's directory.
    pub dir: PathBuf,
    /// The team's name, exactly as it was added.
    pub team: String,
    /// The version to pin: its number, as the team's page lists it (3 or #3).
    #[arg(value_parser = parse_version)]
    pub version: Option<i64>,
    /// Unpin: play the team's latest version that passed its check.
    #[arg(long)]
    pub latest: bool,
    /// Print {"active_version", "pinned_version"} (as the API answers) instead of a sentence.
    #[arg(long)]
    pub json: bool,
}

/// A version's number, with or without the `#` the pages write before it.
fn parse_version(text: &str) -> Result<i64, super::UsageError> {
    text.strip_prefix('#')
        .unwrap_or(text)
        .parse::<i64>()
        .ok()
        .filter(|v| *v > 0)
        .ok_or_else(|| {
            super::UsageError(format!(
                "{text:?} is not a version's number: give the number the team's page lists \
                 (e.g. 3), or --latest to play the latest ready version"
            ))
        })
}

pub fn run(a: PinArgs) -> anyhow::Result<ExitCode> {
    let arena = Arena::open(&a.dir).map_err(|e| UsageError(e.to_string()))?;
    let mut conn = arena.conn().map_err(|e| UsageError(e.to_string()))?;
    let asked = if a.latest { None } else { a.version };
    let asked = asked.map(crate::arena::store::VersionId);
    let pinned = pinning::team_named(&conn, &a.team)
        .and_then(|team| pinning::pin(&mut conn, team, asked))
        .map_err(|e| match e {
            PinError::Internal(m) => anyhow::anyhow!(m),
            refused => UsageError(refused.message().to_string()).into(),
        })?;
    if a.json {
        println!("{}", serde_json::to_string(&pinned)?);
    } else {
        println!("{}", sentence(&a.team, &pinned));
    }
    eprintln!(
        "The next matches the ladder makes seat it (matches already queued keep the versions \
         they were made with); the final plays the version that plays at the closing time."
    );
    Ok(ExitCode::SUCCESS)
}

/// Which version of `team` plays, and why, in one line.
fn sentence(team: &str, p: &Pinned) -> String {
    match (p.active_version, p.pinned_version) {
        (Some(a), Some(pin)) if a == pin => format!("{team} plays version {a}, pinned"),
        // A pinned version that is no longer ready (the database edited by hand): the latest
        // ready one plays meanwhile.
        (Some(a), Some(pin)) => format!(
            "{team} plays version {a}, its latest ready one (version {pin} is pinned but not \
             ready)"
        ),
        (Some(a), None) => format!("{team} plays version {a}, its latest ready one (none pinned)"),
        (None, _) => format!(
            "{team} has no ready version yet (none pinned): the first that passes its check plays"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_is_a_number_with_or_without_its_hash() {
        assert_eq!(parse_version("3"), Ok(3));
        assert_eq!(parse_version("#12"), Ok(12));
        for bad in ["v3", "0", "-1", "", "#", "three"] {
            let e = parse_version(bad).unwrap_err().0;
            assert!(
                e.contains("not a version's number") && e.contains("--latest"),
                "{e}"
            );
        }
    }

    #[test]
    fn the_sentence_says_which_version_plays_and_whether_pinned() {
        let p = |active, pinned| Pinned {
            active_version: active,
            pinned_version: pinned,
        };
        assert_eq!(
            sentence("A", &p(Some(3), Some(3))),
            "A plays version 3, pinned"
        );
        assert_eq!(
            sentence("A", &p(Some(4), None)),
            "A plays version 4, its latest ready one (none pinned)"
        );
        assert!(sentence("A", &p(Some(4), Some(3))).contains("version 3 is pinned but not ready"));
        assert!(sentence("A", &p(None, None)).contains("no ready version yet"));
    }
}
