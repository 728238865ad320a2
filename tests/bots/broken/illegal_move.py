#!/usr/bin/python3
"""Always plays the corner a1, whatever the rules say."""

from common import Bot


class Broken(Bot):
    def choose(self, turn):
        return "a1"


Broken().run()
