#!/usr/bin/python3
"""zoo.py: one configurable misbehaving Rolit bot for the arbiter's integration tests.

Run it with /usr/bin/python3 (standard library only; the arbiter may run bots as the
unprivileged user `nobody`, so this file must stay world-readable and must not need anything
under /root). It speaks protocol v1 correctly -- `ready` to `hello`, a legal move to `turn`
and to `illegal` -- except for ONE behaviour chosen on the command line:

    zoo.py --behaviour illegal-once --at 3 --round 1

Triggers:
  --at N      the behaviour fires on the N-th `turn` of a round (default 1); `slow` delays
              every turn from the N-th on; `no-capture` fires on the first turn from the N-th
              on where a non-capturing square exists.
  --round R   only in round R (default 0: every round). For the start-up behaviours
              (exit-at-once, crash-before-ready, hang-before-ready) R counts process starts
              instead, kept in a counter file under --dir (required with --round there).

Behaviours (ply-free names, as the tests use them):
  good                plays the first legal move.
  exit-at-once        exits at once (status --code, default 0) before reading anything.
  crash-before-ready  reads hello, writes to stderr, exits with status --code (default 3).
  hang-before-ready   reads hello and sleeps forever.
  crash-mid           writes to stderr and exits with status --code (default 3) on turn N.
  signal-mid          kills itself with --signal (SEGV or KILL, default SEGV) on turn N.
  exit0-mid           exits with status 0 on turn N.
  hang-mid            sleeps forever on turn N (after writing the marker DIR/hang-<seat>).
  slow                sleeps --delay seconds (default 0.5) before every answer from turn N.
  garbage             sends a line that is not JSON, then (after `illegal`) a legal move.
  not-object          sends a JSON array, then a legal move.
  number-move         sends {"type":"move","move":42}, then a legal move.
  empty-line          sends an empty line, then a legal move.
  bad-utf8            sends a line with invalid UTF-8, then a legal move.
  unknown-type        sends {"type":"dance"}, then a legal move.
  occupied            plays an occupied square, then a legal move.
  off-board           plays a square off the board, then a legal move.
  no-capture          plays an empty square touching a ball that captures nothing while a
                      capture exists, then a legal move.
  illegal-once        one illegal (occupied) attempt, then a legal move.
  always-illegal      every attempt illegal (occupied square): the retries run out.
  twice               answers turn N twice (both lines in one write).
  early               sends a move before being asked: with --when ready (default) in the
                      same write as `ready`; with --when start right after `start` when
                      another seat moves first.
  late-turn-id        answers turn N first with an occupied square naming the previous
                      turn_id (ignored if the arbiter reads turn ids, refused if not), then
                      with a legal move naming the right one.
  ready-again         sends `ready` again before answering turn N.
  close-stdout        closes its stdout on turn N and keeps running.
  long-line           writes --length bytes (default 100000) without a newline on turn N,
                      then sleeps forever.
  flood-stdout        sends --count (default 50) unasked lines (moves naming turn_id 0)
                      before answering turn N.
  log                 sends --count (default 3) log messages on turn N, then one of 3000
                      characters, then answers.
  log-flood           sends 40 log messages of 2000 characters (80 kB) on turn N.
  burn-between-turns  a background thread spins the CPU for the whole match; every turn logs
                      {"burn": {"cpu_ms": .., "wall_ms": ..}}, the CPU and wall time used
                      between its previous answer and this turn.
  stderr              writes --count bytes (default 10000) to stderr on turn N, then the line
                      "zoo-stderr-end".
  fork-child          on turn N forks a child that keeps stdout open and sleeps forever, then
                      plays on.
  fork-crash          on turn N forks such a child, then exits with status --code (default 3).
  exit-on-end         exits with status --code (default 0) when it reads `end`.
  setsid-child        on turn N forks a child that leaves the process group (setsid) and
                      sleeps forever, then plays on: only a PID namespace or a cgroup can
                      reach it.
  no-read             answers hello with ready, then never reads its stdin again and sleeps:
                      it never sees a `turn` (the arbiter must not block writing to it).
  huge-line           writes --length bytes (default 100 MiB) in 1 MiB chunks with no newline
                      on turn N, then sleeps forever (blocked on the pipe once the arbiter
                      stops reading).
  stderr-flood        writes --count bytes (default 300 MiB) to stderr in 1 MiB chunks on
                      turn N, then the line "zoo-stderr-end", logs {"stderr_flood": {"bytes":
                      .., "ms": ..}}, then answers and plays on.
  fork-bomb           on turn N forks children until fork fails (or --count children, default
                      128, a safety net if no limit held); every child keeps trying to fork a
                      grandchild every 10 ms until it has one. Logs {"fork_bomb": {"forked":
                      .., "failed": .., "error": ..}}, then answers and plays on (its children
                      are frozen with it between turns).
  memory-hog          on turn N allocates and fills 16 MiB blocks without end; the safety net
                      --cap-mb (default 1024) stops it there, logs, and sleeps (a timeout,
                      not the crash a working memory limit gives).
  write-outside       on turn N tries to write DIR/zoo-outside-<seat> (DIR from --outside,
                      default /tmp) and zoo-scratch-<seat> in its working directory, logs
                      {"write": {"outside": {..}, "scratch": {..}}} ("ok" or the error of
                      each), then plays on.
  network             on turn N tries to connect to 127.0.0.1:--port (2 s timeout) and send
                      "zoo-network <tag>", logs {"network": {"ok": .., "error": ..}}, then
                      plays on.
  disk-bomb           on turn N makes a directory tree --count levels deep (default 100000)
                      in its working directory and one of --length levels (default 20000) in
                      /tmp, each by mkdir+chdir until done or refused; fills /tmp with one
                      file, 1 MiB at a time, until a write fails (the safety net --cap-mb
                      stops it), then removes that file; lists /sys/fs/cgroup recursively
                      and writes every name found to stderr; logs {"disk": {"scratch":
                      {"levels", "error"}, "tmp": {..}, "fill": {"bytes", "error"},
                      "cgroups": [up to 20 names]}}, then answers and plays on, leaving its
                      trees behind.

Other options:
  --log-messages  log every message received as JSON: {"got": type, ...some fields}.
  --pause S       sleep S seconds before every answer to `illegal` (to see time_ms fall).
  --dir DIR       marker files: DIR/bye-<seat> written on `bye`; DIR/starts-<behaviour> counts
                  process starts.
  --tag T         ignored; lets the tests find every process of a test in /proc.
  --name NAME     the name sent in `ready` (default zoo-<behaviour>).
  --outside DIR   write-outside: the directory outside the scratch directory to write in.
  --port P        network: the TCP port on 127.0.0.1 to connect to.
  --cap-mb M      memory-hog: stop (and hang) after M MiB, should no limit stop it first.
"""

