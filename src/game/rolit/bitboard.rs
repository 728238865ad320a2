//! Bitboard primitives for Rolit: one `u64` per colour on an 8x8 grid, square `rank * 8 + file`
//! (a1 = bit 0, h8 = bit 63). Smaller boards (6x6, 4x4) sit in the a1 corner of the same grid;
//! the squares outside them are never occupied and never empty-and-playable (the board mask),
//! so a run along a line stops at the board's edge without extra checks.
//!
//! Capture generation is Othello's: for the mover, "own" is its colour and "opponent" is every
//! other colour together (a Rolit run may mix colours). The fills are the classic shift-and-mask
//! Kogge-Stone style used by fast Othello engines, unrolled over the six steps a run can take.

/// Every square of the 8x8 grid except the a file.
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
/// Every square of the 8x8 grid except the h file.
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// Neither the a nor the h file (where a horizontal or diagonal run may pass through).
const INNER: u64 = NOT_A & NOT_H;

/// The squares of an `n`x`n` board in the a1 corner of the 8x8 grid.
pub const fn board_mask(n: u8) -> u64 {
    let row: u64 = if n >= 8 { 0xff } else { (1u64 << n) - 1 };
    let mut mask = 0;
    let mut r = 0;
    while r < n {
        mask |= row << (8 * r);
        r += 1;
    }
    mask
}

/// The eight directions as (shift, mask applied after shifting).
#[inline(always)]
fn shifted(b: u64, dir: usize) -> u64 {
    match dir {
        0 => (b << 1) & NOT_A, // east
        1 => (b >> 1) & NOT_H, // west
        2 => b << 8,           // north
        3 => b >> 8,           // south
        4 => (b << 9) & NOT_A, // north-east
        5 => (b << 7) & NOT_H, // north-west
        6 => (b >> 7) & NOT_A, // south-east
        _ => (b >> 9) & NOT_H, // south-west
    }
}

/// Squares touching any square of `b` (8 directions), unmasked by board size.
#[inline]
pub fn neighbours(b: u64) -> u64 {
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// One direction of capture generation: empty squares from which a run of `opp` ending in
/// `own` leaves in the direction opposite to the shift.
macro_rules! capture_dir {
    ($own:expr, $opp:expr, $empty:expr, $shift:tt, $n:expr) => {{
        let mut x = ($own $shift $n) & $opp;
        x |= (x $shift $n) & $opp;
        x |= (x $shift $n) & $opp;
        x |= (x $shift $n) & $opp;
        x |= (x $shift $n) & $opp;
        x |= (x $shift $n) & $opp;
        (x $shift $n) & $empty
    }};
}

/// Empty squares where a ball of `own` would capture at least one ball of `opp`.
#[inline]
pub fn capture_moves(own: u64, opp: u64, empty: u64) -> u64 {
    let inner = opp & INNER;
    capture_dir!(own, inner, empty, <<, 1)
        | capture_dir!(own, inner, empty, >>, 1)
        | capture_dir!(own, opp, empty, <<, 8)
        | capture_dir!(own, opp, empty, >>, 8)
        | capture_dir!(own, inner, empty, <<, 9)
        | capture_dir!(own, inner, empty, >>, 9)
        | capture_dir!(own, inner, empty, <<, 7)
        | capture_dir!(own, inner, empty, >>, 7)
}

/// The balls of `opp` that a ball of `own` placed on `sq` turns: along each of the eight lines
/// leaving `sq`, the run of `opp` balls up to the first `own` ball (nothing if the run ends at
/// an empty square or the edge).
#[inline]
pub fn flips(sq: u8, own: u64, opp: u64) -> u64 {
    let start = 1u64 << sq;
    let mut all = 0;
    for dir in 0..8 {
        let mut run = 0;
        let mut x = shifted(start, dir);
        while x & opp != 0 {
            run |= x;
            x = shifted(x, dir);
        }
        if x & own != 0 {
            all |= run;
        }
    }
    all
}

/// Iterates over the set bits of a bitboard as square indices, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub u64);

impl Iterator for Squares {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(sq)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(board_mask(8), u64::MAX);
        assert_eq!(board_mask(4).count_ones(), 16);
        assert_eq!(board_mask(6).count_ones(), 36);
        assert_eq!(board_mask(4), 0x0f0f_0f0f);
    }

    #[test]
    fn neighbours_of_corner_do_not_wrap() {
        let a1 = 1u64;
        let h1 = 1u64 << 7;
        assert_eq!(neighbours(a1), (1 << 1) | (1 << 8) | (1 << 9));
        assert_eq!(neighbours(h1), (1 << 6) | (1 << 14) | (1 << 15));
    }

    #[test]
    fn flips_stop_at_first_own_ball() {
        // a1 empty, b1 c1 opponent, d1 own, e1 opponent, f1 own: placing on a1 flips b1 c1 only.
        let own = (1 << 3) | (1 << 5);
        let opp = (1 << 1) | (1 << 2) | (1 << 4);
        assert_eq!(flips(0, own, opp), (1 << 1) | (1 << 2));
        assert_eq!(capture_moves(own, opp, !(own | opp)) & 1, 1);
    }
}
