//! One round of a record re-played through the [`Referee`]: the record's header checked, its
//! stamped inputs fed in order (with a tick at each deadline the referee names), and each
//! action, forfeit and rules' fault the referee produces compared with the recorded one.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Counts;
use super::compare::{board_differs, check_result, effects_differ};
use super::recorded::Recorded;
use crate::Error;
use crate::duration::round_ms;
use crate::game::{Game, RoundSetup, Seat, short_json};
use crate::record::fault::{Forfeit, ForfeitKind, Refused};
use crate::record::{FORMAT_VERSION, MoveRecord, RoundRecord};
use crate::referee::{Failure, Input, Output, Referee, Settings, Verdict};
use crate::seed::round_seed;

/// A discrepancy: the move (ply) where there is one, and the reason.
pub(super) type Found = (Option<u32>, String);

/// A discrepancy of the round as a whole (no one move), from its reason or a refusal of the
/// rules (whose text is the reason).
fn whole(reason: impl std::fmt::Display) -> Found {
    (None, reason.to_string())
}

/// Fault kinds that are evidence of transport, never re-played: lines nobody asked for,
/// restarts between rounds, and refused lines of simultaneous play (recorded without a time).
const EVIDENCE_FAULTS: [&str; 3] = ["unasked", "restarted", "refused"];

/// What a verified round hands on to the next round of its match.
pub(super) struct Handed {
    pub carry: Option<Value>,
    /// The match's request counter after the round.
    pub turn_id: u64,
}

