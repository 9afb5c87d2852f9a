/* A starter bot in C (docs/kit.md): the protocol over stdin/stdout, one JSON request a line
 * in, one JSON answer a line out. Standard library only:
 *
 *     cc -O2 -o bot starters/c/bot.c
 *     president validate ./bot
 *
 * It plays the first play offered (passing only when it must), gives back the first cards it
 * may, asks "high", leads itself clockwise. The few helpers below find a member of a JSON
 * object and step over a JSON value; replace decide() with your strategy.
 *
 * Any answer may also carry "log": "..." (a note of yours, at most 4,000 characters, its JSON
 * escaped): the ladder game's page shows it to you alone beside that decision's replay step. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *ws(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

/* The character after the JSON value at p (a string, number, literal, array or object). */
static const char *skip(const char *p) {
    p = ws(p);
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++)
            if (*p == '\\' && p[1]) p++;
        return *p ? p + 1 : p;
    }
    if (*p == '{' || *p == '[') {
        int depth = 0;
        for (; *p; p++) {
            if (*p == '"') { p = skip(p) - 1; continue; }
            if (*p == '{' || *p == '[') depth++;
            if ((*p == '}' || *p == ']') && --depth == 0) return p + 1;
        }
        return p;
    }
    while (*p && *p != ',' && *p != '}' && *p != ']') p++;
    return p;
}

/* The value of member `key` of the object at p, or NULL. */
static const char *member(const char *p, const char *key) {
    size_t n = strlen(key);
    p = ws(p);
    if (*p != '{') return NULL;
    for (p = ws(p + 1); *p == '"'; ) {
        const char *name = p + 1, *value = ws(skip(p));
        if (*value != ':') return NULL;
        value = ws(value + 1);
        if ((size_t)(skip(p) - name - 1) == n && strncmp(name, key, n) == 0) return value;
        p = ws(skip(value));
        if (*p != ',') return NULL;
        p = ws(p + 1);
    }
    return NULL;
}

static int is(const char *value, const char *text) {
    return value && strncmp(value, text, strlen(text)) == 0;
}

static void decide(const char *request) {
    const char *decision = member(request, "decision");
    if (is(decision, "\"play\"")) {
        const char *move = ws(member(request, "legal") + 1);
        int i = 0, choice = 0;
        for (; *move == '{'; i++) {
            if (member(move, "play")) { choice = i; break; }
            move = ws(skip(move));
            if (*move == ',') move = ws(move + 1);
        }
        printf("{\"choice\": %d}\n", choice);
    } else if (is(decision, "\"give_back\"")) {
        int count = atoi(member(request, "count"));
        const char *card = ws(member(request, "allowed") + 1);
        printf("{\"cards\": [");
        for (int i = 0; i < count && *card == '"'; i++) {
            const char *end = skip(card);
            printf("%s%.*s", i ? ", " : "", (int)(end - card), card);
            card = ws(end);
            if (*card == ',') card = ws(card + 1);
        }
        printf("]}\n");
    } else if (is(decision, "\"name_cards\"")) {
        printf("{\"cards\": []}\n"); /* the Scum then gives its highest cards */
    } else if (is(decision, "\"ask\"")) {
        printf("{\"ask\": \"high\"}\n");
    } else if (is(decision, "\"lead_and_direction\"")) {
        int seat = atoi(member(member(request, "observation"), "seat"));
        printf("{\"leader\": %d, \"direction\": \"cw\"}\n", seat);
    } else {
        printf("{}\n");
    }
    fflush(stdout);
}

int main(void) {
    char *line = NULL;
    size_t size = 0;
    while (getline(&line, &size, stdin) != -1) decide(line);
    free(line);
    return 0;
}
