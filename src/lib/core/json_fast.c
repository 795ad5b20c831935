/* The parser's fast path and the string scanner it is built on (core/json.h). */
#include "core/json.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "ananke/err.h"
#include "core/buf.h"
#include "core/hex.h"
#include "core/json_int.h"
#include "core/utf8.h"

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
    const char *text; /* where the text starts: readable up to end */
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

static bool fast_string(struct fastp *p, const char **out, size_t *len)
{
    size_t used;
    if (!an_json_scan_string_in(p->text, (const char *)p->s, (size_t)(p->end - p->s),
                                p->check ? NULL : &p->scratch, out, len, &used))
        return false;
    p->s += used;
    return true;
}

/* The bytes a string scanner must stop at among the 16 at p, as a mask
 * (bit i for p[i]): '"', '\\' or a control byte; in *high those of 0x80
 * and above. Only bytes before `end` count, and only [lo, end) is read: a
 * block that would run past `end` is read as the 16 bytes ending there
 * when they start at or after `lo`, else copied out first. */
static inline unsigned stop_mask(const unsigned char *p, const unsigned char *end,
                                 const unsigned char *lo, unsigned *high)
{
    size_t left = (size_t)(end - p);
#ifdef __SSE2__
    const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'), c1f = _mm_set1_epi8(0x1F);
    __m128i x;
    unsigned shift = 0;
    if (left >= 16) {
        x = _mm_loadu_si128((const __m128i *)(const void *)p);
    } else if ((size_t)(p - lo) >= 16 - left) {
        x = _mm_loadu_si128((const __m128i *)(const void *)(end - 16));
        shift = (unsigned)(16 - left);
    } else {
        unsigned char tmp[16] = {0};
        memcpy(tmp, p, left);
        x = _mm_loadu_si128((const __m128i *)(const void *)tmp);
    }
    /* unsigned x <= 0x1F: min(x, 0x1F) == x */
    __m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(x, c1f), x);
    __m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, q), _mm_cmpeq_epi8(x, bs)), ctl);
    unsigned keep = left >= 16 ? 0xFFFFu : (1u << left) - 1;
    *high = ((unsigned)_mm_movemask_epi8(x) >> shift) & keep;
    return ((unsigned)_mm_movemask_epi8(bad) >> shift) & keep;
#else
    (void)lo;
    unsigned m = 0, h = 0;
    for (size_t i = 0; i < left && i < 16; i++) {
        m |= (unsigned)(p[i] < 0x20 || p[i] == '"' || p[i] == '\\') << i;
        h |= (unsigned)(p[i] >= 0x80) << i;
    }
    *high = h;
    return m;
#endif
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

/* The byte a JSON escape's letter stands for; 1 for 'u' (four hex digits
 * follow, and no simple escape stands for byte 1), 0 when it is none. */
static const unsigned char escape_bytes[256] = {
    ['"'] = '"',  ['\\'] = '\\', ['/'] = '/',  ['b'] = '\b', ['f'] = '\f',
    ['n'] = '\n', ['r'] = '\r',   ['t'] = '\t', ['u'] = 1,
};

/* A code point (at most 0x10FFFF) as UTF-8 in u; its length. */
static inline size_t utf8_encode(long cp, char u[4])
{
    if (cp < 0x80) {
        u[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12)), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    u[0] = (char)(0xF0 | (cp >> 18)), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

bool an_json_scan_string_in(const char *lo, const char *str, size_t n, struct an_buf *scratch,
                            const char **out, size_t *len, size_t *used)
{
    const unsigned char *start = (const unsigned char *)str;
    const unsigned char *s = start + 1, *end = start + n, *run = s;
    const unsigned char *low = (const unsigned char *)lo;
    bool esc = false;
    unsigned high = 0;
    while (s < end) {
        unsigned hi, m = stop_mask(s, end, low, &hi);
        if (!m) {
            high |= hi;
            s += end - s < 16 ? (size_t)(end - s) : 16;
            continue;
        }
        unsigned at = (unsigned)__builtin_ctz(m);
        high |= hi & ((1u << at) - 1);
        s += at;
        unsigned char c = *s;
        if (c == '"') {
            /* escapes are ASCII: the raw span is valid UTF-8 exactly when
             * the text it stands for is */
            size_t span = (size_t)(s - start - 1), avail = (size_t)(end - start - 1);
            if (high && !an_utf8_valid_in(start + 1, span, avail))
                return false;
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
        /* an escape */
        if (!esc && scratch)
            an_buf_reset(scratch);
        esc = true;
        if (scratch && s > run && put_rc(scratch, run, (size_t)(s - run)))
            return false;
        if (end - s < 2)
            return false;
        unsigned char one = escape_bytes[s[1]];
        if (!one)
            return false;
        if (one != 1) {
            char byte = (char)one;
            if (scratch && put_rc(scratch, &byte, 1))
                return false;
            s += 2;
            run = s;
            continue;
        }
        if (end - s < 6)
            return false;
        long cp = an_hex4(s + 2);
        if (cp <= 0) /* invalid, or \u0000: jansson's to judge */
            return false;
        s += 6;
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (end - s < 6 || s[0] != '\\' || s[1] != 'u')
                return false;
            long lo2 = an_hex4(s + 2);
            if (lo2 < 0xDC00 || lo2 > 0xDFFF)
                return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo2 - 0xDC00);
            s += 6;
        }
        run = s;
        if (!scratch)
            continue;
        char u[4];
        size_t un = utf8_encode(cp, u);
        if (put_rc(scratch, u, un))
            return false;
    }
    return false;
}

bool an_json_scan_string(const char *s, size_t n, struct an_buf *scratch, const char **out,
                         size_t *len, size_t *used)
{
    return an_json_scan_string_in(s, s, n, scratch, out, len, used);
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
        if (++p->depth > AN_JSON_MAX_DEPTH)
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

json_t *an_json_fast_parse(const char *s, size_t n, bool check)
{
    struct fastp p = {
        .s = (const unsigned char *)s, .end = (const unsigned char *)s + n, .text = s,
        .check = check};
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
    return !an_json_tree_over_cap(s, n, NULL, 0) && an_json_fast_parse(s, n, true) != NULL;
}
