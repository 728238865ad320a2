"""A hostile bot that tries every way in to another seat's secrets (issue 25), then plays.

spy.py --tag TAG --exe ROLLARENA [--peek PATH]... [--port P]

It carries a secret of its own, a token `SPYTOKEN-<16 hex>`, everywhere a bot's secrets can
be: its environment and memory (and its player's, a `rollarena bot random` child it relays
the protocol to, so that it plays any game), a file in its scratch directory, files in /tmp,
/var/tmp and /dev/shm, a loopback TCP listener and an abstract unix socket that hand the token
to whoever connects. At the second protocol line (both seats are started and dealt by then)
it runs every probe once and prints one JSON line to stderr, {"spy": {...}}: its own token,
and per probe what it found (every token seen, what it read, reached, planted or signalled).

The test (tests/hostile/spy.rs) plays two spies against each other and fails on anything a
spy found that is not its own: the other's token, the arbiter's argv, the match seed, a
planted file, a signal delivered, a connection made, a line of the record or the bot logs.
The probes, in the order they run:

  proc      the process list (/proc): every process not its own, with its command line
  argv      the arbiter's argv: any command line with --seed, --record or --bot-logs
  environ   /proc/<pid>/environ of every process
  mem       /proc/<pid>/mem of every process (its writable mappings, 8 MiB at most each)
  scratch   the other scratch directories: list, read, plant a file
  temp      /tmp, /var/tmp, /dev/shm, /run/lock: files of other spies
  peek      the record and the bot logs, at paths the test names (--peek)
  seed      the match seed, from any command line or file read above; with one, it runs the
            arbiter binary (its --exe), which computes every card of the round from a seed
  tcp       every listening TCP socket on loopback (/proc/net/tcp) and --port on 127.0.0.1
  unix      every abstract unix socket (/proc/net/unix) named like another spy's
  signal    SIGUSR1 to every process not its own, and signal 0 to every pid 2..65535 that
            is not a visible process or thread (a process it cannot see, but can reach)
"""

import argparse
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading

TOKEN_RE = re.compile(rb"SPYTOKEN-[0-9a-f]{16}")
SEED_RE = re.compile(rb'(?:--seed[ =]|"match_seed"\s*:\s*)"?([0-9]+)')


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tag", required=True)
    p.add_argument("--exe", required=True)
    p.add_argument("--peek", action="append", default=[])
    p.add_argument("--port", type=int)
    args = p.parse_args()

    token = "SPYTOKEN-" + secrets.token_hex(8)
    os.environ["SPY_SECRET"] = token
    hide_token(token)
    listen(token)
    player = subprocess.Popen(
        [args.exe, "bot", "random"],
        stdin=subprocess.PIPE,
        stdout=sys.stdout.buffer,
        env=dict(os.environ, SPY_SECRET=token),
    )
    n = 0
    for line in sys.stdin.buffer:
        n += 1
        if n == 2:
            report = probe(args, token, player.pid)
            sys.stderr.write(json.dumps({"spy": report}) + "\n")
            sys.stderr.flush()
        try:
            player.stdin.write(line)
            player.stdin.flush()
        except BrokenPipeError:
            break
    try:
        player.stdin.close()
    except BrokenPipeError:
        pass
    player.wait()


def hide_token(token):
    """Puts the token where another seat might look."""
    for path in [os.path.join(os.getcwd(), "secret.txt")] + [
        os.path.join(d, "spy-" + token) for d in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
    ]:
        try:
            with open(path, "w") as f:
                f.write(token)
            os.chmod(path, 0o666)
        except OSError:
            pass


def listen(token):
    """Hands the token to whoever connects, over loopback TCP and an abstract unix socket."""
    socks = []
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        socks.append(s)
    except OSError:
        pass
    try:
        u = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        u.bind("\0spy-" + token)
        u.listen(8)
        socks.append(u)
    except OSError:
        pass
    for s in socks:
        def serve(s=s):
            while True:
                c, _ = s.accept()
                try:
                    c.sendall(token.encode())
                finally:
                    c.close()
        threading.Thread(target=serve, daemon=True).start()
    return socks


