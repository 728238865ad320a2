//! The built-in bots (`rollarena bot NAME`): ordinary bots that happen to live in this binary.
//!
//! This module owns four things:
//!
//! - the [`Strategy`] trait: choose a move in a Rolit position, plain and synchronous, with the
//!   strategies [`Random`], [`Greedy`] and [`Positional`];
//! - [`Bot`]: a strategy plus what every built-in bot shares, the `--seed` and `--noise`
//!   options and the random number generator (ChaCha8, reseeded at every `start` from the
//!   round's seed and the bot's own seed, so a match replays exactly);
//! - [`serve`]: the protocol loop that turns a bot into a process speaking protocol v1 over
//!   stdin/stdout, exactly as a bot written in any other language would. The arbiter knows
//!   nothing special about these bots: it starts them as processes like any other;
//! - for every other game, the bot of that name in the game's registry entry (a
//!   [`GameBot`], built at `hello`) or, when the game has none, a uniform choice from
//!   `turn.legal` ([`legal`]), with a `log` line saying so (protocol/SPEC.md §14).
//!
//! The loop is written for speed because the arbiter's benchmark uses these bots: one reused
//! line buffer, a two-step parse (first the `type` alone, then only the fields the bot needs,
//! borrowing from the line, skipping everything else) instead of buffering every message into
//! a `serde_json::Value`, and answers written straight into a buffered writer that is flushed
//! after every line. Messages a bot does not need (`played`, `end`, unknown types) cost one
//! scan of the line.

pub mod arena;
pub mod brs;
pub mod eval;
pub mod greedy;
pub mod legal;
pub mod mcts;
pub mod positional;
pub mod random;
pub mod solver;

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead, Write};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};

use crate::arbiter::protocol::{FromBot, Log, Ready};
use crate::game::bot::{BotSettings, GameBot, RANDOM};
use crate::game::registry;
use crate::game::rolit::{Position, Square, State};

pub use brs::Brs;
pub use greedy::Greedy;
pub use mcts::Mcts;
pub use positional::Positional;
pub use random::{Random, random_square};

/// The built-in bots' names, as `rollarena bot NAME` takes them.
pub const NAMES: &[&str] = &["random", "greedy", "positional", "mcts", "brs"];

/// The deepest search `positional` accepts (`--depth`).
pub const MAX_DEPTH: u32 = 6;

/// A way of choosing a Rolit move.
pub trait Strategy {
    /// The name sent in `ready`.
    fn name(&self) -> &'static str;
    /// Chooses one of the squares of `legal` (a bitboard, never empty, a subset of the
    /// position's empty squares) for the colour to move in `pos`. Random choices (ties) come
    /// from `rng`, so they are reproducible.
    fn choose(&mut self, pos: &Position, legal: u64, rng: &mut ChaCha8Rng) -> Square;
    /// [`Strategy::choose`] with the time the arbiter allows for this move (`turn.time_ms`,
    /// when known): a strategy that thinks for a while uses it, with a safety margin, and may
    /// append one line for a `log` message to `log` (left empty: no message). By default, the
    /// untimed choice.
    fn choose_timed(
        &mut self,
        pos: &Position,
        legal: u64,
        rng: &mut ChaCha8Rng,
        time_ms: Option<u64>,
        log: &mut String,
    ) -> Square {
        let _ = (time_ms, log);
        self.choose(pos, legal, rng)
    }
    /// A round begins (a strategy that keeps a search tree between moves drops it).
    fn new_round(&mut self) {}
}

/// The options every built-in bot takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Mixed with each round's seed to seed the bot's random choices.
    pub seed: u64,
    /// Probability (0 to 1) of playing a uniformly random legal move instead.
    pub noise: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seed: 0,
            noise: 0.0,
        }
    }
}

/// A strategy with its options and its random number generator.
pub struct Bot {
    strategy: Box<dyn Strategy>,
    options: Options,
    rng: ChaCha8Rng,
    /// The name sent in `ready`: the strategy's, or the game bot's (see [`Bot::named`]).
    name: &'static str,
    /// Whether `strategy` is the bot's own Rolit play (false: a game bot playing Rolit at
    /// random).
    plays_rolit: bool,
    /// What a game's own bot is built from, at `hello`.
    settings: BotSettings,
}

