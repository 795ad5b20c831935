#include "core/json.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "ananke/err.h"
#include "core/buf.h"
#include "core/hex.h"

#define FAST_MAX_DEPTH 2048 /* jansson's JSON_PARSER_MAX_DEPTH */

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
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

/* Bytes of s[0..n) that are valid UTF-8 without NUL, from the start. */
static size_t utf8_clean_prefix(const unsigned char *p, size_t n)
{
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    size_t i = 0;
    while (i < n) {
#ifdef __SSE2__
        /* sixteen ASCII bytes without NUL at a time: a NUL or a byte of
         * 0x80 and above is "not greater than 0" as a signed byte */
        for (; n - i >= 16; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
            if (_mm_movemask_epi8(_mm_cmpgt_epi8(x, _mm_setzero_si128())) != 0xFFFF)
                break;
        }
#endif
        /* eight ASCII bytes without NUL at a time */
        for (uint64_t w; n - i >= 8; i += 8) {
            memcpy(&w, p + i, 8);
            if (((w - ones) | w) & high)
                break;
        }
        if (i == n)
            break;
        if (p[i] && p[i] < 0x80) {
            i++;
            continue;
        }
        if (p[i] >= 0xC2 && p[i] < 0xE0 && n - i >= 2 && (p[i + 1] & 0xC0) == 0x80) {
            i += 2;
            continue;
        }
        size_t k = utf8_seq(p + i, n - i);
        if (!k)
            break;
        i += k;
    }
    return i;
}

char *an_utf8_lossy(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    struct an_buf b = AN_BUF_INIT;
    size_t i = 0;
    while (i < n) {
        size_t k = utf8_clean_prefix(p + i, n - i);
        an_buf_append(&b, p + i, k);
        i += k;
        if (i < n) {
            an_buf_append(&b, "\xEF\xBF\xBD", 3);
            i++;
        }
    }
    return an_buf_detach(&b, NULL);
}

json_t *an_json_lossy(const char *s, size_t n)
{
    json_t *j;
    if (utf8_clean_prefix((const unsigned char *)s, n) == n) {
        j = json_stringn_nocheck(s, n); /* nothing to replace: no copy */
    } else {
        char *clean = an_utf8_lossy(s, n);
        j = json_string_nocheck(clean);
        free(clean);
    }
    if (!j)
        an_oom();
    return j;
}

/* Does the value hold a real anywhere? Only then is precision a question. */
static bool has_real(const json_t *v)
{
    if (json_is_real(v))
        return true;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            if (has_real(json_array_get(v, i)))
                return true;
    } else if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x)
        {
            if (has_real(x))
                return true;
        }
    }
    return false;
}

char *an_json_dumps(const json_t *v, size_t flags)
{
    if (!v)
        return an_xstrdup("null");
    flags |= JSON_ENCODE_ANY;
    /* jansson prints reals with 17 significant digits, so 54.99 reads back
     * as "54.990000000000002": unreadable, and a regex on the JSON text of
     * an argument would not find what the agent sent. 15 digits give the
     * shortest text for almost every value; keep it when it reads back as
     * the same doubles, else fall back to the exact 17. */
    if (has_real(v)) {
        char *s = json_dumps(v, flags | JSON_REAL_PRECISION(15));
        if (s) {
            json_t *back = json_loads(s, JSON_DECODE_ANY, NULL);
            bool same = back && json_equal(back, v);
            json_decref(back);
            if (same)
                return s;
            free(s);
        }
    }
    char *s = json_dumps(v, flags);
    if (!s)
        an_oom();
    return s;
}

/* Compact JSON as jansson writes it (JSON_COMPACT | JSON_ENCODE_ANY), for
 * the values it writes the same way every time: false on a real (whose
 * text an_json_dumps chooses) or a string that is not valid UTF-8 (which
 * jansson refuses), and the caller falls back to jansson. */
static inline bool plain8(const unsigned char *s);

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
        while (n - i >= 8 && plain8(s + i))
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
            size_t k = utf8_seq(s + i, n - i);
            if (!k)
                return false;
            i += k;
            continue;
        }
        put(b, s + run, i - run);
        switch (c) {
        case '"': put(b, "\\\"", 2); break;
        case '\\': put(b, "\\\\", 2); break;
        case '\b': put(b, "\\b", 2); break;
        case '\f': put(b, "\\f", 2); break;
        case '\n': put(b, "\\n", 2); break;
        case '\r': put(b, "\\r", 2); break;
        case '\t': put(b, "\\t", 2); break;
        default: an_buf_printf(b, "\\u%04X", c); break;
        }
        run = ++i;
    }
    put(b, s + run, n - run);
    put1(b, '"');
    return true;
}

