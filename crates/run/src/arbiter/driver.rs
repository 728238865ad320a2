//! One round with live bots: the async loop that turns process events into the referee's
//! inputs and carries out its outputs. It decides nothing: every rule of play is the
//! [`Referee`]'s. What it owns is what only processes have: the round's clock (an [`Instant`]
//! at `start`), waiting on several bots' pipes at once with the referee's deadline, CPU time
//! readings, freezing, killing and reading stderr tails.

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

use tokio::time::Instant;

use super::bot::{Bot, Failure, Heard};
use super::cpu_marks::CpuMarks;
use super::events::{Event, Observer};
use super::matches::MatchConfig;
use super::outbox::Outbox;
use crate::game::{Outcome, Round, Seat};
use crate::record::{Fault, round_ms};
use crate::referee::{Input, Output, Play, Referee, Settings};

/// What a round leaves: the round as the rules ended it, the record's play, the result.
pub struct Finished {
    pub round: Box<dyn Round>,
    pub play: Play,
    pub outcome: Outcome,
}

/// The referee's settings for a match.
pub fn settings(config: &MatchConfig) -> Settings {
    Settings {
        move_ms: config.time.per_move.as_secs_f64() * 1000.0,
        margin_ms: config.time.margin.as_secs_f64() * 1000.0,
        retries: config.retries,
        freeze: config.freeze,
        hide_legal: config.hide_legal,
        max_unasked: config.limits.max_unasked,
        max_log_bytes: config.limits.max_log_bytes,
        timed: config.game.simultaneous(),
    }
}

/// What a round starts with besides its rules.
pub struct RoundStart<'o> {
    pub round_no: u32,
    pub round_seed: u64,
    /// The seed bots are told in `start`.
    pub start_seed: u64,
    /// Seats whose bot could not be started (they forfeit before the first move).
    pub failures: Vec<(Seat, Failure)>,
    /// Bots found dead between rounds and started again.
    pub restarts: Vec<Fault>,
    pub opening: Option<&'o [serde_json::Value]>,
}