import argparse
import json
import os
import resource
import signal
import socket
import sys
import threading
import time

BEHAVIOURS = [
    "good", "exit-at-once", "crash-before-ready", "hang-before-ready", "crash-mid",
    "signal-mid", "exit0-mid", "hang-mid", "slow", "garbage", "not-object", "number-move",
    "empty-line", "bad-utf8", "unknown-type", "occupied", "off-board", "no-capture",
    "illegal-once", "always-illegal", "twice", "early", "late-turn-id", "ready-again",
    "close-stdout", "long-line", "flood-stdout", "log", "log-flood", "burn-between-turns",
    "stderr", "fork-child", "fork-crash", "setsid-child", "exit-on-end", "no-read",
    "huge-line", "stderr-flood", "fork-bomb", "memory-hog", "write-outside", "network",
    "disk-bomb",
]
STARTUP = {"exit-at-once", "crash-before-ready", "hang-before-ready"}
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def parse_args():
    p = argparse.ArgumentParser(description="a configurable misbehaving Rolit bot")
    p.add_argument("--behaviour", "--behavior", "-b", default="good", choices=BEHAVIOURS)
    p.add_argument("--at", type=int, default=1)
    p.add_argument("--round", type=int, default=0)
    p.add_argument("--code", type=int, default=None)
    p.add_argument("--signal", default="SEGV", choices=["SEGV", "KILL"])
    p.add_argument("--delay", type=float, default=0.5)
    p.add_argument("--pause", type=float, default=0.0)
    p.add_argument("--length", type=int, default=None)
    p.add_argument("--count", type=int, default=None)
    p.add_argument("--when", default="ready", choices=["ready", "start"])
    p.add_argument("--dir", default=None)
    p.add_argument("--tag", default=None)
    p.add_argument("--name", default=None)
    p.add_argument("--log-messages", action="store_true")
    p.add_argument("--outside", default="/tmp")
    p.add_argument("--port", type=int, default=None)
    p.add_argument("--cap-mb", type=int, default=1024)
    return p.parse_args()


