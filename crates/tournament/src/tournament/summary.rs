//! What a finished run prints on the terminal after its tables: head to head, the pentanomial
//! pairs, the bracket, the SPRT's verdict and the line of rounds played. The words are the
//! tournament's own, so they live here beside the tables of [`super::output`], not in the
//! command that prints them.

use std::path::Path;

use super::output;
use super::runner::Summary;
use super::sprt::Verdict;
use crate::record::notes::plural;

/// Everything a finished run prints to the terminal, the standings table first, then each
/// section that has something to say, then the line of rounds played and where the results are.
pub fn text(summary: &Summary, output_dir: &Path) -> String {
    let s = &summary.standings;
    let mut parts = vec![output::people_table(s).to_string()];
    if let Some(h2h) = output::head_to_head_table(s) {
        parts.push(format!(
            "head to head (row against column, wins-draws-losses):\n{h2h}"
        ));
    }
    if let Some(pairs) = pentanomial(summary) {
        parts.push(pairs);
    }
    if let Some(bracket) = &summary.bracket {
        parts.push(format!("bracket:\n{bracket}"));
    }
    if let Some(sprt) = sprt(summary) {
        parts.push(sprt);
    }
    parts.push(rounds_line(summary, output_dir));
    parts.join("\n\n")
}

/// The pairs of rounds with the seats swapped, by the first bot's pair score.
fn pentanomial(summary: &Summary) -> Option<String> {
    let pairs: Vec<String> = summary
        .standings
        .head_to_head
        .iter()
        .filter(|h| h.bot < h.opponent)
        .filter_map(|h| {
            h.pentanomial
                .map(|p| format!("  {} against {}: {:?}", h.bot, h.opponent, p.0))
        })
        .collect();
    (!pairs.is_empty()).then(|| {
        format!(
            "pentanomial (pairs of rounds with the seats swapped, by the first bot's pair \
             score: LL, LD, WL+DD, WD, WW):\n{}",
            pairs.join("\n")
        )
    })
}

/// The SPRT's line: its bounds, the log-likelihood ratio and the verdict.
fn sprt(summary: &Summary) -> Option<String> {
    let report = summary.standings.sprt.as_ref()?;
    Some(format!(
        "SPRT [{}, {}] ({:?}{}): LLR {:.2} ({:.2}, {:.2}), W-D-L {}-{}-{}: {}",
        report.test.elo0,
        report.test.elo1,
        report.test.model,
        report
            .pentanomial
            .map(|p| format!(", pentanomial {:?} over {} pairs", p.0, p.pairs()))
            .unwrap_or_default(),
        report.llr,
        report.lower,
        report.upper,
        report.wdl.wins,
        report.wdl.draws,
        report.wdl.losses,
        match report.verdict {
            Verdict::H0 => "H0 accepted",
            Verdict::H1 => "H1 accepted",
            Verdict::Continue => "undecided",
        }
    ))
}

/// "N rounds played in T s (R rounds/s), K kept from before; results in DIR".
fn rounds_line(summary: &Summary, output_dir: &Path) -> String {
    let secs = summary.elapsed.as_secs_f64().max(1e-9);
    format!(
        "{} played in {:.1}s ({:.1} rounds/s){}; results in {}",
        plural(summary.rounds_played as usize, "round", "rounds"),
        secs,
        summary.rounds_played as f64 / secs,
        if summary.rounds_kept > 0 {
            format!(", {} kept from before", summary.rounds_kept)
        } else {
            String::new()
        },
        output::shown(output_dir).display()
    )
}
