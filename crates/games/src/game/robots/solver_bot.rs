//! The built-in Rock'n'Roll Robot bot (`rollarena bot solver`, listed in the registry entry as
//! [`BOT`]): the library's optimal solver behind the protocol, with a strength setting. Its
//! requests are `start`, `prove` and declarations, not `turn`s, so it runs its own protocol
//! loop (a [`ServeBot`]).
//!
//! At each `start` it reads the board, the robots and the token from the state, declares the
//! length of a quick (not always shortest) solution at once if it has one, then searches for
//! the shortest and lowers its declaration when it finds better; `prove` is answered with the
//! best moves found. Once it has declared the best it will find it sends `pass`, so a table
//! of bots that all pass goes to verification without waiting for the hourglass. Strength 10 searches solutions of any length the solver reaches; strength
//! s below 10 only looks for solutions of at most s + 2 moves, so weaker bots miss the hard
//! tokens and lose races to stronger ones. Plain serde_json values: a token is a rare event,
//! nothing here is on a hot path.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::game::bot::{BotFlag, BotSettings, Build, BuiltinBot, Options, ServeBot, Unreadable};
use crate::game::robots::{Board, Budget, Move, Solution, StateView, quick_solution, solve};

/// The strongest setting (and the default).
pub const MAX_STRENGTH: u32 = 10;

/// The bot of the registry entry.
pub const BOT: BuiltinBot = BuiltinBot {
    name: "solver",
    help: "declares a quick solution's length at once, then the shortest it finds (the \
           library's optimal solver), and proves it. --strength S from 1 to 10: below 10 it \
           only looks for solutions of at most S + 2 moves.",
    flags: &[BotFlag::Strength],
    build: Build::Serve(build),
};

/// `--strength` from 1 to [`MAX_STRENGTH`]; `--noise` does not apply (the solver has no
/// random choices to replace) and `--seed` changes nothing.
fn build(settings: &BotSettings, options: Options) -> Result<Box<dyn ServeBot>, crate::Error> {
    let strength = settings.strength.unwrap_or(MAX_STRENGTH);
    if !(1..=MAX_STRENGTH).contains(&strength) {
        return Err(crate::Error::BotSettings(format!(
            "--strength {strength}: from 1 (solutions of at most 3 moves) to {MAX_STRENGTH}"
        )));
    }
    if options.noise != 0.0 {
        return Err(crate::Error::BotSettings(
            "--noise: the solver makes no random choices to replace".into(),
        ));
    }
    Ok(Box::new(Solver { strength }))
}

/// The solver bot at a strength.
struct Solver {
    strength: u32,
}

impl ServeBot for Solver {
    fn serve(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> io::Result<()> {
        serve(self.strength, input, out)
    }
}

/// The best moves found for the token in play.
#[derive(Default)]
struct Plan {
    best: Option<Vec<Move>>,
}

/// Runs the bot until `bye` or the end of stdin.
pub fn serve(strength: u32, input: impl BufRead, mut out: impl Write) -> io::Result<()> {
    let mut current = Plan::default();
    // Alone, the first declaration is verified at once: declare only the best found.
    let mut solo = false;
    for line in input.lines() {
        let line = line?;
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        match msg.get("type").and_then(Value::as_str) {
            Some("hello") => {
                solo = msg["seats"].as_array().is_some_and(|s| s.len() == 1);
                send(
                    &mut out,
                    json!({"type": "ready", "name": format!("solver-{strength}"),
                           "version": env!("CARGO_PKG_VERSION"), "author": "rollarena"}),
                )?;
                if msg.get("game").and_then(Value::as_str) != Some("robots") {
                    send(
                        &mut out,
                        json!({"type": "log", "text": "this bot plays robots only"}),
                    )?;
                }
            }
            Some("start") => {
                current = Plan::default();
                if let Err(e) = think(strength, solo, &msg["state"], &mut current, &mut out) {
                    send(&mut out, json!({"type": "log", "text": e.0}))?;
                }
            }
            Some("prove") => {
                let moves = current.best.clone().unwrap_or_default();
                send(
                    &mut out,
                    json!({"type": "solution", "moves": moves, "turn_id": msg["turn_id"]}),
                )?;
            }
            Some("bye") => return Ok(()),
            _ => {}
        }
    }
    Ok(())
}

/// Declares what it can find for the token in `state`, best last.
fn think(
    strength: u32,
    solo: bool,
    state: &Value,
    current: &mut Plan,
    out: &mut impl Write,
) -> Result<(), Unreadable> {
    let view = StateView::deserialize(state).map_err(|e| format!("cannot read the state: {e}"))?;
    let board = Board::from_view(&view.board).map_err(|e| Unreadable(e.to_string()))?;
    let (robots, token) = (view.robots, view.token);
    let cap = if strength >= MAX_STRENGTH {
        Budget::default().max_moves
    } else {
        strength as usize + 2
    };
    let keep = |path: Vec<Move>, current: &mut Plan| -> bool {
        let better = current.best.as_ref().is_none_or(|b| path.len() < b.len());
        if better && path.len() <= cap {
            current.best = Some(path);
        }
        better && current.best.is_some()
    };
    let declare = |current: &Plan, out: &mut dyn Write| -> Result<(), Unreadable> {
        match &current.best {
            Some(best) => send(out, json!({"type": "declare", "moves": best.len()}))
                .map_err(|e| Unreadable(e.to_string())),
            None => Ok(()),
        }
    };
    // Each improvement is declared at once; alone, only the best (it is verified at once).
    if let Some(quick) = quick_solution(&board, &robots, token)
        && keep(quick, current)
        && !solo
    {
        declare(current, out)?;
    }
    let budget = Budget {
        max_moves: cap,
        time: Some(Duration::from_secs(20)),
        ..Budget::default()
    };
    let found = match solve(&board, &robots, token, budget) {
        Solution::Optimal(path) => Some(path),
        Solution::GaveUp { best, .. } => best,
        Solution::Impossible => None,
    };
    if let Some(path) = found
        && keep(path, current)
        && !solo
    {
        declare(current, out)?;
    }
    if solo {
        declare(current, out)?;
    }
    // Nothing better will come: say so, so the hourglass need not run out for us (alone, a
    // declaration is verified at once and there is nothing left to pass).
    if !(solo && current.best.is_some()) {
        send(out, json!({"type": "pass"})).map_err(|e| Unreadable(e.to_string()))?;
    }
    Ok(())
}

fn send(out: &mut (impl Write + ?Sized), msg: Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &msg)?;
    out.write_all(b"\n")?;
    out.flush()
}
