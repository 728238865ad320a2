#!/usr/bin/python3
"""Takes two seconds for every move."""

import time

from common import Bot


class Broken(Bot):
    def on_turn(self, msg):
        time.sleep(2)
        super().on_turn(msg)


Broken().run()
