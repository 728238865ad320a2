//! Openings: a few seeded random plies the arbiter plays at the start of a round, so that
//! deterministic bots do not replay the same rounds forever.
//!
//! A table of `rounds` rounds with k players is made of rotation cycles of k rounds, in which
//! every seat plays every colour and moves first once. Each cycle gets one opening, drawn from
//! the legal moves with ChaCha8 seeded from (tournament seed, table, cycle), and every round
//! of the cycle starts with that same opening: the first colour is fixed for the match, so the
//! same plies lead to the same position in every round of the cycle, and only who sits behind
//! each colour changes. No seat is favoured by the opening.
//!
//! Openings go through the [`Game`] trait only (`new_round`, `to_act`, `legal_moves`, `play`),
//! so they are legal by construction for any game whose moves can be listed.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::game::{Game, Request, RoundSetup, ToAct};
use crate::seed::{mix, round_seed};

/// Salt of the openings' PRNG, so openings never share a stream with anything else.
const OPENING_SALT: u64 = 0x6f70_656e_696e_6773;

/// The opening of each round of a table (index 0 is round 1): `plies` moves for every round,
/// the same within each rotation cycle of `players` rounds. Empty when `plies` is 0. An opening
/// stops early if the round would end (it never does for the plies a tournament file allows).
pub fn table_openings(
    game: &dyn Game,
    seed: u64,
    table: u32,
    rounds: u32,
    plies: u32,
) -> Vec<Vec<Value>> {
    if plies == 0 {
        return Vec::new();
    }
    let k = game.seats() as u32;
    let cycles = rounds.div_ceil(k);
    let per_cycle: Vec<Vec<Value>> = (0..cycles)
        .map(|c| cycle_opening(game, seed, table, c * k, plies))
        .collect();
    (0..rounds)
        .map(|r| per_cycle[(r / k) as usize].clone())
        .collect()
}

/// The number of moves in a round of `game` when it is played a move at a time by one seat at
/// a time (every request a `turn` with listed moves), played out with the first listed move;
/// `None` for a game that is not (simultaneous play, sealed bids): it has no openings.
pub fn round_length(game: &dyn Game) -> Option<usize> {
    let mut round = game.new_round(RoundSetup {
        round: 0,
        match_seed: 0,
        round_seed: 0,
        chance_seed: 0,
    });
    let mut moves = 0;
    loop {
        match round.to_act() {
            ToAct::Over => return Some(moves),
            ToAct::Seat(seat, Request::TURN) => {
                let first = round.legal_moves(seat)?.into_iter().next()?;
                round.play(seat, &first).ok()?;
                moves += 1;
            }
            _ => return None,
        }
    }
}

/// The opening of the cycle that starts at round `first_round` (0-based).
fn cycle_opening(
    game: &dyn Game,
    seed: u64,
    table: u32,
    first_round: u32,
    plies: u32,
) -> Vec<Value> {
    let rs = round_seed(seed, table, first_round);
    let mut rng = ChaCha8Rng::seed_from_u64(mix(rs ^ OPENING_SALT));
    let mut round = game.new_round(RoundSetup {
        round: first_round,
        match_seed: seed,
        round_seed: rs,
        chance_seed: rs,
    });
    let mut moves = Vec::new();
    for _ in 0..plies {
        let ToAct::Seat(seat, Request::TURN) = round.to_act() else {
            break;
        };
        let Some(legal) = round.legal_moves(seat) else {
            break;
        };
        let mv = legal[rng.random_range(0..legal.len())].clone();
        round
            .play(seat, &mv)
            .expect("a listed legal move is accepted");
        moves.push(mv);
    }
    moves
}
