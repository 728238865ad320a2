/*
 * A Rolit bot for rollarena: the C starter kit.
 *
 * It reads one JSON message per line on stdin and answers on stdout, one JSON message per
 * line, flushed at once. It keeps the state it is sent (the board from `start` and `turn`,
 * updated by `played`), plays the move that turns the most balls weighted by the tactical
 * value of the square, and logs to stderr (stdout belongs to the arbiter).
 *
 * Build: gcc -O2 -o bot bot.c
 * Check: rollarena check ./bot
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void on_hello(const jvalue *msg) {
    const jvalue *options = json_get(msg, "options");
    logf_("hello: seat %.0f of %.0f, %.0fx%.0f, %.0f ms a move", json_num(msg, "seat", -1),
          json_num(options, "players", 0), json_num(options, "size", 0),
          json_num(options, "size", 0), json_num(msg, "move_ms", 0));
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
        } else if (!strcmp(type, "hello")) {
            on_hello(msg);
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
        } else if (!strcmp(type, "bye")) {
            json_free(msg);
            break;
        } /* types this bot does not know are skipped */
        json_free(msg);
    }
    free(line);
    return 0;
}
