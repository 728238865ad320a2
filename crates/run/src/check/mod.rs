//! `rollarena check`: a conformance run for bot authors.
//!
//! The check starts the author's bot and walks it through scripted scenarios for the options of
//! their contest, on the arbiter's own machinery: the same process handling and line reader
//! ([`crate::arbiter::bot::Bot`]), the same wire types, the same rules and the same clock as a
//! match. What the scenarios are is the game's business: each game's registry entry names its
//! [`GameCheck`] (`crates/games/src/game/<game>/check*.rs`), so this module knows no game. Each scenario is
//! one checklist [`Item`]; its verdict is a pass with a one-line detail, or a [`Problem`]: what
//! went wrong, the exchange that shows it (the lines sent and received, cut to a sane length),
//! the bot's stderr tail and a hint of the usual cause. Two items (no junk on stdout, answers
//! flushed) are judged from everything the scenarios saw.
//!
//! - [`talk`]: one conversation with a bot process, its transcript, and the diagnosis of a
//!   silent bot (late, no newline, not flushed);
//! - [`conversation`]: what every game's scenarios share: opening and closing a conversation,
//!   the handshake, `bye`;
//! - [`table`]: a round played through the arbiter's own [`crate::referee::Referee`], the
//!   check playing every seat but the bot's: any turn-based or sealed-bid game's scenarios
//!   are scripts over it;
//! - [`hints`]: the hints' wording.

pub mod contest;
pub mod conversation;
pub mod hints;
pub mod table;
pub mod talk;

use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::arbiter::bot::{BotSpec, Limits};
use crate::arbiter::clock::TimeControl;
use crate::sandbox::Isolation;
pub use conversation::{Seen, Verdict};
pub use talk::{Cause, Dir, Line, Problem};

/// A checklist item: its name in reports and `--json`, and what it expects, in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    pub id: &'static str,
    pub title: &'static str,
}

impl Serialize for Item {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id)
    }
}

impl Item {
    /// The item's name in reports and `--json`.
    pub fn id(self) -> &'static str {
        self.id
    }

    /// What the item expects, in words.
    pub fn title(self) -> &'static str {
        self.title
    }

    /// `hello`, then `ready` in time: every game's first item.
    pub const HANDSHAKE: Item = Item {
        id: "handshake",
        title: "the handshake within its budget",
    };
    /// `bye`, then a clean exit: every game's last scenario.
    pub const BYE: Item = Item {
        id: "bye",
        title: "bye followed by a clean exit",
    };
    /// Judged from every line the scenarios received.
    pub const STDOUT: Item = Item {
        id: "stdout",
        title: "no junk on stdout",
    };
    /// Judged from every answer the scenarios waited for.
    pub const FLUSH: Item = Item {
        id: "flush",
        title: "answers flushed, one per line",
    };
}

/// A scenario: the item it checks, the items it needs to have passed, and what it does.
#[derive(Clone, Copy, Debug)]
pub struct Scenario {
    pub item: Item,
    pub requires: &'static [Item],
    pub script: &'static str,
}

/// A scenario's run, borrowed from the check for its length.
pub type Running<'a> = Pin<Box<dyn Future<Output = Verdict> + 'a>>;

/// A game's conformance checks, named by its registry entry.
pub trait GameCheck: Sync {
    /// The scenarios, in the order they run (the handshake first); the `stdout` and `flush`
    /// items are added after them.
    fn scenarios(&self) -> &'static [Scenario];
    /// Checks the options and player counts of `config` (filling in the default counts when
    /// none were given); the error says what the rules do not allow.
    fn prepare(&self, config: &mut CheckConfig) -> Result<(), crate::Error>;
    /// Runs the scenario of `item`.
    fn run<'a>(&'a self, item: Item, config: &'a CheckConfig, seen: &'a mut Seen) -> Running<'a>;
    /// The check's options as JSON, for reports.
    fn options(&self, config: &CheckConfig) -> Value;
    /// The check's set-up in a few words, for the report's first line ("two seats, ...").
    fn setup(&self, config: &CheckConfig) -> String;
}

/// What to check, for the options of a contest.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    pub bot: BotSpec,
    /// The game's name, as on the command line.
    pub game: &'static str,
    /// The game's own options as the command line gave them (`size`, `cards`, ...), without
    /// `players`.
    pub options: Map<String, Value>,
    /// Player counts to check, each one the game allows; empty until
    /// [`GameCheck::prepare`] fills in the game's default.
    pub players: Vec<usize>,
    pub time: TimeControl,
    pub limits: Limits,
    /// Seeds the check's own moves, so a check is reproducible.
    pub seed: u64,
    /// Leave the legal moves out of requests, as a contest with `--hide-legal` does.
    pub hide_legal: bool,
    /// How the bot is started: as in a contest (the bot user, limits, sandbox level).
    pub isolation: Isolation,
    /// Freeze the bot while nothing is asked of it, as a match does by default.
    pub freeze: bool,
}

impl CheckConfig {
    /// The game's options with `players` set, as a registry entry's `build` reads them.
    pub fn options_with(&self, players: usize) -> Map<String, Value> {
        let mut options = self.options.clone();
        options.insert("players".into(), players.into());
        options
    }

    /// The check's settings for the report (`--json`), with the game's name and canonical
    /// options.
    pub fn report(&self, game: &str, options: Option<Value>) -> Value {
        serde_json::json!({
            "game": game,
            "options": options,
            "players": self.players,
            "startup_ms": self.time.startup.as_millis() as u64,
            "move_ms": self.time.per_move.as_millis() as u64,
            "legal": !self.hide_legal,
            "seed": self.seed,
            "freeze": self.freeze,
            "sandbox": self.isolation.level.name(),
        })
    }
}

