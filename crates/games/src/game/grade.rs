//! What `rollarena solve` and `rollarena analyse` say, for any game whose registry entry can
//! solve positions and grade moves ([`super::registry::Analysis`]): a solved position
//! ([`Solved`]), each move of a round graded against the best play found ([`Graded`]), how a
//! game's grades read and count ([`Terms`]), and the summaries the command line and the
//! report draw from them (each seat's accuracy and largest losses). Plain data; the searching
//! is the game's.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How long a search may go on: per position searched, a time and a node count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

/// A position searched by `rollarena solve`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Solved {
    /// The position, in the game's state form (what a bot receives).
    pub position: serde_json::Value,
    /// Who moves (a colour, for games that have them).
    pub to_move: String,
    /// What the value measures, e.g. "final ball difference (mover minus opponent)".
    pub objective: String,
    /// Whether the search finished within its budget (then `value` and `best` are exact).
    pub solved: bool,
    /// The value for the mover under perfect play; `None` when not solved.
    pub value: Option<i32>,
    /// Every move that keeps the value.
    pub best: Vec<String>,
    /// Positions visited.
    pub nodes: u64,
    /// Time taken, in ms.
    pub ms: f64,
    /// The board as text.
    #[serde(skip)]
    pub board: String,
}

/// How a game's grades read and count: what is graded, in what unit, and which losses still
/// count as accurate.
#[derive(Clone, Copy, Debug)]
pub struct Terms {
    /// What is graded, plural ("moves", "demonstrations").
    pub graded: &'static str,
    /// What a loss counts, plural ("balls", "moves").
    pub unit: &'static str,
    /// The largest loss still counted accurate (1 ball; 0 moves: only the optimum).
    pub within: i32,
    /// Accurate, in words after "3 of 5 moves" ("within one ball of the best").
    pub accurate: &'static str,
    /// The JSON key of a seat's count of accurate grades (`within_one`, `at_optimum`).
    pub key: &'static str,
    /// The game's own fields of a grade in a few words, for the end of its line in a table
    /// (`None`: nothing to add).
    pub note: Option<fn(&Graded) -> String>,
}

/// One move of a round graded against the best play found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Graded {
    /// The round's number in its match, from 1.
    pub round: u32,
    /// The move's number in the round, from 1.
    pub ply: u32,
    pub seat: usize,
    pub colour: Option<String>,
    /// The move played, as the bot sent it.
    #[serde(rename = "move")]
    pub mv: String,
    /// Every move as good as the best one found.
    pub best: Vec<String>,
    /// The best value the mover could reach, and the value after the move played, in the
    /// objective's unit (balls; for a game where fewer is better, such as a count of moves,
    /// the best count and the count played).
    pub value: i32,
    pub played: i32,
    /// What the move cost in that unit, 0 for a best move: `value - played` (balls), or
    /// `played - value` where fewer is better.
    pub loss: i32,
    /// True where both values are exact (perfect play); false for an estimate.
    pub exact: bool,
    /// For an estimate: the time the search was given per position, in ms.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub budget_ms: Option<u64>,
    /// What the values measure.
    pub objective: String,
    /// Empty squares (or the game's own measure of what is left) before the move.
    pub empties: u32,
    /// Played by the arbiter, not the seat: for a seat that had forfeited, or an opening's
    /// move. Graded, but not counted in the seat's summary.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub by_arbiter: bool,
    /// The game's own fields, beside the common ones (none for Rolit).
    #[serde(flatten, default)]
    pub own: Map<String, Value>,
}

/// A seat's summary over graded moves: its moves, those counted accurate, its total loss and
/// its largest losses (largest first, at most `top`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatSummary {
    pub seat: usize,
    pub moves: usize,
    /// Its moves within [`Terms::within`] of the best (the name is Rolit's: one ball).
    pub within_one: usize,
    pub exact: usize,
    pub total_loss: i64,
    pub worst: Vec<Graded>,
}

impl SeatSummary {
    /// The share of the seat's moves counted accurate (1 with no moves).
    pub fn accuracy(&self) -> f64 {
        if self.moves == 0 {
            1.0
        } else {
            self.within_one as f64 / self.moves as f64
        }
    }
}

/// Each seat's summary (seats `0..seats`), over its own moves (not those the arbiter played
/// for it after a forfeit), with its `top` largest losses (only losses above zero); a move is
/// accurate when its loss is at most `within` ([`Terms::within`]).
pub fn summarise(moves: &[Graded], seats: usize, top: usize, within: i32) -> Vec<SeatSummary> {
    (0..seats)
        .map(|seat| {
            let own: Vec<&Graded> = moves
                .iter()
                .filter(|g| g.seat == seat && !g.by_arbiter)
                .collect();
            let mut worst: Vec<Graded> = own
                .iter()
                .filter(|g| g.loss > 0)
                .map(|g| (*g).clone())
                .collect();
            worst.sort_by_key(|g| (std::cmp::Reverse(g.loss), g.round, g.ply));
            worst.truncate(top);
            SeatSummary {
                seat,
                moves: own.len(),
                within_one: own.iter().filter(|g| g.loss <= within).count(),
                exact: own.iter().filter(|g| g.exact).count(),
                total_loss: own.iter().map(|g| g.loss as i64).sum(),
                worst,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graded(seat: usize, ply: u32, loss: i32) -> Graded {
        Graded {
            round: 1,
            ply,
            seat,
            colour: None,
            mv: "a1".into(),
            best: vec![],
            value: loss,
            played: 0,
            loss,
            exact: true,
            budget_ms: None,
            objective: String::new(),
            empties: 0,
            by_arbiter: false,
            own: Map::new(),
        }
    }

    #[test]
    fn summaries_count_each_seat_s_own_moves() {
        let mut moves = vec![
            graded(0, 1, 0),
            graded(1, 2, 4),
            graded(0, 3, 2),
            graded(1, 4, 1),
        ];
        moves.push(Graded {
            by_arbiter: true,
            ..graded(1, 5, 9)
        });
        let s = summarise(&moves, 2, 1, 1);
        assert_eq!((s[0].moves, s[0].within_one, s[0].total_loss), (2, 1, 2));
        assert_eq!((s[1].moves, s[1].within_one, s[1].total_loss), (2, 1, 5));
        assert_eq!(s[1].worst.len(), 1);
        assert_eq!(s[1].worst[0].loss, 4);
        assert!((s[0].accuracy() - 0.5).abs() < 1e-9);
        // Only the best counts where nothing is within.
        let strict = summarise(&moves, 2, 1, 0);
        assert_eq!((strict[0].within_one, strict[1].within_one), (1, 0));
    }

    #[test]
    fn a_game_s_own_fields_sit_beside_the_common_ones() {
        let plain = serde_json::to_value(graded(0, 1, 2)).unwrap();
        let mut g = graded(0, 1, 2);
        g.own.insert("declared".into(), serde_json::json!(7));
        let v = serde_json::to_value(&g).unwrap();
        assert_eq!(
            (v["declared"].clone(), v["loss"].clone()),
            (7.into(), 2.into())
        );
        assert!(v.get("own").is_none(), "{v}");
        assert_eq!(
            v.as_object().unwrap().len(),
            plain.as_object().unwrap().len() + 1
        );
        let back: Graded = serde_json::from_value(v).unwrap();
        assert_eq!(back, g);
    }
}
