#!/usr/bin/env python3
"""A Rolit bot for rollarena: the Python starter kit.

It reads one JSON message per line on stdin and answers on stdout, one JSON message per line,
flushed at once. It keeps the state it is sent (the board from `start` and `turn`, updated by
`played`), plays the move that turns the most balls weighted by the tactical value of the
square, and logs to stderr (stdout belongs to the arbiter).

Run it:   /usr/bin/python3 bot.py
Check it: rollarena check "/usr/bin/python3 examples/python/bot.py"
"""

import json
import sys

NAME = "starter-python"
VERSION = "1.0"

LETTERS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

# The five tactical levels of the rules, as a bonus for taking a square.
VERY_STRONG, STRONG, MEDIUM, WEAK, VERY_WEAK = 30, 6, 1, -6, -15


def log(*parts):
    """Everything that is not a protocol message goes to stderr."""
    print(*parts, file=sys.stderr, flush=True)


def send(message):
    """One JSON object per line, flushed: stdout is a pipe, and pipes are block-buffered."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def square_name(file, rank):
    return "abcdefgh"[file] + str(rank + 1)


def parse_square(name):
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


class Board:
    """A board as rows of letters; (file, rank) from a1 = (0, 0); row 0 is the highest rank."""

    def __init__(self, rows):
        self.n = len(rows)
        self.cells = [list(row) for row in rows]

    def at(self, file, rank):
        return self.cells[self.n - 1 - rank][file]

    def put(self, file, rank, letter):
        self.cells[self.n - 1 - rank][file] = letter

    def inside(self, file, rank):
        return 0 <= file < self.n and 0 <= rank < self.n

    def flips(self, file, rank, me):
        """The balls a ball of letter `me` on (file, rank) would turn."""
        turned = []
        for df, dr in DIRECTIONS:
            run = []
            f, r = file + df, rank + dr
            while self.inside(f, r) and self.at(f, r) not in (".", me):
                run.append((f, r))
                f, r = f + df, r + dr
            if run and self.inside(f, r) and self.at(f, r) == me:
                turned.extend(run)
        return turned

    def legal_moves(self, me):
        """Empty squares touching a ball; only the capturing ones if any capture."""
        touching = []
        for rank in range(self.n):
            for file in range(self.n):
                if self.at(file, rank) != ".":
                    continue
                if any(
                    self.inside(file + df, rank + dr) and self.at(file + df, rank + dr) != "."
                    for df, dr in DIRECTIONS
                ):
                    touching.append((file, rank))
        captures = [sq for sq in touching if self.flips(sq[0], sq[1], me)]
        return captures or touching


def level(file, rank, n):
    """The tactical value of a square: corners, edges, and the squares next to corners."""
    last = n - 1
    edge_f, edge_r = file in (0, last), rank in (0, last)
    near_f, near_r = file in (1, last - 1), rank in (1, last - 1)
    if edge_f and edge_r:
        return VERY_STRONG
    if edge_f:
        return WEAK if near_r else STRONG
    if edge_r:
        return WEAK if near_f else STRONG
    return VERY_WEAK if near_f and near_r else MEDIUM


def choose(board, me, candidates):
    """The candidate that turns the most balls, weighted by the value of its square."""

    def score(sq):
        return 2 * len(board.flips(sq[0], sq[1], me)) + level(sq[0], sq[1], board.n)

    return max(candidates, key=score)


class Bot:
    def __init__(self):
        self.board = None
        self.colour = None
        self.turn = None  # the last turn: its id, board, letter and moves
        self.tried = set()

    def on_hello(self, msg):
        options = msg.get("options", {})
        log(f"hello: seat {msg.get('seat')} of {options.get('players')}, "
            f"{options.get('size')}x{options.get('size')}, {msg.get('move_ms')} ms a move")
        send({"type": "ready", "name": NAME, "version": VERSION, "author": "rollarena starter kit"})

    def on_start(self, msg):
        self.colour = msg.get("colour")
        self.board = Board(msg["state"]["board"])
        log(f"round {msg.get('round')}: I play {self.colour}")

    def on_turn(self, msg):
        state = msg["state"]
        self.board = Board(state["board"])
        me = LETTERS[state["to_move"]]  # the colour to move is mine
        if "legal" in msg:
            moves = [parse_square(s) for s in msg["legal"]]
        else:
            moves = self.board.legal_moves(me)
        self.turn = (msg.get("turn_id"), self.board, me, moves)
        self.tried = set()
        self.answer(choose(self.board, me, moves))

    def on_illegal(self, msg):
        log(f"refused: {msg.get('reason')}")
        if self.turn is None:
            return
        _, board, me, moves = self.turn
        untried = [sq for sq in moves if sq not in self.tried] or moves
        self.answer(choose(board, me, untried))

    def answer(self, sq):
        self.tried.add(sq)
        message = {"type": "move", "move": square_name(*sq)}
        if self.turn[0] is not None:
            message["turn_id"] = self.turn[0]
        send(message)

    def on_played(self, msg):
        letter = LETTERS.get(msg.get("colour"))
        if self.board is None or letter is None:
            return
        for name in [msg["move"]] + msg.get("flipped", []):
            self.board.put(*parse_square(name), letter)

    def on_end(self, msg):
        log(f"round {msg.get('round')} over: scores {msg.get('scores')}, ranks {msg.get('ranks')}")


def main():
    bot = Bot()
    handlers = {
        "hello": bot.on_hello,
        "start": bot.on_start,
        "turn": bot.on_turn,
        "illegal": bot.on_illegal,
        "played": bot.on_played,
        "end": bot.on_end,
    }
    for line in sys.stdin:  # one whole line at a time
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "bye":
            log("bye")
            return
        handler = handlers.get(kind)
        if handler is not None:  # types this bot does not know are skipped
            handler(msg)


if __name__ == "__main__":
    main()
