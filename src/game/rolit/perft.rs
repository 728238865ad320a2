//! Perft: the number of move sequences of a given length from a position, the standard check
//! of a move generator. Bulk counting at the last ply (the number of legal moves is a popcount).
//! Rolit never passes and ends when the board is full, so every game from the start lasts
//! exactly `n*n - 4` moves and perft beyond that depth is 0.

use super::bitboard::Squares;
use super::position::{Position, Square};

/// Leaves at exactly `depth` plies from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut total = 0;
    for sq in Squares(moves) {
        let mut next = *pos;
        next.play_unchecked(Square(sq));
        total += perft(&next, depth - 1);
    }
    total
}
