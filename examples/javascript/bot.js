#!/usr/bin/env node
// A bot for every rollarena game: the JavaScript (Node) starter kit.
//
// It reads one JSON message per line on stdin and answers on stdout, one JSON message per
// line, and logs to stderr (stdout belongs to the arbiter). It plays the game `hello.game`
// names:
// - "rolit": it keeps the board it is sent (from `start` and `turn`, updated by `played`) and
//   plays the move that turns the most balls weighted by the tactical value of the square;
// - "robots" (Rock'n'Roll Robot): at `start` it searches breadth-first for a shortest
//   solution, declares it, passes, and shows the moves when asked to `prove`;
// - "goofspiel": it bids the card that ranks in its hand where the prize ranks among the prizes
//   left (goofspielChoose);
// - "rollerball": its base on the track the fewest other bases share, every card it lays
//   leading balls to that track, every reward laid as a victory point (rollerballChoose);
// - any other game: it answers each `turn` with the first move of its `legal` list.
//
// Run it:   /usr/bin/node bot.js
// Check it: rollarena check "/usr/bin/node examples/javascript/bot.js"
//           (add --game GAME: robots, goofspiel, rollerball)
"use strict";

const readline = require("readline");

const NAME = "starter-javascript";
const VERSION = "1.0";

const LETTERS = { red: "R", yellow: "Y", green: "G", blue: "B" };
const DIRECTIONS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];

// The five tactical levels of the rules, as a bonus for taking a square.
const VERY_STRONG = 30, STRONG = 6, MEDIUM = 1, WEAK = -6, VERY_WEAK = -15;

// Everything that is not a protocol message goes to stderr.
function log(...parts) {
  console.error(...parts);
}

// One JSON object per line. On Linux, writes to a pipe are synchronous in Node, so the line
// has left the process when write() returns: there is nothing else to flush.
function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function squareName([file, rank]) {
  return "abcdefgh"[file] + String(rank + 1);
}

function parseSquare(name) {
  return [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1];
}

// A board as rows of letters; [file, rank] from a1 = [0, 0]; row 0 is the highest rank.
class Board {
  constructor(rows) {
    this.n = rows.length;
    this.cells = rows.map((row) => row.split(""));
  }

  at(file, rank) {
    return this.cells[this.n - 1 - rank][file];
  }

  put(file, rank, letter) {
    this.cells[this.n - 1 - rank][file] = letter;
  }

  inside(file, rank) {
    return file >= 0 && file < this.n && rank >= 0 && rank < this.n;
  }

  // The balls a ball of letter `me` on [file, rank] would turn.
  flips(file, rank, me) {
    const turned = [];
    for (const [df, dr] of DIRECTIONS) {
      const run = [];
      let f = file + df, r = rank + dr;
      while (this.inside(f, r) && this.at(f, r) !== "." && this.at(f, r) !== me) {
        run.push([f, r]);
        f += df;
        r += dr;
      }
      if (run.length > 0 && this.inside(f, r) && this.at(f, r) === me) turned.push(...run);
    }
    return turned;
  }

  // Empty squares touching a ball; only the capturing ones if any capture.
  legalMoves(me) {
    const touching = [];
    for (let rank = 0; rank < this.n; rank++) {
      for (let file = 0; file < this.n; file++) {
        if (this.at(file, rank) !== ".") continue;
        const touches = DIRECTIONS.some(([df, dr]) =>
          this.inside(file + df, rank + dr) && this.at(file + df, rank + dr) !== ".");
        if (touches) touching.push([file, rank]);
      }
    }
    const captures = touching.filter(([f, r]) => this.flips(f, r, me).length > 0);
    return captures.length > 0 ? captures : touching;
  }
}

// The tactical value of a square: corners, edges, and the squares next to corners.
function level(file, rank, n) {
  const last = n - 1;
  const edgeF = file === 0 || file === last, edgeR = rank === 0 || rank === last;
  const nearF = file === 1 || file === last - 1, nearR = rank === 1 || rank === last - 1;
  if (edgeF && edgeR) return VERY_STRONG;
  if (edgeF) return nearR ? WEAK : STRONG;
  if (edgeR) return nearF ? WEAK : STRONG;
  return nearF && nearR ? VERY_WEAK : MEDIUM;
}

