/* JSON written as text: reals in their shortest exact form, and a compact
 * writer that skips jansson for the values it writes the same way
 * (core/json.h). */
#include "core/json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/json_int.h"

/* Does every real in v read back as itself from 15 significant digits,
 * the text jansson writes with JSON_REAL_PRECISION(15)? (A value with no
 * real says yes: precision changes nothing there.) */
static bool reals_exact_at_15(const json_t *v)
{
    if (json_is_real(v)) {
        char text[40];
        double d = json_real_value(v);
        snprintf(text, sizeof text, "%.15g", d);
        return strtod(text, NULL) == d;
    }
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            if (!reals_exact_at_15(json_array_get(v, i)))
                return false;
    } else if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x)
        {
            if (!reals_exact_at_15(x))
                return false;
        }
    }
    return true;
}

char *an_json_dumps(const json_t *v, size_t flags)
{
    if (!v)
        return an_xstrdup("null");
    flags |= JSON_ENCODE_ANY;
    /* jansson prints reals with 17 significant digits, so 54.99 reads back
     * as "54.990000000000002": unreadable, and a regex on the JSON text of
     * an argument would not find what the agent sent. 15 digits give the
     * shortest text for almost every value; keep them when every real reads
     * back as itself, else write all with the exact 17. Each real is
     * checked alone: reading the whole text back to compare it was two
     * thirds of the JSON report's time (every test has a pass_rate). */
    if (reals_exact_at_15(v))
        flags |= JSON_REAL_PRECISION(15);
    char *s = json_dumps(v, flags);
    if (!s)
        an_oom();
    return s;
}

/* Compact JSON as jansson writes it (JSON_COMPACT | JSON_ENCODE_ANY), for
 * the values it writes the same way every time: false on a real (whose
 * text an_json_dumps chooses) or a string that is not valid UTF-8 (which
 * jansson refuses), and the caller falls back to jansson. */

/* an_buf_append without the call when there is room (the writer appends
 * a few bytes at a time) */
static inline void put(struct an_buf *b, const void *p, size_t n)
{
    if (b->len + n < b->cap && !b->cap_max) {
        memcpy(b->data + b->len, p, n);
        b->len += n;
        b->data[b->len] = '\0';
    } else {
        an_buf_append(b, p, n);
    }
}

static inline void put1(struct an_buf *b, char c)
{
    put(b, &c, 1);
}

static bool write_str(struct an_buf *b, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t run = 0, i = 0;
    put1(b, '"');
    while (i < n) {
        while (n - i >= 8 && an_json_plain8(s + i))
            i += 8;
        while (i < n && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\')
            i++;
        if (i == n)
            break;
        unsigned char c = s[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0x80) {
            size_t k = an_json_utf8_seq(s + i, n - i);
            if (!k)
                return false;
            i += k;
            continue;
        }
        put(b, s + run, i - run);
        switch (c) {
        case '"':
            put(b, "\\\"", 2);
            break;
        case '\\':
            put(b, "\\\\", 2);
            break;
        case '\b':
            put(b, "\\b", 2);
            break;
        case '\f':
            put(b, "\\f", 2);
            break;
        case '\n':
            put(b, "\\n", 2);
            break;
        case '\r':
            put(b, "\\r", 2);
            break;
        case '\t':
            put(b, "\\t", 2);
            break;
        default:
            an_buf_printf(b, "\\u%04X", c);
            break;
        }
        run = ++i;
    }
    put(b, s + run, n - run);
    put1(b, '"');
    return true;
}

static bool write_json(struct an_buf *b, const json_t *v, unsigned depth)
{
    if (depth > AN_JSON_MAX_DEPTH)
        return false;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *k;
        size_t klen;
        json_t *x;
        bool first = true;
        put1(b, '{');
        json_object_keylen_foreach((json_t *)v, k, klen, x)
        {
            if (!first)
                put1(b, ',');
            first = false;
            if (!write_str(b, k, klen))
                return false;
            put1(b, ':');
            if (!write_json(b, x, depth + 1))
                return false;
        }
        put1(b, '}');
        return true;
    }
    case JSON_ARRAY:
        put1(b, '[');
        for (size_t i = 0; i < json_array_size(v); i++) {
            if (i)
                put1(b, ',');
            if (!write_json(b, json_array_get(v, i), depth + 1))
                return false;
        }
        put1(b, ']');
        return true;
    case JSON_STRING:
        return write_str(b, json_string_value(v), json_string_length(v));
    case JSON_INTEGER: {
        /* what "%lld" writes, without printf */
        char num[24], *e = num + sizeof num, *p = e;
        json_int_t x = json_integer_value(v);
        unsigned long long u = x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x;
        do
            *--p = (char)('0' + u % 10);
        while (u /= 10);
        if (x < 0)
            *--p = '-';
        put(b, p, (size_t)(e - p));
        return true;
    }
    case JSON_TRUE:
        put(b, "true", 4);
        return true;
    case JSON_FALSE:
        put(b, "false", 5);
        return true;
    case JSON_NULL:
        put(b, "null", 4);
        return true;
    case JSON_REAL:
        break;
    }
    return false;
}

char *an_json_compact(const json_t *v)
{
    if (v) {
        struct an_buf b = AN_BUF_INIT;
        b.data = an_xmalloc(b.cap = 256); /* most messages fit: no regrowth */
        b.data[0] = '\0';
        if (write_json(&b, v, 0))
            return an_buf_detach(&b, NULL);
        an_buf_release(&b);
    }
    return an_json_dumps(v, JSON_COMPACT);
}

bool an_json_compact_try(struct an_buf *b, const json_t *v)
{
    size_t at = b->len;
    if (v && write_json(b, v, 0))
        return true;
    b->len = at;
    if (b->data)
        b->data[at] = '\0';
    return false;
}

/* text with `indent` after each line break (JSON strings hold no raw line
 * break, so this only moves the structure), a line at a time: a byte at a
 * time (fputc) was a fifth of a 10,000-test report */
static void put_indented(FILE *fp, const char *text, const char *indent)
{
    size_t ilen = strlen(indent);
    for (const char *p = text;;) {
        const char *nl = strchr(p, '\n');
        if (!nl) {
            fputs(p, fp);
            return;
        }
        fwrite(p, 1, (size_t)(nl - p + 1), fp);
        fwrite(indent, 1, ilen, fp);
        p = nl + 1;
    }
}

bool an_json_stream_object(FILE *fp, const json_t *head, const char *key, size_t n,
                           json_t *(*item)(void *ud, size_t i), void *ud)
{
    const size_t flags = JSON_INDENT(2) | JSON_PRESERVE_ORDER;
    char *text = an_json_dumps(head, flags);
    size_t len = strlen(text);
    while (len && text[len - 1] != '}')
        len--;
    if (len)
        len--; /* the closing brace: the array goes before it */
    while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
        len--;
    fwrite(text, 1, len, fp);
    bool members = len > 1; /* more than the opening brace */
    free(text);
    fprintf(fp, "%s\n  \"%s\": [%s", members ? "," : "", key, n ? "\n    " : "]\n}");
    for (size_t i = 0; i < n; i++) {
        json_t *v = item(ud, i);
        if (!v)
            return false;
        char *t = an_json_dumps(v, flags);
        json_decref(v);
        if (i)
            fputs(",\n    ", fp);
        put_indented(fp, t, "    ");
        free(t);
    }
    if (n)
        fputs("\n  ]\n}", fp);
    fputc('\n', fp);
    return true;
}
