"""A correct, minimal Rolit bot with one method per message, for the broken bots to spoil.

Each broken bot in this directory subclasses `Bot` and gets exactly one thing wrong, so that
`rollarena check` can be shown to name that mistake (tests/check/).
"""

import json
import sys

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
LETTERS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}


def legal_moves(rows, letter):
    """The legal moves for the colour `letter` on `rows` (highest rank first)."""
    n = len(rows)

    def at(f, r):
        return rows[n - 1 - r][f] if 0 <= f < n and 0 <= r < n else None

    def flips(f, r):
        count = 0
        for df, dr in DIRECTIONS:
            run, x, y = 0, f + df, r + dr
            while at(x, y) not in (None, ".", letter):
                run, x, y = run + 1, x + df, y + dr
            if run and at(x, y) == letter:
                count += run
        return count

    touching = [
        (f, r)
        for r in range(n)
        for f in range(n)
        if at(f, r) == "." and any(at(f + df, r + dr) not in (None, ".") for df, dr in DIRECTIONS)
    ]
    captures = [sq for sq in touching if flips(*sq)]
    return ["abcdefgh"[f] + str(r + 1) for f, r in (captures or touching)]


class Bot:
    name = "broken"

    def write(self, text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def send(self, message):
        self.write(json.dumps(message))

    def choose(self, turn):
        if "legal" in turn:
            return turn["legal"][0]
        state = turn["state"]
        return legal_moves(state["board"], LETTERS[state["to_move"]])[0]

    def on_hello(self, msg):
        self.send({"type": "ready", "name": self.name, "version": "0"})

    def on_start(self, msg):
        pass

    def on_turn(self, msg):
        self.last = msg
        self.send({"type": "move", "move": self.choose(msg), "turn_id": msg["turn_id"]})

    def on_illegal(self, msg):
        self.send({"type": "move", "move": self.choose(self.last), "turn_id": msg["turn_id"]})

    def on_played(self, msg):
        pass

    def on_end(self, msg):
        pass

    def on_bye(self, msg):
        sys.exit(0)

    def run(self):
        for line in sys.stdin:
            msg = json.loads(line)
            handler = getattr(self, "on_" + msg["type"], None)
            if handler is not None:
                handler(msg)
