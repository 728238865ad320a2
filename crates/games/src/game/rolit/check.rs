//! Rolit's scenarios for `rollarena check` (the entry's [`GameCheck`]), one per checklist
//! item, each on a fresh bot process. The check plays every seat but the bot's itself, with seeded random legal moves,
//! on the real Rolit engine, and tells the bot about every move with `played`, as the arbiter
//! does; only the scripts differ:
//!
//! | item | script |
//! |---|---|
//! | handshake | `hello` → `ready` within the start-up budget, with a name |
//! | turn | `start` with the bot moving first → `turn` → a legal `move` in time |
//! | colours | for each player count and each seat: one whole round in that seat, playing that seat's colour (each seat another colour, the first colour drawn) |
//! | illegal | the bot's first answer is refused on purpose; any legal answer passes; two more moves |
//! | played | the bot moves last: `played` for every other seat first (one by the arbiter), a pause, then its turn; it must not answer `played` nor die on it; two moves |
//! | rounds | one process, as many whole rounds as players, colours rotating as in a match |
//! | bank | a whole round on a time bank of three moves' time (`hello.bank_ms`, each `turn`'s `bank_ms` and `time_ms` from what is left): a bot that thinks for its whole `time_ms` every move runs out and forfeits on time |
//! | bye | a whole round, `end`, `bye` → the process exits with status 0 within the grace |
//!
//! Two more items are judged from everything the scenarios saw: no junk on stdout, and
//! answers flushed (every answer arrived, as a whole line).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use super::{Colour, Position, Rolit, RolitRound, Square};
use crate::check::conversation::{self, Seen, Verdict};
use crate::check::talk::{Answer, Problem, Talk};
use crate::check::{CheckConfig, GameCheck, Item, Running, Scenario, hints};
use crate::game::{Game, Round, Seat, ToAct};
use crate::seed::{mix, round_seed};
use crate::wire::{End, Hello, Played, Start, ToBot};

/// Rolit's checks.
pub struct RolitCheck;

/// The entry's checks.
pub static CHECK: RolitCheck = RolitCheck;

const TURN: Item = Item {
    id: "turn",
    title: "a legal answer to turn",
};
const COLOURS: Item = Item {
    id: "colours",
    title: "every colour and seat",
};
const ILLEGAL: Item = Item {
    id: "illegal",
    title: "a refusal sent on purpose",
};
const PLAYED: Item = Item {
    id: "played",
    title: "played messages for other seats",
};
const ROUNDS: Item = Item {
    id: "rounds",
    title: "several rounds",
};
const BANK: Item = Item {
    id: "bank",
    title: "a round on a time bank",
};

/// The scenarios, in the order they run.
const SCENARIOS: &[Scenario] = &[
    Scenario {
        item: Item::HANDSHAKE,
        requires: &[],
        script: "hello, then ready within the start-up budget, with a name",
    },
    Scenario {
        item: TURN,
        requires: &[Item::HANDSHAKE],
        script: "start with the bot moving first, turn, then a legal move in time",
    },
    Scenario {
        item: COLOURS,
        requires: &[Item::HANDSHAKE, TURN],
        script: "for each player count and seat, a whole round in that seat and its colour",
    },
    Scenario {
        item: ILLEGAL,
        requires: &[Item::HANDSHAKE, TURN],
        script: "the first answer refused on purpose, then any legal answer, then two more moves",
    },
    Scenario {
        item: PLAYED,
        requires: &[Item::HANDSHAKE, TURN],
        script: "played for every other seat before the bot's turn (one by the arbiter)",
    },
    Scenario {
        item: ROUNDS,
        requires: &[Item::HANDSHAKE, TURN],
        script: "as many whole rounds as players in one process, colours rotating",
    },
    Scenario {
        item: BANK,
        requires: &[Item::HANDSHAKE, TURN],
        script: "a whole round on a bank of three moves' time, each turn telling what is left",
    },
    Scenario {
        item: Item::BYE,
        requires: &[Item::HANDSHAKE, TURN],
        script: "a whole round, end, bye, then an exit with status 0 within the grace",
    },
];

