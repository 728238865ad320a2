#!/usr/bin/python3
"""Reads bye and goes on waiting for more."""

import sys

from common import Bot


class Broken(Bot):
    def on_bye(self, msg):
        print("bye? I stay", file=sys.stderr, flush=True)


Broken().run()
