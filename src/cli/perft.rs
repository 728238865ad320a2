//! `rollarena perft`: counts the move sequences of a game's tree, one line per depth, for a
//! game whose registry entry counts them.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use super::game_flags::GameFlags;
use super::{UsageError, usage};
use crate::game::registry::{self, Entry, Flag};

/// Count a game's move sequences (perft) to check and time its move generator.
///
/// Prints `<depth> <leaves>` for each depth from 1 to D, then the leaves per second. The
/// game's own flags (below, a heading per game) say where to start.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game (one that counts its move sequences).
    #[arg(long, default_value = registry::default_name(), value_parser = perft_games())]
    game: String,
    /// Number of players (default: the game's own default).
    #[arg(long)]
    players: Option<usize>,
    /// Maximum depth.
    #[arg(long, short)]
    depth: u32,
    /// The game flags given (read by [`super::Cli::from_env`]).
    #[arg(skip)]
    pub game_flags: GameFlags,
}

/// A game's flags on `perft`: its options and its perft flags.
pub fn flags_of(entry: &Entry) -> Vec<Flag> {
    match &entry.perft {
        Some(perft) => entry.flags.iter().chain(perft.flags).copied().collect(),
        None => Vec::new(),
    }
}

/// The games that count their move sequences.
fn perft_games() -> Vec<&'static str> {
    registry::GAMES
        .iter()
        .filter(|e| e.perft.is_some())
        .map(|e| e.name)
        .collect()
}

pub fn run(args: PerftArgs) -> anyhow::Result<ExitCode> {
    let entry = registry::find(&args.game).map_err(UsageError::of)?;
    let Some(perft) = &entry.perft else {
        return usage(format!(
            "{} does not count its move sequences; perft knows {}",
            entry.name,
            perft_games().join(", ")
        ));
    };
    let mut options = args.game_flags.options_for(entry)?;
    if let Some(p) = args.players {
        options.insert("players".into(), p.into());
    }
    let from = (perft.start)(&options).map_err(UsageError::of)?;
    let started = Instant::now();
    let mut total = 0u64;
    for depth in 1..=args.depth {
        let leaves = from.count(depth);
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
