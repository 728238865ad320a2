//! The time-control flags shared by `match` and `tournament`: a bank per seat and round, its
//! increment (or both in cutechess's `--tc 2m+100ms`), and a first-move allowance. `--time`,
//! the per-move cap, stays each command's own (its default differs: a tournament's file may
//! give it).

use std::time::Duration;

use clap::Args;

use super::UsageError;
use crate::duration::parse_duration;

#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Time controls beyond the per-move cap (--time)")]
pub struct ClockArgs {
    /// Each seat's time bank for a round, spent by every answer it gives on the match clock
    /// (e.g. 2m). --time still caps any one answer; a bot whose bank runs out forfeits on time.
    #[arg(long, value_parser = parse_duration, value_name = "TIME")]
    pub time_bank: Option<Duration>,
    /// Added to a seat's bank after each move it plays (needs a bank), e.g. 100ms.
    #[arg(long, value_parser = parse_duration, value_name = "TIME")]
    pub increment: Option<Duration>,
    /// Bank and increment in cutechess's notation, BANK+INCREMENT (2m+100ms, 60+0.5 in
    /// seconds), instead of --time-bank and --increment.
    #[arg(long, value_name = "BANK+INC", conflicts_with_all = ["time_bank", "increment"])]
    pub tc: Option<String>,
    /// A seat's first answer of each round may take this long on top of its bank, and past
    /// --time where longer (CodinGame's longer first turn), e.g. 5s.
    #[arg(long, value_parser = parse_duration, value_name = "TIME")]
    pub first_move: Option<Duration>,
}

/// What the flags say, each part `None` where they say nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClockFlags {
    pub bank: Option<Duration>,
    pub increment: Option<Duration>,
    pub first_move: Option<Duration>,
}

impl ClockFlags {
    /// The bank and increment the flags give, if they give a bank.
    pub fn bank(&self) -> Option<crate::clock::Bank> {
        self.bank.map(|b| crate::clock::Bank {
            bank_ms: b.as_millis() as u64,
            increment_ms: self.increment.map_or(0, |i| i.as_millis() as u64),
        })
    }
}

impl ClockArgs {
    /// The flags checked: a bank is more than 0, an increment needs a bank, `--tc` reads.
    pub fn resolve(&self) -> Result<ClockFlags, UsageError> {
        let (bank, increment) = match &self.tc {
            Some(tc) => {
                let b =
                    crate::clock::parse_bank(tc).map_err(|e| UsageError(format!("--tc: {e}")))?;
                (
                    Some(Duration::from_millis(b.bank_ms)),
                    Some(Duration::from_millis(b.increment_ms)),
                )
            }
            None => (self.time_bank, self.increment),
        };
        if let Some(b) = bank {
            crate::arbiter::settings::bank(b)
                .map_err(|e| UsageError(format!("--time-bank: {e}")))?;
        }
        if increment.is_some_and(|i| !i.is_zero()) && bank.is_none() {
            return Err(UsageError(
                "--increment adds to a time bank, and there is none: give --time-bank too \
                 (e.g. --time-bank 2m --increment 100ms, or --tc 2m+100ms)"
                    .into(),
            ));
        }
        Ok(ClockFlags {
            bank,
            increment,
            first_move: self.first_move,
        })
    }
}
