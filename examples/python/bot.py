#!/usr/bin/env python3
"""A bot for every rollarena game: the Python starter kit.

It reads one JSON message per line on stdin and answers on stdout, one JSON message per line,
flushed at once, and logs to stderr (stdout belongs to the arbiter). It plays the game
`hello.game` names:

- "rolit": it keeps the board it is sent (from `start` and `turn`, updated by `played`) and
  plays the move that turns the most balls weighted by the tactical value of the square;
- "robots" (Rock'n'Roll Robot): at `start` it searches breadth-first for a shortest solution,
  declares it, passes, and shows the moves when asked to `prove`;
- "goofspiel": it bids the card that ranks in its hand where the prize ranks among the prizes
  left (goofspiel_choose);
- "rollerball": its base on the track the fewest other bases share, every card it lays leading
  balls to that track, every reward laid as a victory point (rollerball_choose);
- any other game: it answers each `turn` with the first move of its `legal` list.

Run it:   /usr/bin/python3 bot.py
Check it: rollarena check "/usr/bin/python3 examples/python/bot.py"
          (add --game GAME: robots, goofspiel, rollerball)
"""

import json
import sys
import time

NAME = "starter-python"
VERSION = "1.0"

LETTERS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

# The five tactical levels of the rules, as a bonus for taking a square.
VERY_STRONG, STRONG, MEDIUM, WEAK, VERY_WEAK = 30, 6, 1, -6, -15


def log(*parts):
    """Everything that is not a protocol message goes to stderr."""
    print(*parts, file=sys.stderr, flush=True)


