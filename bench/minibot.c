/* The minimal bot of the benchmarks: reads lines, answers `hello` with `ready` and every `turn`
 * with the first square of its `legal` list, exits on `bye`. No JSON parser, no state, no
 * stdio: one read() per batch of lines and one write() per answer, so that what is measured is
 * the arbiter (or bench/limit.c), not the bot.
 *
 * Built by bench/run: cc -O2 -o bench/out/minibot bench/minibot.c
 */
#include <string.h>
#include <unistd.h>

static char buf[1 << 21];

static void put(const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(1, s, n);
        if (w <= 0) _exit(1);
        s += w;
        n -= (size_t)w;
    }
}

/* Handles one line (without its newline). Returns 0 when the bot must exit. */
static int line(char *s, size_t n) {
    s[n] = 0;
    if (strstr(s, "\"type\":\"turn\"") || strstr(s, "\"type\":\"illegal\"")) {
        static char last[16] = "a1";
        char *l = strstr(s, "\"legal\":[\"");
        if (l) {
            l += 10;
            size_t k = 0;
            while (l[k] && l[k] != '"' && k < sizeof last - 1) k++;
            memcpy(last, l, k);
            last[k] = 0;
        }
        char out[64];
        size_t m = 0;
        memcpy(out, "{\"type\":\"move\",\"move\":\"", 23);
        m = 23;
        size_t k = strlen(last);
        memcpy(out + m, last, k);
        m += k;
        memcpy(out + m, "\"}\n", 3);
        m += 3;
        put(out, m);
    } else if (strstr(s, "\"type\":\"hello\"")) {
        static const char ready[] = "{\"type\":\"ready\",\"name\":\"minibot\",\"version\":\"1\"}\n";
        put(ready, sizeof ready - 1);
    } else if (strstr(s, "\"type\":\"bye\"")) {
        return 0;
    }
    return 1;
}

int main(void) {
    size_t have = 0;
    for (;;) {
        if (have == sizeof buf - 1) have = 0; /* an absurd line: drop it */
        ssize_t r = read(0, buf + have, sizeof buf - 1 - have);
        if (r <= 0) return 0;
        have += (size_t)r;
        size_t start = 0;
        for (;;) {
            char *nl = memchr(buf + start, '\n', have - start);
            if (!nl) break;
            size_t len = (size_t)(nl - (buf + start));
            if (!line(buf + start, len)) return 0;
            start += len + 1;
        }
        memmove(buf, buf + start, have - start);
        have -= start;
    }
}