def read(path, limit=1 << 20):
    with open(path, "rb") as f:
        return f.read(limit)


def tokens(data):
    return sorted({m.decode() for m in TOKEN_RE.findall(data)})


def pids():
    return sorted(int(p) for p in os.listdir("/proc") if p.isdigit())


def is_own(pid, token, own):
    if pid in own:
        return True
    try:
        return token.encode() in read(f"/proc/{pid}/environ")
    except OSError:
        return False


def probe(args, token, player):
    own = {os.getpid(), player}
    found = {"token": token}
    seen_text = []  # everything read, for the seed probe

    # proc, argv
    procs, argv_hits = [], []
    for pid in pids():
        if is_own(pid, token, own):
            continue
        try:
            cmd = read(f"/proc/{pid}/cmdline").replace(b"\0", b" ")
        except OSError:
            continue
        seen_text.append(cmd)
        procs.append({"pid": pid, "cmdline": cmd[:300].decode(errors="replace")})
        if re.search(rb"--(seed|record|bot-logs)\b", cmd):
            argv_hits.append(cmd[:500].decode(errors="replace"))
    found["proc"] = procs
    found["argv"] = argv_hits

    # environ, mem
    env_tokens, mem_tokens, mem_read = set(), set(), []
    for pid in pids():
        if pid == os.getpid():
            continue
        try:
            data = read(f"/proc/{pid}/environ")
            seen_text.append(data)
            env_tokens.update(tokens(data))
        except OSError:
            pass
        got = read_mem(pid)
        if got is not None:
            mem_read.append(pid)
            mem_tokens.update(tokens(got))
    found["environ"] = sorted(env_tokens)
    found["mem"] = {"tokens": sorted(mem_tokens), "read_pids": mem_read}

    # scratch
    here = os.environ.get("ROLLARENA_SCRATCH", os.getcwd())
    parent = os.path.dirname(here.rstrip("/"))
    others, sc_tokens, planted = [], set(), []
    try:
        entries = os.listdir(parent)
    except OSError:
        entries = []
    for e in entries:
        d = os.path.join(parent, e)
        if os.path.realpath(d) == os.path.realpath(here) or not os.path.isdir(d):
            continue
        others.append(d)
        try:
            for f in os.listdir(d):
                try:
                    sc_tokens.update(tokens(read(os.path.join(d, f))))
                except OSError:
                    pass
        except OSError:
            pass
        try:
            with open(os.path.join(d, "planted-by-" + token), "w") as f:
                f.write(token)
            planted.append(d)
        except OSError:
            pass
    found["scratch"] = {"dirs": others, "tokens": sorted(sc_tokens), "planted": planted}

    # temp
    tmp_tokens = set()
    for d in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock"):
        for root, dirs, files in walk(d, 3):
            for f in files:
                if f.startswith("spy-") or f.startswith("planted-by-") or f == "secret.txt":
                    try:
                        tmp_tokens.update(tokens(read(os.path.join(root, f))))
                    except OSError:
                        pass
    found["temp"] = sorted(tmp_tokens)

    # peek
    peeked = []
    for path in args.peek:
        files = [path]
        if os.path.isdir(path):
            try:
                files = [os.path.join(path, f) for f in os.listdir(path)]
            except OSError as e:
                peeked.append({"path": path, "error": e.strerror})
                files = []
        for f in files:
            try:
                data = read(f)
                seen_text.append(data)
                peeked.append({"path": f, "bytes": len(data), "tokens": tokens(data)})
            except OSError as e:
                peeked.append({"path": f, "error": e.strerror})
    found["peek"] = [p for p in peeked if "bytes" in p]
    found["peek_refused"] = [p for p in peeked if "error" in p]

    # seed
    seeds = sorted({m.decode() for t in seen_text for m in SEED_RE.findall(t)})
    found["seed"] = seeds
    if seeds:
        # The arbiter binary is reachable and computes the chance from a seed: running it
        # at all is the step a bot would take next.
        try:
            out = subprocess.run(
                [args.exe, "--help"], capture_output=True, timeout=5
            ).stdout
            found["seed_exe_ran"] = len(out) > 0
        except (OSError, subprocess.SubprocessError):
            found["seed_exe_ran"] = False

    # tcp
    reached = []
    ports = set()
    mine = own_ports()
    for f in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            for line in read(f).decode().splitlines()[1:]:
                cols = line.split()
                if cols[3] == "0A":
                    port = int(cols[1].split(":")[1], 16)
                    if port not in mine:
                        ports.add(port)
        except OSError:
            pass
    if args.port:
        ports.add(args.port)
    for port in sorted(ports):
        try:
            c = socket.create_connection(("127.0.0.1", port), timeout=1)
            c.settimeout(1)
            try:
                data = c.recv(100)
            except OSError:
                data = b""
            c.close()
            reached.append({"port": port, "got": data.decode(errors="replace")})
        except OSError:
            pass
    found["tcp"] = reached

    # unix
    unix_reached = []
    try:
        for line in read("/proc/net/unix").decode().splitlines()[1:]:
            cols = line.split()
            if len(cols) >= 8 and cols[7].startswith("@spy-") and token not in cols[7]:
                name = "\0" + cols[7][1:]
                try:
                    u = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    u.settimeout(1)
                    u.connect(name)
                    unix_reached.append({"name": cols[7], "got": u.recv(100).decode()})
                    u.close()
                except OSError:
                    pass
    except OSError:
        pass
    found["unix"] = unix_reached

    # signal
    signalled = []
    for pid in pids():
        if pid == 1 or is_own(pid, token, own):
            continue
        try:
            os.kill(pid, signal.SIGUSR1)
            signalled.append(pid)
        except OSError:
            pass
    visible = set()
    for pid in pids():
        try:
            visible.update(int(t) for t in os.listdir(f"/proc/{pid}/task"))
        except OSError:
            visible.add(pid)
    blind = []
    for pid in range(2, 65536):
        if pid in visible or pid in own:
            continue
        try:
            os.kill(pid, 0)
            blind.append(pid)
        except OSError:
            pass
    found["signal"] = {"delivered": signalled, "blind": blind[:50]}
    return found


