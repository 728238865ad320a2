//! Verification of a record, for every game: each round fed to the same [`Referee`](crate::referee::Referee) that
//! played it live, and everything the referee produces compared with what the record says.
//!
//! Per round (`round.rs`): the format, game, rules version and options; the round seed (derived
//! from the match seed, table and round); the colours and the first seat; then the round is
//! re-played from the record's stamped inputs: every bot's line at its time (its refused
//! attempts, re-judged with the arbiter's own parser and rules, then its answer), every failure
//! the process layer saw, and a tick at every deadline. The referee decides as it did live:
//! legality and canonical notation, effects, refusal reasons, timeouts and retries that forfeit,
//! the arbiter's seeded fallback moves, the rules' deadlines, the round's end, the final state
//! and the result (forfeits applied by [`crate::game::Outcome::new`]). Per match: every round agrees on the
//! match's settings and seats, no round appears twice, what a round carries to the next is
//! what the previous one ended with, and for every match the file holds whole the standings
//! are computed with [`Standings`], the same code the arbiter uses.
//!
//! What a record keeps only as evidence is not re-played: lines nobody asked for (counted, not
//! timed), `log`s, stderr tails, and refused lines of simultaneous play (a fault without a
//! time; its forfeit, if any, is fed as recorded).
//!
//! The result is a plain value: a [`Report`] or the first [`Discrepancy`], naming the round by
//! its index in the file (from 1), the move (ply) where there is one, and the reason.

mod compare;
mod lean;
mod recorded;
mod round;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::fmt;

use crate::Error;
use crate::record::RoundRecord;
use crate::record::reader::{ReadError, RecordFile, stream_lines};
use crate::standings::MatchStandings as Standings;
use crate::wire::Standing;
use recorded::Recorded;

pub use compare::check_result;

/// The first thing in a record that the rules contradict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discrepancy {
    /// The round's index in the file, from 1 (`--round N`).
    pub game: usize,
    /// The move, from 1, where the discrepancy is in one move.
    pub ply: Option<u32>,
    pub reason: String,
}

impl fmt::Display for Discrepancy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ply {
            Some(ply) => write!(f, "round {}, move {ply}: {}", self.game, self.reason),
            None => write!(f, "round {}: {}", self.game, self.reason),
        }
    }
}

impl std::error::Error for Discrepancy {}

/// What a clean verification covered.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Rounds verified.
    pub games: usize,
    /// Moves replayed (the arbiter's fallback moves included).
    pub moves: usize,
    /// Moves the arbiter played for forfeited seats, reproduced with the seeded fallback.
    pub fallback_moves: usize,
    /// Refused attempts re-judged.
    pub refused: usize,
    /// Refused attempts whose evidence was cut (or not valid UTF-8), so only their place could
    /// be checked, not their reason.
    pub refused_unjudged: usize,
    /// Forfeits checked.
    pub forfeits: usize,
    /// The matches the verified rounds belong to, in order of first appearance.
    pub matches: Vec<MatchReport>,
}

/// One match of a verified file.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    pub match_id: String,
    pub table: Option<u32>,
    /// Rounds the match has.
    pub rounds: u32,
    /// Its rounds the file holds, by index in the file (from 1), in round order.
    pub games: Vec<usize>,
    /// The standings, when the file holds every round of the match.
    pub standings: Option<Vec<Standing>>,
}

impl MatchReport {
    pub fn whole(&self) -> bool {
        self.standings.is_some()
    }
}

/// Counts for one verified round.
#[derive(Default)]
pub(crate) struct Counts {
    pub moves: usize,
    pub fallback_moves: usize,
    pub refused: usize,
    pub refused_unjudged: usize,
    pub forfeits: usize,
}

/// Verifies every round of a file and every match it holds whole.
pub fn verify(records: &[RoundRecord]) -> Result<Report, Discrepancy> {
    let mut verifier = Verifier::new();
    for record in records {
        verifier.round(record)?;
    }
    verifier.finish()
}

/// A file's verification fed one round at a time, in file order, as the rounds are read
/// ([`crate::record::reader::stream_records`]): each round is re-played when it comes and
/// only what the match-level checks need of it is kept (its header, result and forfeits, not
/// its moves), so a file of any length is verified in the memory of one round. The same
/// checks in the same order as [`verify`], which is this over a file read whole.
pub struct Verifier {
    report: Report,
    /// What each match's last verified round handed on: its carried state (games that carry
    /// one) and the request counter.
    handed: BTreeMap<(String, Option<u32>), (u32, round::Handed)>,
    /// The rounds verified so far, without their moves, logs, faults, stderr and final state.
    kept: Vec<RoundRecord>,
    /// Room for a line without its moves ([`Verifier::line`]), kept from line to line.
    header: Vec<u8>,
}

impl Default for Verifier {
    fn default() -> Self {
        Verifier::new()
    }
}

impl Verifier {
    pub fn new() -> Verifier {
        Verifier {
            report: empty_report(),
            handed: BTreeMap::new(),
            kept: Vec::new(),
            header: Vec::new(),
        }
    }

