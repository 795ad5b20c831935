/*
 * What the json_*.c files of core/ share and nobody else needs: the nesting
 * limit, two byte scanners the writer and the parser both run (inline: they
 * are on the hot path of every event), and the parser's fast path.
 */
#ifndef ANANKE_CORE_JSON_INT_H
#define ANANKE_CORE_JSON_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define AN_JSON_MAX_DEPTH 2048 /* jansson's JSON_PARSER_MAX_DEPTH */

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid. */
static inline size_t an_json_utf8_seq(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned cp;
    if (c < 0x80)
        return c ? 1 : 0;
    if ((c & 0xE0) == 0xC0)
        len = 2, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0)
        len = 3, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0)
        len = 4, cp = c & 0x07;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* Are the eight bytes at s all printable ASCII, none of them '"' or '\\'?
 * (A false "no" is harmless: the caller then looks at them one by one.) */
static inline bool an_json_plain8(const unsigned char *s)
{
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t w, q, b;
    memcpy(&w, s, 8);
    q = w ^ (ones * '"');
    b = w ^ (ones * '\\');
    /* a byte of q or b is zero, a byte is below 0x20, or one is not ASCII */
    uint64_t bad = ((q - ones) & ~q) | ((b - ones) & ~b) | (w - ones * 0x20) | w;
    return !(bad & high);
}

/* json_fast.c's descent: the jansson value of s[0..n) when the text is in
 * its subset (core/json.h, an_json_valid_fast), else NULL; with `check` it
 * builds nothing and returns json_null() for "valid". */
json_t *an_json_fast_parse(const char *s, size_t n, bool check);

#endif
