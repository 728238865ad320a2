//! Rollerball's scenarios for `rollarena check --game rollerball` (the entry's
//! [`GameCheck`]), each on a fresh bot process, played through the arbiter's own referee
//! ([`crate::check::table::Table`]): the check decides for the other seats and every line of
//! the bot is judged as in a match. Games are kept short: at most 8 turns a player (the
//! contest's `turn_limit` if lower).
//!
//! | item | script |
//! |---|---|
//! | handshake | `hello` (game rollerball) → `ready` within the start-up budget, with a name |
//! | bid | the sealed bid: every seat asked at once, a bid from `turn.legal` in time; the check's seats bid only after it, then the reveal (`bids` event) |
//! | order | the most seats checked, the bot in seat 1: a whole short game, the check deciding at once, so requests come out of seat order (the setup from the bid winner, rewards and hits of any seat, the extra move with 5 or 6) and the others' decisions arrive while the bot's own bid is open |
//! | hand | a short game in which the check's seats spend their cards as fast as the rules let them (the longest bid, every card placed, paid or built): hands run empty, seats pass the card rounds without being asked, hits cost nothing; the bot plays on; then a second game in the same process |
//! | bye | a whole short game, `end`, `bye` → the process exits with status 0 within the grace |

use std::sync::Arc;

use serde_json::Value;

use crate::check::contest::Contest;
use crate::check::conversation::{self, Seen, Verdict};
use crate::check::table::{Choice, Table};
use crate::check::{CheckConfig, GameCheck, Item, Running, Scenario};
use crate::game::{Game, Seat};
use crate::with_talk;

/// Rollerball's checks.
pub struct RollerballCheck;

/// The entry's checks.
/// The contest the scenarios play.
const CONTEST: Contest = Contest {
    name: "rollerball",
    default_players: &[2, 5],
    // A game refused by its options is a check's settings refused.
    build: |config, players| build(config, players).map_err(rollarena_run::Error::settings),
};

pub static CHECK: RollerballCheck = RollerballCheck;

/// Turns a player, at most, in the check's games.
const TURNS_A_PLAYER: u64 = 8;

const BID: Item = Item {
    id: "bid",
    title: "the sealed bid from legal, under the clock",
};
const ORDER: Item = Item {
    id: "order",
    title: "requests out of seat order, others acting meanwhile",
};
const HAND: Item = Item {
    id: "hand",
    title: "hands that run empty, then a new game",
};

const SCENARIOS: &[Scenario] = &[
    Scenario {
        item: Item::HANDSHAKE,
        requires: &[],
        script: "hello (game rollerball), then ready within the start-up budget, with a name",
    },
    Scenario {
        item: BID,
        requires: &[Item::HANDSHAKE],
        script: "the sealed bid from turn.legal in time; the other seats bid after it",
    },
    Scenario {
        item: ORDER,
        requires: &[Item::HANDSHAKE, BID],
        script: "a whole short game, requests out of seat order, others deciding meanwhile",
    },
    Scenario {
        item: HAND,
        requires: &[Item::HANDSHAKE, BID],
        script: "two short games in one process, the other seats emptying their hands",
    },
    Scenario {
        item: Item::BYE,
        requires: &[Item::HANDSHAKE, BID],
        script: "a whole short game, end, bye, then an exit with status 0 within the grace",
    },
];

impl GameCheck for RollerballCheck {
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
                "order" => order(config, seen).await,
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
        format!(
            "rollerball, {} players, games of at most {TURNS_A_PLAYER} turns a player, {} ms a \
             decision",
            crate::check::and_list(&config.players),
            config.time.per_move.as_millis()
        )
    }
}

/// The game of the contest's options with `players` seats, its turn limit cut to
/// [`TURNS_A_PLAYER`] turns a player.
fn build(config: &CheckConfig, players: usize) -> Result<Arc<dyn Game>, crate::Error> {
    let mut options = config.options_with(players);
    let given = match options.get("turn_limit") {
        Some(v) => crate::game::registry::whole("turn_limit", v).map_err(crate::Error::options)?,
        None => u64::from(super::RollerballGame::default_turn_limit()),
    };
    let short = given.min(TURNS_A_PLAYER * players as u64).max(1);
    options.insert("turn_limit".into(), short.into());
    (super::entry::ENTRY.build)(&options)
}