def send(message):
    """One JSON object per line, flushed: stdout is a pipe, and pipes are block-buffered."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def square_name(file, rank):
    return "abcdefgh"[file] + str(rank + 1)


def parse_square(name):
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


class Board:
    """A board as rows of letters; (file, rank) from a1 = (0, 0); row 0 is the highest rank."""

    def __init__(self, rows):
        self.n = len(rows)
        self.cells = [list(row) for row in rows]

    def at(self, file, rank):
        return self.cells[self.n - 1 - rank][file]

    def put(self, file, rank, letter):
        self.cells[self.n - 1 - rank][file] = letter

    def inside(self, file, rank):
        return 0 <= file < self.n and 0 <= rank < self.n

    def flips(self, file, rank, me):
        """The balls a ball of letter `me` on (file, rank) would turn."""
        turned = []
        for df, dr in DIRECTIONS:
            run = []
            f, r = file + df, rank + dr
            while self.inside(f, r) and self.at(f, r) not in (".", me):
                run.append((f, r))
                f, r = f + df, r + dr
            if run and self.inside(f, r) and self.at(f, r) == me:
                turned.extend(run)
        return turned

    def legal_moves(self, me):
        """Empty squares touching a ball; only the capturing ones if any capture."""
        touching = []
        for rank in range(self.n):
            for file in range(self.n):
                if self.at(file, rank) != ".":
                    continue
                if any(
                    self.inside(file + df, rank + dr) and self.at(file + df, rank + dr) != "."
                    for df, dr in DIRECTIONS
                ):
                    touching.append((file, rank))
        captures = [sq for sq in touching if self.flips(sq[0], sq[1], me)]
        return captures or touching


def level(file, rank, n):
    """The tactical value of a square: corners, edges, and the squares next to corners."""
    last = n - 1
    edge_f, edge_r = file in (0, last), rank in (0, last)
    near_f, near_r = file in (1, last - 1), rank in (1, last - 1)
    if edge_f and edge_r:
        return VERY_STRONG
    if edge_f:
        return WEAK if near_r else STRONG
    if edge_r:
        return WEAK if near_f else STRONG
    return VERY_WEAK if near_f and near_r else MEDIUM


def choose(board, me, candidates):
    """The candidate that turns the most balls, weighted by the value of its square."""

    def score(sq):
        return 2 * len(board.flips(sq[0], sq[1], me)) + level(sq[0], sq[1], board.n)

    return max(candidates, key=score)


# The match's clock (protocol/SPEC.md section 6.2): `hello` may give a time bank per round
# (`bank_ms`), an increment added after each move (`increment_ms`) and a longer first answer
# (`first_move_ms`). A turn's `time_ms` is the most this answer may take; with a bank,
# `bank_ms` is what is left for the rest of the round, so a bot that searches plans each answer
# from it.
INCREMENT_MS = 0


def plan_ms(turn, moves_left):
    """The time to plan for this answer: `time_ms` without a bank; with one, an even share of
    what is left of it over the moves still to come, plus the increment, never more than
    `time_ms`. Stop a search well before it (the pipe and the scheduler take some)."""
    time_ms = turn.get("time_ms", 1000)
    if "bank_ms" not in turn:
        return time_ms
    return min(time_ms, turn["bank_ms"] // max(1, moves_left) + INCREMENT_MS)


class Bot:
    def __init__(self):
        self.board = None
        self.colour = None
        self.turn = None  # the last turn: its id, board, letter and moves
        self.tried = set()

    def on_start(self, msg):
        self.colour = msg.get("colour")
        self.board = Board(msg["state"]["board"])
        log(f"round {msg.get('round')}: I play {self.colour}")

    def on_turn(self, msg):
        state = msg["state"]
        self.board = Board(state["board"])
        me = LETTERS[state["to_move"]]  # the colour to move is mine
        if "legal" in msg:
            moves = [parse_square(s) for s in msg["legal"]]
        else:
            moves = self.board.legal_moves(me)
        self.turn = (msg.get("turn_id"), self.board, me, moves)
        self.tried = set()
        if "bank_ms" in msg:
            # About my moves still to come: the empty squares shared among the colours.
            empty = sum(row.count(".") for row in state["board"])
            left = empty // max(1, len(state.get("colours", [me])))
            log(f"turn {msg.get('turn_id')}: plan at most {plan_ms(msg, left)} ms "
                f"({msg['bank_ms']} ms left in the bank)")
        self.answer(choose(self.board, me, moves))

    def on_illegal(self, msg):
        log(f"refused: {msg.get('reason')}")
        if self.turn is None:
            return
        _, board, me, moves = self.turn
        untried = [sq for sq in moves if sq not in self.tried] or moves
        self.answer(choose(board, me, untried))

    def answer(self, sq):
        self.tried.add(sq)
        message = {"type": "move", "move": square_name(*sq)}
        if self.turn[0] is not None:
            message["turn_id"] = self.turn[0]
        send(message)

    def on_played(self, msg):
        letter = LETTERS.get(msg.get("colour"))
        if self.board is None or letter is None:
            return
        for name in [msg["move"]] + msg.get("flipped", []):
            self.board.put(*parse_square(name), letter)

    def on_end(self, msg):
        log(f"round {msg.get('round')} over: scores {msg.get('scores')}, ranks {msg.get('ranks')}")


# ---------------------------------------------------------------------------------------------
# Rock'n'Roll Robot (`hello.game` "robots"): protocol/games/robots.md and SPEC.md section 13.
# At `start` the bot searches for a solution, declares its length, then passes (it will not
# declare again), and answers `prove` with the moves.
# ---------------------------------------------------------------------------------------------

THINK_SHARE = 0.5  # the search may run this share of the hourglass (hello.options.hourglass_ms)
MAX_NODES = 400000  # positions kept in memory, at most

STEP = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}
SIDE = {"up": "N", "down": "S", "left": "W", "right": "E"}
# How a diagonal wall turns a robot entering its cell, by the diagonal's kind.
TURN = {
    "/": {"right": "up", "up": "right", "left": "down", "down": "left"},
    "\\": {"right": "down", "down": "right", "left": "up", "up": "left"},
}
DIRS = ["up", "down", "left", "right"]


def cell_xy(name):
    """'a1' -> (0, 0), 'p16' -> (15, 15)."""
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def cell_name(x, y):
    return chr(ord("a") + x) + str(y + 1)


class RobotsBoard:
    """The board of `start.state.board`. Cells are numbered y * size + x (a1 is 0); for speed
    (this is Python) each cell's neighbour in each direction is worked out once: -1 where a
    wall closes that side (the edge and the central block count as walls)."""

    def __init__(self, board):
        n = self.size = board["size"]
        walls = {cell_xy(c): sides for c, sides in board["walls"].items()}
        self.next = []  # self.next[d][cell], d an index into DIRS
        for d in DIRS:
            dx, dy = STEP[d]
            self.next.append([
                -1 if SIDE[d] in walls.get((x, y), "") else (y + dy) * n + x + dx
                for y in range(n) for x in range(n)
            ])
        # Per cell: None, or the diagonal's colour and how it turns each direction (indexes).
        self.diagonals = [None] * (n * n)
        for d in board.get("diagonals", []):
            x, y = cell_xy(d["cell"])
            turn = [DIRS.index(TURN[d["kind"]][name]) for name in DIRS]
            self.diagonals[y * n + x] = (d["colour"], turn)

    def cell(self, name):
        x, y = cell_xy(name)
        return y * self.size + x

    def slide(self, cells, r, colour, d):
        """Where the robot `r` (of `colour`) stops moving in direction `d` (an index into DIRS)
        when the robots stand on `cells` (a tuple), or -1 when the move is not legal: it
        changes nothing, or goes round through diagonal walls forever."""
        start = at = cells[r]
        seen = None  # (cell, direction) entered since the first turn
        while True:
            nxt = self.next[d][at]
            if nxt < 0:
                break  # a wall
            if nxt != start and nxt in cells:
                break  # stop before another robot
            at = nxt
            diagonal = self.diagonals[at]
            if diagonal is not None and diagonal[0] != colour:  # black: every colour turns it
                d = diagonal[1][d]
                if seen is None:
                    seen = set()
                if (at, d) in seen:
                    return -1  # round through diagonal walls forever
                seen.add((at, d))
        return -1 if at == start else at


def solve_robots(board, robots, token, target, deadline):
    """Breadth-first search over the positions of all robots for a shortest solution: a list
    of moves after which a robot the token accepts stands on the target, having moved at least
    twice (the bounce rule). `robots` maps each robot to its (x, y). Returns None if the time
    or memory runs out first."""
    names = sorted(robots)
    n = board.size
    goal = [i for i, r in enumerate(names) if token == "vortex" or token.startswith(r + "-")]
    target = board.cell(target)
    start = tuple(y * n + x for x, y in (robots[r] for r in names))
    # The nodes, by index: the robots' cells, how often each goal robot moved (up to 2), the
    # parent node and the move (robot index, direction index) from it.
    cells_of, counts_of, parent, move = [start], [(0,) * len(goal)], [-1], [None]
    seen = {(start, counts_of[0])}

    def path_to(i, last):
        moves = [last]
        while parent[i] >= 0:
            moves.append(move[i])
            i = parent[i]
        return [{"robot": names[r], "dir": DIRS[d]} for r, d in reversed(moves)]

    begin, end = 0, 1
    for _ in range(40):
        # The last move of a shortest solution is one of a goal robot's: try those first
        # (this layer's may finish a little after the deadline, not much).
        for i in range(begin, end):
            if i % 256 == 0 and time.monotonic() > deadline + 0.5:
                return None
            cells, counts = cells_of[i], counts_of[i]
            for gi, r in enumerate(goal):
                if counts[gi] < 1:
                    continue  # even with this move it would have moved once only
                for d in range(4):
                    if board.slide(cells, r, names[r], d) == target:
                        return path_to(i, (r, d))
        # Otherwise, every position one move further.
        for i in range(begin, end):
            if i % 256 == 0 and (time.monotonic() > deadline or len(seen) > MAX_NODES):
                return None
            cells, counts = cells_of[i], counts_of[i]
            for r, colour in enumerate(names):
                moved_counts = tuple(min(c + (g == r), 2) for c, g in zip(counts, goal))
                for d in range(4):
                    stop = board.slide(cells, r, colour, d)
                    if stop < 0:
                        continue
                    key = (cells[:r] + (stop,) + cells[r + 1:], moved_counts)
                    if key in seen:
                        continue
                    seen.add(key)
                    cells_of.append(key[0])
                    counts_of.append(moved_counts)
                    parent.append(i)
                    move.append((r, d))
        begin, end = end, len(cells_of)
        if begin == end:
            return None
    return None


class RobotsPlayer:
    def __init__(self, options):
        self.solo = options.get("players") == 1  # alone, a declaration is verified at once: no pass after it
        # Another seat may turn the hourglass at once: declare well before it can run out.
        self.think_ms = int(options.get("hourglass_ms", 60000) * THINK_SHARE)
        log(f"robots: searching at most {self.think_ms} ms a token "
            f"(hourglass {options.get('hourglass_ms', 60000)} ms)")
        self.solution = None

    def on_start(self, msg):
        state = msg["state"]
        board = RobotsBoard(state["board"])
        robots = {r: cell_xy(c) for r, c in state["robots"].items()}
        deadline = time.monotonic() + self.think_ms / 1000
        # STRATEGY: a better search (or declaring early and lowering later) goes here.
        self.solution = solve_robots(board, robots, state["token"], state["target"], deadline)
        log(f"round {msg.get('round')}: {state['token']} at {state['target']}: "
            f"{'no solution found' if self.solution is None else len(self.solution)} moves")
        if self.solution is not None:
            send({"type": "declare", "moves": len(self.solution)})
        if self.solution is None or not self.solo:
            send({"type": "pass"})  # done declaring: the hourglass need not wait for us

    def on_prove(self, msg):
        send({"type": "solution", "moves": self.solution or [], "turn_id": msg.get("turn_id")})

    def on_declared(self, msg):
        pass  # another seat's claim: a smarter bot might search on to beat it

    def on_verified(self, msg):
        if not msg.get("ok"):
            log(f"seat {msg.get('seat')} failed: {msg.get('reason')}")


# ---------------------------------------------------------------------------------------------
# Goofspiel (`hello.game` "goofspiel"): protocol/games/goofspiel.md. Every turn is a sealed bid
# for the prize on show, answered with one card of the hand.
# ---------------------------------------------------------------------------------------------

def goofspiel_choose(state, legal):
    """Bid the card that stands among my cards where the prize stands among the prizes still
    to be won: the top card for the top prize, the lowest card for the lowest, so the high
    cards are kept for the high prizes. (At the start the hand and the prizes are both 1 to N,
    so this bids the prize's own value.)"""
    # STRATEGY: the place for your Goofspiel play: `state.history` has every bid so far.
    prizes = sorted(state["prizes_left"] + [state["prize"]])
    hand = sorted(legal, key=int)
    rank = prizes.index(state["prize"])  # 0 for the lowest prize still to be won
    return hand[rank * len(hand) // len(prizes)]


# ---------------------------------------------------------------------------------------------
# Rollerball (`hello.game` "rollerball"): protocol/games/rollerball.md. A ball that enters a
# player's base earns that player a card, which this bot always lays as a victory point (five
# win). So the bot puts its base on the track the fewest other bases share, and then every
# diversion card it lays leads balls towards that track; the workman waits on its own base,
# where no ball can hit it, and walks out to build such a card while a ball rolls on another
# track.
# ---------------------------------------------------------------------------------------------

MOVES = ("DM", "UM")  # a Move card sends every ball leaving s1 across to s2
SPLITTERS = ("SD", "SU")  # a Splitter sends a new ball across to s2, the ball goes on


def track_of(state, square):
    """1 (outer), 2 or 3 (inner): the track `square` belongs to (`state.tracks` lists them)."""
    for number, squares in enumerate(state["tracks"], start=1):
        if square in squares:
            return number
    return 0


def card_gain(state, mine, code, s1, s2):
    """How many tracks closer to mine (the track of my base) a card on s1-s2 brings the balls
    it diverts: positive for a card that leads balls to my base, negative for one that leads
    them away. A Splitter never takes a ball away (the ball goes on, a new one crosses)."""
    gain = abs(track_of(state, s1) - mine) - abs(track_of(state, s2) - mine)
    if code in MOVES:
        return gain
    if code in SPLITTERS:
        return max(gain, 0)
    return 0  # a ball changer diverts nothing


def distance_to(state, square, target):
    """Squares a ball on `square` rolls along its track to reach `target` (99: never)."""
    for squares in state["tracks"]:
        if square in squares and target in squares:
            return (squares.index(target) - squares.index(square)) % len(squares)
    return 99


CORNERS = "a1 h1 b2 g2 c3 f3 c6 f6 b7 g7 a8 h8".split()  # no card ever covers a corner


def neighbours(square):
    """The squares orthogonally next to `square`."""
    file, rank = ord(square[0]), int(square[1:])
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    return [chr(file + df) + str(rank + dr) for df, dr in steps
            if ord("a") <= file + df <= ord("h") and 1 <= rank + dr <= 8]


def build_gain(state, mine, square):
    """The most a Move or Splitter card of my hand would gain (`card_gain`) built on a slot
    that includes `square`, 0 if none: a slot of a track changer is two orthogonally adjacent
    squares of adjacent tracks, neither a corner, and a build needs both free of balls, cards,
    bases and the other players' workmen."""
    me = state["players"][state["seat"]]
    blocked = set(CORNERS) | {ball["at"] for ball in state["balls"]}
    blocked |= {sq for card in state["cards"] for sq in card["at"]}
    blocked |= {p["base"] for p in state["players"]}
    blocked |= {p["workman"] for p in state["players"] if p is not me}
    best = 0
    for other in neighbours(square):
        outer, inner = sorted([square, other], key=lambda sq: track_of(state, sq))
        if square in blocked or other in blocked:
            continue
        if track_of(state, inner) != track_of(state, outer) + 1:
            continue  # the same track, or the logo
        for code in state["hand"]:
            # DM and SD lie from the outer square to the inner one, UM and SU the other way.
            s1, s2 = (outer, inner) if code in ("DM", "SD") else (inner, outer)
            best = max(best, card_gain(state, mine, code, s1, s2))
    return best


def rollerball_choose(state, legal):
    """One decision of Rollerball: `state.phase` names it (the rules' section "Decisions and
    notation" lists each phase's moves)."""
    # STRATEGY: the place for your Rollerball play; each phase below is a simple rule.
    phase = state["phase"]
    me = state["players"][state["seat"]]
    if phase == "base":
        # The base track (1 or 2) the fewest other bases stand on, the shorter one (2) on a tie:
        # a ball on it comes back to my base every 10 turns.
        taken = [track_of(state, p["base"]) for p in state["players"] if p["base"]]

        def crowding(move):
            track = track_of(state, move.split()[1])
            return 10 * taken.count(track) - track

        return min(legal, key=crowding)
    mine = track_of(state, me["base"]) if me["base"] else 0
    if phase == "workman" and "workman " + me["base"] in legal:
        return "workman " + me["base"]  # on a base square no ball can hit it
    if phase == "ball":
        # As near before my base as the rules allow: it scores in the first turn.
        return min(legal, key=lambda m: distance_to(state, m.split()[1], me["base"]))
    if phase == "reward":
        # Always a victory point: from the deck (`vp`), else a card off the board, the one that
        # leads balls away from my base first.
        if "vp" in legal:
            return "vp"
        takes = [m for m in legal if m.endswith(" vp")]
        if not takes:
            return legal[0]

        def harm(move):
            square = move.split()[1]
            card = next(c for c in state["cards"] if square in c["at"])
            return card_gain(state, mine, card["card"], *card["at"])

        return min(takes, key=harm)
    if phase in ("card", "use"):
        # The card that brings balls nearest my track (`pass` or `none` if none brings any).
        best, best_gain = legal[0], 0
        for move in legal:
            words = move.split()
            if words[0] in ("place", "build") and card_gain(state, mine, *words[1:]) > best_gain:
                best, best_gain = move, card_gain(state, mine, *words[1:])
        return best
    if phase == "discard":
        # A card that diverts nothing first (ball changers, Replacers), then any.
        useless = [m for m in legal if m.split()[1] not in MOVES + SPLITTERS]
        return (useless or legal)[0]
    if phase == "move":
        # Away from home, back home. At home, stay while every ball rolls on my track; else
        # walk to the square from which a card of my hand would bring balls nearest (the
        # `use` decision then builds it), or stay if none would.
        if me["workman"] != me["base"]:
            home = "move " + me["base"]
            return home if home in legal else legal[0]
        if all(track_of(state, ball["at"]) == mine for ball in state["balls"]):
            return legal[0]
        best, best_gain = legal[0], 0
        for move in legal:
            words = move.split()
            if words[0] == "move" and build_gain(state, mine, words[1]) > best_gain:
                best, best_gain = move, build_gain(state, mine, words[1])
        return best
    # "bid": nothing; "extra" (5 and 6 players): `stay`; anything else: the first.
    return legal[0]


# ---------------------------------------------------------------------------------------------
# Any game whose every decision is a `turn` with a `legal` list (Goofspiel, Rollerball, ...).
# ---------------------------------------------------------------------------------------------

STRATEGIES = {"goofspiel": goofspiel_choose, "rollerball": rollerball_choose}


class AnyGamePlayer:
    def __init__(self, game):
        self.turn = None
        self.strategy = STRATEGIES.get(game)

    def choose(self, state, legal):
        """The game's strategy above; in a game the kit does not know, the first legal move."""
        if self.strategy is None:
            return legal[0]
        return self.strategy(state, legal)

    def on_turn(self, msg):
        legal = msg.get("legal") or []
        self.turn = (msg.get("turn_id"), msg.get("state", {}), list(legal))
        self.answer()

    def on_illegal(self, msg):
        log(f"refused: {msg.get('reason')}")
        if self.turn is not None and self.turn[2]:
            self.answer()

    def answer(self):
        turn_id, state, legal = self.turn
        if not legal:
            log("a turn without a legal list: nothing to choose from")
            return
        move = self.choose(state, legal)
        legal.remove(move)  # if it is refused, the next answer is another one
        message = {"type": "move", "move": move}
        if turn_id is not None:
            message["turn_id"] = turn_id
        send(message)


def handlers_for(msg):
    """The handlers of the game `hello` names."""
    game = msg.get("game")
    if game == "rolit":
        bot = Bot()
        return {"start": bot.on_start, "turn": bot.on_turn, "illegal": bot.on_illegal,
                "played": bot.on_played, "end": bot.on_end}
    if game == "robots":
        bot = RobotsPlayer(msg.get("options") or {})
        return {"start": bot.on_start, "prove": bot.on_prove, "declared": bot.on_declared,
                "verified": bot.on_verified}
    bot = AnyGamePlayer(game)
    return {"turn": bot.on_turn, "illegal": bot.on_illegal}


def main():
    handlers = {}
    for line in sys.stdin:  # one whole line at a time
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "bye":
            log("bye")
            return
        if kind == "hello":
            log(f"hello: {msg.get('game')}, seat {msg.get('seat')}, options {msg.get('options')}")
            handlers = handlers_for(msg)
            global INCREMENT_MS
            INCREMENT_MS = msg.get("increment_ms", 0)
            send({"type": "ready", "name": NAME, "version": VERSION,
                  "author": "rollarena starter kit"})
            continue
        handler = handlers.get(kind)
        if handler is not None:  # types this bot does not know are skipped
            handler(msg)


if __name__ == "__main__":
    main()
