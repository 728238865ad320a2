//! Verification of a record, for every game: each round fed to the same [`Referee`] that
//! played it live, and everything the referee produces compared with what the record says.
//!
//! Per round ([`round`]): the format, game, rules version and options; the round seed (derived
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
mod round;

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use crate::record::RoundRecord;
use crate::standings::MatchStandings as Standings;
use crate::wire::Standing;

pub use compare::check_result;

/// The first thing in a record that the rules contradict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Discrepancy {
    /// The round's index in the file, from 1 (`--game N`).
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
pub(crate) struct Counts {
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
        let (counts, carry) = round::verify_round(record).map_err(|(ply, reason)| Discrepancy {
            game: i + 1,
            ply,
            reason,
        })?;
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
    let (counts, _) =
        round::verify_round(record).map_err(|(ply, reason)| Discrepancy { game, ply, reason })?;
    add(&mut report, counts);
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
    use crate::game::rolit::{RULES_VERSION, Rolit};
    use crate::game::{Game, Outcome, ToAct};
    use crate::record::FORMAT_VERSION;
    use crate::seed::{fallback_rng, round_seed};
    use rand::Rng;
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
            chance_seed: seed,
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
        let mut r = crate::replay::new_round(&game, &original);
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
        let mut r = crate::replay::new_round(&game, &big);
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