def own_ports():
    """Ports this process listens on (its own listener is not a way in)."""
    ports = set()
    try:
        inodes = set()
        for fd in os.listdir("/proc/self/fd"):
            try:
                link = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:["):
                inodes.add(link[8:-1])
        for f in ("/proc/net/tcp", "/proc/net/tcp6"):
            for line in read(f).decode().splitlines()[1:]:
                cols = line.split()
                if cols[9] in inodes:
                    ports.add(int(cols[1].split(":")[1], 16))
    except OSError:
        pass
    return ports


def walk(top, depth):
    try:
        entries = list(os.scandir(top))
    except OSError:
        return
    files = [e.name for e in entries if e.is_file(follow_symlinks=False)]
    dirs = [e.name for e in entries if e.is_dir(follow_symlinks=False)]
    yield top, dirs, files
    if depth > 1:
        for d in dirs:
            yield from walk(os.path.join(top, d), depth - 1)


def read_mem(pid, budget=8 << 20):
    """The writable mappings of `pid` (8 MiB at most), or None when /proc/<pid>/mem refuses."""
    try:
        maps = read(f"/proc/{pid}/maps").decode().splitlines()
        mem = open(f"/proc/{pid}/mem", "rb")
    except OSError:
        return None
    out = bytearray()
    with mem:
        for line in maps:
            cols = line.split()
            if len(cols) < 2 or "rw" not in cols[1]:
                continue
            lo, hi = (int(x, 16) for x in cols[0].split("-"))
            size = min(hi - lo, budget - len(out))
            if size <= 0:
                break
            try:
                mem.seek(lo)
                out += mem.read(size)
            except (OSError, ValueError, OverflowError):
                if not out:
                    continue
    return bytes(out) if out else None


if __name__ == "__main__":
    main()
