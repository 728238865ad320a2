//! `rollarena report DIR`: the organiser's report of a tournament output directory.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::UsageError;
use crate::tournament::output;

/// Write the report of a tournament output directory (see the book, docs/tournaments/report.md): static
/// HTML pages that open from disk, with no network: the standings, the crosstable, ratings
/// over the rounds, a page per bot with its forfeits and their evidence, and every round in
/// the replay viewer. `tournament` and `merge` write it themselves; this writes it again, for
/// a directory made by an older version or while a tournament runs.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The tournament's output directory (with tournament.json and results.jsonl).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Where to write the report (default: DIR/report).
    #[arg(long, short, value_name = "OUT")]
    output: Option<PathBuf>,
}

pub fn run(args: ReportArgs) -> anyhow::Result<ExitCode> {
    let out = args
        .output
        .unwrap_or_else(|| args.dir.join(crate::report::DIR));
    let w = crate::report::write_to(&args.dir, &out).map_err(UsageError)?;
    println!("{}", summary(&w));
    Ok(ExitCode::SUCCESS)
}

/// One line about a written report, for every command that writes one.
pub fn summary(w: &crate::report::Written) -> String {
    format!(
        "report: {} ({} rounds; {} files, {:.1} MB; front page {:.0} kB)",
        output::shown(&w.index).display(),
        w.rounds,
        w.files,
        w.bytes as f64 / 1e6,
        w.index_bytes as f64 / 1e3
    )
}