/// Numbers in words: "2, 3 and 4".
pub fn and_list(numbers: &[usize]) -> String {
    let words: Vec<String> = numbers.iter().map(|p| p.to_string()).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

/// How an item ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pass,
    Fail,
    /// Not run, because an item it needs failed.
    Skip,
}

/// One line of the checklist.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ItemResult {
    pub item: Item,
    pub title: &'static str,
    pub status: Status,
    /// What passed, why it was skipped, or what failed (in one line).
    pub detail: String,
    /// The failure's evidence and hint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<Problem>,
    /// Wall time of the item's scenario, in ms.
    pub ms: u64,
}

/// The whole check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The bot's command line.
    pub bot: String,
    /// The name and version the bot gave in `ready`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready: Option<Value>,
    pub options: Value,
    pub items: Vec<ItemResult>,
    pub passed: bool,
    /// Wall time of the whole check, in ms.
    pub ms: u64,
}

/// Runs the whole checklist of `game` (its [`GameCheck::prepare`] has run), calling
/// `progress` as each item is decided.
pub async fn run_check(
    config: &CheckConfig,
    game: &dyn GameCheck,
    progress: &mut dyn FnMut(&ItemResult),
) -> Report {
    let started = Instant::now();
    let mut seen = Seen::default();
    let mut items: Vec<ItemResult> = Vec::new();
    for scenario in game.scenarios() {
        let t = Instant::now();
        let blocked: Vec<&str> = scenario
            .requires
            .iter()
            .filter(|r| {
                items
                    .iter()
                    .any(|i| i.item == **r && i.status != Status::Pass)
            })
            .map(|r| r.id())
            .collect();
        let result = if !blocked.is_empty() {
            ItemResult {
                item: scenario.item,
                title: scenario.item.title(),
                status: Status::Skip,
                detail: format!("not run: it needs {} to pass first", blocked.join(" and ")),
                problem: None,
                ms: 0,
            }
        } else {
            let verdict = game.run(scenario.item, config, &mut seen).await;
            let ms = t.elapsed().as_millis() as u64;
            match verdict {
                Ok(detail) => ItemResult {
                    item: scenario.item,
                    title: scenario.item.title(),
                    status: Status::Pass,
                    detail,
                    problem: None,
                    ms,
                },
                Err(problem) => ItemResult {
                    item: scenario.item,
                    title: scenario.item.title(),
                    status: Status::Fail,
                    detail: problem.what.clone(),
                    problem: Some(problem),
                    ms,
                },
            }
        };
        progress(&result);
        items.push(result);
    }
    let handshake_ok = items
        .iter()
        .any(|i| i.item == Item::HANDSHAKE && i.status == Status::Pass);
    for result in [stdout(&seen, handshake_ok), flush(&items, handshake_ok)] {
        progress(&result);
        items.push(result);
    }
    let passed = items.iter().all(|i| i.status == Status::Pass);
    Report {
        bot: config.bot.command_line(),
        ready: seen
            .ready
            .map(|r| serde_json::to_value(r).expect("ready serialises")),
        options: game.options(config),
        items,
        passed,
        ms: started.elapsed().as_millis() as u64,
    }
}

/// No junk on stdout: judged from every line the scenarios received.
fn stdout(seen: &Seen, handshake_ok: bool) -> ItemResult {
    let (status, detail, problem) = match seen.junk.first.first() {
        Some(first) => {
            let mut p = first.clone();
            if seen.junk.lines > 1 {
                p.what = format!("{} (and {} more such lines)", p.what, seen.junk.lines - 1);
            }
            (Status::Fail, p.what.clone(), Some(p))
        }
        None if !handshake_ok => (
            Status::Skip,
            "not judged: the bot never got past the handshake".to_string(),
            None,
        ),
        None => (
            Status::Pass,
            format!(
                "every one of the {} lines received was a protocol message",
                seen.received
            ),
            None,
        ),
    };
    ItemResult {
        item: Item::STDOUT,
        title: Item::STDOUT.title(),
        status,
        detail,
        problem,
        ms: 0,
    }
}

/// Answers flushed: fails where a scenario found an answer that never arrived (not flushed) or
/// arrived without its newline.
fn flush(items: &[ItemResult], handshake_ok: bool) -> ItemResult {
    let found = items.iter().find_map(|i| {
        let p = i.problem.as_ref()?;
        matches!(p.cause, Cause::Silent | Cause::NoNewline).then_some((i.item, p))
    });
    let (status, detail, problem) = match found {
        Some((item, p)) => {
            let what = format!("{} (see {})", p.what, item.id());
            let problem = Problem {
                cause: p.cause,
                what: what.clone(),
                exchange: vec![],
                stderr: String::new(),
                hint: p.hint.clone(),
            };
            (Status::Fail, what, Some(problem))
        }
        None if !handshake_ok => (
            Status::Skip,
            "not judged: the bot never got past the handshake".to_string(),
            None,
        ),
        None => {
            let failed: Vec<&str> = items
                .iter()
                .filter(|i| i.status == Status::Fail)
                .map(|i| i.item.id())
                .collect();
            let detail = if failed.is_empty() {
                "every answer arrived in time as a whole line".to_string()
            } else {
                // Not "in time": a late answer is a problem of its own item, not of flushing.
                format!(
                    "nothing was held back in a buffer: every line that arrived came whole (see \
                     {} for what else went wrong)",
                    failed.join(", ")
                )
            };
            (Status::Pass, detail, None)
        }
    };
    ItemResult {
        item: Item::FLUSH,
        title: Item::FLUSH.title(),
        status,
        detail,
        problem,
        ms: 0,
    }
}
