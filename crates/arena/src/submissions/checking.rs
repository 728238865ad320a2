//! The check of a built version: `rollarena check --game G` with the arena's options, table
//! size, time control and seat sandbox, run in-process on the built bot ([`run_check`]); the
//! report is kept as `check.json` and only a version that passes every item plays.

use std::path::Path;

use crate::Error;
use crate::arbiter::{BotSpec, Limits};
use crate::check::{CheckConfig, Report, Status, run_check};
use crate::config::Config;
use crate::game::registry;
use crate::rundir::RunDir;
use crate::sandbox::Isolation;

/// How a seat runs a version: the command, and the run directory that holds the copy of the
/// version's `build` it runs (removed when dropped; none for a built-in bot, which runs
/// `rollarena bot NAME`). One per seat of a match, one per check.
pub fn seat(
    arena_dir: &Path,
    build: &Path,
    run: &str,
) -> Result<(Vec<String>, Option<RunDir>), Error> {
    if builtin(run) {
        return Ok((seat_argv(run, build)?, None));
    }
    let dir = RunDir::copy_of(arena_dir, build)?;
    Ok((seat_argv(run, dir.path())?, Some(dir)))
}

fn builtin(run: &str) -> bool {
    run.split_whitespace().next() == Some("rollarena")
}

/// The command that runs a version built in `build`: the recipe's words, those that name a
/// file of the build made absolute (the bot runs in a scratch directory of its own).
pub fn seat_argv(run: &str, build: &Path) -> Result<Vec<String>, Error> {
    let words = shell_words::split(run)
        .map_err(|e| Error::Invalid(format!("the run command {run:?}: {e}")))?;
    if words.first().is_some_and(|w| w == "rollarena") {
        return Ok(words);
    }
    Ok(words
        .into_iter()
        .map(|w| {
            let p = build.join(&w);
            if !w.starts_with('-') && Path::new(&w).is_relative() && p.exists() {
                p.display().to_string()
            } else {
                w
            }
        })
        .collect())
}

/// Checks the bot `argv` as the arena's matches will run it; the report.
pub fn check(
    config: &Config,
    iso: &Isolation,
    name: &str,
    argv: Vec<String>,
    seed: u64,
) -> Result<Report, Error> {
    let entry = registry::find(&config.game).map_err(Error::games)?;
    let mut check = CheckConfig {
        bot: BotSpec {
            name: name.to_string(),
            named: true,
            argv,
            cwd: None,
            log: None,
            resources: None,
            tc: None,
        },
        game: entry.name,
        options: config.options.clone(),
        players: vec![config.players],
        time: config.time_control(),
        limits: Limits::default(),
        seed,
        hide_legal: config.hide_legal,
        isolation: iso.clone(),
        freeze: true,
    };
    entry.check.prepare(&mut check).map_err(Error::games)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::io("the check's runtime", e))?;
    Ok(runtime.block_on(run_check(&check, entry.check, &mut |_| {})))
}

/// The first failed item of a report, in one line, for the version's `failure`.
pub fn first_failure(report: &Report) -> Option<String> {
    report
        .items
        .iter()
        .find(|i| i.status == Status::Fail)
        .map(|i| format!("check: {}: {}", i.item.id(), i.detail))
}