/// Verifies one round whose requests are numbered on from `turn_id_from`; returns what it
/// hands on to the next round of its match. `moves` are the round's actions (its `moves`, or
/// the ones read lean from its line, which the record then leaves empty).
pub(super) fn verify_round(
    r: &RoundRecord,
    moves: &[Recorded<'_>],
    turn_id_from: u64,
) -> Result<(Counts, Handed), Found> {
    if r.format != FORMAT_VERSION {
        return Err(whole(format!(
            "record format {} is not the one this build reads ({FORMAT_VERSION})",
            r.format
        )));
    }
    let game = crate::game::catalog::of_record(r).map_err(whole)?;
    let n = game.seats();
    header(r, n)?;
    let setup = RoundSetup {
        round: r.round - 1,
        match_seed: r.match_seed,
        round_seed: r.seed,
        chance_seed: r.deal.unwrap_or_else(|| {
            crate::seed::chance_seed(r.match_seed, r.table.unwrap_or(0), r.round - 1)
        }),
    };
    let round = match &r.carry {
        Some(c) => game
            .next_round(setup, c)
            .map_err(|e| whole(format!("the round's carried start is refused: {e}")))?,
        None if r.round == 1 || !game.simultaneous() => game.new_round(setup),
        None => {
            return Err(whole(format!(
                "round {} carries no start state, but only round 1 starts fresh",
                r.round
            )));
        }
    };
    let colours = round.colours();
    if r.colours != colours {
        let show = |c: &Option<Vec<String>>| {
            c.as_ref()
                .map(|c| c.join(", "))
                .unwrap_or_else(|| "missing".into())
        };
        return Err(whole(format!(
            "the seats' colours are {} but in round {} the rotation gives {} (seats in order)",
            show(&r.colours),
            r.round,
            show(&colours)
        )));
    }
    if r.first != round.first() {
        return Err(whole(format!(
            "seat {} is recorded as moving first, but seat {} moves first in round {} of match \
             seed {} (the rules say so)",
            r.first,
            round.first(),
            r.round,
            r.match_seed
        )));
    }
    structure(r, moves, n)?;
    let settings = Settings {
        move_ms: r.settings.move_ms as f64,
        margin_ms: r.settings.margin_ms as f64,
        retries: r.settings.retries,
        freeze: r.settings.freeze,
        hide_legal: !r.settings.legal,
        // Unasked lines and logs are evidence, not inputs: they never forfeit here; a flood
        // forfeit is fed as recorded.
        max_unasked: u32::MAX,
        max_log_bytes: usize::MAX,
        timed: game.simultaneous(),
    };
    if let Some(c) = &r.settings.clocks
        && c.len() != n
    {
        return Err(whole(format!(
            "the settings give {} seats' clocks for {n} seats",
            c.len()
        )));
    }
    let referee = Referee::new(round, n, settings, r.round, r.seed, turn_id_from)
        .with_clocks(&r.settings.tcs(n))
        .quiet();
    let mut feed = Feed {
        r,
        moves,
        game: &*game,
        referee,
        now: 0.0,
        fed_forfeits: vec![false; r.forfeits.len()],
        fed_refused: vec![false; moves.len()],
        line: Vec::new(),
        scratch: Vec::new(),
        compared: 0,
        counts: Counts::default(),
    };
    feed.run()?;
    feed.finish()
}

/// The record's shape: lengths, round range, seed.
fn header(r: &RoundRecord, n: usize) -> Result<(), Found> {
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
                "the record lists {len} {what} for {n} seats"
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
    Ok(())
}

/// What can be told without the rules: forfeits name real seats once each at a move that
/// exists, moves are numbered in order, openings come first, no bot plays after its forfeit,
/// logs and faults name real seats.
fn structure(r: &RoundRecord, moves: &[Recorded<'_>], n: usize) -> Result<(), Found> {
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
        if f.ply as usize > moves.len() + 1 {
            return Err(whole(format!(
                "seat {} forfeits at move {}, but the round has {} moves",
                f.seat,
                f.ply,
                moves.len()
            )));
        }
        forfeit_ply[f.seat] = Some(f.ply);
    }
    let mut in_opening = true;
    for (i, m) in moves.iter().enumerate() {
        let ply = i as u32 + 1;
        let at = |reason: String| (Some(ply), reason);
        if m.ply != ply {
            return Err(at(format!(
                "the move is numbered {}; moves are numbered in order from 1",
                m.ply
            )));
        }
        if m.seat >= n {
            return Err(at(format!("seat {} acts, but there are {n} seats", m.seat)));
        }
        if m.opening {
            if !in_opening || !m.by_arbiter || !m.refused.is_empty() || m.ms != 0.0 {
                return Err(at(
                    "an opening move must come before every bot's move, be played by the \
                     arbiter and carry no refused attempts or timings"
                        .into(),
                ));
            }
            continue;
        }
        in_opening = false;
        let forfeited = forfeit_ply[m.seat].is_some_and(|p| ply >= p);
        if !m.by_arbiter && forfeited {
            return Err(at(format!(
                "seat {} forfeited at move {}, yet its bot is recorded as playing this move",
                m.seat,
                forfeit_ply[m.seat].unwrap_or(0)
            )));
        }
        let bad = |x: f64| !x.is_finite() || x < 0.0;
        if bad(m.ms) || m.cpu_ms.is_some_and(bad) || m.at_ms.is_some_and(bad) {
            return Err(at(format!(
                "the move's timings ({} ms wall, {:?} ms CPU) are not durations",
                m.ms, m.cpu_ms
            )));
        }
        if m.by_arbiter && m.cpu_ms.is_some() {
            return Err(at("a move the arbiter played has bot timings".into()));
        }
    }
    let total = moves.len();
    for l in &r.logs {
        if l.seat >= n || l.ply as usize > total {
            return Err(whole(format!(
                "a log names seat {} at move {}, outside the round ({n} seats, {total} moves)",
                l.seat, l.ply
            )));
        }
    }
    if let Some(f) = r.faults.iter().find(|f| f.seat >= n) {
        return Err(whole(format!(
            "a fault names seat {}, but there are {n} seats",
            f.seat
        )));
    }
    Ok(())
}

/// The re-play of one round.
struct Feed<'r> {
    r: &'r RoundRecord,
    /// The round's recorded actions.
    moves: &'r [Recorded<'r>],
    game: &'r dyn Game,
    referee: Referee,
    /// Round time of the latest input.
    now: f64,
    fed_forfeits: Vec<bool>,
    /// Per recorded move, whether its refused attempts were fed already.
    fed_refused: Vec<bool>,
    /// Produced actions compared so far.
    compared: usize,
    counts: Counts,
    /// The line of the bot action being fed, and room to write a value in to compare it:
    /// kept from move to move.
    line: Vec<u8>,
    scratch: Vec<u8>,
}

