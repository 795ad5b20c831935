/*
 * Where a value sits in a .jsont file: jansson keeps no positions, so an
 * error found while validating the parsed model is placed by walking the
 * (already valid) JSON text again along the value's path.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "load/jsont_int.h"

struct scan {
    const char *p, *end;
};

static void ws(struct scan *s)
{
    while (s->p < s->end && strchr(" \t\r\n", *s->p))
        s->p++;
}

/* At '"': past the closing quote. */
static void skip_string(struct scan *s)
{
    s->p++;
    while (s->p < s->end && *s->p != '"')
        s->p += *s->p == '\\' && s->p + 1 < s->end ? 2 : 1;
    if (s->p < s->end)
        s->p++;
}

/* Past one value. Containers are skipped by counting brackets outside
 * strings, so nesting costs no recursion. */
static void skip_value(struct scan *s)
{
    ws(s);
    if (s->p >= s->end)
        return;
    if (*s->p == '"') {
        skip_string(s);
        return;
    }
    if (*s->p == '{' || *s->p == '[') {
        size_t depth = 0;
        while (s->p < s->end) {
            char c = *s->p;
            if (c == '"') {
                skip_string(s);
                continue;
            }
            s->p++;
            if (c == '{' || c == '[')
                depth++;
            else if ((c == '}' || c == ']') && --depth == 0)
                return;
        }
        return;
    }
    while (s->p < s->end && !strchr(",}] \t\r\n", *s->p))
        s->p++;
}

/* In an object at '{': to the value of key [k, k+n); false when absent. */
static bool enter_key(struct scan *s, const char *k, size_t n)
{
    s->p++;
    for (;;) {
        ws(s);
        if (s->p >= s->end || *s->p != '"')
            return false;
        const char *ks = s->p + 1;
        skip_string(s);
        const char *ke = s->p - 1;
        ws(s);
        if (s->p < s->end && *s->p == ':')
            s->p++;
        ws(s);
        if ((size_t)(ke - ks) == n && !memcmp(ks, k, n))
            return true;
        skip_value(s);
        ws(s);
        if (s->p >= s->end || *s->p != ',')
            return false;
        s->p++;
    }
}

/* In an array at '[': to element idx; false when there are fewer. */
static bool enter_index(struct scan *s, unsigned long idx)
{
    s->p++;
    ws(s);
    if (s->p < s->end && *s->p == ']')
        return false;
    for (unsigned long i = 0;; i++) {
        ws(s);
        if (i == idx)
            return true;
        skip_value(s);
        ws(s);
        if (s->p >= s->end || *s->p != ',')
            return false;
        s->p++;
    }
}

size_t jsont_locate(const char *json, size_t len, const char *path)
{
    struct scan s = {json, json + len};
    ws(&s);
    const char *found = s.p;
    const char *c = path ? path : "";
    while (*c && s.p < s.end) {
        const char *dot = strchr(c, '.');
        size_t n = dot ? (size_t)(dot - c) : strlen(c);
        bool ok = false;
        if (*s.p == '{') {
            ok = enter_key(&s, c, n);
        } else if (*s.p == '[') {
            char num[24];
            char *e;
            if (n && n < sizeof num) {
                memcpy(num, c, n);
                num[n] = '\0';
                errno = 0;
                unsigned long idx = strtoul(num, &e, 10);
                ok = !*e && !errno && enter_index(&s, idx);
            }
        }
        if (!ok)
            break;
        found = s.p;
        c += n;
        if (*c == '.')
            c++;
    }
    return (size_t)(found - json);
}
