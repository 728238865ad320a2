//! Goofspiel's scenarios for `rollarena check --game goofspiel` (the entry's [`GameCheck`]),
//! each on a fresh bot process, played through the arbiter's own referee
//! ([`crate::check::table::Table`]): the check bids for the other seats (a seeded choice among
//! their cards) and every line of the bot is judged as in a match.
//!
//! | item | script |
//! |---|---|
//! | handshake | `hello` (game goofspiel) → `ready` within the start-up budget, with a name |
//! | bid | two seats; the first turn: a sealed bid from `turn.legal`, in time; the check's seat bids only after it (the bot waits, frozen, for the reveal) |
//! | others | the most seats checked, the bot in the last; the check's seats bid at once, so the bot's turn stays open while the others' bids come in (`played` with `"move": "sealed"`), then the reveal; a whole round |
//! | hand | one process, two rounds: every card down to the last one (one legal bid), `end` with an empty hand, then a full hand again in round 2 |
//! | bye | a whole round, `end`, `bye` → the process exits with status 0 within the grace |

use std::sync::Arc;

use serde_json::Value;

use crate::check::contest::Contest;
use crate::check::conversation::{self, Seen, Verdict};
use crate::check::table::Table;
use crate::check::{CheckConfig, GameCheck, Item, Running, Scenario};
use crate::game::Game;
use crate::with_talk;

/// Goofspiel's checks.
pub struct GoofspielCheck;

/// The entry's checks.
/// The contest the scenarios play.
const CONTEST: Contest = Contest {
    name: "goofspiel",
    default_players: &[2, 4],
    // A game refused by its options is a check's settings refused.
    build: |config, players| build(config, players).map_err(rollarena_run::Error::settings),
};

pub static CHECK: GoofspielCheck = GoofspielCheck;

const BID: Item = Item {
    id: "bid",
    title: "a sealed bid from legal, under the clock",
};
const OTHERS: Item = Item {
    id: "others",
    title: "other seats' sealed bids while its turn is open",
};
const HAND: Item = Item {
    id: "hand",
    title: "a hand played to its last card, then a new round",
};

const SCENARIOS: &[Scenario] = &[
    Scenario {
        item: Item::HANDSHAKE,
        requires: &[],
        script: "hello (game goofspiel), then ready within the start-up budget, with a name",
    },
    Scenario {
        item: BID,
        requires: &[Item::HANDSHAKE],
        script: "the first turn of a round: a bid from turn.legal in time; the other seat bids after",
    },
    Scenario {
        item: OTHERS,
        requires: &[Item::HANDSHAKE, BID],
        script: "the other seats bid first, while the bot's turn is open; a whole round",
    },
    Scenario {
        item: HAND,
        requires: &[Item::HANDSHAKE, BID],
        script: "two rounds in one process, each to the last card",
    },
    Scenario {
        item: Item::BYE,
        requires: &[Item::HANDSHAKE, BID],
        script: "a whole round, end, bye, then an exit with status 0 within the grace",
    },
];

impl GameCheck for GoofspielCheck {
    fn scenarios(&self) -> &'static [Scenario] {
        SCENARIOS
    }

    fn prepare(&self, config: &mut CheckConfig) -> Result<(), rollarena_run::Error> {
        CONTEST.prepare(config)
    }

    fn run<'a>(&'a self, item: Item, config: &'a CheckConfig, seen: &'a mut Seen) -> Running<'a> {
        Box::pin(async move {
            match item.id {
                "handshake" => {
                    let hello = CONTEST.hello(config, config.players[0], 0, 1);
                    conversation::handshake(config, hello, config.freeze, seen).await
                }
                "bid" => bid(config, seen).await,
                "others" => others(config, seen).await,
                "hand" => hand(config, seen).await,
                "bye" => bye(config, seen).await,
                other => unreachable!("{other} is not one of this game's scenarios"),
            }
        })
    }

    fn options(&self, config: &CheckConfig) -> Value {
        CONTEST.options(config)
    }

    fn setup(&self, config: &CheckConfig) -> String {
        let cards = build(config, config.players[0])
            .map_or(13, |g| g.options()["cards"].as_u64().unwrap_or(13));
        format!(
            "goofspiel, {cards} cards, {} players, {} ms a bid",
            crate::check::and_list(&config.players),
            config.time.per_move.as_millis()
        )
    }
}

