#!/usr/bin/python3
"""Takes its colour from the first start only, so it is wrong from round 2 on."""

from common import Bot, LETTERS, legal_moves


class Broken(Bot):
    colour = None

    def on_start(self, msg):
        if self.colour is None:
            self.colour = msg["colour"]

    def choose(self, turn):
        return legal_moves(turn["state"]["board"], LETTERS[self.colour])[0]


Broken().run()
