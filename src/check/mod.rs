//! `rollarena check`: a conformance run for bot authors.
//!
//! The check starts the author's bot and walks it through scripted scenarios for the options of
//! their contest (board size, player counts, time limits), on the arbiter's own machinery: the
//! same process handling and line reader ([`crate::arbiter::bot::Bot`]), the same wire types,
//! the same Rolit engine and the same clock as a match. Each scenario is one checklist
//! [`Item`]; its verdict is a pass with a one-line detail, or a [`Problem`]: what went wrong, the
//! exchange that shows it (the lines sent and received, cut to a sane length), the bot's stderr
//! tail and a hint of the usual cause. Two items (no junk on stdout, answers flushed) are judged
//! from everything the scenarios saw.
//!
//! - [`talk`]: one conversation with a bot process, its transcript, and the diagnosis of a
//!   silent bot (late, no newline, not flushed);
//! - [`scenarios`]: Rolit's scripts, as a table of items with their prerequisites;
//! - [`robots`]: Rock'n'Roll Robot's scripts (`--game robots`), on the real rules;
//! - [`hints`]: the hints' wording.

pub mod hints;
pub mod robots;
pub mod scenarios;
pub mod talk;

use std::time::Instant;

use serde::Serialize;
use serde_json::Value;

use crate::arbiter::bot::{BotSpec, Limits};
use crate::arbiter::clock::TimeControl;
use crate::game::rolit::Rolit;
use crate::sandbox::Isolation;
pub use talk::{Cause, Dir, Line, Problem};

/// A checklist item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    Handshake,
    Turn,
    Colours,
    Illegal,
    Played,
    Rounds,
    Bye,
    Stdout,
    Flush,
    // Rock'n'Roll Robot's own items.
    Declare,
    Prove,
    Others,
    Pass,
    Quiet,
}

/// The game a check is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckGame {
    Rolit,
    Robots,
}

impl Item {
    /// Every item, in checklist order.
    pub const ALL: [Item; 9] = [
        Item::Handshake,
        Item::Turn,
        Item::Colours,
        Item::Illegal,
        Item::Played,
        Item::Rounds,
        Item::Bye,
        Item::Stdout,
        Item::Flush,
    ];

    /// The item's name in reports and `--json`.
    pub fn id(self) -> &'static str {
        match self {
            Item::Handshake => "handshake",
            Item::Turn => "turn",
            Item::Colours => "colours",
            Item::Illegal => "illegal",
            Item::Played => "played",
            Item::Rounds => "rounds",
            Item::Bye => "bye",
            Item::Stdout => "stdout",
            Item::Flush => "flush",
            Item::Declare => "declare",
            Item::Prove => "prove",
            Item::Others => "others",
            Item::Pass => "pass",
            Item::Quiet => "quiet",
        }
    }

    /// What the item expects, in words.
    pub fn title(self) -> &'static str {
        match self {
            Item::Handshake => "the handshake within its budget",
            Item::Turn => "a legal answer to turn",
            Item::Colours => "every colour and seat",
            Item::Illegal => "a refusal sent on purpose",
            Item::Played => "played messages for other seats",
            Item::Rounds => "several rounds",
            Item::Bye => "bye followed by a clean exit",
            Item::Stdout => "no junk on stdout",
            Item::Flush => "answers flushed, one per line",
            Item::Declare => "a provable declaration after start, in time",
            Item::Prove => "prove answered with a solution the rules accept",
            Item::Others => "other seats' declarations and failed demonstrations",
            Item::Pass => "pass after declaring, before the hourglass runs out",
            Item::Quiet => "a token where nothing is asked of it, then another",
        }
    }
}

/// What to check, for the options of a contest.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    pub bot: BotSpec,
    /// The game checked (Rolit's options below do not apply to robots).
    pub game: CheckGame,
    /// Board size: 8, 6 or 4.
    pub size: u8,
    /// Player counts to check, each valid on `size`; not empty.
    pub players: Vec<usize>,
    pub time: TimeControl,
    pub limits: Limits,
    /// Seeds the check's own moves, so a check is reproducible.
    pub seed: u64,
    /// Leave the legal moves out of `turn`, as a contest with `--hide-legal` does.
    pub hide_legal: bool,
    /// How the bot is started: as in a contest (the bot user, limits, sandbox level).
    pub isolation: Isolation,
    /// Freeze the bot while nothing is asked of it, as a match does by default.
    pub freeze: bool,
}

impl CheckConfig {
    /// Checks the variants: every player count must be valid on the board size.
    pub fn validate(&self) -> Result<(), String> {
        if self.players.is_empty() {
            return Err("no player count to check".into());
        }
        for &p in &self.players {
            Rolit::new(self.size, p).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// The player counts checked by default on a board size: every one the rules allow.
    pub fn default_players(size: u8) -> Vec<usize> {
        (2..=4).filter(|&p| Rolit::new(size, p).is_ok()).collect()
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

/// Runs the whole checklist, calling `progress` as each item is decided.
pub async fn run_check(config: &CheckConfig, progress: &mut dyn FnMut(&ItemResult)) -> Report {
    let started = Instant::now();
    let mut seen = scenarios::Seen::default();
    let mut items: Vec<ItemResult> = Vec::new();
    let list = match config.game {
        CheckGame::Rolit => scenarios::SCENARIOS,
        CheckGame::Robots => robots::SCENARIOS,
    };
    for scenario in list {
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
            let verdict = match config.game {
                CheckGame::Rolit => scenarios::run(scenario.item, config, &mut seen).await,
                CheckGame::Robots => robots::run(scenario.item, config, &mut seen).await,
            };
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
        .any(|i| i.item == Item::Handshake && i.status == Status::Pass);
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
        options: match config.game {
            CheckGame::Rolit => scenarios::options(config),
            CheckGame::Robots => robots::options(config),
        },
        items,
        passed,
        ms: started.elapsed().as_millis() as u64,
    }
}

/// No junk on stdout: judged from every line the scenarios received.
fn stdout(seen: &scenarios::Seen, handshake_ok: bool) -> ItemResult {
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
        item: Item::Stdout,
        title: Item::Stdout.title(),
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
        None => (
            Status::Pass,
            "every answer arrived in time as a whole line".to_string(),
            None,
        ),
    };
    ItemResult {
        item: Item::Flush,
        title: Item::Flush.title(),
        status,
        detail,
        problem,
        ms: 0,
    }
}
