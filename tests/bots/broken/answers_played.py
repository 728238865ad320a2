#!/usr/bin/python3
"""Answers every played message with a move."""

from common import Bot


class Broken(Bot):
    def on_played(self, msg):
        self.send({"type": "move", "move": msg["move"]})


Broken().run()
