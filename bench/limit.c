/* The physical limit of the protocol's message pattern: plays the arbiter's part of a match
 * with no rules, no checks, no clock and no record, so that what is left is the cost of the
 * pipes, the wake-ups and the bots themselves.
 *
 *   limit [--freeze] ROUNDS LINES BOT...
 *
 * starts one process per BOT (a program path, no arguments) with a pipe on its stdin and one on
 * its stdout, sends each the `hello` of LINES and waits for its `ready`, then plays ROUNDS
 * rounds: `start` to every bot, then for each of the round's moves the `turn` line to the mover
 * (seats in turn), one line read back from it, and the `played` line to every bot; `end` to
 * every bot; finally `bye`, and waits for every bot to exit. LINES holds the lines of a real
 * 8x8 four-player round as the arbiter sent them (bench/round.txt: hello, start, then each
 * move's turn and played, end, bye), so every line has the size the protocol really sends.
 *
 * With --freeze it also does what the arbiter's freezing of idle bots costs at the least:
 * SIGSTOP to every bot after `start`, SIGCONT to the mover once its `turn` is written, SIGSTOP after
 * its answer, SIGCONT to every bot with `end` and `bye`.
 *
 * Prints the moves played and the wall time per move (start of the first bot to the exit of
 * the last). Built by bench/run: cc -O2 -o bench/out/limit bench/limit.c
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_BOTS 8
#define MAX_PLIES 64

struct bot {
    pid_t pid;
    int in;  /* the bot's stdin */
    int out; /* the bot's stdout */
    char buf[4096];
    size_t have;
};

static struct bot bots[MAX_BOTS];
static int nbots;

static void die(const char *what) {
    perror(what);
    exit(2);
}

static void put(int fd, const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w <= 0) die("write");
        s += w;
        n -= (size_t)w;
    }
}

/* Reads one line from a bot (and drops it: no checks). */
static void get_line(struct bot *b) {
    for (;;) {
        char *nl = memchr(b->buf, '\n', b->have);
        if (nl) {
            size_t used = (size_t)(nl - b->buf) + 1;
            memmove(b->buf, b->buf + used, b->have - used);
            b->have -= used;
            return;
        }
        if (b->have == sizeof b->buf) b->have = 0;
        ssize_t r = read(b->out, b->buf + b->have, sizeof b->buf - b->have);
        if (r <= 0) die("read: a bot closed its stdout");
        b->have += (size_t)r;
    }
}

struct line {
    char *s;
    size_t n;
};

static struct line hello, start, end, bye, turns[MAX_PLIES], playeds[MAX_PLIES];
static int plies;

static void load(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die(path);
    char *s = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&s, &cap, f)) > 0) {
        struct line l = {strdup(s), (size_t)n};
        if (strstr(s, "\"type\":\"hello\"")) hello = l;
        else if (strstr(s, "\"type\":\"start\"")) start = l;
        else if (strstr(s, "\"type\":\"turn\"") && plies < MAX_PLIES) turns[plies] = l;
        else if (strstr(s, "\"type\":\"played\"") && plies < MAX_PLIES) playeds[plies++] = l;
        else if (strstr(s, "\"type\":\"end\"")) end = l;
        else if (strstr(s, "\"type\":\"bye\"")) bye = l;
    }
    fclose(f);
    if (!hello.s || !start.s || !end.s || !bye.s || plies == 0) {
        fprintf(stderr, "%s: not a round of lines\n", path);
        exit(2);
    }
}

static void spawn(struct bot *b, const char *program) {
    int to[2], from[2];
    if (pipe(to) || pipe(from)) die("pipe");
    pid_t pid = fork();
    if (pid < 0) die("fork");
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        execl(program, program, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    b->pid = pid;
    b->in = to[1];
    b->out = from[0];
}

static void to_all(const struct line *l) {
    for (int i = 0; i < nbots; i++) put(bots[i].in, l->s, l->n);
}

static void signal_all(int sig) {
    for (int i = 0; i < nbots; i++) kill(bots[i].pid, sig);
}

int main(int argc, char **argv) {
    int freeze = 0, a = 1;
    if (a < argc && strcmp(argv[a], "--freeze") == 0) {
        freeze = 1;
        a++;
    }
    if (argc - a < 3) {
        fprintf(stderr, "usage: limit [--freeze] ROUNDS LINES BOT...\n");
        return 2;
    }
    long rounds = atol(argv[a++]);
    load(argv[a++]);
    signal(SIGPIPE, SIG_IGN);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (; a < argc && nbots < MAX_BOTS; a++) spawn(&bots[nbots++], argv[a]);
    to_all(&hello);
    for (int i = 0; i < nbots; i++) get_line(&bots[i]);
    long moves = 0;
    for (long r = 0; r < rounds; r++) {
        to_all(&start);
        if (freeze) signal_all(SIGSTOP);
        for (int p = 0; p < plies; p++) {
            struct bot *b = &bots[moves % nbots];
            put(b->in, turns[p].s, turns[p].n);
            if (freeze) kill(b->pid, SIGCONT);
            get_line(b);
            if (freeze) kill(b->pid, SIGSTOP);
            to_all(&playeds[p]);
            moves++;
        }
        to_all(&end);
        if (freeze) signal_all(SIGCONT);
    }
    to_all(&bye);
    for (int i = 0; i < nbots; i++) close(bots[i].in);
    for (int i = 0; i < nbots; i++) waitpid(bots[i].pid, NULL, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double us = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / 1e3;
    printf("%ld moves %.3f us/move\n", moves, us / (double)moves);
    return 0;
}
