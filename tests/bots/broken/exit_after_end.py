#!/usr/bin/python3
"""Exits when a round ends, as if a match had one round."""

import sys

from common import Bot


class Broken(Bot):
    def on_end(self, msg):
        sys.exit(0)


Broken().run()
