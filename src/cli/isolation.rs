//! The isolation flags shared by every subcommand that starts bots: the sandbox level, the
//! bot user and the resource limits.

use std::time::Duration;

use clap::Args;

use super::UsageError;
use crate::duration::parse_duration;
use crate::sandbox::{Isolation, Level, ResourceLimits, identity, parse_size, scratch};

#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Isolation of bots")]
pub struct IsolationArgs {
    /// Sandbox level: none (process group only, for debugging), basic (limits, cleared
    /// environment, scratch directory, and a world of its own: PID namespace with a fresh
    /// /proc, private /tmp, /var/tmp and /dev/shm, IPC namespace, loopback-only network),
    /// strict (basic plus a filesystem read-only except the bot's own directories). A level
    /// the kernel refuses is an error.
    #[arg(long, value_enum, default_value = "basic")]
    pub sandbox: Level,
    /// When the arbiter runs as root, every bot runs under a uid (and gid) of its own from
    /// this range, never shared by two live bots on the machine.
    #[arg(long, default_value = identity::DEFAULT_RANGE, value_name = "FIRST-LAST")]
    pub bot_uids: String,
    /// Run every bot as this one user instead (root only; seats then share an identity and
    /// can reach each other: a warning says so).
    #[arg(long, value_name = "USER")]
    pub bot_user: Option<String>,
    /// Memory a bot may use (its whole process tree where cgroups allow), e.g. 512M, 2G.
    #[arg(long, default_value = "2G", value_parser = parse_size, value_name = "SIZE")]
    pub memory: u64,
    /// CPU time a bot process may use over the match.
    #[arg(long, default_value = "1h", value_parser = parse_hours, value_name = "TIME")]
    pub cpu_limit: Duration,
    /// Processes and threads a bot may run at once.
    #[arg(long, default_value_t = 128, value_name = "N")]
    pub max_processes: u64,
    /// Files a bot process may have open.
    #[arg(long, default_value_t = 256, value_name = "N")]
    pub max_open_files: u64,
    /// Make the record and the bot logs readable by this group too (they are owner-only
    /// otherwise, so that no bot can read them while the match runs).
    #[arg(long, value_name = "GROUP")]
    pub output_group: Option<String>,
    /// Largest file a bot may write.
    #[arg(long, default_value = "64M", value_parser = parse_size, value_name = "SIZE")]
    pub max_file_size: u64,
    /// Bytes a bot may write in its scratch directory, /tmp, /var/tmp and /dev/shm together
    /// (one tmpfs of this size at basic and strict: a write past it fails with ENOSPC; what it
    /// holds counts against --memory too).
    #[arg(long, default_value = "512M", value_parser = parse_size, value_name = "SIZE")]
    pub disk: u64,
    /// Files and directories a bot may make there.
    #[arg(long, default_value_t = crate::sandbox::DEFAULT_INODES, value_name = "N")]
    pub inodes: u64,
}

impl IsolationArgs {
    /// The isolation asked for, checked against the kernel (refused levels are errors).
    pub fn isolation(&self) -> anyhow::Result<Isolation> {
        let limits = ResourceLimits {
            memory: self.memory,
            cpu_secs: self.cpu_limit.as_secs().max(1),
            open_files: self.max_open_files,
            processes: self.max_processes,
            file_size: self.max_file_size,
            disk: self.disk,
            inodes: self.inodes,
        };
        crate::sandbox::output::make_private(self.output_group.as_deref())
            .map_err(UsageError::of)?;
        let iso = Isolation::new(
            self.sandbox,
            self.bot_user.as_deref(),
            &self.bot_uids,
            limits,
        )
        .map_err(UsageError::of)?;
        iso.probe().map_err(UsageError::of)?;
        Ok(iso)
    }
}

/// Who bots run as, in an error: the seats' own uids (`--bot-uids`) or the one named user.
fn who(user: &crate::sandbox::BotUser) -> String {
    if user.name.starts_with("uid ") {
        format!(
            "the bots (the arbiter is root, so each runs under a uid of its own from \
             --bot-uids, such as {})",
            user.name
        )
    } else {
        format!(
            "the bot user {}, whom bots run as when the arbiter is root",
            user.name
        )
    }
}

/// [`who`] again, in a pronoun.
fn them(user: &crate::sandbox::BotUser) -> &'static str {
    if user.name.starts_with("uid ") {
        "them"
    } else {
        "that user"
    }
}

/// What to do about a file the bots cannot reach.
fn way_out(user: &crate::sandbox::BotUser) -> &'static str {
    if user.name.starts_with("uid ") {
        "a system interpreter such as /usr/bin/python3 works; a program under /root does not: \
         move the bot to a directory others may read, e.g. /srv or /opt"
    } else {
        "a system interpreter such as /usr/bin/python3 works; or choose another --bot-user"
    }
}

