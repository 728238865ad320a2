//! Bitboard primitives for Rolit: one `u64` per colour on an 8x8 grid, square `rank * 8 + file`
//! (a1 = bit 0, h8 = bit 63). Smaller boards (6x6, 4x4) sit in the a1 corner of the same grid;
//! the squares outside them are never occupied and never empty-and-playable (the board mask),
//! so a run along a line stops at the board's edge without extra checks.
//!
//! Capture generation is Othello's: for the mover, "own" is its colour and "opponent" is every
//! other colour together (a Rolit run may mix colours). The fills are the classic shift-and-mask
//! Kogge-Stone style used by fast Othello engines, unrolled over the six steps a run can take.
//! The balls a move turns are found without a loop: along each of the eight rays leaving the
//! square (a table), the first square that is not an opponent's ball is isolated with one bit
//! trick (lowest set bit for rays of rising square numbers, highest for falling ones); the run
//! before it turns if that square holds an own ball.

/// Every square of the 8x8 grid except the a file.
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
/// Every square of the 8x8 grid except the h file.
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// Neither the a nor the h file (where a horizontal or diagonal run may pass through).
const INNER: u64 = NOT_A & NOT_H;

/// The squares of an `n`x`n` board in the a1 corner of the 8x8 grid.
#[inline]
pub const fn board_mask(n: u8) -> u64 {
    // The rules' sizes without a loop (this runs at every move generation).
    match n {
        8 => return u64::MAX,
        6 => return 0x0000_3f3f_3f3f_3f3f,
        4 => return 0x0f0f_0f0f,
        _ => {}
    }
    let row: u64 = if n >= 8 { 0xff } else { (1u64 << n) - 1 };
    let mut mask = 0;
    let mut r = 0;
    while r < n {
        mask |= row << (8 * r);
        r += 1;
    }
    mask
}

/// Squares touching any square of `b` (8 directions), unmasked by board size.
#[inline(always)]
pub fn neighbours(b: u64) -> u64 {
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
    let row = b | h;
    h | (row << 8) | (row >> 8)
}

/// One direction of capture generation: empty squares from which a run of `opp` ending in
/// `own` leaves in the direction opposite to the shift. A Kogge-Stone fill: `x` spreads from
/// `own` over runs of `opp` one square long, then up to 3, then up to 7 (`p` holds the squares
/// that end a run of 2 `opp` balls, then of 4), in three doubling steps rather than six single
/// ones; the squares past the `opp` part of the fill are the moves.
macro_rules! capture_dir {
    ($own:expr, $opp:expr, $empty:expr, $shift:tt, $n:expr) => {{
        let mut x = $own | (($own $shift $n) & $opp);
        let p = $opp & ($opp $shift $n);
        x |= p & (x $shift (2 * $n));
        let p = p & (p $shift (2 * $n));
        x |= p & (x $shift (4 * $n));
        ((x & $opp) $shift $n) & $empty
    }};
}

/// The legal moves of the colour whose balls are `own`, on a board whose balls are `occupied`
/// and whose squares are `mask`: the capturing moves if any, else every empty square touching
/// a ball.
#[inline(always)]
pub fn legal_moves(own: u64, occupied: u64, mask: u64) -> u64 {
    let empty = mask & !occupied;
    let caps = capture_moves(own, occupied & !own, empty);
    if caps != 0 {
        caps
    } else {
        neighbours(occupied) & empty
    }
}

/// Empty squares where a ball of `own` would capture at least one ball of `opp`.
#[inline(always)]
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

/// The squares from each square to the edge of the 8x8 grid (the square itself excluded),
/// per direction: first the four whose square numbers rise (east, north, north-east,
/// north-west), then the four whose numbers fall (west, south, south-west, south-east).
const RAYS: [[u64; 64]; 8] = rays();

const fn rays() -> [[u64; 64]; 8] {
    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (0, 1),
        (1, 1),
        (-1, 1),
        (-1, 0),
        (0, -1),
        (-1, -1),
        (1, -1),
    ];
    let mut out = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
            let mut ray = 0u64;
            loop {
                f += STEPS[d].0;
                r += STEPS[d].1;
                if f < 0 || f > 7 || r < 0 || r > 7 {
                    break;
                }
                ray |= 1u64 << (r * 8 + f);
            }
            out[d][sq] = ray;
            sq += 1;
        }
        d += 1;
    }
    out
}

