#!/usr/bin/python3
"""Ignores its colour and the legal list: always computes red's moves."""

from common import Bot, legal_moves


class Broken(Bot):
    def choose(self, turn):
        return legal_moves(turn["state"]["board"], "R")[0]


Broken().run()
