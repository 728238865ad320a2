//! In-process rounds between built-in bots, without processes or the protocol: for the bots'
//! tests, quick strength measurements and weight tuning (`rollarena tournament` is the real
//! thing, and the ladder uses it).

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Bot, random_square};
use crate::game::bot::thread_cpu;
use crate::game::rolit::{Colour, Position};

/// One finished round.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// Balls of each seat's colour at the end.
    pub balls: Vec<u32>,
    /// Each seat's share of the win (1/k for k tied at the top).
    pub share: Vec<f64>,
    /// The longest any seat thought over a move, by the wall clock (the machine's stalls
    /// included).
    pub slowest: Vec<Duration>,
    /// The most CPU time any seat spent on a move (its thread's: the bots search on the
    /// calling thread), which a loaded machine does not inflate.
    pub slowest_cpu: Vec<Duration>,
    /// Every move, in order.
    pub moves: Vec<u8>,
}

/// Plays a round: seat `i` plays colour `i` of the variant and `bots[i]` moves for it, red
/// first, after `opening` uniformly random plies drawn from `seed` (the same for every seat
/// rotation of a seed). Every bot starts the round with `seed`. `time_ms` is the turn's time
/// given to each move.
pub fn play(bots: &mut [Bot], size: u8, opening: u32, seed: u64, time_ms: Option<u64>) -> Round {
    let players = bots.len();
    let mut pos = Position::start(size, players, Colour::Red).expect("a valid variant");
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0ba1_1a57);
    let mut moves = Vec::new();
    for _ in 0..opening {
        let sq = random_square(pos.legal_moves(), &mut rng);
        moves.push(sq.0);
        pos.play_unchecked(sq);
    }
    for b in bots.iter_mut() {
        b.new_round(seed);
    }
    let colours: Vec<Colour> = pos.colours().to_vec();
    let mut slowest = vec![Duration::ZERO; players];
    let mut slowest_cpu = vec![Duration::ZERO; players];
    let mut note = String::new();
    while !pos.is_over() {
        let seat = colours
            .iter()
            .position(|&c| c == pos.to_move())
            .expect("the mover plays");
        let legal = pos.legal_moves();
        let t = Instant::now();
        let cpu = thread_cpu();
        note.clear();
        let sq = bots[seat].choose_timed(&pos, legal, time_ms, &mut note);
        slowest[seat] = slowest[seat].max(t.elapsed());
        slowest_cpu[seat] = slowest_cpu[seat].max(thread_cpu().saturating_sub(cpu));
        assert!(
            legal & sq.bit() != 0,
            "{} chose the illegal {sq}",
            bots[seat].name()
        );
        moves.push(sq.0);
        pos.play_unchecked(sq);
    }
    let balls: Vec<u32> = colours.iter().map(|&c| pos.balls(c).count_ones()).collect();
    let best = *balls.iter().max().expect("players");
    let tied = balls.iter().filter(|&&b| b == best).count() as f64;
    let share = balls
        .iter()
        .map(|&b| if b == best { 1.0 / tied } else { 0.0 })
        .collect();
    Round {
        balls,
        share,
        slowest,
        slowest_cpu,
        moves,
    }
}

/// Plays the rounds numbered in `rounds` of `make(seat_of_a)`: bot A against the field, with A
/// in seat `r % players` of round `r` (so a run of whole seat rotations, such as every round
/// whose `r / players` a shard owns, keeps the seats balanced); returns A's win share in each.
pub fn shares<F: FnMut() -> (Bot, Vec<Bot>)>(
    mut make: F,
    size: u8,
    players: usize,
    rounds: impl IntoIterator<Item = u32>,
    time_ms: Option<u64>,
) -> Vec<f64> {
    let mut shares = Vec::new();
    for r in rounds {
        let (a, field) = make();
        let seat = r as usize % players;
        let mut bots: Vec<Bot> = field;
        bots.insert(seat, a);
        let round = play(&mut bots, size, 2, u64::from(r / players as u32), time_ms);
        shares.push(round.share[seat]);
    }
    shares
}

/// A's mean win share over `shares` and its standard error.
pub fn mean_and_error(shares: &[f64]) -> (f64, f64) {
    let n = shares.len() as f64;
    let mean = shares.iter().sum::<f64>() / n;
    let var = shares.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, (var / n).sqrt())
}

/// Plays `rounds` rounds (see [`shares`]); returns A's mean win share and its standard error.
pub fn score<F: FnMut() -> (Bot, Vec<Bot>)>(
    make: F,
    size: u8,
    players: usize,
    rounds: u32,
    time_ms: Option<u64>,
) -> (f64, f64) {
    mean_and_error(&shares(make, size, players, 0..rounds, time_ms))
}