impl fmt::Debug for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bot")
            .field("name", &self.strategy.name())
            .field("options", &self.options)
            .finish()
    }
}

impl Bot {
    /// A bot; `noise` is clamped to 0..=1 (NaN counts as 0). The generator starts as if a
    /// round with seed 0 had begun.
    pub fn new(strategy: Box<dyn Strategy>, mut options: Options) -> Bot {
        options.noise = if options.noise.is_nan() {
            0.0
        } else {
            options.noise.clamp(0.0, 1.0)
        };
        Bot {
            rng: round_rng(0, options.seed),
            name: strategy.name(),
            plays_rolit: true,
            strategy,
            options,
            settings: BotSettings::default(),
        }
    }

    /// The built-in bot `name` of any game with its settings: a Rolit strategy (see
    /// [`Bot::by_name`]) or a bot that some game's registry entry lists (built at `hello`, for
    /// the game played). The error says which names exist.
    pub fn named(name: &str, options: Options, settings: BotSettings) -> Result<Bot, String> {
        if let Some(mut bot) = Bot::by_name(name, options, settings.depth.unwrap_or(1)) {
            bot.settings = settings;
            return Ok(bot);
        }
        let Some(&(_, found)) = registry::bots_named(name).first() else {
            return Err(format!(
                "unknown bot {name:?}: the built-in bots are {}",
                all_names().join(", ")
            ));
        };
        let mut bot = Bot::new(Box::new(Random), options);
        bot.name = found.name;
        bot.plays_rolit = false;
        bot.settings = settings;
        Ok(bot)
    }

    /// A built-in bot by name (see [`NAMES`]); `depth` is for `positional` and `brs` (the
    /// searching bots take their defaults here: see [`Mcts::new`] and [`Brs::new`] for more).
    pub fn by_name(name: &str, options: Options, depth: u32) -> Option<Bot> {
        let strategy: Box<dyn Strategy> = match name {
            "random" => Box::new(Random),
            "greedy" => Box::new(Greedy),
            "positional" => Box::new(Positional::new(depth)),
            "mcts" => Box::new(Mcts::new(mcts::Config::default())),
            "brs" => Box::new(Brs::new(brs::Config {
                depth: Some(depth),
                ..brs::Config::default()
            })),
            _ => return None,
        };
        Some(Bot::new(strategy, options))
    }

    pub fn name(&self) -> &'static str {
        self.name
    }

    pub fn options(&self) -> Options {
        self.options
    }

    /// A round begins: reseeds from the round's seed and the bot's own seed.
    pub fn new_round(&mut self, round_seed: u64) {
        self.rng = round_rng(round_seed, self.options.seed);
        self.strategy.new_round();
    }

    /// Chooses a move among `legal` (the position's own legal moves when `legal` is empty):
    /// with probability `noise` a uniformly random one, otherwise the strategy's.
    pub fn choose(&mut self, pos: &Position, legal: u64) -> Square {
        let legal = if legal == 0 { pos.legal_moves() } else { legal };
        debug_assert!(legal != 0, "a move is wanted in a position with none");
        if self.options.noise > 0.0 && self.rng.random_bool(self.options.noise) {
            return random_square(legal, &mut self.rng);
        }
        self.strategy.choose(pos, legal, &mut self.rng)
    }

    /// [`Bot::choose`] with the move's time (see [`Strategy::choose_timed`]); a line for a
    /// `log` message may be appended to `log`.
    pub fn choose_timed(
        &mut self,
        pos: &Position,
        legal: u64,
        time_ms: Option<u64>,
        log: &mut String,
    ) -> Square {
        let legal = if legal == 0 { pos.legal_moves() } else { legal };
        debug_assert!(legal != 0, "a move is wanted in a position with none");
        if self.options.noise > 0.0 && self.rng.random_bool(self.options.noise) {
            return random_square(legal, &mut self.rng);
        }
        self.strategy
            .choose_timed(pos, legal, &mut self.rng, time_ms, log)
    }
}

