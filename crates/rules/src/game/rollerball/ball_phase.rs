//! The ball phase (rules §6): the rubber switch, then two simultaneous steps of route, move,
//! effects and collisions (with push chains and combining), collecting the public events and
//! the reward and hit events that are settled afterwards.
//!
//! It only touches the board; the cards it destroys are handed back for the discards, and the
//! settlement (which asks players) belongs to the state machine.

use super::ball::Ball;
use super::board::{Board, card_in};
use super::card::{Card, Placed};
use super::events::Event;
use super::square::Square;

/// A reward or hit, to be settled after the phase in this order (§6.7).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Settle {
    Reward { seat: usize, ball: u32, at: Square },
    Hit { seat: usize, ball: u32, at: Square },
}

/// What a ball phase produced.
#[derive(Clone, Debug, Default)]
pub struct PhaseLog {
    pub events: Vec<Event>,
    pub settle: Vec<Settle>,
    /// Cards destroyed, for the discards.
    pub destroyed: Vec<Card>,
}

/// A ball's move in a step: (ball id, from, to, crossed).
type StepMove = (u32, Square, Square, bool);

/// The moves of one step on the stack, at most eight (four balls, each splitting once): a
/// step runs at every turn of every playout, so it allocates nothing.
struct Moves {
    list: [StepMove; 8],
    len: usize,
}

impl Default for Moves {
    fn default() -> Moves {
        let none = Square::from_index(0);
        Moves {
            list: [(0, none, none, false); 8],
            len: 0,
        }
    }
}

impl Moves {
    fn push(&mut self, m: StepMove) {
        self.list[self.len] = m;
        self.len += 1;
    }

    /// The moves by ball id.
    fn sorted(&mut self) -> &[StepMove] {
        let list = &mut self.list[..self.len];
        list.sort_by_key(|m| m.0);
        list
    }
}

/// Where a ball on its square goes (§6.3): the square, whether it crosses, and the Y square
/// of a split (the caller decides whether a new ball may appear).
fn route(ball: &Ball, cards: &[Placed]) -> (Square, bool, Option<Square>) {
    let q = ball.at;
    if !ball.is_up()
        && let Some(c) = card_in(cards, q)
        && c.s1 == q
    {
        if c.card.is_move() {
            return (c.s2, true, None);
        }
        if c.card.is_splitter() {
            return (q.next(), false, Some(c.s2));
        }
    }
    (q.next(), false, None)
}

impl Board {
    /// Runs a whole ball phase.
    pub fn ball_phase(&mut self, log: &mut PhaseLog) {
        for b in &mut self.balls {
            if let Some(r) = b.rubber {
                b.rubber = Some(r.flip());
                log.events.push(Event::Switch {
                    ball: b.id,
                    rubber: r.flip(),
                });
            }
        }
        self.step(1, log);
        self.step(2, log);
    }

    /// A new ball with `parent`'s state on `at`, if fewer than four are in play.
    fn split(&mut self, parent: usize, at: Square, log: &mut PhaseLog) -> Option<u32> {
        if self.balls.len() >= 4 {
            return None;
        }
        let id = self.next_ball;
        self.next_ball += 1;
        let p = self.balls[parent];
        self.balls.push(Ball { id, at, ..p });
        log.events.push(Event::Split {
            ball: p.id,
            new: id,
            at,
        });
        Some(id)
    }

    /// One step (§6.2).
    fn step(&mut self, step: u8, log: &mut PhaseLog) {
        // The cards do not change until the step's destroyed cards are removed: they are
        // taken out of the board for the routes and effects (not copied), and put back.
        let cards = std::mem::take(&mut self.cards);
        // Route (and, for simplicity, record the moves).
        let mut moves = Moves::default();
        let before = self.balls.len();
        let mut targets = [Square::from_index(0); 4];
        for (i, target) in targets.iter_mut().enumerate().take(before) {
            let b = self.balls[i];
            let (to, cross, y) = route(&b, &cards);
            *target = to;
            log.events.push(Event::Step {
                step,
                ball: b.id,
                from: b.at,
                to,
                cross,
            });
            moves.push((b.id, b.at, to, cross));
            if let Some(y) = y
                && let Some(id) = self.split(i, y, log)
            {
                moves.push((id, b.at, y, true));
            }
        }
        // Move: the new balls already stand on their Y squares.
        for (ball, &t) in self.balls.iter_mut().zip(&targets[..before]) {
            ball.at = t;
        }
        // Effects, in increasing id (new balls have the highest ids, in order of creation).
        let moves = moves.sorted();
        let mut destroyed: Vec<Square> = Vec::new();
        for &(id, q, t, _) in moves {
            let i = self.ball_index(id).expect("ball in play");
            self.effects(i, q, t, &cards, &mut destroyed, log);
        }
        self.cards = cards;
        self.remove_destroyed(&destroyed, log);
        // Collisions.
        let mut squares: Vec<(Square, u32, u32)> = Vec::new();
        for &(id, _, t, cross) in moves {
            if cross && let Some(other) = self.balls.iter().find(|b| b.at == t && b.id != id) {
                squares.push((t, other.id, id));
            }
        }
        // By newcomer id, but a square downstream of the other first.
        squares.sort_by_key(|s| s.2);
        if squares.len() == 2 && squares[0].0.next() == squares[1].0 {
            squares.swap(0, 1);
        }
        for (sq, incumbent, newcomer) in squares {
            self.settle(sq, incumbent, newcomer, log);
        }
    }

