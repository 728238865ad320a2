#!/usr/bin/python3
"""robots_broken.py MISTAKE: the Python starter kit (copied beside this file as kit.py) playing
Rock'n'Roll Robot with exactly one mistake, for `rollarena check --game robots` to name
(tests/check/robots.rs).

Mistakes:
  declare_low        declares one move fewer than the solution it found
  wrong_solution     proves with its solution's last move left out
  no_pass            never passes
  crash_on_declared  dies when another seat's declaration is announced
  crash_on_lost      dies when another seat wins a token (a verified ok for another seat)
  silent_on_prove    never answers prove
  move_instead       answers start with a Rolit-style move
  early_solution     sends its solution right after declaring, unasked
  pass_solo          passes after declaring when it plays alone (the solo rule forbids it)
"""

import sys

import kit

MISTAKE = sys.argv[1]


class Broken(kit.RobotsPlayer):
    def on_start(self, msg):
        if MISTAKE == "move_instead":
            kit.send({"type": "move", "move": "a1"})
            return
        state = msg["state"]
        board = kit.RobotsBoard(state["board"])
        robots = {r: kit.cell_xy(c) for r, c in state["robots"].items()}
        deadline = kit.time.monotonic() + 3
        self.solution = kit.solve_robots(board, robots, state["token"], state["target"], deadline)
        if self.solution is None:
            kit.send({"type": "pass"})
            return
        n = len(self.solution)
        kit.send({"type": "declare", "moves": n - 1 if MISTAKE == "declare_low" else n})
        if MISTAKE == "early_solution":
            kit.send({"type": "solution", "moves": self.solution})
        # As the kit: no pass after a declaration when alone (it is verified at once).
        if MISTAKE != "no_pass" and (not self.solo or MISTAKE == "pass_solo"):
            kit.send({"type": "pass"})

    def on_prove(self, msg):
        if MISTAKE == "silent_on_prove":
            return
        moves = self.solution or []
        if MISTAKE == "wrong_solution":
            moves = moves[:-1]
        kit.send({"type": "solution", "moves": moves, "turn_id": msg.get("turn_id")})

    def on_declared(self, msg):
        if MISTAKE == "crash_on_declared" and msg.get("seat") != 0:
            raise RuntimeError("did not expect another seat to declare")

    def on_verified(self, msg):
        if MISTAKE == "crash_on_lost" and msg.get("seat") != 0 and msg.get("ok"):
            raise RuntimeError("did not expect to lose a token")


def main():
    handlers = {}
    for line in sys.stdin:
        msg = kit.json.loads(line)
        kind = msg.get("type")
        if kind == "bye":
            return
        if kind == "hello":
            bot = Broken(msg.get("options") or {})
            handlers = {"start": bot.on_start, "prove": bot.on_prove,
                        "declared": bot.on_declared, "verified": bot.on_verified}
            kit.send({"type": "ready", "name": "robots-broken-" + MISTAKE, "version": "0"})
            continue
        handler = handlers.get(kind)
        if handler is not None:
            handler(msg)


if __name__ == "__main__":
    main()