    /// Verifies the file's next round.
    pub fn round(&mut self, record: &RoundRecord) -> Result<(), Discrepancy> {
        self.round_of(record, &recorded(record))
    }

    /// Verifies the file's next round from its line: `Err` if the line is not a round (the
    /// error of reading it whole), else the verdict. Its moves are read lean, their notation
    /// and effects compared as the text they were written as where they are written as the
    /// arbiter writes them; a line the lean reading does not take is read whole and verified
    /// the same way.
    pub fn line(&mut self, line: &[u8]) -> Result<Result<(), Discrepancy>, serde_json::Error> {
        let mut header = std::mem::take(&mut self.header);
        let lean = lean::read(line, &mut header);
        let verdict = match lean {
            Some((round, moves)) => self.round_of(&round, &moves),
            None => {
                let record = serde_json::from_slice::<RoundRecord>(line);
                self.header = header;
                return Ok(self.round(&record?));
            }
        };
        self.header = header;
        Ok(verdict)
    }

    fn round_of(
        &mut self,
        record: &RoundRecord,
        moves: &[Recorded<'_>],
    ) -> Result<(), Discrepancy> {
        // Kept first, so that a discrepancy in it can name it.
        let i = self.kept.len();
        self.kept.push(without_play(record));
        let key = (record.match_id.clone(), record.table);
        let before = self
            .handed
            .get(&key)
            .filter(|(round, _)| *round + 1 == record.round);
        let at = |reason: String| Discrepancy {
            game: i + 1,
            ply: None,
            reason,
        };
        let turn_id_from = match (record.turn_id_from, before) {
            (Some(from), Some((round, h))) if from != h.turn_id => {
                return Err(at(format!(
                    "the round's requests are numbered on from turn_id {from}, but round \
                     {round} of its match ended at turn_id {}",
                    h.turn_id
                )));
            }
            (Some(from), _) => from,
            (None, Some((_, h))) => h.turn_id,
            (None, None) => 0,
        };
        let (counts, next) =
            round::verify_round(record, moves, turn_id_from).map_err(|(ply, reason)| {
                Discrepancy {
                    game: i + 1,
                    ply,
                    reason,
                }
            })?;
        add(&mut self.report, counts);
        if let Some((round, h)) = before
            && record.carry != h.carry
        {
            return Err(at(format!(
                "the round starts from a state that is not the one round {round} of its \
                 match ended with"
            )));
        }
        self.handed.insert(key, (record.round, next));
        Ok(())
    }

    /// The rounds fed so far (the one a discrepancy was found in included), by index in the
    /// file (from 0), without their moves: what a message about a discrepancy names a round
    /// by.
    pub fn rounds(&self) -> &[RoundRecord] {
        &self.kept
    }

    /// The match-level checks, once the file's last round was verified: the report of the
    /// rounds fed so far (the verifier starts over with its counts).
    pub fn finish(&mut self) -> Result<Report, Discrepancy> {
        let mut report = std::mem::replace(&mut self.report, empty_report());
        report.matches = matches(&self.kept)?;
        Ok(report)
    }
}

/// A round's header, seats, result and forfeits: what the match-level checks read.
fn without_play(r: &RoundRecord) -> RoundRecord {
    RoundRecord {
        format: r.format,
        arbiter: r.arbiter.clone(),
        game: r.game.clone(),
        rules: r.rules,
        options: r.options.clone(),
        match_id: r.match_id.clone(),
        table: r.table,
        round: r.round,
        rounds: r.rounds,
        match_seed: r.match_seed,
        seed: r.seed,
        deal: r.deal,
        settings: r.settings.clone(),
        seats: r.seats.clone(),
        colours: r.colours.clone(),
        first: r.first,
        turn_id_from: r.turn_id_from,
        carry: None,
        ends_match: r.ends_match,
        moves: Vec::new(),
        forfeits: r.forfeits.clone(),
        faults: Vec::new(),
        logs: Vec::new(),
        stderr: Vec::new(),
        result: r.result.clone(),
        board: serde_json::Value::Null,
        started: r.started.clone(),
        ended: r.ended.clone(),
    }
}

/// Verifies one round of a file (`game` from 1). Match-level checks need the whole file and
/// are left out.
pub fn verify_game(records: &[RoundRecord], game: usize) -> Result<Report, Discrepancy> {
    let mut report = empty_report();
    let record = records.get(game.wrapping_sub(1)).ok_or(Discrepancy {
        game,
        ply: None,
        reason: format!("the record holds {} rounds", records.len()),
    })?;
    let moves = recorded(record);
    let (counts, _) = round::verify_round(record, &moves, record.turn_id_from.unwrap_or(0))
        .map_err(|(ply, reason)| Discrepancy { game, ply, reason })?;
    add(&mut report, counts);
    Ok(report)
}

/// What a round hands on to the next round of its match, as the rules re-play it: the state
/// it carries (games whose rounds are not independent) and the request counter after it. A
/// resumed match starts its next round from these.
pub fn handed_on(record: &RoundRecord) -> Result<(Option<serde_json::Value>, u64), Error> {
    let moves = recorded(record);
    let (_, handed) = round::verify_round(record, &moves, record.turn_id_from.unwrap_or(0))
        .map_err(|(ply, reason)| {
            Error::Mismatch(match ply {
                Some(ply) => format!("move {ply}: {reason}"),
                None => reason,
            })
        })?;
    Ok((handed.carry, handed.turn_id))
}

/// A round's moves as the verifier reads them.
fn recorded(record: &RoundRecord) -> Vec<Recorded<'_>> {
    record.moves.iter().map(Recorded::of).collect()
}