impl Feed<'_> {
    fn input(&mut self, at: f64, input: Input<'_>) {
        self.now = self.now.max(at);
        self.referee.input(at, input);
        self.pump();
    }

    /// Carries out the referee's outputs: drains find nothing more than the record holds.
    fn pump(&mut self) {
        loop {
            let outs: Vec<Output> = self.referee.take_outputs().collect();
            if outs.is_empty() {
                return;
            }
            for o in outs {
                if let Output::Drain(seat) = o {
                    // A failure the process layer finds by draining (at the end, or before a
                    // request) is fed here, as it was found live.
                    if let Some(k) = self.found_draining(seat) {
                        self.fed_forfeits[k] = true;
                        let f = &self.r.forfeits[k];
                        let at = f.at_ms.unwrap_or(self.now);
                        self.referee.input(at, failed(f));
                    }
                    self.referee.input(self.now, Input::Drained(seat));
                }
            }
        }
    }

    /// A recorded forfeit of `seat` the drain that is asked for now finds: one of the process
    /// layer's own (not a clock or refused attempts), at this move, that came before any
    /// request of its (no `turn_id`; an older record does not say, but then no attempt of the
    /// seat's is recorded on it, as those come after a request).
    fn found_draining(&self, seat: Seat) -> Option<usize> {
        let produced = self.referee.play().moves.len();
        let next = self.moves.get(produced);
        let attempts = next.is_some_and(|m| m.seat == seat && !m.refused.is_empty());
        (0..self.r.forfeits.len()).find(|&k| {
            let f = &self.r.forfeits[k];
            !self.fed_forfeits[k]
                && f.seat == seat
                && f.ply as usize <= produced + 1
                && !matches!(f.kind, ForfeitKind::Timeout | ForfeitKind::Retries)
                && f.turn_id.is_none()
                && !attempts
        })
    }

    fn run(&mut self) -> Result<(), Found> {
        let r = self.r;
        // Start-up failures come before `start`.
        for (k, f) in r.forfeits.iter().enumerate() {
            if f.ply == 0 {
                self.fed_forfeits[k] = true;
                self.input(0.0, failed(f));
            }
        }
        self.referee.start(r.seed);
        let opening: Vec<Value> = self
            .moves
            .iter()
            .take_while(|m| m.opening)
            .map(|m| m.mv.value().into_owned())
            .collect();
        if !opening.is_empty() {
            self.referee
                .opening(&opening)
                .map_err(|e| (Some(1), e.to_string()))?;
        }
        self.input(0.0, Input::Tick);
        let limit = 4 * (self.moves.len() + r.forfeits.len()) + 64;
        for _ in 0..limit {
            self.compare()?;
            if self.referee.is_over() {
                return Ok(());
            }
            self.step()?;
        }
        Err(whole(
            "the record's inputs never bring the round to its end",
        ))
    }

    /// Feeds the next thing the record says happened.
    fn step(&mut self) -> Result<(), Found> {
        let r = self.r;
        let moves = self.moves;
        let produced = self.referee.play().moves.len();
        let next = moves.get(produced);
        let forfeit = (0..r.forfeits.len())
            .filter(|&k| {
                !self.fed_forfeits[k]
                    && (r.forfeits[k].ply as usize <= produced + 1 || self.due(k, next))
            })
            .min_by_key(|&k| r.forfeits[k].ply);
        if let Some(k) = forfeit {
            // In timed play a deadline that came before the failure was ticked first, live.
            if let (Some(t), Some(d)) = (r.forfeits[k].at_ms, self.referee.deadline())
                && d <= t
            {
                self.input(d, Input::Tick);
                return Ok(());
            }
            return self.forfeit(k, next);
        }
        let Some(m) = next else {
            // Only the rules' own deadlines act for bots that are still in; a bot's clock
            // running out is a forfeit the record would hold.
            return match self.referee.deadline().filter(|_| self.game.simultaneous()) {
                Some(d) => {
                    self.input(d, Input::Tick);
                    Ok(())
                }
                None => Err(whole(format!(
                    "the record ends after {produced} moves, but the round is not over"
                ))),
            };
        };
        let ply = Some(produced as u32 + 1);
        if m.by_arbiter {
            // Only a deadline of the rules makes the arbiter act for a seat still in.
            return match self.referee.deadline().filter(|_| self.game.simultaneous()) {
                Some(d) => {
                    self.input(d, Input::Tick);
                    Ok(())
                }
                None => Err((
                    ply,
                    format!(
                        "the arbiter played for seat {}, which had not forfeited",
                        m.seat
                    ),
                )),
            };
        }
        let at = self.time_of(m, produced)?;
        if let Some(d) = self.referee.deadline()
            && at > d
        {
            self.input(d, Input::Tick);
            return Ok(());
        }
        if !self.referee.listens(m.seat) {
            return Err((ply, self.out_of_turn(m)));
        }
        self.refused(produced, m)?;
        let mut line = std::mem::take(&mut self.line);
        answer_line(m, &mut line);
        self.input(
            at,
            Input::Line {
                seat: m.seat,
                line: &line,
                cpu_ms: m.cpu_ms,
            },
        );
        self.line = line;
        if self.referee.play().moves.len() == produced
            && let Verdict::Refused { reason, .. } = self.referee.verdict()
        {
            let colour = m.colour.unwrap_or("its seat");
            return Err((
                ply,
                format!(
                    "{} is not a legal move for {colour}: {reason}",
                    short_json(&m.mv.value())
                ),
            ));
        }
        Ok(())
    }

    /// In timed play, a recorded forfeit that happened before what comes next: before the
    /// next bot action's time, and before the deadline the referee would be ticked at. Live,
    /// a failure found after a rules' deadline but inside its margin lets the rules act at the
    /// deadline first, so its move number is one later; its time says when to feed it.
    fn due(&self, k: usize, next: Option<&Recorded<'_>>) -> bool {
        let Some(t) = self.r.forfeits[k].at_ms else {
            return false;
        };
        let before_tick = self.referee.deadline().is_none_or(|d| t < d);
        let before_next = next.is_none_or(|m| m.by_arbiter || m.at_ms.is_none_or(|a| t < a));
        before_tick && before_next
    }

    /// The round time of a recorded bot action: its own (`at_ms`) in timed play, else its
    /// wall time after the request it answers.
    fn time_of(&self, m: &Recorded<'_>, produced: usize) -> Result<f64, Found> {
        if let Some(at) = m.at_ms {
            return Ok(at);
        }
        if self.game.simultaneous() {
            return Err((
                Some(produced as u32 + 1),
                "the action has no round time (at_ms)".into(),
            ));
        }
        let since = self.referee.asked_since(m.seat).unwrap_or(self.now);
        Ok(since + m.ms)
    }

    /// Says who may act, when a recorded action comes from another seat.
    fn out_of_turn(&self, m: &Recorded<'_>) -> String {
        let listening = self.referee.listening();
        let kind = m.kind.unwrap_or("move");
        match listening.as_slice() {
            [] => format!("seat {} sends {kind} when no seat may act", m.seat),
            [seat] => {
                let colour = self
                    .referee
                    .round()
                    .colours()
                    .and_then(|c| c.get(*seat).cloned())
                    .map(|c| format!(" ({c})"))
                    .unwrap_or_default();
                format!(
                    "seat {} moved, but it was seat {seat}'s turn{colour}",
                    m.seat
                )
            }
            seats => format!(
                "seat {} sends {kind} when only seats {seats:?} may act",
                m.seat
            ),
        }
    }

    /// Feeds the refused attempts recorded on move `i` (once), each checked against the
    /// reason the referee gives.
    fn refused(&mut self, i: usize, m: &Recorded<'_>) -> Result<(), Found> {
        if self.fed_refused[i] {
            return Ok(());
        }
        self.fed_refused[i] = true;
        let since = self.referee.asked_since(m.seat).unwrap_or(self.now);
        for (k, attempt) in m.refused.iter().enumerate() {
            let ply = Some(i as u32 + 1);
            let what = format!(
                "refused attempt {} ({})",
                k + 1,
                crate::game::cut(&attempt.line, 60)
            );
            if attempt.ms > m.ms && !m.by_arbiter {
                return Err((
                    ply,
                    format!(
                        "{what} is timed at {} ms, after the move ({} ms)",
                        attempt.ms, m.ms
                    ),
                ));
            }
            self.input(
                since + attempt.ms,
                Input::Line {
                    seat: m.seat,
                    line: attempt.line.as_bytes(),
                    cpu_ms: None,
                },
            );
            let judged = !unjudgeable(attempt);
            match self.referee.verdict().clone() {
                // Codes are compared where the record keeps them (a reason may be reworded);
                // older records have only the reason.
                Verdict::Refused { code, reason, .. } => {
                    let agrees = match &attempt.code {
                        Some(recorded) => recorded == code,
                        None => reason == attempt.reason,
                    };
                    if judged && !agrees {
                        return Err((
                            ply,
                            format!(
                                "{what} is recorded as refused with code {:?} because {:?}, but \
                                 the arbiter's code is {code:?} and its reason {reason:?}",
                                attempt.code.as_deref().unwrap_or("(none)"),
                                attempt.reason
                            ),
                        ));
                    }
                }
                Verdict::Accepted => {
                    return Err((
                        ply,
                        format!("{what} is a legal move, which the arbiter would have accepted"),
                    ));
                }
                other => {
                    let why = match other {
                        Verdict::Unasked(why) => format!(": it would be kept unasked ({why})"),
                        Verdict::Logged => ": it is a log".into(),
                        _ => String::new(),
                    };
                    return Err((
                        ply,
                        format!("{what} is one the arbiter would not have refused{why}"),
                    ));
                }
            }
            if judged {
                self.counts.refused += 1;
            } else {
                self.counts.refused_unjudged += 1;
            }
        }
        Ok(())
    }

    /// Feeds recorded forfeit `k`: the attempts refused before it, then what ended the seat's
    /// round (a tick at its clock's end, or the failure as recorded).
    fn forfeit(&mut self, k: usize, next: Option<&Recorded<'_>>) -> Result<(), Found> {
        let (r, moves) = (self.r, self.moves);
        let f = &r.forfeits[k];
        self.fed_forfeits[k] = true;
        let produced = self.referee.play().moves.len();
        if let Some(m) = next
            && m.by_arbiter
            && m.seat == f.seat
            && !m.opening
        {
            self.refused(produced, m)?;
        }
        if self.referee.forfeited()[f.seat] {
            return Ok(()); // the refused attempts ran out the retries
        }
        let sequential = !self.game.simultaneous();
        match (f.kind, self.referee.asked_since(f.seat)) {
            (ForfeitKind::Timeout, Some(since)) if sequential => {
                // Seats asked at once (every seat bids together) run out on the same tick:
                // the attempts the others made before it come first, as they did live.
                for s in 0..self.referee.forfeited().len() {
                    if s == f.seat || self.referee.asked_since(s).is_none() {
                        continue;
                    }
                    if let Some(j) = (produced..moves.len()).find(|&j| moves[j].seat == s)
                        && moves[j].by_arbiter
                        && !moves[j].opening
                    {
                        self.refused(j, &moves[j])?;
                    }
                }
                // The referee's own end of the seat's clock (its cap, or what its bank held),
                // to the last bit: `since + limit + margin` rounds differently and can fall a
                // hair short of it.
                let d = self
                    .referee
                    .clock_end(f.seat)
                    .unwrap_or(since + (r.settings.move_ms as f64 + r.settings.margin_ms as f64));
                self.input(d, Input::Tick);
            }
            (ForfeitKind::Timeout, None) if sequential => {
                return Err((
                    Some(f.ply),
                    format!(
                        "seat {} forfeits on time at move {}, but it was not asked then",
                        f.seat, f.ply
                    ),
                ));
            }
            (ForfeitKind::Retries, _) if sequential => {
                return Err((
                    Some(f.ply),
                    format!(
                        "seat {} forfeits for refused attempts at move {}, but the attempts \
                         recorded there do not use up its {} retries",
                        f.seat, f.ply, r.settings.retries
                    ),
                ));
            }
            _ => {
                let at = f.at_ms.unwrap_or(self.now);
                self.input(at, failed(f));
            }
        }
        Ok(())
    }

    /// Compares the actions the referee produced since the last call with the recorded ones.
    fn compare(&mut self) -> Result<(), Found> {
        let produced = &self.referee.play().moves;
        while self.compared < produced.len() {
            let i = self.compared;
            let ply = Some(i as u32 + 1);
            let Some(m) = self.moves.get(i) else {
                return Err((
                    None,
                    format!(
                        "the rules make seat {}'s {} {} happen after the last recorded action",
                        produced[i].seat,
                        produced[i].kind.as_deref().unwrap_or("move"),
                        short_json(&produced[i].mv)
                    ),
                ));
            };
            same(&produced[i], m, &mut self.scratch).map_err(|e| (ply, e.to_string()))?;
            self.counts.moves += 1;
            if m.by_arbiter && !m.opening {
                self.counts.fallback_moves += 1;
            }
            self.compared += 1;
        }
        Ok(())
    }

    /// The round is over: the record ends here, and its forfeits, rules' faults, final state
    /// and result are the referee's.
    fn finish(self) -> Result<(Counts, Handed), Found> {
        let r = self.r;
        let play = self.referee.play();
        if self.moves.len() > play.moves.len() {
            return Err((
                Some(play.moves.len() as u32 + 1),
                format!(
                    "the round was over after {} moves, yet the record goes on",
                    play.moves.len()
                ),
            ));
        }
        // Records that number their requests (turn_id_from) say of every forfeit whether a
        // request was open.
        forfeits_agree(&r.forfeits, &play.forfeits, r.turn_id_from.is_some())?;
        let rule_faults = |faults: &[crate::record::Fault]| -> Vec<(Seat, String, String)> {
            faults
                .iter()
                .filter(|f| !EVIDENCE_FAULTS.contains(&f.kind.name()))
                .map(|f| (f.seat, f.kind.name().to_string(), f.detail.clone()))
                .collect()
        };
        let (recorded, given) = (rule_faults(&r.faults), rule_faults(&play.faults));
        if recorded != given {
            return Err(whole(format!(
                "the faults of the rules are recorded as {recorded:?}, but the rules give \
                 {given:?}"
            )));
        }
        let round = self.referee.round();
        let board = round.public_view();
        if !same_value(&board, &r.board) {
            return Err(whole(board_differs(&r.board, &board)));
        }
        let outcome = self.referee.outcome().expect("over");
        let forfeited = self.referee.forfeited();
        check_result(
            &r.result,
            outcome,
            &forfeited,
            &round.colours().unwrap_or_default(),
        )
        .map_err(whole)?;
        if round.ends_match() != r.ends_match {
            return Err(whole(format!(
                "the record says the match {} here, but the rules say it {}",
                if r.ends_match { "ends" } else { "goes on" },
                if r.ends_match { "goes on" } else { "ends" }
            )));
        }
        let mut counts = self.counts;
        counts.forfeits = r.forfeits.len();
        let handed = Handed {
            carry: round.carry(),
            turn_id: self.referee.turn_id(),
        };
        Ok((counts, handed))
    }
}

