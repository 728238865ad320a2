//! Time controls as plain data: one seat's clock for the answers asked on the match's clock
//! (`turn`), and its arithmetic, in integer microseconds so that the live arbiter and the
//! verifier, fed the same recorded times, reach the same bank to the last microsecond.
//!
//! A time control ([`Tc`]) has up to four parts, in any combination (protocol/SPEC.md §6.2):
//! a per-move cap (`--time`, bounds every answer), a bank per seat and round (`--time-bank`,
//! spent by every answer), an increment added to the bank after each accepted answer
//! (`--increment`), and a first-move allowance (`--first-move`, the seat's first answer of a
//! round may take that long on top of its bank, as CodinGame gives its first turn). The
//! notation of a bank and increment is cutechess's: `2m+100ms`, `90+0.5` (seconds).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::duration::{BadDuration, parse_duration};

/// One seat's time control, in ms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Tc {
    /// The per-move cap: no answer may take longer, whatever the bank holds.
    pub move_ms: u64,
    /// The bank each round starts with (absent: no bank, every answer may take `move_ms`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_ms: Option<u64>,
    /// Added to the bank after each accepted answer.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub increment_ms: u64,
    /// The seat's first answer of a round may take this long beyond its bank, and beyond the
    /// cap where this is longer; that time is not taken from the bank.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_move_ms: u64,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

impl Tc {
    /// A per-move cap and nothing else (the clock of every match before banks).
    pub fn per_move(move_ms: u64) -> Tc {
        Tc {
            move_ms,
            ..Tc::default()
        }
    }

    /// Only the per-move cap: every answer gets the same time.
    pub fn is_plain(&self) -> bool {
        self.bank_ms.is_none() && self.first_move_ms == 0
    }
}

/// A bank and its increment, in ms: what cutechess's `tc=2m+100ms` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bank {
    pub bank_ms: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub increment_ms: u64,
}

impl Tc {
    /// This time control with `bank` as its bank and increment.
    pub fn with_bank(self, bank: Option<Bank>) -> Tc {
        Tc {
            bank_ms: bank.map(|b| b.bank_ms),
            increment_ms: bank.map_or(0, |b| b.increment_ms),
            ..self
        }
    }
}

/// A bank and its increment in cutechess's notation: `BANK` or `BANK+INCREMENT`, each a
/// duration (`2m+100ms`, `90s+1s`) or a bare number of seconds (`60+0.5`).
pub fn parse_bank(text: &str) -> Result<Bank, BadDuration> {
    let t = text.trim();
    if t.contains('/') {
        return Err(BadDuration(format!(
            "{t:?}: moves per period (cutechess's 40/2m) are not supported: give a bank and an \
             increment, like 2m+100ms"
        )));
    }
    let (bank, inc) = match t.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (t, None),
    };
    let ms = |s: &str, what: &str| {
        parse_duration(s)
            .map(|d| d.as_millis() as u64)
            .map_err(|e| {
                BadDuration(format!(
                    "{t:?}: the {what}: {e} (write BANK+INCREMENT, like 2m+100ms)"
                ))
            })
    };
    let bank = ms(bank, "bank")?;
    if bank == 0 {
        return Err(BadDuration(format!(
            "{t:?}: the bank must be more than 0 (like 2m, or 2m+100ms)"
        )));
    }
    let inc = inc.map(|i| ms(i, "increment")).transpose()?.unwrap_or(0);
    Ok(Bank {
        bank_ms: bank,
        increment_ms: inc,
    })
}

/// One seat's clock through a round, in µs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatClock {
    tc: Tc,
    /// What is left of the bank (with a bank).
    bank_us: u64,
    /// The seat has answered on this clock this round (its first-move allowance is used).
    answered: bool,
}

impl SeatClock {
    /// The clock at a round's start: the whole bank, the first-move allowance not used.
    pub fn new(tc: Tc) -> SeatClock {
        SeatClock {
            tc,
            bank_us: tc.bank_ms.unwrap_or(0) * 1000,
            answered: false,
        }
    }

    /// Time not taken from the bank for the coming answer (the first-move allowance).
    fn free_us(&self) -> u64 {
        if self.answered {
            0
        } else {
            self.tc.first_move_ms * 1000
        }
    }

    /// The most the coming answer may take, in µs: the cap (or the first-move allowance where
    /// longer), and no more than the bank and the free time.
    pub fn limit_us(&self) -> u64 {
        match self.tc.bank_ms {
            Some(_) => self.cap_us().min(self.bank_us + self.free_us()),
            None => self.cap_us(),
        }
    }

    /// The cap of the coming answer: the per-move cap, or the first-move allowance where
    /// longer.
    fn cap_us(&self) -> u64 {
        (self.tc.move_ms * 1000).max(self.free_us())
    }

    /// Whether the bank (not the cap) is what limits the coming answer.
    pub fn bank_limits(&self) -> bool {
        self.tc.bank_ms.is_some() && self.bank_us + self.free_us() < self.cap_us()
    }