impl GameCheck for RolitCheck {
    fn scenarios(&self) -> &'static [Scenario] {
        SCENARIOS
    }

    fn prepare(&self, config: &mut CheckConfig) -> Result<(), rollarena_run::Error> {
        let size = size(config).map_err(rollarena_run::Error::settings)?;
        if config.players.is_empty() {
            config.players = (2..=4).filter(|&p| Rolit::new(size, p).is_ok()).collect();
        }
        if config.players.is_empty() {
            // No count fits this board: the rules say why.
            Rolit::new(size, 2).map_err(rollarena_run::Error::settings)?;
        }
        for &p in &config.players {
            Rolit::new(size, p).map_err(rollarena_run::Error::settings)?;
        }
        Ok(())
    }

    fn run<'a>(&'a self, item: Item, config: &'a CheckConfig, seen: &'a mut Seen) -> Running<'a> {
        Box::pin(async move {
            match item.id {
                "handshake" => handshake(config, seen).await,
                "turn" => turn(config, seen).await,
                "colours" => colours(config, seen).await,
                "illegal" => illegal(config, seen).await,
                "played" => played(config, seen).await,
                "rounds" => rounds(config, seen).await,
                "bank" => bank(config, seen).await,
                "bye" => bye(config, seen).await,
                other => unreachable!("{other} is not one of this game's scenarios"),
            }
        })
    }

    fn options(&self, config: &CheckConfig) -> Value {
        options(config)
    }

    fn setup(&self, config: &CheckConfig) -> String {
        let size = size(config).unwrap_or(8);
        format!(
            "rolit {size}x{size}, {} players, {} ms a move",
            crate::check::and_list(&config.players),
            config.time.per_move.as_millis()
        )
    }
}

/// The board size of the check: the `--size` given, or 8.
fn size(config: &CheckConfig) -> Result<u8, crate::Error> {
    match config.options.get("size") {
        None => Ok(8),
        Some(v) => crate::game::registry::whole("size", v)
            .map(|n| n.min(255) as u8)
            .map_err(crate::Error::options),
    }
}

/// The options of one conversation.
struct Setup {
    players: usize,
    seat: Seat,
    rounds: u32,
    /// Mixed into the match seed so every conversation plays other games.
    tag: u64,
}

impl Setup {
    fn game(&self, config: &CheckConfig) -> Rolit {
        Rolit::new(size(config).unwrap_or(8), self.players).expect("variants checked by prepare")
    }

    fn match_seed(&self, config: &CheckConfig) -> u64 {
        mix(config.seed ^ mix(self.tag))
    }

    fn hello(&self, config: &CheckConfig) -> Hello {
        conversation::hello(
            config,
            "rolit",
            self.game(config).options(),
            self.seat,
            self.players,
            self.rounds,
        )
    }
}

/// Starts a conversation; the start-up problems of a later scenario are its own.
async fn open(config: &CheckConfig, setup: &Setup, seen: &mut Seen) -> Result<Talk, Problem> {
    conversation::open(config, setup.hello(config), config.freeze, seen).await
}

use conversation::close;

/// Runs `body` on a fresh conversation and closes it whatever happens.
macro_rules! with_talk {
    ($config:expr, $setup:expr, $seen:expr, |$talk:ident| $body:expr) => {{
        let mut $talk = open($config, &$setup, $seen).await?;
        let verdict: Verdict = async { $body }.await;
        close($talk, $seen).await;
        verdict
    }};
}

async fn handshake(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let setup = Setup {
        players: config.players[0],
        seat: 0,
        rounds: 1,
        tag: 1,
    };
    conversation::handshake(config, setup.hello(config), config.freeze, seen).await
}

