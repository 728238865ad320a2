/*
 * A bot for every rollarena game: the C starter kit.
 *
 * It reads one JSON message per line on stdin and answers on stdout, one JSON message per
 * line, flushed at once, and logs to stderr (stdout belongs to the arbiter). It plays the game
 * `hello.game` names:
 * - "rolit": it keeps the board it is sent (from `start` and `turn`, updated by `played`) and
 *   plays the move that turns the most balls weighted by the tactical value of the square;
 * - "robots" (Rock'n'Roll Robot): at `start` it searches breadth-first for a shortest
 *   solution, declares it, passes, and shows the moves when asked to `prove`;
 * - "goofspiel": it bids the card that ranks in its hand where the prize ranks among the
 *   prizes left (goofspiel_choose);
 * - "rollerball": its base on the track the fewest other bases share, every card it lays
 *   leading balls to that track, every reward laid as a victory point (rollerball_choose);
 * - any other game: it answers each `turn` with the first move of its `legal` list.
 *
 * Build: gcc -O2 -o bot bot.c
 * Check: rollarena check ./bot        (add --game GAME: robots, goofspiel, rollerball)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json.h"

#define NAME "starter-c"
#define VERSION "1.0"
#define MAX 8

/* The five tactical levels of the rules, as a bonus for taking a square. */
enum { VERY_STRONG = 30, STRONG = 6, MEDIUM = 1, WEAK = -6, VERY_WEAK = -15 };

static const int DIRECTIONS[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1},
                                     {0, 1},   {1, -1}, {1, 0},  {1, 1}};

/* A board: cells[rank][file], a1 = [0][0], '.' for empty. */
typedef struct {
    int n;
    char cells[MAX][MAX];
} Board;

typedef struct {
    int file, rank;
} Square;

/* What the bot remembers of the match. */
static struct {
    Board board;   /* the board as last seen (start, turn), updated by played */
    Board asked;   /* the board of the last turn */
    char me;       /* the letter of the colour to move in the last turn */
    Square moves[MAX * MAX];
    int count;     /* legal moves of the last turn */
    int tried[MAX * MAX];
    long long turn_id; /* of the last turn; -1 if none was given */
} bot;