/// Plays one round with the match's live bots (a seat whose bot forfeits is left `None`).
pub async fn play_round(
    config: &MatchConfig,
    round: Box<dyn Round>,
    start: RoundStart<'_>,
    bots: &mut [Option<Bot>],
    turn_id: &mut u64,
    observer: &mut dyn Observer,
) -> std::io::Result<Finished> {
    let seats = bots.len();
    let mut referee = Referee::new(
        round,
        seats,
        settings(config),
        start.round_no,
        start.round_seed,
        *turn_id,
    )
    .with_clocks(&config.tcs());
    if observer.spectates() {
        referee = referee.spectated();
        let round = referee.round();
        let (state, colours) = (round.live_view(), round.colours());
        observer.on_event(&Event::RoundDealt {
            round: start.round_no,
            state: &state,
            colours: colours.as_deref(),
            first: round.first(),
        })?;
    }
    for fault in start.restarts {
        referee.add_fault(fault);
    }
    // What the bots said before the round (during start-up) belongs to it.
    for (seat, bot) in bots.iter_mut().enumerate() {
        if let Some(bot) = bot {
            let (count, examples, logs) = bot.take_round_notes();
            for text in logs {
                referee.add_log(seat, &text);
            }
            for (i, ex) in examples.iter().enumerate() {
                referee.add_unasked(seat, ex.line.as_bytes(), ex.why);
                if i + 1 == examples.len() {
                    for _ in examples.len() as u32..count {
                        referee.add_unasked(seat, ex.line.as_bytes(), ex.why);
                    }
                }
            }
        }
    }
    let mut run = Run {
        round_no: start.round_no,
        t0: Instant::now(),
        cpu: CpuMarks::new(seats),
        outbox: Outbox::new(seats),
        outputs: Vec::new(),
        moves_seen: 0,
        forfeits_seen: 0,
    };
    for (seat, failure) in start.failures {
        referee.input(0.0, Input::Failed { seat, failure });
    }
    run.carry_out(&mut referee, bots, observer).await?;
    referee.start(start.start_seed);
    run.t0 = Instant::now();
    run.cpu.mark_all(bots);
    if let Some(opening) = start.opening {
        referee.opening(opening).map_err(std::io::Error::other)?;
    }
    referee.input(0.0, Input::Tick);
    run.carry_out(&mut referee, bots, observer).await?;
    let mut rotation = 0usize;
    while !referee.is_over() {
        let listening = referee.listening();
        let deadline = referee.deadline();
        if listening.is_empty() && deadline.is_none() {
            return Err(std::io::Error::other(format!(
                "the game {} waits for seats that have no bot and set no deadline",
                config.game.name()
            )));
        }
        let until = deadline.map(|d| run.t0 + Duration::from_secs_f64(d / 1000.0));
        rotation = rotation.wrapping_add(1);
        let heard = listen_any(bots, &listening, until, rotation).await;
        let at = run.now();
        match heard {
            None => referee.input(at, Input::Tick),
            Some((seat, Heard::Line(line))) => {
                let cpu_ms = bots[seat]
                    .as_mut()
                    .and_then(|bot| run.cpu.since_mark(seat, bot));
                referee.input(
                    at,
                    Input::Line {
                        seat,
                        line: &line,
                        cpu_ms,
                    },
                );
            }
            Some((seat, Heard::Failed(failure))) => {
                referee.input(at, Input::Failed { seat, failure })
            }
        }
        run.carry_out(&mut referee, bots, observer).await?;
    }
    for (seat, bot) in bots.iter_mut().enumerate() {
        if let Some(bot) = bot {
            // A `log` sent with or right after the round's last action is this round's: what
            // is in the pipe now is taken before the record is made (protocol/SPEC.md §5.3).
            for text in bot.logs_waiting() {
                referee.add_log_after_end(seat, &text);
            }
            referee.stderr_tail(seat, bot.take_stderr_tail());
        }
    }
    // Every seat was thawed with `end`; nothing may stay behind for the next round.
    run.outbox.release_all(bots);
    *turn_id = referee.turn_id();
    let outcome = referee.outcome().expect("over").clone();
    let (round, play) = referee.finish();
    Ok(Finished {
        round,
        play,
        outcome,
    })
}

/// The driver's own state for a round.
struct Run {
    round_no: u32,
    /// Round time 0: when `start` was sent.
    t0: Instant,
    /// Each seat's CPU clock.
    cpu: CpuMarks,
    /// The lines of the batch being carried out, per seat, written once per bot and move.
    outbox: Outbox,
    /// The referee's outputs being carried out (kept for the next batch).
    outputs: Vec<Output>,
    moves_seen: usize,
    forfeits_seen: usize,
}

impl Run {
    /// Round time now, in ms to the microsecond.
    fn now(&self) -> f64 {
        round_ms(self.t0.elapsed().as_secs_f64() * 1000.0)
    }