/// The failure a recorded forfeit says the process layer saw.
fn failed(f: &Forfeit) -> Input<'static> {
    Input::Failed {
        seat: f.seat,
        failure: Failure {
            kind: f.kind,
            detail: f.detail.clone(),
            line: f.line.clone(),
            exit: f.exit.clone(),
        },
    }
}

/// A refused attempt whose evidence was cut or is not valid UTF-8: its place is checked, not
/// its reason.
fn unjudgeable(attempt: &Refused) -> bool {
    let line = &attempt.line;
    (line.ends_with(" bytes in all)") && line.contains("... (")) || line.contains('\u{fffd}')
}

/// The line a bot sent for a recorded action: `move` with its notation, or a game message
/// with the notation's fields.
fn answer_line(m: &Recorded<'_>, line: &mut Vec<u8>) {
    line.clear();
    let kind = m.kind.unwrap_or("move");
    if kind == "move" {
        // Written straight out (every move of a record passes here), in the key order the
        // object below would have.
        line.extend_from_slice(br#"{"move":"#);
        m.mv.write(line);
        line.extend_from_slice(br#","type":"move"}"#);
        return;
    }
    let msg = match (&*m.mv.value(), kind) {
        (Value::Object(fields), kind) => {
            let mut msg = fields.clone();
            msg.insert("type".into(), Value::from(kind));
            Value::Object(msg)
        }
        (other, kind) => serde_json::json!({"type": kind, "value": other}),
    };
    serde_json::to_writer(line, &msg).expect("JSON");
}

/// A produced action against the recorded one.
fn same(a: &MoveRecord, m: &Recorded<'_>, scratch: &mut Vec<u8>) -> Result<(), Error> {
    let (ka, km) = (
        a.kind.as_deref().unwrap_or("move"),
        m.kind.unwrap_or("move"),
    );
    if ka != km || a.seat != m.seat {
        return Err(Error::Mismatch(format!(
            "the record has seat {}'s {km} {}, but the rules produce seat {}'s {ka} {}",
            m.seat,
            short_json(&m.mv.value()),
            a.seat,
            short_json(&a.mv)
        )));
    }
    let same_move = m.mv.is(&a.mv, scratch);
    if a.by_arbiter && m.by_arbiter && !same_move && !a.opening {
        return Err(Error::Mismatch(format!(
            "the arbiter's move for forfeited seat {} is recorded as {}, but its seeded \
             fallback (fallback_rng(round seed, seat {})) plays {}",
            a.seat,
            short_json(&m.mv.value()),
            a.seat,
            short_json(&a.mv)
        )));
    }
    if !same_move {
        return Err(Error::Mismatch(format!(
            "the move is written {} but is recorded as the arbiter writes it: {}",
            short_json(&m.mv.value()),
            short_json(&a.mv)
        )));
    }
    if a.colour.as_deref() != m.colour {
        return Err(Error::Mismatch(format!(
            "the move is recorded as {}'s, but seat {} plays {}",
            m.colour.unwrap_or("no colour"),
            a.seat,
            a.colour.as_deref().unwrap_or("no colour")
        )));
    }
    if !m.effects.agree(&a.effects, same_value, scratch) {
        return Err(Error::Mismatch(effects_differ(
            &m.mv.value(),
            &m.effects.map(),
            &a.effects,
        )));
    }
    if a.by_arbiter != m.by_arbiter {
        let who = |b: bool| if b { "the arbiter's" } else { "the bot's" };
        return Err(Error::Mismatch(format!(
            "it is recorded as {}, but it is {}",
            who(m.by_arbiter),
            who(a.by_arbiter)
        )));
    }
    let times_agree = match (a.at_ms, m.at_ms) {
        (Some(x), Some(y)) => round_ms(x) == round_ms(y),
        (x, y) => x == y,
    };
    if !times_agree {
        return Err(Error::Mismatch(format!(
            "it is recorded at {:?} ms of round time, but the rules take it at {:?}",
            m.at_ms, a.at_ms
        )));
    }
    if a.bank_ms.map(round_ms) != m.bank_ms.map(round_ms) {
        let show = |b: Option<f64>| b.map_or("no bank".into(), |b| format!("{b} ms"));
        return Err(Error::Mismatch(format!(
            "seat {}'s time bank after the move is recorded as {}, but its time control and the \
             times of its answers leave {}",
            m.seat,
            show(m.bank_ms),
            show(a.bank_ms)
        )));
    }
    if a.refused.len() != m.refused.len() {
        return Err(Error::Mismatch(format!(
            "{} refused attempts are recorded, but the rules refuse {} (retries allowed: the \
             seat would have forfeited)",
            m.refused.len(),
            a.refused.len()
        )));
    }
    Ok(())
}

/// Two values alike at the precision a record keeps: numbers to the microsecond of a ms
/// (records written before the rules rounded their times hold more digits).
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) if !(x.fract() == 0.0 && y.fract() == 0.0) => {
                round_ms(x) == round_ms(y)
            }
            _ => x == y,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
        }
        _ => a == b,
    }
}

