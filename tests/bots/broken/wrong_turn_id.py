#!/usr/bin/python3
"""Echoes a turn_id one past the turn it answers."""

from common import Bot


class Broken(Bot):
    def on_turn(self, msg):
        self.last = msg
        self.send({"type": "move", "move": self.choose(msg), "turn_id": msg["turn_id"] + 1})


Broken().run()
