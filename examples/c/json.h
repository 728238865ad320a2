/*
 * json.h: a small JSON reader for bots, in one header (public domain / CC0).
 *
 * Parses one JSON text into a tree of values. Enough for the rollarena protocol (objects,
 * arrays, strings with escapes, numbers, true/false/null), and small enough to read.
 *
 *     jvalue *msg = json_parse(line);          // NULL if the text is not JSON
 *     const char *type = json_str(msg, "type");  // NULL if absent or not a string
 *     jvalue *state = json_get(msg, "state");
 *     for (jvalue *row = json_get(state, "board")->child; row; row = row->next) ...
 *     json_print(stdout, value);                // writes a value back as JSON
 *     json_free(msg);
 */
#ifndef ROLLARENA_JSON_H
#define ROLLARENA_JSON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT } jtype;

typedef struct jvalue {
    jtype type;
    double number;        /* J_NUMBER; J_BOOL as 0 or 1 */
    char *string;         /* J_STRING, decoded UTF-8 */
    struct jvalue *child; /* J_ARRAY, J_OBJECT: the first element or member */
    struct jvalue *next;  /* the next element or member of the parent */
    char *key;            /* the member's name, inside an object */
} jvalue;

typedef struct {
    const char *p;
    int depth;
} jparser;

static jvalue *json__value(jparser *ps);

static void json__skip(jparser *ps) {
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r') ps->p++;
}

static jvalue *json__new(jtype type) {
    jvalue *v = (jvalue *)calloc(1, sizeof(jvalue));
    if (v) v->type = type;
    return v;
}

/* Appends the UTF-8 encoding of code point c to out. */
static char *json__utf8(char *out, unsigned long c) {
    if (c < 0x80) {
        *out++ = (char)c;
    } else if (c < 0x800) {
        *out++ = (char)(0xC0 | (c >> 6));
        *out++ = (char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        *out++ = (char)(0xE0 | (c >> 12));
        *out++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *out++ = (char)(0x80 | (c & 0x3F));
    } else {
        *out++ = (char)(0xF0 | (c >> 18));
        *out++ = (char)(0x80 | ((c >> 12) & 0x3F));
        *out++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *out++ = (char)(0x80 | (c & 0x3F));
    }
    return out;
}

static int json__hex4(const char *s, unsigned long *out) {
    unsigned long v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned long)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned long)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned long)(c - 'A' + 10);
        else return 0;
    }
    *out = v;
    return 1;
}

/* Reads a string at ps->p (on its opening quote); returns it decoded, or NULL. */
static char *json__string(jparser *ps) {
    const char *s = ++ps->p;
    size_t len = 0;
    while (s[len] && s[len] != '"') len += (s[len] == '\\' && s[len + 1]) ? 2 : 1;
    if (s[len] != '"') return NULL;
    char *out = (char *)malloc(len + 1), *o = out; /* decoding never grows a string */
    if (!out) return NULL;
    while (*ps->p != '"') {
        char c = *ps->p++;
        if (c != '\\') {
            *o++ = c;
            continue;
        }
        c = *ps->p++;
        switch (c) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case 'r': *o++ = '\r'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'u': {
            unsigned long cp, lo;
            if (!json__hex4(ps->p, &cp)) { free(out); return NULL; }
            ps->p += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && ps->p[0] == '\\' && ps->p[1] == 'u' &&
                json__hex4(ps->p + 2, &lo) && lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                ps->p += 6;
            }
            o = json__utf8(o, cp);
            break;
        }
        default: *o++ = c; /* \" \\ \/ */
        }
    }
    ps->p++;
    *o = '\0';
    return out;
}

static void json_free(jvalue *v) {
    while (v) {
        jvalue *next = v->next;
        json_free(v->child);
        free(v->string);
        free(v->key);
        free(v);
        v = next;
    }
}