/// The referee's forfeits against the recorded ones: seat, kind, move, the request open and
/// time.
fn forfeits_agree(recorded: &[Forfeit], given: &[Forfeit], asked_kept: bool) -> Result<(), Found> {
    let key = |f: &Forfeit| (f.seat, f.kind, f.ply);
    let mut a: Vec<_> = recorded.iter().map(key).collect();
    let mut b: Vec<_> = given.iter().map(key).collect();
    a.sort();
    b.sort();
    if a != b {
        let show = |v: &[(Seat, ForfeitKind, u32)]| {
            v.iter()
                .map(|(s, k, p)| format!("seat {s} {k} at move {p}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(whole(format!(
            "the forfeits are recorded as [{}], but the rules give [{}]",
            show(&a),
            show(&b)
        )));
    }
    let asked: BTreeMap<Seat, Option<u64>> = given.iter().map(|f| (f.seat, f.turn_id)).collect();
    for f in recorded
        .iter()
        .filter(|f| asked_kept || f.turn_id.is_some())
    {
        if asked.get(&f.seat) != Some(&f.turn_id) {
            return Err(whole(format!(
                "seat {}'s forfeit is recorded during request turn_id {:?}, but it happens during \
                 {:?}",
                f.seat,
                f.turn_id,
                asked.get(&f.seat).copied().flatten()
            )));
        }
    }
    let times: BTreeMap<Seat, Option<f64>> = given.iter().map(|f| (f.seat, f.at_ms)).collect();
    for f in recorded {
        if times.get(&f.seat) != Some(&f.at_ms) {
            return Err(whole(format!(
                "seat {}'s forfeit is recorded at {:?} ms of round time, but happens at {:?}",
                f.seat,
                f.at_ms,
                times.get(&f.seat).copied().flatten()
            )));
        }
    }
    Ok(())
}