ARGS = parse_args()
if ARGS.dir is not None:
    # Every process of a seat runs under a uid of its own (a restarted bot gets another):
    # the marker and counter files must stay writable by the next one.
    os.umask(0)


def send_raw(data):
    """Writes bytes to stdout at once (one write for a batch of lines) and flushes."""
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def line(obj):
    return (json.dumps(obj, separators=(",", ":")) + "\n").encode()


def send(obj):
    send_raw(line(obj))


def log(text):
    send({"type": "log", "text": text})


def sleep_forever():
    while True:
        time.sleep(3600)


def stderr(text):
    sys.stderr.write(text)
    sys.stderr.flush()


# ---- Rolit, just enough to find squares ---------------------------------------------------


class Board:
    def __init__(self, state):
        rows = state["board"]
        self.n = len(rows)
        # grid[file][rank], ranks from 0 (rank 1) up; rows come highest rank first.
        self.grid = [[rows[self.n - 1 - r][f] for r in range(self.n)] for f in range(self.n)]
        self.me = state["to_move"][0].upper()

    def name(self, f, r):
        return chr(ord("a") + f) + str(r + 1)

    def inside(self, f, r):
        return 0 <= f < self.n and 0 <= r < self.n

    def squares(self):
        return [(f, r) for r in range(self.n) for f in range(self.n)]

    def empty(self, f, r):
        return self.grid[f][r] == "."

    def touching(self, f, r):
        return any(
            self.inside(f + df, r + dr) and not self.empty(f + df, r + dr) for df, dr in DIRS
        )

    def captures(self, f, r):
        for df, dr in DIRS:
            x, y, run = f + df, r + dr, 0
            while self.inside(x, y) and self.grid[x][y] not in (".", self.me):
                x, y, run = x + df, y + dr, run + 1
            if run and self.inside(x, y) and self.grid[x][y] == self.me:
                return True
        return False

    def candidates(self):
        return [(f, r) for f, r in self.squares() if self.empty(f, r) and self.touching(f, r)]

    def legal(self):
        cand = self.candidates()
        caps = [s for s in cand if self.captures(*s)]
        return [self.name(*s) for s in (caps or cand)]

    def occupied(self):
        return next(self.name(f, r) for f, r in self.squares() if not self.empty(f, r))

    def off_board(self):
        return chr(ord("a") + self.n) + "1"

    def non_capturing(self, legal):
        """An empty square touching a ball that is not legal (a capture exists), or None."""
        for f, r in self.candidates():
            if self.name(f, r) not in legal:
                return self.name(f, r)
        return None


# ---- the bot ------------------------------------------------------------------------------


