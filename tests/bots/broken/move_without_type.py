#!/usr/bin/python3
"""Answers every turn with a move object that has no "type" field."""

from common import Bot


class Broken(Bot):
    def on_turn(self, msg):
        self.last = msg
        self.send({"move": self.choose(msg), "turn_id": msg["turn_id"]})


Broken().run()
