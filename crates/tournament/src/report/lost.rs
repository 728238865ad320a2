//! "Where the game was lost" on the bot pages, when the report is written with analysis
//! (`rollarena report --analyse`): every move of every counted round graded by its game's
//! registry entry ([`crate::game::registry::Analysis`]; rounds of games without one are
//! skipped), folded per bot into its accuracy (the share of its moves within one ball of
//! the best, or whatever its game's [`Terms`] count accurate) and its largest losses, each
//! with its round's replay link. The page says them in the game's words (the terms' unit and
//! what is graded).
//!
//! Grading searches every position within a budget, so it is off by default: a report of
//! thousands of rounds would take minutes.

use serde::Serialize;
use serde_json::{Value, json};

use super::viewers::Link;
use crate::game::grade::{Budget, Graded, Terms};
use crate::game::registry;
use crate::record::RoundRecord;

/// The largest losses kept per bot.
const WORST: usize = 10;

/// A bot's graded moves, folded.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BotLost {
    pub moves: u64,
    pub within_one: u64,
    pub exact: u64,
    pub total_loss: i64,
    /// The largest losses, largest first.
    pub worst: Vec<Worst>,
}

/// One costly move.
#[derive(Clone, Debug, Serialize)]
pub struct Worst {
    pub t: u32,
    pub r: u32,
    pub ply: u32,
    pub colour: Option<String>,
    #[serde(rename = "move")]
    pub mv: String,
    pub best: Vec<String>,
    pub loss: i32,
    pub exact: bool,
    /// The round's replay.
    pub h: String,
}

/// Every bot's graded moves.
#[derive(Debug)]
pub struct Lost {
    budget: Budget,
    names: Vec<String>,
    pub bots: Vec<BotLost>,
    /// The words and the accuracy of the game graded (the first graded round's).
    terms: Option<Terms>,
    /// Rounds graded and rounds whose game grades nothing (or whose grading failed).
    pub graded: u64,
    pub skipped: u64,
}

impl Lost {
    pub fn new(names: &[String], budget: Budget) -> Lost {
        Lost {
            budget,
            names: names.to_vec(),
            bots: vec![BotLost::default(); names.len()],
            terms: None,
            graded: 0,
            skipped: 0,
        }
    }

    /// Grades one round and folds its moves into its seats' bots.
    pub fn round(&mut self, table: u32, r: &RoundRecord, link: Link) {
        let Some(analysis) = registry::find(&r.game)
            .ok()
            .and_then(|e| e.analysis.as_ref())
        else {
            self.skipped += 1;
            return;
        };
        let Ok(moves) = (analysis.grade)(r, &self.budget) else {
            self.skipped += 1;
            return;
        };
        let terms = *self.terms.get_or_insert(analysis.terms);
        self.graded += 1;
        for g in moves.iter().filter(|g| !g.by_arbiter) {
            let Some(bot) = r
                .seats
                .get(g.seat)
                .and_then(|s| self.names.iter().position(|n| *n == s.name))
            else {
                continue;
            };
            self.add(bot, table, g, link, terms.within);
        }
    }

    fn add(&mut self, bot: usize, table: u32, g: &Graded, link: Link, within: i32) {
        let b = &mut self.bots[bot];
        b.moves += 1;
        b.within_one += u64::from(g.loss <= within);
        b.exact += u64::from(g.exact);
        b.total_loss += i64::from(g.loss);
        if g.loss > 0 && (b.worst.len() < WORST || b.worst.last().is_some_and(|w| w.loss < g.loss))
        {
            b.worst.push(Worst {
                t: table,
                r: g.round,
                ply: g.ply,
                colour: g.colour.clone(),
                mv: g.mv.clone(),
                best: g.best.clone(),
                loss: g.loss,
                exact: g.exact,
                h: link.href(),
            });
            // Stable: of equal losses, the earliest stays first.
            b.worst.sort_by_key(|w| std::cmp::Reverse(w.loss));
            b.worst.truncate(WORST);
        }
    }

    /// A bot's part of its page.
    pub fn json(&self, bot: usize) -> Value {
        let b = &self.bots[bot];
        json!({
            "moves": b.moves,
            "within_one": b.within_one,
            "accuracy": if b.moves == 0 { Value::Null } else { json!(b.within_one as f64 / b.moves as f64) },
            "exact": b.exact,
            "total_loss": b.total_loss,
            "worst": b.worst,
            "budget_ms": self.budget.time.map(|t| t.as_millis() as u64),
            "graded": self.terms.map_or("moves", |t| t.graded),
            "unit": self.terms.map_or("balls", |t| t.unit),
            "accurate": self.terms.map_or("within one ball of the best", |t| t.accurate),
        })
    }
}
