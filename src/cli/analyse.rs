//! `rollarena analyse`: every move of a recorded round graded against the best play found,
//! for a game whose registry entry grades moves (the searching and the words are the game's;
//! the summaries are `game::grade`'s).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use serde_json::json;

use super::{UsageError, usage};
use crate::duration::parse_duration;
use crate::game::grade::{Budget, Graded, Terms, summarise};
use crate::game::registry;
use crate::record::RoundRecord;
use crate::record::reader::read_record_file;
use crate::replay::select;

/// The widest the best moves are shown in the table (longer ones end in "...").
const BEST_WIDTH: usize = 30;

/// Grade every move of recorded rounds against perfect play: where each game was lost.
///
/// For each move: the best moves, and the loss in balls, the best result the mover could
/// still reach minus the result after the move played. With two players the result is the
/// final ball difference; with three or four, the mover's own final balls when every other
/// colour plays against it (the "paranoid" objective). Positions are searched from the end
/// of the round back: while the search finishes within --time (or --nodes) per position the
/// values are exact (`exact: true`, perfect play); before that each position gets an
/// estimate from a search as deep as the budget allows, whose horizon counts the balls
/// (`exact: false`, with the budget).
///
/// The table marks each seat's largest loss; each seat's accuracy is the share of its moves
/// within one ball of the best (moves the arbiter played for a seat that forfeited are
/// graded but not counted).
///
/// A game of racing to a target instead grades each demonstration against the optimal
/// solution the arbiter's solver found: the loss is in moves, and the accuracy is the share of
/// demonstrations at the optimum (see the game's rules page).
///
/// FILE is a record of `match --record` or a tournament's `results.jsonl`; --round picks one
/// round, counting rounds in the file from 1.
///
/// Exit codes: 0 graded; 2 bad usage, an unreadable record, a round that does not replay or
/// a game that cannot be analysed.
#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The record file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The round to analyse, counting the rounds in the file from 1 [default: every round].
    #[arg(long, value_name = "N")]
    round: Option<usize>,
    /// Search each position for at most this long.
    #[arg(long, default_value = "1s", value_parser = parse_duration, value_name = "TIME")]
    time: Duration,
    /// Search each position for at most this many nodes (reproducible, unlike --time).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Print the grades as one JSON object: {"rounds": [{"round", "seats", "moves"}]}.
    #[arg(long)]
    json: bool,
}

pub fn run(args: AnalyseArgs) -> anyhow::Result<ExitCode> {
    let file = read_record_file(&args.file)
        .map_err(|e| UsageError(format!("{}: {e}", args.file.display())))?;
    let picked = select(file.rounds.len(), args.round).map_err(UsageError::of)?;
    let budget = Budget {
        time: Some(args.time),
        nodes: args.nodes,
    };
    let mut rounds = Vec::new();
    for i in picked {
        let record = &file.rounds[i - 1];
        let entry = registry::find(&record.game).map_err(UsageError::of)?;
        let Some(analysis) = &entry.analysis else {
            return usage(format!(
                "round {i} is a {} round: analyse grades the rounds of {} only",
                entry.name,
                analyse_games()
            ));
        };
        let moves = (analysis.grade)(record, &budget)
            .map_err(|e| UsageError(format!("round {i} of {}: {e}", args.file.display())))?;
        if args.json {
            rounds.push(round_json(i, record, &moves, &analysis.terms));
        } else {
            print!("{}", table(i, record, &moves, &analysis.terms));
        }
    }
    if args.json {
        println!("{}", json!({ "rounds": rounds }));
    }
    Ok(ExitCode::SUCCESS)
}

