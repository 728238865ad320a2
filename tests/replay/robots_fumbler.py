#!/usr/bin/env python3
"""A clumsy Rock'n'Roll Robot bot for the replay tests: at each token it declares 2 moves at
once (so it is asked to prove first) and then fails its demonstration, in turn: moves that do
not reach the target, moves that cannot be read, and no answer at all (the time to prove runs
out). It also writes a log message and a stderr line with markup in them."""
import json
import sys

tokens = 0


def send(obj):
    print(json.dumps(obj), flush=True)


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        send({"type": "ready", "name": "fumbler <b>", "version": "1"})
    elif kind == "start":
        tokens += 1
        send({"type": "declare", "moves": 2})
        send({"type": "log", "text": "token %d <script>alert(3)</script>" % tokens})
        sys.stderr.write("token %d </pre><img src=x onerror=alert(4)>\n" % tokens)
        sys.stderr.flush()
    elif kind == "prove":
        which = tokens % 3
        robot = sorted(msg["state"]["robots"])[0]
        if which == 1:
            moves = [{"robot": robot, "dir": d} for d in ("up", "left")]
            send({"type": "solution", "moves": moves, "turn_id": msg["turn_id"]})
        elif which == 2:
            send({"type": "solution", "moves": "<img src=x onerror=alert(5)>", "turn_id": msg["turn_id"]})
        # which == 0: no answer; the time to prove runs out.
    elif kind == "bye":
        break
