#!/usr/bin/python3
"""Prints a debug line on stdout before every move."""

from common import Bot


class Broken(Bot):
    def on_turn(self, msg):
        print("thinking about", len(msg.get("legal", [])), "moves", flush=True)
        super().on_turn(msg)


Broken().run()
