/* Parsing outside JSON: the tree cap, numbers jansson cannot hold, NULs in
 * strings, people's error messages (core/json.h). */
#include "core/json.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json_int.h"

/* True when t[0..n) is exactly one JSON number (RFC 8259's grammar). */
static bool json_number_token(const char *t, size_t n)
{
    size_t i = 0;
    if (i < n && t[i] == '-')
        i++;
    if (i < n && t[i] == '0')
        i++;
    else if (i < n && t[i] >= '1' && t[i] <= '9')
        while (i < n && t[i] >= '0' && t[i] <= '9')
            i++;
    else
        return false;
    if (i < n && t[i] == '.') {
        size_t d = ++i;
        while (i < n && t[i] >= '0' && t[i] <= '9')
            i++;
        if (i == d)
            return false;
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        i++;
        if (i < n && (t[i] == '+' || t[i] == '-'))
            i++;
        size_t d = i;
        while (i < n && t[i] >= '0' && t[i] <= '9')
            i++;
        if (i == d)
            return false;
    }
    return i == n;
}

/* The text with every number jansson cannot hold rewritten, into *out: an
 * integer beyond int64 gets ".0" (a real, its value rounded), a real beyond
 * a double's range becomes a string of its text. False when there is none. */
static bool widen_numbers(const char *s, size_t n, struct an_buf *out)
{
    bool in_str = false, changed = false;
    size_t copied = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = false;
            continue;
        }
        if (c == '"') {
            in_str = true;
            continue;
        }
        if (c != '-' && (c < '0' || c > '9'))
            continue;
        size_t j = i + (c == '-'), digits = 0;
        bool real = false;
        while (j < n &&
               ((s[j] >= '0' && s[j] <= '9') || s[j] == '.' || s[j] == 'e' || s[j] == 'E' ||
                ((s[j] == '+' || s[j] == '-') && j > i && (s[j - 1] == 'e' || s[j - 1] == 'E')))) {
            real |= s[j] == '.' || s[j] == 'e' || s[j] == 'E';
            digits += s[j] >= '0' && s[j] <= '9';
            j++;
        }
        size_t len = j - i;
        if (!digits || len > 4096 || !json_number_token(s + i, len)) {
            /* not a number (jansson reports it), or too long to hold */
            i = j - 1 < i ? i : j - 1;
            continue;
        }
        char tok[4100];
        memcpy(tok, s + i, len);
        tok[len] = '\0';
        errno = 0;
        const char *fix = NULL; /* "real" or "string" */
        if (!real) {
            (void)strtoll(tok, NULL, 10);
            if (errno == ERANGE)
                fix = "real";
        } else {
            double d = strtod(tok, NULL);
            if (errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL))
                fix = "string";
        }
        if (fix) {
            an_buf_append(out, s + copied, i - copied);
            if (fix[0] == 'r') {
                an_buf_append(out, tok, len);
                an_buf_append(out, ".0", 2);
            } else {
                an_buf_putc(out, '"');
                an_buf_append(out, tok, len);
                an_buf_putc(out, '"');
            }
            copied = j;
            changed = true;
        }
        i = j - 1;
    }
    if (changed)
        an_buf_append(out, s + copied, n - copied);
    return changed;
}

/* What the tree of s[0..n) would take, about (measured on jansson 2.14,
 * malloc's overhead included): an array some 160 bytes even when empty, an
 * object 400, a member 96 more, any other value 48; so 16 MiB of "[]," are
 * 900 MB of tree. Strings are counted by their text. */
static uint64_t tree_bytes(const char *s, size_t n)
{
    uint64_t arrays = 0, objects = 0, members = 0, values = 0;
    bool in_str = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = false;
        } else if (c == '"') {
            in_str = true;
        } else if (c == '[') {
            arrays++;
        } else if (c == '{') {
            objects++;
        } else if (c == ':') {
            members++;
        } else if (c == ',') {
            values++;
        }
    }
    return arrays * 160 + objects * 400 + members * 96 + (values + 1) * 48 + n;
}

bool an_json_tree_over_cap(const char *s, size_t n, char *why, size_t why_cap)
{
    if (n <= AN_JSON_TREE_FREE)
        return false;
    uint64_t t = tree_bytes(s, n), cap = (uint64_t)n * 8 + AN_JSON_TREE_FREE * 64;
    if (t <= cap)
        return false;
    if (why)
        snprintf(why, why_cap,
                 "%zu bytes of JSON would take about %llu MB as a tree, more than 8 times "
                 "their size and 64 MiB (the JSON tree cap)",
                 n, (unsigned long long)(t >> 20));
    return true;
}

bool an_json_valid(const char *s, size_t n)
{
    if (!s)
        return false;
    if (an_json_valid_fast(s, n))
        return true;
    json_t *v = json_loadb(s, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    json_decref(v);
    return v != NULL;
}

void an_json_escape_nuls(json_t *v)
{
    size_t i;
    const char *k;
    json_t *x;
    switch (json_typeof(v)) {
    case JSON_STRING: {
        const char *s = json_string_value(v);
        size_t n = json_string_length(v);
        if (!memchr(s, '\0', n))
            return;
        struct an_buf b = AN_BUF_INIT;
        for (size_t j = 0; j < n; j++) {
            if (s[j])
                an_buf_putc(&b, s[j]);
            else
                an_buf_append(&b, "\\u0000", 6);
        }
        json_string_setn_nocheck(v, b.data, b.len);
        an_buf_release(&b);
        return;
    }
    case JSON_ARRAY:
        json_array_foreach(v, i, x) an_json_escape_nuls(x);
        return;
    case JSON_OBJECT:
        json_object_foreach(v, k, x) an_json_escape_nuls(x);
        return;
    default:
        return;
    }
}

/* The text holds "\u0000" (maybe after an escaped backslash: then the
 * walk finds nothing, which is harmless). */
static bool has_nul_escape(const char *s, size_t n)
{
    for (size_t i = 0; i + 6 <= n; i++) /* only the slow path gets here */
        if (s[i] == '\\' && !memcmp(s + i, "\\u0000", 6))
            return true;
    return false;
}

const char *an_json_error_text(const json_error_t *je)
{
    if (strstr(je->text, "JSON_ALLOW_NUL"))
        return "a NUL character (\\u0000) in a string: ananke cannot keep it (it would cut "
               "the string there)";
    return je->text;
}

json_t *an_json_parse(const char *s, size_t n, char *why, size_t why_cap)
{
    if (an_json_tree_over_cap(s, n, why, why_cap))
        return NULL;
    json_t *fast = an_json_fast_parse(s, n, false);
    if (fast)
        return fast;
    json_error_t je;
    /* jansson limits nesting itself (JSON_PARSER_MAX_DEPTH, 2048). */
    json_t *v = json_loadb(s, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    if (!v && (strstr(je.text, "too big") || strstr(je.text, "overflow"))) {
        /* A number no field of ours needs the value of must not make the
         * whole message unreadable: kept as a real, or as its text. */
        struct an_buf w = AN_BUF_INIT;
        if (widen_numbers(s, n, &w))
            v = json_loadb(an_buf_cstr(&w), w.len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
        an_buf_release(&w);
    }
    if (v && has_nul_escape(s, n))
        an_json_escape_nuls(v); /* the fast path declines \u0000: only this one sees it */
    if (!v && why)
        snprintf(why, why_cap, "%s at line %d column %d", je.text, je.line, je.column);
    return v;
}