/// Checks that the bot user can run a bot's program and read the files its command names.
pub fn check_reachable(iso: &Isolation, argv: &[String]) -> Result<(), UsageError> {
    let Some(user) = &iso.reach_user() else {
        return Ok(());
    };
    if argv[0] != "rollarena" {
        let program = crate::arbiter::process::resolve_program(&argv[0]).map_err(UsageError::of)?;
        if !scratch::reachable(&program, user, true) {
            if let Some(fix) = chmod_file(&program, user, true) {
                return Err(UsageError(format!(
                    "{} cannot be run by {}: {fix}",
                    program.display(),
                    who(user)
                )));
            }
            return Err(UsageError(format!(
                "{} cannot be run by {}: the file and every directory above it must be \
                 readable and searchable by {} ({})",
                program.display(),
                who(user),
                them(user),
                way_out(user)
            )));
        }
    }
    for arg in &argv[1..] {
        let path = std::path::Path::new(arg);
        if !arg.starts_with('-') && path.exists() && !scratch::reachable(path, user, false) {
            if let Some(fix) = chmod_file(path, user, false) {
                return Err(UsageError(format!(
                    "{arg} cannot be read by {}: {fix}",
                    who(user)
                )));
            }
            return Err(UsageError(format!(
                "{arg} cannot be read by {}: make it and every directory above it readable by \
                 {} ({})",
                who(user),
                them(user),
                way_out(user)
            )));
        }
    }
    Ok(())
}

/// The fix when only the file's own mode keeps the bots from it (its directories let them
/// through: a bot in /tmp made with mode 0700, say): the chmod that gives them what they need.
fn chmod_file(
    path: &std::path::Path,
    user: &crate::sandbox::BotUser,
    want_exec: bool,
) -> Option<String> {
    let blocked = scratch::blocker(path, user, want_exec)?;
    if std::fs::canonicalize(path).ok()? != blocked || blocked.is_dir() {
        return None;
    }
    let (what, bits) = if want_exec {
        ("read and run", "a+rx")
    } else {
        ("read", "a+r")
    };
    Some(format!(
        "its mode ({:o}) does not let {} {what} it; `chmod {bits} {}` does",
        std::os::unix::fs::PermissionsExt::mode(&blocked.metadata().ok()?.permissions()) & 0o7777,
        them(user),
        blocked.display()
    ))
}

/// Checks that the bots cannot read a file from which the secrets of a game of hidden
/// information follow (`what`, said in the error, and `why` it matters): a tournament file
/// with a `seed` (which deals every card; without one the seed is drawn from the operating
/// system and nothing in the file decides a card), or an openings file of deal seeds. A
/// bot finds such a file by looking (the filesystem outside its scratch directory is the
/// host's, with its uid's rights), so one it may read is refused before any bot starts, as
/// ssh refuses a key others may read. Nothing to check when the bots run as the arbiter's own
/// user (not root): they can read whatever the organiser can.
pub fn check_private(
    iso: &Isolation,
    path: &std::path::Path,
    what: &str,
    why: &str,
) -> Result<(), UsageError> {
    let Some(user) = &iso.reach_user() else {
        return Ok(());
    };
    if !scratch::reachable(path, user, false) {
        return Ok(());
    }
    Err(UsageError(format!(
        "{what} {} can be read by {}, and {why}: a bot that found it could compute every \
         seat's cards. Make it private to the organiser: `chmod 600 {}` (or `chmod 700` its \
         directory); with bots of your own only (a ladder, never a contest), --public-seed \
         plays anyway",
        path.display(),
        who(user),
        path.display()
    )))
}

/// Warns when a seed given on the command line is in the bots' sight: at `none` there is no
/// PID namespace, so a bot of another uid reads the arbiter's command line in /proc. Not an
/// error: `none` is for debugging, where a fixed seed is what one wants.
pub fn warn_seed_in_sight(iso: &Isolation, game: &str) {
    if iso.level == Level::None && iso.reach_user().is_some() {
        tracing::warn!(
            "--seed with --sandbox none: the bots can read this command line (/proc: no PID \
             namespace at none), and {game} deals its hidden cards from the seed; for a \
             contest use --sandbox basic, or leave --seed unset"
        );
    }
}

/// Parses a duration, also accepting hours (`1h`).
fn parse_hours(s: &str) -> Result<Duration, UsageError> {
    match s.trim().strip_suffix('h') {
        Some(h) => h
            .parse::<u64>()
            .map(|h| Duration::from_secs(h * 3600))
            .map_err(|_| UsageError(format!("{s:?} is not a duration"))),
        None => parse_duration(s).map_err(UsageError::of),
    }
}
