//! Verification of a record: every move of every round replayed through the rules engine and
//! every recorded effect checked against what the engine makes of it.
//!
//! Per round: the format, game, rules version and options; the round seed (derived from the
//! match seed, table and round); the colours and the first seat (the rotation and the first
//! colour drawn from the match seed); every move (numbering, turn order, colour, legality,
//! canonical notation, flips); every refused attempt (re-judged with the arbiter's own parser and
//! the rules: a refused legal move or a changed reason is caught); the forfeits and the moves the
//! arbiter played for forfeited seats (reproduced exactly with the same seeded fallback:
//! `fallback_rng(seed, seat)`, one draw per fallback move of that seat, in order); the round's
//! end, the final board, and the result (scores, points, ranks and win shares, with forfeits
//! applied by [`Outcome::new`]). Per match: every round agrees on the match's settings and seats,
//! no round appears twice, and for every match the file holds whole the standings are computed
//! with [`MatchStandings`], the same code the arbiter uses.
//!
//! The result is a plain value: a [`Report`] or the first [`Discrepancy`], naming the round by
//! its index in the file (from 1), the move (ply) where there is one, and the reason.

use std::collections::BTreeMap;
use std::fmt;

use rand::Rng;
use serde_json::Value;

use super::{new_round, rolit_of};
use crate::arbiter::protocol::{FromBot, Incoming, Standing, parse_line};
use crate::game::{Outcome, Request, Round, Seat, ToAct, short_json};
use crate::record::Refused;
use crate::record::{FORMAT_VERSION, RoundRecord};
use crate::seed::{fallback_rng, round_seed};
use crate::standings::MatchStandings;

/// The first thing in a record that the rules contradict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discrepancy {
    /// The round's index in the file, from 1 (`replay --round N`).
    pub game: usize,
    /// The move, from 1, where the discrepancy is in one move.
    pub ply: Option<u32>,
    pub reason: String,
}