// The candidate that turns the most balls, weighted by the value of its square.
function choose(board, me, candidates) {
  let best = candidates[0], bestScore = -Infinity;
  for (const [f, r] of candidates) {
    const score = 2 * board.flips(f, r, me).length + level(f, r, board.n);
    if (score > bestScore) {
      best = [f, r];
      bestScore = score;
    }
  }
  return best;
}

const rolit = {
  board: null,
  last: null, // the last turn: its id, board, letter and moves
  tried: new Set(),

  start(msg) {
    this.board = new Board(msg.state.board);
    log(`round ${msg.round}: I play ${msg.colour}`);
  },

  turn(msg) {
    const state = msg.state;
    this.board = new Board(state.board);
    const me = LETTERS[state.to_move]; // the colour to move is mine
    const moves = msg.legal ? msg.legal.map(parseSquare) : this.board.legalMoves(me);
    this.last = { id: msg.turn_id, board: this.board, me, moves };
    this.tried = new Set();
    if (msg.bank_ms !== undefined) {
      // About my moves still to come: the empty squares shared among the colours.
      const empty = state.board.join("").split(".").length - 1;
      const left = Math.floor(empty / Math.max(1, (state.colours || [me]).length));
      log(`turn ${msg.turn_id}: plan at most ${planMs(msg, left)} ms (${msg.bank_ms} ms left in the bank)`);
    }
    this.answer(choose(this.board, me, moves));
  },

  illegal(msg) {
    log(`refused: ${msg.reason}`);
    if (!this.last) return;
    const { board, me, moves } = this.last;
    const untried = moves.filter((sq) => !this.tried.has(squareName(sq)));
    this.answer(choose(board, me, untried.length > 0 ? untried : moves));
  },

  answer(sq) {
    const name = squareName(sq);
    this.tried.add(name);
    const message = { type: "move", move: name };
    if (this.last.id !== undefined) message.turn_id = this.last.id;
    send(message);
  },

  played(msg) {
    const letter = LETTERS[msg.colour];
    if (!this.board || !letter) return;
    for (const name of [msg.move, ...(msg.flipped || [])]) {
      const [f, r] = parseSquare(name);
      this.board.put(f, r, letter);
    }
  },

  end(msg) {
    log(`round ${msg.round} over: scores ${JSON.stringify(msg.scores)}, ranks ${msg.ranks}`);
  },
};

// readline hands over one whole line at a time, however the bytes arrive.
// ---------------------------------------------------------------------------------------------
// Rock'n'Roll Robot (`hello.game` "robots"): protocol/games/robots.md and SPEC.md section 13.
// At `start` the bot searches for a solution, declares its length, then passes (it will not
// declare again), and answers `prove` with the moves.
// ---------------------------------------------------------------------------------------------

const THINK_SHARE = 0.5; // the search may run this share of the hourglass (hello.options.hourglass_ms)
const MAX_NODES = 2000000; // positions kept in memory, at most

const DIRS = ["up", "down", "left", "right"];
const STEP = { up: [0, 1], down: [0, -1], left: [-1, 0], right: [1, 0] };
const SIDE = { up: "N", down: "S", left: "W", right: "E" };
// How a diagonal wall turns a robot entering its cell, by the diagonal's kind.
const TURN = {
  "/": { right: "up", up: "right", left: "down", down: "left" },
  "\\": { right: "down", down: "right", left: "up", up: "left" },
};

// "a1" -> 0, "b1" -> 1, ... (cell = rank index * size + file index).
function cellIndex(name, size) {
  return (parseInt(name.slice(1), 10) - 1) * size + (name.charCodeAt(0) - 97);
}

