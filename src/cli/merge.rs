//! `rollarena merge DIR...`: combines the output directories of a tournament's shards into one
//! results file and standings, identical to a run on one machine.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::UsageError;
use crate::tournament::{merge, output};

/// Merge the output directories of a sharded tournament (`rollarena tournament --shard i/n`).
///
/// Refuses shards of different tournaments, a set with shards missing (naming them) and
/// shards that did not finish. Writes OUTPUT/results.jsonl (schedule order), standings.json,
/// standings.csv and tournament.json, and prints the standings.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' output directories.
    #[arg(value_name = "DIR", required = true)]
    dirs: Vec<PathBuf>,
    /// Where to write the merged output (must be empty or missing).
    #[arg(long, short, value_name = "DIR")]
    output: PathBuf,
    /// Print the standings as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let merged = merge::merge(&args.dirs, &args.output).map_err(UsageError::of)?;
    let report = crate::report::write(&args.output);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&merged.standings)?);
    } else {
        println!("{}", output::people_table(&merged.standings));
        if let Some(h2h) = output::head_to_head_table(&merged.standings) {
            println!("\nhead to head (row against column, wins-draws-losses):\n{h2h}");
        }
        println!(
            "\n{}, {} merged into {}",
            crate::record::notes::plural(merged.shards as usize, "shard", "shards"),
            crate::record::notes::plural(merged.rounds, "round", "rounds"),
            output::shown(&args.output).display()
        );
    }
    match report {
        Ok(w) if !args.json => println!("{}", super::report::summary(&w)),
        Ok(_) => {}
        Err(e) => eprintln!("the report could not be written: {e}"),
    }
    Ok(ExitCode::SUCCESS)
}