async fn turn(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let setup = Setup {
        players: config.players[0],
        seat: 0,
        rounds: 1,
        tag: 2,
    };
    let (round, colours) = scripted_round(config, &setup, 0, 0);
    with_talk!(config, setup, seen, |talk| {
        let mut game = Play::new(config, &setup, round, &colours);
        game.start(&mut talk, 1);
        let answer = game.ask(&mut talk).await?;
        let ms = answer.clock.elapsed_ms();
        game.apply(&mut talk, &answer)?;
        Ok(format!(
            "{} for {} in {ms:.0} ms (limit {} ms)",
            show(&answer.mv),
            colours[0],
            config.time.per_move.as_millis()
        ))
    })
}

async fn colours(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let mut rounds = 0;
    let mut moves = 0;
    for &players in &config.players {
        for seat in 0..players {
            let setup = Setup {
                players,
                seat,
                rounds: 1,
                tag: 100 + 10 * players as u64 + seat as u64,
            };
            // Each seat another colour than its number suggests; the first colour drawn.
            let order = Colour::for_players(players);
            let mine = (seat + 1) % players;
            let mut rng = ChaCha8Rng::seed_from_u64(setup.match_seed(config));
            let first = rng.random_range(0..players);
            let (round, colours) = scripted_round(config, &setup, mine, first);
            let context = format!(
                "In this round the bot sat in seat {seat} of {players} and played {}, and {} \
                 moved first.",
                order[mine], order[first]
            );
            let played = with_talk!(config, setup, seen, |talk| {
                let mut game = Play::new(config, &setup, round, &colours);
                game.start(&mut talk, 1);
                let n = game.play_out(&mut talk).await?;
                game.end(&mut talk, 1);
                Ok(n.to_string())
            })
            .map_err(|p| p.context(&context))?;
            moves += played.parse::<u32>().unwrap_or(0);
            rounds += 1;
        }
    }
    let counts: Vec<String> = config.players.iter().map(|p| p.to_string()).collect();
    Ok(format!(
        "{rounds} whole rounds, every seat and colour with {} players: {moves} legal moves",
        counts.join(", ")
    ))
}

async fn illegal(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let setup = Setup {
        players: config.players[0],
        seat: 0,
        rounds: 1,
        tag: 3,
    };
    let (round, colours) = scripted_round(config, &setup, 0, 0);
    with_talk!(config, setup, seen, |talk| {
        let mut game = Play::new(config, &setup, round, &colours);
        game.start(&mut talk, 1);
        let first = game.ask(&mut talk).await?;
        let sq = show(&first.mv);
        let reason = format!(
            "rollarena check: this refusal is a test, not a verdict: {sq} is legal; send a \
             move again (any legal move, {sq} included)"
        );
        game.check_legal(&mut talk, &first.mv)?;
        let again = talk
            .refuse(reason, &first.clock)
            .await
            .map_err(|p| p.context(hints::REFUSAL))?;
        game.apply(&mut talk, &again)
            .map_err(|p| p.context(hints::REFUSAL))?;
        let more = game
            .moves(&mut talk, 2)
            .await
            .map_err(|p| p.context(hints::REFUSAL))?;
        Ok(format!(
            "answered the refusal of {sq} with {}, then {more} more moves",
            show(&again.mv)
        ))
    })
}

async fn played(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let players = *config.players.iter().max().expect("players");
    let setup = Setup {
        players,
        seat: players - 1,
        rounds: 1,
        tag: 4,
    };
    // The bot plays the last colour in turn order; the first colour moves first.
    let (round, colours) = scripted_round(config, &setup, players - 1, 0);
    with_talk!(config, setup, seen, |talk| {
        let mut game = Play::new(config, &setup, round, &colours);
        game.by_arbiter = Some(players.saturating_sub(2));
        game.settle = true;
        game.start(&mut talk, 1);
        let moves = game
            .moves(&mut talk, 2)
            .await
            .map_err(|p| p.context(hints::PLAYED))?;
        Ok(format!(
            "{} played messages (one by the arbiter), {moves} legal moves after them",
            game.played
        ))
    })
}