class RobotsBoard {
  constructor(board) {
    this.size = board.size;
    this.walls = new Array(this.size * this.size).fill("");
    for (const [c, sides] of Object.entries(board.walls)) this.walls[cellIndex(c, this.size)] = sides;
    this.diagonals = new Array(this.size * this.size).fill(null);
    for (const d of board.diagonals || []) this.diagonals[cellIndex(d.cell, this.size)] = d;
  }

  // Where robot `who` (index `ri` in `cells`, robot names in `names`) stops moving `dir`, or
  // -1 when the move is not legal (it changes nothing, or goes round forever).
  slide(cells, names, ri, dir) {
    const n = this.size;
    const start = cells[ri];
    let at = start;
    const seen = new Set();
    for (;;) {
      if (this.walls[at].includes(SIDE[dir])) break; // a wall (edge and centre included)
      const [dx, dy] = STEP[dir];
      const next = at + dx + dy * n;
      if (cells.some((c, i) => i !== ri && c === next)) break; // stop before another robot
      const key = next * 4 + DIRS.indexOf(dir);
      if (seen.has(key)) return -1; // round through diagonal walls forever
      seen.add(key);
      at = next;
      const d = this.diagonals[at];
      if (d && d.colour !== names[ri]) dir = TURN[d.kind][dir]; // black: every colour turns it
    }
    return at === start ? -1 : at; // a move that changes nothing is not legal
  }
}

// Breadth-first search over the positions of all robots for a shortest solution: moves after
// which a robot the token accepts stands on the target, having moved at least twice (the
// bounce rule). Returns null if the time or memory runs out first.
function solveRobots(board, robots, token, target, deadline) {
  const names = Object.keys(robots).sort();
  const goal = token === "vortex" ? names.map((_, i) => i) : [names.indexOf(token.split("-")[0])];
  const targetCell = cellIndex(target, board.size);
  // A node: cells, how often each goal robot moved (up to 2), parent, move.
  const key = (cells, counts) => cells.join(",") + "/" + counts.join(",");
  const pathTo = (node) => {
    const moves = [];
    for (; node.parent; node = node.parent) moves.push(node.move);
    return moves.reverse();
  };
  const start = { cells: names.map((r) => cellIndex(robots[r], board.size)), counts: goal.map(() => 0), parent: null, move: null };
  let frontier = [start];
  const seen = new Set([key(start.cells, start.counts)]);
  for (let depth = 0; depth < 40 && frontier.length > 0; depth++) {
    // The last move of a shortest solution is one of a goal robot's: try those first.
    for (const node of frontier) {
      for (let g = 0; g < goal.length; g++) {
        if (node.counts[g] < 1) continue; // with this move it would have moved once only
        for (const dir of DIRS) {
          if (board.slide(node.cells, names, goal[g], dir) === targetCell) {
            return [...pathTo(node), { robot: names[goal[g]], dir }];
          }
        }
      }
    }
    // Otherwise, every position one move further.
    const following = [];
    for (const node of frontier) {
      if (Date.now() > deadline || seen.size > MAX_NODES) return null;
      for (let ri = 0; ri < names.length; ri++) {
        for (const dir of DIRS) {
          const stop = board.slide(node.cells, names, ri, dir);
          if (stop < 0) continue;
          const cells = node.cells.slice();
          cells[ri] = stop;
          const counts = node.counts.map((c, g) => Math.min(c + (goal[g] === ri ? 1 : 0), 2));
          const k = key(cells, counts);
          if (seen.has(k)) continue;
          seen.add(k);
          following.push({ cells, counts, parent: node, move: { robot: names[ri], dir } });
        }
      }
    }
    frontier = following;
  }
  return null;
}

class RobotsPlayer {
  constructor(options) {
    this.solo = options.players === 1; // alone, a declaration is verified at once: no pass after it
    // Another seat may turn the hourglass at once: declare well before it can run out.
    const hourglass = options.hourglass_ms || 60000;
    this.thinkMs = Math.floor(hourglass * THINK_SHARE);
    log(`robots: searching at most ${this.thinkMs} ms a token (hourglass ${hourglass} ms)`);
    this.solution = null;
  }