/// Every built-in bot's name: `random`, then each game's own, in registry order.
pub fn all_names() -> Vec<&'static str> {
    let mut names = vec![RANDOM];
    for entry in registry::GAMES {
        for b in entry.bots {
            if !names.contains(&b.name) {
                names.push(b.name);
            }
        }
    }
    names
}

/// The generator for one round: ChaCha8 keyed by the round's seed and the bot's seed side by
/// side, so distinct pairs never share a stream.
pub fn round_rng(round_seed: u64, bot_seed: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&round_seed.to_le_bytes());
    key[8..16].copy_from_slice(&bot_seed.to_le_bytes());
    key[16..24].copy_from_slice(b"rollbot1");
    ChaCha8Rng::from_seed(key)
}

/// At most this many `log` lines per match about lines the bot could not use, so a confused
/// arbiter cannot make the bot flood.
const MAX_LOGS: u32 = 16;

/// What the bot remembers of the match.
struct Session {
    /// Colours in play when a state does not list them: `hello.options.players`, else the
    /// number of seats.
    players: usize,
    /// The last `turn` answered, for `illegal`.
    last: Option<LastTurn>,
    /// The match is of another game than Rolit: moves are chosen among the listed ones.
    other: Option<legal::Listed>,
    /// That game's own bot of this name, if it has one.
    game_bot: Option<Box<dyn GameBot>>,
    logs_left: u32,
    /// Bytes of `log` text the strategy may still send this round (its notes on each move).
    note_bytes_left: usize,
}

/// The `log` text a strategy may send per round: well within the protocol's 65,536 bytes.
const NOTE_BYTES: usize = 32_768;

struct LastTurn {
    pos: Position,
    /// The moves the arbiter listed (or the computed ones).
    legal: u64,
    turn_id: Option<u64>,
    /// Squares already sent for this turn.
    tried: u64,
}

/// Plays a match: reads the arbiter's lines from `input` and answers on `output`, flushing
/// after every line, until `bye` or the end of the input. Only I/O errors are errors; a line
/// the bot cannot use is skipped (with a `log` line when it should have been usable).
pub fn serve<R: BufRead, W: Write>(bot: &mut Bot, mut input: R, mut output: W) -> io::Result<()> {
    let mut session = Session {
        players: 2,
        last: None,
        other: None,
        game_bot: None,
        logs_left: MAX_LOGS,
        note_bytes_left: NOTE_BYTES,
    };
    let mut line = Vec::with_capacity(4096);
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return output.flush();
        }
        let text = line.trim_ascii();
        if text.is_empty() {
            continue;
        }
        let kind = match serde_json::from_slice::<Kind>(text) {
            Ok(k) => k.kind,
            Err(e) => {
                session.log(
                    &mut output,
                    format_args!("ignored a line that is not a message: {e}"),
                )?;
                continue;
            }
        };
        match &*kind {
            "hello" => hello(bot, &mut session, text, &mut output)?,
            "start" => start(bot, &mut session, text),
            "turn" | "illegal" if session.other.is_some() => {
                let listed = session.other.as_mut().expect("checked");
                let answered = if kind == "turn" {
                    let a = listed.turn(
                        text,
                        session.game_bot.as_deref_mut(),
                        bot.options.noise,
                        &mut bot.rng,
                        &mut output,
                    )?;
                    if let Some(e) = &a.error {
                        session.log(
                            &mut output,
                            format_args!("{}: {e}; played a listed move at random", bot.name),
                        )?;
                    }
                    session.note(&mut output, &a.note)?;
                    a.sent
                } else {
                    listed.next(&mut bot.rng, &mut output)?
                };
                if !answered {
                    session.log(&mut output, format_args!("no listed move left to choose"))?;
                }
            }
            "turn" => turn(bot, &mut session, text, &mut output)?,
            "illegal" => illegal(bot, &mut session, text, &mut output)?,
            "bye" => return output.flush(),
            // `played`, `end` and types this bot does not know.
            _ => {}
        }
    }
}