/// Verifies a record file as it is read, a line at a time ([`Verifier::line`]), so that the
/// file's moves are never all held at once: the file's line count and torn last line, and the
/// first discrepancy (the rest of the file is still read, so that a damaged line after it is
/// said first, as when the file is read whole). The match-level checks are the caller's
/// ([`Verifier::finish`]), once no discrepancy was found.
pub fn verify_stream(
    reader: impl std::io::BufRead,
    verifier: &mut Verifier,
) -> Result<(RecordFile, Option<Discrepancy>), ReadError> {
    let mut found: Option<Discrepancy> = None;
    let file = stream_lines(reader, |line| {
        if found.is_some() {
            // Read for damage only.
            return serde_json::from_slice::<RoundRecord>(line).map(drop);
        }
        if let Err(d) = verifier.line(line)? {
            found = Some(d);
        }
        Ok(())
    })?;
    Ok((file, found))
}

fn empty_report() -> Report {
    Report {
        games: 0,
        moves: 0,
        fallback_moves: 0,
        refused: 0,
        refused_unjudged: 0,
        forfeits: 0,
        matches: Vec::new(),
    }
}

fn add(report: &mut Report, c: Counts) {
    report.games += 1;
    report.moves += c.moves;
    report.fallback_moves += c.fallback_moves;
    report.refused += c.refused;
    report.refused_unjudged += c.refused_unjudged;
    report.forfeits += c.forfeits;
}

/// Groups the rounds by match, checks that each match's rounds agree with each other and that
/// none appears twice, and computes the standings of the matches the file holds whole.
fn matches(records: &[RoundRecord]) -> Result<Vec<MatchReport>, Discrepancy> {
    let mut order: Vec<(String, Option<u32>)> = Vec::new();
    let mut groups: BTreeMap<(String, Option<u32>), Vec<usize>> = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        let key = (r.match_id.clone(), r.table);
        let games = groups.entry(key.clone()).or_default();
        if games.is_empty() {
            order.push(key);
        } else {
            let first = &records[games[0]];
            same_match(first, r).map_err(|reason| Discrepancy {
                game: i + 1,
                ply: None,
                reason: format!(
                    "it belongs to match {} like the file's round {}, but {reason}",
                    r.match_id,
                    games[0] + 1
                ),
            })?;
            if let Some(&dup) = games.iter().find(|&&g| records[g].round == r.round) {
                return Err(Discrepancy {
                    game: i + 1,
                    ply: None,
                    reason: format!(
                        "round {} of match {} is already in the file as its round {}",
                        r.round,
                        r.match_id,
                        dup + 1
                    ),
                });
            }
        }
        games.push(i);
    }
    let mut out = Vec::new();
    for key in order {
        let mut games = groups.remove(&key).unwrap_or_default();
        games.sort_by_key(|&g| records[g].round);
        let first = &records[games[0]];
        // Whole: every round 1..k is there, k being the match's rounds or the round whose
        // rules ended the match.
        let last = &records[games[games.len() - 1]];
        let whole = games.len() == first.rounds as usize
            || (last.ends_match && games.len() == last.round as usize);
        let standings = whole.then(|| {
            let names: Vec<String> = first.seats.iter().map(|s| s.name.clone()).collect();
            let mut standings = Standings::new(&names);
            for &g in &games {
                standings.add(&records[g]);
            }
            standings.table()
        });
        out.push(MatchReport {
            match_id: key.0,
            table: key.1,
            rounds: first.rounds,
            games: games.iter().map(|g| g + 1).collect(),
            standings,
        });
    }
    Ok(out)
}

/// Rounds of one match share its game, options, seeds, settings and seats.
fn same_match(a: &RoundRecord, b: &RoundRecord) -> Result<(), Error> {
    let checks: [(&str, bool); 7] = [
        ("the game differs", a.game == b.game && a.rules == b.rules),
        ("the options differ", a.options == b.options),
        ("the number of rounds differs", a.rounds == b.rounds),
        ("the match seed differs", a.match_seed == b.match_seed),
        ("the settings differ", a.settings == b.settings),
        (
            "the seat names differ",
            a.seats
                .iter()
                .map(|s| &s.name)
                .eq(b.seats.iter().map(|s| &s.name)),
        ),
        (
            "the seats' commands differ",
            a.seats
                .iter()
                .map(|s| &s.command)
                .eq(b.seats.iter().map(|s| &s.command)),
        ),
    ];
    match checks.iter().find(|(_, same)| !same) {
        Some((what, _)) => Err(Error::Mismatch(what.to_string())),
        None => Ok(()),
    }
}
