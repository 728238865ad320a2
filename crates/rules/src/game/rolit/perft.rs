//! Perft: the number of move sequences of a given length from a position, the standard check
//! of a move generator. Bulk counting at the last ply (the number of legal moves is a popcount).
//! Rolit never passes and ends when the board is full, so every game from the start lasts
//! exactly `n*n - 4` moves and perft beyond that depth is 0.
//!
//! Nearly all the work is at the last two plies: each position one ply from the leaves is made
//! only to count its legal moves, so that is done from the bitboards the move changes (the
//! balls it turns, the square it fills, the next mover's balls) without making the position,
//! in straight-line bit operations with everything inlined. On x86-64 CPUs with AVX2 (checked
//! at run time) the same code runs with the AVX2 move generation of
//! [`super::bitboard::avx2`]; the results are the same.

use super::bitboard::{self, Squares, flips, neighbours};
use super::position::{Position, Square};

/// Leaves at exactly `depth` plies from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt")
    {
        // SAFETY: the CPU has the features the function is compiled for.
        return unsafe { perft_avx2(pos, depth) };
    }
    Portable::perft(pos, depth)
}

/// Move generation as perft uses it, once per instruction set.
trait Kernel {
    fn capture_moves(own: u64, opp: u64, empty: u64) -> u64;
    fn perft(pos: &Position, depth: u32) -> u64;

    /// [`bitboard::legal_moves`] with this kernel's capture generation.
    #[inline(always)]
    fn legal_moves(own: u64, occupied: u64, mask: u64) -> u64 {
        let empty = mask & !occupied;
        let caps = Self::capture_moves(own, occupied & !own, empty);
        if caps != 0 {
            caps
        } else {
            neighbours(occupied) & empty
        }
    }
}

/// Plain Rust for any CPU.
struct Portable;

impl Kernel for Portable {
    #[inline(always)]
    fn capture_moves(own: u64, opp: u64, empty: u64) -> u64 {
        bitboard::capture_moves(own, opp, empty)
    }
    fn perft(pos: &Position, depth: u32) -> u64 {
        perft_with::<Portable>(pos, depth)
    }
}

#[cfg(target_arch = "x86_64")]
struct Avx2;

#[cfg(target_arch = "x86_64")]
impl Kernel for Avx2 {
    #[inline(always)]
    fn capture_moves(own: u64, opp: u64, empty: u64) -> u64 {
        // SAFETY: only reached from `perft_avx2`, which runs on CPUs with AVX2.
        unsafe { bitboard::avx2::capture_moves(own, opp, empty) }
    }
    #[inline(always)]
    fn perft(pos: &Position, depth: u32) -> u64 {
        // SAFETY: as above.
        unsafe { perft_avx2(pos, depth) }
    }
}

/// Perft compiled for AVX2 (and POPCNT for the counts).
///
/// # Safety
/// The CPU must support AVX2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn perft_avx2(pos: &Position, depth: u32) -> u64 {
    perft_with::<Avx2>(pos, depth)
}

#[inline(always)]
fn perft_with<K: Kernel>(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let occupied = pos.occupied();
    let mask = pos.mask();
    let own = pos.balls(pos.to_move());
    let moves = K::legal_moves(own, occupied, mask);
    match depth {
        1 => moves.count_ones() as u64,
        2 => {
            // For each move, the next mover's legal moves after it: it loses the balls just
            // turned, and the square is filled.
            let opp = occupied & !own;
            let next_own = pos.balls(pos.next_to_move());
            let mut total = 0;
            for sq in Squares(moves) {
                let turned = flips(sq, own, opp);
                let after = K::legal_moves(next_own & !turned, occupied | 1u64 << sq, mask);
                total += after.count_ones() as u64;
            }
            total
        }
        _ => Squares(moves)
            .map(|sq| {
                let mut next = *pos;
                next.play_unchecked(Square(sq));
                K::perft(&next, depth - 1)
            })
            .sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rolit::Colour;

    #[test]
    fn every_kernel_counts_alike() {
        let pos = Position::start(8, 4, Colour::Red).unwrap();
        let portable: Vec<u64> = (0..=6).map(|d| Portable::perft(&pos, d)).collect();
        assert_eq!(portable[..4], [1, 3, 20, 136]);
        assert_eq!(
            (0..=6).map(|d| perft(&pos, d)).collect::<Vec<_>>(),
            portable
        );
    }
}
