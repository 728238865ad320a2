//! The lines a round's batch of referee outputs has for each bot, held until the bot needs them
//! so that each bot gets one `write` per move: the next mover's `played` and its `turn` go out
//! together, as do a round's last `played` and `end`.
//!
//! A seat's lines are written before its bot is resumed (a thawed bot wakes to its whole input
//! at once), before the driver waits for anything (a kill, which may take seconds), and at the
//! end of every batch, so no line waits past the batch that made it. The other bots' lines are
//! written when the next mover is drained before its request: they are frozen (or not on the
//! clock) and read them when their turn comes. The buffers are kept from move to move: nothing
//! is allocated per move once they have grown to a move's lines.

use super::bot::Bot;
use crate::game::Seat;

/// Per seat, the bytes not yet written.
#[derive(Debug, Default)]
pub struct Outbox {
    pending: Vec<Vec<u8>>,
}

impl Outbox {
    pub fn new(seats: usize) -> Outbox {
        Outbox {
            pending: vec![Vec::new(); seats],
        }
    }

    /// Holds a line (with its `\n`) for a seat.
    pub fn push(&mut self, seat: Seat, line: &[u8]) {
        self.pending[seat].extend_from_slice(line);
    }

    /// Writes what a seat's bot has waiting, in one `write`.
    pub fn flush(&mut self, seat: Seat, bots: &[Option<Bot>]) {
        let pending = &mut self.pending[seat];
        if pending.is_empty() {
            return;
        }
        if let Some(bot) = bots[seat].as_ref() {
            bot.send_slice(pending);
        }
        pending.clear();
    }

    /// Writes what every seat but `keep` has waiting (`keep`: the seat about to be asked, whose
    /// lines go out with its request).
    pub fn flush_others(&mut self, keep: Seat, bots: &[Option<Bot>]) {
        for seat in 0..self.pending.len() {
            if seat != keep {
                self.flush(seat, bots);
            }
        }
    }

    /// Writes what every seat has waiting.
    pub fn flush_all(&mut self, bots: &[Option<Bot>]) {
        for seat in 0..self.pending.len() {
            self.flush(seat, bots);
        }
    }

    /// Forgets a seat's lines (its bot is being killed).
    pub fn discard(&mut self, seat: Seat) {
        self.pending[seat].clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_wait_per_seat_and_go_once() {
        let mut out = Outbox::new(2);
        out.push(0, b"{\"type\":\"played\"}\n");
        out.push(0, b"{\"type\":\"turn\"}\n");
        out.push(1, b"{\"type\":\"played\"}\n");
        assert_eq!(
            out.pending[0],
            b"{\"type\":\"played\"}\n{\"type\":\"turn\"}\n".to_vec()
        );
        // No bots: flushing forgets the lines of a seat without a bot.
        let bots: Vec<Option<Bot>> = vec![None, None];
        out.flush_others(0, &bots);
        assert!(out.pending[1].is_empty());
        assert!(!out.pending[0].is_empty(), "the kept seat's lines wait");
        out.discard(0);
        assert!(out.pending[0].is_empty());
    }
}