/* Everything that is not a protocol message goes to stderr. */
static void logf_(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* One JSON object per line, then flush: stdout is a pipe, and pipes are fully buffered. */
static void send_line(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

static char letter_of(const char *colour) {
    if (!colour) return 0;
    if (!strcmp(colour, "red")) return 'R';
    if (!strcmp(colour, "yellow")) return 'Y';
    if (!strcmp(colour, "green")) return 'G';
    if (!strcmp(colour, "blue")) return 'B';
    return 0;
}

static int parse_square(const char *name, Square *sq) {
    if (!name || name[0] < 'a' || name[0] > 'h') return 0;
    sq->file = name[0] - 'a';
    sq->rank = atoi(name + 1) - 1;
    return sq->rank >= 0 && sq->rank < MAX;
}

/* Reads a state's board: rows from the highest rank down. */
static int read_board(const jvalue *state, Board *b) {
    jvalue *rows = json_get(state, "board");
    if (!rows || rows->type != J_ARRAY) return 0;
    int n = 0;
    for (jvalue *r = rows->child; r; r = r->next) n++;
    if (n < 4 || n > MAX) return 0;
    b->n = n;
    int i = 0;
    for (jvalue *r = rows->child; r; r = r->next, i++) {
        if (r->type != J_STRING || (int)strlen(r->string) != n) return 0;
        for (int f = 0; f < n; f++) b->cells[n - 1 - i][f] = r->string[f];
    }
    return 1;
}

static int inside(const Board *b, int f, int r) {
    return f >= 0 && f < b->n && r >= 0 && r < b->n;
}

/* How many balls a ball of `me` on sq would turn. */
static int flips(const Board *b, Square sq, char me) {
    int total = 0;
    for (int d = 0; d < 8; d++) {
        int f = sq.file + DIRECTIONS[d][0], r = sq.rank + DIRECTIONS[d][1], run = 0;
        while (inside(b, f, r) && b->cells[r][f] != '.' && b->cells[r][f] != me) {
            f += DIRECTIONS[d][0];
            r += DIRECTIONS[d][1];
            run++;
        }
        if (run > 0 && inside(b, f, r) && b->cells[r][f] == me) total += run;
    }
    return total;
}

/* Empty squares touching a ball; only the capturing ones if any capture. */
static int legal_moves(const Board *b, char me, Square *out) {
    int count = 0, captures = 0;
    for (int r = 0; r < b->n; r++)
        for (int f = 0; f < b->n; f++) {
            if (b->cells[r][f] != '.') continue;
            int touches = 0;
            for (int d = 0; d < 8 && !touches; d++) {
                int x = f + DIRECTIONS[d][0], y = r + DIRECTIONS[d][1];
                touches = inside(b, x, y) && b->cells[y][x] != '.';
            }
            if (!touches) continue;
            Square sq = {f, r};
            if (flips(b, sq, me) > 0) {
                if (!captures) count = 0; /* the first capture: drop the quiet moves */
                captures = 1;
                out[count++] = sq;
            } else if (!captures) {
                out[count++] = sq;
            }
        }
    return count;
}

/* The tactical value of a square: corners, edges, and the squares next to corners. */
static int level(int file, int rank, int n) {
    int last = n - 1;
    int edge_f = file == 0 || file == last, edge_r = rank == 0 || rank == last;
    int near_f = file == 1 || file == last - 1, near_r = rank == 1 || rank == last - 1;
    if (edge_f && edge_r) return VERY_STRONG;
    if (edge_f) return near_r ? WEAK : STRONG;
    if (edge_r) return near_f ? WEAK : STRONG;
    return near_f && near_r ? VERY_WEAK : MEDIUM;
}

/* The untried move (any, if all were tried) that turns the most balls, weighted. */
static int choose(void) {
    int best = -1, best_score = 0;
    for (int pass = 0; pass < 2 && best < 0; pass++)
        for (int i = 0; i < bot.count; i++) {
            if (pass == 0 && bot.tried[i]) continue;
            int score = 2 * flips(&bot.asked, bot.moves[i], bot.me) +
                        level(bot.moves[i].file, bot.moves[i].rank, bot.asked.n);
            if (best < 0 || score > best_score) {
                best = i;
                best_score = score;
            }
        }
    return best;
}

static void answer(void) {
    int i = choose();
    if (i < 0) return;
    bot.tried[i] = 1;
    char name[16];
    snprintf(name, sizeof name, "%c%d", 'a' + bot.moves[i].file, bot.moves[i].rank + 1);
    if (bot.turn_id >= 0)
        send_line("{\"type\":\"move\",\"move\":\"%s\",\"turn_id\":%lld}", name, bot.turn_id);
    else
        send_line("{\"type\":\"move\",\"move\":\"%s\"}", name);
}

/* The games this bot tells apart. */
enum { ROLIT, ROBOTS, ANY } game;

/* ------------------------------------------------------------------------------------------
 * Rock'n'Roll Robot (`hello.game` "robots"): protocol/games/robots.md and SPEC.md section 13.
 * At `start` the bot searches for a solution, declares its length, then passes (it will not
 * declare again), and answers `prove` with the moves.
 * ------------------------------------------------------------------------------------------ */

#define THINK_SHARE 0.5      /* the search may run this share of hello.options.hourglass_ms */
#define MAX_NODES 4000000    /* positions kept in memory, at most */
#define SIZE 16
#define ROBOTS 5
#define HASH_BITS 23

enum { UP, DOWN, LEFT, RIGHT };
static const char *DIR_NAMES[4] = {"up", "down", "left", "right"};
static const char *ROBOT_NAMES[ROBOTS] = {"black", "blue", "green", "red", "yellow"};
static const int STEP_X[4] = {0, 0, -1, 1}, STEP_Y[4] = {1, -1, 0, 0};
static const char SIDE[4] = {'N', 'S', 'W', 'E'};
/* How a diagonal wall turns a robot entering its cell: [kind: 0 '/', 1 '\'][direction]. */
static const int TURN[2][4] = {{RIGHT, LEFT, DOWN, UP}, {LEFT, RIGHT, UP, DOWN}};

static struct {
    int size;
    int walls[SIZE * SIZE][4];    /* 1 where the side (by direction) is closed */
    int diagonal[SIZE * SIZE];    /* -1, or 0 '/', 1 '\' */
    int diag_colour[SIZE * SIZE]; /* the robot index of the diagonal's colour */
    int count;                    /* robots in play */
    int robot[ROBOTS];            /* indexes into ROBOT_NAMES of the robots in play */
    int cells[ROBOTS];            /* where they stand */
    int goal[ROBOTS], goals;      /* the robots (in play) the token accepts */
    int target;
    int solo;
    double think_ms;              /* how long the search may run per token */
    int solution[64][2], length;  /* robot (in play), direction; length 0: none */
} rr;

static int cell_index(const char *name) {
    if (!name || name[0] < 'a' || name[0] >= 'a' + SIZE) return -1;
    int rank = atoi(name + 1);
    return rank < 1 || rank > SIZE ? -1 : (rank - 1) * SIZE + (name[0] - 'a');
}

static int robot_index(const char *name) {
    for (int i = 0; i < ROBOTS; i++)
        if (name && !strncmp(name, ROBOT_NAMES[i], strlen(ROBOT_NAMES[i]))) return i;
    return -1;
}

/* Where robot r (in play) stops moving `dir` from `cells`, or -1 when the move is not legal
 * (it changes nothing, or goes round through diagonal walls forever). */
static int slide(const int *cells, int r, int dir) {
    static unsigned char seen[SIZE * SIZE];
    memset(seen, 0, sizeof seen);
    int at = cells[r], start = at;
    for (;;) {
        if (rr.walls[at][dir]) break; /* a wall (the edge and the centre count) */
        int next = at + STEP_X[dir] + STEP_Y[dir] * SIZE;
        int blocked = 0;
        for (int i = 0; i < rr.count; i++)
            if (i != r && cells[i] == next) blocked = 1;
        if (blocked) break; /* stop before another robot */
        if (seen[next] & (1 << dir)) return -1; /* round forever */
        seen[next] |= 1 << dir;
        at = next;
        if (rr.diagonal[at] >= 0 && rr.diag_colour[at] != rr.robot[r]) /* black: every one */
            dir = TURN[rr.diagonal[at]][dir];
    }
    return at == start ? -1 : at;
}

/* A search node: the robots' cells and each goal robot's moves (up to 2), packed. */
typedef struct {
    unsigned long long key;
    int parent;
    unsigned char move; /* robot * 4 + direction */
} Node;

static Node *nodes;
static unsigned long long *table; /* open addressing; 0 is empty, keys are stored + 1 */

static unsigned long long pack(const int *cells, const int *counts) {
    unsigned long long k = 0;
    for (int i = 0; i < rr.count; i++) k = k << 8 | (unsigned)cells[i];
    for (int g = 0; g < rr.goals; g++) k = k << 2 | (unsigned)counts[g];
    return k;
}

static void unpack(unsigned long long k, int *cells, int *counts) {
    for (int g = rr.goals - 1; g >= 0; g--, k >>= 2) counts[g] = (int)(k & 3);
    for (int i = rr.count - 1; i >= 0; i--, k >>= 8) cells[i] = (int)(k & 255);
}

/* Adds the key; 0 if it was there already. */
static int insert(unsigned long long key) {
    unsigned long long mask = (1ULL << HASH_BITS) - 1, h = (key * 0x9E3779B97F4A7C15ULL) >> 20;
    for (h &= mask; table[h]; h = (h + 1) & mask)
        if (table[h] == key + 1) return 0;
    table[h] = key + 1;
    return 1;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static void keep_path(int node, int robot, int dir) {
    int n = 0;
    for (int i = node; nodes[i].parent >= 0; i = nodes[i].parent) n++;
    rr.length = n + 1;
    rr.solution[n][0] = robot;
    rr.solution[n][1] = dir;
    for (int i = node; nodes[i].parent >= 0; i = nodes[i].parent) {
        n--;
        rr.solution[n][0] = nodes[i].move / 4;
        rr.solution[n][1] = nodes[i].move % 4;
    }
}

/* Breadth-first search over the positions of all robots for a shortest solution: moves after
 * which a robot the token accepts stands on the target, having moved at least twice (the
 * bounce rule). Leaves rr.length 0 if the time or memory runs out first. */
static void solve_robots(double deadline) {
    if (!nodes) nodes = malloc(sizeof(Node) * MAX_NODES);
    if (!table) table = malloc(sizeof(unsigned long long) << HASH_BITS);
    if (!nodes || !table) return;
    memset(table, 0, sizeof(unsigned long long) << HASH_BITS);
    int counts[ROBOTS] = {0}, cells[ROBOTS], next_counts[ROBOTS];
    nodes[0].key = pack(rr.cells, counts);
    nodes[0].parent = -1;
    insert(nodes[0].key);
    int begin = 0, end = 1, used = 1;
    rr.length = 0;
    for (int depth = 0; depth < 63 && begin < end; depth++) {
        /* The last move of a shortest solution is one of a goal robot's: try those first. */
        for (int i = begin; i < end; i++) {
            unpack(nodes[i].key, cells, counts);
            for (int g = 0; g < rr.goals; g++) {
                if (counts[g] < 1) continue; /* it would have moved once only */
                for (int d = 0; d < 4; d++)
                    if (slide(cells, rr.goal[g], d) == rr.target) {
                        keep_path(i, rr.goal[g], d);
                        return;
                    }
            }
        }
        /* Otherwise, every position one move further. */
        for (int i = begin; i < end; i++) {
            if ((i & 1023) == 0 && now_ms() > deadline) return;
            unpack(nodes[i].key, cells, counts);
            for (int r = 0; r < rr.count; r++)
                for (int d = 0; d < 4; d++) {
                    int stop = slide(cells, r, d);
                    if (stop < 0) continue;
                    int was = cells[r];
                    cells[r] = stop;
                    for (int g = 0; g < rr.goals; g++)
                        next_counts[g] = counts[g] + (rr.goal[g] == r && counts[g] < 2);
                    unsigned long long key = pack(cells, next_counts);
                    cells[r] = was;
                    if (!insert(key)) continue;
                    if (used == MAX_NODES) return;
                    nodes[used].key = key;
                    nodes[used].parent = i;
                    nodes[used].move = (unsigned char)(r * 4 + d);
                    used++;
                }
        }
        begin = end;
        end = used;
    }
}

static int read_robots_state(const jvalue *state) {
    const jvalue *board = json_get(state, "board");
    memset(&rr.walls, 0, sizeof rr.walls);
    for (int c = 0; c < SIZE * SIZE; c++) rr.diagonal[c] = -1;
    if (json_num(board, "size", 0) != SIZE) return 0;
    const jvalue *walls = json_get(board, "walls");
    for (jvalue *w = walls ? walls->child : NULL; w; w = w->next) {
        int c = cell_index(w->key);
        if (c < 0 || w->type != J_STRING) return 0;
        for (int d = 0; d < 4; d++) rr.walls[c][d] = strchr(w->string, SIDE[d]) != NULL;
    }
    const jvalue *diagonals = json_get(board, "diagonals");
    for (jvalue *d = diagonals ? diagonals->child : NULL; d; d = d->next) {
        int c = cell_index(json_str(d, "cell"));
        const char *kind = json_str(d, "kind");
        if (c < 0 || !kind) return 0;
        rr.diagonal[c] = kind[0] == '/' ? 0 : 1;
        rr.diag_colour[c] = robot_index(json_str(d, "colour"));
    }
    const jvalue *robots = json_get(state, "robots");
    const char *token = json_str(state, "token");
    rr.count = rr.goals = 0;
    for (int i = 0; i < ROBOTS; i++) { /* in the order of ROBOT_NAMES */
        int c = cell_index(json_str(robots, ROBOT_NAMES[i]));
        if (c < 0) continue;
        if (token && (!strcmp(token, "vortex") || robot_index(token) == i))
            rr.goal[rr.goals++] = rr.count;
        rr.robot[rr.count] = i;
        rr.cells[rr.count++] = c;
    }
    rr.target = cell_index(json_str(state, "target"));
    return rr.count > 0 && rr.goals > 0 && rr.target >= 0;
}

static void on_robots_start(const jvalue *msg) {
    const jvalue *state = json_get(msg, "state");
    rr.length = 0;
    if (!read_robots_state(state)) {
        logf_("cannot read the state");
    } else {
        /* STRATEGY: a better search (or declaring early and lowering later) goes here. */
        solve_robots(now_ms() + rr.think_ms);
    }
    logf_("round %.0f: %s at %s: %d moves (0: none found)", json_num(msg, "round", 0),
          json_str(state, "token"), json_str(state, "target"), rr.length);
    if (rr.length > 0) send_line("{\"type\":\"declare\",\"moves\":%d}", rr.length);
    if (rr.length == 0 || !rr.solo) send_line("{\"type\":\"pass\"}"); /* done declaring */
}

static void on_prove(const jvalue *msg) {
    printf("{\"type\":\"solution\",\"moves\":[");
    for (int i = 0; i < rr.length; i++)
        printf("%s{\"robot\":\"%s\",\"dir\":\"%s\"}", i ? "," : "",
               ROBOT_NAMES[rr.robot[rr.solution[i][0]]], DIR_NAMES[rr.solution[i][1]]);
    send_line("],\"turn_id\":%.0f}", json_num(msg, "turn_id", 0));
}

/* ------------------------------------------------------------------------------------------
 * Goofspiel (`hello.game` "goofspiel"): protocol/games/goofspiel.md. Every turn is a sealed bid
 * for the prize on show, answered with one card of the hand.
 * ------------------------------------------------------------------------------------------ */

/* Bid the card that stands among my cards where the prize stands among the prizes still to be
 * won: the top card for the top prize, the lowest card for the lowest, so the high cards are
 * kept for the high prizes. (At the start the hand and the prizes are both 1 to N, so this
 * bids the prize's own value.) `legal` holds the n cards of the hand. */
static const char *goofspiel_choose(const jvalue *state, const char **legal, int n) {
    /* STRATEGY: the place for your Goofspiel play: `state.history` has every bid so far. */
    double prize = json_num(state, "prize", 0);
    int prizes = 1, rank = 0; /* rank: 0 for the lowest prize still to be won */
    const jvalue *left = json_get(state, "prizes_left");
    for (const jvalue *p = left ? left->child : NULL; p; p = p->next, prizes++)
        if (p->number < prize) rank++;
    int wanted = rank * n / prizes; /* the card with `wanted` cards of the hand below it */
    for (int i = 0; i < n; i++) {
        int below = 0;
        for (int j = 0; j < n; j++) below += atoi(legal[j]) < atoi(legal[i]);
        if (below == wanted) return legal[i];
    }
    return legal[0];
}

/* ------------------------------------------------------------------------------------------
 * Rollerball (`hello.game` "rollerball"): protocol/games/rollerball.md. A ball that enters a
 * player's base earns that player a card, which this bot always lays as a victory point (five
 * win). So the bot puts its base on the track the fewest other bases share, and then every
 * diversion card it lays leads balls towards that track; the workman waits on its own base,
 * where no ball can hit it, and walks out to build such a card while a ball rolls on another
 * track.
 * ------------------------------------------------------------------------------------------ */

/* A Move card (DM, UM) sends every ball leaving s1 across to s2; a Splitter (SD, SU) sends a
 * new ball across to s2, the ball goes on. */
static int is_move_card(const char *code) { return !strcmp(code, "DM") || !strcmp(code, "UM"); }
static int is_splitter(const char *code) { return !strcmp(code, "SD") || !strcmp(code, "SU"); }

/* The position of `square` in a track's list of squares, or -1. */
static int index_in(const jvalue *squares, const char *square) {
    int i = 0;
    for (const jvalue *s = squares->child; s; s = s->next, i++)
        if (s->type == J_STRING && !strcmp(s->string, square)) return i;
    return -1;
}

/* 1 (outer), 2 or 3 (inner): the track `square` belongs to (`state.tracks` lists them). */
static int track_of(const jvalue *state, const char *square) {
    const jvalue *tracks = json_get(state, "tracks");
    int number = 1;
    for (const jvalue *t = tracks ? tracks->child : NULL; t; t = t->next, number++)
        if (index_in(t, square) >= 0) return number;
    return 0;
}

/* How many tracks closer to mine (the track of my base) a card on s1-s2 brings the balls it
 * diverts: positive for a card that leads balls to my base, negative for one that leads them
 * away. A Splitter never takes a ball away (the ball goes on, a new one crosses). */
static int card_gain(const jvalue *state, int mine, const char *code, const char *s1,
                     const char *s2) {
    int gain = abs(track_of(state, s1) - mine) - abs(track_of(state, s2) - mine);
    if (is_move_card(code)) return gain;
    if (is_splitter(code)) return gain > 0 ? gain : 0;
    return 0; /* a ball changer diverts nothing */
}

/* Squares a ball on `square` rolls along its track to reach `target` (99: never). */
static int distance_to(const jvalue *state, const char *square, const char *target) {
    const jvalue *tracks = json_get(state, "tracks");
    for (const jvalue *t = tracks ? tracks->child : NULL; t; t = t->next) {
        int from = index_in(t, square), to = index_in(t, target), length = 0;
        for (const jvalue *s = t->child; s; s = s->next) length++;
        if (from >= 0 && to >= 0) return (to - from + length) % length;
    }
    return 99;
}

/* A move's words: "place DM c8 c7" -> "place", "DM", "c8", "c7" (missing ones empty). */
typedef struct {
    char w[4][16];
} Words;

static Words words_of(const char *move) {
    Words words;
    memset(&words, 0, sizeof words);
    sscanf(move, "%15s %15s %15s %15s", words.w[0], words.w[1], words.w[2], words.w[3]);
    return words;
}

/* Whether `square` is a corner (no card ever covers one). */
static int is_corner(const char *square) {
    static const char *const CORNERS[] = {"a1", "h1", "b2", "g2", "c3", "f3",
                                          "c6", "f6", "b7", "g7", "a8", "h8"};
    for (int i = 0; i < 12; i++)
        if (!strcmp(square, CORNERS[i])) return 1;
    return 0;
}

/* Whether a build may not use `square`: a corner, or a square holding a ball, a card, a base
 * or another player's workman. */
static int blocked(const jvalue *state, const char *square) {
    if (is_corner(square)) return 1;
    const jvalue *balls = json_get(state, "balls"), *cards = json_get(state, "cards");
    for (const jvalue *b = balls ? balls->child : NULL; b; b = b->next)
        if (json_str(b, "at") && !strcmp(json_str(b, "at"), square)) return 1;
    for (const jvalue *c = cards ? cards->child : NULL; c; c = c->next)
        if (index_in(json_get(c, "at"), square) >= 0) return 1;
    const jvalue *players = json_get(state, "players");
    int seat = 0, mine = (int)json_num(state, "seat", 0);
    for (const jvalue *p = players ? players->child : NULL; p; p = p->next, seat++) {
        const char *base = json_str(p, "base"), *workman = json_str(p, "workman");
        if (base && !strcmp(base, square)) return 1;
        if (seat != mine && workman && !strcmp(workman, square)) return 1;
    }
    return 0;
}

/* The most a Move or Splitter card of my hand would gain (card_gain) built on a slot that
 * includes `square`, 0 if none: a slot of a track changer is two orthogonally adjacent squares
 * of adjacent tracks, neither a corner, and a build needs both free of balls, cards, bases and
 * the other players' workmen. */
static int build_gain(const jvalue *state, int mine, const char *square) {
    static const int STEPS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    int best = 0;
    for (int i = 0; i < 4; i++) {
        int file = square[0] + STEPS[i][0], rank = atoi(square + 1) + STEPS[i][1];
        if (file < 'a' || file > 'h' || rank < 1 || rank > 8) continue;
        char other[4];
        snprintf(other, sizeof other, "%c%d", file, rank);
        int swap = track_of(state, other) < track_of(state, square);
        const char *outer = swap ? other : square, *inner = swap ? square : other;
        if (blocked(state, square) || blocked(state, other)) continue;
        if (track_of(state, inner) != track_of(state, outer) + 1) continue; /* or the logo */
        const jvalue *hand = json_get(state, "hand");
        for (const jvalue *c = hand ? hand->child : NULL; c; c = c->next) {
            const char *code = c->string;
            /* DM and SD lie from the outer square to the inner one, UM and SU the other way. */
            int down = !strcmp(code, "DM") || !strcmp(code, "SD");
            int gain = card_gain(state, mine, code, down ? outer : inner, down ? inner : outer);
            if (gain > best) best = gain;
        }
    }
    return best;
}

/* One decision of Rollerball: `state.phase` names it (the rules' section "Decisions and
 * notation" lists each phase's moves). */
static const char *rollerball_choose(const jvalue *state, const char **legal, int n) {
    /* STRATEGY: the place for your Rollerball play; each phase below is a simple rule. */
    const char *phase = json_str(state, "phase");
    const jvalue *players = json_get(state, "players");
    const jvalue *me = players ? players->child : NULL;
    for (int seat = (int)json_num(state, "seat", 0); me && seat > 0; seat--) me = me->next;
    const char *base = json_str(me, "base");
    if (!phase) return legal[0];
    if (!strcmp(phase, "base")) {
        /* The base track (1 or 2) the fewest other bases stand on, the shorter one (2) on a
         * tie: a ball on it comes back to my base every 10 turns. */
        int best = 0, best_crowding = 1000;
        for (int i = 0; i < n; i++) {
            int track = track_of(state, words_of(legal[i]).w[1]), crowding = -track;
            for (const jvalue *p = players->child; p; p = p->next)
                if (json_str(p, "base") && track_of(state, json_str(p, "base")) == track)
                    crowding += 10;
            if (crowding < best_crowding) best = i, best_crowding = crowding;
        }
        return legal[best];
    }
    int mine = base ? track_of(state, base) : 0;
    if (!strcmp(phase, "workman") && base) {
        for (int i = 0; i < n; i++) /* on a base square no ball can hit it */
            if (!strcmp(words_of(legal[i]).w[1], base)) return legal[i];
    }
    if (!strcmp(phase, "ball") && base) {
        /* As near before my base as the rules allow: it scores in the first turn. */
        int best = 0;
        for (int i = 1; i < n; i++)
            if (distance_to(state, words_of(legal[i]).w[1], base) <
                distance_to(state, words_of(legal[best]).w[1], base))
                best = i;
        return legal[best];
    }
    if (!strcmp(phase, "reward")) {
        /* Always a victory point: from the deck (`vp`), else a card off the board, the one
         * that leads balls away from my base first. */
        int best = -1, best_gain = 1000;
        for (int i = 0; i < n; i++) {
            if (!strcmp(legal[i], "vp")) return legal[i];
            Words take = words_of(legal[i]);
            if (strcmp(take.w[0], "take") || strcmp(take.w[2], "vp")) continue;
            const jvalue *cards = json_get(state, "cards");
            for (const jvalue *c = cards ? cards->child : NULL; c; c = c->next) {
                const jvalue *at = json_get(c, "at");
                if (index_in(at, take.w[1]) < 0) continue;
                int gain = card_gain(state, mine, json_str(c, "card"), at->child->string,
                                     at->child->next->string);
                if (gain < best_gain) best = i, best_gain = gain;
            }
        }
        return best >= 0 ? legal[best] : legal[0];
    }
    if (!strcmp(phase, "card") || !strcmp(phase, "use")) {
        /* The card that brings balls nearest my track (`pass` or `none` if none brings any). */
        int best = 0, best_gain = 0;
        for (int i = 0; i < n; i++) {
            Words m = words_of(legal[i]);
            if (strcmp(m.w[0], "place") && strcmp(m.w[0], "build")) continue;
            int gain = card_gain(state, mine, m.w[1], m.w[2], m.w[3]);
            if (gain > best_gain) best = i, best_gain = gain;
        }
        return legal[best];
    }
    if (!strcmp(phase, "discard")) {
        /* A card that diverts nothing first (ball changers, Replacers), then any. */
        for (int i = 0; i < n; i++) {
            Words m = words_of(legal[i]);
            if (!is_move_card(m.w[1]) && !is_splitter(m.w[1])) return legal[i];
        }
    }
    if (!strcmp(phase, "move") && base) {
        /* Away from home, back home. At home, stay while every ball rolls on my track; else
         * walk to the square from which a card of my hand would bring balls nearest (the `use`
         * decision then builds it), or stay if none would. */
        const char *workman = json_str(me, "workman");
        if (!workman || strcmp(workman, base)) {
            for (int i = 0; i < n; i++) {
                Words m = words_of(legal[i]);
                if (!strcmp(m.w[0], "move") && !strcmp(m.w[1], base)) return legal[i];
            }
            return legal[0];
        }
        int all_mine = 1;
        const jvalue *balls = json_get(state, "balls");
        for (const jvalue *b = balls ? balls->child : NULL; b; b = b->next)
            if (track_of(state, json_str(b, "at")) != mine) all_mine = 0;
        if (all_mine) return legal[0];
        int best = 0, best_gain = 0;
        for (int i = 0; i < n; i++) {
            Words m = words_of(legal[i]);
            if (strcmp(m.w[0], "move")) continue;
            int gain = build_gain(state, mine, m.w[1]);
            if (gain > best_gain) best = i, best_gain = gain;
        }
        return legal[best];
    }
    /* "bid": nothing; "extra" (5 and 6 players): `stay`; anything else: the first. */
    return legal[0];
}

/* ------------------------------------------------------------------------------------------
 * Any game whose every decision is a `turn` with a `legal` list (Goofspiel, Rollerball, ...).
 * ------------------------------------------------------------------------------------------ */

typedef const char *(*Strategy)(const jvalue *state, const char **legal, int n);

static struct {
    Strategy strategy; /* the game's, or NULL: the first legal move */
    jvalue *turn;      /* the last turn, kept to answer a refusal */
    int tried[256];    /* the legal moves already sent for it */
} any;

/* The game's strategy above, given the legal moves not tried yet (after a refusal, another
 * move is sent); in a game the kit does not know, the first of them. */
static jvalue *choose_any(const jvalue *state, const jvalue *legal) {
    const char *untried[256];
    jvalue *values[256];
    int n = 0, index[256], i = 0;
    for (jvalue *m = legal ? legal->child : NULL; m && i < 256; m = m->next, i++)
        if (!any.tried[i] && m->type == J_STRING) {
            untried[n] = m->string, values[n] = m, index[n] = i;
            n++;
        }
    if (n == 0) return NULL;
    const char *move = any.strategy ? any.strategy(state, untried, n) : untried[0];
    for (int k = 0; k < n; k++)
        if (untried[k] == move) {
            any.tried[index[k]] = 1;
            return values[k];
        }
    return NULL;
}

static void answer_any(void) {
    jvalue *move = choose_any(json_get(any.turn, "state"), json_get(any.turn, "legal"));
    if (!move) {
        logf_("no legal move left to send");
        return;
    }
    printf("{\"type\":\"move\",\"move\":");
    json_print(stdout, move);
    send_line(",\"turn_id\":%.0f}", json_num(any.turn, "turn_id", 0));
}

/* Takes the message (freed with the next turn). */
static void on_any_turn(jvalue *msg) {
    json_free(any.turn);
    any.turn = msg;
    memset(any.tried, 0, sizeof any.tried);
    answer_any();
}

static void on_hello(const jvalue *msg) {
    const jvalue *options = json_get(msg, "options");
    const char *name = json_str(msg, "game");
    game = name && !strcmp(name, "rolit") ? ROLIT : name && !strcmp(name, "robots") ? ROBOTS : ANY;
    any.strategy = !name                         ? NULL
                   : !strcmp(name, "goofspiel")  ? goofspiel_choose
                   : !strcmp(name, "rollerball") ? rollerball_choose
                                                 : NULL;
    rr.solo = json_num(options, "players", 0) == 1;
    logf_("hello: %s, seat %.0f, %.0f players", name ? name : "?", json_num(msg, "seat", -1),
          json_num(options, "players", 0));
    if (game == ROBOTS) {
        /* Another seat may turn the hourglass at once: declare well before it can run out. */
        double hourglass = json_num(options, "hourglass_ms", 60000);
        rr.think_ms = hourglass * THINK_SHARE;
        logf_("robots: searching at most %.0f ms a token (hourglass %.0f ms)", rr.think_ms, hourglass);
    }
    send_line("{\"type\":\"ready\",\"name\":\"" NAME "\",\"version\":\"" VERSION
              "\",\"author\":\"rollarena starter kit\"}");
}

static void on_start(const jvalue *msg) {
    read_board(json_get(msg, "state"), &bot.board);
    logf_("round %.0f: I play %s", json_num(msg, "round", 0), json_str(msg, "colour"));
}

static void on_turn(const jvalue *msg) {
    const jvalue *state = json_get(msg, "state");
    if (!read_board(state, &bot.board)) {
        logf_("cannot read the board");
        return;
    }
    bot.asked = bot.board;
    bot.me = letter_of(json_str(state, "to_move")); /* the colour to move is mine */
    bot.turn_id = (long long)json_num(msg, "turn_id", -1);
    memset(bot.tried, 0, sizeof bot.tried);
    const jvalue *legal = json_get(msg, "legal");
    bot.count = 0;
    if (legal && legal->type == J_ARRAY) {
        for (jvalue *m = legal->child; m && bot.count < MAX * MAX; m = m->next)
            if (m->type == J_STRING && parse_square(m->string, &bot.moves[bot.count]))
                bot.count++;
    } else {
        bot.count = legal_moves(&bot.asked, bot.me, bot.moves);
    }
    answer();
}

static void on_illegal(const jvalue *msg) {
    logf_("refused: %s", json_str(msg, "reason"));
    answer();
}

/* A move was played: its ball and the balls it turned take the mover's colour. */
static void on_played(const jvalue *msg) {
    char me = letter_of(json_str(msg, "colour"));
    Square sq;
    if (!me || !parse_square(json_str(msg, "move"), &sq) || !inside(&bot.board, sq.file, sq.rank))
        return;
    bot.board.cells[sq.rank][sq.file] = me;
    const jvalue *flipped = json_get(msg, "flipped");
    for (jvalue *f = flipped ? flipped->child : NULL; f; f = f->next)
        if (f->type == J_STRING && parse_square(f->string, &sq) &&
            inside(&bot.board, sq.file, sq.rank))
            bot.board.cells[sq.rank][sq.file] = me;
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    /* getline reads one whole line, however long. */
    while (getline(&line, &cap, stdin) != -1) {
        jvalue *msg = json_parse(line);
        const char *type = json_str(msg, "type");
        if (!type) {
            logf_("not a message: %s", line);
        } else if (!strcmp(type, "bye")) {
            json_free(msg);
            break;
        } else if (!strcmp(type, "hello")) {
            on_hello(msg);
        } else if (game == ROBOTS && !strcmp(type, "start")) {
            on_robots_start(msg);
        } else if (game == ROBOTS && !strcmp(type, "prove")) {
            on_prove(msg);
        } else if (game == ANY && !strcmp(type, "turn")) {
            on_any_turn(msg);
            continue; /* kept until the next turn */
        } else if (game == ANY && !strcmp(type, "illegal")) {
            logf_("refused: %s", json_str(msg, "reason"));
            if (any.turn) answer_any();
        } else if (game != ROLIT) {
            /* other messages (declared, passed, verified, played, end) need no answer */
        } else if (!strcmp(type, "start")) {
            on_start(msg);
        } else if (!strcmp(type, "turn")) {
            on_turn(msg);
        } else if (!strcmp(type, "illegal")) {
            on_illegal(msg);
        } else if (!strcmp(type, "played")) {
            on_played(msg);
        } else if (!strcmp(type, "end")) {
            logf_("round %.0f over", json_num(msg, "round", 0));
        } /* types this bot does not know are skipped */
        json_free(msg);
    }
    free(line);
    json_free(any.turn);
    return 0;
}
