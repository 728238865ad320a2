#!/usr/bin/python3
"""robots-lone.py: a Rock'n'Roll Robot bot that moves the token's robot alone, for the record
of tests/data/robots-analyse.jsonl (tests/solve/robots.rs).

At each `start` it finds the shortest way for the token's robot (each robot, for the vortex)
to reach the target with the other robots standing still, at least two moves of it (the
bounce rule), declares its length and passes; `prove` is answered with those moves. The
robots' movement is written here from protocol/games/robots.md ("A move"). It is often
optimal and sometimes not (moving another robot first can be shorter), which is what its
record is for. Standard library only; run it with /usr/bin/python3.
"""

import json
import sys
from collections import deque

STEP = {"up": (0, 1, "N"), "down": (0, -1, "S"), "left": (-1, 0, "W"), "right": (1, 0, "E")}
TURN = {
    "/": {"right": "up", "up": "right", "left": "down", "down": "left"},
    "\\": {"right": "down", "down": "right", "left": "up", "up": "left"},
}


def name(x, y):
    return chr(ord("a") + x) + str(y + 1)


def xy(cell):
    return ord(cell[0]) - ord("a"), int(cell[1:]) - 1


def slide(board, robots, robot, d):
    """Where `robot` stops moving `d`, or None when the move is not legal."""
    walls = board["walls"]
    diagonals = {g["cell"]: g for g in board["diagonals"]}
    others = {c for r, c in robots.items() if r != robot}
    start = robots[robot]
    cur = start
    seen = set()
    while True:
        dx, dy, side = STEP[d]
        if side in walls.get(cur, ""):
            break
        x, y = xy(cur)
        nxt = name(x + dx, y + dy)
        if nxt in others:
            break
        cur = nxt
        g = diagonals.get(cur)
        if g is not None and g["colour"] != robot:
            d = TURN[g["kind"]][d]
        if (cur, d) in seen:
            return None
        seen.add((cur, d))
    return None if cur == start else cur


def lone(state):
    """The shortest list of moves of one accepted robot alone that ends on the target."""
    board, robots, token, target = state["board"], state["robots"], state["token"], state["target"]
    accepted = list(robots) if token == "vortex" else [token.split("-")[0]]
    best = None
    for robot in accepted:
        start = (robots[robot], 0)
        back = {start: None}
        todo = deque([start])
        while todo:
            cell, k = todo.popleft()
            if cell == target and k >= 2:
                path = []
                node = (cell, k)
                while back[node] is not None:
                    node, d = back[node]
                    path.append({"robot": robot, "dir": d})
                path.reverse()
                if best is None or len(path) < len(best):
                    best = path
                break
            here = dict(robots)
            here[robot] = cell
            for d in STEP:
                to = slide(board, here, robot, d)
                if to is None:
                    continue
                node = (to, min(k + 1, 2))
                if node not in back:
                    back[node] = ((cell, k), d)
                    todo.append(node)
    return best


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


plan = None
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello":
        send({"type": "ready", "name": "lone", "version": "1.0", "author": "rollarena tests"})
    elif kind == "start":
        plan = lone(msg["state"])
        if plan:
            send({"type": "declare", "moves": len(plan)})
        send({"type": "pass"})
    elif kind == "prove":
        send({"type": "solution", "moves": plan or [], "turn_id": msg.get("turn_id")})
    elif kind == "bye":
        break