async fn rounds(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let players = *config.players.iter().max().expect("players");
    let setup = Setup {
        players,
        seat: 0,
        rounds: players as u32,
        tag: 5,
    };
    let game_rules = setup.game(config);
    let match_seed = setup.match_seed(config);
    with_talk!(config, setup, seen, |talk| {
        let mut played_colours = Vec::new();
        for r in 0..setup.rounds {
            // The match's own rotation: seat 0 plays order[r mod k]; the first colour is drawn
            // once per match.
            let order = Colour::for_players(players);
            let mine = r as usize % players;
            let first_colour = order
                .iter()
                .position(|&c| c == game_rules.first_colour(match_seed))
                .expect("the first colour is in play");
            let (rolit, colours) = scripted_round(config, &setup, mine, first_colour);
            let mut game = Play::new(config, &setup, rolit, &colours);
            game.round_seed = round_seed(match_seed, 0, r);
            game.rng = ChaCha8Rng::seed_from_u64(mix(game.round_seed));
            game.start(&mut talk, r + 1);
            let result = game.play_out(&mut talk).await;
            if let Err(p) = result {
                return Err(if r == 0 {
                    p
                } else {
                    p.context(&format!(
                        "This is round {} of {} in the same process, the bot playing {}. {}",
                        r + 1,
                        setup.rounds,
                        colours[0],
                        hints::ROUNDS
                    ))
                });
            }
            game.end(&mut talk, r + 1);
            played_colours.push(colours[0].clone());
        }
        Ok(format!(
            "{} rounds in one process, playing {}",
            setup.rounds,
            played_colours.join(", ")
        ))
    })
}

/// A whole round on a bank of three moves' time (the cap stays `--time`): the bot must spread
/// it over the round by `bank_ms`.
async fn bank(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let mut config = config.clone();
    let bank = config.time.per_move * 3;
    config.time.bank = Some(bank);
    let config = &config;
    let setup = Setup {
        players: config.players[0],
        seat: 0,
        rounds: 1,
        tag: 7,
    };
    let (round, colours) = scripted_round(config, &setup, 0, 0);
    with_talk!(config, setup, seen, |talk| {
        let mut game = Play::new(config, &setup, round, &colours);
        game.start(&mut talk, 1);
        let moves = game
            .play_out(&mut talk)
            .await
            .map_err(|p| p.context(hints::BANK))?;
        game.end(&mut talk, 1);
        let left = talk.bank_ms().unwrap_or(0);
        Ok(format!(
            "{moves} moves on a {} ms bank ({} ms at most a move): {} ms of it spent, {left} \
             ms left",
            bank.as_millis(),
            config.time.per_move.as_millis(),
            bank.as_millis() as u64 - left.min(bank.as_millis() as u64)
        ))
    })
}

async fn bye(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let setup = Setup {
        players: config.players[0],
        seat: 0,
        rounds: 1,
        tag: 6,
    };
    let (round, colours) = scripted_round(config, &setup, 0, 1 % config.players[0]);
    let mut talk = open(config, &setup, seen).await?;
    let mut game = Play::new(config, &setup, round, &colours);
    game.start(&mut talk, 1);
    if let Err(p) = game.play_out(&mut talk).await {
        close(talk, seen).await;
        return Err(p);
    }
    game.end(&mut talk, 1);
    // A bot that leaves after `end` has not waited for `bye`: the settle gives it the time to
    // show it.
    conversation::bye(talk, seen).await
}

/// A round whose seat 0..k colours put the conversation's seat on colour index `mine` (of the
/// colours in play) and whose first mover is colour index `first`. The other seats take the
/// remaining colours in turn order.
fn scripted_round(
    config: &CheckConfig,
    setup: &Setup,
    mine: usize,
    first: usize,
) -> (RolitRound, Vec<String>) {
    let order = Colour::for_players(setup.players);
    let k = order.len();
    // Seat s plays order[(mine + s - seat) mod k]: a rotation, as in a match.
    let colours: Vec<Colour> = (0..k)
        .map(|s| order[(mine + k + s - setup.seat) % k])
        .collect();
    let pos = Position::start(size(config).unwrap_or(8), setup.players, order[first])
        .expect("variants checked by prepare");
    let names = colours.iter().map(|c| c.name().to_string()).collect();
    (RolitRound::from_position(pos, colours), names)
}