/// The balls of `opp` that a ball of `own` placed on `sq` turns: along each of the eight lines
/// leaving `sq`, the run of `opp` balls up to the first `own` ball (nothing if the run ends at
/// an empty square or the edge). Branch-free.
#[inline(always)]
pub fn flips(sq: u8, own: u64, opp: u64) -> u64 {
    let sq = sq as usize & 63;
    let mut all = 0;
    for rays in &RAYS[..4] {
        // Square numbers rise along the ray: the first square that is not an opponent's ball
        // is the lowest set bit of the ray's other squares; the run is every ray square below.
        let ray = rays[sq];
        let stop = ray & !opp;
        let first = stop & stop.wrapping_neg();
        let hit = ((first & own) != 0) as u64;
        all |= first.wrapping_sub(1) & ray & hit.wrapping_neg();
    }
    for rays in &RAYS[4..] {
        // Square numbers fall: the first square is the highest set bit; the run is above it.
        let ray = rays[sq];
        let stop = ray & !opp;
        let first = (1u64 << 63).wrapping_shr(stop.leading_zeros()) & stop;
        let hit = ((first & own) != 0) as u64;
        all |= ray & !(first << 1).wrapping_sub(1) & hit.wrapping_neg();
    }
    all
}

/// Capture generation with AVX2: the eight directions as two vectors of four 64-bit lanes (one
/// for the shifts towards higher square numbers, one for the others), the same Kogge-Stone fill
/// as [`capture_moves`] with one instruction per step for four directions. Used by perft when
/// the CPU has AVX2 (checked at run time; the build itself assumes only baseline x86-64).
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    use super::INNER;

    /// [`super::capture_moves`], for CPUs with AVX2.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub unsafe fn capture_moves(own: u64, opp: u64, empty: u64) -> u64 {
        // Lanes: east/west (1), north/south (8), north-east/south-west (9), north-west/
        // south-east (7); the horizontal and diagonal runs may not cross the a or h file.
        let inner = (opp & INNER) as i64;
        let opp = _mm256_set_epi64x(inner, inner, opp as i64, inner);
        let own = _mm256_set1_epi64x(own as i64);
        let s1 = _mm256_set_epi64x(7, 9, 8, 1);
        let s2 = _mm256_set_epi64x(14, 18, 16, 2);
        let s4 = _mm256_set_epi64x(28, 36, 32, 4);
        let up = {
            let mut x = _mm256_or_si256(own, _mm256_and_si256(_mm256_sllv_epi64(own, s1), opp));
            let p = _mm256_and_si256(opp, _mm256_sllv_epi64(opp, s1));
            x = _mm256_or_si256(x, _mm256_and_si256(p, _mm256_sllv_epi64(x, s2)));
            let p = _mm256_and_si256(p, _mm256_sllv_epi64(p, s2));
            x = _mm256_or_si256(x, _mm256_and_si256(p, _mm256_sllv_epi64(x, s4)));
            _mm256_sllv_epi64(_mm256_and_si256(x, opp), s1)
        };
        let down = {
            let mut x = _mm256_or_si256(own, _mm256_and_si256(_mm256_srlv_epi64(own, s1), opp));
            let p = _mm256_and_si256(opp, _mm256_srlv_epi64(opp, s1));
            x = _mm256_or_si256(x, _mm256_and_si256(p, _mm256_srlv_epi64(x, s2)));
            let p = _mm256_and_si256(p, _mm256_srlv_epi64(p, s2));
            x = _mm256_or_si256(x, _mm256_and_si256(p, _mm256_srlv_epi64(x, s4)));
            _mm256_srlv_epi64(_mm256_and_si256(x, opp), s1)
        };
        let all = _mm256_or_si256(up, down);
        let half = _mm_or_si128(
            _mm256_castsi256_si128(all),
            _mm256_extracti128_si256::<1>(all),
        );
        let one = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        _mm_cvtsi128_si64(one) as u64 & empty
    }
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

    /// The eight directions as (shift, mask applied after shifting).
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

    /// The plain definition of [`flips`]: walk each line square by square.
    fn flips_by_walking(sq: u8, own: u64, opp: u64) -> u64 {
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

    #[test]
    fn flips_agree_with_walking_the_lines() {
        // A small xorshift generator: boards of every density, every empty square.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..20_000 {
            let (a, b, c) = (next(), next(), next());
            let (own, opp) = match round % 3 {
                0 => (a & b, !(a & b) & c),
                1 => (a & b & c, !(a & b & c) & (a | b)),
                _ => (a, !a & b),
            };
            let empty = !(own | opp);
            for sq in Squares(empty) {
                assert_eq!(
                    flips(sq, own, opp),
                    flips_by_walking(sq, own, opp),
                    "square {sq}, own {own:#x}, opp {opp:#x}"
                );
            }
        }
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
