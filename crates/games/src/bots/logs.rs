//! The bounds on a built-in bot's `log` lines: a few about lines it could not use (so a
//! confused arbiter cannot make it flood), and a byte budget per round for its notes on its
//! moves, well within the protocol's 65,536 bytes.

use std::fmt;
use std::io::{self, Write};

use crate::wire::{FromBot, Log};

/// At most this many `log` lines per match about lines the bot could not use.
const MAX_LOGS: u32 = 16;

/// The `log` text a bot's notes may take per round.
const NOTE_BYTES: usize = 32_768;

/// What a bot may still log.
#[derive(Debug)]
pub struct Logs {
    logs_left: u32,
    note_bytes_left: usize,
}

impl Default for Logs {
    fn default() -> Logs {
        Logs {
            logs_left: MAX_LOGS,
            note_bytes_left: NOTE_BYTES,
        }
    }
}

impl Logs {
    /// A round begins: the notes' budget is whole again.
    pub fn new_round(&mut self) {
        self.note_bytes_left = NOTE_BYTES;
    }

    /// Sends a note on a move as a `log` line (nothing for an empty note, or once the round's
    /// budget is spent). Not flushed: the move follows.
    pub fn note<W: Write + ?Sized>(&mut self, out: &mut W, text: &str) -> io::Result<()> {
        if text.is_empty() || text.len() > self.note_bytes_left {
            return Ok(());
        }
        self.note_bytes_left -= text.len();
        write_log(out, text.to_string())
    }

    /// Sends a `log` line about something that went wrong, and flushes (nothing once the
    /// match's allowance is spent).
    pub fn log<W: Write + ?Sized>(
        &mut self,
        out: &mut W,
        text: fmt::Arguments<'_>,
    ) -> io::Result<()> {
        if self.logs_left == 0 {
            return Ok(());
        }
        self.logs_left -= 1;
        write_log(out, text.to_string())?;
        out.flush()
    }
}

fn write_log<W: Write + ?Sized>(out: &mut W, text: String) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &FromBot::Log(Log { text }))?;
    out.write_all(b"\n")
}
