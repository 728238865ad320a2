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
    /// Grade every move of every round (games that can: see `rollarena analyse`) and show on
    /// each bot page where its games were lost: its accuracy (moves within one ball of the
    /// best) and its largest losses. Searches each position for up to --analyse-time, so it
    /// takes a while on a large tournament.
    #[arg(long)]
    analyse: bool,
    /// With --analyse: the search time per position.
    #[arg(long, default_value = "200ms", value_parser = crate::duration::parse_duration, value_name = "TIME")]
    analyse_time: std::time::Duration,
}

pub fn run(args: ReportArgs) -> anyhow::Result<ExitCode> {
    let out = args
        .output
        .unwrap_or_else(|| args.dir.join(crate::report::DIR));
    let w = if args.analyse {
        let budget = crate::game::grade::Budget {
            time: Some(args.analyse_time),
            nodes: None,
        };
        crate::report::write_analysed(&args.dir, &out, budget)
    } else {
        crate::report::write_to(&args.dir, &out)
    }
    .map_err(UsageError::of)?;
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
