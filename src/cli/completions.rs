//! `rollarena completions SHELL`: the shell's completion script, generated (by clap_complete)
//! from the same clap definitions that parse the command line, each game's flags included, so
//! that it never lags behind a new subcommand or flag.

use std::process::ExitCode;

use clap::Args;
use clap_complete::Shell;

/// Print the shell completion script for bash, zsh, fish, elvish or powershell.
///
/// Install it where the shell looks for completions, for example:
///
///     rollarena completions bash > /etc/bash_completion.d/rollarena
///     rollarena completions zsh > /usr/local/share/zsh/site-functions/_rollarena
///     rollarena completions fish > ~/.config/fish/completions/rollarena.fish
///
/// and start a new shell. The script completes subcommands, flags and the values of flags
/// that take a fixed set of them; run it again after upgrading rollarena.
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct CompletionsArgs {
    /// The shell the script is for.
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn run(args: CompletionsArgs) -> anyhow::Result<ExitCode> {
    let mut command = super::command();
    clap_complete::generate(
        args.shell,
        &mut command,
        "rollarena",
        &mut std::io::stdout(),
    );
    Ok(ExitCode::SUCCESS)
}