    /// Carries out everything the referee asked for, feeding it what draining bots finds, and
    /// tells the observer of every new move and forfeit.
    async fn carry_out(
        &mut self,
        referee: &mut Referee,
        bots: &mut [Option<Bot>],
        observer: &mut dyn Observer,
    ) -> std::io::Result<()> {
        // One vector for every batch of the round, instead of one allocated per batch.
        let mut outputs = std::mem::take(&mut self.outputs);
        loop {
            outputs.extend(referee.take_outputs());
            if outputs.is_empty() {
                break;
            }
            for output in outputs.drain(..) {
                match output {
                    Output::Send {
                        seat,
                        line,
                        mark_cpu,
                    } => {
                        if let Some(bot) = bots[seat].as_mut() {
                            if mark_cpu {
                                self.cpu.mark(seat, bot);
                            }
                            self.outbox.push(seat, &line);
                        }
                    }
                    Output::Freeze(seat) => {
                        if let Some(bot) = bots[seat].as_ref() {
                            bot.freeze();
                            self.cpu.frozen(seat);
                            // Its lines wait for its thaw: it cannot read them before.
                            self.outbox.freeze(seat);
                        }
                    }
                    Output::Thaw(seat) => {
                        // It wakes to everything it has to read, in one write.
                        self.outbox.thaw(seat, bots);
                        self.cpu.thawed(seat);
                        if let Some(bot) = bots[seat].as_ref() {
                            bot.thaw();
                        }
                    }
                    Output::Kill(seat) => {
                        // Killing waits: the others' lines go first.
                        self.outbox.discard(seat);
                        self.outbox.flush_all(bots);
                        self.cpu.thawed(seat);
                        if let Some(mut bot) = bots[seat].take() {
                            bot.kill().await;
                            referee.stderr_tail(seat, bot.stderr_tail());
                        }
                    }
                    Output::Drain(seat) => {
                        // The seat about to be asked keeps its lines for its request's write
                        // (frozen seats keep theirs for their thaw).
                        self.outbox.flush_others(seat, bots);
                        let at = self.now();
                        if let Some(bot) = bots[seat].as_mut() {
                            let (lines, failure) = bot.drain_heard().await;
                            for line in &lines {
                                referee.input(
                                    at,
                                    Input::Line {
                                        seat,
                                        line,
                                        cpu_ms: None,
                                    },
                                );
                            }
                            if let Some(failure) = failure {
                                referee.input(at, Input::Failed { seat, failure });
                            }
                        }
                        referee.input(at, Input::Drained(seat));
                    }
                }
            }
        }
        self.outputs = outputs;
        self.outbox.flush_all(bots);
        self.cpu.batch_done();
        let play = referee.play();
        for forfeit in &play.forfeits[self.forfeits_seen..] {
            observer.on_event(&Event::Forfeited {
                round: self.round_no,
                forfeit,
            })?;
        }
        self.forfeits_seen = play.forfeits.len();
        for (i, mv) in play.moves.iter().enumerate().skip(self.moves_seen) {
            observer.on_event(&Event::Moved {
                round: self.round_no,
                mv,
                public: referee.public().get(i),
            })?;
        }
        self.moves_seen = play.moves.len();
        Ok(())
    }
}

type Listening<'b> = Pin<Box<dyn Future<Output = (Seat, Option<Heard>)> + Send + 'b>>;

/// The first of `seats` to send something (or fail), or `None` once `until` passes. Waits on
/// every bot at once; `rotation` changes which bot is looked at first, so no seat is always
/// served first when several lines are there together.
async fn listen_any(
    bots: &mut [Option<Bot>],
    seats: &[Seat],
    until: Option<Instant>,
    rotation: usize,
) -> Option<(Seat, Heard)> {
    if let [seat] = seats
        && bots[*seat].is_some()
    {
        // One seat (sequential play, every move): no boxing, no polling of others.
        let bot = bots[*seat].as_mut().expect("checked");
        return bot.hear(until).await.map(|h| (*seat, h));
    }
    let mut listening: Vec<Listening<'_>> = Vec::new();
    for (seat, slot) in bots.iter_mut().enumerate() {
        if let Some(bot) = slot.as_mut()
            && seats.contains(&seat)
        {
            listening.push(Box::pin(async move { (seat, bot.hear(until).await) }));
        }
    }
    if listening.is_empty() {
        if let Some(until) = until {
            tokio::time::sleep_until(until).await;
        }
        return None;
    }
    let n = listening.len();
    let first = rotation % n;
    let (seat, heard) = std::future::poll_fn(|cx| {
        for i in 0..n {
            let f = &mut listening[(first + i) % n];
            if let Poll::Ready(out) = f.as_mut().poll(cx) {
                return Poll::Ready(out);
            }
        }
        Poll::Pending
    })
    .await;
    heard.map(|h| (seat, h))
}
