#!/usr/bin/env python3
"""A bot that gets refused, for the verifier's agreement tests. `always MOVE`: it answers every
`turn` and every `illegal` with MOVE (a move that is never legal), so it forfeits for retries.
`echo MOVE`: it answers each `turn` first with MOVE echoing the turn's `turn_id`, then, once
told `illegal`, with the first legal move, echoing the `turn_id` again."""
import json
import sys

mode, bad = sys.argv[1], sys.argv[2]
turn = None


def send(obj):
    print(json.dumps(obj), flush=True)


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        send({"type": "ready", "name": "refuser-" + mode})
    elif kind == "turn":
        turn = msg
        if mode == "always":
            send({"type": "move", "move": bad})
        else:
            send({"type": "move", "move": bad, "turn_id": msg["turn_id"]})
    elif kind == "illegal":
        if mode == "always":
            send({"type": "move", "move": bad})
        else:
            send({"type": "move", "move": turn["legal"][0], "turn_id": turn["turn_id"]})
    elif kind == "bye":
        break
