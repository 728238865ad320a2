#!/usr/bin/python3
"""Answers hello with a ready that has no name."""

from common import Bot


class Broken(Bot):
    def on_hello(self, msg):
        self.send({"type": "ready", "version": "0"})


Broken().run()