/// One round being played with the bot in one seat.
struct Play<'a> {
    config: &'a CheckConfig,
    round: RolitRound,
    colours: Vec<String>,
    seat: Seat,
    rng: ChaCha8Rng,
    round_seed: u64,
    /// A seat whose moves are announced as played by the arbiter.
    by_arbiter: Option<Seat>,
    /// Pause and look for trouble after `played` messages, before the bot's turn.
    settle: bool,
    /// `played` messages sent.
    played: u32,
    /// The squares of the `played` messages since the bot's last turn.
    recent: Vec<Value>,
    /// Sent since the bot's last turn.
    pending: u32,
}

impl<'a> Play<'a> {
    fn new(
        config: &'a CheckConfig,
        setup: &Setup,
        round: RolitRound,
        colours: &[String],
    ) -> Play<'a> {
        let seed = setup.match_seed(config);
        Play {
            config,
            round,
            colours: colours.to_vec(),
            seat: setup.seat,
            rng: ChaCha8Rng::seed_from_u64(seed),
            round_seed: round_seed(seed, 0, 0),
            by_arbiter: None,
            settle: false,
            played: 0,
            recent: Vec::new(),
            pending: 0,
        }
    }

    fn start(&mut self, talk: &mut Talk, round_no: u32) {
        talk.send(&ToBot::Start(Start {
            round: round_no,
            colour: Some(self.colours[self.seat].clone()),
            colours: Some(self.colours.clone()),
            first: self.round.first(),
            seed: self.round_seed,
            state: self.round.view(self.seat),
        }));
    }

    fn end(&mut self, talk: &mut Talk, round_no: u32) {
        let outcome = self.round.outcome().expect("the round is over");
        talk.send(&ToBot::End(End {
            round: round_no,
            scores: outcome.scores.clone(),
            points: outcome.points.clone(),
            ranks: outcome.ranks.clone(),
            winners: outcome.winners(),
            forfeits: vec![],
        }));
    }

    /// Asks the bot for its move in the current position.
    async fn ask(&mut self, talk: &mut Talk) -> Result<Answer, Problem> {
        if self.settle && self.pending > 0 {
            talk.settle().await?;
        }
        self.pending = 0;
        let legal = if self.config.hide_legal {
            None
        } else {
            self.round.legal_moves(self.seat)
        };
        talk.turn(self.round.view(self.seat), legal).await
    }

    /// Checks the bot's move against the rules without playing it.
    fn check_legal(&self, talk: &mut Talk, mv: &Value) -> Result<(), Problem> {
        let mut probe = self.round.clone();
        match probe.play(self.seat, mv) {
            Ok(_) => Ok(()),
            Err(r) => Err(self.illegal_problem(talk, mv, &r.reason)),
        }
    }

    /// Plays the bot's answer and announces it.
    fn apply(&mut self, talk: &mut Talk, answer: &Answer) -> Result<(), Problem> {
        match self.round.play(self.seat, &answer.mv) {
            Ok(applied) => {
                self.recent.clear();
                self.announce(talk, applied, false);
                Ok(())
            }
            Err(r) => Err(self.illegal_problem(talk, &answer.mv, &r.reason)),
        }
    }

    fn illegal_problem(&self, talk: &mut Talk, mv: &Value, reason: &str) -> Problem {
        let pos = *self.round.position();
        let mut hint = HINT_ILLEGAL.to_string();
        if let Some(text) = mv.as_str()
            && let Ok(sq) = Square::parse(text, pos.size())
        {
            for &c in pos.colours() {
                if c == pos.to_move() {
                    continue;
                }
                let as_other = Position::from_parts(pos.size(), pos.all_balls(), pos.colours(), c);
                if as_other.is_ok_and(|p| p.legal_moves() & sq.bit() != 0) {
                    hint = wrong_colour(text, c.name(), pos.to_move().name());
                    break;
                }
            }
        }
        if self.recent.contains(mv) {
            hint = format!(
                "{} is the square of a played message just sent: did the bot answer played with \
                 a move? {}",
                show(mv),
                hints::UNASKED
            );
        }
        talk.note_text(format!("(refused: {reason})"));
        talk.problem(
            crate::check::Cause::Illegal,
            format!(
                "the move {} for {} is illegal: {reason}",
                show(mv),
                pos.to_move()
            ),
            hint,
        )
    }

    /// The check's own move for another seat.
    fn other_move(&mut self, talk: &mut Talk, seat: Seat) {
        let rng = &mut self.rng;
        let mv = self.round.fallback(seat, &mut |n| rng.random_range(0..n));
        let applied = self
            .round
            .play(seat, &mv)
            .expect("fallback moves are legal");
        let by_arbiter = self.by_arbiter == Some(seat);
        self.announce(talk, applied, by_arbiter);
    }

    fn announce(&mut self, talk: &mut Talk, applied: crate::game::Applied, by_arbiter: bool) {
        self.recent.push(applied.notation.clone());
        talk.send(&ToBot::Played(Played {
            seat: applied.seat,
            colour: applied.colour,
            mv: applied.notation,
            effects: applied.effects.into_iter().collect(),
            by_arbiter,
        }));
        self.played += 1;
        self.pending += 1;
    }

    /// Plays on until the bot has made `n` more moves (or the round ends). Returns how many
    /// the bot made.
    async fn moves(&mut self, talk: &mut Talk, n: u32) -> Result<u32, Problem> {
        let mut made = 0;
        while made < n {
            match self.round.to_act() {
                ToAct::Over => break,
                ToAct::Seat(seat, _) if seat == self.seat => {
                    let answer = self.ask(talk).await?;
                    self.apply(talk, &answer)?;
                    made += 1;
                }
                ToAct::Seat(seat, _) => self.other_move(talk, seat),
                ToAct::Seats(_) | ToAct::Each(..) => unreachable!("rolit is played in turn"),
            }
        }
        Ok(made)
    }

    /// Plays the round to its end. Returns the bot's moves.
    async fn play_out(&mut self, talk: &mut Talk) -> Result<u32, Problem> {
        self.moves(talk, u32::MAX).await
    }
}