impl Session {
    /// Sends a strategy's note on its move as a `log` line (nothing for an empty note, or
    /// once the round's budget is spent).
    fn note<W: Write>(&mut self, out: &mut W, text: &str) -> io::Result<()> {
        if text.is_empty() || text.len() > self.note_bytes_left {
            return Ok(());
        }
        self.note_bytes_left -= text.len();
        let msg = FromBot::Log(Log {
            text: text.to_string(),
        });
        serde_json::to_writer(&mut *out, &msg)?;
        out.write_all(b"\n")
    }

    fn log<W: Write>(&mut self, out: &mut W, text: fmt::Arguments<'_>) -> io::Result<()> {
        if self.logs_left == 0 {
            return Ok(());
        }
        self.logs_left -= 1;
        let msg = FromBot::Log(Log {
            text: text.to_string(),
        });
        serde_json::to_writer(&mut *out, &msg)?;
        out.write_all(b"\n")?;
        out.flush()
    }
}

fn hello<W: Write>(bot: &Bot, session: &mut Session, text: &[u8], out: &mut W) -> io::Result<()> {
    // Always answer `ready`, whatever the other fields hold.
    let hello: HelloIn = serde_json::from_slice(text).unwrap_or_default();
    if let Some(p) = hello.options.and_then(|o| o.players) {
        session.players = p;
    } else if let Some(seats) = hello.seats {
        session.players = seats.len();
    }
    let ready = FromBot::Ready(Ready {
        name: bot.name().to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        author: Some("rollarena".to_string()),
    });
    serde_json::to_writer(&mut *out, &ready)?;
    out.write_all(b"\n")?;
    out.flush()?;
    session.game_bot = None;
    let game = hello.game.unwrap_or_else(|| "rolit".to_string());
    if game == "rolit" {
        if !bot.plays_rolit {
            session.log(
                out,
                format_args!(
                    "{} does not play rolit: it plays a legal move at random",
                    bot.name
                ),
            )?;
        }
        return Ok(());
    }
    session.other = Some(legal::Listed::for_seat(hello.seat.unwrap_or(0)));
    if bot.name == RANDOM {
        return Ok(());
    }
    let own = registry::find(&game)
        .ok()
        .and_then(|e| e.bots.iter().find(|b| b.name == bot.name));
    match own.and_then(|b| b.build) {
        Some(build) => match build(&bot.settings) {
            Ok(game_bot) => session.game_bot = Some(game_bot),
            Err(e) => session.log(
                out,
                format_args!("{}: {e}; it plays the listed moves at random", bot.name),
            )?,
        },
        None => session.log(
            out,
            format_args!(
                "{} does not play {game}: it chooses among the listed moves at random",
                bot.name
            ),
        )?,
    }
    Ok(())
}

fn start(bot: &mut Bot, session: &mut Session, text: &[u8]) {
    let start: StartIn = serde_json::from_slice(text).unwrap_or_default();
    // Seats bidding at once must not all draw the same: the seat is mixed in.
    let salt = session.other.as_ref().map_or(0, legal::Listed::salt);
    bot.new_round(start.seed.unwrap_or(0) ^ salt);
    if let Some(b) = session.game_bot.as_deref_mut() {
        b.new_round();
    }
    if let Some(colours) = start.colours.filter(|c| !c.is_empty()) {
        session.players = colours.len();
    }
    session.last = None;
    session.note_bytes_left = NOTE_BYTES;
}

fn turn<W: Write>(
    bot: &mut Bot,
    session: &mut Session,
    text: &[u8],
    out: &mut W,
) -> io::Result<()> {
    session.last = None;
    let turn = match serde_json::from_slice::<TurnIn>(text) {
        Ok(t) => t,
        Err(e) => {
            // Answer from the arbiter's list if it can be read, so the seat plays on.
            let loose: TurnLoose = serde_json::from_slice(text).unwrap_or_default();
            session.log(out, format_args!("could not read the turn: {e}"))?;
            let legal = loose.legal.map_or(0, |l| l.0);
            if legal != 0 {
                let sq = random_square(legal, &mut bot.rng);
                write_move(out, sq, loose.turn_id)?;
            }
            return Ok(());
        }
    };
    let pos = match turn.state.to_position(session.players) {
        Ok(p) => p,
        Err(e) => {
            session.log(out, format_args!("could not read the state: {e}"))?;
            let legal = turn.legal.map_or(0, |l| l.0);
            if legal != 0 {
                let sq = random_square(legal, &mut bot.rng);
                write_move(out, sq, turn.turn_id)?;
            }
            return Ok(());
        }
    };
    let listed = turn.legal.map_or(0, |l| l.0) & pos.empty();
    let legal = if listed != 0 {
        listed
    } else {
        pos.legal_moves()
    };
    if legal == 0 {
        return session.log(out, format_args!("a move was asked for a full board"));
    }
    let mut note = String::new();
    let sq = bot.choose_timed(&pos, legal, turn.time_ms, &mut note);
    session.note(out, &note)?;
    session.last = Some(LastTurn {
        pos,
        legal,
        turn_id: turn.turn_id,
        tried: sq.bit(),
    });
    write_move(out, sq, turn.turn_id)
}

