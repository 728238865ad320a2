#!/usr/bin/python3
"""Takes two seconds to answer hello."""

import time

from common import Bot


class Broken(Bot):
    def on_hello(self, msg):
        time.sleep(2)
        super().on_hello(msg)


Broken().run()
