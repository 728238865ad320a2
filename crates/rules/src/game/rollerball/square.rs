//! Squares, the three clockwise tracks and the slots where cards may lie (rules §3).
//!
//! A [`Square`] is a number `rank * 8 + file`, so its natural order is the rules' square order
//! (by rank, then by file). Everything about the board's geometry is computed from the square's
//! ring (its distance to the edge): the track, the next square clockwise, corners and base
//! squares; the slot lists are derived once from those and checked against §3.3 by the tests.

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A square of the 8x8 board, `a1` = 0, `h1` = 7, `a2` = 8, …, `h8` = 63.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1).
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }

    /// The square with this index (0..64).
    pub const fn from_index(i: usize) -> Square {
        Square(i as u8)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// Reads `e4` in either case.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase();
        let rank = b[1];
        if !(b'a'..=b'h').contains(&file) || !(b'1'..=b'8').contains(&rank) {
            return None;
        }
        Some(Square::new(file - b'a', rank - b'1'))
    }

    /// Every square in square order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Every track square (the workman squares: all but the logo), in square order.
    pub fn track_squares() -> impl Iterator<Item = Square> {
        Square::all().filter(|s| !s.is_logo())
    }

    /// 0 for the outer ring, 3 for the logo.
    const fn ring(self) -> u8 {
        let f = self.file();
        let r = self.rank();
        let a = if f < 7 - f { f } else { 7 - f };
        let b = if r < 7 - r { r } else { 7 - r };
        if a < b { a } else { b }
    }

    /// One of the middle four squares, where nothing may stand.
    pub const fn is_logo(self) -> bool {
        self.ring() == 3
    }

    /// The track (1 outer, 3 inner), `None` on the logo.
    pub const fn track(self) -> Option<u8> {
        match self.ring() {
            3 => None,
            r => Some(r + 1),
        }
    }

    /// A square where a track turns (12 of them).
    pub const fn is_corner(self) -> bool {
        let k = self.ring();
        let (lo, hi) = (k, 7 - k);
        k < 3
            && (self.file() == lo || self.file() == hi)
            && (self.rank() == lo || self.rank() == hi)
    }

    /// A track square that is not a corner.
    pub const fn is_straight(self) -> bool {
        !self.is_logo() && !self.is_corner()
    }

    /// A corner of track 1 or 2, where bases stand.
    pub const fn is_base_square(self) -> bool {
        self.is_corner() && self.ring() < 2
    }

    /// The next square clockwise on this square's track. Panics on the logo.
    pub fn next(self) -> Square {
        assert!(!self.is_logo(), "the logo has no next square");
        Square(NEXT[self.index()])
    }

    /// The bit of this square in a [`Mask`].
    pub const fn bit(self) -> Mask {
        1 << self.0
    }

    /// The orthogonal neighbours on the board (logo included), in square order.
    pub fn neighbours(self) -> impl Iterator<Item = Square> {
        let (f, r) = (self.file() as i8, self.rank() as i8);
        [(0, -1), (-1, 0), (1, 0), (0, 1)]
            .into_iter()
            .filter_map(move |(df, dr)| {
                let (nf, nr) = (f + df, r + dr);
                ((0..8).contains(&nf) && (0..8).contains(&nr))
                    .then(|| Square::new(nf as u8, nr as u8))
            })
    }

    /// Orthogonal steps between two squares, ignoring obstacles.
    pub fn distance(self, other: Square) -> u8 {
        self.file().abs_diff(other.file()) + self.rank().abs_diff(other.rank())
    }
}

/// A set of squares, bit `index` for each (the hot paths: walks, balls in the way).
pub type Mask = u64;

/// The logo's four squares.
pub const LOGO: Mask = logo_mask();

/// The squares on file a and on file h, to keep shifts from wrapping round the board.
const FILE_A: Mask = 0x0101_0101_0101_0101;
const FILE_H: Mask = 0x8080_8080_8080_8080;

/// The squares of `m` and their orthogonal neighbours.
pub const fn grow(m: Mask) -> Mask {
    m | (m << 8) | (m >> 8) | ((m << 1) & !FILE_A) | ((m >> 1) & !FILE_H)
}

/// The squares of a mask, increasing.
pub fn squares_of(mut m: Mask) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let i = m.trailing_zeros();
        m &= m - 1;
        Some(Square(i as u8))
    })
}

const fn logo_mask() -> Mask {
    let mut m = 0;
    let mut i = 0;
    while i < 64 {
        if Square(i).is_logo() {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}

/// The next square clockwise of every track square (the logo's entries unused), computed
/// once at compile time from the rings, since a ball phase asks it at every step.
const NEXT: [u8; 64] = next_table();

const fn next_table() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        let sq = Square(i as u8);
        let k = sq.ring();
        if k < 3 {
            let (lo, hi) = (k, 7 - k);
            let (f, r) = (sq.file(), sq.rank());
            t[i] = if r == hi && f < hi {
                Square::new(f + 1, r).0
            } else if f == hi && r > lo {
                Square::new(f, r - 1).0
            } else if r == lo && f > lo {
                Square::new(f - 1, r).0
            } else {
                Square::new(f, r + 1).0
            };
        }
        i += 1;
    }
    t
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let s = String::deserialize(d)?;
        Square::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("not a square: {s:?}")))
    }
}

impl JsonSchema for Square {
    fn schema_name() -> Cow<'static, str> {
        "Square".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": "^[a-h][1-8]$",
            "description": "A square: file a-h then rank 1-8, a1 at the bottom left."
        })
    }
}

/// The three tracks as square lists in clockwise order, each from its top-left corner.
pub fn tracks() -> [Vec<Square>; 3] {
    let start = [Square::new(0, 7), Square::new(1, 6), Square::new(2, 5)];
    start.map(|first| {
        let mut list = vec![first];
        let mut s = first.next();
        while s != first {
            list.push(s);
            s = s.next();
        }
        list
    })
}

/// The 24 track-changer slots as (outer, inner), in square order of the outer square, then of
/// the inner one.
pub fn track_changer_slots() -> &'static [(Square, Square)] {
    static SLOTS: OnceLock<Vec<(Square, Square)>> = OnceLock::new();
    SLOTS.get_or_init(|| {
        let mut v = Vec::new();
        for a in Square::all().filter(|s| s.is_straight()) {
            for b in a.neighbours().filter(|s| s.is_straight()) {
                if b.ring() == a.ring() + 1 {
                    v.push((a, b));
                }
            }
        }
        v
    })
}

/// The 36 ball-changer slots as (s1, s2) with `s2` the next square of `s1`, in square order of
/// `s1`.
pub fn ball_changer_slots() -> &'static [(Square, Square)] {
    static SLOTS: OnceLock<Vec<(Square, Square)>> = OnceLock::new();
    SLOTS.get_or_init(|| {
        Square::all()
            .filter(|s| s.is_straight() && s.next().is_straight())
            .map(|s| (s, s.next()))
            .collect()
    })
}

/// Whether `(outer, inner)` is a track-changer slot.
pub fn is_track_changer_slot(outer: Square, inner: Square) -> bool {
    outer.is_straight()
        && inner.is_straight()
        && inner.ring() == outer.ring() + 1
        && outer.distance(inner) == 1
}

/// Whether `(s1, s2)` is a ball-changer slot.
pub fn is_ball_changer_slot(s1: Square, s2: Square) -> bool {
    s1.is_straight() && s2.is_straight() && s1.next() == s2
}