static bool write_json(struct an_buf *b, const json_t *v, unsigned depth)
{
    if (depth > FAST_MAX_DEPTH)
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

const char *an_json_type_name(const json_t *v)
{
    if (!v)
        return "null";
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "object";
    case JSON_ARRAY:
        return "array";
    case JSON_STRING:
        return "string";
    case JSON_INTEGER:
    case JSON_REAL:
        return "number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "boolean";
    case JSON_NULL:
        break;
    }
    return "null";
}

const char *an_json_str(const json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* ---- a fast path for an_json_parse ----
 * jansson's lexer reads through a get/unget stream a byte at a time; most
 * of what ananke parses (an AG-UI event, tool arguments) is small and plain.
 * This parser builds the same jansson values for a strict subset of what
 * jansson accepts: anything else (reals, integers of 19+ digits, \u0000,
 * lone surrogates, invalid UTF-8, any syntax error, deep nesting) makes it
 * give up, and jansson parses the text again, so results and error
 * messages stay exactly jansson's.
 *
 * The same descent also only checks (an_json_valid_fast): it then builds
 * and allocates nothing, and a value it accepts is one it would have built,
 * so the two cannot disagree on what the fast path takes. */

struct fastp {
    const unsigned char *s, *end;
    unsigned depth;
    bool check;            /* only check: build nothing, allocate nothing */
    struct an_buf scratch; /* unescaped strings */
};

/* What the descent returns for "valid" when it only checks: jansson's
 * null is a static value, never counted, so the json_decref calls on the
 * way out of a failure are harmless on it. */
#define FAST_CHECKED json_null()

static void fast_ws(struct fastp *p)
{
    while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
        p->s++;
}

static long hex4(const unsigned char *s)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = an_hex_digit(s[i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* Are the eight bytes at s all printable ASCII, none of them '"' or '\\'?
 * (A false "no" is harmless: the caller then looks at them one by one.) */
static inline bool plain8(const unsigned char *s)
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

static bool fast_string(struct fastp *p, const char **out, size_t *len)
{
    size_t used;
    if (!an_json_scan_string((const char *)p->s, (size_t)(p->end - p->s),
                             p->check ? NULL : &p->scratch, out, len, &used))
        return false;
    p->s += used;
    return true;
}

/* Offset of the first byte of s[0..n) a string scanner must look at: '"',
 * '\\', a control byte or a non-ASCII byte; n when there is none. Sixteen
 * bytes at a time where SSE2 is there (every x86-64), else eight. */
static inline size_t plain_run(const unsigned char *s, size_t n)
{
    size_t i = 0;
#ifdef __SSE2__
    const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'), sp = _mm_set1_epi8(0x20);
    for (; n - i >= 16; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        /* signed: bytes of 0x80 and above count as below 0x20 */
        __m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, q), _mm_cmpeq_epi8(x, bs)),
                                   _mm_cmplt_epi8(x, sp));
        unsigned m = (unsigned)_mm_movemask_epi8(bad);
        if (m)
            return i + (size_t)__builtin_ctz(m);
    }
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* The lowest flagged byte is exact: a borrow only runs upwards from a
     * byte that is flagged itself. */
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    for (; n - i >= 8; i += 8) {
        uint64_t w, qq, bb;
        memcpy(&w, s + i, 8);
        qq = w ^ (ones * '"');
        bb = w ^ (ones * '\\');
        uint64_t bad = (((qq - ones) & ~qq) | ((bb - ones) & ~bb) | ((w - ones * 0x20) & ~w) | w) &
                       high;
        if (bad)
            return i + (size_t)__builtin_ctzll(bad) / 8;
    }
    /* the last bytes: the eight that end at n (a string's closing quote is
     * nearly always among them); those before i were found plain above, so
     * they flag nothing, and no borrow runs out of them */
    if (n >= 8 && i < n) {
        uint64_t w, qq, bb;
        memcpy(&w, s + n - 8, 8);
        qq = w ^ (ones * '"');
        bb = w ^ (ones * '\\');
        uint64_t bad = (((qq - ones) & ~qq) | ((bb - ones) & ~bb) | ((w - ones * 0x20) & ~w) | w) &
                       high;
        return bad ? n - 8 + (size_t)__builtin_ctzll(bad) / 8 : n;
    }
#endif
    while (i < n && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\')
        i++;
    return i;
}

/* put() that says whether the bytes went in (an_buf_append's result) */
static inline int put_rc(struct an_buf *b, const void *p, size_t n)
{
    if (b->len + n < b->cap && !b->cap_max) {
        memcpy(b->data + b->len, p, n);
        b->len += n;
        b->data[b->len] = '\0';
        return 0;
    }
    return an_buf_append(b, p, n);
}

bool an_json_scan_string(const char *str, size_t n, struct an_buf *scratch, const char **out,
                         size_t *len, size_t *used)
{
    const unsigned char *start = (const unsigned char *)str;
    const unsigned char *s = start + 1, *end = start + n, *run = s;
    bool esc = false;
    while (s < end) {
        s += plain_run(s, (size_t)(end - s));
        if (s == end)
            break;
        unsigned char c = *s;
        if (c == '"') {
            if (esc && !scratch) {
                *out = NULL;
                *len = 0;
            } else if (esc) {
                if (s > run && put_rc(scratch, run, (size_t)(s - run)))
                    return false;
                *out = an_buf_cstr(scratch);
                *len = scratch->len;
            } else {
                *out = (const char *)run;
                *len = (size_t)(s - run);
            }
            *used = (size_t)(s + 1 - start);
            return true;
        }
        if (c < 0x20)
            return false;
        if (c >= 0x80) {
            /* two-byte sequences (accents) inline, the rest by utf8_seq */
            if (c >= 0xC2 && c < 0xE0 && end - s >= 2 && (s[1] & 0xC0) == 0x80) {
                s += 2;
                continue;
            }
            size_t k = utf8_seq(s, (size_t)(end - s));
            if (!k)
                return false;
            s += k;
            continue;
        }
        /* an escape */
        if (!esc && scratch)
            an_buf_reset(scratch);
        esc = true;
        if (scratch && s > run && put_rc(scratch, run, (size_t)(s - run)))
            return false;
        if (end - s < 2)
            return false;
        char one;
        switch (s[1]) {
        case '"': one = '"'; break;
        case '\\': one = '\\'; break;
        case '/': one = '/'; break;
        case 'b': one = '\b'; break;
        case 'f': one = '\f'; break;
        case 'n': one = '\n'; break;
        case 'r': one = '\r'; break;
        case 't': one = '\t'; break;
        case 'u': one = 0; break;
        default: return false;
        }
        if (one) {
            if (scratch && put_rc(scratch, &one, 1))
                return false;
            s += 2;
            run = s;
            continue;
        }
        if (end - s < 6)
            return false;
        long cp = hex4(s + 2);
        if (cp <= 0) /* invalid, or \u0000: jansson's to judge */
            return false;
        s += 6;
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (end - s < 6 || s[0] != '\\' || s[1] != 'u')
                return false;
            long lo = hex4(s + 2);
            if (lo < 0xDC00 || lo > 0xDFFF)
                return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            s += 6;
        }
        run = s;
        if (!scratch)
            continue;
        char u[4];
        size_t un;
        if (cp < 0x80) {
            u[0] = (char)cp, un = 1;
        } else if (cp < 0x800) {
            u[0] = (char)(0xC0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 0x3F)), un = 2;
        } else if (cp < 0x10000) {
            u[0] = (char)(0xE0 | (cp >> 12)), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
            u[2] = (char)(0x80 | (cp & 0x3F)), un = 3;
        } else {
            u[0] = (char)(0xF0 | (cp >> 18)), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
            u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), un = 4;
        }
        if (put_rc(scratch, u, un))
            return false;
    }
    return false;
}