/* Reads the elements of an array or the members of an object, up to `close`. */
static jvalue *json__container(jparser *ps, jtype type, char close) {
    jvalue *v = json__new(type), **tail;
    if (!v || ++ps->depth > 64) { free(v); return NULL; }
    tail = &v->child;
    ps->p++;
    json__skip(ps);
    if (*ps->p == close) { ps->p++; ps->depth--; return v; }
    for (;;) {
        char *key = NULL;
        json__skip(ps);
        if (type == J_OBJECT) {
            if (*ps->p != '"' || !(key = json__string(ps))) break;
            json__skip(ps);
            if (*ps->p++ != ':') { free(key); break; }
        }
        jvalue *item = json__value(ps);
        if (!item) { free(key); break; }
        item->key = key;
        *tail = item;
        tail = &item->next;
        json__skip(ps);
        if (*ps->p == ',') { ps->p++; continue; }
        if (*ps->p == close) { ps->p++; ps->depth--; return v; }
        break;
    }
    json_free(v);
    return NULL;
}

static jvalue *json__value(jparser *ps) {
    json__skip(ps);
    char c = *ps->p;
    if (c == '{') return json__container(ps, J_OBJECT, '}');
    if (c == '[') return json__container(ps, J_ARRAY, ']');
    if (c == '"') {
        char *s = json__string(ps);
        jvalue *v = s ? json__new(J_STRING) : NULL;
        if (v) v->string = s; else free(s);
        return v;
    }
    if (!strncmp(ps->p, "true", 4) || !strncmp(ps->p, "false", 5)) {
        jvalue *v = json__new(J_BOOL);
        if (v) v->number = (c == 't');
        ps->p += (c == 't') ? 4 : 5;
        return v;
    }
    if (!strncmp(ps->p, "null", 4)) {
        ps->p += 4;
        return json__new(J_NULL);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        char *end;
        double d = strtod(ps->p, &end);
        jvalue *v = json__new(J_NUMBER);
        if (v) v->number = d;
        ps->p = end;
        return v;
    }
    return NULL;
}

/* Parses a whole JSON text; NULL if it is not one. Free the result with json_free. */
static jvalue *json_parse(const char *text) {
    jparser ps = {text, 0};
    jvalue *v = json__value(&ps);
    if (!v) return NULL;
    json__skip(&ps);
    if (*ps.p) { json_free(v); return NULL; }
    return v;
}

/* The member `key` of an object, or NULL. */
static jvalue *json_get(const jvalue *obj, const char *key) {
    if (!obj || obj->type != J_OBJECT) return NULL;
    for (jvalue *m = obj->child; m; m = m->next)
        if (!strcmp(m->key, key)) return m;
    return NULL;
}

/* The string member `key` of an object, or NULL. */
static const char *json_str(const jvalue *obj, const char *key) {
    jvalue *v = json_get(obj, key);
    return v && v->type == J_STRING ? v->string : NULL;
}

/* The number member `key` of an object, or `fallback`. */
static double json_num(const jvalue *obj, const char *key, double fallback) {
    jvalue *v = json_get(obj, key);
    return v && v->type == J_NUMBER ? v->number : fallback;
}

/* Writes a value back as JSON (to send a move exactly as the arbiter listed it). */
static void json_print(FILE *out, const jvalue *v) {
    if (!v) { fputs("null", out); return; }
    switch (v->type) {
    case J_NULL: fputs("null", out); break;
    case J_BOOL: fputs(v->number ? "true" : "false", out); break;
    case J_NUMBER:
        if (v->number == (double)(long long)v->number) fprintf(out, "%lld", (long long)v->number);
        else fprintf(out, "%.17g", v->number);
        break;
    case J_STRING:
        fputc('"', out);
        for (const unsigned char *c = (const unsigned char *)v->string; *c; c++) {
            if (*c == '"' || *c == '\\') fprintf(out, "\\%c", *c);
            else if (*c < 0x20) fprintf(out, "\\u%04x", *c);
            else fputc(*c, out);
        }
        fputc('"', out);
        break;
    case J_ARRAY:
    case J_OBJECT:
        fputc(v->type == J_ARRAY ? '[' : '{', out);
        for (const jvalue *m = v->child; m; m = m->next) {
            if (m != v->child) fputc(',', out);
            if (v->type == J_OBJECT) {
                jvalue key = {J_STRING, 0, m->key, NULL, NULL, NULL};
                json_print(out, &key);
                fputc(':', out);
            }
            json_print(out, m);
        }
        fputc(v->type == J_ARRAY ? ']' : '}', out);
        break;
    }
}

#endif
