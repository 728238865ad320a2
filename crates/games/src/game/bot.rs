//! Built-in bots at the game boundary: what a game's own bots look like to `rollarena bot`.
//!
//! A game lists its built-in bots in its registry entry ([`super::registry::Entry::bots`]),
//! each a [`BuiltinBot`]: a name, one line of help, the flags it takes and how to build it.
//! A built bot is a [`GameBot`]: it answers one request from the request alone (the seat's
//! `state` and the `legal` list, with the request's `time_ms`), drawing its random choices
//! from the generator it is handed, so a match replays exactly and the bot's code lives in
//! its game's folder. The protocol loop (`crates/games/src/bots/`) does everything else: `hello`, seeds,
//! `illegal`, `--noise`, logs. A bot that needs the whole conversation instead (a loop written
//! for speed, or a game whose requests are not all `turn`s) is a [`ServeBot`]: the loop hands
//! it the match from its first line on.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// One request as a game bot sees it.
#[derive(Clone, Copy, Debug)]
pub struct BotRequest<'a> {
    /// The bot's seat (from `hello`).
    pub seat: usize,
    /// The request's `state`: the position as this seat may see it.
    pub state: &'a Value,
    /// The request's `legal` list, never empty.
    pub legal: &'a [Value],
    /// The time to plan for this answer, when the arbiter says: its `time_ms`, or with a time
    /// bank a share of what is left ([`crate::clock::plan_ms`]).
    pub time_ms: Option<u64>,
}

/// A game's built-in bot, answering requests with one of their legal moves.
pub trait GameBot {
    /// Chooses one of `req.legal` (its index). Random choices come from `rng`. A bot may append
    /// one line for a `log` message to `note` (left empty: no message). An error (a state the
    /// bot cannot read) makes the loop log it and play a random legal move instead.
    fn choose(
        &mut self,
        req: &BotRequest<'_>,
        rng: &mut ChaCha8Rng,
        note: &mut String,
    ) -> Result<usize, Unreadable>;

    /// A round begins (a bot that keeps anything between requests drops it).
    fn new_round(&mut self) {}
}

/// Why a built-in bot cannot read a request (its state or its `legal` list does not add up):
/// the protocol loop logs the text and plays a random legal move instead. Not an error of the
/// match: the bot plays on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unreadable(pub String);

impl From<String> for Unreadable {
    fn from(why: String) -> Unreadable {
        Unreadable(why)
    }
}

impl From<&str> for Unreadable {
    fn from(why: &str) -> Unreadable {
        Unreadable(why.to_string())
    }
}

/// The options every built-in bot takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// `--seed N`: mixed with each round's seed to seed the bot's random choices.
    pub seed: u64,
    /// `--noise P`: probability (0 to 1) of playing a uniformly random legal move instead.
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

/// A built-in bot that speaks the protocol itself.
pub trait ServeBot {
    /// Plays a match: reads the arbiter's lines from `input` (from the first, normally
    /// `hello`) and answers on `out`, flushing after every line, until `bye` or the end of the
    /// input. Only I/O errors are errors.
    fn serve(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()>;

    /// This bot plays in place of the bot `name`, which the game does not have (only a game's
    /// own `random` is asked to): it gives `name` in `ready` and sends `why` in a `log` line
    /// after it. By default it keeps its own name and says nothing.
    fn stand_in(&mut self, name: &'static str, why: String) {
        let _ = (name, why);
    }
}

/// The options a built-in bot may take beyond `--seed` and `--noise` (which every bot takes).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BotSettings {
    /// `--depth D`.
    pub depth: Option<u32>,
    /// `--movetime MS`: think at most this long per answer.
    pub movetime: Option<Duration>,
    /// `--playouts N`: at most this many simulations per answer.
    pub playouts: Option<u64>,
    /// `--strength S`.
    pub strength: Option<u32>,
}

impl BotSettings {
    /// A searching bot's limits, `--movetime` and `--playouts`, are at least 1 when given: the
    /// one check every such bot's builder makes (the command line refuses 0 before, but bots
    /// are also built in-process).
    pub fn search_limits(&self) -> Result<(), crate::Error> {
        if self.playouts == Some(0) || self.movetime.is_some_and(|m| m.is_zero()) {
            return Err(crate::Error::BotSettings(
                "--movetime and --playouts: at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// A flag of `rollarena bot` beyond `--seed` and `--noise`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotFlag {
    Depth,
    Movetime,
    Playouts,
    Strength,
}

impl BotFlag {
    /// The flag as typed.
    pub fn flag(self) -> &'static str {
        match self {
            BotFlag::Depth => "--depth",
            BotFlag::Movetime => "--movetime",
            BotFlag::Playouts => "--playouts",
            BotFlag::Strength => "--strength",
        }
    }

    /// The flag's argument id (the flag without its dashes).
    pub fn id(self) -> &'static str {
        &self.flag()[2..]
    }

    /// Whether `settings` gives this flag.
    pub fn given(self, settings: &BotSettings) -> bool {
        match self {
            BotFlag::Depth => settings.depth.is_some(),
            BotFlag::Movetime => settings.movetime.is_some(),
            BotFlag::Playouts => settings.playouts.is_some(),
            BotFlag::Strength => settings.strength.is_some(),
        }
    }

    pub const ALL: [BotFlag; 4] = [
        BotFlag::Depth,
        BotFlag::Movetime,
        BotFlag::Playouts,
        BotFlag::Strength,
    ];
}

/// Builds a game bot from its settings; the error says which setting was wrong and how.
pub type BuildBot = fn(&BotSettings) -> Result<Box<dyn GameBot>, crate::Error>;

/// Builds a bot with its own protocol loop from its settings and options; the error says
/// which setting was wrong and how.
pub type BuildServe = fn(&BotSettings, Options) -> Result<Box<dyn ServeBot>, crate::Error>;

/// How a built-in bot is built.
#[derive(Clone, Copy, Debug)]
pub enum Build {
    /// A [`GameBot`], asked one request at a time by the shared protocol loop.
    Request(BuildBot),
    /// A [`ServeBot`], handed the whole match.
    Serve(BuildServe),
}

impl Build {
    /// The [`GameBot`] builder, if the bot is one.
    pub fn request(self) -> Option<BuildBot> {
        match self {
            Build::Request(b) => Some(b),
            Build::Serve(_) => None,
        }
    }
}

/// One built-in bot of a game, as listed in its registry entry.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinBot {
    /// The name `rollarena bot NAME` takes.
    pub name: &'static str,
    /// What it does, in a line or two (for `rollarena bot --help`).
    pub help: &'static str,
    /// The flags it takes beyond `--seed` and `--noise`.
    pub flags: &'static [BotFlag],
    /// How to build it. Building also checks the settings (`rollarena bot` does before it
    /// starts), so the limits of a bot's flags live with the bot.
    pub build: Build,
}

/// The bot every game has: a uniformly random move from `legal`; `rollarena bot random` plays
/// every game. An entry may list its own `random` (as a [`Build::Serve`]) to replace the shared
/// one, for example to play when the match hides `legal`: it then also stands in for the bots
/// the game does not have. The help lists never show it.
pub const RANDOM: &str = "random";

/// The CPU time the calling thread has used: what a built-in bot that searches on the
/// calling thread measures its budget by (load cannot inflate it), and what tests of its time
/// bound.
pub fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which lives for the call.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}
