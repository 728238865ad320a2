#!/usr/bin/python3
"""Writes its answers without flushing: they stay in its own output buffer.

stdout is reopened as an ordinary buffered file so that the mistake shows even where
PYTHONUNBUFFERED is set (as on some CI machines; a contest's sandbox clears the environment).
"""

import os

from common import Bot

OUT = os.fdopen(1, "w", buffering=8192, closefd=False)


class Broken(Bot):
    def write(self, text):
        OUT.write(text + "\n")


Broken().run()