class Zoo:
    def __init__(self):
        self.b = ARGS.behaviour
        self.seat = None
        self.round = 0
        self.turn_no = 0  # turns received in this round
        self.turn_id = None
        self.legal = []
        self.board = None
        self.first = None
        self.done = False  # the one-shot behaviour has fired
        self.pending_no_capture = False
        self.last_answer = None  # (cpu, wall) right after the last answer
        self.mismatches = 0

    # -- helpers --

    def active_round(self):
        return ARGS.round == 0 or ARGS.round == self.round

    def fires(self):
        """The one-shot behaviour fires on this turn."""
        return self.active_round() and self.turn_no == ARGS.at

    def answer(self, mv=None, extra=b""):
        mv = mv if mv is not None else self.legal[0]
        send_raw(extra + line({"type": "move", "move": mv, "turn_id": self.turn_id}))
        self.last_answer = (time.process_time(), time.monotonic())

    def got(self, msg):
        if not ARGS.log_messages:
            return
        kind = msg.get("type")
        keep = {
            "hello": ["protocol", "game", "options", "seat", "seats", "rounds", "startup_ms",
                      "move_ms"],
            "start": ["round", "colour", "colours", "first", "seed"],
            "turn": ["turn_id", "time_ms"],
            "illegal": ["turn_id", "reason", "retries_left", "time_ms"],
            "played": ["seat", "colour", "move", "flipped", "by_arbiter"],
            "end": ["round", "scores", "points", "ranks", "winners", "forfeits"],
            "bye": ["standings"],
        }.get(kind, [])
        out = {"got": kind}
        for k in keep:
            if k in msg:
                out[k] = msg[k]
        if kind == "turn":
            out["has_legal"] = "legal" in msg
            out["has_state"] = "state" in msg
        log(json.dumps(out, separators=(",", ":")))

    # -- messages --

    def on_hello(self, msg):
        self.seat = msg["seat"]
        if self.b == "crash-before-ready" and self.startup_fires():
            stderr("zoo: crash-before-ready, exiting\n")
            sys.exit(3 if ARGS.code is None else ARGS.code)
        if self.b == "hang-before-ready" and self.startup_fires():
            stderr("zoo: hang-before-ready, sleeping\n")
            sleep_forever()
        if self.b == "burn-between-turns":
            threading.Thread(target=burn, daemon=True).start()
        ready = line({
            "type": "ready",
            "name": ARGS.name or "zoo-" + self.b,
            "version": "1.0",
            "author": "rollarena tests",
        })
        if self.b == "early" and ARGS.when == "ready":
            ready += line({"type": "move", "move": "a1"})
        send_raw(ready)
        if self.b == "no-read":
            # Never reads its stdin again: whatever the arbiter writes stays in the pipe.
            sleep_forever()

    def startup_fires(self):
        if ARGS.round == 0:
            return True
        return starts() == ARGS.round

    def on_start(self, msg):
        self.round = msg["round"]
        self.turn_no = 0
        self.first = msg.get("first")
        self.pending_no_capture = False
        if (self.b == "early" and ARGS.when == "start" and self.active_round()
                and self.first != self.seat):
            board = Board(msg["state"])
            send({"type": "move", "move": board.name(*board.candidates()[0])})

    def on_turn(self, msg):
        self.turn_no += 1
        self.turn_id = msg["turn_id"]
        self.board = Board(msg["state"])
        mine = self.board.legal()
        if "legal" in msg:
            self.legal = list(msg["legal"])
            if sorted(mine) != sorted(self.legal):
                self.mismatches += 1
                log("MISMATCH legal: arbiter %s, zoo %s" % (self.legal, mine))
        else:
            self.legal = mine
        b = self.b
        if b == "burn-between-turns" and self.last_answer is not None:
            cpu, wall = self.last_answer
            log(json.dumps({"burn": {
                "cpu_ms": round((time.process_time() - cpu) * 1000, 3),
                "wall_ms": round((time.monotonic() - wall) * 1000, 3),
            }}))
        if b == "slow" and self.active_round() and self.turn_no >= ARGS.at:
            time.sleep(ARGS.delay)
            return self.answer()
        if b == "no-capture" and self.active_round() and self.turn_no >= ARGS.at and not self.done:
            sq = self.board.non_capturing(self.legal)
            if sq is not None:
                self.done = True
                return send({"type": "move", "move": sq, "turn_id": self.turn_id})
            return self.answer()
        if b == "always-illegal" and self.active_round() and self.turn_no >= ARGS.at:
            return send({"type": "move", "move": self.board.occupied()})
        if not self.fires():
            return self.answer()
        # The one-shot behaviours, on turn N of an active round.
        if b == "crash-mid":
            stderr("zoo: crash-mid on turn %d\n" % self.turn_no)
            sys.exit(3 if ARGS.code is None else ARGS.code)
        if b == "exit0-mid":
            stderr("zoo: exit0-mid on turn %d\n" % self.turn_no)
            sys.exit(0)
        if b == "signal-mid":
            stderr("zoo: signal-mid on turn %d\n" % self.turn_no)
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            sig = signal.SIGSEGV if ARGS.signal == "SEGV" else signal.SIGKILL
            signal.signal(signal.SIGSEGV, signal.SIG_DFL)
            os.kill(os.getpid(), sig)
            sleep_forever()
        if b == "hang-mid":
            marker("hang-%s" % self.seat)
            sleep_forever()
        if b == "garbage":
            return send_raw(b"this is not json {\n")
        if b == "not-object":
            return send_raw(b'[1, 2, "d3"]\n')
        if b == "number-move":
            return send({"type": "move", "move": 42})
        if b == "empty-line":
            return send_raw(b"\n")
        if b == "bad-utf8":
            return send_raw(b'{"type":"move","move":"\xff\xfe"}\n')
        if b == "unknown-type":
            return send({"type": "dance", "steps": 3})
        if b in ("occupied", "illegal-once"):
            return send({"type": "move", "move": self.board.occupied()})
        if b == "off-board":
            return send({"type": "move", "move": self.board.off_board()})
        if b == "twice":
            twice = line({"type": "move", "move": self.legal[0]})
            return self.answer(extra=twice)
        if b == "late-turn-id":
            stale = line({
                "type": "move", "move": self.board.occupied(), "turn_id": self.turn_id - 1,
            })
            return self.answer(extra=stale)
        if b == "ready-again":
            return self.answer(extra=line({"type": "ready", "name": "again"}))
        if b == "close-stdout":
            sys.stdout.flush()
            os.close(1)
            sleep_forever()
        if b == "long-line":
            send_raw(b"x" * (100000 if ARGS.length is None else ARGS.length))
            sleep_forever()
        if b == "huge-line":
            huge_line(100 << 20 if ARGS.length is None else ARGS.length)
            sleep_forever()
        if b == "stderr-flood":
            n = 300 << 20 if ARGS.count is None else ARGS.count
            started = time.monotonic()
            stderr_flood(n)
            log(json.dumps({"stderr_flood": {
                "bytes": n, "ms": round((time.monotonic() - started) * 1000),
            }}))
            return self.answer()
        if b == "fork-bomb":
            log(json.dumps({"fork_bomb": fork_bomb(128 if ARGS.count is None else ARGS.count)}))
            return self.answer()
        if b == "memory-hog":
            memory_hog(ARGS.cap_mb)
            sleep_forever()
        if b == "write-outside":
            outside = os.path.join(ARGS.outside, "zoo-outside-%s" % self.seat)
            scratch = os.path.join(os.getcwd(), "zoo-scratch-%s" % self.seat)
            log(json.dumps({"write": {
                "outside": try_write(outside), "scratch": try_write(scratch),
                "cwd": os.getcwd(), "scratch_env": os.environ.get("ROLLARENA_SCRATCH"),
            }}))
            return self.answer()
        if b == "disk-bomb":
            report = {
                "scratch": deep_tree(os.getcwd(), ARGS.count or 100000),
                "tmp": deep_tree("/tmp", ARGS.length or 20000),
                "fill": fill("/tmp/zoo-fill", ARGS.cap_mb),
                "cgroups": list_cgroups()[:20],
            }
            log(json.dumps({"disk": report}))
            return self.answer()
        if b == "network":
            log(json.dumps({"network": try_connect(ARGS.port)}))
            return self.answer()
        if b == "flood-stdout":
            n = 50 if ARGS.count is None else ARGS.count
            flood = line({"type": "move", "move": "a1", "turn_id": 0}) * n
            return self.answer(extra=flood)
        if b == "log":
            n = 3 if ARGS.count is None else ARGS.count
            for i in range(n):
                log("zoo log %d of turn %d round %d" % (i + 1, self.turn_no, self.round))
            log("L" * 3000)
            return self.answer()
        if b == "log-flood":
            for _ in range(40):
                log("F" * 2000)
            return self.answer()
        if b == "stderr":
            n = 10000 if ARGS.count is None else ARGS.count
            stderr(("e" * 99 + "\n") * (n // 100) + "zoo-stderr-end\n")
            return self.answer()
        if b in ("fork-child", "fork-crash", "setsid-child"):
            if os.fork() == 0:
                # The child keeps stdout (and every pipe) open and sleeps.
                if b == "setsid-child":
                    os.setsid()
                sleep_forever()
            if b == "fork-crash":
                stderr("zoo: fork-crash, parent exiting\n")
                os._exit(3 if ARGS.code is None else ARGS.code)
            return self.answer()
        return self.answer()

    def on_illegal(self, msg):
        if ARGS.pause:
            time.sleep(ARGS.pause)
        if self.b == "always-illegal" and self.active_round() and self.turn_no >= ARGS.at:
            return send({"type": "move", "move": self.board.occupied()})
        return self.answer()

    def on_end(self, msg):
        if self.b == "exit-on-end" and self.active_round():
            stderr("zoo: exit-on-end after round %d\n" % self.round)
            sys.exit(0 if ARGS.code is None else ARGS.code)

    def on_bye(self, msg):
        if ARGS.dir is not None:
            path = os.path.join(ARGS.dir, "bye-%s" % self.seat)
            with open(path, "w") as f:
                json.dump(msg, f)
        sys.exit(0)

    def run(self):
        handlers = {
            "hello": self.on_hello,
            "start": self.on_start,
            "turn": self.on_turn,
            "illegal": self.on_illegal,
            "end": self.on_end,
            "bye": self.on_bye,
        }
        while True:
            raw = sys.stdin.buffer.readline()
            if not raw:
                return
            msg = json.loads(raw)
            self.got(msg)
            handler = handlers.get(msg.get("type"))
            if handler is not None:
                handler(msg)


def marker(name):
    """Writes an empty marker file DIR/name, when --dir was given."""
    if ARGS.dir is not None:
        with open(os.path.join(ARGS.dir, name), "w"):
            pass


def huge_line(length):
    """Writes `length` bytes with no newline, 1 MiB at a time (never all in memory)."""
    chunk = b"x" * (1 << 20)
    left = length
    while left > 0:
        send_raw(chunk[:min(left, len(chunk))])
        left -= len(chunk)


def stderr_flood(length):
    """Writes `length` bytes of lines to stderr, 1 MiB at a time, then "zoo-stderr-end"."""
    chunk = ("e" * 1023 + "\n").encode() * 1024
    left = length
    while left > 0:
        sys.stderr.buffer.write(chunk[:min(left, len(chunk))])
        left -= len(chunk)
    sys.stderr.buffer.write(b"zoo-stderr-end\n")
    sys.stderr.buffer.flush()


def fork_bomb(cap):
    """Forks children until fork fails (or `cap` children, a safety net); every child keeps
    trying to fork one grandchild every 10 ms until it succeeds, and then sleeps. Returns what
    the parent saw."""
    forked, failed, error = 0, 0, None
    while forked < cap:
        try:
            pid = os.fork()
        except OSError as e:
            failed += 1
            error = "%s: %s" % (type(e).__name__, e)
            break
        if pid == 0:
            while True:
                try:
                    if os.fork() == 0:
                        sleep_forever()
                    sleep_forever()
                except OSError:
                    time.sleep(0.01)
        forked += 1
    return {"forked": forked, "failed": failed, "error": error}


def memory_hog(cap_mb):
    """Allocates and fills 16 MiB blocks until killed, or until `cap_mb` MiB (a safety net)."""
    blocks = []
    while len(blocks) * 16 < cap_mb:
        blocks.append(b"\xa5" * (16 << 20))
    log("memory-hog: %d MiB allocated and nothing stopped it" % (len(blocks) * 16))
    return blocks


def try_write(path):
    """Writes a small file at `path`; returns {"path", "ok", "error"}."""
    try:
        with open(path, "w") as f:
            f.write("written by zoo write-outside\n")
        return {"path": path, "ok": True, "error": None}
    except OSError as e:
        return {"path": path, "ok": False, "error": "%s: %s" % (type(e).__name__, e)}


def deep_tree(base, levels):
    """Makes `levels` directories, each inside the last, under `base`, by mkdir and chdir
    (the path soon passes PATH_MAX); returns {"levels": made, "error": why it stopped}."""
    home = os.open(".", os.O_RDONLY)
    made, error = 0, None
    try:
        os.chdir(base)
        name = "zoo-deep"
        while os.path.lexists(name):
            name += "+"
        os.mkdir(name)
        os.chdir(name)
        while made < levels:
            os.mkdir("d")
            os.chdir("d")
            made += 1
    except OSError as e:
        error = "%s: %s" % (type(e).__name__, e)
    os.fchdir(home)
    os.close(home)
    return {"levels": made, "error": error}


def fill(path, cap_mb):
    """Writes 1 MiB blocks to `path` until a write fails or `cap_mb` MiB; removes the file;
    returns {"bytes": written, "error": why it stopped}."""
    written, error = 0, None
    block = b"z" * (1 << 20)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            while written < cap_mb << 20:
                written += os.write(fd, block)
        finally:
            os.close(fd)
    except OSError as e:
        error = "%s: %s" % (type(e).__name__, e)
    try:
        os.unlink(path)
    except OSError:
        pass
    return {"bytes": written, "error": error}


def list_cgroups():
    """Every name under /sys/fs/cgroup (at most 5000 looked at), each also on stderr."""
    names = []
    for root, dirs, files in os.walk("/sys/fs/cgroup"):
        for name in dirs + files:
            names.append(os.path.join(root, name))
            if len(names) >= 5000:
                break
    for name in names:
        stderr("zoo-cgroup %s\n" % name)
    return names


def try_connect(port):
    """Connects to 127.0.0.1:port and says who it is; returns {"ok", "error"}."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
            sock.sendall(("zoo-network %s\n" % ARGS.tag).encode())
        return {"ok": True, "error": None}
    except OSError as e:
        return {"ok": False, "error": "%s: %s" % (type(e).__name__, e)}


def burn():
    x = 0
    while True:
        x += 1


def starts():
    """Counts this process start in DIR/starts-<behaviour>; returns the count, from 1."""
    if ARGS.dir is None:
        sys.exit("zoo: --round with a start-up behaviour needs --dir")
    path = os.path.join(ARGS.dir, "starts-" + ARGS.behaviour)
    try:
        with open(path) as f:
            n = int(f.read().strip() or "0")
    except FileNotFoundError:
        n = 0
    n += 1
    with open(path, "w") as f:
        f.write(str(n))
    return n


def main():
    if ARGS.behaviour == "exit-at-once":
        if ARGS.round == 0 or starts() == ARGS.round:
            stderr("zoo: exit-at-once\n")
            sys.exit(0 if ARGS.code is None else ARGS.code)
    Zoo().run()


if __name__ == "__main__":
    main()
