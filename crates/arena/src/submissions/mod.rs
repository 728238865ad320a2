//! Submissions: an upload checked and stored as a queued version ([`accept`]), then built in
//! the sandbox ([`build`]) and put through `check` ([`checking`]): queued -> building ->
//! checking -> ready | failed. A team has at most one version queued: a newer upload
//! supersedes it (state `superseded`, never built, its `failure` naming the newer version), and
//! at most `[uploads] per_hour` uploads in any hour (more are a [`Refusal`] with the time to
//! wait, HTTP 429).
//!
//! An upload is a single source file or a tar.gz or zip archive. Whatever is wrong with it is
//! a [`Refusal`] that says what and what to do, and leaves nothing behind: the upload is
//! unpacked into a staging directory, and the version's row and its directory appear together
//! (the directory is renamed into place inside the row's transaction). Leftovers of a crash
//! between the two are removed at start ([`remove_leftovers`]).

pub mod build;
pub mod builder;
pub mod checking;
pub mod offer;
pub mod unpack;

use std::path::Path;

use super::config::Recipe;
use super::store::db;
use super::store::{TeamId, VersionId, teams, versions};
use super::{Arena, rundir, sql};

/// An upload as a team sent it.
#[derive(Clone, Debug, Default)]
pub struct Upload {
    /// The uploaded file's name (a single file's name decides its language when none is
    /// given; an archive's tells its kind when its bytes do not).
    pub file_name: String,
    pub bytes: Vec<u8>,
    /// A recipe's name; `None`: from the file's name, or the recipe whose `main` an archive
    /// holds.
    pub language: Option<String>,
    /// The team's name for the version; `None`: the file's name.
    pub label: Option<String>,
}

/// Why an upload was not stored. Nothing of it was. Six kinds, each with its HTTP answer:
/// - `forbidden`: the team may not submit (the organiser disabled it) (HTTP 403);
/// - `too_large`: the upload was larger than the arena takes (HTTP 413);
/// - `retry_after`: the team sent `[uploads] per_hour` uploads in the last hour: the next is
///   taken after that many seconds (HTTP 429 with `Retry-After`);
/// - `internal`: the arena itself failed (its disk or its database, not the upload): the
///   message says what failed, the team may send the same upload again later, and the
///   organiser should look at the server (HTTP 500);
/// - `disk_full`: the arena's disk has no room for it (HTTP 507);
/// - none: the upload was bad, and the message says what to change (HTTP 400).
///
/// At most one of `forbidden`, `too_large`, `retry_after`, `internal` and `disk_full` is set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// What was wrong and what to do.
    pub message: String,
    /// The upload was too large (HTTP 413).
    pub too_large: bool,
    /// The arena failed, not the upload (HTTP 500).
    pub internal: bool,
    /// Too many uploads: seconds until the next is taken (HTTP 429).
    pub retry_after: Option<u64>,
    /// The arena's disk has no room for it (HTTP 507).
    pub disk_full: bool,
    /// The team may not submit (HTTP 403).
    pub forbidden: bool,
}

impl Refusal {
    /// A bad upload (HTTP 400).
    pub fn bad(message: String) -> Refusal {
        Refusal {
            message,
            too_large: false,
            internal: false,
            retry_after: None,
            disk_full: false,
            forbidden: false,
        }
    }

    /// The team may not submit at all (HTTP 403).
    pub fn forbidden(message: String) -> Refusal {
        Refusal {
            forbidden: true,
            ..Refusal::bad(message)
        }
    }

    fn large(message: String) -> Refusal {
        Refusal {
            too_large: true,
            ..Refusal::bad(message)
        }
    }

