//! Rolit's protocol loop: the shared loop (`crates/games/src/bots/`) hands it a Rolit match from its first
//! line on. Written for speed (see the [module](super) header): lines are read into one reused
//! buffer, parsed in two steps straight into bitboards, and moves written without allocating.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead, Write};

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};

use super::{Bot, random_square};
use crate::bots::Logs;
use crate::game::rolit::{Position, Square, State};
use crate::wire::{FromBot, Ready};

/// What the bot remembers of the match.
struct Session {
    /// Colours in play when a state does not list them: `hello.options.players`, else the
    /// number of seats.
    players: usize,
    /// The last `turn` answered, for `illegal`.
    last: Option<LastTurn>,
    logs: Logs,
}

struct LastTurn {
    pos: Position,
    /// The moves the arbiter listed (or the computed ones).
    legal: u64,
    turn_id: Option<u64>,
    /// Squares already sent for this turn.
    tried: u64,
}

/// Plays a Rolit match: reads the arbiter's lines from `input` and answers on `output`,
/// flushing after every line, until `bye` or the end of the input. Only I/O errors are errors;
/// a line the bot cannot use is skipped (with a `log` line when it should have been usable).
pub fn serve<R: BufRead, W: Write>(bot: &mut Bot, mut input: R, mut output: W) -> io::Result<()> {
    let mut session = Session {
        players: 2,
        last: None,
        logs: Logs::default(),
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
                session.logs.log(
                    &mut output,
                    format_args!("ignored a line that is not a message: {e}"),
                )?;
                continue;
            }
        };
        match &*kind {
            "hello" => hello(bot, &mut session, text, &mut output)?,
            "start" => start(bot, &mut session, text),
            "turn" => turn(bot, &mut session, text, &mut output)?,
            "illegal" => illegal(bot, &mut session, text, &mut output)?,
            "bye" => return output.flush(),
            // `played`, `end` and types this bot does not know.
            _ => {}
        }
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
    match bot.greeting() {
        Some(why) => session.logs.log(out, format_args!("{why}")),
        None => Ok(()),
    }
}

fn start(bot: &mut Bot, session: &mut Session, text: &[u8]) {
    let start: StartIn = serde_json::from_slice(text).unwrap_or_default();
    bot.new_round(start.seed.unwrap_or(0));
    if let Some(colours) = start.colours.filter(|c| !c.is_empty()) {
        session.players = colours.len();
    }
    session.last = None;
    session.logs.new_round();
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
            session
                .logs
                .log(out, format_args!("could not read the turn: {e}"))?;
            let legal = loose.legal.map_or(0, |l| l.0);
            if legal != 0 {
                let sq = random_square(legal, bot.rng());
                write_move(out, sq, loose.turn_id)?;
            }
            return Ok(());
        }
    };
    let pos = match turn.state.to_position(session.players) {
        Ok(p) => p,
        Err(e) => {
            session
                .logs
                .log(out, format_args!("could not read the state: {e}"))?;
            let legal = turn.legal.map_or(0, |l| l.0);
            if legal != 0 {
                let sq = random_square(legal, bot.rng());
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
        return session
            .logs
            .log(out, format_args!("a move was asked for a full board"));
    }
    let mut note = String::new();
    let time_ms = crate::clock::plan_ms(turn.time_ms, turn.bank_ms);
    let sq = bot.choose_timed(&pos, legal, time_ms, &mut note);
    session.logs.note(out, &note)?;
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
        return session
            .logs
            .log(out, format_args!("`illegal` came before any `turn`"));
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
    let time_ms = crate::clock::plan_ms(refused.time_ms, refused.bank_ms);
    let sq = bot.choose_timed(&last.pos, candidates, time_ms, &mut note);
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
// without being built; field types follow `crate::wire`.

#[derive(Deserialize)]
struct Kind<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct HelloIn {
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
    /// What is left of the bot's time bank (matches with one).
    #[serde(default)]
    bank_ms: Option<u64>,
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
    bank_ms: Option<u64>,
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
