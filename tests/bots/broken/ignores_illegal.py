#!/usr/bin/python3
"""Never answers an illegal message."""

import sys

from common import Bot


class Broken(Bot):
    def on_illegal(self, msg):
        print("refused:", msg["reason"], file=sys.stderr, flush=True)


Broken().run()