/// The phases of the bot's requests, counted, in the order first seen.
fn phases(table: &Table) -> String {
    let mut counts: Vec<(String, u32)> = Vec::new();
    for r in &table.requests {
        let phase = r["state"]["phase"].as_str().unwrap_or("?").to_string();
        match counts.iter_mut().find(|(p, _)| *p == phase) {
            Some((_, n)) => *n += 1,
            None => counts.push((phase, 1)),
        }
    }
    let parts: Vec<String> = counts.iter().map(|(p, n)| format!("{p} {n}")).collect();
    parts.join(", ")
}

/// Requests to the bot while another seat was the acting player (rewards, hits, the extra
/// move) or during the setup after another seat.
fn out_of_turn(table: &Table, seat: Seat) -> usize {
    table
        .requests
        .iter()
        .filter(|r| {
            let acting = r["state"]["acting"].as_u64();
            acting.is_some_and(|a| a as usize != seat)
        })
        .count()
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
            let mut table = Table::new(config, &*g, 0, 31, 0, 0);
            table.hold = true;
            table.play(&mut talk, &|t| t.answered >= 1).await?;
            let asked = table.requests.first().cloned().unwrap_or(Value::Null);
            let hand = asked["state"]["hand"].as_array().map_or(0, Vec::len);
            let legal = asked["legal"].as_array().map_or(0, Vec::len);
            Ok(format!(
                "a bid from a hand of {hand} cards ({legal} legal bids), in time (limit {} ms); the \
             other seats bid after it",
                config.time.per_move.as_millis()
            ))
        }
    )
}

async fn order(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let players = *config.players.iter().max().expect("players");
    let seat = 1;
    let g = CONTEST.game(config, players);
    with_talk!(
        config,
        CONTEST.hello(config, players, seat, 1),
        config.freeze,
        seen,
        |talk| {
            let mut table = Table::new(config, &*g, seat, 32, 0, 0);
            table
                .play(&mut talk, &|_| false)
                .await
                .map_err(|p| p.context(HINT_ORDER))?;
            talk.settle().await?;
            Ok(format!(
                "seat {seat} of {players}, a whole game: {} decisions ({}), {} while another seat \
             was acting; {} played messages",
                table.answered,
                phases(&table),
                out_of_turn(&table, seat),
                table.played
            ))
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
            let mut empty = 0;
            let mut decisions = Vec::new();
            for round in 0..2 {
                let mut table = Table::new(config, &*g, 0, 33, round, turn_id);
                table.choice = Choice::Spend;
                let played = table.play(&mut talk, &|_| false).await;
                played.map_err(|p| {
                    p.context(&format!(
                        "Game {} of 2 in the same process. {HINT_HAND}",
                        round + 1
                    ))
                })?;
                talk.settle().await?;
                empty += table
                    .requests
                    .iter()
                    .filter(|r| {
                        r["state"]["players"]
                            .as_array()
                            .is_some_and(|ps| ps.iter().any(|p| p["hand"] == 0))
                    })
                    .count();
                turn_id = table.turn_id();
                decisions.push(table.answered.to_string());
            }
            Ok(format!(
                "two games in one process ({} decisions), {empty} of its requests with an empty \
             hand at the table",
                decisions.join(" and ")
            ))
        }
    )
}

async fn bye(config: &CheckConfig, seen: &mut Seen) -> Verdict {
    let players = config.players[0];
    let hello = CONTEST.hello(config, players, 0, 1);
    crate::check::table::round_then_bye(config, &*CONTEST.game(config, players), hello, 34, seen)
        .await
}

const HINT_ORDER: &str = "Requests do not come in seat order: the setup starts from the bid \
    winner, a reward or a hit asks the seat it concerns in the middle of another's turn, and \
    with 5 or 6 players the extra move goes to the seat three to the acting player's left. \
    Answer every turn from its own state (state.phase, state.asked), whoever is acting, and \
    read the played messages of the others without answering them \
    (protocol/games/rollerball.md).";
const HINT_HAND: &str = "A hand may run empty (a bid paid, cards placed or spent): the bid \
    is then only \"bid\", a seat with no placeable card passes the card rounds without being \
    asked (a pass event), and a hit costs nothing. Take the moves from turn.legal, never from \
    the hand alone; a new game starts with a new deal.";
