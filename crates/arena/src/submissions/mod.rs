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

use rusqlite::{OptionalExtension, params};

use super::config::Recipe;
use super::{Arena, admin, db, sql};

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

/// Why an upload was not stored. Nothing of it was. Four kinds, each with its HTTP answer:
/// - `too_large`: the upload was larger than the arena takes (HTTP 413);
/// - `retry_after`: the team sent `[uploads] per_hour` uploads in the last hour: the next is
///   taken after that many seconds (HTTP 429 with `Retry-After`);
/// - `internal`: the arena itself failed (its disk or its database, not the upload): the
///   message says what failed, the team may send the same upload again later, and the
///   organiser should look at the server (HTTP 500);
/// - neither: the upload was bad, and the message says what to change (HTTP 400).
///
/// At most one of `too_large`, `retry_after` and `internal` is set.
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
pub fn accept(arena: &Arena, team: i64, upload: Upload) -> Result<i64, Refusal> {
    let internal = Refusal::internal;
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
    let mut conn = arena.conn().map_err(internal)?;
    let row: Option<(bool, bool)> = conn
        .query_row(
            "SELECT disabled, builtin FROM teams WHERE id = ?1",
            [team],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .map_err(|e| internal(sql(e)))?;
    match row {
        None => return Err(Refusal::bad(format!("there is no team {team}"))),
        Some((true, _)) => {
            return Err(Refusal::bad(
                "the team is disabled: the organiser must enable it before it can submit".into(),
            ));
        }
        Some((_, true)) => {
            return Err(Refusal::bad("a built-in bot cannot submit versions".into()));
        }
        _ => {}
    }
    if let Some(at) = super::finals::freeze::closed(&conn).map_err(internal)? {
        return Err(Refusal::bad(super::finals::freeze::refusal(at)));
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
        admin::set_mode(&staging, 0o700).map_err(internal)?;
        admin::set_mode(&source, 0o700).map_err(internal)?;
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
fn rate_limit(conn: &rusqlite::Connection, team: i64, per_hour: u32) -> Result<(), Refusal> {
    if per_hour == 0 {
        return Ok(());
    }
    let now = db::now_ms();
    let (sent, oldest): (i64, Option<i64>) = conn
        .query_row(
            "SELECT COUNT(*), MIN(submitted_at) FROM versions
             WHERE team_id = ?1 AND submitted_at > ?2",
            params![team, now - HOUR_MS],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .map_err(|e| Refusal::internal(sql(e)))?;
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
        admin::set_mode(&source.join(&recipe.main), 0o644).map_err(Refusal::internal)?;
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
    team: i64,
    label: &str,
    recipe: &Recipe,
    bytes: &[u8],
    staging: &Path,
) -> Result<i64, Refusal> {
    let internal = Refusal::internal;
    let sha = crate::tournament::config::sha256_hex(bytes);
    let (mu, sigma) = super::ladder::rating::initial();
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(|e| internal(sql(e)))?;
    let now = db::now_ms();
    // The team's queued version, if any, is superseded by this one, which inherits its place
    // in the queue (the team has waited since then).
    let waiting: Option<i64> = tx
        .query_row(
            "SELECT MIN(waiting_since) FROM versions WHERE team_id = ?1 AND state = 'queued'",
            [team],
            |r| r.get(0),
        )
        .map_err(|e| internal(sql(e)))?;
    tx.execute(
        "INSERT INTO versions (team_id, label, language, source_sha256, source_bytes,
             submitted_at, state, mu, sigma, waiting_since)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'queued', ?7, ?8, ?9)",
        params![
            team,
            label,
            recipe.name,
            sha,
            bytes.len() as i64,
            now,
            mu,
            sigma,
            waiting.unwrap_or(now)
        ],
    )
    .map_err(|e| internal(sql(e)))?;
    let id = tx.last_insert_rowid();
    tx.execute(
        "UPDATE versions SET state = 'superseded', failure = ?1
         WHERE team_id = ?2 AND state = 'queued' AND id != ?3",
        params![superseded_by(id), team, id],
    )
    .map_err(|e| internal(sql(e)))?;
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
            conn.query_row("SELECT 1 FROM versions WHERE id = ?1", [id], |_| Ok(()))
                .optional()
                .map_err(sql)?
                .is_none()
        } else {
            false
        };
        if orphan {
            crate::sandbox::tree::remove_loudly(&e.path()); // (task A) no recursion
        }
    }
    Ok(())
}