    /// The bank as the coming answer's request tells it (after `used_us` of it, refused
    /// attempts included), in whole ms; `None` without a bank.
    pub fn bank_ms(&self, used_us: u64) -> Option<u64> {
        self.tc.bank_ms?;
        let charged = used_us.saturating_sub(self.free_us());
        Some(self.bank_us.saturating_sub(charged) / 1000)
    }

    /// An answer was accepted after `used_us`: the bank pays what the free time did not (never
    /// below 0: an answer inside the latency margin empties the bank), then gets the increment.
    /// Returns the bank left, in µs (`None` without a bank).
    pub fn spend(&mut self, used_us: u64) -> Option<u64> {
        let charged = used_us.saturating_sub(self.free_us());
        self.answered = true;
        self.tc.bank_ms?;
        self.bank_us = self.bank_us.saturating_sub(charged) + self.tc.increment_ms * 1000;
        Some(self.bank_us)
    }
}

/// The time a built-in bot plans for an answer that may take `time_ms`, with `bank_ms` left of
/// its bank: without a bank, `time_ms`; with one, a sixteenth of what is left (the increments
/// already added are in it), never more than `time_ms`, so a searching bot spreads its bank
/// over the round instead of spending it on its first moves.
pub fn plan_ms(time_ms: Option<u64>, bank_ms: Option<u64>) -> Option<u64> {
    match bank_ms {
        Some(b) => Some(time_ms.map_or(b / 16, |t| t.min(b / 16))),
        None => time_ms,
    }
}

/// Round-time ms (recorded to the µs) as whole µs: the clock's unit.
pub fn us(ms: f64) -> u64 {
    (ms.max(0.0) * 1000.0).round() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(move_ms: u64, bank: Option<u64>, inc: u64, first: u64) -> Tc {
        Tc {
            move_ms,
            bank_ms: bank,
            increment_ms: inc,
            first_move_ms: first,
        }
    }

    #[test]
    fn the_notation() {
        let bank = |b, i| {
            Ok(Bank {
                bank_ms: b,
                increment_ms: i,
            })
        };
        assert_eq!(parse_bank("2m+100ms"), bank(120_000, 100));
        assert_eq!(parse_bank("60+0.5"), bank(60_000, 500));
        assert_eq!(parse_bank("90s"), bank(90_000, 0));
        assert!(parse_bank("40/2m").unwrap_err().0.contains("not supported"));
        assert!(parse_bank("0+1s").unwrap_err().0.contains("more than 0"));
        assert!(
            parse_bank("2m+fast")
                .unwrap_err()
                .0
                .contains("the increment")
        );
    }

    #[test]
    fn a_plain_cap_is_every_answer_the_same() {
        let mut c = SeatClock::new(Tc::per_move(1000));
        assert_eq!(c.limit_us(), 1_000_000);
        assert_eq!(c.spend(900_000), None);
        assert_eq!((c.limit_us(), c.bank_ms(0)), (1_000_000, None));
    }

    #[test]
    fn the_bank_is_spent_the_cap_bounds_and_the_increment_comes_after() {
        let mut c = SeatClock::new(tc(1000, Some(2500), 100, 0));
        assert_eq!(c.limit_us(), 1_000_000, "the cap bounds one answer");
        assert_eq!(c.spend(800_000), Some(1_800_000));
        assert_eq!(c.bank_ms(300_000), Some(1500));
        assert_eq!(c.spend(1_000_000), Some(900_000));
        assert_eq!(c.limit_us(), 900_000, "the bank bounds now");
        assert!(c.bank_limits());
        // An answer inside the latency margin empties the bank; the increment still comes.
        assert_eq!(c.spend(950_000), Some(100_000));
        assert_eq!(c.limit_us(), 100_000);
    }

    #[test]
    fn a_built_in_bot_spreads_its_bank() {
        assert_eq!(plan_ms(Some(1000), None), Some(1000));
        assert_eq!(plan_ms(Some(1000), Some(32_000)), Some(1000));
        assert_eq!(plan_ms(Some(1000), Some(1600)), Some(100));
        assert_eq!(plan_ms(None, None), None);
    }

    #[test]
    fn the_first_move_is_free_and_may_pass_the_cap() {
        let mut c = SeatClock::new(tc(100, None, 0, 5000));
        assert_eq!(c.limit_us(), 5_000_000);
        c.spend(4_000_000);
        assert_eq!(c.limit_us(), 100_000);
        let mut c = SeatClock::new(tc(60_000, Some(1000), 0, 2000));
        assert_eq!(c.limit_us(), 3_000_000, "bank and allowance");
        assert_eq!(c.bank_ms(1_500_000), Some(1000), "the allowance goes first");
        assert_eq!(c.spend(2_500_000), Some(500_000));
        assert_eq!(c.limit_us(), 500_000);
    }
}
