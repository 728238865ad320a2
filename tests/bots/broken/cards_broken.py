#!/usr/bin/python3
"""cards_broken.py MISTAKE: a bot for the games played from `turn.legal` (Goofspiel,
Rollerball) that answers every turn with the first legal move, with exactly one mistake, for
`rollarena check --game goofspiel` and `--game rollerball` to name (tests/check/cards.rs).

Mistakes:
  not_from_legal    answers the first turn with a move that is not in legal
  answers_played    answers every played message with a move, as if it were a turn
  sealed_crash      dies on the played message of another seat's sealed bid
  last_card         dies when a turn leaves it a single legal move (the last card)
  slow_bid          thinks 2.5 s over its first turn
  no_exit           ignores bye and keeps running
  out_of_turn       dies on a request made while another seat is the acting player
  empty_hand        dies when another player's hand is empty
"""

import json
import sys
import time

MISTAKE = sys.argv[1]


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def main():
    turns = 0
    last = None
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            send({"type": "ready", "name": "cards-broken-" + MISTAKE, "version": "0"})
        elif kind in ("turn", "illegal"):
            if kind == "turn":
                turns += 1
                last = msg
            state = last["state"]
            legal = last.get("legal") or []
            if MISTAKE == "last_card" and len(legal) == 1:
                raise RuntimeError("expected a choice of moves, got one")
            acting = state.get("acting")
            if MISTAKE == "out_of_turn" and acting is not None and acting != state.get("seat"):
                raise RuntimeError("asked while seat %s is acting" % acting)
            if MISTAKE == "slow_bid" and turns == 1:
                time.sleep(2.5)
            move = legal[0]
            if MISTAKE == "not_from_legal" and turns == 1:
                move = "99 cards"
            send({"type": "move", "move": move, "turn_id": last.get("turn_id")})
        elif kind == "played":
            if MISTAKE == "sealed_crash" and "sealed" in str(msg.get("move")):
                raise RuntimeError("cannot read the bid %r" % msg.get("move"))
            if MISTAKE == "answers_played" and last is not None:
                send({"type": "move", "move": (last.get("legal") or ["1"])[0]})
            if MISTAKE == "empty_hand":
                hands = [p.get("hand") for p in (last or {}).get("state", {}).get("players", [])]
                if 0 in hands:
                    raise ZeroDivisionError("average card per hand: a hand is empty")
        elif kind == "bye":
            if MISTAKE == "no_exit":
                time.sleep(60)
            return


if __name__ == "__main__":
    main()
