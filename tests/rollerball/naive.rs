//! A second, deliberately naive implementation of Rollerball (rules `rollerball-v4-hr2`),
//! written from the rules text alone: squares and cards are strings, the tracks and slots are
//! the rules' own lists, everything is found by searching lists, and the state and events are
//! built as JSON by hand. Slow and obvious; it shares nothing with the engine but the
//! generator the rules name (ChaCha8 with Fisher–Yates as §11.6 writes it).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

const TRACK1: &str =
    "a8 b8 c8 d8 e8 f8 g8 h8 h7 h6 h5 h4 h3 h2 h1 g1 f1 e1 d1 c1 b1 a1 a2 a3 a4 a5 a6 a7";
const TRACK2: &str = "b7 c7 d7 e7 f7 g7 g6 g5 g4 g3 g2 f2 e2 d2 c2 b2 b3 b4 b5 b6";
const TRACK3: &str = "c6 d6 e6 f6 f5 f4 f3 e3 d3 c3 c4 c5";
const BASE_SQUARES: &str = "a1 h1 b2 g2 b7 g7 a8 h8";
const TRACK_SLOTS: &str = "c8-c7 d8-d7 e8-e7 f8-f7 h6-g6 h5-g5 h4-g4 h3-g3 f1-f2 e1-e2 d1-d2 \
    c1-c2 a3-b3 a4-b4 a5-b5 a6-b6 d7-d6 e7-e6 g5-f5 g4-f4 e2-e3 d2-d3 b4-c4 b5-c5";
const BALL_SLOTS: &str = "b8c8 c8d8 d8e8 e8f8 f8g8 h7h6 h6h5 h5h4 h4h3 h3h2 g1f1 f1e1 e1d1 \
    d1c1 c1b1 a2a3 a3a4 a4a5 a5a6 a6a7 c7d7 d7e7 e7f7 g6g5 g5g4 g4g3 f2e2 e2d2 d2c2 b3b4 b4b5 \
    b5b6 d6e6 f5f4 e3d3 c4c5";
const CODES: [&str; 8] = ["DM", "DR", "EN", "RP", "RU", "SD", "SU", "UM"];
const COPIES: [usize; 8] = [5, 3, 3, 5, 3, 5, 5, 5];
const COLOURS: [&str; 6] = ["red", "blue", "green", "yellow", "purple", "white"];

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// The three tracks (built once: the naive code looks squares up in them all the time).
pub fn tracks() -> &'static Vec<Vec<String>> {
    static TRACKS: std::sync::OnceLock<Vec<Vec<String>>> = std::sync::OnceLock::new();
    TRACKS.get_or_init(|| vec![words(TRACK1), words(TRACK2), words(TRACK3)])
}

/// Square order: by rank, then by file.
fn key(sq: &str) -> (u8, u8) {
    let b = sq.as_bytes();
    (b[1], b[0])
}

fn sort_squares(v: &mut [String]) {
    v.sort_by_key(|s| key(s));
}

fn all_track_squares() -> Vec<String> {
    static ALL: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut v: Vec<String> = tracks().concat();
        sort_squares(&mut v);
        v
    })
    .clone()
}

fn track_of(sq: &str) -> usize {
    tracks()
        .iter()
        .position(|t| t.iter().any(|s| s == sq))
        .unwrap()
}

fn next(sq: &str) -> String {
    let t = &tracks()[track_of(sq)];
    let i = t.iter().position(|s| s == sq).unwrap();
    t[(i + 1) % t.len()].clone()
}

fn is_base_square(sq: &str) -> bool {
    BASE_SQUARES.split_whitespace().any(|s| s == sq)
}

fn adjacent(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    (a[0] as i32 - b[0] as i32).abs() + (a[1] as i32 - b[1] as i32).abs() == 1
}

/// Every (code, s1, s2) the card could lie on.
fn slots(code: &str) -> Vec<(String, String)> {
    let mut v = Vec::new();
    match code {
        "DM" | "SD" | "UM" | "SU" => {
            for pair in TRACK_SLOTS.split_whitespace() {
                let (outer, inner) = pair.split_once('-').unwrap();
                if code == "DM" || code == "SD" {
                    v.push((outer.to_string(), inner.to_string()));
                } else {
                    v.push((inner.to_string(), outer.to_string()));
                }
            }
        }
        "EN" | "RU" | "DR" => {
            for pair in BALL_SLOTS.split_whitespace() {
                v.push((pair[0..2].to_string(), pair[2..4].to_string()));
            }
        }
        _ => {}
    }
    v
}

