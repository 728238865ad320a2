#!/usr/bin/python3
"""Plans every move from hello's move_ms, as if there were no time bank: it thinks for 60% of
move_ms every move, so on a bank of three moves' time its bank runs out within the round (the
mistake shows only on a bank: without one it answers at once)."""

import time

from common import Bot


class Broken(Bot):
    def on_hello(self, msg):
        self.think = 0.6 * msg["move_ms"] / 1000 if "bank_ms" in msg else 0
        super().on_hello(msg)

    def on_turn(self, msg):
        time.sleep(self.think)
        super().on_turn(msg)


Broken().run()
