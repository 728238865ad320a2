//! The protocol loop of every built-in bot. The match's first line (`hello`) names the game;
//! the game's bot of the requested name then either takes the whole match (a [`ServeBot`](crate::game::bot::ServeBot),
//! built here from the settings) or is asked one request at a time (a [`GameBot`], built at
//! `hello`) while this loop does the rest: `ready`, reseeding at `start`, `--noise`, answering
//! `illegal` with another listed move, `log` lines. `random`, and a bot the game does not
//! have, choose uniformly among the listed moves, or are the game's own `random` when it lists
//! one (see [`RANDOM`]).
//!
//! Lines before `hello` are read as the default game's (the first in the registry).

use std::borrow::Cow;
use std::io::{self, BufRead, Cursor, Read, Write};

use serde::Deserialize;

use super::legal::Listed;
use super::{Logs, Options, round_rng};
use crate::game::bot::{BotSettings, Build, GameBot, RANDOM};
use crate::game::registry;
use crate::wire::{FromBot, Ready};

/// Plays a match as the built-in bot `name` (`rollarena bot NAME`): reads the arbiter's lines
/// from `input` and answers on `output`, flushing after every line, until `bye` or the end of
/// the input. Only I/O errors are errors; a line the bot cannot use is skipped (with a `log`
/// line when it should have been usable).
pub fn serve<R: BufRead, W: Write>(
    name: &'static str,
    options: Options,
    settings: BotSettings,
    mut input: R,
    mut output: W,
) -> io::Result<()> {
    let mut first = Vec::with_capacity(4096);
    loop {
        first.clear();
        if input.read_until(b'\n', &mut first)? == 0 {
            return output.flush();
        }
        if !first.trim_ascii().is_empty() {
            break;
        }
    }
    let hello: HelloIn = serde_json::from_slice(first.trim_ascii()).unwrap_or_default();
    let game = hello
        .game
        .filter(|_| hello.kind.as_deref() == Some("hello"))
        .map_or(registry::GAMES[0].name.to_string(), Cow::into_owned);
    let entry = registry::find(&game).ok();
    let find = |n: &str| entry.and_then(|e| e.bots.iter().find(|b| b.name == n));
    let mut why_random = None;
    let own = match find(name) {
        Some(b) => Some(b),
        None if name == RANDOM => None,
        None => {
            why_random = Some(format!(
                "{name} does not play {game}: it chooses among the legal moves at random"
            ));
            // The game's own `random`, if it has one, stands in.
            find(RANDOM)
        }
    };
    let mut game_bot = None;
    match own.map(|b| b.build) {
        Some(Build::Serve(build)) => match build(&settings, options) {
            Ok(mut bot) => {
                if let Some(why) = why_random {
                    bot.stand_in(name, why);
                }
                let mut whole = Cursor::new(first).chain(input);
                return bot.serve(&mut whole, &mut output);
            }
            Err(e) => {
                why_random = Some(format!("{name}: {e}; it plays the listed moves at random"))
            }
        },
        Some(Build::Request(build)) if why_random.is_none() => match build(&settings) {
            Ok(bot) => game_bot = Some(bot),
            Err(e) => {
                why_random = Some(format!("{name}: {e}; it plays the listed moves at random"))
            }
        },
        Some(Build::Request(_)) | None => {}
    }
    let mut bot = Listing {
        name,
        options,
        game_bot,
        why_random,
        listed: Listed::for_seat(0),
        rng: round_rng(0, options.seed),
        logs: Logs::default(),
    };
    let mut whole = Cursor::new(first).chain(input);
    bot.serve(&mut whole, &mut output)
}

/// A bot answering from the listed moves.
struct Listing {
    name: &'static str,
    options: Options,
    game_bot: Option<Box<dyn GameBot>>,
    /// Why the bot plays at random, said in a `log` line after `ready`.
    why_random: Option<String>,
    listed: Listed,
    rng: rand_chacha::ChaCha8Rng,
    logs: Logs,
}

impl Listing {
    fn serve(&mut self, input: &mut impl BufRead, out: &mut impl Write) -> io::Result<()> {
        let mut line = Vec::with_capacity(4096);
        loop {
            line.clear();
            if input.read_until(b'\n', &mut line)? == 0 {
                return out.flush();
            }
            let text = line.trim_ascii();
            if text.is_empty() {
                continue;
            }
            let kind = match serde_json::from_slice::<Kind>(text) {
                Ok(k) => k.kind,
                Err(e) => {
                    let e = format_args!("ignored a line that is not a message: {e}");
                    self.logs.log(out, e)?;
                    continue;
                }
            };
            match &*kind {
                "hello" => self.hello(text, out)?,
                "start" => self.start(text),
                "turn" => self.turn(text, out)?,
                "illegal" => self.illegal(out)?,
                "bye" => return out.flush(),
                // `played`, `end` and types this bot does not know.
                _ => {}
            }
        }
    }

    fn hello(&mut self, text: &[u8], out: &mut impl Write) -> io::Result<()> {
        // Always answer `ready`, whatever the other fields hold.
        let hello: HelloIn = serde_json::from_slice(text).unwrap_or_default();
        self.listed = Listed::for_seat(hello.seat.unwrap_or(0));
        let ready = FromBot::Ready(Ready {
            name: self.name.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            author: Some("rollarena".to_string()),
        });
        serde_json::to_writer(&mut *out, &ready)?;
        out.write_all(b"\n")?;
        out.flush()?;
        if let Some(why) = &self.why_random {
            self.logs.log(out, format_args!("{why}"))?;
        }
        Ok(())
    }

    fn start(&mut self, text: &[u8]) {
        let start: StartIn = serde_json::from_slice(text).unwrap_or_default();
        // Seats acting at once must not all draw the same: the seat is mixed in.
        let seed = start.seed.unwrap_or(0) ^ self.listed.salt();
        self.rng = round_rng(seed, self.options.seed);
        if let Some(b) = self.game_bot.as_deref_mut() {
            b.new_round();
        }
        self.logs.new_round();
    }

    fn illegal(&mut self, out: &mut impl Write) -> io::Result<()> {
        if !self.listed.next(&mut self.rng, out)? {
            let e = format_args!("no listed move left to choose");
            self.logs.log(out, e)?;
        }
        Ok(())
    }

    fn turn(&mut self, text: &[u8], out: &mut impl Write) -> io::Result<()> {
        let noise = self.options.noise;
        let bot = self.game_bot.as_deref_mut();
        let answered = self.listed.turn(text, bot, noise, &mut self.rng, out)?;
        if let Some(e) = &answered.error {
            let e = format_args!("{}: {e}; played a listed move at random", self.name);
            self.logs.log(out, e)?;
        }
        self.logs.note(out, &answered.note)?;
        if !answered.sent {
            self.logs
                .log(out, format_args!("no listed move left to choose"))?;
        }
        out.flush()
    }
}

// The incoming messages, read as far as the loop needs them; unknown fields are skipped.

#[derive(Deserialize)]
struct Kind<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct HelloIn<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow)]
    game: Option<Cow<'a, str>>,
    seat: Option<u64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct StartIn {
    seed: Option<u64>,
}
