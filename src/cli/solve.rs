//! `rollarena solve`: the value of a position under perfect play and the moves that keep it,
//! for a game whose registry entry solves positions.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use super::game_flags::GameFlags;
use super::{UsageError, usage};
use crate::duration::parse_duration;
use crate::game::grade::{Budget, Solved};
use crate::game::registry::{self, Entry, Flag};

/// Solve a position: its value under perfect play, the best moves, the nodes searched.
///
/// Without a position, solves the start of the game the flags describe (the first mover's
/// view). With two players the value is the final ball difference, the mover's balls minus
/// the opponent's (balls of colours nobody plays count for neither): positive is a win by
/// that many balls. With three or four players the value is the mover's own final balls
/// when every other colour plays to minimise them (the "paranoid" objective, as the output
/// says): exact only for the last dozen moves or so.
///
/// A search that runs out of --time or --nodes says so (`"solved": false`). 4x4 with two
/// players solves from the start in well under a second; see the book's "Built-in bots" for
/// how far 6x6 and 8x8 go.
///
/// Exit codes: 0 solved; 1 not solved within the budget; 2 bad usage or a bad position.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The game (one that solves positions).
    #[arg(long, default_value = registry::default_name(), value_parser = solve_games())]
    game: String,
    /// Number of players [default: 2].
    #[arg(long)]
    players: Option<usize>,
    /// Give up after this long.
    #[arg(long, default_value = "60s", value_parser = parse_duration, value_name = "TIME")]
    time: Duration,
    /// Give up after visiting this many positions.
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Print the result as one JSON object.
    #[arg(long)]
    json: bool,
    /// The game flags given (read by [`super::Cli::from_env`]).
    #[arg(skip)]
    pub game_flags: GameFlags,
}

/// A game's flags on `solve`: its options and its solve flags.
pub fn flags_of(entry: &Entry) -> Vec<Flag> {
    match &entry.analysis {
        Some(a) if a.solve.is_some() => entry.flags.iter().chain(a.flags).copied().collect(),
        _ => Vec::new(),
    }
}

/// The games that solve positions.
pub fn solve_games() -> Vec<&'static str> {
    registry::GAMES
        .iter()
        .filter(|e| e.analysis.as_ref().is_some_and(|a| a.solve.is_some()))
        .map(|e| e.name)
        .collect()
}

pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let entry = registry::find(&args.game).map_err(UsageError::of)?;
    let Some(solve) = entry.analysis.as_ref().and_then(|a| a.solve) else {
        return usage(format!(
            "{} does not solve positions; solve knows {}",
            entry.name,
            solve_games().join(", ")
        ));
    };
    let mut options = args.game_flags.options_for(entry)?;
    if let Some(p) = args.players {
        options.insert("players".into(), p.into());
    }
    let budget = Budget {
        time: Some(args.time),
        nodes: args.nodes,
    };
    let solved = solve(&options, &budget).map_err(UsageError::of)?;
    if args.json {
        println!("{}", serde_json::to_string(&solved)?);
    } else {
        print!("{}", text(&solved, &budget));
    }
    Ok(ExitCode::from(if solved.solved {
        super::EXIT_OK
    } else {
        super::EXIT_VERDICT
    }))
}

fn text(s: &Solved, budget: &Budget) -> String {
    let mut out = s.board.clone();
    out.push_str(&format!(
        "{} to move\nobjective: {}\n",
        s.to_move, s.objective
    ));
    match s.value {
        Some(v) => out.push_str(&format!(
            "value: {v} for {} under perfect play\nbest: {}\n",
            s.to_move,
            s.best.join(" ")
        )),
        None => out.push_str(&format!(
            "not solved: the search ran out of its budget ({}{}); give more --time or --nodes\n",
            budget
                .time
                .map_or(String::new(), |t| format!("{:.3} s", t.as_secs_f64())),
            budget
                .nodes
                .map_or(String::new(), |n| format!(", {n} nodes")),
        )),
    }
    let secs = s.ms / 1000.0;
    out.push_str(&format!(
        "{} nodes in {secs:.3} s ({:.0} nodes/s)\n",
        s.nodes,
        s.nodes as f64 / secs.max(1e-9)
    ));
    out
}
