//! The lines a round's batch of referee outputs has for each bot, held until the bot needs them
//! so that each bot gets as few `write`s as its turns: a frozen bot's lines wait here, not in
//! its pipe, and go out in one `write` with the `turn` (or the round's `end`) that resumes it.
//!
//! A bot that is not frozen gets its lines before it is resumed or asked, before the driver
//! waits for anything (a kill, which may take seconds), and at the end of every batch, so no
//! line to a running bot waits past the batch that made it: a bot that thinks on the others'
//! time (`--no-freeze`, simultaneous play) reads each `played` as it happens. A frozen bot
//! cannot read anything until it is resumed, so holding its lines changes nothing it can see
//! and saves a system call per move for each of the other seats: with four players, one
//! `write` a move instead of four. The buffers are kept from move to move: nothing is allocated
//! per move once they have grown to a round's lines.

use super::bot::Bot;
use crate::game::Seat;

/// Per seat, the bytes not yet written.
#[derive(Debug, Default)]
pub struct Outbox {
    pending: Vec<Vec<u8>>,
    /// The seat's bot is frozen: its lines wait for its thaw.
    held: Vec<bool>,
}

impl Outbox {
    pub fn new(seats: usize) -> Outbox {
        Outbox {
            pending: vec![Vec::new(); seats],
            held: vec![false; seats],
        }
    }

    /// Holds a line (with its `\n`) for a seat.
    pub fn push(&mut self, seat: Seat, line: &[u8]) {
        self.pending[seat].extend_from_slice(line);
    }

    /// The seat's bot was frozen: its lines wait until [`Outbox::thaw`].
    pub fn freeze(&mut self, seat: Seat) {
        self.held[seat] = true;
    }

    /// The seat's bot is about to be resumed: it wakes to everything it has to read, in one
    /// `write`.
    pub fn thaw(&mut self, seat: Seat, bots: &[Option<Bot>]) {
        self.held[seat] = false;
        self.write(seat, bots);
    }

    /// Writes what a running seat's bot has waiting, in one `write`.
    fn flush(&mut self, seat: Seat, bots: &[Option<Bot>]) {
        if !self.held[seat] {
            self.write(seat, bots);
        }
    }

    fn write(&mut self, seat: Seat, bots: &[Option<Bot>]) {
        let pending = &mut self.pending[seat];
        if pending.is_empty() {
            return;
        }
        if let Some(bot) = bots[seat].as_ref() {
            bot.send_slice(pending);
        }
        pending.clear();
    }

    /// Writes what every running seat but `keep` has waiting (`keep`: the seat about to be
    /// asked, whose lines go out with its request).
    pub fn flush_others(&mut self, keep: Seat, bots: &[Option<Bot>]) {
        for seat in 0..self.pending.len() {
            if seat != keep {
                self.flush(seat, bots);
            }
        }
    }

    /// Writes what every running seat has waiting.
    pub fn flush_all(&mut self, bots: &[Option<Bot>]) {
        for seat in 0..self.pending.len() {
            self.flush(seat, bots);
        }
    }

    /// Writes everything still waiting, the frozen seats' too (the round is done with the
    /// outbox: nothing may be left behind).
    pub fn release_all(&mut self, bots: &[Option<Bot>]) {
        for seat in 0..self.pending.len() {
            self.held[seat] = false;
            self.write(seat, bots);
        }
    }

    /// Forgets a seat's lines (its bot is being killed).
    pub fn discard(&mut self, seat: Seat) {
        self.pending[seat].clear();
        self.held[seat] = false;
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

    #[test]
    fn a_frozen_seat_gets_its_lines_when_thawed() {
        let bots: Vec<Option<Bot>> = vec![None, None];
        let mut out = Outbox::new(2);
        out.freeze(1);
        out.push(0, b"a\n");
        out.push(1, b"a\n");
        out.push(1, b"b\n");
        out.flush_all(&bots);
        assert!(out.pending[0].is_empty(), "a running seat's lines go");
        assert_eq!(out.pending[1], b"a\nb\n".to_vec(), "a frozen seat's wait");
        out.flush_others(0, &bots);
        assert_eq!(out.pending[1], b"a\nb\n".to_vec());
        out.thaw(1, &bots);
        assert!(out.pending[1].is_empty(), "thawed: written at once");
        out.freeze(0);
        out.push(0, b"c\n");
        out.release_all(&bots);
        assert!(out.pending[0].is_empty(), "nothing is left behind");
        assert!(!out.held[0]);
    }
}