  start(msg) {
    const s = msg.state;
    // STRATEGY: a better search (or declaring early and lowering later) goes here.
    this.solution = solveRobots(new RobotsBoard(s.board), s.robots, s.token, s.target, Date.now() + this.thinkMs);
    log(`round ${msg.round}: ${s.token} at ${s.target}: ${this.solution ? this.solution.length : "no solution found"} moves`);
    if (this.solution) send({ type: "declare", moves: this.solution.length });
    if (!this.solution || !this.solo) send({ type: "pass" }); // done declaring
  }

  prove(msg) {
    send({ type: "solution", moves: this.solution || [], turn_id: msg.turn_id });
  }

  verified(msg) {
    if (!msg.ok) log(`seat ${msg.seat} failed: ${msg.reason}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Goofspiel (`hello.game` "goofspiel"): protocol/games/goofspiel.md. Every turn is a sealed bid
// for the prize on show, answered with one card of the hand.
// ---------------------------------------------------------------------------------------------

// Bid the card that stands among my cards where the prize stands among the prizes still to be
// won: the top card for the top prize, the lowest card for the lowest, so the high cards are
// kept for the high prizes. (At the start the hand and the prizes are both 1 to N, so this
// bids the prize's own value.)
function goofspielChoose(state, legal) {
  // STRATEGY: the place for your Goofspiel play: `state.history` has every bid so far.
  const prizes = state.prizes_left.concat([state.prize]).sort((a, b) => a - b);
  const hand = legal.slice().sort((a, b) => Number(a) - Number(b));
  const rank = prizes.indexOf(state.prize); // 0 for the lowest prize still to be won
  return hand[Math.floor((rank * hand.length) / prizes.length)];
}

// ---------------------------------------------------------------------------------------------
// Rollerball (`hello.game` "rollerball"): protocol/games/rollerball.md. A ball that enters a
// player's base earns that player a card, which this bot always lays as a victory point (five
// win). So the bot puts its base on the track the fewest other bases share, and then every
// diversion card it lays leads balls towards that track; the workman waits on its own base,
// where no ball can hit it, and walks out to build such a card while a ball rolls on another
// track.
// ---------------------------------------------------------------------------------------------

const MOVES = ["DM", "UM"]; // a Move card sends every ball leaving s1 across to s2
const SPLITTERS = ["SD", "SU"]; // a Splitter sends a new ball across to s2, the ball goes on

// 1 (outer), 2 or 3 (inner): the track `square` belongs to (`state.tracks` lists them).
function trackOf(state, square) {
  const i = state.tracks.findIndex((squares) => squares.includes(square));
  return i + 1;
}

// How many tracks closer to mine (the track of my base) a card on s1-s2 brings the balls it
// diverts: positive for a card that leads balls to my base, negative for one that leads them
// away. A Splitter never takes a ball away (the ball goes on, a new one crosses).
function cardGain(state, mine, code, s1, s2) {
  const gain = Math.abs(trackOf(state, s1) - mine) - Math.abs(trackOf(state, s2) - mine);
  if (MOVES.includes(code)) return gain;
  if (SPLITTERS.includes(code)) return Math.max(gain, 0);
  return 0; // a ball changer diverts nothing
}

// Squares a ball on `square` rolls along its track to reach `target` (99: never).
function distanceTo(state, square, target) {
  for (const squares of state.tracks) {
    if (squares.includes(square) && squares.includes(target)) {
      return (squares.indexOf(target) - squares.indexOf(square) + squares.length) % squares.length;
    }
  }
  return 99;
}

// The first of `moves` with the lowest `key` (`moves` in the order of `legal`).
function firstLowest(moves, key) {
  let best = moves[0];
  for (const move of moves) if (key(move) < key(best)) best = move;
  return best;
}

const CORNERS = "a1 h1 b2 g2 c3 f3 c6 f6 b7 g7 a8 h8".split(" "); // no card ever covers a corner

// The squares orthogonally next to `square`.
function neighbours(square) {
  const file = square.charCodeAt(0);
  const rank = Number(square.slice(1));
  const steps = [[1, 0], [-1, 0], [0, 1], [0, -1]];
  return steps
    .filter(([df, dr]) => file + df >= 97 && file + df <= 104 && rank + dr >= 1 && rank + dr <= 8)
    .map(([df, dr]) => String.fromCharCode(file + df) + (rank + dr));
}

// The most a Move or Splitter card of my hand would gain (`cardGain`) built on a slot that
// includes `square`, 0 if none: a slot of a track changer is two orthogonally adjacent squares
// of adjacent tracks, neither a corner, and a build needs both free of balls, cards, bases and
// the other players' workmen.
function buildGain(state, mine, square) {
  const me = state.players[state.seat];
  const blocked = new Set(CORNERS);
  for (const ball of state.balls) blocked.add(ball.at);
  for (const card of state.cards) card.at.forEach((sq) => blocked.add(sq));
  for (const p of state.players) {
    blocked.add(p.base);
    if (p !== me) blocked.add(p.workman);
  }
  let best = 0;
  for (const other of neighbours(square)) {
    const [outer, inner] = [square, other].sort((a, b) => trackOf(state, a) - trackOf(state, b));
    if (blocked.has(square) || blocked.has(other)) continue;
    if (trackOf(state, inner) !== trackOf(state, outer) + 1) continue; // same track, or the logo
    for (const code of state.hand) {
      // DM and SD lie from the outer square to the inner one, UM and SU the other way.
      const [s1, s2] = code === "DM" || code === "SD" ? [outer, inner] : [inner, outer];
      best = Math.max(best, cardGain(state, mine, code, s1, s2));
    }
  }
  return best;
}

// One decision of Rollerball: `state.phase` names it (the rules' section "Decisions and
// notation" lists each phase's moves).
function rollerballChoose(state, legal) {
  // STRATEGY: the place for your Rollerball play; each phase below is a simple rule.
  const phase = state.phase;
  const me = state.players[state.seat];
  const square = (move) => move.split(" ")[1];
  if (phase === "base") {
    // The base track (1 or 2) the fewest other bases stand on, the shorter one (2) on a tie: a
    // ball on it comes back to my base every 10 turns.
    const taken = state.players.filter((p) => p.base).map((p) => trackOf(state, p.base));
    return firstLowest(legal, (m) => {
      const track = trackOf(state, square(m));
      return 10 * taken.filter((t) => t === track).length - track;
    });
  }
  const mine = me.base ? trackOf(state, me.base) : 0;
  // On a base square no ball can hit the workman.
  if (phase === "workman" && legal.includes(`workman ${me.base}`)) return `workman ${me.base}`;
  if (phase === "ball") {
    // As near before my base as the rules allow: it scores in the first turn.
    return firstLowest(legal, (m) => distanceTo(state, square(m), me.base));
  }
  if (phase === "reward") {
    // Always a victory point: from the deck (`vp`), else a card off the board, the one that
    // leads balls away from my base first.
    if (legal.includes("vp")) return "vp";
    const takes = legal.filter((m) => m.endsWith(" vp"));
    if (takes.length === 0) return legal[0];
    return firstLowest(takes, (m) => {
      const card = state.cards.find((c) => c.at.includes(square(m)));
      return cardGain(state, mine, card.card, card.at[0], card.at[1]);
    });
  }
  if (phase === "card" || phase === "use") {
    // The card that brings balls nearest my track (`pass` or `none` if none brings any).
    let best = legal[0];
    let bestGain = 0;
    for (const move of legal) {
      const words = move.split(" ");
      if (words[0] !== "place" && words[0] !== "build") continue;
      const gain = cardGain(state, mine, words[1], words[2], words[3]);
      if (gain > bestGain) [best, bestGain] = [move, gain];
    }
    return best;
  }
  if (phase === "discard") {
    // A card that diverts nothing first (ball changers, Replacers), then any.
    const diverts = (m) => MOVES.includes(square(m)) || SPLITTERS.includes(square(m));
    const useless = legal.filter((m) => !diverts(m));
    return useless.length > 0 ? useless[0] : legal[0];
  }
  if (phase === "move") {
    // Away from home, back home. At home, stay while every ball rolls on my track; else walk
    // to the square from which a card of my hand would bring balls nearest (the `use` decision
    // then builds it), or stay if none would.
    if (me.workman !== me.base) {
      const home = `move ${me.base}`;
      return legal.includes(home) ? home : legal[0];
    }
    if (state.balls.every((ball) => trackOf(state, ball.at) === mine)) return legal[0];
    let best = legal[0];
    let bestGain = 0;
    for (const move of legal) {
      const words = move.split(" ");
      if (words[0] === "move" && buildGain(state, mine, words[1]) > bestGain) {
        [best, bestGain] = [move, buildGain(state, mine, words[1])];
      }
    }
    return best;
  }
  // "bid": nothing; "extra" (5 and 6 players): `stay`; anything else: the first.
  return legal[0];
}

// ---------------------------------------------------------------------------------------------
// Any game whose every decision is a `turn` with a `legal` list (Goofspiel, Rollerball, ...).
// ---------------------------------------------------------------------------------------------

const STRATEGIES = { goofspiel: goofspielChoose, rollerball: rollerballChoose };

class AnyGamePlayer {
  constructor(game) {
    this.last = null;
    this.strategy = STRATEGIES[game];
  }

  // The game's strategy above; in a game the kit does not know, the first legal move.
  choose(state, legal) {
    return this.strategy ? this.strategy(state, legal) : legal[0];
  }

  turn(msg) {
    this.last = { id: msg.turn_id, state: msg.state || {}, legal: (msg.legal || []).slice() };
    this.answer();
  }

  illegal(msg) {
    log(`refused: ${msg.reason}`);
    if (this.last && this.last.legal.length > 0) this.answer();
  }

  answer() {
    const { id, state, legal } = this.last;
    if (legal.length === 0) return log("a turn without a legal list: nothing to choose from");
    const move = this.choose(state, legal);
    legal.splice(legal.indexOf(move), 1); // if it is refused, the next answer is another one
    const message = { type: "move", move };
    if (id !== undefined) message.turn_id = id;
    send(message);
  }
}

// The match's clock (protocol/SPEC.md section 6.2): `hello` may give a time bank per round
// (`bank_ms`), an increment added after each move (`increment_ms`) and a longer first answer
// (`first_move_ms`). A turn's `time_ms` is the most this answer may take; with a bank, `bank_ms`
// is what is left for the rest of the round, so a bot that searches plans each answer from it.
let incrementMs = 0;

// The time to plan for this answer: `time_ms` without a bank; with one, an even share of what
// is left of it over the moves still to come, plus the increment, never more than `time_ms`.
// Stop a search well before it (the pipe and the scheduler take some).
function planMs(turn, movesLeft) {
  const timeMs = turn.time_ms ?? 1000;
  if (turn.bank_ms === undefined) return timeMs;
  return Math.min(timeMs, Math.floor(turn.bank_ms / Math.max(1, movesLeft)) + incrementMs);
}

// The player of the game `hello` names.
let bot = {};

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  if (line.trim() === "") return;
  const msg = JSON.parse(line);
  if (msg.type === "bye") {
    log("bye");
    input.close();
    process.exit(0);
  }
  if (msg.type === "hello") {
    log(`hello: ${msg.game}, seat ${msg.seat}, options ${JSON.stringify(msg.options)}`);
    incrementMs = msg.increment_ms ?? 0;
    bot = msg.game === "rolit" ? rolit : msg.game === "robots" ? new RobotsPlayer(msg.options || {}) : new AnyGamePlayer(msg.game);
    send({ type: "ready", name: NAME, version: VERSION, author: "rollarena starter kit" });
  } else if (typeof bot[msg.type] === "function") {
    bot[msg.type](msg);
  } // types this bot does not know are skipped
});
input.on("close", () => process.exit(0)); // stdin closed: the arbiter is gone
