//! Perft: the number of decision sequences of a given length from a state, for checking the
//! engine against independent counts (`tests/data/perft/rollerball/*.txt`).
//!
//! A node's children are the legal moves of the seat asked; during the sealed bid, where every
//! seat is asked at once, the seats bid one after another in seat order (the lowest seat that
//! has not bid yet), which counts every combination of bids exactly once. The chance of the
//! round is fixed by its seed, so the tree is a plain game tree.

use super::state::Rollerball;

/// Counts over the sequences of exactly `depth` decisions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Perft {
    /// Sequences of exactly `depth` decisions (the perft number).
    pub leaves: u64,
    /// Public events announced after the last decision, summed over the sequences.
    pub events: u64,
    /// Sequences after which the game is over.
    pub over: u64,
}

impl std::ops::AddAssign for Perft {
    fn add_assign(&mut self, o: Perft) {
        self.leaves += o.leaves;
        self.events += o.events;
        self.over += o.over;
    }
}

/// The counts of sequences of exactly `depth` (at least 1) decisions from `state`.
pub fn perft(state: &Rollerball, depth: u32) -> Perft {
    let mut total = Perft::default();
    let Some(to_act) = state.to_act() else {
        return total;
    };
    let seat = to_act.seats[0];
    for mv in state.legal(seat) {
        let mut next = state.clone();
        let applied = next.apply(seat, &mv).expect("a legal move is accepted");
        if depth <= 1 {
            total += Perft {
                leaves: 1,
                events: applied.events.len() as u64,
                over: next.to_act().is_none() as u64,
            };
        } else {
            total += perft(&next, depth - 1);
        }
    }
    total
}
