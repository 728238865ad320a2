//! One event stream per match: the session reports what happens as it happens, and every
//! consumer — the record writer, the progress display, the standings — is an [`Observer`] of
//! the same stream, so they can never disagree.

use super::fault::Forfeit;
use crate::record::{MoveRecord, RoundRecord};
use crate::referee::Public;
use crate::wire::Standing;

/// Something that happened in a match.
#[derive(Debug)]
pub enum Event<'a> {
    /// A round began.
    RoundStarted { round: u32, rounds: u32 },
    /// A round's bots are started and its rules set up: the state before its first move as
    /// its audience may see it ([`crate::game::Round::live_view`]), its seats' colours and the
    /// seat that acts first. Only when an observer [`Observer::spectates`] (it costs a view).
    RoundDealt {
        round: u32,
        state: &'a serde_json::Value,
        colours: Option<&'a [String]>,
        first: usize,
    },
    /// A move was played (by a bot or by the arbiter for a forfeited seat). `public`: what
    /// the audience may see of it, when an observer [`Observer::spectates`] (the record's
    /// move holds the round's secrets: a sealed bid, the cards drawn, the deal).
    Moved {
        round: u32,
        mv: &'a MoveRecord,
        public: Option<&'a Public>,
    },
    /// A seat forfeited the round.
    Forfeited { round: u32, forfeit: &'a Forfeit },
    /// A round ended; its complete record.
    RoundEnded { record: &'a RoundRecord },
    /// The match ended.
    MatchEnded { standings: &'a [Standing] },
}

/// A consumer of events. An error (a record that cannot be written) stops the match: it is
/// the arbiter failing, not a bot.
pub trait Observer: Send {
    fn on_event(&mut self, event: &Event<'_>) -> std::io::Result<()>;
    /// It shows the match to an audience while in play: the rounds keep what the audience may
    /// see of each move ([`Event::Moved`]'s `public`), at the cost of a view of the state per
    /// move.
    fn spectates(&self) -> bool {
        false
    }
}

/// Several observers as one.
impl Observer for Vec<Box<dyn Observer>> {
    fn on_event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        for o in self.iter_mut() {
            o.on_event(event)?;
        }
        Ok(())
    }
    fn spectates(&self) -> bool {
        self.iter().any(|o| o.spectates())
    }
}

/// Writes each finished round to a record file.
impl Observer for crate::record::RecordWriter {
    fn on_event(&mut self, event: &Event<'_>) -> std::io::Result<()> {
        if let Event::RoundEnded { record } = event {
            self.write(record)?;
        }
        Ok(())
    }
}
