#!/usr/bin/env python3
"""A clumsy Rolit bot for the replay tests: before each legal move it sends one refused
attempt (a line that is not JSON, an occupied square, a message of an unknown type, in turn),
writes a log message and a stderr line with markup in them, and with --quit-at N exits at its
Nth turn, so the arbiter forfeits it and plays its remaining moves."""
import json
import sys

quit_at = int(sys.argv[sys.argv.index("--quit-at") + 1]) if "--quit-at" in sys.argv else None
turns = 0
legal = []


def send(obj):
    print(json.dumps(obj), flush=True)


def occupied(board):
    n = len(board)
    for i, row in enumerate(board):
        for f, ch in enumerate(row):
            if ch != ".":
                return "abcdefgh"[f] + str(n - i)
    return "a1"


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        send({"type": "ready", "name": "fumbler <b>", "version": "1"})
    elif kind == "turn":
        turns += 1
        if quit_at is not None and turns >= quit_at:
            sys.stderr.write("giving up </pre><script>alert(4)</script>\n")
            sys.exit(3)
        legal = msg["legal"]
        send({"type": "log", "text": "turn %d <script>alert(3)</script>" % turns})
        sys.stderr.write("thinking about turn %d\n" % turns)
        sys.stderr.flush()
        which = turns % 3
        if which == 0:
            print("this is not json", flush=True)
        elif which == 1:
            send({"type": "move", "move": occupied(msg["state"]["board"])})
        else:
            send({"type": "dance"})
    elif kind == "illegal":
        send({"type": "move", "move": legal[0]})
    elif kind == "bye":
        break
