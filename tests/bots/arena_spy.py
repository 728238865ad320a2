
# --- The arena spy (tests/arena/spying.rs): appended to the Python kit in place of its last
# two lines, so that it plays the kit's legal game. When `hello` arrives (every seat of the
# match is started, and every seat's run directory made, by then), it tries once to read
# what an arena keeps of other teams' versions, and prints to stderr, in one write between
# "SPY BEGIN" and "SPY END", every byte it managed to read and a summary of its attempts:
#
#   the arena's directory, found from its own path (DIR/run/<random>/bot.py), and listed;
#   DIR/versions, DIR/run, DIR/records: listed; DIR/arena.db (and -wal): read;
#   DIR/versions/<n>/ for n in 1..50: the directory, source/, build/ (listed), source/bot.py,
#     build/bot.py, build.log, check.json (read); DIR/records/<n>.jsonl (read);
#   every process in /proc: its command line, its working directory and the paths of the
#     arena's run directories its command line, environment and mappings name; every such
#     run directory that is not its own: listed, and its bot.py read;
#   the directory its scratch directory is in (listed), and every other one there;
#   any path the test names in `_SPY_TARGETS` (a remote worker's cache, an artifact in it);
#   every file descriptor it holds beyond 0, 1 and 2 (named through /proc/self/fd, and read).
#
# Its own run directory is not a target (it is its own), but one read of its own bot.py,
# whose size only is printed, shows that reading works for its uid.

import errno as _errno
import os as _os
import re as _re

_spied = False


def _spy():
    out = []
    say = out.append
    me = _os.path.dirname(_os.path.abspath(__file__))
    arena = _os.path.dirname(_os.path.dirname(me))
    say(f"ARENA {arena}")
    say(f"SELF {me}")
    try:
        with open(_os.path.join(me, "bot.py"), "rb") as f:
            say(f"SELF-READ {len(f.read())} bytes")
    except OSError as e:
        say(f"SELF-READ failed: {e}")
    tried = [0]
    read = [0]
    denied = {}

    def grab(path):
        tried[0] += 1
        try:
            try:
                data = ("LIST " + repr(sorted(_os.listdir(path)))).encode()
            except NotADirectoryError:
                with open(path, "rb") as f:
                    data = f.read()
        except OSError as e:
            name = _errno.errorcode.get(e.errno, str(e.errno))
            denied[name] = denied.get(name, 0) + 1
            return
        read[0] += 1
        say(f"READ {path} ({len(data)} bytes): {data!r}")

    for sub in ["", "versions", "run", "records", "arena.db", "arena.db-wal"]:
        grab(_os.path.join(arena, sub) if sub else arena)
    for n in range(1, 51):
        v = _os.path.join(arena, "versions", str(n))
        for sub in ["", "source", "build", "source/bot.py", "build/bot.py", "build.log",
                    "check.json"]:
            grab(_os.path.join(v, sub) if sub else v)
        grab(_os.path.join(arena, "records", f"{n}.jsonl"))

    # Paths the test told it (`_SPY_TARGETS`, defined before this part), as if it had guessed
    # them: a remote worker's artifact cache, another team's artifact in it.
    for path in globals().get("_SPY_TARGETS", []):
        say(f"TARGET {path}")
        grab(path)

    # Other seats' run directories, through /proc.
    pattern = _re.compile(_re.escape(_os.path.join(arena, "run")) + r"/[0-9a-f]+")
    pids = sorted(int(p) for p in _os.listdir("/proc") if p.isdigit())
    say(f"PROC pids {pids}")
    found = set()
    for pid in pids:
        for what in ["cmdline", "environ", "maps"]:
            try:
                with open(f"/proc/{pid}/{what}", "rb") as f:
                    text = f.read().decode("utf-8", "replace")
            except OSError as e:
                say(f"PROC {pid} {what}: {e.strerror}")
                continue
            if what == "cmdline":
                say(f"PROC {pid} cmdline {text!r}")
            found.update(pattern.findall(text))
        try:
            cwd = _os.readlink(f"/proc/{pid}/cwd")
            say(f"PROC {pid} cwd {cwd}")
            found.update(pattern.findall(cwd))
        except OSError as e:
            say(f"PROC {pid} cwd: {e.strerror}")
    others = sorted(d for d in found if d != me)
    say(f"RUN DIRECTORIES seen {sorted(found)}, not mine {others}")
    for d in others:
        grab(d)
        grab(_os.path.join(d, "bot.py"))
    # Other seats' scratch directories (HOME, TMPDIR, the working directory), which the
    # launch's command line in /proc shows to sit beside its own: the parent listed, every
    # other entry listed and its files read.
    scratch = _os.getcwd()
    parent = _os.path.dirname(scratch)
    say(f"SCRATCH {scratch}")
    tried[0] += 1
    try:
        siblings = sorted(_os.listdir(parent))
        say(f"SCRATCH LIST {siblings!r}")
    except OSError as e:
        siblings = []
        say(f"SCRATCH LIST denied: {e.strerror}")
    for name in siblings:
        d = _os.path.join(parent, name)
        if d == scratch:
            continue
        grab(d)
        try:
            for f in _os.listdir(d):
                grab(_os.path.join(d, f))
        except OSError:
            pass
    # Descriptors it was started with beyond 0, 1 and 2 (an arena.db, a listening socket or
    # a run directory left open across the exec would be a way in): each named, and read.
    listed = sorted(int(fd) for fd in _os.listdir("/proc/self/fd"))
    for fd in listed:
        if fd <= 2:
            continue
        try:
            target = _os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue  # the descriptor the listing itself used, closed by now
        try:
            data = repr(_os.pread(fd, 64, 0))
        except OSError as e:
            data = f"unreadable: {e.strerror}"
        say(f"FD {fd} -> {target}: {data}")
    say(f"FDS listed {listed}")
    say(f"SUMMARY tried={tried[0]} read={read[0]} denied={denied}")
    _os.write(2, ("SPY BEGIN\n" + "\n".join(out) + "\nSPY END\n").encode())


_handlers_for = handlers_for


def handlers_for(msg):
    global _spied
    if not _spied:
        _spied = True
        _spy()
    return _handlers_for(msg)


if __name__ == "__main__":
    main()