fn illegal<W: Write>(
    bot: &mut Bot,
    session: &mut Session,
    text: &[u8],
    out: &mut W,
) -> io::Result<()> {
    let Some(last) = &mut session.last else {
        return session.log(out, format_args!("`illegal` came before any `turn`"));
    };
    let refused: IllegalIn = serde_json::from_slice(text).unwrap_or_default();
    // Another move, computed from the last state: untried legal moves first, then untried
    // listed ones, then anything legal again (the arbiter and the engine disagree).
    let computed = last.pos.legal_moves();
    let mut candidates = computed & !last.tried;
    if candidates == 0 {
        candidates = last.legal & !last.tried;
    }
    if candidates == 0 {
        candidates = computed;
    }
    let mut note = String::new();
    let sq = bot.choose_timed(&last.pos, candidates, refused.time_ms, &mut note);
    last.tried |= sq.bit();
    let turn_id = refused.turn_id.or(last.turn_id);
    write_move(out, sq, turn_id)
}

/// Writes `{"type":"move","move":"d3","turn_id":N}` and flushes, without allocating.
fn write_move<W: Write>(out: &mut W, sq: Square, turn_id: Option<u64>) -> io::Result<()> {
    match turn_id {
        Some(id) => writeln!(out, r#"{{"type":"move","move":"{sq}","turn_id":{id}}}"#)?,
        None => writeln!(out, r#"{{"type":"move","move":"{sq}"}}"#)?,
    }
    out.flush()
}

// The incoming messages, read as far as the bot needs them. Unknown fields are skipped
// without being built; field types follow `crate::arbiter::protocol`.

#[derive(Deserialize)]
struct Kind<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct HelloIn {
    game: Option<String>,
    seat: Option<u64>,
    options: Option<RolitOptions>,
    seats: Option<Vec<IgnoredAny>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RolitOptions {
    players: Option<usize>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct StartIn {
    seed: Option<u64>,
    colours: Option<Vec<IgnoredAny>>,
}

#[derive(Deserialize)]
struct TurnIn {
    #[serde(default)]
    turn_id: Option<u64>,
    #[serde(default)]
    time_ms: Option<u64>,
    state: State,
    #[serde(default)]
    legal: Option<SquareSet>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct TurnLoose {
    turn_id: Option<u64>,
    legal: Option<SquareSet>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct IllegalIn {
    turn_id: Option<u64>,
    time_ms: Option<u64>,
}

/// A list of square names read straight into a bitboard (names that are not squares are
/// skipped; the caller masks the result with the board).
struct SquareSet(u64);

impl<'de> Deserialize<'de> for SquareSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct SetVisitor;
        impl<'de> Visitor<'de> for SetVisitor {
            type Value = SquareSet;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of squares")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SquareSet, A::Error> {
                let mut bits = 0;
                while let Some(name) = seq.next_element::<SquareName>()? {
                    if let Some(sq) = name.0 {
                        bits |= sq.bit();
                    }
                }
                Ok(SquareSet(bits))
            }
        }
        d.deserialize_seq(SetVisitor)
    }
}

struct SquareName(Option<Square>);

impl<'de> Deserialize<'de> for SquareName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct NameVisitor;
        impl Visitor<'_> for NameVisitor {
            type Value = SquareName;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a square name")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<SquareName, E> {
                Ok(SquareName(Square::parse(s, 8).ok()))
            }
        }
        d.deserialize_str(NameVisitor)
    }
}

