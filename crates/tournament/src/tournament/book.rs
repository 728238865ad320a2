//! Openings from a file (`openings = "book.txt"`, `--openings FILE`), as cutechess's and
//! fastchess's opening books: one opening a line, used in order or shuffled by the seed, each
//! played once per rotation cycle of a table so that every seat plays it from every colour.
//!
//! - **Games played a move at a time** (every move public): a line is the first moves, in the game's move
//!   notation, separated by spaces (`d3 c5 f6`); a word that reads as JSON is that value
//!   (`"d3"`, `{"x": 1}`), any other word a string. Every line is played through the rules when
//!   the file is read, so an illegal move is an error naming the line, never a surprise at a
//!   table.
//! - **Games with hidden information** (cards dealt by chance): a line is a **deal seed**, a
//!   number below 2^53 that replaces the round's chance seed (the shuffle of the deck): every
//!   round of a cycle is dealt the same cards, seats rotated, as duplicate bridge does. The
//!   record keeps it (`deal`), so the verifier deals as the arbiter did.
//!
//! Blank lines and lines starting with `#` are skipped. Which opening a cycle gets is a pure
//! function of the table number and the cycle, so shards, resumed runs and Swiss phases agree:
//! cycle c (from 0) of table t is the file's opening number g = (t - 1) x cycles per table + c,
//! taken in file order (`order = "sequential"`) or through a permutation of the file drawn from
//! the seed (`"random"`), a new permutation each time the file has been used up.

use std::path::Path;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::game::{Game, Request, RoundSetup, ToAct};
use crate::seed::{SEED_MASK, mix, round_seed};

/// Salt of the shuffle's PRNG, so it never shares a stream with anything else.
const BOOK_SALT: u64 = 0x626f_6f6b_7368_7566;

/// The order in which a file's openings are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// The file's order, from its first line, starting over at its end.
    Sequential,
    /// A permutation of the file drawn from the tournament seed, a new one at each pass.
    Random,
}

/// The openings file of a tournament, as resolved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BookConfig {
    /// The file (absolute once resolved).
    pub file: std::path::PathBuf,
    pub order: Order,
    /// SHA-256 of the file's bytes: another file is another tournament.
    pub sha256: String,
    /// Openings in the file.
    pub count: usize,
}

/// One line of an openings file.
#[derive(Clone, Debug, PartialEq)]
pub enum Opening {
    /// The first moves, in order.
    Moves(Vec<Value>),
    /// The seed of the deal (games with hidden information).
    Deal(u64),
}

/// Reads and checks an openings file for `game` (whose match seed is `seed`). The error names
/// the file, the line and what is wrong.
pub fn read(path: &Path, game: &dyn Game, seed: u64) -> Result<Vec<Opening>, crate::Error> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        crate::Error::io(
            format!("cannot read the openings file {}", path.display()),
            e,
        )
    })?;
    parse(&text, game, seed)
        .map_err(|(line, e)| crate::Error::Invalid(format!("{}: line {line}: {e}", path.display())))
}

/// The openings of a file's text; an error is (line from 1, what is wrong).
pub fn parse(text: &str, game: &dyn Game, seed: u64) -> Result<Vec<Opening>, (usize, String)> {
    let deals = game.hidden_information();
    if !deals && super::openings::round_length(game).is_none() {
        return Err((
            0,
            format!(
                "{} has no openings: its rounds are not played a move at a time by one seat, \
                 and it has no deal to fix",
                game.name()
            ),
        ));
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = if deals {
            deal(line)
        } else {
            moves(line, game, seed)
        };
        out.push(opening.map_err(|e| (i + 1, e.to_string()))?);
    }
    if out.is_empty() {
        return Err((
            0,
            "the file holds no opening (one a line; blank lines and # comments are skipped)".into(),
        ));
    }
    Ok(out)
}

fn deal(line: &str) -> Result<Opening, crate::Error> {
    match line.parse::<u64>() {
        Ok(s) if s <= SEED_MASK => Ok(Opening::Deal(s)),
        _ => Err(crate::Error::Invalid(format!(
            "{line:?} is not a deal seed: a line of this game's openings is one whole number \
             from 0 to 2^53 - 1, the seed of the round's deal"
        ))),
    }
}

fn moves(line: &str, game: &dyn Game, seed: u64) -> Result<Opening, crate::Error> {
    let mut round = game.new_round(RoundSetup {
        round: 0,
        match_seed: seed,
        round_seed: round_seed(seed, 0, 0),
        chance_seed: round_seed(seed, 0, 0),
    });
    let mut out = Vec::new();
    for (n, word) in line.split_whitespace().enumerate() {
        let mv: Value =
            serde_json::from_str(word).unwrap_or_else(|_| Value::String(word.to_string()));
        let ToAct::Seat(seat, Request::TURN) = round.to_act() else {
            return Err(crate::Error::Invalid(format!(
                "move {} ({word}): the round is over before it",
                n + 1
            )));
        };
        if let Err(refusal) = round.play(seat, &mv) {
            let legal = round
                .legal_moves(seat)
                .map(|l| {
                    l.iter()
                        .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .unwrap_or_default();
            return Err(crate::Error::Invalid(format!(
                "move {} ({word}) is refused: {}; the legal moves there are: {legal}",
                n + 1,
                refusal.reason
            )));
        }
        out.push(mv);
    }
    if matches!(round.to_act(), ToAct::Over) {
        return Err(crate::Error::Invalid(
            "the opening ends the round: leave the bots something to play".into(),
        ));
    }
    Ok(Opening::Moves(out))
}

/// The index in the file of the opening of cycle `cycle` (from 0, counted over the whole
/// schedule: see the module's header), for a file of `count` openings.
pub fn pick(count: usize, order: Order, seed: u64, cycle: u64) -> usize {
    let (pass, at) = (cycle / count as u64, (cycle % count as u64) as usize);
    match order {
        Order::Sequential => at,
        Order::Random => {
            let mut perm: Vec<usize> = (0..count).collect();
            let mut rng = ChaCha8Rng::seed_from_u64(mix(seed ^ BOOK_SALT ^ mix(pass)));
            perm.shuffle(&mut rng);
            perm[at]
        }
    }
}

/// What the arbiter plays at each round of a table (index 0 is round 1): the opening moves and
/// the deal seed of each round, one opening per rotation cycle of `players` rounds.
pub struct TableBook {
    pub moves: Vec<Vec<Value>>,
    pub deals: Vec<u64>,
}

/// The openings of table `table` (from 1) of `rounds` rounds at tables of `players`.
pub fn table_book(
    book: &[Opening],
    config: &BookConfig,
    seed: u64,
    table: u32,
    rounds: u32,
    players: u32,
) -> TableBook {
    let cycles = u64::from(rounds.div_ceil(players));
    let mut out = TableBook {
        moves: Vec::new(),
        deals: Vec::new(),
    };
    for r in 0..rounds {
        let cycle = u64::from(table.saturating_sub(1)) * cycles + u64::from(r / players);
        match &book[pick(book.len(), config.order, seed, cycle)] {
            Opening::Moves(m) => out.moves.push(m.clone()),
            Opening::Deal(d) => out.deals.push(*d),
        }
    }
    out
}