    /// The arena's own failure while storing an upload (HTTP 500); `what` is the error.
    pub fn internal(what: String) -> Refusal {
        Refusal {
            internal: true,
            ..Refusal::bad(format!(
                "the arena could not store the upload: {what} (nothing was stored: send it \
                 again later, and tell the organiser if this goes on)"
            ))
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Longest label, in characters.
pub const MAX_LABEL: usize = 100;

/// Checks an upload and stores it as a queued version of `team`; returns the version's id.
pub fn accept(arena: &Arena, team: TeamId, upload: Upload) -> Result<i64, Refusal> {
    let internal = Refusal::internal;
    // Who may submit first: a disabled team is refused whatever it sent.
    let mut conn = arena.conn().map_err(internal)?;
    let marks = teams::marks(&conn, team).map_err(|e| internal(e.to_string()))?;
    match marks {
        None => return Err(Refusal::bad(format!("there is no team {team}"))),
        Some(m) if m.disabled => {
            return Err(Refusal::forbidden(
                "this team is disabled by the organiser: it cannot submit".into(),
            ));
        }
        Some(m) if m.builtin => {
            return Err(Refusal::bad("a built-in bot cannot submit versions".into()));
        }
        _ => {}
    }
    let limits = &arena.config.uploads;
    if upload.bytes.len() as u64 > limits.max_bytes {
        return Err(Refusal::large(format!(
            "the upload is {} bytes, more than the arena takes ({}, [uploads] max_bytes): \
             leave out build outputs and dependencies you do not need",
            upload.bytes.len(),
            super::config::format_size(limits.max_bytes)
        )));
    }
    if upload.bytes.is_empty() {
        return Err(Refusal::bad(
            "the upload is empty: send your bot's source file or an archive of its folder".into(),
        ));
    }
    if let Some(at) = crate::freeze::closed(&conn).map_err(internal)? {
        return Err(Refusal::bad(crate::freeze::refusal(at)));
    }
    rate_limit(&conn, team, limits.per_hour)?;
    let label = match &upload.label {
        Some(l) => check_label(l)?,
        None => upload.file_name.chars().take(MAX_LABEL).collect::<String>(),
    };
    let label = if label.chars().any(char::is_control) || label.is_empty() {
        "upload".to_string()
    } else {
        label
    };
    let given = match &upload.language {
        Some(name) => Some(arena.config.recipe(name).ok_or_else(|| {
            match arena.unavailable.iter().find(|u| u.recipe.name == *name) {
                Some(u) => Refusal::bad(offer::refusal(u, &arena.config.recipes)),
                None => Refusal::bad(format!(
                    "the arena has no language {name:?}: it takes {}",
                    languages(&arena.config.recipes)
                )),
            }
        })?),
        None => None,
    };
    let versions = arena.dir.join("versions");
    disk_room(arena, upload.bytes.len() as u64)?; // (task A) a full disk refuses uploads
    let staging = versions.join(format!(".staging-{}", super::tokens::random_hex(8)));
    let source = staging.join("source");
    std::fs::create_dir_all(&source).map_err(|e| internal(format!("{}: {e}", source.display())))?;
    let stored = (|| {
        let recipe = unpack_into(arena, &upload, given, &source)?;
        rundir::set_mode(&staging, 0o700).map_err(internal)?;
        rundir::set_mode(&source, 0o700).map_err(internal)?;
        insert(
            arena,
            &mut conn,
            team,
            &label,
            recipe,
            &upload.bytes,
            &staging,
        )
    })();
    if stored.is_err() {
        crate::sandbox::tree::remove_loudly(&staging); // (task A) no recursion
    }
    stored
}

/// An upload's window: `[uploads] per_hour` counts the uploads of the last hour.
const HOUR_MS: i64 = 3_600_000;

/// Refuses an upload of `team` when it sent `per_hour` (not 0) in the last hour, saying when
/// the next is taken: an hour after the oldest of them.
fn rate_limit(conn: &rusqlite::Connection, team: TeamId, per_hour: u32) -> Result<(), Refusal> {
    if per_hour == 0 {
        return Ok(());
    }
    let now = db::now_ms();
    let (sent, oldest) = versions::submitted_since(conn, team, now - HOUR_MS)
        .map_err(|e| Refusal::internal(e.to_string()))?;
    if sent < per_hour as i64 {
        return Ok(());
    }
    let next = oldest.unwrap_or(now) + HOUR_MS;
    let wait = ((next - now).max(0) as u64).div_ceil(1000).max(1);
    let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(now as u64 / 1000 + wait);
    Err(Refusal {
        retry_after: Some(wait),
        ..Refusal::bad(format!(
            "the team sent {sent} uploads in the last hour, as many as the arena takes \
             ([uploads] per_hour = {per_hour}): the next upload is accepted in {} (at {} UTC); \
             until then, test locally with `rollarena check`",
            humantime::format_duration(std::time::Duration::from_secs(wait)),
            humantime::format_rfc3339_seconds(at)
                .to_string()
                .replace('T', " ")
                .trim_end_matches('Z')
        ))
    })
}

/// (task A) Refuses an upload when the arena's disk has no room for it: the upload, its
/// unpacked source ([uploads] max_unpacked) and its kept build ([build] disk), in bytes and
/// inodes. Nothing is stored, and what is recorded stays as it is.
fn disk_room(arena: &Arena, upload: u64) -> Result<(), Refusal> {
    let c = &arena.config;
    let Ok((bytes, inodes)) = crate::sandbox::tree::free_space(&arena.dir) else {
        return Ok(());
    };
    let need = upload
        .saturating_add(c.uploads.max_unpacked)
        .saturating_add(c.build.disk);
    let need_inodes = c.uploads.max_files.saturating_add(c.build.inodes);
    if bytes >= need && inodes >= need_inodes {
        return Ok(());
    }
    Err(Refusal {
        disk_full: true,
        ..Refusal::bad(format!(
            "the arena's disk is full ({} MiB and {inodes} inodes free, and a submission \
             needs up to {} MiB and {need_inodes} inodes: its upload, its source unpacked and \
             its build): nothing was stored; send it again later, and tell the organiser, who \
             must free space on the arena's disk",
            bytes >> 20,
            need.div_ceil(1 << 20),
        ))
    })
}

/// A label: printable, at most [`MAX_LABEL`] characters.
fn check_label(label: &str) -> Result<String, Refusal> {
    let label = label.trim();
    if let Some(c) = label.chars().find(|c| c.is_control()) {
        return Err(Refusal::bad(format!(
            "the label holds the control character {c:?}: use printable characters only"
        )));
    }
    if label.chars().count() > MAX_LABEL {
        return Err(Refusal::bad(format!(
            "the label is longer than {MAX_LABEL} characters"
        )));
    }
    Ok(label.to_string())
}

fn languages(recipes: &[Recipe]) -> String {
    recipes
        .iter()
        .map(|r| r.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Unpacks or places the upload in `source`; returns its recipe.
fn unpack_into<'a>(
    arena: &'a Arena,
    upload: &Upload,
    given: Option<&'a Recipe>,
    source: &Path,
) -> Result<&'a Recipe, Refusal> {
    let recipes = &arena.config.recipes;
    let limits = unpack::Limits {
        max_unpacked: arena.config.uploads.max_unpacked,
        max_files: arena.config.uploads.max_files,
    };
    let kind = unpack::kind_of(&upload.file_name, &upload.bytes);
    if kind == unpack::Kind::Single {
        let name = Path::new(&upload.file_name)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let takes = |r: &Recipe| {
            name == r.main
                || r.extensions
                    .iter()
                    .any(|e| name.len() > e.len() && name.ends_with(e.as_str()))
        };
        let recipe = match given {
            Some(r) if takes(r) => r,
            Some(r) => {
                return Err(Refusal::bad(format!(
                    "a single {} file must be named {}{}: {name:?} is not (or send an archive \
                     holding {})",
                    r.name,
                    r.main,
                    if r.extensions.is_empty() {
                        String::new()
                    } else {
                        format!(" or end with {}", r.extensions.join(" or "))
                    },
                    r.main
                )));
            }
            None => recipes.iter().find(|r| takes(r)).ok_or_else(|| {
                if let Some(u) = arena.unavailable.iter().find(|u| takes(&u.recipe)) {
                    return Refusal::bad(offer::refusal(u, recipes));
                }
                Refusal::bad(format!(
                    "no language of the arena takes a single file named {name:?}: name it as \
                     its language wants ({}), or give the language",
                    recipes
                        .iter()
                        .map(|r| format!("{} {}", r.name, r.main))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?,
        };
        std::fs::write(source.join(&recipe.main), &upload.bytes)
            .map_err(|e| Refusal::internal(e.to_string()))?;
        rundir::set_mode(&source.join(&recipe.main), 0o644).map_err(Refusal::internal)?;
        return Ok(recipe);
    }
    match kind {
        unpack::Kind::TarGz => unpack::tar_gz(&upload.bytes, source, limits)?,
        _ => unpack::zip(&upload.bytes, source, limits)?,
    }
    unpack::strip_single_top(source).map_err(|e| Refusal::internal(format!("unpacking: {e}")))?;
    match given {
        Some(r) if source.join(&r.main).is_file() => Ok(r),
        Some(r) => Err(Refusal::bad(format!(
            "a {} submission must hold {} at its top, and this archive does not",
            r.name, r.main
        ))),
        None => recipes
            .iter()
            .find(|r| source.join(&r.main).is_file())
            .ok_or_else(|| {
                if let Some(u) = arena
                    .unavailable
                    .iter()
                    .find(|u| source.join(&u.recipe.main).is_file())
                {
                    return Refusal::bad(offer::refusal(u, recipes));
                }
                Refusal::bad(format!(
                    "the archive holds no file that names its language ({}): give the \
                     language, or put its main file at the archive's top",
                    recipes
                        .iter()
                        .map(|r| format!("{} for {}", r.main, r.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            }),
    }
}

/// The row and the directory, together.
fn insert(
    arena: &Arena,
    conn: &mut rusqlite::Connection,
    team: TeamId,
    label: &str,
    recipe: &Recipe,
    bytes: &[u8],
    staging: &Path,
) -> Result<i64, Refusal> {
    let internal = Refusal::internal;
    let sha = crate::tournament::config::sha256_hex(bytes);
    let (mu, sigma) = crate::rating::initial();
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(|e| internal(sql(e)))?;
    let now = db::now_ms();
    // The team's queued version, if any, is superseded by this one, which inherits its place
    // in the queue (the team has waited since then).
    let new = versions::NewVersion {
        team,
        label,
        language: &recipe.name,
        source_sha256: &sha,
        source_bytes: bytes.len() as i64,
        mu,
        sigma,
    };
    let id = versions::insert_queued(&tx, &new, now, |id| superseded_by(id.0))
        .map_err(|e| internal(e.to_string()))?
        .0;
    let dir = arena.version_dir(id);
    if dir.exists() {
        // Left by a crash before its row was committed: not anyone's version.
        crate::sandbox::tree::remove_loudly(&dir); // (task A) no recursion
    }
    std::fs::rename(staging, &dir).map_err(|e| internal(format!("{}: {e}", dir.display())))?;
    if let Err(e) = tx.commit() {
        crate::sandbox::tree::remove_loudly(&dir); // (task A) no recursion
        return Err(internal(sql(e)));
    }
    Ok(id)
}

/// The verdict of a version a newer one superseded while it waited to be built.
pub fn superseded_by(id: i64) -> String {
    format!("superseded by version {id}: only a team's newest upload waits to be built")
}

/// Removes what a crash left of uploads: staging directories and version directories whose
/// row was never committed.
pub fn remove_leftovers(arena: &Arena) -> Result<(), String> {
    let conn = arena.conn()?;
    let versions = arena.dir.join("versions");
    let Ok(entries) = std::fs::read_dir(&versions) else {
        return Ok(());
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let orphan = if name.starts_with(".staging-") {
            true
        } else if let Ok(id) = name.parse::<i64>() {
            !versions::exists(&conn, VersionId(id))?
        } else {
            false
        };
        if orphan {
            crate::sandbox::tree::remove_loudly(&e.path()); // (task A) no recursion
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::admin;

    /// The rules of who may submit are `accept`'s, whoever calls it (the web form, the JSON
    /// API, the CLI): a disabled team is refused (HTTP 403), and so is anyone once the contest
    /// has closed.
    #[test]
    fn a_disabled_team_and_a_closed_contest_are_refused_here() {
        let (_tmp, arena) = admin::fresh_arena(&["a"]);
        let team = admin::team_id(&arena.conn().unwrap(), "a").unwrap();
        let upload = Upload {
            file_name: "bot.py".into(),
            bytes: b"print(1)\n".to_vec(),
            ..Upload::default()
        };
        admin::set_team_disabled(&arena, team, true).unwrap();
        let r = accept(&arena, team, upload.clone()).unwrap_err();
        assert!(
            r.forbidden && r.message.contains("disabled by the organiser"),
            "{r:?}"
        );
        admin::set_team_disabled(&arena, team, false).unwrap();
        crate::freeze::set(&arena.conn().unwrap(), db::now_ms(), true).unwrap();
        let r = accept(&arena, team, upload).unwrap_err();
        assert!(
            !r.forbidden && r.message.contains("the contest closed at"),
            "{r:?}"
        );
        let nothing = arena.dir.join("versions").read_dir().unwrap().count();
        assert_eq!(nothing, 0, "a refusal stores nothing");
    }
}