/// The game of the contest's options with `players` seats.
fn build(config: &CheckConfig, players: usize) -> Result<Arc<dyn Game>, crate::Error> {
    (super::entry::ENTRY.build)(&config.options_with(players))
}

/// The bids the bot made in a round, from its requests' legal lists and its hand.
fn round_of(table: &Table) -> String {
    format!(
        "{} bids accepted, {} played messages ({} while its turn was open)",
        table.answered, table.played, table.played_while_asked
    )
}

async fn bid(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let players = config.players[0];
    let g = CONTEST.game(config, players);
    with_talk!(
        config,
        CONTEST.hello(config, players, 0, 1),
        config.freeze,
        seen,
        |talk| {
            let mut table = Table::new(config, &*g, 0, 21, 0, 0);
            table.hold = true;
            table.play(&mut talk, &|t| t.answered >= 1).await?;
            let asked = table.requests.first().cloned().unwrap_or(Value::Null);
            Ok(format!(
                "bid for the prize {} (limit {} ms); the other seat bid after it",
                asked["state"]["prize"],
                config.time.per_move.as_millis()
            ))
        }
    )
}

async fn others(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let players = *config.players.iter().max().expect("players");
    let seat = players - 1;
    let g = CONTEST.game(config, players);
    with_talk!(
        config,
        CONTEST.hello(config, players, seat, 1),
        config.freeze,
        seen,
        |talk| {
            let mut table = Table::new(config, &*g, seat, 22, 0, 0);
            table
                .play(&mut talk, &|_| false)
                .await
                .map_err(|p| p.context(HINT_SEALED))?;
            if table.played_while_asked == 0 {
                return Err(talk.problem(
                    crate::check::Cause::NoAnswer,
                    "the other seats' bids never arrived while the bot's turn was open".into(),
                    HINT_SEALED.into(),
                ));
            }
            talk.settle().await?;
            Ok(format!("seat {seat} of {players}: {}", round_of(&table)))
        }
    )
}

async fn hand(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let players = config.players[0];
    let g = CONTEST.game(config, players);
    with_talk!(
        config,
        CONTEST.hello(config, players, 0, 2),
        config.freeze,
        seen,
        |talk| {
            let mut turn_id = 0;
            let mut bids = Vec::new();
            for round in 0..2 {
                let mut table = Table::new(config, &*g, 0, 23, round, turn_id);
                let played = table.play(&mut talk, &|_| false).await;
                played.map_err(|p| p.context(&hand_context(round, &table)))?;
                talk.settle().await?;
                let last = table.requests.last().cloned().unwrap_or(Value::Null);
                let left = last["legal"].as_array().map_or(0, Vec::len);
                if left > 1 {
                    return Err(talk.problem(
                        crate::check::Cause::NoAnswer,
                        format!(
                            "round {} ended with {left} cards in the bot's last turn",
                            round + 1
                        ),
                        HINT_HAND.into(),
                    ));
                }
                turn_id = table.turn_id();
                bids.push(table.answered.to_string());
            }
            Ok(format!(
                "two rounds in one process, {} bids, each round down to the last card",
                bids.join(" and ")
            ))
        }
    )
}

fn hand_context(round: u32, table: &Table) -> String {
    let cards = table
        .requests
        .last()
        .and_then(|r| r["state"]["hand"].as_array().map(Vec::len))
        .unwrap_or(0);
    format!(
        "Round {} of 2 in the same process, the bot holding {cards} cards. {HINT_HAND}",
        round + 1
    )
}

async fn bye(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let players = config.players[0];
    let hello = CONTEST.hello(config, players, 0, 1);
    crate::check::table::round_then_bye(config, &*CONTEST.game(config, players), hello, 24, seen)
        .await
}

const HINT_SEALED: &str = "Every seat bids at once: the arbiter sends every seat a turn, and \
    while yours is open the others' bids arrive as played messages with \"move\": \"sealed\" \
    (and the last one reveals every bid). Read them, never answer them, and still answer your \
    own turn with one move (protocol/games/goofspiel.md).";
const HINT_HAND: &str = "A round ends when the cards run out: the last turn's legal lists one \
    card, and end follows with an empty hand. A match has several rounds in one process: after \
    end comes start, with a full hand again; only bye ends the match.";
