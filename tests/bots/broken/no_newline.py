#!/usr/bin/python3
"""Flushes its answers but never ends them with a newline."""

import sys

from common import Bot


class Broken(Bot):
    def write(self, text):
        sys.stdout.write(text)
        sys.stdout.flush()


Broken().run()
