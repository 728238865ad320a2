//! Rolit's built-in bots (`rollarena bot greedy|positional|mcts|brs`), listed in its registry
//! entry ([`BOTS`]).
//!
//! This module owns:
//!
//! - the [`Strategy`] trait: choose a move in a Rolit position, plain and synchronous, with the
//!   strategies [`Random`], [`Greedy`], [`Positional`], [`Mcts`] and [`Brs`];
//! - [`Bot`]: a strategy plus what every built-in bot shares, the `--seed` and `--noise`
//!   options and the random number generator ([`crate::bots::round_rng`], reseeded at every
//!   `start`, so a match replays exactly);
//! - [`serve()`]: Rolit's own protocol loop, which the shared loop (`crates/games/src/bots/`) hands a Rolit
//!   match to. It is written for speed because the arbiter's benchmarks use these bots: one
//!   reused line buffer, a two-step parse (first the `type` alone, then only the fields the bot
//!   needs, borrowing from the line, into bitboards) instead of buffering every message into a
//!   `serde_json::Value`, and answers written straight into a buffered writer that is flushed
//!   after every line. Messages a bot does not need (`played`, `end`, unknown types) cost one
//!   scan of the line.

pub mod arena;
pub mod brs;
pub mod estimate;
pub mod eval;
pub mod greedy;
#[cfg(test)]
mod loop_tests;
pub mod mcts;
pub mod positional;
pub mod random;
pub mod serve;

use std::fmt;
use std::io::{self, BufRead, Write};

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::bots::round_rng;
pub use crate::game::bot::Options;
use crate::game::bot::{BotFlag, BotSettings, Build, BuiltinBot, RANDOM, ServeBot};
use crate::game::rolit::{Position, Square};

pub use brs::Brs;
pub use greedy::Greedy;
pub use mcts::Mcts;
pub use positional::Positional;
pub use random::{Random, random_square};
pub use serve::serve;

/// The strategies' names, as [`Bot::by_name`] takes them (`random` included).
pub const NAMES: &[&str] = &["random", "greedy", "positional", "mcts", "brs"];

/// The deepest search `positional` accepts (`--depth`).
pub const MAX_DEPTH: u32 = 6;

/// The bots of the registry entry, each served by [`serve()`]. Rolit's own `random` replaces
/// the shared one: it computes the legal moves when the match hides them (`--hide-legal`), and
/// stands in for the other games' bots.
pub const BOTS: &[BuiltinBot] = &[
    BuiltinBot {
        name: RANDOM,
        help: "a legal move, uniformly at random.",
        flags: &[],
        build: Build::Serve(build_random),
    },
    BuiltinBot {
        name: "greedy",
        help: "the move that turns the most balls; ties broken at random.",
        flags: &[],
        build: Build::Serve(build_greedy),
    },
    BuiltinBot {
        name: "positional",
        help: "weighs squares by their tactical level (corners very strong, other edge \
               squares strong, the middle medium, edge squares next to a corner weak, squares \
               diagonally next to a corner very weak) plus the balls turned; with --depth D > 1 \
               (up to 6) it looks D moves ahead, assuming every other player plays against it \
               (paranoid alpha-beta search).",
        flags: &[BotFlag::Depth],
        build: Build::Serve(build_positional),
    },
    BuiltinBot {
        name: "mcts",
        help: "multi-player Monte-Carlo tree search (max^n backups, progressive history, a \
               solver near the end, tree reuse; with two players, brs's evaluation after a \
               one-ply search at the leaves instead of playouts, and the exact endgame \
               solver's move once the position is within its frontier for half the move's \
               time); thinks for about 85% of the \
               turn's time_ms less 50 ms. --movetime MS caps that, --playouts N stops after \
               N simulations (with a fixed --seed: the same moves every time). The strongest \
               bot, with two players as with three or four.",
        flags: &[BotFlag::Movetime, BotFlag::Playouts],
        build: Build::Serve(build_mcts),
    },
    BuiltinBot {
        name: "brs",
        help: "Best-Reply Search (BRS+) on an evaluation of corners, stable edges, mobility and \
               balls by phase; iterative deepening against the clock, or --depth D layers \
               (reproducible); --movetime MS caps the time; with two players, the exact \
               endgame solver's move near the end. Second to mcts with two players, \
               fast and deterministic.",
        flags: &[BotFlag::Depth, BotFlag::Movetime],
        build: Build::Serve(build_brs),
    },
];