/// The best-scoring candidate move so far, ties broken uniformly at random without storing
/// them (reservoir sampling: each of k tied candidates is kept with probability 1/k). Shared by
/// the bots that rank moves.
pub(crate) struct Best<T> {
    score: Option<T>,
    ties: u32,
    choice: Square,
}

impl<T: PartialOrd + Copy> Best<T> {
    /// Nothing offered yet; `fallback` is the answer if nothing ever is.
    pub(crate) fn new(fallback: Square) -> Self {
        Best {
            score: None,
            ties: 0,
            choice: fallback,
        }
    }

    /// Considers a candidate.
    pub(crate) fn offer(&mut self, score: T, sq: Square, rng: &mut ChaCha8Rng) {
        match self.score {
            Some(best) if score < best => {}
            Some(best) if score == best => {
                self.ties += 1;
                if rng.random_range(0..self.ties) == 0 {
                    self.choice = sq;
                }
            }
            _ => {
                self.score = Some(score);
                self.ties = 1;
                self.choice = sq;
            }
        }
    }

    /// The best score so far.
    pub(crate) fn score(&self) -> Option<T> {
        self.score
    }

    /// The chosen move.
    pub(crate) fn choice(&self) -> Square {
        self.choice
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeMap;

    use serde_json::{Value, json};

    use super::*;
    use crate::arbiter::protocol::{
        Bye, End, Hello, Illegal, Incoming, Move, Played, Start, ToBot, Turn, parse_line, to_line,
    };
    use crate::game::rolit::{Colour, bitboard::Squares};

    /// A position from rows (highest rank first), the colour to move and the colours in play.
    pub(crate) fn position(rows: &[&str], to_move: &str, colours: &[&str]) -> Position {
        State {
            board: rows.iter().map(|r| r.to_string()).collect(),
            to_move: to_move.into(),
            ply: 1,
            colours: colours.iter().map(|c| c.to_string()).collect(),
        }
        .to_position(colours.len())
        .unwrap()
    }

    pub(crate) fn hello(size: u8, players: usize) -> ToBot {
        ToBot::Hello(Hello {
            protocol: 1,
            game: "rolit".into(),
            options: json!({"size": size, "players": players}),
            seat: 0,
            seats: (0..players).map(|i| format!("bot{i}")).collect(),
            rounds: 1,
            startup_ms: 10_000,
            move_ms: 60_000,
        })
    }

    pub(crate) fn start(seed: u64, pos: &Position) -> ToBot {
        ToBot::Start(Start {
            round: 1,
            colour: Some(pos.to_move().name().into()),
            colours: Some(pos.colours().iter().map(|c| c.name().into()).collect()),
            first: 0,
            seed,
            state: serde_json::to_value(State::of(pos)).unwrap(),
        })
    }

    pub(crate) fn turn(turn_id: u64, pos: &Position, with_legal: bool) -> ToBot {
        ToBot::Turn(Turn {
            turn_id,
            state: serde_json::to_value(State::of(pos)).unwrap(),
            legal: with_legal.then(|| {
                Squares(pos.legal_moves())
                    .map(|s| Value::String(Square(s).to_string()))
                    .collect()
            }),
            time_ms: 60_000,
        })
    }

    fn bye() -> ToBot {
        ToBot::Bye(Bye { standings: vec![] })
    }

    /// Runs `serve` on the messages (plus raw lines) and returns the answers, parsed.
    pub(crate) fn run(bot: &mut Bot, input: &[u8]) -> Vec<FromBot> {
        let mut out = Vec::new();
        serve(bot, input, &mut out).unwrap();
        out.split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| match parse_line(l) {
                Ok(Incoming::Message(m)) => m,
                other => panic!("bad answer {:?}: {other:?}", String::from_utf8_lossy(l)),
            })
            .collect()
    }

    pub(crate) fn lines(msgs: &[ToBot]) -> Vec<u8> {
        msgs.iter().flat_map(to_line).collect()
    }

