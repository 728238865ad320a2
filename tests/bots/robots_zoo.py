#!/usr/bin/python3
"""robots_zoo.py: one configurable misbehaving Rock'n'Roll Robot bot for the tests of
`--game robots` (tests/robots/).

Run it with /usr/bin/python3 (standard library only; the arbiter may run bots as the
unprivileged user `nobody`, so this file must stay world-readable). It speaks protocol v1
(`ready` to `hello`, `declare` and `solution` as protocol/SPEC.md section 13 says) and does,
in every round (token), what its options say; it never finds a real solution (a test that needs
one seats `rollarena bot solver`). A reader thread queues the arbiter's lines, so the bot acts
on its own clock while it listens.

    robots_zoo.py --declare 9@50,4@150,6@250 --prove wrong --echo

Options:
  --declare LIST  declarations to send, as MOVES@MS (ms after `start` arrived), in order; a
                  later one sent before an earlier one's time waits for it.
  --pass MS       sends pass (done declaring) MS ms after `start`, in its place among the
                  declarations by time.
  --pass-twice    sends a second pass right after its pass (the arbiter must refuse it).
  --undercut      when another seat's declaration of V is announced, declare V - 1 (if that is
                  2 or more and lower than this bot's own).
  --burn MS       right after `start`, spin until this process has used MS ms of CPU time
                  (however long that takes on a loaded machine), before anything else.
  --prove HOW     the answer to `prove`: wrong (default: a one-move solution, never enough),
                  malformed ("moves" is a string), never (no answer, keeps listening), crash
                  (exits with status 3 at once).
  --crash-at MS   exits with status 3, MS ms after `start`, saying so on stderr.
  --round R       the declarations, --burn and --crash-at apply only in round R (default 0:
                  every round).
  --echo          log every message received but `hello` and `start` as JSON:
                  {"got": type, ...its fields but the state}.
  --name NAME     the name sent in `ready` (default robots-zoo).
  --tag T         ignored; lets the tests find every process of a test in /proc.
"""

import argparse
import json
import os
import queue
import sys
import threading
import time


def parse_args():
    p = argparse.ArgumentParser(description="a configurable misbehaving robots bot")
    p.add_argument("--declare", default="")
    p.add_argument("--undercut", action="store_true")
    p.add_argument("--pass", dest="pass_at", type=float, default=None)
    p.add_argument("--pass-twice", action="store_true")
    p.add_argument("--burn", type=float, default=0.0)
    p.add_argument("--prove", default="wrong", choices=["wrong", "malformed", "never", "crash"])
    p.add_argument("--crash-at", type=float, default=None)
    p.add_argument("--round", type=int, default=0)
    p.add_argument("--echo", action="store_true")
    p.add_argument("--name", default="robots-zoo")
    p.add_argument("--tag", default=None)
    return p.parse_args()


ARGS = parse_args()


def schedule():
    """(seconds after start, moves) in order; moves None is the pass."""
    out = []
    for item in filter(None, ARGS.declare.split(",")):
        moves, at = item.split("@")
        out.append((float(at) / 1000.0, int(moves)))
    if ARGS.pass_at is not None:
        at = ARGS.pass_at / 1000.0
        i = len([t for t, _ in out if t <= at])
        out.insert(i, (at, None))
    return out


def send(obj):
    sys.stdout.buffer.write((json.dumps(obj, separators=(",", ":")) + "\n").encode())
    sys.stdout.buffer.flush()


def log(obj):
    send({"type": "log", "text": json.dumps(obj, separators=(",", ":"))})


def crash(why):
    sys.stderr.write("robots_zoo: %s, exiting\n" % why)
    sys.stderr.flush()
    os._exit(3)


def reader(q):
    for raw in sys.stdin.buffer:
        try:
            q.put(json.loads(raw))
        except ValueError:
            q.put({"type": "?unreadable", "line": raw.decode("utf-8", "replace")})
    q.put(None)


class Bot:
    def __init__(self):
        self.seat = None
        self.t0 = None
        self.pending = []  # (seconds after start, moves)
        self.crash_at = None
        self.mine = None  # this round's lowest declaration

    def active(self, rnd):
        return ARGS.round == 0 or ARGS.round == rnd

    def declare(self, moves):
        # A raise is sent as the test asked: the arbiter must refuse it.
        if self.mine is None or moves < self.mine:
            self.mine = moves
        send({"type": "declare", "moves": moves})

    def on_message(self, msg):
        kind = msg.get("type")
        if ARGS.echo and kind not in ("hello", "start"):
            out = {"got": kind}
            out.update({k: v for k, v in msg.items() if k not in ("type", "state")})
            if kind == "prove":
                out["proving"] = msg.get("state", {}).get("proving")
            log(out)
        if kind == "hello":
            self.seat = msg["seat"]
            send({"type": "ready", "name": ARGS.name, "version": "1.0",
                  "author": "rollarena tests"})
        elif kind == "start":
            self.t0 = time.monotonic()
            self.mine = None
            self.pending = []
            self.crash_at = None
            if self.active(msg["round"]):
                self.pending = schedule()
                if ARGS.crash_at is not None:
                    self.crash_at = ARGS.crash_at / 1000.0
                if ARGS.burn > 0:
                    cpu0 = time.process_time()
                    x = 0
                    while time.process_time() - cpu0 < ARGS.burn / 1000.0:
                        x += 1
        elif kind == "declared":
            v = msg.get("moves")
            if (ARGS.undercut and msg.get("seat") != self.seat and isinstance(v, int)
                    and v - 1 >= 2 and (self.mine is None or v - 1 < self.mine)):
                self.declare(v - 1)
        elif kind == "prove":
            how = ARGS.prove
            if how == "crash":
                crash("asked to prove")
            elif how == "wrong":
                send({"type": "solution", "moves": [{"robot": "red", "dir": "up"}],
                      "turn_id": msg.get("turn_id")})
            elif how == "malformed":
                send({"type": "solution", "moves": "all of them", "turn_id": msg.get("turn_id")})
            # never: no answer
        elif kind == "end":
            self.pending = []
            self.crash_at = None
        elif kind == "bye":
            sys.exit(0)

    def due(self):
        """Seconds until the next timed action (None: nothing timed)."""
        times = [t for t, _ in self.pending[:1]]
        if self.crash_at is not None:
            times.append(self.crash_at)
        if not times or self.t0 is None:
            return None
        return max(0.0, min(times) - (time.monotonic() - self.t0))

    def fire(self):
        now = time.monotonic() - self.t0
        if self.crash_at is not None and now >= self.crash_at:
            crash("crash-at %d ms" % ARGS.crash_at)
        while self.pending and self.pending[0][0] <= now:
            _, moves = self.pending.pop(0)
            if moves is None:
                send({"type": "pass"})
                if ARGS.pass_twice:
                    send({"type": "pass"})
            else:
                self.declare(moves)

    def run(self):
        q = queue.Queue()
        threading.Thread(target=reader, args=(q,), daemon=True).start()
        while True:
            wait = self.due()
            try:
                msg = q.get(timeout=wait)
            except queue.Empty:
                self.fire()
                continue
            if msg is None:
                return
            self.on_message(msg)
            if self.t0 is not None:
                self.fire()


if __name__ == "__main__":
    Bot().run()