fn build_random(_: &BotSettings, options: Options) -> Result<Box<dyn ServeBot>, crate::Error> {
    Ok(Box::new(Bot::new(Box::new(Random), options)))
}

fn build_greedy(_: &BotSettings, options: Options) -> Result<Box<dyn ServeBot>, crate::Error> {
    Ok(Box::new(Bot::new(Box::new(Greedy), options)))
}

fn build_positional(
    settings: &BotSettings,
    options: Options,
) -> Result<Box<dyn ServeBot>, crate::Error> {
    let depth = settings.depth.unwrap_or(1);
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(crate::Error::BotSettings(format!(
            "--depth {depth}: the positional bot searches 1 to {MAX_DEPTH} plies"
        )));
    }
    Ok(Box::new(Bot::new(
        Box::new(Positional::new(depth)),
        options,
    )))
}

fn build_mcts(settings: &BotSettings, options: Options) -> Result<Box<dyn ServeBot>, crate::Error> {
    settings.search_limits()?;
    let config = mcts::Config {
        movetime: settings.movetime,
        playouts: settings.playouts,
        ..mcts::Config::default()
    };
    Ok(Box::new(Bot::new(Box::new(Mcts::new(config)), options)))
}

fn build_brs(settings: &BotSettings, options: Options) -> Result<Box<dyn ServeBot>, crate::Error> {
    if let Some(d) = settings.depth
        && !(1..=brs::MAX_LAYERS).contains(&d)
    {
        return Err(crate::Error::BotSettings(format!(
            "--depth {d}: the brs bot searches 1 to {} layers",
            brs::MAX_LAYERS
        )));
    }
    if settings.movetime.is_some_and(|m| m.is_zero()) {
        return Err(crate::Error::BotSettings("--movetime: at least 1".into()));
    }
    let config = brs::Config {
        depth: settings.depth,
        movetime: settings.movetime,
        ..brs::Config::default()
    };
    Ok(Box::new(Bot::new(Box::new(Brs::new(config)), options)))
}

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

/// A strategy with its options and its random number generator.
pub struct Bot {
    strategy: Box<dyn Strategy>,
    options: Options,
    rng: ChaCha8Rng,
    /// The name it gives in `ready` and the `log` line after it, when it stands in for a bot
    /// Rolit does not have (see [`ServeBot::stand_in`]).
    stand_in: Option<(&'static str, String)>,
}

impl fmt::Debug for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bot")
            .field("name", &self.strategy.name())
            .field("options", &self.options)
            .finish()
    }
}

impl ServeBot for Bot {
    fn serve(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
        serve(self, input, out)
    }

    fn stand_in(&mut self, name: &'static str, why: String) {
        self.stand_in = Some((name, why));
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
            strategy,
            options,
            stand_in: None,
        }
    }

    /// A strategy by name (see [`NAMES`]); `depth` is for `positional` and `brs` (the
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

    /// The name it gives in `ready`.
    pub fn name(&self) -> &'static str {
        self.stand_in.as_ref().map_or(self.strategy.name(), |s| s.0)
    }

    /// The `log` line it sends after `ready`, if any.
    pub(crate) fn greeting(&self) -> Option<&str> {
        self.stand_in.as_ref().map(|s| s.1.as_str())
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

    /// The generator, for a random move when the position cannot be read.
    pub(crate) fn rng(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
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
    use crate::game::rolit::{Colour, State, bitboard::Squares};
    use crate::wire::{
        Bye, End, FromBot, Hello, Illegal, Incoming, Move, Played, Start, ToBot, Turn, parse_line,
        to_line,
    };

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
            bank_ms: None,
            increment_ms: None,
            first_move_ms: None,
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
                    .map(|s| Value::String(Square(s).name()))
                    .collect()
            }),
            time_ms: 60_000,
            bank_ms: None,
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
                    bank_ms: None,
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
                bank_ms: None,
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