    /// §6.5 for ball index `i` that moved from `q` to `t`, reading `cards`; destroyed cards are
    /// noted by their `s1`.
    fn effects(
        &mut self,
        i: usize,
        q: Square,
        t: Square,
        cards: &[Placed],
        destroyed: &mut Vec<Square>,
        log: &mut PhaseLog,
    ) {
        let ball = &mut self.balls[i];
        if !ball.is_up()
            && let Some(c) = card_in(cards, q)
            && c.s2 == q
            && c.card.is_ball_changer()
        {
            match c.card {
                Card::EN => ball.energised = true,
                Card::RU => ball.rubber = Some(ball.rubber.unwrap_or(super::ball::Rubber::Up)),
                _ => ball.rubber = None,
            }
            log.events.push(Event::Change {
                ball: ball.id,
                card: c.card,
                energised: ball.energised,
                rubber: ball.rubber,
            });
        }
        if ball.energised
            && !ball.is_up()
            && let Some(c) = card_in(cards, t)
        {
            if !destroyed.contains(&c.s1) {
                destroyed.push(c.s1);
            }
            ball.energised = false;
            log.events.push(Event::Destroy {
                ball: ball.id,
                card: c.card,
                at: c.s1,
            });
        }
        if ball.is_up() {
            return;
        }
        let id = ball.id;
        if t.is_base_square() {
            if let Some(seat) = self.base_owner(t) {
                log.events.push(Event::Reward {
                    seat,
                    ball: id,
                    at: t,
                });
                log.settle.push(Settle::Reward {
                    seat,
                    ball: id,
                    at: t,
                });
            }
        } else {
            for seat in 0..self.workmen.len() {
                if self.workmen[seat] == Some(t) {
                    let home = self.bases[seat].expect("bases are placed before balls");
                    self.workmen[seat] = Some(home);
                    log.events.push(Event::Hit {
                        seat,
                        ball: id,
                        at: t,
                        home,
                    });
                    log.settle.push(Settle::Hit {
                        seat,
                        ball: id,
                        at: t,
                    });
                }
            }
        }
    }

    fn remove_destroyed(&mut self, destroyed: &[Square], log: &mut PhaseLog) {
        for &s1 in destroyed {
            if let Some(c) = self.lift(s1) {
                log.destroyed.push(c.card);
            }
        }
    }

    /// Settles a square holding `incumbent` and `newcomer` (§6.6).
    fn settle(&mut self, sq: Square, incumbent: u32, newcomer: u32, log: &mut PhaseLog) {
        if let Some(c) = self.card_at(sq)
            && c.card.is_splitter()
            && c.s2 == sq
        {
            self.balls.retain(|b| b.id != newcomer);
            log.events.push(Event::Combine {
                ball: newcomer,
                into: incumbent,
                at: sq,
            });
            return;
        }
        self.push(incumbent, log);
    }

    /// Pushes ball `id` one square on, then settles where it (and a ball it split off) lands.
    fn push(&mut self, id: u32, log: &mut PhaseLog) {
        let i = self.ball_index(id).expect("pushed ball in play");
        let b = self.balls[i];
        let cards = std::mem::take(&mut self.cards);
        let (to, _, y) = route(&b, &cards);
        log.events.push(Event::Push {
            ball: id,
            from: b.at,
            to,
        });
        self.balls[i].at = to;
        let new = y.and_then(|y| self.split(i, y, log));
        let mut destroyed = Vec::new();
        self.effects(i, b.at, to, &cards, &mut destroyed, log);
        if let Some(n) = new {
            let j = self.ball_index(n).expect("new ball");
            self.effects(j, b.at, self.balls[j].at, &cards, &mut destroyed, log);
        }
        self.cards = cards;
        self.remove_destroyed(&destroyed, log);
        if let Some(other) = self.balls.iter().find(|o| o.at == to && o.id != id) {
            let other = other.id;
            self.settle(to, other, id, log);
        }
        if let Some(n) = new
            && let Some(j) = self.ball_index(n)
        {
            let at = self.balls[j].at;
            if let Some(other) = self.balls.iter().find(|o| o.at == at && o.id != n) {
                let other = other.id;
                self.settle(at, other, n, log);
            }
        }
    }
}
