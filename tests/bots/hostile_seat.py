# The hostile team's run-time code (tests/arena/hostile/run_time.rs): uploaded as bot.py beside
# the Python kit (kit.py), whose legal game it plays. At its first message (every seat of the
# match is started by then) it tries once what a seat must not do, and prints to stderr, in one
# write between "HOSTILE SEAT BEGIN" and "HOSTILE SEAT END", what it got:
#
#   SELF pid, uid, directory; OWN the pids of itself and its ancestors (its own sandbox);
#   READ path (n bytes): ...  /  DENIED path: why
#       /proc/PID/{cmdline,environ,cwd,root} of every process it sees that is not its own,
#       and the arena's database, versions, records and run directories;
#   NET 127.0.0.1:PORT (what) connected: ...  /  refused: why
#       the server's port and a listener the test opened on the host's loopback
#       (targets.json tells it both, as if guessed);
#   SIGNAL PID delivered  /  refused: why
#       SIGTERM to the server's pid (told too), SIGUSR1 to every process not its own (another
#       seat's would die of it and forfeit);
#
# and a line of HTML, which its team's pages must show as text.

import json as _json
import os as _os
import signal as _signal
import socket as _socket

import kit as _kit

_HERE = _os.path.dirname(_os.path.abspath(__file__))
_done = False


def _ancestry():
    """This process and its ancestors, as far as its /proc shows them."""
    own = []
    pid = _os.getpid()
    while pid > 0 and pid not in own:
        own.append(pid)
        try:
            with open(f"/proc/{pid}/status") as f:
                pid = next(int(l.split()[1]) for l in f if l.startswith("PPid:"))
        except (OSError, StopIteration, ValueError):
            break
    return own


def _attack():
    out = []
    say = out.append

    def grab(path):
        try:
            if _os.path.islink(path):
                data = _os.readlink(path).encode()
            elif _os.path.isdir(path):
                data = repr(sorted(_os.listdir(path))).encode()
            else:
                with open(path, "rb") as f:
                    data = f.read(4096)
        except OSError as e:
            say(f"DENIED {path}: {e.strerror}")
            return
        say(f"READ {path} ({len(data)} bytes): {data[:300]!r}")

    try:
        with open(_os.path.join(_HERE, "targets.json")) as f:
            targets = _json.load(f)
    except (OSError, ValueError) as e:
        targets = {}
        say(f"FAILED targets.json: {e}")
    own = _ancestry()
    say(f"SELF pid {_os.getpid()} uid {_os.getuid()} dir {_HERE}")
    say(f"OWN {own}")
    pids = sorted(int(p) for p in _os.listdir("/proc") if p.isdigit())
    others = [p for p in pids if p not in own]
    say(f"PROC pids {pids} others {others}")
    for pid in others:
        for what in ["cmdline", "environ", "cwd", "root"]:
            grab(f"/proc/{pid}/{what}")
    arena = _os.path.dirname(_os.path.dirname(_HERE))
    say(f"ARENA {arena}")
    for sub in ["arena.db", "versions", "records", "run"]:
        grab(_os.path.join(arena, sub))
    for n in range(1, 5):
        grab(_os.path.join(arena, "versions", str(n), "source", "bot.py"))

    for what in ["server", "listener"]:
        port = targets.get(what)
        try:
            with _socket.create_connection(("127.0.0.1", port), timeout=2) as s:
                s.sendall(b"GET /api/submissions/1 HTTP/1.0\r\n\r\n")
                data = s.recv(4096)
            say(f"NET 127.0.0.1:{port} ({what}) connected: {data[:300]!r}")
        except (OSError, TypeError) as e:
            say(f"NET 127.0.0.1:{port} ({what}) refused: {e}")

    for pid, sig in [(targets.get("server_pid", 0), _signal.SIGTERM)] + [
        (p, _signal.SIGUSR1) for p in others
    ]:
        try:
            _os.kill(pid, sig)
            say(f"SIGNAL {pid} delivered")
        except OSError as e:
            say(f"SIGNAL {pid} refused: {e.strerror}")

    say("<img src=x onerror=alert('stderr')>")
    _os.write(2, ("HOSTILE SEAT BEGIN\n" + "\n".join(out) + "\nHOSTILE SEAT END\n").encode())


_handlers_for = _kit.handlers_for


def _hostile_handlers_for(msg):
    global _done
    if not _done:
        _done = True
        _attack()
    return _handlers_for(msg)


_kit.handlers_for = _hostile_handlers_for

if __name__ == "__main__":
    _kit.main()
