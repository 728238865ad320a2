#!/usr/bin/env python3
"""A bot for the golden records: it plays the first legal move, except as MODE says.
timeout: never answers its 2nd turn. crash: exits at its 2nd turn. closed: closes its stdout
at its 2nd turn. retries: answers every turn and illegal with BAD. flood: sends 20 unasked
lines at its 2nd turn. long: sends a line of 2 MiB at its 2nd turn. echo / noecho: before each
legal move, BAD once, echoing turn_id (echo) or not (noecho). slow: waits BAD ms (a number)
before every legal move, so that a time bank runs out."""
import json
import os
import sys
import time

mode = sys.argv[1]
bad = sys.argv[2] if len(sys.argv) > 2 else "zz"
turns = 0
turn = None


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def legal(msg, echo):
    m = {"type": "move", "move": msg["legal"][0]}
    if echo:
        m["turn_id"] = msg["turn_id"]
    send(m)


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        send({"type": "ready", "name": "misbehave-" + mode})
    elif kind == "turn":
        turns += 1
        turn = msg
        if mode == "retries":
            send({"type": "move", "move": bad})
        elif mode in ("echo", "noecho"):
            m = {"type": "move", "move": bad}
            if mode == "echo":
                m["turn_id"] = msg["turn_id"]
            send(m)
        elif mode == "slow":
            time.sleep(int(bad) / 1000)
            legal(msg, True)
        elif turns == 2 and mode == "timeout":
            time.sleep(3600)
        elif turns == 2 and mode == "crash":
            sys.stderr.write("misbehave: crashing on purpose\n")
            sys.exit(3)
        elif turns == 2 and mode == "closed":
            os.close(1)
            time.sleep(3600)
        elif turns == 2 and mode == "flood":
            for i in range(20):
                send({"type": "move", "move": bad, "turn_id": 1})
            legal(msg, False)
        elif turns == 2 and mode == "long":
            sys.stdout.write("x" * (2 << 20) + "\n")
            sys.stdout.flush()
            time.sleep(3600)
        else:
            legal(msg, False)
    elif kind == "illegal":
        if mode == "retries":
            send({"type": "move", "move": bad})
        else:
            legal(turn, mode == "echo")
    elif kind == "bye":
        break