static json_t *fast_value(struct fastp *p);

static json_t *fast_object(struct fastp *p)
{
    json_t *o = p->check ? FAST_CHECKED : json_object();
    p->s++;
    fast_ws(p);
    if (p->s < p->end && *p->s == '}') {
        p->s++;
        return o;
    }
    for (;;) {
        const char *k;
        size_t klen;
        if (p->s >= p->end || *p->s != '"' || !fast_string(p, &k, &klen))
            goto fail;
        /* an unescaped key lies in the input; an escaped one in the
         * scratch buffer, which the value may reuse: copy that one */
        char kbuf[128];
        const char *key = k;
        char *own = NULL;
        if (!p->check && k == p->scratch.data) {
            own = klen < sizeof kbuf ? kbuf : malloc(klen + 1);
            if (!own)
                an_oom();
            memcpy(own, k, klen);
            key = own;
        }
        fast_ws(p);
        json_t *v = NULL;
        if (p->s < p->end && *p->s == ':') {
            p->s++;
            fast_ws(p);
            v = fast_value(p);
        }
        if (v && !p->check && json_object_setn_new_nocheck(o, key, klen, v))
            an_oom();
        if (own && own != kbuf)
            free(own);
        if (!v)
            goto fail;
        fast_ws(p);
        if (p->s >= p->end)
            goto fail;
        if (*p->s == '}') {
            p->s++;
            return o;
        }
        if (*p->s != ',')
            goto fail;
        p->s++;
        fast_ws(p);
    }
fail:
    json_decref(o);
    return NULL;
}

