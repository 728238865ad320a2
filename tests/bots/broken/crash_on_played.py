#!/usr/bin/python3
"""Crashes on the first played message (it expects a field that is not there)."""

from common import Bot


class Broken(Bot):
    def on_played(self, msg):
        print("played by", msg["player"])


Broken().run()
