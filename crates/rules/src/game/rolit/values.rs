//! The tactical value of each square (the rules' figure 8, whose drawing is lost): five levels
//! as in Othello's classic table (`protocol/games/rolit.md`, "Square values"), on any board size. Used by the built-in
//! `positional` bot and by the starter kits.

use super::position::Square;

/// The five levels, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Diagonally next to a corner (X squares).
    VeryWeak = 0,
    /// On an edge, next to a corner (C squares).
    Weak = 1,
    /// Everything else.
    Medium = 2,
    /// On an edge, not next to a corner.
    Strong = 3,
    /// Corners.
    VeryStrong = 4,
}

/// The level of a square on an `n`x`n` board.
pub fn level(sq: Square, n: u8) -> Level {
    let last = n - 1;
    let edge = |v: u8| v == 0 || v == last;
    let near = |v: u8| v == 1 || v == last - 1;
    let (f, r) = (sq.file(), sq.rank());
    match (edge(f), edge(r)) {
        (true, true) => Level::VeryStrong,
        (true, false) if near(r) => Level::Weak,
        (false, true) if near(f) => Level::Weak,
        (true, false) | (false, true) => Level::Strong,
        (false, false) if near(f) && near(r) => Level::VeryWeak,
        _ => Level::Medium,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_on_8x8() {
        let l = |s: &str| level(Square::parse(s, 8).unwrap(), 8);
        assert_eq!(l("a1"), Level::VeryStrong);
        assert_eq!(l("h8"), Level::VeryStrong);
        assert_eq!(l("b1"), Level::Weak);
        assert_eq!(l("a7"), Level::Weak);
        assert_eq!(l("b2"), Level::VeryWeak);
        assert_eq!(l("g7"), Level::VeryWeak);
        assert_eq!(l("d1"), Level::Strong);
        assert_eq!(l("d4"), Level::Medium);
        assert_eq!(l("c2"), Level::Medium);
        assert_eq!(level(Square::parse("e5", 6).unwrap(), 6), Level::VeryWeak);
        assert_eq!(level(Square::parse("e6", 6).unwrap(), 6), Level::Weak);
    }
}
