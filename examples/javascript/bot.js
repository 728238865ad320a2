#!/usr/bin/env node
// A Rolit bot for rollarena: the JavaScript (Node) starter kit.
//
// It reads one JSON message per line on stdin and answers on stdout, one JSON message per
// line. It keeps the state it is sent (the board from `start` and `turn`, updated by
// `played`), plays the move that turns the most balls weighted by the tactical value of the
// square, and logs to stderr (stdout belongs to the arbiter).
//
// Run it:   /usr/bin/node bot.js
// Check it: rollarena check "/usr/bin/node examples/javascript/bot.js"
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

const bot = {
  board: null,
  last: null, // the last turn: its id, board, letter and moves
  tried: new Set(),

  hello(msg) {
    const o = msg.options || {};
    log(`hello: seat ${msg.seat} of ${o.players}, ${o.size}x${o.size}, ${msg.move_ms} ms a move`);
    send({ type: "ready", name: NAME, version: VERSION, author: "rollarena starter kit" });
  },

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
const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  if (line.trim() === "") return;
  const msg = JSON.parse(line);
  if (msg.type === "bye") {
    log("bye");
    input.close();
    process.exit(0);
  }
  if (["hello", "start", "turn", "illegal", "played", "end"].includes(msg.type)) {
    bot[msg.type](msg);
  } // types this bot does not know are skipped
});
input.on("close", () => process.exit(0)); // stdin closed: the arbiter is gone