#[derive(Clone, Debug)]
pub struct NBall {
    pub id: u32,
    pub at: String,
    pub energised: bool,
    /// "up", "down" or "" (not rubber).
    pub rubber: &'static str,
}

#[derive(Clone, Debug)]
pub struct NCard {
    pub code: String,
    pub s1: String,
    pub s2: String,
}

#[derive(Clone, Debug)]
pub struct Naive {
    pub n: usize,
    pub turn_limit: u32,
    rng: ChaCha8Rng,
    pub deck: Vec<String>,
    pub discards: Vec<String>,
    pub hands: Vec<Vec<String>>,
    pub vps: Vec<Vec<String>>,
    pub bids: Vec<Option<Vec<String>>>,
    revealed: bool,
    passed: Vec<bool>,
    pub bases: Vec<Option<String>>,
    pub workmen: Vec<Option<String>>,
    pub cards: Vec<NCard>,
    pub balls: Vec<NBall>,
    next_id: u32,
    pub phase: &'static str,
    pub turn: u32,
    acting: Option<usize>,
    first: Option<usize>,
    asked: usize,
    setup_done: usize,
    /// Rewards and hits waiting: (kind, seat, ball, square).
    queue: Vec<(&'static str, usize, u32, String)>,
    /// The one being asked about, with the card drawn for a reward.
    pending: Option<(&'static str, usize, u32, String, Option<String>)>,
    pub winners: Vec<usize>,
    /// Events and secrets of the last move.
    pub events: Vec<Value>,
    pub secrets: Vec<Value>,
    /// What went on: counts of situations, for coverage.
    pub seen: std::collections::BTreeMap<&'static str, u64>,
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn shuffle(rng: &mut ChaCha8Rng, v: &mut [String]) {
    let mut i = v.len();
    while i > 1 {
        i -= 1;
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

fn remove_one(v: &mut Vec<String>, c: &str) {
    let i = v.iter().position(|x| x == c).expect("card held");
    v.remove(i);
}

impl Naive {
    pub fn new(n: usize, turn_limit: u32, seed: u64) -> Naive {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut deck = Vec::new();
        for (i, code) in CODES.iter().enumerate() {
            for _ in 0..COPIES[i] {
                deck.push(code.to_string());
            }
        }
        shuffle(&mut rng, &mut deck);
        let mut hands = vec![Vec::new(); n];
        for _ in 0..4 {
            for h in hands.iter_mut() {
                h.push(deck.remove(0));
            }
        }
        let hands = hands.into_iter().map(sorted).collect();
        Naive {
            n,
            turn_limit,
            rng,
            deck,
            discards: Vec::new(),
            hands,
            vps: vec![Vec::new(); n],
            bids: vec![None; n],
            revealed: false,
            passed: vec![false; n],
            bases: vec![None; n],
            workmen: vec![None; n],
            cards: Vec::new(),
            balls: Vec::new(),
            next_id: 1,
            phase: "bid",
            turn: 0,
            acting: None,
            first: None,
            asked: 0,
            setup_done: 0,
            queue: Vec::new(),
            pending: None,
            winners: Vec::new(),
            events: Vec::new(),
            secrets: Vec::new(),
            seen: Default::default(),
        }
    }

    fn see(&mut self, what: &'static str) {
        *self.seen.entry(what).or_insert(0) += 1;
    }

    /// The seats asked now.
    pub fn asked(&self) -> Vec<usize> {
        match self.phase {
            "over" => vec![],
            "bid" => (0..self.n).filter(|&s| self.bids[s].is_none()).collect(),
            _ => vec![self.asked],
        }
    }

    fn card_on(&self, sq: &str) -> Option<NCard> {
        self.cards
            .iter()
            .find(|c| c.s1 == sq || c.s2 == sq)
            .cloned()
    }

    fn ball_on(&self, sq: &str) -> Option<NBall> {
        self.balls.iter().find(|b| b.at == sq).cloned()
    }

    fn base_owner(&self, sq: &str) -> Option<usize> {
        (0..self.n).find(|&s| self.bases[s].as_deref() == Some(sq))
    }

    fn has_workman(&self, sq: &str) -> bool {
        self.workmen.iter().any(|w| w.as_deref() == Some(sq))
    }

    fn unoccupied(&self, sq: &str) -> bool {
        self.base_owner(sq).is_none() && !self.has_workman(sq) && self.card_on(sq).is_none()
    }

    fn other_workman(&self, seat: usize, sq: &str) -> bool {
        (0..self.n).any(|s| s != seat && self.workmen[s].as_deref() == Some(sq))
    }

    fn grounded_ball(&self, sq: &str) -> bool {
        self.balls.iter().any(|b| b.at == sq && b.rubber != "up")
    }

    fn distinct(&self, seat: usize) -> Vec<String> {
        let mut v = self.hands[seat].clone();
        v.dedup();
        v
    }

    /// Every legal move of `seat`, in the canonical order of §11.1.
    pub fn legal(&self, seat: usize) -> Vec<String> {
        if !self.asked().contains(&seat) {
            return vec![];
        }
        let mut out = Vec::new();
        match self.phase {
            "bid" => {
                let h = &self.hands[seat];
                let mut all: Vec<Vec<String>> = Vec::new();
                for mask in 0..(1u32 << h.len()) {
                    let pick: Vec<String> = (0..h.len())
                        .filter(|i| mask & (1 << i) != 0)
                        .map(|i| h[i].clone())
                        .collect();
                    let pick = sorted(pick);
                    if !all.contains(&pick) {
                        all.push(pick);
                    }
                }
                all.sort();
                for b in all {
                    if b.is_empty() {
                        out.push("bid".to_string());
                    } else {
                        out.push(format!("bid {}", b.join(" ")));
                    }
                }
            }
            "base" => {
                for s in all_track_squares() {
                    if is_base_square(&s) && self.base_owner(&s).is_none() {
                        out.push(format!("base {s}"));
                    }
                }
            }
            "workman" => {
                for s in all_track_squares() {
                    out.push(format!("workman {s}"));
                }
            }
            "card" => {
                out.push("pass".to_string());
                out.extend(self.setup_placements(seat));
            }
            "ball" => {
                let mut free: Vec<String> = all_track_squares()
                    .into_iter()
                    .filter(|s| self.unoccupied(s))
                    .collect();
                if free.is_empty() {
                    free = all_track_squares()
                        .into_iter()
                        .filter(|s| self.base_owner(s).is_none() && !self.has_workman(s))
                        .collect();
                }
                for s in free {
                    out.push(format!("ball {s}"));
                }
            }
            "reward" => {
                let p = self.pending.as_ref().unwrap();
                if p.4.is_some() {
                    out.push("keep".into());
                    out.push("vp".into());
                } else {
                    out.push("decline".into());
                    let mut s1s: Vec<String> = self.cards.iter().map(|c| c.s1.clone()).collect();
                    sort_squares(&mut s1s);
                    for s in s1s {
                        out.push(format!("take {s} keep"));
                        out.push(format!("take {s} vp"));
                    }
                }
            }
            "discard" => {
                for c in self.distinct(seat) {
                    out.push(format!("discard {c}"));
                }
            }
            "move" | "extra" => {
                out.push("stay".into());
                let from = self.workmen[seat].clone().unwrap();
                let reach = self.reachable(&from);
                for s in all_track_squares() {
                    if s != from && reach.contains(&s) {
                        out.push(format!("move {s}"));
                    }
                }
                for c in self.distinct(seat) {
                    for s in all_track_squares() {
                        if s != from && self.ball_on(&s).is_none() {
                            out.push(format!("teleport {c} {s}"));
                        }
                    }
                }
            }
            "use" => {
                out.push("none".into());
                let sq = self.workmen[seat].clone().unwrap();
                if let Some(c) = self.card_on(&sq) {
                    let clear = !self.grounded_ball(&c.s1) && !self.grounded_ball(&c.s2);
                    let no_other =
                        !self.other_workman(seat, &c.s1) && !self.other_workman(seat, &c.s2);
                    if clear && no_other {
                        for pay in self.distinct(seat) {
                            out.push(format!("blowup {pay}"));
                        }
                    }
                }
                let mut builds = Vec::new();
                let mut replaces = Vec::new();
                for code in self.distinct(seat) {
                    for (s1, s2) in slots(&code) {
                        if s1 != sq && s2 != sq {
                            continue;
                        }
                        let ok_build = [&s1, &s2].iter().all(|s| {
                            self.ball_on(s).is_none()
                                && !self.other_workman(seat, s)
                                && self.card_on(s).is_none()
                                && self.base_owner(s).is_none()
                        });
                        if ok_build {
                            builds.push((code.clone(), s1.clone(), s2.clone()));
                        }
                        if let Some(old) = self.card_on(&sq) {
                            let old_clear =
                                !self.grounded_ball(&old.s1) && !self.grounded_ball(&old.s2);
                            let has_rp = self.hands[seat].iter().any(|c| c == "RP");
                            let ok_new = [&s1, &s2].iter().all(|s| {
                                self.ball_on(s).is_none()
                                    && self.card_on(s).is_none_or(|c| c.s1 == old.s1)
                                    && self.base_owner(s).is_none()
                            });
                            if old_clear && has_rp && ok_new {
                                replaces.push((code.clone(), s1.clone(), s2.clone()));
                            }
                        }
                    }
                }
                let order = |v: &mut Vec<(String, String, String)>| {
                    v.sort_by(|a, b| {
                        (a.0.clone(), key(&a.1), key(&a.2)).cmp(&(
                            b.0.clone(),
                            key(&b.1),
                            key(&b.2),
                        ))
                    })
                };
                order(&mut builds);
                order(&mut replaces);
                for (c, a, b) in builds {
                    out.push(format!("build {c} {a} {b}"));
                }
                for (c, a, b) in replaces {
                    out.push(format!("replace {c} {a} {b}"));
                }
            }
            _ => {}
        }
        out
    }

    fn setup_placements(&self, seat: usize) -> Vec<String> {
        let mut v = Vec::new();
        for code in self.distinct(seat) {
            let mut here: Vec<(String, String)> = slots(&code)
                .into_iter()
                .filter(|(a, b)| self.unoccupied(a) && self.unoccupied(b))
                .collect();
            here.sort_by_key(|(a, b)| (key(a), key(b)));
            for (a, b) in here {
                v.push(format!("place {code} {a} {b}"));
            }
        }
        v
    }

    /// Squares a walk of 1 to 3 orthogonal steps reaches, avoiding the logo and grounded balls.
    fn reachable(&self, from: &str) -> Vec<String> {
        let squares = all_track_squares();
        let mut reached: Vec<String> = Vec::new();
        let mut ends: Vec<String> = vec![from.to_string()];
        for _ in 0..3 {
            let mut more = Vec::new();
            for p in &ends {
                for s in &squares {
                    if adjacent(p, s) && !self.grounded_ball(s) && !reached.contains(s) {
                        reached.push(s.clone());
                        more.push(s.clone());
                    }
                }
            }
            ends = more;
        }
        reached
    }

    /// Plays a canonical move.
    pub fn play(&mut self, seat: usize, mv: &str) {
        assert!(
            self.legal(seat).iter().any(|m| m == mv),
            "naive: {mv} not legal"
        );
        self.events.clear();
        self.secrets.clear();
        let t: Vec<&str> = mv.split(' ').collect();
        match t[0] {
            "bid" => {
                let bid: Vec<String> = t[1..].iter().map(|s| s.to_string()).collect();
                self.secrets
                    .push(json!({"secret": "bid", "seat": seat, "cards": bid.clone()}));
                self.bids[seat] = Some(bid);
                if self.bids.iter().all(|b| b.is_some()) {
                    let most = self
                        .bids
                        .iter()
                        .map(|b| b.as_ref().unwrap().len())
                        .max()
                        .unwrap();
                    let top: Vec<usize> = (0..self.n)
                        .filter(|&s| self.bids[s].as_ref().unwrap().len() == most)
                        .collect();
                    let winner;
                    let tied;
                    if top.len() > 1 {
                        winner = top[self.rng.random_range(0..top.len())];
                        tied = json!(top);
                        self.see("bid tie");
                    } else {
                        winner = top[0];
                        tied = Value::Null;
                    }
                    for c in self.bids[winner].clone().unwrap() {
                        remove_one(&mut self.hands[winner], &c);
                        self.discards.push(c);
                    }
                    self.discards.sort();
                    self.revealed = true;
                    let bids: Vec<Vec<String>> =
                        self.bids.iter().map(|b| b.clone().unwrap()).collect();
                    self.events.push(
                        json!({"event": "bids", "bids": bids, "winner": winner, "tied": tied}),
                    );
                    self.first = Some(winner);
                    self.phase = "base";
                    self.asked = winner;
                    self.setup_done = 0;
                }
            }
            "base" | "workman" => {
                if t[0] == "base" {
                    self.bases[seat] = Some(t[1].to_string());
                } else {
                    self.workmen[seat] = Some(t[1].to_string());
                }
                self.setup_done += 1;
                let first = self.first.unwrap();
                if self.setup_done < self.n {
                    self.asked = (first + self.setup_done) % self.n;
                } else if t[0] == "base" {
                    self.setup_done = 0;
                    self.phase = "workman";
                    self.asked = first;
                } else {
                    self.card_round_from(first);
                }
            }
            "pass" => {
                self.passed[seat] = true;
                self.card_round_from((seat + 1) % self.n);
            }
            "place" => {
                remove_one(&mut self.hands[seat], t[1]);
                self.lay(t[1], t[2], t[3]);
                self.card_round_from((seat + 1) % self.n);
            }
            "ball" => {
                self.balls.push(NBall {
                    id: self.next_id,
                    at: t[1].to_string(),
                    energised: false,
                    rubber: "",
                });
                self.next_id += 1;
                self.begin_turn(1, self.first.unwrap());
            }
            "keep" | "vp" => {
                let p = self.pending.take().unwrap();
                let card = p.4.unwrap();
                self.gain(seat, card, t[0] == "vp");
                self.settle();
            }
            "decline" => {
                self.pending = None;
                self.settle();
            }
            "take" => {
                self.pending = None;
                let i = self.cards.iter().position(|c| c.s1 == t[1]).unwrap();
                let c = self.cards.remove(i);
                self.events.push(
                    json!({"event": "take", "seat": seat, "card": c.code.clone(), "at": c.s1}),
                );
                self.see("take");
                self.gain(seat, c.code, t[2] == "vp");
                self.settle();
            }
            "discard" => {
                self.pending = None;
                remove_one(&mut self.hands[seat], t[1]);
                self.discards.push(t[1].to_string());
                self.discards.sort();
                self.settle();
            }
            "stay" | "move" | "teleport" => {
                if t[0] == "move" {
                    self.workmen[seat] = Some(t[1].to_string());
                    if self.ball_on(t[1]).is_some() {
                        self.see("walk under a rubber-up ball");
                    }
                }
                if t[0] == "teleport" {
                    remove_one(&mut self.hands[seat], t[1]);
                    self.discards.push(t[1].to_string());
                    self.discards.sort();
                    self.workmen[seat] = Some(t[2].to_string());
                }
                if self.phase == "move" {
                    self.phase = "use";
                } else {
                    self.see("extra");
                    self.end_turn();
                }
            }
            "none" | "blowup" | "build" | "replace" => {
                let sq = self.workmen[seat].clone().unwrap();
                if t[0] == "blowup" {
                    self.see("blowup");
                    remove_one(&mut self.hands[seat], t[1]);
                    self.discards.push(t[1].to_string());
                    let i = self
                        .cards
                        .iter()
                        .position(|c| c.s1 == sq || c.s2 == sq)
                        .unwrap();
                    let c = self.cards.remove(i);
                    self.discards.push(c.code);
                    self.discards.sort();
                    self.workmen[seat] = self.bases[seat].clone();
                }
                if t[0] == "build" {
                    self.see("build");
                    remove_one(&mut self.hands[seat], t[1]);
                    self.lay(t[1], t[2], t[3]);
                }
                if t[0] == "replace" {
                    self.see("replace");
                    remove_one(&mut self.hands[seat], "RP");
                    self.discards.push("RP".into());
                    let i = self
                        .cards
                        .iter()
                        .position(|c| c.s1 == sq || c.s2 == sq)
                        .unwrap();
                    let c = self.cards.remove(i);
                    self.discards.push(c.code);
                    self.discards.sort();
                    remove_one(&mut self.hands[seat], t[1]);
                    self.lay(t[1], t[2], t[3]);
                }
                if self.n >= 5 {
                    self.phase = "extra";
                    self.asked = (self.acting.unwrap() + 3) % self.n;
                } else {
                    self.end_turn();
                }
            }
            _ => panic!("naive: unknown move {mv}"),
        }
    }

    fn lay(&mut self, code: &str, s1: &str, s2: &str) {
        self.cards.push(NCard {
            code: code.into(),
            s1: s1.into(),
            s2: s2.into(),
        });
    }

    fn gain(&mut self, seat: usize, card: String, vp: bool) {
        if !vp {
            self.hands[seat].push(card);
            self.hands[seat].sort();
            return;
        }
        self.events
            .push(json!({"event": "vp", "seat": seat, "card": card.clone()}));
        self.vps[seat].push(card);
        self.vps[seat].sort();
        if self.vps[seat].len() >= 5 {
            self.events.push(json!({"event": "win", "seat": seat}));
            self.queue.clear();
            self.winners = vec![seat];
            self.phase = "over";
            self.see("five points");
        }
    }

    fn card_round_from(&mut self, start: usize) {
        for k in 0..self.n {
            let s = (start + k) % self.n;
            if self.passed[s] {
                continue;
            }
            if self.setup_placements(s).is_empty() {
                self.passed[s] = true;
                self.events.push(json!({"event": "pass", "seat": s}));
                continue;
            }
            self.phase = "card";
            self.asked = s;
            return;
        }
        self.phase = "ball";
        self.asked = self.first.unwrap();
    }

    fn take_top(&mut self, seat: usize) -> Option<String> {
        if self.deck.is_empty() {
            return None;
        }
        let c = self.deck.remove(0);
        self.events.push(json!({"event": "draw", "seat": seat}));
        self.secrets
            .push(json!({"secret": "drawn", "seat": seat, "card": c.clone()}));
        Some(c)
    }

    fn begin_turn(&mut self, turn: u32, seat: usize) {
        self.turn = turn;
        self.acting = Some(seat);
        self.events
            .push(json!({"event": "turn", "turn": turn, "seat": seat}));
        // 6.1: the rubber switch.
        for i in 0..self.balls.len() {
            let b = &mut self.balls[i];
            if b.rubber == "up" {
                b.rubber = "down";
            } else if b.rubber == "down" {
                b.rubber = "up";
            } else {
                continue;
            }
            let (id, r) = (b.id, b.rubber);
            self.events
                .push(json!({"event": "switch", "ball": id, "rubber": r}));
        }
        self.one_step(1);
        self.one_step(2);
        self.settle();
    }

    fn end_turn(&mut self) {
        if self.turn >= self.turn_limit {
            let pts: Vec<usize> = self.vps.iter().map(|v| v.len()).collect();
            let best = *pts.iter().max().unwrap();
            self.winners = (0..self.n).filter(|&s| pts[s] == best).collect();
            self.phase = "over";
            self.see("turn limit");
            return;
        }
        let next = (self.acting.unwrap() + 1) % self.n;
        self.begin_turn(self.turn + 1, next);
    }

    /// Settles waiting rewards and hits; then the draw and the move.
    fn settle(&mut self) {
        if self.phase == "over" {
            return;
        }
        while !self.queue.is_empty() {
            let (kind, seat, ball, at) = self.queue.remove(0);
            if kind == "reward" {
                if let Some(c) = self.take_top(seat) {
                    self.pending = Some(("reward", seat, ball, at, Some(c)));
                    self.phase = "reward";
                    self.asked = seat;
                    return;
                }
                if !self.cards.is_empty() {
                    self.pending = Some(("reward", seat, ball, at, None));
                    self.phase = "reward";
                    self.asked = seat;
                    self.see("reward from the board");
                    return;
                }
            } else if !self.hands[seat].is_empty() {
                self.pending = Some(("discard", seat, ball, at, None));
                self.phase = "discard";
                self.asked = seat;
                return;
            }
        }
        let a = self.acting.unwrap();
        if self.hands[a].len() < 4 {
            if self.deck.is_empty() && !self.discards.is_empty() {
                let mut d = std::mem::take(&mut self.discards);
                d.sort();
                shuffle(&mut self.rng, &mut d);
                self.events
                    .push(json!({"event": "reshuffle", "cards": d.len()}));
                self.secrets
                    .push(json!({"secret": "reshuffle", "deck": d.clone()}));
                self.deck = d;
                self.see("reshuffle");
            }
            if let Some(c) = self.take_top(a) {
                self.hands[a].push(c);
                self.hands[a].sort();
            }
        }
        self.phase = "move";
        self.asked = a;
    }

    fn idx(&self, id: u32) -> usize {
        self.balls.iter().position(|b| b.id == id).unwrap()
    }

    /// §6.3 for one ball: where it goes, whether it crosses, and the Y square of a splitter.
    fn route(&self, b: &NBall, cards: &[NCard]) -> (String, bool, Option<String>) {
        if b.rubber != "up"
            && let Some(c) = cards.iter().find(|c| c.s1 == b.at)
        {
            if c.code == "DM" || c.code == "UM" {
                return (c.s2.clone(), true, None);
            }
            if c.code == "SD" || c.code == "SU" {
                return (next(&b.at), false, Some(c.s2.clone()));
            }
        }
        (next(&b.at), false, None)
    }

    fn new_ball(&mut self, parent: u32, at: &str) -> Option<u32> {
        if self.balls.len() >= 4 {
            self.see("no split: four balls");
            return None;
        }
        let p = self.balls[self.idx(parent)].clone();
        let id = self.next_id;
        self.next_id += 1;
        self.balls.push(NBall {
            id,
            at: at.to_string(),
            energised: p.energised,
            rubber: p.rubber,
        });
        self.events
            .push(json!({"event": "split", "ball": parent, "new": id, "at": at}));
        self.see("split");
        Some(id)
    }

    fn one_step(&mut self, k: u32) {
        let cards = self.cards.clone();
        let mut ids: Vec<u32> = self.balls.iter().map(|b| b.id).collect();
        ids.sort();
        // (id, from, to, crossed)
        let mut moved: Vec<(u32, String, String, bool)> = Vec::new();
        for id in ids {
            let b = self.balls[self.idx(id)].clone();
            let (to, cross, y) = self.route(&b, &cards);
            self.events
                .push(json!({"event": "step", "step": k, "ball": id,
                "from": b.at.clone(), "to": to.clone(), "cross": cross}));
            moved.push((id, b.at.clone(), to, cross));
            if let Some(y) = y
                && let Some(new) = self.new_ball(id, &y)
            {
                moved.push((new, b.at.clone(), y, true));
            }
        }
        for (id, _, to, _) in &moved {
            let i = self.idx(*id);
            self.balls[i].at = to.clone();
        }
        moved.sort_by_key(|m| m.0);
        let mut destroyed: Vec<String> = Vec::new();
        for (id, from, to, _) in &moved {
            self.effects(*id, from, to, &cards, &mut destroyed);
        }
        for s1 in destroyed {
            let i = self.cards.iter().position(|c| c.s1 == s1).unwrap();
            let c = self.cards.remove(i);
            self.discards.push(c.code);
            self.discards.sort();
        }
        // Collisions: a square with a ball that crossed onto it and another ball.
        let mut squares: Vec<(String, u32, u32)> = Vec::new();
        for (id, _, to, cross) in &moved {
            if *cross {
                for b in &self.balls {
                    if b.at == *to && b.id != *id {
                        squares.push((to.clone(), b.id, *id));
                    }
                }
            }
        }
        squares.sort_by_key(|s| s.2);
        if squares.len() == 2 && next(&squares[0].0) == squares[1].0 {
            squares.reverse();
            self.see("downstream first");
        }
        for (sq, inc, new) in squares {
            self.collide(&sq, inc, new);
        }
    }

    fn effects(
        &mut self,
        id: u32,
        from: &str,
        to: &str,
        cards: &[NCard],
        destroyed: &mut Vec<String>,
    ) {
        let i = self.idx(id);
        // a. ball changers
        if self.balls[i].rubber != "up"
            && let Some(c) = cards.iter().find(|c| c.s2 == from)
            && (c.code == "EN" || c.code == "RU" || c.code == "DR")
        {
            let b = &mut self.balls[i];
            if c.code == "EN" {
                b.energised = true;
            } else if c.code == "RU" {
                if b.rubber.is_empty() {
                    b.rubber = "up";
                }
            } else {
                b.rubber = "";
            }
            let rubber = if b.rubber.is_empty() {
                Value::Null
            } else {
                json!(b.rubber)
            };
            let e = json!({"event": "change", "ball": id, "card": c.code.clone(),
                "energised": b.energised, "rubber": rubber});
            self.events.push(e);
            self.see("change");
        }
        // b. energised
        if self.balls[i].energised
            && self.balls[i].rubber != "up"
            && let Some(c) = cards.iter().find(|c| c.s1 == to || c.s2 == to)
        {
            if !destroyed.contains(&c.s1) {
                destroyed.push(c.s1.clone());
            }
            self.balls[i].energised = false;
            self.events.push(
                json!({"event": "destroy", "ball": id, "card": c.code.clone(), "at": c.s1.clone()}),
            );
            self.see("destroy");
        }
        if self.balls[i].rubber == "up" {
            return;
        }
        // c. bases, d. workmen
        if is_base_square(to) {
            if let Some(owner) = self.base_owner(to) {
                self.events
                    .push(json!({"event": "reward", "seat": owner, "ball": id, "at": to}));
                self.queue.push(("reward", owner, id, to.to_string()));
                self.see("reward");
            }
        } else {
            for s in 0..self.n {
                if self.workmen[s].as_deref() == Some(to) {
                    let home = self.bases[s].clone().unwrap();
                    self.workmen[s] = Some(home.clone());
                    self.events.push(
                        json!({"event": "hit", "seat": s, "ball": id, "at": to, "home": home}),
                    );
                    self.queue.push(("hit", s, id, to.to_string()));
                    self.see("hit");
                }
            }
        }
    }

    fn collide(&mut self, sq: &str, incumbent: u32, newcomer: u32) {
        let y = self
            .cards
            .iter()
            .any(|c| c.s2 == sq && (c.code == "SD" || c.code == "SU"));
        if y {
            let i = self.idx(newcomer);
            self.balls.remove(i);
            self.events
                .push(json!({"event": "combine", "ball": newcomer, "into": incumbent, "at": sq}));
            self.see("combine");
            return;
        }
        self.see("push");
        let b = self.balls[self.idx(incumbent)].clone();
        let cards = self.cards.clone();
        let (to, _, y) = self.route(&b, &cards);
        self.events.push(
            json!({"event": "push", "ball": incumbent, "from": b.at.clone(), "to": to.clone()}),
        );
        let i = self.idx(incumbent);
        self.balls[i].at = to.clone();
        let new = match &y {
            Some(y) => self.new_ball(incumbent, y),
            None => None,
        };
        let mut destroyed = Vec::new();
        self.effects(incumbent, &b.at, &to, &cards, &mut destroyed);
        if let (Some(n), Some(y)) = (new, &y) {
            self.effects(n, &b.at, y, &cards, &mut destroyed);
        }
        for s1 in destroyed {
            let i = self.cards.iter().position(|c| c.s1 == s1).unwrap();
            let c = self.cards.remove(i);
            self.discards.push(c.code);
            self.discards.sort();
        }
        let other = self
            .balls
            .iter()
            .find(|o| o.at == to && o.id != incumbent)
            .map(|o| o.id);
        if let Some(o) = other {
            self.see("push chain");
            self.collide(&to, o, incumbent);
        }
        if let (Some(n), Some(y)) = (new, &y)
            && self.balls.iter().any(|b| b.id == n)
        {
            let other = self
                .balls
                .iter()
                .find(|o| o.at == *y && o.id != n)
                .map(|o| o.id);
            if let Some(o) = other {
                self.collide(y, o, n);
            }
        }
    }

    /// The state as the seat (`None`: a spectator) sees it, built from the rules' field list
    /// (§11.2), without the constant `tracks`.
    pub fn state_json(&self, seat: Option<usize>) -> Value {
        let players: Vec<Value> = (0..self.n)
            .map(|s| {
                let bid = match &self.bids[s] {
                    None => Value::Null,
                    Some(b) if self.revealed || seat.is_none() => json!(b),
                    Some(_) => json!("sealed"),
                };
                json!({"colour": COLOURS[s], "base": self.bases[s], "workman": self.workmen[s],
                    "hand": self.hands[s].len(), "vp": self.vps[s], "bid": bid, "passed": self.passed[s]})
            })
            .collect();
        let mut balls = self.balls.clone();
        balls.sort_by_key(|b| b.id);
        let balls: Vec<Value> = balls
            .iter()
            .map(|b| {
                let r = if b.rubber.is_empty() {
                    Value::Null
                } else {
                    json!(b.rubber)
                };
                json!({"id": b.id, "at": b.at, "energised": b.energised, "rubber": r})
            })
            .collect();
        let mut cards = self.cards.clone();
        cards.sort_by_key(|c| key(&c.s1));
        let cards: Vec<Value> = cards
            .iter()
            .map(|c| json!({"card": c.code, "at": [c.s1, c.s2]}))
            .collect();
        let pending = match &self.pending {
            None => Value::Null,
            Some((kind, s, ball, at, card)) => {
                let mut p = json!({"kind": kind, "seat": s, "ball": ball, "at": at});
                if let Some(c) = card
                    && (seat.is_none() || seat == Some(*s))
                {
                    p["card"] = json!(c);
                }
                p
            }
        };
        let asked = match self.phase {
            "over" => Value::Null,
            "bid" => match seat {
                Some(s) if self.bids[s].is_none() => json!(s),
                _ => Value::Null,
            },
            _ => json!(self.asked),
        };
        let mut v = json!({
            "rules": "rollerball-v4-hr2",
            "phase": self.phase,
            "turn": self.turn,
            "turn_limit": self.turn_limit,
            "acting": self.acting,
            "asked": asked,
            "first_player": self.first,
            "seat": seat,
            "players": players,
            "balls": balls,
            "cards": cards,
            "deck": self.deck.len(),
            "discards": self.discards,
            "pending": pending,
        });
        match seat {
            Some(s) => v["hand"] = json!(self.hands[s]),
            None => v["hands"] = json!(self.hands),
        }
        v
    }

    /// Victory points by seat.
    pub fn points(&self) -> Vec<usize> {
        self.vps.iter().map(|v| v.len()).collect()
    }
}
