import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Rolit bot for rollarena: the Java starter kit.
 *
 * <p>It reads one JSON message per line on stdin and answers on stdout, one JSON message per
 * line, flushed at once. It keeps the state it is sent (the board from {@code start} and {@code
 * turn}, updated by {@code played}), plays the move that turns the most balls weighted by the
 * tactical value of the square, and logs to stderr (stdout belongs to the arbiter).
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

    void hello(Object msg) {
        Map<String, Object> o = Json.obj(msg, "options");
        log(String.format("hello: seat %.0f of %.0f, %.0fx%.0f, %.0f ms a move",
                Json.num(msg, "seat", -1), Json.num(o, "players", 0), Json.num(o, "size", 0),
                Json.num(o, "size", 0), Json.num(msg, "move_ms", 0)));
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

    public static void main(String[] args) throws IOException {
        RolitBot bot = new RolitBot();
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
            switch (Json.str(msg, "type", "")) {
                case "hello": bot.hello(msg); break;
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
