//! `rollarena perft`: counts the leaves of the Rolit game tree, one line per depth.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use super::usage;
use crate::game::rolit::{Colour, Position, State, perft};

/// Count Rolit move sequences (perft) to check and time the move generator.
///
/// Prints `<depth> <leaf nodes>` for each depth from 1 to D, then the leaves per second.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Board size: 8, 6 or 4.
    #[arg(long, default_value_t = 8)]
    size: u8,
    /// Number of players: 2, 3 or 4 (4x4: 2 only). Default: 4, or 2 on a 4x4 board.
    #[arg(long)]
    players: Option<usize>,
    /// The colour that moves first.
    #[arg(long, default_value = "red")]
    first: String,
    /// Start from this position instead, in the JSON state form a bot receives (the board's
    /// size and `colours` override --size and --players).
    #[arg(long, value_name = "STATE")]
    position: Option<String>,
    /// Maximum depth.
    #[arg(long, short)]
    depth: u32,
}

pub fn run(args: PerftArgs) -> anyhow::Result<ExitCode> {
    let default_players = |size: usize| if size == 4 { 2 } else { 4 };
    let pos = match &args.position {
        Some(json) => {
            let state: State = match serde_json::from_str(json) {
                Ok(s) => s,
                Err(e) => return usage(format!("--position is not a Rolit state: {e}")),
            };
            let players = args
                .players
                .unwrap_or_else(|| default_players(state.board.len()));
            match state.to_position(players) {
                Ok(p) => p,
                Err(e) => return usage(format!("--position: {e}")),
            }
        }
        None => {
            let Some(first) = Colour::from_name(&args.first) else {
                return usage(format!(
                    "--first {}: not a colour; use red, yellow, green or blue",
                    args.first
                ));
            };
            let players = args
                .players
                .unwrap_or_else(|| default_players(args.size as usize));
            match Position::start(args.size, players, first) {
                Ok(p) => p,
                Err(e) => return usage(e.to_string()),
            }
        }
    };
    let started = Instant::now();
    let mut total = 0u64;
    for depth in 1..=args.depth {
        let leaves = perft(&pos, depth);
        total += leaves;
        println!("{depth} {leaves}");
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{:.0} leaves/s ({total} leaves in {secs:.3} s)",
        total as f64 / secs.max(1e-9)
    );
    Ok(ExitCode::SUCCESS)
}