/// A move as text for details.
fn show(mv: &Value) -> String {
    match mv {
        Value::String(s) => s.clone(),
        other => crate::game::short_json(other),
    }
}

/// The check's options as JSON, for reports.
pub fn options(config: &CheckConfig) -> Value {
    json!({
        "game": "rolit",
        "size": size(config).unwrap_or(8),
        "players": config.players,
        "startup_ms": config.time.startup.as_millis() as u64,
        "move_ms": config.time.per_move.as_millis() as u64,
        "legal": !config.hide_legal,
        "seed": config.seed,
        "freeze": config.freeze,
        "sandbox": config.isolation.level.name(),
        "user": config.isolation.user.as_ref().map(|u| u.name.clone()),
        "uids": config.isolation.uids.map(|r| format!("{}-{}", r.first, r.last)),
    })
}

/// A move the rules refuse.
const HINT_ILLEGAL: &str = "Pick one of the squares listed in the turn's \"legal\", or compute \
the legal moves for the colour to move (turn.state.to_move, which is your colour this round): a \
ball goes on an empty square touching a ball, and when any move captures, only capturing moves \
are legal. The board's first row is the highest rank (row 0 is rank 8 on 8x8), files run a, b, \
c... from the left.";

/// The bot plays as another colour.
fn wrong_colour(mv: &str, other: &str, mine: &str) -> String {
    format!(
        "{mv} would be legal for {other}: is your bot playing {other}? This round it plays \
         {mine}. Colours rotate between rounds and depend on the seat: take yours from each \
         start's \"colour\" (or turn.state.to_move), never from the seat number or the first \
         round."
    )
}
