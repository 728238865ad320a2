import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * A bot for every rollarena game: the Java starter kit (the class keeps its first game's name).
 *
 * <p>It reads one JSON message per line on stdin and answers on stdout, one JSON message per
 * line, flushed at once, and logs to stderr (stdout belongs to the arbiter). It plays the game
 * {@code hello.game} names:
 *
 * <ul>
 *   <li>"rolit": it keeps the board it is sent (from {@code start} and {@code turn}, updated by
 *       {@code played}) and plays the move that turns the most balls weighted by the tactical
 *       value of the square;
 *   <li>"robots" (Rock'n'Roll Robot): at {@code start} it searches breadth-first for a shortest
 *       solution, declares it, passes, and shows the moves when asked to {@code prove}
 *       (RobotsPlayer);
 *   <li>"goofspiel": it bids the card that ranks in its hand where the prize ranks among the
 *       prizes left (goofspielChoose);
 *   <li>"rollerball": its base on the track the fewest other bases share, every card it lays
 *       leading balls to that track, every reward laid as a victory point (rollerballChoose);
 *   <li>any other game: it answers each {@code turn} with the first move of its {@code legal}
 *       list.
 * </ul>
 *
 * <p>Build: {@code javac -d out RolitBot.java Json.java}; run: {@code java -cp out RolitBot};
 * check: {@code rollarena check "/usr/bin/java -cp out RolitBot"}.
 */
public final class RolitBot {
    static final String NAME = "starter-java";
    static final String VERSION = "1.0";

    // The five tactical levels of the rules, as a bonus for taking a square.
    static final int VERY_STRONG = 30, STRONG = 6, MEDIUM = 1, WEAK = -6, VERY_WEAK = -15;

    static final int[][] DIRECTIONS = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};

    /** stdout as UTF-8; every line is flushed by hand (see send). */
    static final PrintStream OUT = new PrintStream(System.out, false, StandardCharsets.UTF_8);

    /** One JSON object per line, then flush: stdout is a pipe, and output waits in buffers. */
    static void send(String line) {
        OUT.print(line + "\n");
        OUT.flush();
    }

    /** Everything that is not a protocol message goes to stderr. */
    static void log(String text) {
        System.err.println(text);
    }

    static char letter(String colour) {
        switch (colour == null ? "" : colour) {
            case "red": return 'R';
            case "yellow": return 'Y';
            case "green": return 'G';
            case "blue": return 'B';
            default: return '?';
        }
    }

    /** A square as {file, rank}, a1 = {0, 0}. */
    static int[] parseSquare(String name) {
        return new int[] {name.charAt(0) - 'a', Integer.parseInt(name.substring(1)) - 1};
    }

    static String squareName(int[] sq) {
        return (char) ('a' + sq[0]) + Integer.toString(sq[1] + 1);
    }

    /** A board as rows of letters; row 0 is the highest rank; '.' for empty. */
    static final class Board {
        final int n;
        final char[][] rows;

        Board(List<Object> rows) {
            this.n = rows.size();
            this.rows = new char[n][];
            for (int i = 0; i < n; i++) this.rows[i] = ((String) rows.get(i)).toCharArray();
        }

        private Board(char[][] rows) {
            this.n = rows.length;
            this.rows = rows;
        }

        Board copy() {
            char[][] r = new char[n][];
            for (int i = 0; i < n; i++) r[i] = rows[i].clone();
            return new Board(r);
        }

        char at(int file, int rank) {
            return rows[n - 1 - rank][file];
        }

        void put(int[] sq, char letter) {
            if (inside(sq[0], sq[1])) rows[n - 1 - sq[1]][sq[0]] = letter;
        }

        boolean inside(int file, int rank) {
            return file >= 0 && file < n && rank >= 0 && rank < n;
        }

        /** How many balls a ball of letter {@code me} on sq would turn. */
        int flips(int[] sq, char me) {
            int total = 0;
            for (int[] d : DIRECTIONS) {
                int f = sq[0] + d[0], r = sq[1] + d[1], run = 0;
                while (inside(f, r) && at(f, r) != '.' && at(f, r) != me) {
                    f += d[0];
                    r += d[1];
                    run++;
                }
                if (run > 0 && inside(f, r) && at(f, r) == me) total += run;
            }
            return total;
        }

        /** Empty squares touching a ball; only the capturing ones if any capture. */
        List<int[]> legalMoves(char me) {
            List<int[]> touching = new ArrayList<>(), captures = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                for (int f = 0; f < n; f++) {
                    if (at(f, r) != '.') continue;
                    boolean touches = false;
                    for (int[] d : DIRECTIONS) {
                        touches |= inside(f + d[0], r + d[1]) && at(f + d[0], r + d[1]) != '.';
                    }
                    if (!touches) continue;
                    int[] sq = {f, r};
                    touching.add(sq);
                    if (flips(sq, me) > 0) captures.add(sq);
                }
            }
            return captures.isEmpty() ? touching : captures;
        }
    }

    /** The tactical value of a square: corners, edges, and the squares next to corners. */
    static int level(int[] sq, int n) {
        int last = n - 1;
        boolean edgeF = sq[0] == 0 || sq[0] == last, edgeR = sq[1] == 0 || sq[1] == last;
        boolean nearF = sq[0] == 1 || sq[0] == last - 1, nearR = sq[1] == 1 || sq[1] == last - 1;
        if (edgeF && edgeR) return VERY_STRONG;
        if (edgeF) return nearR ? WEAK : STRONG;
        if (edgeR) return nearF ? WEAK : STRONG;
        return nearF && nearR ? VERY_WEAK : MEDIUM;
    }

    Board board; // the board as last seen (start, turn), updated by played
    Board asked; // the board of the last turn
    char me = '?';
    Double turnId;
    List<int[]> moves = new ArrayList<>();
    Set<String> tried = new HashSet<>();

    static void hello(Object msg) {
        Map<String, Object> o = Json.obj(msg, "options");
        log(String.format("hello: %s, seat %.0f, %.0f players", Json.str(msg, "game", "?"),
                Json.num(msg, "seat", -1), Json.num(o, "players", 0)));
        send("{\"type\":\"ready\",\"name\":\"" + NAME + "\",\"version\":\"" + VERSION
                + "\",\"author\":\"rollarena starter kit\"}");
    }

    void start(Object msg) {
        board = new Board(Json.list(Json.obj(msg, "state"), "board"));
        log("round " + (long) Json.num(msg, "round", 0) + ": I play " + Json.str(msg, "colour", "?"));
    }

    void turn(Object msg) {
        Map<String, Object> state = Json.obj(msg, "state");
        board = new Board(Json.list(state, "board"));
        asked = board.copy(); // played updates board; the last turn's board stays as it was
        me = letter(Json.str(state, "to_move", null)); // the colour to move is mine
        Object id = Json.get(msg, "turn_id");
        turnId = id instanceof Double ? (Double) id : null;
        tried.clear();
        List<Object> legal = Json.list(msg, "legal");
        if (legal != null) {
            moves = new ArrayList<>();
            for (Object m : legal) moves.add(parseSquare((String) m));
        } else {
            moves = asked.legalMoves(me);
        }
        answer();
    }

    void illegal(Object msg) {
        log("refused: " + Json.str(msg, "reason", ""));
        answer();
    }

    void played(Object msg) {
        char letter = letter(Json.str(msg, "colour", null));
        String move = Json.str(msg, "move", null);
        if (board == null || letter == '?' || move == null) return;
        board.put(parseSquare(move), letter);
        List<Object> flipped = Json.list(msg, "flipped");
        if (flipped != null) for (Object f : flipped) board.put(parseSquare((String) f), letter);
    }

    /** The untried move (any, if all were tried) that turns the most balls, weighted. */
    void answer() {
        int[] best = null;
        int bestScore = 0;
        for (int pass = 0; pass < 2 && best == null; pass++) {
            for (int[] sq : moves) {
                if (pass == 0 && tried.contains(squareName(sq))) continue;
                int score = 2 * asked.flips(sq, me) + level(sq, asked.n);
                if (best == null || score > bestScore) {
                    best = sq;
                    bestScore = score;
                }
            }
        }
        if (best == null) return;
        tried.add(squareName(best));
        String line = "{\"type\":\"move\",\"move\":\"" + squareName(best) + "\"";
        if (turnId != null) line += ",\"turn_id\":" + turnId.longValue();
        send(line + "}");
    }

    // ---------------------------------------------------------------------------------------
    // Rock'n'Roll Robot (hello.game "robots"): protocol/games/robots.md and SPEC.md section 13.
    // At start the bot searches for a solution, declares its length, then passes (it will not
    // declare again), and answers prove with the moves.
    // ---------------------------------------------------------------------------------------

    static final class RobotsPlayer {
        static final double THINK_SHARE = 0.5; // the search may run this share of hello.options.hourglass_ms
        static final int MAX_NODES = 4_000_000; // positions kept in memory, at most
        static final int SIZE = 16;
        static final String[] DIRS = {"up", "down", "left", "right"};
        static final int[] STEP = {SIZE, -SIZE, -1, 1};
        static final char[] SIDE = {'N', 'S', 'W', 'E'};
        /** How a diagonal wall turns a robot entering its cell: [kind: 0 '/', 1 '\'][direction]. */
        static final int[][] TURN = {{3, 2, 1, 0}, {2, 3, 0, 1}};

        final boolean solo; // alone, a declaration is verified at once: no pass after it
        final long thinkMs; // how long the search may run per token
        final int[] walls = new int[SIZE * SIZE];
        final int[] diagonal = new int[SIZE * SIZE];
        final String[] diagonalColour = new String[SIZE * SIZE];
        String[] names;
        List<String> solution = new ArrayList<>(); // "robot dir" steps

        RobotsPlayer(Object options) {
            this.solo = Json.num(options, "players", 0) == 1;
            // Another seat may turn the hourglass at once: declare well before it can run out.
            double hourglass = Json.num(options, "hourglass_ms", 60000);
            this.thinkMs = (long) (hourglass * THINK_SHARE);
        }

        /** "a1" -> 0, "b1" -> 1, ... (rank index * 16 + file index). */
        static int cell(String name) {
            return (Integer.parseInt(name.substring(1)) - 1) * SIZE + (name.charAt(0) - 'a');
        }

        /**
         * Where robot r stops moving dir from cells, or -1 when the move is not legal (it
         * changes nothing, or goes round through diagonal walls forever).
         */
        int slide(int[] cells, int r, int dir) {
            int at = cells[r], start = at;
            Set<Integer> seen = new HashSet<>();
            for (;;) {
                if ((walls[at] & (1 << dir)) != 0) break; // a wall (the edge and the centre count)
                int next = at + STEP[dir];
                boolean blocked = false;
                for (int i = 0; i < cells.length; i++) blocked |= i != r && cells[i] == next;
                if (blocked) break; // stop before another robot
                if (!seen.add(next * 4 + dir)) return -1; // round forever
                at = next;
                if (diagonal[at] >= 0 && !names[r].equals(diagonalColour[at])) { // black: every one
                    dir = TURN[diagonal[at]][dir];
                }
            }
            return at == start ? -1 : at;
        }

        /**
         * Breadth-first search over the positions of all robots for a shortest solution: moves
         * after which a robot the token accepts stands on the target, having moved at least
         * twice (the bounce rule). Empty if the time or memory runs out first.
         */
        List<String> solve(int[] start, int[] goal, int target, long deadline) {
            // A node: the cells (8 bits each) and each goal robot's moves up to 2 (2 bits each).
            List<Long> keys = new ArrayList<>();
            List<Integer> parents = new ArrayList<>();
            List<Integer> moves = new ArrayList<>();
            Set<Long> seen = new HashSet<>();
            int[] counts = new int[goal.length];
            keys.add(pack(start, counts));
            parents.add(-1);
            moves.add(0);
            seen.add(keys.get(0));
            int[] cells = new int[start.length];
            int begin = 0, end = 1;
            for (int depth = 0; depth < 40 && begin < end; depth++) {
                // The last move of a shortest solution is one of a goal robot's: try those first.
                for (int i = begin; i < end; i++) {
                    unpack(keys.get(i), cells, counts);
                    for (int g = 0; g < goal.length; g++) {
                        if (counts[g] < 1) continue; // it would have moved once only
                        for (int d = 0; d < 4; d++) {
                            if (slide(cells, goal[g], d) == target) {
                                List<String> path = new ArrayList<>();
                                path.add(names[goal[g]] + " " + DIRS[d]);
                                for (int n = i; parents.get(n) >= 0; n = parents.get(n)) {
                                    path.add(0, names[moves.get(n) / 4] + " " + DIRS[moves.get(n) % 4]);
                                }
                                return path;
                            }
                        }
                    }
                }
                // Otherwise, every position one move further.
                int[] next = new int[goal.length];
                for (int i = begin; i < end; i++) {
                    if (i % 1024 == 0 && System.currentTimeMillis() > deadline) return new ArrayList<>();
                    unpack(keys.get(i), cells, counts);
                    for (int r = 0; r < cells.length; r++) {
                        for (int d = 0; d < 4; d++) {
                            int stop = slide(cells, r, d);
                            if (stop < 0) continue;
                            int was = cells[r];
                            cells[r] = stop;
                            for (int g = 0; g < goal.length; g++) {
                                next[g] = Math.min(counts[g] + (goal[g] == r ? 1 : 0), 2);
                            }
                            long key = pack(cells, next);
                            cells[r] = was;
                            if (!seen.add(key)) continue;
                            if (keys.size() >= MAX_NODES) return new ArrayList<>();
                            keys.add(key);
                            parents.add(i);
                            moves.add(r * 4 + d);
                        }
                    }
                }
                begin = end;
                end = keys.size();
            }
            return new ArrayList<>();
        }

        static long pack(int[] cells, int[] counts) {
            long k = 0;
            for (int c : cells) k = k << 8 | c;
            for (int n : counts) k = k << 2 | n;
            return k;
        }

        static void unpack(long k, int[] cells, int[] counts) {
            for (int g = counts.length - 1; g >= 0; g--, k >>= 2) counts[g] = (int) (k & 3);
            for (int i = cells.length - 1; i >= 0; i--, k >>= 8) cells[i] = (int) (k & 255);
        }

        void start(Object msg) {
            Map<String, Object> state = Json.obj(msg, "state");
            Map<String, Object> board = Json.obj(state, "board");
            java.util.Arrays.fill(walls, 0);
            java.util.Arrays.fill(diagonal, -1);
            for (Map.Entry<String, Object> w : Json.obj(board, "walls").entrySet()) {
                String sides = (String) w.getValue();
                for (int d = 0; d < 4; d++) {
                    if (sides.indexOf(SIDE[d]) >= 0) walls[cell(w.getKey())] |= 1 << d;
                }
            }
            List<Object> diagonals = Json.list(board, "diagonals");
            if (diagonals != null) {
                for (Object d : diagonals) {
                    int c = cell(Json.str(d, "cell", "a1"));
                    diagonal[c] = "/".equals(Json.str(d, "kind", "/")) ? 0 : 1;
                    diagonalColour[c] = Json.str(d, "colour", "");
                }
            }
            Map<String, Object> robots = Json.obj(state, "robots");
            names = robots.keySet().toArray(new String[0]);
            int[] cells = new int[names.length];
            String token = Json.str(state, "token", "");
            List<Integer> goal = new ArrayList<>();
            for (int i = 0; i < names.length; i++) {
                cells[i] = cell((String) robots.get(names[i]));
                if (token.equals("vortex") || token.startsWith(names[i] + "-")) goal.add(i);
            }
            int[] goals = goal.stream().mapToInt(Integer::intValue).toArray();
            String target = Json.str(state, "target", "a1");
            // STRATEGY: a better search (or declaring early and lowering later) goes here.
            solution = solve(cells, goals, cell(target), System.currentTimeMillis() + thinkMs);
            log("round " + (long) Json.num(msg, "round", 0) + ": " + token + " at " + target + ": "
                    + solution.size() + " moves (0: none found)");
            if (!solution.isEmpty()) send("{\"type\":\"declare\",\"moves\":" + solution.size() + "}");
            if (solution.isEmpty() || !solo) send("{\"type\":\"pass\"}"); // done declaring
        }

        void prove(Object msg) {
            StringBuilder line = new StringBuilder("{\"type\":\"solution\",\"moves\":[");
            for (int i = 0; i < solution.size(); i++) {
                String[] step = solution.get(i).split(" ");
                if (i > 0) line.append(',');
                line.append("{\"robot\":\"").append(step[0]).append("\",\"dir\":\"").append(step[1]).append("\"}");
            }
            send(line + "],\"turn_id\":" + (long) Json.num(msg, "turn_id", 0) + "}");
        }
    }

    // ---------------------------------------------------------------------------------------
    // Goofspiel (hello.game "goofspiel"): protocol/games/goofspiel.md. Every turn is a sealed
    // bid for the prize on show, answered with one card of the hand.
    // ---------------------------------------------------------------------------------------

    /**
     * Bid the card that stands among my cards where the prize stands among the prizes still to
     * be won: the top card for the top prize, the lowest card for the lowest, so the high cards
     * are kept for the high prizes. (At the start the hand and the prizes are both 1 to N, so
     * this bids the prize's own value.)
     */
    static String goofspielChoose(Map<String, Object> state, List<String> legal) {
        // STRATEGY: the place for your Goofspiel play: state.history has every bid so far.
        double prize = Json.num(state, "prize", 0);
        List<Double> prizes = new ArrayList<>(List.of(prize));
        for (Object p : Json.list(state, "prizes_left")) prizes.add((Double) p);
        Collections.sort(prizes);
        List<String> hand = new ArrayList<>(legal);
        hand.sort(Comparator.comparingInt(Integer::parseInt));
        int rank = prizes.indexOf(prize); // 0 for the lowest prize still to be won
        return hand.get(rank * hand.size() / prizes.size());
    }

    // ---------------------------------------------------------------------------------------
    // Rollerball (hello.game "rollerball"): protocol/games/rollerball.md. A ball that enters a
    // player's base earns that player a card, which this bot always lays as a victory point (five
    // win). So the bot puts its base on the track the fewest other bases share, and then every
    // diversion card it lays leads balls towards that track; the workman waits on its own base,
    // where no ball can hit it, and walks out to build such a card while a ball rolls on another
    // track.
    // ---------------------------------------------------------------------------------------

    /** A Move card sends every ball leaving s1 across to s2. */
    static final List<String> MOVES = List.of("DM", "UM");
    /** A Splitter sends a new ball across to s2, the ball goes on. */
    static final List<String> SPLITTERS = List.of("SD", "SU");

    /** 1 (outer), 2 or 3 (inner): the track {@code square} belongs to (state.tracks lists them). */
    static int trackOf(Map<String, Object> state, String square) {
        List<Object> tracks = Json.list(state, "tracks");
        for (int t = 0; t < tracks.size(); t++) {
            if (((List<?>) tracks.get(t)).contains(square)) return t + 1;
        }
        return 0;
    }

    /**
     * How many tracks closer to mine (the track of my base) a card on s1-s2 brings the balls
     * it diverts: positive for a card that leads balls to my base, negative for one that leads
     * them away. A Splitter never takes a ball away (the ball goes on, a new one crosses).
     */
    static int cardGain(Map<String, Object> state, int mine, String code, String s1, String s2) {
        int gain = Math.abs(trackOf(state, s1) - mine) - Math.abs(trackOf(state, s2) - mine);
        if (MOVES.contains(code)) return gain;
        if (SPLITTERS.contains(code)) return Math.max(gain, 0);
        return 0; // a ball changer diverts nothing
    }

    /** Squares a ball on {@code square} rolls along its track to reach {@code target} (99: never). */
    static int distanceTo(Map<String, Object> state, String square, String target) {
        for (Object track : Json.list(state, "tracks")) {
            List<?> squares = (List<?>) track;
            if (squares.contains(square) && squares.contains(target)) {
                return (squares.indexOf(target) - squares.indexOf(square) + squares.size()) % squares.size();
            }
        }
        return 99;
    }

    /** The first of {@code moves} with the lowest {@code key} (moves in the order of legal). */
    static String firstLowest(List<String> moves, ToIntFunction<String> key) {
        String best = moves.get(0);
        for (String move : moves) {
            if (key.applyAsInt(move) < key.applyAsInt(best)) best = move;
        }
        return best;
    }

    /** The square (or the card) a move names after its first word: "base a1" gives "a1". */
    static String square(String move) {
        String[] words = move.split(" ");
        return words.length > 1 ? words[1] : "";
    }

    /** No card ever covers a corner. */
    static final List<String> CORNERS =
            List.of("a1", "h1", "b2", "g2", "c3", "f3", "c6", "f6", "b7", "g7", "a8", "h8");

    /** The squares orthogonally next to {@code square}. */
    static List<String> neighbours(String square) {
        List<String> out = new ArrayList<>();
        int file = square.charAt(0), rank = Integer.parseInt(square.substring(1));
        for (int[] step : new int[][] {{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
            int f = file + step[0], r = rank + step[1];
            if (f >= 'a' && f <= 'h' && r >= 1 && r <= 8) out.add((char) f + Integer.toString(r));
        }
        return out;
    }

    /**
     * The most a Move or Splitter card of my hand would gain (cardGain) built on a slot that
     * includes {@code square}, 0 if none: a slot of a track changer is two orthogonally adjacent
     * squares of adjacent tracks, neither a corner, and a build needs both free of balls, cards,
     * bases and the other players' workmen.
     */
    static int buildGain(Map<String, Object> state, int mine, String square) {
        List<Object> players = Json.list(state, "players");
        Object me = players.get((int) Json.num(state, "seat", 0));
        Set<Object> blocked = new HashSet<>(CORNERS);
        for (Object ball : Json.list(state, "balls")) blocked.add(Json.get(ball, "at"));
        for (Object card : Json.list(state, "cards")) blocked.addAll(Json.list(card, "at"));
        for (Object p : players) {
            blocked.add(Json.get(p, "base"));
            if (p != me) blocked.add(Json.get(p, "workman"));
        }
        int best = 0;
        for (String other : neighbours(square)) {
            boolean swap = trackOf(state, other) < trackOf(state, square);
            String outer = swap ? other : square, inner = swap ? square : other;
            if (blocked.contains(square) || blocked.contains(other)) continue;
            if (trackOf(state, inner) != trackOf(state, outer) + 1) continue; // or the logo
            for (Object card : Json.list(state, "hand")) {
                String code = (String) card;
                // DM and SD lie from the outer square to the inner one, UM and SU the other way.
                boolean down = code.equals("DM") || code.equals("SD");
                String s1 = down ? outer : inner, s2 = down ? inner : outer;
                best = Math.max(best, cardGain(state, mine, code, s1, s2));
            }
        }
        return best;
    }

    /**
     * One decision of Rollerball: state.phase names it (the rules' section "Decisions and
     * notation" lists each phase's moves).
     */
    static String rollerballChoose(Map<String, Object> state, List<String> legal) {
        // STRATEGY: the place for your Rollerball play; each phase below is a simple rule.
        String phase = Json.str(state, "phase", "");
        List<Object> players = Json.list(state, "players");
        Object me = players.get((int) Json.num(state, "seat", 0));
        String base = Json.str(me, "base", null); // null before it is placed
        if (phase.equals("base")) {
            // The base track (1 or 2) the fewest other bases stand on, the shorter one (2) on a
            // tie: a ball on it comes back to my base every 10 turns.
            return firstLowest(legal, m -> {
                int track = trackOf(state, square(m));
                int crowding = -track;
                for (Object p : players) {
                    String other = Json.str(p, "base", null);
                    if (other != null && trackOf(state, other) == track) crowding += 10;
                }
                return crowding;
            });
        }
        int mine = base == null ? 0 : trackOf(state, base);
        // On a base square no ball can hit the workman.
        if (phase.equals("workman") && legal.contains("workman " + base)) return "workman " + base;
        if (phase.equals("ball")) {
            // As near before my base as the rules allow: it scores in the first turn.
            return firstLowest(legal, m -> distanceTo(state, square(m), base));
        }
        if (phase.equals("reward")) {
            // Always a victory point: from the deck (vp), else a card off the board, the one
            // that leads balls away from my base first.
            if (legal.contains("vp")) return "vp";
            List<String> takes = new ArrayList<>();
            for (String m : legal) {
                if (m.endsWith(" vp")) takes.add(m);
            }
            if (takes.isEmpty()) return legal.get(0);
            return firstLowest(takes, m -> {
                for (Object card : Json.list(state, "cards")) {
                    List<Object> at = Json.list(card, "at");
                    if (at.contains(square(m))) {
                        String code = Json.str(card, "card", "");
                        return cardGain(state, mine, code, (String) at.get(0), (String) at.get(1));
                    }
                }
                return 0;
            });
        }
        if (phase.equals("card") || phase.equals("use")) {
            // The card that brings balls nearest my track (pass or none if none brings any).
            String best = legal.get(0);
            int bestGain = 0;
            for (String move : legal) {
                String[] words = move.split(" ");
                if (!words[0].equals("place") && !words[0].equals("build")) continue;
                int gain = cardGain(state, mine, words[1], words[2], words[3]);
                if (gain > bestGain) {
                    best = move;
                    bestGain = gain;
                }
            }
            return best;
        }
        if (phase.equals("discard")) {
            // A card that diverts nothing first (ball changers, Replacers), then any.
            for (String m : legal) {
                if (!MOVES.contains(square(m)) && !SPLITTERS.contains(square(m))) return m;
            }
        }
        if (phase.equals("move")) {
            // Away from home, back home. At home, stay while every ball rolls on my track; else
            // walk to the square from which a card of my hand would bring balls nearest (the use
            // decision then builds it), or stay if none would.
            if (!Json.str(me, "workman", "").equals(base)) {
                String home = "move " + base;
                return legal.contains(home) ? home : legal.get(0);
            }
            boolean allMine = true;
            for (Object ball : Json.list(state, "balls")) {
                if (trackOf(state, Json.str(ball, "at", "")) != mine) allMine = false;
            }
            if (allMine) return legal.get(0);
            String best = legal.get(0);
            int bestGain = 0;
            for (String move : legal) {
                String[] words = move.split(" ");
                if (words[0].equals("move") && buildGain(state, mine, words[1]) > bestGain) {
                    best = move;
                    bestGain = buildGain(state, mine, words[1]);
                }
            }
            return best;
        }
        // "bid": nothing; "extra" (5 and 6 players): stay; anything else: the first.
        return legal.get(0);
    }

    // ---------------------------------------------------------------------------------------
    // Any game whose every decision is a turn with a legal list (Goofspiel, Rollerball, ...).
    // ---------------------------------------------------------------------------------------

    static final class AnyGamePlayer {
        final String game;
        Object turn;
        List<String> untried = new ArrayList<>();

        AnyGamePlayer(String game) {
            this.game = game;
        }

        /**
         * The game's strategy above, given the legal moves not tried yet; in a game the kit does
         * not know, the first of them.
         */
        String choose(Map<String, Object> state, List<String> legal) {
            if (game.equals("goofspiel")) return goofspielChoose(state, legal);
            if (game.equals("rollerball")) return rollerballChoose(state, legal);
            return legal.get(0);
        }

        void turn(Object msg) {
            turn = msg;
            untried = new ArrayList<>();
            List<Object> legal = Json.list(msg, "legal");
            for (Object m : legal == null ? List.of() : legal) untried.add(String.valueOf(m));
            answer();
        }

        void illegal(Object msg) {
            log("refused: " + Json.str(msg, "reason", ""));
            answer();
        }

        void answer() {
            if (untried.isEmpty()) {
                log("no legal move left to send");
                return;
            }
            String move = choose(Json.obj(turn, "state"), untried);
            untried.remove(move); // if it is refused, the next answer is another one
            send("{\"type\":\"move\",\"move\":" + Json.write(move) + ",\"turn_id\":"
                    + (long) Json.num(turn, "turn_id", 0) + "}");
        }
    }

    public static void main(String[] args) throws IOException {
        RolitBot bot = new RolitBot();
        RobotsPlayer robots = new RobotsPlayer(false);
        AnyGamePlayer any = new AnyGamePlayer("");
        String game = "";
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        // readLine returns one whole line, however long; null when stdin closes.
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            Object msg;
            try {
                msg = Json.parse(line);
            } catch (Json.Error e) {
                log("not a message: " + e.getMessage());
                continue;
            }
            String type = Json.str(msg, "type", "");
            if (type.equals("bye")) return;
            if (type.equals("hello")) {
                game = Json.str(msg, "game", "");
                robots = new RobotsPlayer(Json.obj(msg, "options"));
                any = new AnyGamePlayer(game);
                hello(msg);
                if (game.equals("robots")) {
                    log("robots: searching at most " + robots.thinkMs + " ms a token (hourglass "
                            + (long) Json.num(Json.obj(msg, "options"), "hourglass_ms", 60000) + " ms)");
                }
                continue;
            }
            if (game.equals("robots")) {
                if (type.equals("start")) robots.start(msg);
                else if (type.equals("prove")) robots.prove(msg);
                continue; // declared, passed, verified, end: nothing to answer
            }
            if (!game.equals("rolit")) {
                if (type.equals("turn")) any.turn(msg);
                else if (type.equals("illegal")) any.illegal(msg);
                continue;
            }
            switch (type) {
                case "start": bot.start(msg); break;
                case "turn": bot.turn(msg); break;
                case "illegal": bot.illegal(msg); break;
                case "played": bot.played(msg); break;
                case "end": log("round " + (long) Json.num(msg, "round", 0) + " over"); break;
                case "bye": return;
                default: break; // types this bot does not know are skipped
            }
        }
    }
}