/// The games whose rounds analyse grades, in words ("a, b and c").
fn analyse_games() -> String {
    let names: Vec<&str> = registry::GAMES
        .iter()
        .filter(|e| e.analysis.is_some())
        .map(|e| e.name)
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

fn round_json(
    index: usize,
    record: &RoundRecord,
    moves: &[Graded],
    terms: &Terms,
) -> serde_json::Value {
    let seats: Vec<_> = summarise(moves, record.seats.len(), 3, terms.within)
        .into_iter()
        .map(|s| {
            let mut seat = json!({
                "seat": s.seat,
                "name": record.seats[s.seat].name,
                "moves": s.moves,
                // No moves graded (a seat that never demonstrated): no accuracy to give.
                "accuracy": (s.moves > 0).then(|| s.accuracy()),
                "largest_loss": s.worst.first().map_or(0, |w| w.loss),
                "total_loss": s.total_loss,
                "exact": s.exact,
            });
            seat[terms.key] = json!(s.within_one);
            seat
        })
        .collect();
    json!({"index": index, "round": record.round, "match": record.match_id, "seats": seats,
           "moves": moves})
}

/// A round's moves as a table, each seat's largest loss marked, then each seat's accuracy.
/// The colour column is left out when no move has one; the move column is as wide as the
/// longest move, the best one at most [`BEST_WIDTH`].
pub fn table(index: usize, record: &RoundRecord, moves: &[Graded], terms: &Terms) -> String {
    let summaries = summarise(moves, record.seats.len(), 1, terms.within);
    let mut out = format!(
        "round {index} ({} {}, round {} of its match)\n",
        record.game, record.options, record.round
    );
    if let Some(first) = moves.first() {
        out.push_str(&format!("values: {}\n", first.objective));
    }
    let colours = moves.iter().any(|g| g.colour.is_some());
    let move_width = moves.iter().map(|g| g.mv.len()).max().unwrap_or(0).max(5);
    let best_width = moves
        .iter()
        .map(|g| g.best.join(" ").len())
        .max()
        .unwrap_or(0)
        .clamp(4, BEST_WIDTH);
    out.push_str(&format!(
        " ply  seat {}{:<move_width$} {:<best_width$} {:>5}  exact\n",
        if colours { "colour  " } else { "" },
        "move",
        "best",
        "loss"
    ));
    for g in moves {
        let largest = summaries[g.seat]
            .worst
            .first()
            .is_some_and(|w| w.ply == g.ply && w.round == g.round);
        let mut best = g.best.join(" ");
        if best.len() > best_width {
            best.truncate(best_width - 3);
            best.push_str("...");
        }
        let colour = if colours {
            format!("{:<7} ", g.colour.as_deref().unwrap_or("-"))
        } else {
            String::new()
        };
        let note = terms.note.map(|f| f(g)).unwrap_or_default();
        out.push_str(&format!(
            "{:>4}  {:>4} {colour}{:<move_width$} {:<best_width$} {:>5}  {}{}{}{}\n",
            g.ply,
            g.seat,
            g.mv,
            best,
            g.loss,
            if g.exact {
                "yes".to_string()
            } else {
                format!("no ({} ms)", g.budget_ms.unwrap_or(0))
            },
            if g.by_arbiter {
                "  (by the arbiter)"
            } else {
                ""
            },
            if note.is_empty() {
                note
            } else {
                format!("  {note}")
            },
            if largest {
                format!("  <- seat {}'s largest loss", g.seat)
            } else {
                String::new()
            },
        ));
    }
    for s in &summaries {
        if s.moves == 0 {
            out.push_str(&format!(
                "seat {} {}: no {} graded\n",
                s.seat, record.seats[s.seat].name, terms.graded
            ));
            continue;
        }
        out.push_str(&format!(
            "seat {} {}: accuracy {:.0}% ({} of {} {} {}), largest loss {}, {} {} lost in all, \
             {} {} graded exactly\n",
            s.seat,
            record.seats[s.seat].name,
            s.accuracy() * 100.0,
            s.within_one,
            s.moves,
            terms.graded,
            terms.accurate,
            s.worst.first().map_or(0, |w| w.loss),
            s.total_loss,
            terms.unit,
            s.exact,
            terms.graded,
        ));
    }
    out.push('\n');
    out
}
