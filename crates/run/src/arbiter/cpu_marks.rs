//! Each seat's CPU clock in a round: the reading its next answer's CPU time is counted from,
//! with one reading of the bot's CPU time per move instead of two.
//!
//! A move's CPU time is the bot's CPU time when its answer arrives less the mark taken when its
//! request was sent. A bot frozen right after its previous answer was read, and still frozen
//! when its next request is sent, has used no CPU time since the freeze: the reading taken at
//! that answer is the mark, and the meter (a `pread` of the cgroup's file, a system call) is not read again. Only
//! a freeze with nothing in between keeps a reading: a bot thawed since, or never frozen
//! (`--no-freeze`, simultaneous play, a request that leaves the others running), is read at the
//! request as before, and so is one whose freeze did not follow its answer at once (in the
//! batch of outputs the answer caused: a bot left running and frozen later has used CPU time
//! since its reading). What a bot uses between its answer and the freeze that follows (a few
//! µs, the time to go back to reading its stdin) is counted in its next move instead of in no
//! move; so is whatever a process that escaped the freeze uses while the bot is frozen, where
//! the cgroup counts the whole tree. Nothing a bot does lowers its own figure.

use super::bot::Bot;
use crate::game::Seat;
use crate::record::round_ms;

#[derive(Debug)]
pub struct CpuMarks {
    /// Each seat's CPU time when its clock was last marked.
    mark: Vec<Option<f64>>,
    /// Each seat's last reading, while its bot has stayed frozen since it was taken.
    still: Vec<Option<f64>>,
    /// Each seat's reading at its last line, until its bot is frozen or thawed or the batch of
    /// outputs that line caused is carried out.
    last: Vec<Option<f64>>,
}

impl CpuMarks {
    pub fn new(seats: usize) -> CpuMarks {
        CpuMarks {
            mark: vec![None; seats],
            still: vec![None; seats],
            last: vec![None; seats],
        }
    }

    /// Marks every seat's clock now (the round's start).
    pub fn mark_all(&mut self, bots: &mut [Option<Bot>]) {
        for (seat, bot) in bots.iter_mut().enumerate() {
            self.mark[seat] = bot.as_mut().and_then(|b| b.cpu_ms());
            self.still[seat] = None;
            self.last[seat] = None;
        }
    }

    /// Marks a seat's clock as its request is sent: from the reading its bot was frozen at,
    /// else from the meter.
    pub fn mark(&mut self, seat: Seat, bot: &mut Bot) {
        self.mark[seat] = match self.still[seat] {
            Some(reading) => Some(reading),
            None => bot.cpu_ms(),
        };
    }

    /// The CPU time a seat's bot used since its clock was marked, read now.
    pub fn since_mark(&mut self, seat: Seat, bot: &mut Bot) -> Option<f64> {
        let now = bot.cpu_ms();
        self.last[seat] = now;
        self.still[seat] = None;
        Some(round_ms(now? - self.mark[seat]?))
    }

    /// The seat's bot was frozen: its last reading stands until it is thawed.
    pub fn frozen(&mut self, seat: Seat) {
        self.still[seat] = self.last[seat].take();
    }

    /// The batch of outputs that followed the last lines is carried out: a freeze from now on
    /// comes too late to keep a reading.
    pub fn batch_done(&mut self) {
        self.last.iter_mut().for_each(|r| *r = None);
    }

    /// The seat's bot was resumed (or killed): it may run, so the meter is read again.
    pub fn thawed(&mut self, seat: Seat) {
        self.still[seat] = None;
        self.last[seat] = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_stands_only_across_a_freeze() {
        let mut m = CpuMarks::new(2);
        m.last[0] = Some(5.0);
        m.frozen(0);
        assert_eq!(m.still[0], Some(5.0), "frozen right after the reading");
        m.thawed(0);
        assert_eq!(m.still[0], None, "thawed: read again");
        // A freeze that follows no reading (a second freeze, or one before any answer) keeps
        // nothing.
        m.frozen(0);
        assert_eq!(m.still[0], None);
        m.last[1] = Some(2.0);
        m.thawed(1);
        m.frozen(1);
        assert_eq!(
            m.still[1], None,
            "a thaw between the reading and the freeze"
        );
        m.last[1] = Some(3.0);
        m.batch_done();
        m.frozen(1);
        assert_eq!(m.still[1], None, "a freeze in a later batch");
    }
}