static json_t *fast_array(struct fastp *p)
{
    json_t *a = p->check ? FAST_CHECKED : json_array();
    p->s++;
    fast_ws(p);
    if (p->s < p->end && *p->s == ']') {
        p->s++;
        return a;
    }
    for (;;) {
        json_t *v = fast_value(p);
        if (!v)
            goto fail;
        if (!p->check && json_array_append_new(a, v))
            an_oom();
        fast_ws(p);
        if (p->s >= p->end)
            goto fail;
        if (*p->s == ']') {
            p->s++;
            return a;
        }
        if (*p->s != ',')
            goto fail;
        p->s++;
        fast_ws(p);
    }
fail:
    json_decref(a);
    return NULL;
}

static json_t *fast_number(struct fastp *p)
{
    const unsigned char *s = p->s, *end = p->end;
    bool neg = false;
    if (*s == '-')
        neg = true, s++;
    if (s >= end || *s < '0' || *s > '9')
        return NULL;
    const unsigned char *digits = s;
    long long v = 0;
    if (*s == '0') {
        s++;
    } else {
        while (s < end && *s >= '0' && *s <= '9') {
            if (s - digits >= 18) /* may not fit: jansson's to judge */
                return NULL;
            v = v * 10 + (*s++ - '0');
        }
    }
    /* a fraction, an exponent (reals) or a leading zero's digits */
    if (s < end && (*s == '.' || *s == 'e' || *s == 'E' || (*s >= '0' && *s <= '9')))
        return NULL;
    p->s = s;
    return p->check ? FAST_CHECKED : json_integer(neg ? -v : v);
}

static bool fast_word(struct fastp *p, const char *w, size_t n)
{
    if ((size_t)(p->end - p->s) < n || memcmp(p->s, w, n))
        return false;
    /* jansson reads a whole run of letters as one token */
    if ((size_t)(p->end - p->s) > n) {
        unsigned char c = p->s[n];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
            return false;
    }
    p->s += n;
    return true;
}

static json_t *fast_value(struct fastp *p)
{
    if (p->s >= p->end)
        return NULL;
    json_t *v = NULL;
    switch (*p->s) {
    case '{':
    case '[':
        if (++p->depth > FAST_MAX_DEPTH)
            return NULL;
        v = *p->s == '{' ? fast_object(p) : fast_array(p);
        p->depth--;
        return v;
    case '"': {
        const char *str;
        size_t len;
        if (!fast_string(p, &str, &len))
            return NULL;
        if (p->check)
            return FAST_CHECKED;
        v = json_stringn_nocheck(str, len);
        if (!v)
            an_oom();
        return v;
    }
    case 't':
        return fast_word(p, "true", 4) ? json_true() : NULL;
    case 'f':
        return fast_word(p, "false", 5) ? json_false() : NULL;
    case 'n':
        return fast_word(p, "null", 4) ? json_null() : NULL;
    default:
        return fast_number(p);
    }
}

static json_t *fast_parse(const char *s, size_t n, bool check)
{
    struct fastp p = {
        .s = (const unsigned char *)s, .end = (const unsigned char *)s + n, .check = check};
    fast_ws(&p);
    json_t *v = fast_value(&p);
    if (v) {
        fast_ws(&p);
        if (p.s != p.end) {
            json_decref(v);
            v = NULL;
        }
    }
    an_buf_release(&p.scratch);
    return v;
}


bool an_json_valid_fast(const char *s, size_t n)
{
    /* an_json_parse would refuse it: so must this, which vouches for it */
    return !an_json_tree_over_cap(s, n, NULL, 0) && fast_parse(s, n, true) != NULL;
}

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
        while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == '.' || s[j] == 'e' ||
                         s[j] == 'E' || ((s[j] == '+' || s[j] == '-') && j > i &&
                                         (s[j - 1] == 'e' || s[j - 1] == 'E')))) {
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
    json_t *fast = fast_parse(s, n, false);
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