impl fmt::Display for Discrepancy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ply {
            Some(ply) => write!(f, "game {}, move {ply}: {}", self.game, self.reason),
            None => write!(f, "game {}: {}", self.game, self.reason),
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
pub(super) struct Counts {
    pub moves: usize,
    pub fallback_moves: usize,
    pub refused: usize,
    pub refused_unjudged: usize,
    pub forfeits: usize,
}

/// Verifies every round of a file and every match it holds whole.
pub fn verify(records: &[RoundRecord]) -> Result<Report, Discrepancy> {
    let mut report = empty_report();
    // Games that carry state: what each match's last verified round handed on.
    let mut handed: BTreeMap<(String, Option<u32>), (u32, Option<Value>)> = BTreeMap::new();
    for (i, record) in records.iter().enumerate() {
        let (counts, carry) = verify_any(i + 1, record)?;
        add(&mut report, counts);
        let key = (record.match_id.clone(), record.table);
        if let Some((round, given)) = handed.get(&key)
            && *round + 1 == record.round
            && record.carry != *given
        {
            return Err(Discrepancy {
                game: i + 1,
                ply: None,
                reason: format!(
                    "the round starts from a state that is not the one round {round} of its \
                     match ended with"
                ),
            });
        }
        handed.insert(key, (record.round, carry));
    }
    report.matches = matches(records)?;
    Ok(report)
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
    add(&mut report, verify_any(game, record)?.0);
    Ok(report)
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

/// Verifies one round; `game` is its index in the file, from 1.
/// Verifies one round of any game this build knows; returns what it hands to the next round.
fn verify_any(game: usize, r: &RoundRecord) -> Result<(Counts, Option<Value>), Discrepancy> {
    if r.game == "rolit" {
        return Ok((verify_round(game, r)?, None));
    }
    let fail = |(ply, reason): (Option<u32>, String)| Discrepancy { game, ply, reason };
    if r.format != FORMAT_VERSION {
        return Err(fail((
            None,
            format!(
                "record format {} is not the one this build reads ({FORMAT_VERSION})",
                r.format
            ),
        )));
    }
    let g = super::game_of(r).map_err(|e| fail((None, e)))?;
    if r.round == 0 || r.round > r.rounds {
        return Err(fail((
            None,
            format!(
                "round {} of a {}-round match is out of range",
                r.round, r.rounds
            ),
        )));
    }
    super::verify_sim::verify_round(&*g, r).map_err(fail)
}

fn verify_round(game: usize, r: &RoundRecord) -> Result<Counts, Discrepancy> {
    let fail = |ply: Option<u32>, reason: String| Discrepancy { game, ply, reason };
    let at = |ply: u32| move |reason: String| fail(Some(ply), reason);
    let whole = |reason: String| fail(None, reason);
    let mut counts = Counts::default();

    if r.format != FORMAT_VERSION {
        return Err(whole(format!(
            "record format {} is not the one this build reads ({FORMAT_VERSION})",
            r.format
        )));
    }
    let rolit = rolit_of(r).map_err(whole)?;
    let n = rolit.players;
    let lengths = [
        ("seats", r.seats.len()),
        ("stderr tails", r.stderr.len()),
        ("points", r.result.points.len()),
        ("ranks", r.result.ranks.len()),
        ("win shares", r.result.wins.len()),
    ];
    for (what, len) in lengths {
        if len != n {
            return Err(whole(format!(
                "the record lists {len} {what} for {n} players"
            )));
        }
    }
    if r.round == 0 || r.round > r.rounds {
        return Err(whole(format!(
            "round {} of a {}-round match is out of range",
            r.round, r.rounds
        )));
    }
    let seed = round_seed(r.match_seed, r.table.unwrap_or(0), r.round - 1);
    if r.seed != seed {
        return Err(whole(format!(
            "the round seed is {} but match seed {} gives {seed} for round {}{}",
            r.seed,
            r.match_seed,
            r.round,
            r.table
                .map(|t| format!(" of table {t}"))
                .unwrap_or_default()
        )));
    }

    let mut round = new_round(&rolit, r);
    let colours = round.colours().unwrap_or_default();
    if r.colours.as_ref() != Some(&colours) {
        return Err(whole(format!(
            "the seats' colours are {} but in round {} the rotation gives {} (seats in order)",
            r.colours
                .as_ref()
                .map(|c| c.join(", "))
                .unwrap_or_else(|| "missing".into()),
            r.round,
            colours.join(", ")
        )));
    }
    if r.first != round.first() {
        return Err(whole(format!(
            "seat {} is recorded as moving first, but {} moves first in every round of match \
             seed {} (drawn from it), and that is seat {}",
            r.first,
            rolit.first_colour(r.match_seed),
            r.match_seed,
            round.first()
        )));
    }

    // Forfeits: one per seat at most, at a move that exists.
    let mut forfeit_ply: Vec<Option<u32>> = vec![None; n];
    for f in &r.forfeits {
        if f.seat >= n {
            return Err(whole(format!(
                "a forfeit names seat {}, but there are {n} seats",
                f.seat
            )));
        }
        if forfeit_ply[f.seat].is_some() {
            return Err(whole(format!("seat {} forfeits twice", f.seat)));
        }
        if f.ply as usize > r.moves.len() + 1 {
            return Err(whole(format!(
                "seat {} forfeits at move {}, but the round has {} moves",
                f.seat,
                f.ply,
                r.moves.len()
            )));
        }
        forfeit_ply[f.seat] = Some(f.ply);
        counts.forfeits += 1;
    }

    let mut fallback: Vec<_> = (0..n).map(|s| fallback_rng(r.seed, s)).collect();
    let mut fallbacks_of = vec![0usize; n];
    let mut in_opening = true;
    for (i, m) in r.moves.iter().enumerate() {
        let ply = i as u32 + 1;
        let fail = at(ply);
        if m.ply != ply {
            return Err(fail(format!(
                "the move is numbered {}; moves are numbered in order from 1",
                m.ply
            )));
        }
        let seat = match round.to_act() {
            ToAct::Seat(seat, Request::Turn) => seat,
            ToAct::Over => {
                return Err(fail(format!(
                    "the round was over after {i} moves, yet the record goes on"
                )));
            }
            other => return Err(fail(format!("the rules ask for {other:?}, not a move"))),
        };
        let colour = &colours[seat];
        if m.seat != seat {
            return Err(fail(format!(
                "seat {} moved, but it was seat {seat}'s turn ({colour})",
                m.seat
            )));
        }
        if m.colour.as_ref() != Some(colour) {
            return Err(fail(format!(
                "the move is recorded as {}'s, but seat {seat} plays {colour}",
                m.colour.as_deref().unwrap_or("no colour")
            )));
        }
        if m.opening {
            // A set opening (tournaments): the arbiter's moves before any bot was asked.
            if !in_opening || !m.by_arbiter || !m.refused.is_empty() || m.ms != 0.0 {
                return Err(fail(
                    "an opening move must come before every bot's move, be played by the \
                     arbiter and carry no refused attempts or timings"
                        .into(),
                ));
            }
        } else {
            in_opening = false;
            let forfeited = forfeit_ply[seat].is_some_and(|p| ply >= p);
            if m.by_arbiter && !forfeited {
                return Err(fail(format!(
                    "the arbiter played for seat {seat}, which had not forfeited"
                )));
            }
            if !m.by_arbiter && forfeited {
                return Err(fail(format!(
                    "seat {seat} forfeited at move {}, yet its bot is recorded as playing this move",
                    forfeit_ply[seat].unwrap_or(0)
                )));
            }
            if m.by_arbiter {
                if !m.refused.is_empty() || m.ms != 0.0 || m.cpu_ms.is_some() {
                    return Err(fail(
                        "a move the arbiter played has refused attempts or bot timings".into(),
                    ));
                }
                let rng = &mut fallback[seat];
                let expected = round.fallback(seat, &mut |k| rng.random_range(0..k));
                fallbacks_of[seat] += 1;
                if m.mv != expected {
                    return Err(fail(format!(
                        "the arbiter's move for forfeited seat {seat} is recorded as {}, but its \
                         seeded fallback (draw {} of fallback_rng(round seed, seat {seat})) plays {}",
                        short_json(&m.mv),
                        fallbacks_of[seat],
                        short_json(&expected)
                    )));
                }
                counts.fallback_moves += 1;
            } else {
                check_timing(m.ms, m.cpu_ms).map_err(fail)?;
                if m.refused.len() > r.settings.retries as usize {
                    return Err(fail(format!(
                        "{} refused attempts, but {} retries were allowed: the seat would have \
                         forfeited",
                        m.refused.len(),
                        r.settings.retries
                    )));
                }
                let mut last_ms = 0.0;
                for (k, attempt) in m.refused.iter().enumerate() {
                    let what = format!("refused attempt {} ({})", k + 1, cut_line(&attempt.line));
                    if !(attempt.ms >= last_ms && attempt.ms <= m.ms) {
                        return Err(fail(format!(
                            "{what} is timed at {} ms, out of order with the attempts and the move \
                             ({} ms)",
                            attempt.ms, m.ms
                        )));
                    }
                    last_ms = attempt.ms;
                    match rejudge(&mut *round, seat, attempt) {
                        Ok(true) => counts.refused += 1,
                        Ok(false) => counts.refused_unjudged += 1,
                        Err(reason) => return Err(fail(format!("{what} {reason}"))),
                    }
                }
            }
        }
        let applied = round.play(seat, &m.mv).map_err(|e| {
            fail(format!(
                "{} is not a legal move for {colour}: {e}",
                short_json(&m.mv)
            ))
        })?;
        if applied.notation != m.mv {
            return Err(fail(format!(
                "the move is written {} but is recorded as the arbiter writes it: {}",
                short_json(&m.mv),
                short_json(&applied.notation)
            )));
        }
        let effects: BTreeMap<String, Value> = applied.effects.into_iter().collect();
        if effects != m.effects {
            return Err(fail(effects_differ(&m.mv, &m.effects, &effects)));
        }
        counts.moves += 1;
    }

    let total = r.moves.len();
    if round.to_act() != ToAct::Over {
        return Err(whole(format!(
            "the record ends after {total} moves, but the round is not over"
        )));
    }
    let board = round.public_view();
    if board != r.board {
        return Err(whole(board_differs(&r.board, &board)));
    }
    let raw = round
        .outcome()
        .expect("a round that is over has an outcome");
    let forfeited: Vec<bool> = forfeit_ply.iter().map(Option::is_some).collect();
    let expected = Outcome::new(raw.scores.clone(), &raw.points, &forfeited);
    check_result(&r.result, &expected, &forfeited, &colours).map_err(whole)?;

    for l in &r.logs {
        if l.seat >= n || l.ply as usize > total {
            return Err(whole(format!(
                "a log names seat {} at move {}, outside the round ({n} seats, {total} moves)",
                l.seat, l.ply
            )));
        }
    }
    for f in &r.faults {
        if f.seat >= n {
            return Err(whole(format!(
                "a fault names seat {}, but there are {n} seats",
                f.seat
            )));
        }
    }
    Ok(counts)
}

/// Timings are finite and not negative.
fn check_timing(ms: f64, cpu_ms: Option<f64>) -> Result<(), String> {
    let bad = |x: f64| !x.is_finite() || x < 0.0;
    if bad(ms) || cpu_ms.is_some_and(bad) {
        return Err(format!(
            "the move's timings ({ms} ms wall, {cpu_ms:?} ms CPU) are not durations"
        ));
    }
    Ok(())
}

/// Judges a refused attempt again, as the arbiter did: its line through the protocol parser,
/// then the rules. Ok(true) when the same reason comes out, Ok(false) when the evidence was
/// cut or lossy so it cannot be re-judged, Err with the discrepancy otherwise. A refused move
/// leaves the round unchanged (the [`Round::play`] contract).
fn rejudge(round: &mut dyn Round, seat: Seat, attempt: &Refused) -> Result<bool, String> {
    let line = &attempt.line;
    let cut = line.ends_with(" bytes in all)") && line.contains("... (");
    if cut || line.contains('\u{fffd}') {
        return Ok(false);
    }
    let expected = match parse_line(line.as_bytes()) {
        Err(reason) => reason,
        Ok(Incoming::Message(FromBot::Move(m))) => match round.play(seat, &m.mv) {
            Ok(_) => return Err("is a legal move, which the arbiter would have accepted".into()),
            Err(r) => r.reason,
        },
        // While a move is asked, the arbiter refuses every other type (session.rs).
        Ok(Incoming::Other { kind, .. }) => format!("unknown message type {kind:?}"),
        Ok(Incoming::Message(_)) => {
            return Err("is a ready or log message, which the arbiter never refuses".into());
        }
    };
    if expected != attempt.reason {
        return Err(format!(
            "is recorded as refused because {:?}, but the arbiter's reason is {:?}",
            attempt.reason, expected
        ));
    }
    Ok(true)
}

/// A bot's line, short enough to quote in a reason.
fn cut_line(line: &str) -> String {
    crate::game::cut(line, 60)
}

/// Says how recorded effects differ from the engine's.
fn effects_differ(
    mv: &Value,
    recorded: &BTreeMap<String, Value>,
    engine: &BTreeMap<String, Value>,
) -> String {
    let keys: std::collections::BTreeSet<&String> = recorded.keys().chain(engine.keys()).collect();
    for key in keys {
        let (a, b) = (recorded.get(key), engine.get(key));
        if a != b {
            let show = |v: Option<&Value>| v.map(short_json).unwrap_or_else(|| "nothing".into());
            return format!(
                "the record says {} {key} {}, but the rules give {}",
                short_json(mv),
                show(a),
                show(b)
            );
        }
    }
    "the effects differ".into()
}

/// Says where two final boards differ.
fn board_differs(recorded: &Value, replayed: &Value) -> String {
    let (a, b) = (super::rows(recorded), super::rows(replayed));
    for (i, row) in b.iter().enumerate() {
        if a.get(i) != Some(row) {
            return format!(
                "the final board differs from the one the moves make: row {} (rank {}) is \
                 recorded as {:?}, the moves make {:?}",
                i + 1,
                b.len() - i,
                a.get(i).map(String::as_str).unwrap_or("missing"),
                row
            );
        }
    }
    format!(
        "the final board {} is not the state the moves make, {}",
        short_json(recorded),
        short_json(replayed)
    )
}

/// Checks the recorded result against the one the engine and the forfeits give.
pub(super) fn check_result(
    recorded: &Outcome,
    expected: &Outcome,
    forfeited: &[bool],
    colours: &[String],
) -> Result<(), String> {
    if recorded.scores != expected.scores {
        for (colour, &want) in &expected.scores {
            let got = recorded.scores.get(colour);
            if got != Some(&want) {
                return Err(format!(
                    "{colour}'s score is recorded as {}, but the final board holds {want} {colour} \
                     balls",
                    got.map(u32::to_string).unwrap_or_else(|| "missing".into())
                ));
            }
        }
        return Err(format!(
            "the scores name colours that are not on the board: {:?}",
            recorded.scores
        ));
    }
    for seat in 0..expected.points.len() {
        if recorded.points[seat] != expected.points[seat] {
            let why = if forfeited[seat] {
                "it forfeited".to_string()
            } else {
                format!("its colour {} has that many balls", colours[seat])
            };
            return Err(format!(
                "seat {seat}'s points are recorded as {}, but they are {} ({why})",
                recorded.points[seat], expected.points[seat]
            ));
        }
    }
    if recorded.ranks != expected.ranks {
        return Err(format!(
            "the ranks are recorded as {:?}, but the points and forfeits give {:?}",
            recorded.ranks, expected.ranks
        ));
    }
    let same = recorded
        .wins
        .iter()
        .zip(&expected.wins)
        .all(|(a, b)| (a - b).abs() < 1e-9);
    if !same {
        return Err(format!(
            "the round win shares are recorded as {:?}, but the ranks give {:?}",
            recorded.wins, expected.wins
        ));
    }
    Ok(())
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
                    "it belongs to match {} like game {}, but {reason}",
                    r.match_id,
                    games[0] + 1
                ),
            })?;
            if let Some(&dup) = games.iter().find(|&&g| records[g].round == r.round) {
                return Err(Discrepancy {
                    game: i + 1,
                    ply: None,
                    reason: format!(
                        "round {} of match {} is already in the file as game {}",
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
            let mut standings = MatchStandings::new(&names);
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
fn same_match(a: &RoundRecord, b: &RoundRecord) -> Result<(), String> {
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
        Some((what, _)) => Err(what.to_string()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::rolit::{RULES_VERSION, Rolit};
    use serde_json::json;

    /// A round played in memory as the arbiter would record it: bots pick moves by a fixed
    /// rule; a seat in `forfeit` (seat, ply) forfeits there and gets the seeded fallback.
    fn round(
        size: u8,
        players: usize,
        round_no: u32,
        rounds: u32,
        forfeit: Option<(usize, u32)>,
    ) -> RoundRecord {
        let game = Rolit::new(size, players).unwrap();
        let match_seed = 42;
        let seed = round_seed(match_seed, 0, round_no - 1);
        let mut r = game.new_round(crate::game::RoundSetup {
            round: round_no - 1,
            match_seed,
            round_seed: seed,
        });
        let mut rngs: Vec<_> = (0..players).map(|s| fallback_rng(seed, s)).collect();
        let mut moves = Vec::new();
        while let ToAct::Seat(seat, _) = r.to_act() {
            let ply = moves.len() as u32 + 1;
            let by_arbiter = forfeit.is_some_and(|(s, p)| s == seat && ply >= p);
            let mv = if by_arbiter {
                let rng = &mut rngs[seat];
                r.fallback(seat, &mut |k| rng.random_range(0..k))
            } else {
                let legal = r.legal_moves(seat).unwrap();
                legal[(ply as usize * 7) % legal.len()].clone()
            };
            let applied = r.play(seat, &mv).unwrap();
            // Built from JSON, as a reader sees it, so fields added later keep their defaults.
            let mut m = json!({
                "ply": ply,
                "seat": seat,
                "colour": applied.colour,
                "move": applied.notation,
                "ms": if by_arbiter { 0.0 } else { 1.5 },
                "by_arbiter": by_arbiter,
            });
            for (k, v) in applied.effects {
                m[k] = v;
            }
            moves.push(m);
        }
        let forfeited: Vec<bool> = (0..players)
            .map(|s| forfeit.is_some_and(|(f, _)| f == s))
            .collect();
        let raw = r.outcome().unwrap();
        let forfeits: Vec<Value> = forfeit
            .map(|(seat, ply)| {
                json!({"seat": seat, "kind": "timeout", "ply": ply, "detail": "no answer"})
            })
            .into_iter()
            .collect();
        let seats: Vec<Value> = (0..players)
            .map(|s| json!({"name": format!("bot{s}"), "command": format!("bot{s}")}))
            .collect();
        serde_json::from_value(json!({
            "format": FORMAT_VERSION,
            "arbiter": "test",
            "game": "rolit",
            "rules": RULES_VERSION,
            "options": game.options(),
            "match": "m",
            "round": round_no,
            "rounds": rounds,
            "match_seed": match_seed,
            "seed": seed,
            "settings": {"move_ms": 1000, "startup_ms": 1000, "margin_ms": 100, "retries": 2,
                         "freeze": true, "legal": true},
            "seats": seats,
            "colours": r.colours(),
            "first": r.first(),
            "moves": moves,
            "forfeits": forfeits,
            "faults": [],
            "logs": [],
            "stderr": vec![""; players],
            "result": Outcome::new(raw.scores, &raw.points, &forfeited),
            "board": r.public_view(),
            "started": "",
            "ended": "",
        }))
        .expect("a valid round record")
    }

    /// A whole 2-round 4x4 match whose second round has a forfeit at move 5.
    fn file() -> Vec<RoundRecord> {
        vec![round(4, 2, 1, 2, None), round(4, 2, 2, 2, Some((1, 5)))]
    }

    fn rejected(records: &[RoundRecord]) -> Discrepancy {
        verify(records).expect_err("the tampered record must be rejected")
    }

    #[test]
    fn a_clean_file_verifies_with_its_standings() {
        let records = file();
        let report = verify(&records).unwrap();
        assert_eq!(report.games, 2);
        assert_eq!(report.moves, 24);
        assert!(report.fallback_moves >= 4);
        assert_eq!(report.forfeits, 1);
        assert_eq!(report.matches.len(), 1);
        assert!(report.matches[0].whole());
        let big = round(8, 4, 3, 4, Some((2, 1)));
        assert_eq!(verify_game(&[big], 1).unwrap().moves, 60);
    }

    #[test]
    fn a_changed_move_is_caught() {
        // Another legal square: the flips no longer match.
        let mut records = file();
        let original = records[0].clone();
        let game = Rolit::new(4, 2).unwrap();
        let mut r = super::super::new_round(&game, &original);
        for m in &original.moves[..6] {
            r.play(m.seat, &m.mv).unwrap();
        }
        let seat = original.moves[6].seat;
        let other = r
            .legal_moves(seat)
            .unwrap()
            .into_iter()
            .find(|m| *m != original.moves[6].mv);
        if let Some(other) = other {
            records[0].moves[6].mv = other;
            let d = rejected(&records);
            assert_eq!((d.game, d.ply), (1, Some(7)), "{d}");
        }
        // An occupied square.
        let mut records = file();
        records[1].moves[3].mv = json!("b3");
        let d = rejected(&records);
        assert_eq!((d.game, d.ply), (2, Some(4)));
        assert!(d.reason.contains("not a legal move"), "{d}");
        assert!(
            d.to_string()
                .starts_with("game 2, move 4: \"b3\" is not a legal move")
        );
    }

    #[test]
    fn a_raised_score_is_caught() {
        let mut records = file();
        *records[0].result.scores.get_mut("red").unwrap() += 1;
        let d = rejected(&records);
        assert_eq!((d.game, d.ply), (1, None));
        assert!(d.reason.contains("red's score is recorded as"), "{d}");
        let mut records = file();
        records[0].result.points[1] += 3;
        let d = rejected(&records);
        assert!(
            d.reason.starts_with("seat 1's points are recorded as"),
            "{d}"
        );
        // The forfeited seat keeps 0 points whatever its balls.
        let mut records = file();
        let colour = records[1].colours.as_ref().unwrap()[1].clone();
        records[1].result.points[1] = records[1].result.scores[&colour];
        let d = rejected(&records);
        assert_eq!(d.game, 2);
        assert!(d.reason.contains("it forfeited"), "{d}");
        let mut records = file();
        records[0].result.ranks.reverse();
        if records[0].result.ranks != file()[0].result.ranks {
            assert!(rejected(&records).reason.contains("ranks"));
        }
    }

    #[test]
    fn a_changed_flip_is_caught() {
        let mut records = file();
        let flipped = records[0].moves[2].effects.get_mut("flipped").unwrap();
        flipped.as_array_mut().unwrap().push(json!("a1"));
        let d = rejected(&records);
        assert_eq!((d.game, d.ply), (1, Some(3)));
        assert!(
            d.reason.contains("flipped") && d.reason.contains("but the rules give"),
            "{d}"
        );
    }

    #[test]
    fn a_dropped_move_is_caught() {
        let mut records = file();
        records[1].moves.remove(4);
        let d = rejected(&records);
        assert_eq!((d.game, d.ply), (2, Some(5)));
        assert!(d.reason.contains("numbered 6"), "{d}");
        let mut records = file();
        records[0].moves.pop();
        let d = rejected(&records);
        assert_eq!((d.game, d.ply), (1, None));
        assert!(d.reason.contains("not over"), "{d}");
    }

    #[test]
    fn fallback_moves_are_reproduced() {
        let mut records = file();
        let (i, m) = records[1]
            .moves
            .iter()
            .enumerate()
            .find(|(_, m)| m.by_arbiter)
            .map(|(i, m)| (i, m.clone()))
            .unwrap();
        // Forge the arbiter's move as the bot's own.
        records[1].moves[i].by_arbiter = false;
        let d = rejected(&records);
        assert_eq!((d.game, d.ply), (2, Some(m.ply)));
        assert!(d.reason.contains("forfeited at move 5"), "{d}");
        // A fallback move that is legal but not the seeded one.
        let big = round(8, 4, 1, 1, Some((0, 1)));
        let mut tampered = big.clone();
        let k = tampered.moves.iter().position(|m| m.by_arbiter).unwrap();
        let game = Rolit::new(8, 4).unwrap();
        let mut r = super::super::new_round(&game, &big);
        for m in &big.moves[..k] {
            r.play(m.seat, &m.mv).unwrap();
        }
        let legal = r.legal_moves(big.moves[k].seat).unwrap();
        tampered.moves[k].mv = legal.into_iter().find(|m| *m != big.moves[k].mv).unwrap();
        let d = verify(&[tampered]).unwrap_err();
        assert_eq!(d.ply, Some(k as u32 + 1));
        assert!(d.reason.contains("seeded fallback"), "{d}");
    }

    #[test]
    fn seats_seeds_and_matches_are_checked() {
        let mut records = file();
        records[0].colours.as_mut().unwrap().reverse();
        assert!(rejected(&records).reason.contains("rotation"));
        let mut records = file();
        records[0].first = 1 - records[0].first;
        assert!(rejected(&records).reason.contains("moves first"));
        let mut records = file();
        records[1].seed += 1;
        assert_eq!(rejected(&records).game, 2);
        let mut records = file();
        records.push(records[0].clone());
        let d = rejected(&records);
        assert_eq!(d.game, 3);
        assert!(d.reason.contains("already in the file as game 1"), "{d}");
        let mut records = file();
        records[1].seats[0].name = "someone else".into();
        assert!(rejected(&records).reason.contains("seat names differ"));
        // Half a match verifies, without standings.
        let report = verify(&file()[1..]).unwrap();
        assert!(!report.matches[0].whole());
    }
}