    fn moves(answers: &[FromBot]) -> Vec<(String, Option<u64>)> {
        answers
            .iter()
            .filter_map(|a| match a {
                FromBot::Move(Move { mv, turn_id }) => {
                    Some((mv.as_str().unwrap().to_string(), *turn_id))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_scripted_match_gets_well_formed_legal_answers() {
        // The searching bots think for the turn's minute and add a `log` line a move: they
        // have their own tests (tests/bots_strength).
        for name in ["random", "greedy", "positional"] {
            let mut bot = Bot::by_name(name, Options::default(), 2).unwrap();
            let pos = Position::start(8, 2, Colour::Red).unwrap();
            let legal = pos.legal_moves();
            let mut after = pos;
            after.play_unchecked(Square(legal.trailing_zeros() as u8));
            let mut input = lines(&[
                hello(8, 2),
                start(42, &pos),
                turn(1, &pos, true),
                ToBot::Illegal(Illegal {
                    turn_id: 1,
                    reason: "test".into(),
                    retries_left: 2,
                    time_ms: 1000,
                }),
                ToBot::Played(Played {
                    seat: 0,
                    colour: Some("red".into()),
                    mv: "c4".into(),
                    effects: BTreeMap::new(),
                    by_arbiter: false,
                }),
            ]);
            // Lines the bot must skip: an unknown type with unknown fields, blank lines.
            input.extend_from_slice(b"{\"type\":\"gossip\",\"about\":{\"x\":[1,2]}}\n\n \n");
            input.extend(lines(&[
                turn(3, &after, false),
                ToBot::End(End {
                    round: 1,
                    scores: BTreeMap::new(),
                    points: vec![1, 2],
                    ranks: vec![2, 1],
                    winners: vec![1],
                    forfeits: vec![],
                }),
                bye(),
                turn(4, &after, true),
            ]));
            let answers = run(&mut bot, &input);
            let FromBot::Ready(ready) = &answers[0] else {
                panic!("{answers:?}")
            };
            assert_eq!(ready.name, *name);
            assert_eq!(ready.version, env!("CARGO_PKG_VERSION"));
            assert_eq!(ready.author.as_deref(), Some("rollarena"));
            let moves = moves(&answers);
            assert_eq!(answers.len(), 4, "{answers:?}");
            assert_eq!(moves.len(), 3, "nothing after bye: {answers:?}");
            let sq = |s: &str| Square::parse(s, 8).unwrap().bit();
            assert_eq!(moves[0].1, Some(1));
            assert_ne!(sq(&moves[0].0) & legal, 0);
            assert_eq!(moves[1].1, Some(1));
            assert_ne!(sq(&moves[1].0) & legal, 0);
            assert_ne!(moves[1].0, moves[0].0, "another move after `illegal`");
            assert_eq!(moves[2].1, Some(3));
            assert_ne!(sq(&moves[2].0) & after.legal_moves(), 0);
        }
    }

    #[test]
    fn serve_returns_on_bye_and_at_eof() {
        let mut bot = Bot::by_name("random", Options::default(), 1).unwrap();
        assert!(run(&mut bot, b"").is_empty());
        let answers = run(&mut bot, &lines(&[hello(8, 4)]));
        assert_eq!(answers.len(), 1);
        let pos = Position::start(8, 4, Colour::Blue).unwrap();
        let answers = run(&mut bot, &lines(&[bye(), turn(1, &pos, true)]));
        assert!(answers.is_empty());
        // No trailing newline on the last line.
        let mut input = lines(&[hello(8, 4), turn(7, &pos, true)]);
        input.pop();
        assert_eq!(moves(&run(&mut bot, &input)).len(), 1);
    }

    #[test]
    fn states_without_colours_use_the_player_count() {
        // 4 players: blue moves; 2 players would refuse blue as the colour to move.
        let pos = Position::start(6, 4, Colour::Blue).unwrap();
        let Ok(Value::Object(mut t)) = serde_json::to_value(turn(5, &pos, false)) else {
            panic!()
        };
        t["state"].as_object_mut().unwrap().remove("colours");
        let mut input = lines(&[hello(6, 4)]);
        input.extend(serde_json::to_vec(&t).unwrap());
        input.push(b'\n');
        let mut bot = Bot::by_name("greedy", Options::default(), 1).unwrap();
        let answers = run(&mut bot, &input);
        let moves = moves(&answers);
        assert_eq!(moves.len(), 1, "{answers:?}");
        let sq = Square::parse(&moves[0].0, 6).unwrap();
        assert_ne!(sq.bit() & pos.legal_moves(), 0);
    }

    #[test]
    fn unusable_lines_are_logged_not_fatal() {
        let pos = Position::start(8, 2, Colour::Red).unwrap();
        let mut input =
            b"not json\n{\"type\":\"turn\",\"turn_id\":1,\"state\":3,\"legal\":[\"c4\"]}\n"
                .to_vec();
        input.extend(lines(&[
            ToBot::Illegal(Illegal {
                turn_id: 1,
                reason: "r".into(),
                retries_left: 0,
                time_ms: 1,
            }),
            turn(2, &pos, true),
        ]));
        let mut bot = Bot::by_name("positional", Options::default(), 3).unwrap();
        let answers = run(&mut bot, &input);
        let logs = answers
            .iter()
            .filter(|a| matches!(a, FromBot::Log(_)))
            .count();
        assert_eq!(logs, 3, "{answers:?}");
        let moves = moves(&answers);
        assert_eq!(moves.len(), 2, "{answers:?}");
        assert_eq!(moves[0], ("c4".to_string(), Some(1)));
        assert_eq!(moves[1].1, Some(2));
    }

    /// The moves a bot answers to the start position of several rounds with seeds 0, 1, ...
    fn opening_moves(name: &str, options: Options, rounds: u64) -> Vec<String> {
        let pos = Position::start(8, 4, Colour::Red).unwrap();
        let mut msgs = vec![hello(8, 4)];
        for r in 0..rounds {
            msgs.push(start(r, &pos));
            msgs.push(turn(r, &pos, true));
        }
        let mut bot = Bot::by_name(name, options, 1).unwrap();
        moves(&run(&mut bot, &lines(&msgs)))
            .into_iter()
            .map(|m| m.0)
            .collect()
    }

    #[test]
    fn same_seeds_same_moves_other_seeds_other_moves() {
        for name in ["random", "greedy"] {
            let seeded = |seed| Options { seed, noise: 0.0 };
            let a = opening_moves(name, seeded(1), 24);
            assert_eq!(a, opening_moves(name, seeded(1), 24));
            assert_ne!(a, opening_moves(name, seeded(2), 24), "{name}");
            // Round seeds matter too: not every round opens the same way.
            assert!(a.iter().any(|m| *m != a[0]), "{name}: {a:?}");
        }
    }

    /// Plays a whole round between bots (one per colour), checking every move is legal.
    pub(crate) fn play_round(bots: &mut [Bot], mut pos: Position) -> Position {
        for b in bots.iter_mut() {
            b.new_round(9);
        }
        let k = bots.len();
        while !pos.is_over() {
            let legal = pos.legal_moves();
            let i = pos
                .colours()
                .iter()
                .position(|&c| c == pos.to_move())
                .unwrap();
            let sq = bots[i % k].choose(&pos, legal);
            assert_ne!(sq.bit() & legal, 0, "{sq} is not legal");
            pos.play(sq).unwrap();
        }
        pos
    }

    #[test]
    fn every_bot_plays_legal_rounds_on_every_board() {
        for (size, players) in [(8, 4), (8, 3), (8, 2), (6, 4), (6, 3), (6, 2), (4, 2)] {
            let mut bots: Vec<Bot> = (0..players)
                .map(|i| {
                    let options = Options {
                        seed: i as u64,
                        noise: 0.1,
                    };
                    Bot::by_name(NAMES[i % 3], options, 1 + i as u32 % 3).unwrap()
                })
                .collect();
            let pos = Position::start(size, players, Colour::Red).unwrap();
            let end = play_round(&mut bots, pos);
            assert_eq!(end.empty(), 0);
        }
    }

    #[test]
    fn noise_one_is_random_play() {
        let all = Options {
            seed: 5,
            noise: 1.0,
        };
        let a = opening_moves("greedy", all, 24);
        assert_eq!(a, opening_moves("random", all, 24));
    }
}
