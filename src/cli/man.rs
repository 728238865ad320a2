//! `rollarena man [SUBCOMMAND...]`: the manual pages, in roff, generated (by clap_mangen) from
//! the same clap definitions as `--help`. The top page lists the subcommands; each subcommand,
//! nested ones included, has a page of its own named as git names its own (`rollarena-match`,
//! `rollarena-arena-init`). `--dir` writes them all.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::UsageError;

/// Print the manual page of rollarena, or of one of its subcommands, in roff.
///
/// The top page lists the subcommands, and each has a page of its own: `rollarena man match`,
/// `rollarena man arena init`. Read one at once with `rollarena man match | man -l -`, or
/// install them where man looks, for example:
///
///     rollarena man > /usr/local/share/man/man1/rollarena.1
///     rollarena man --dir /usr/local/share/man/man1    # every page, rollarena-*.1 too
///
/// (then `man rollarena`, `man rollarena-match`).
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ManArgs {
    /// The subcommand whose page to print, nested ones as words (`arena init`) [default: the
    /// top page].
    #[arg(value_name = "SUBCOMMAND")]
    pub path: Vec<String>,
    /// Write every page (rollarena.1 and one rollarena-SUBCOMMAND.1 per subcommand) into DIR
    /// instead of printing one.
    #[arg(long, value_name = "DIR", conflicts_with = "path")]
    pub dir: Option<PathBuf>,
}

pub fn run(args: ManArgs) -> anyhow::Result<ExitCode> {
    let command = pages_root();
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| UsageError(format!("cannot create {}: {e}", dir.display())))?;
        let pages = write_all(&command, dir).map_err(|e| {
            UsageError(format!(
                "cannot write the pages into {}: {e}",
                dir.display()
            ))
        })?;
        eprintln!(
            "Wrote {} manual pages into {} (`man rollarena` once it is in man's path).",
            pages,
            dir.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let page = find(&command, &args.path)?;
    let mut out = Vec::new();
    man(page).render(&mut out)?;
    use std::io::Write;
    std::io::stdout().write_all(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// The command the pages are made of: built, so that each subcommand knows its full name
/// (`rollarena-arena-init`), and without clap's `help` subcommand (each page says what
/// `help` would).
fn pages_root() -> clap::Command {
    let mut command = super::command().disable_help_subcommand(true);
    command.build();
    command
}

/// The page of `command`, its footer naming this build (a subcommand has no version of its
/// own, and clap_mangen would put its bare name there).
fn man(command: &clap::Command) -> clap_mangen::Man {
    clap_mangen::Man::new(command.clone()).source(format!("rollarena {}", super::VERSION))
}

/// Writes the page of `command` and of each visible subcommand, recursively, into `dir`;
/// returns how many.
fn write_all(command: &clap::Command, dir: &std::path::Path) -> std::io::Result<usize> {
    let mut pages = 1;
    for sub in command.get_subcommands().filter(|c| !c.is_hide_set()) {
        pages += write_all(sub, dir)?;
    }
    man(command).generate_to(dir)?;
    Ok(pages)
}

/// The subcommand that `path` names, from the top.
fn find<'a>(top: &'a clap::Command, path: &[String]) -> anyhow::Result<&'a clap::Command> {
    let mut here = top;
    for (i, word) in path.iter().enumerate() {
        let next = here
            .get_subcommands()
            .find(|c| c.get_name() == word || c.get_all_aliases().any(|a| a == word));
        here = match next {
            Some(c) => c,
            None => {
                let names: Vec<&str> = here
                    .get_subcommands()
                    .filter(|c| !c.is_hide_set())
                    .map(|c| c.get_name())
                    .collect();
                let within = if i == 0 {
                    "rollarena".to_string()
                } else {
                    format!("rollarena {}", path[..i].join(" "))
                };
                return Err(UsageError(if names.is_empty() {
                    format!("`{within}` has no subcommands, so no page of {word:?}")
                } else {
                    format!(
                        "`{within}` has no subcommand {word:?}: it has {}",
                        names.join(", ")
                    )
                })
                .into());
            }
        };
    }
    Ok(here)
}
