/*
 * The fast path of the YAML reader: libyaml's events for the common subset
 * of YAML, or "not mine" (core/yaml_fast.h).
 *
 * The subset, one document without directives:
 *   - block mappings whose keys are one-line scalars followed by ": ";
 *     block sequences ("- "), compact ("- k: v", "- - x") and indentless
 *     ("k:\n- x") ones included; an empty value or item (a null);
 *   - one-line scalars: plain; 'single' quoted; "double" quoted with the
 *     escapes of YAML 1.1 except \L, \P and escaped line breaks;
 *   - one-line flow sequences and mappings of those scalars and of each
 *     other, without empty entries, trailing commas or comments;
 *   - blank lines, comments (after a space), a leading "---" line.
 * Anything else is declined: anchors, aliases, tags, block scalars,
 * multi-line scalars or flow collections, "?" keys, directives, a second
 * document, tabs, CR, a BOM, bytes libyaml's reader rejects or treats as a
 * line break, an indentation that is not exactly one of the open levels,
 * and the odd corners where the shortest rule here would differ from
 * libyaml's (a '#' right after a quote, a ':' inside a plain scalar in a
 * flow collection, a plain scalar starting with '?' or ':', keys over 1000
 * bytes, nesting over FAST_MAX_DEPTH).
 *
 * Where libyaml puts its marks, and so where these go: a block mapping at
 * its first key, a block sequence at its first '-', a flow collection at
 * its bracket, a quoted scalar at its opening quote, an empty value just
 * after its ':' or '-'. Columns count characters, not bytes.
 *
 * The grammar is checked line by line: a block collection at column n owns
 * the lines at column n; a line at a smaller column closes it, a line at a
 * larger one is only legal where a nested block starts (after "k:" or
 * "-"), so the continuation line of a multi-line plain scalar is declined
 * rather than folded.
 */
#include "core/yaml_fast.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/hex.h"

#define FAST_MAX_DEPTH 64u
/* libyaml forgets a simple key 1024 characters after its start; bytes >=
 * characters, so this bound keeps every key well inside it. */
#define FAST_MAX_KEY 1000

struct scan {
    const char *start, *p, *end; /* the input, the cursor */
    const char *bol;             /* beginning of the current line */
    unsigned line;               /* 0-based */
    int indent;                  /* column of the content line at p; -1 at the end */
    bool ascii;                  /* no byte >= 0x80: a column is a byte offset */
    unsigned depth;
    struct an_yfast *f;
};

struct scalar {
    const char *start; /* the first character (a quote for quoted ones) */
    const char *value;
    size_t len;
    unsigned line, col;
    yaml_scalar_style_t style;
};

/* Byte classes, one bit per question the scanner asks. */
enum {
    C_TEXT = 1,    /* printable ASCII or '\n'; other bytes get a closer look */
    C_PLAIN = 4,   /* may end a plain scalar in block context: ' ', ':', '#', '\n' */
    C_FLOW = 8,    /* ends one in flow context: ',', '[', ']', '{', '}' */
    C_DOUBLE = 16, /* stops a "double quoted" scan: '"', '\\', '\n' */
    C_SINGLE = 32, /* stops a 'single quoted' scan: '\'', '\n' */
    C_START = 64,  /* cannot start a plain scalar here: an indicator */
};
static unsigned char cls[256];

static void init_classes(void)
{
    for (unsigned c = 0x20; c < 0x7f; c++)
        cls[c] = C_TEXT;
    cls['\n'] = C_TEXT | C_PLAIN | C_DOUBLE | C_SINGLE;
    cls[' '] |= C_PLAIN;
    cls[':'] |= C_PLAIN;
    cls['#'] |= C_PLAIN;
    for (const char *c = ",[]{}"; *c; c++)
        cls[(unsigned char)*c] |= C_FLOW;
    cls['"'] |= C_DOUBLE;
    cls['\\'] |= C_DOUBLE;
    cls['\''] |= C_SINGLE;
    /* libyaml's indicators; '-' is handled apart, and '?' and ':', which
     * could start a plain scalar in block context, are declined */
    for (const char *c = "?:,[]{}#&*!|>'\"%@`"; *c; c++)
        cls[(unsigned char)*c] |= C_START;
}

/* Every byte is one libyaml reads as a printable character and never as a
 * line break or a BOM: printable ASCII and '\n', and well-formed UTF-8 for
 * U+00A0..U+10FFFF minus surrogates, U+2028, U+2029, U+FEFF, U+FFFE/F. */
static bool check_chars(const unsigned char *s, size_t n, bool *ascii)
{
    *ascii = true;
    for (size_t i = 0; i < n;) {
        while (i < n && (cls[s[i]] & C_TEXT))
            i++;
        if (i == n)
            break;
        unsigned c = s[i];
        if (c < 0x80)
            return false;
        *ascii = false;
        uint32_t cp;
        size_t k;
        if (c >= 0xc2 && c <= 0xdf) {
            cp = c & 0x1f;
            k = 1;
        } else if (c >= 0xe0 && c <= 0xef) {
            cp = c & 0x0f;
            k = 2;
        } else if (c >= 0xf0 && c <= 0xf4) {
            cp = c & 0x07;
            k = 3;
        } else {
            return false;
        }
        if (n - i <= k)
            return false;
        for (size_t j = 1; j <= k; j++) {
            if ((s[i + j] & 0xc0) != 0x80)
                return false;
            cp = (cp << 6) | (s[i + j] & 0x3f);
        }
        if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10ffff)))
            return false; /* overlong or out of range */
        if (cp < 0xa0 || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0x2028 || cp == 0x2029 ||
            cp == 0xfeff || (cp >= 0xfffe && cp <= 0xffff))
            return false;
        i += k + 1;
    }
    return true;
}

static unsigned col_at(const struct scan *s, const char *q)
{
    if (s->ascii)
        return (unsigned)(q - s->bol);
    unsigned col = 0;
    for (const char *c = s->bol; c < q; c++)
        col += ((unsigned char)*c & 0xc0) != 0x80;
    return col;
}

/* A space, a line break or the end: what libyaml calls blankz, as no tab
 * gets this far. */
static bool blankz(const struct scan *s, const char *q)
{
    return q >= s->end || *q == ' ' || *q == '\n';
}

static bool is_entry(const struct scan *s)
{
    return s->p < s->end && *s->p == '-' && blankz(s, s->p + 1);
}

static void skip_spaces(struct scan *s)
{
    while (s->p < s->end && *s->p == ' ')
        s->p++;
}

static struct an_yfast_event *emit(struct scan *s, yaml_event_type_t type, unsigned line,
                                   unsigned col)
{
    struct an_yfast *f = s->f;
    if (f->n == f->cap) {
        f->cap *= 2;
        if (f->ev == f->small_ev) {
            f->ev = an_xmalloc(f->cap * sizeof *f->ev);
            memcpy(f->ev, f->small_ev, sizeof f->small_ev);
        } else {
            f->ev = an_xrealloc(f->ev, f->cap * sizeof *f->ev);
        }
    }
    struct an_yfast_event *e = &f->ev[f->n++];
    *e = (struct an_yfast_event){.type = (unsigned char)type, .line = line, .col = col};
    return e;
}

static void emit_scalar(struct scan *s, const struct scalar *sc)
{
    struct an_yfast_event *e = emit(s, YAML_SCALAR_EVENT, sc->line, sc->col);
    e->value = sc->value;
    e->len = (unsigned)sc->len;
    e->style = (unsigned char)sc->style;
}

/* The null of "k:" or "-" with nothing after it. */
static void emit_empty(struct scan *s, unsigned line, unsigned col)
{
    struct an_yfast_event *e = emit(s, YAML_SCALAR_EVENT, line, col);
    e->value = "";
    e->style = YAML_PLAIN_SCALAR_STYLE;
}

/* Where the next decoded scalar goes. A decoded scalar is never longer
 * than its source, so room for the whole input is always enough: the
 * buffer inside the struct when the input fits it, else one of the
 * input's size, made on first use. */
static char *scratch(struct scan *s)
{
    struct an_yfast *f = s->f;
    size_t len = (size_t)(s->end - s->start);
    if (f->scratch_cap < len) {
        f->scratch = an_xmalloc(len);
        f->scratch_cap = len;
        f->scratch_len = 0;
    }
    return f->scratch + f->scratch_len;
}

/* After the blank and comment lines from p (the start of a line): the next
 * content line, its indentation in s->indent (-1 at the end). */
static void skip_blank_lines(struct scan *s)
{
    for (;;) {
        const char *q = s->p;
        while (q < s->end && *q == ' ')
            q++;
        if (q < s->end && *q == '#')
            while (q < s->end && *q != '\n')
                q++;
        if (q == s->end) {
            s->p = q;
            s->indent = -1;
            return;
        }
        if (*q != '\n') {
            s->indent = (int)(q - s->p);
            s->p = q;
            return;
        }
        s->p = q + 1;
        s->bol = s->p;
        s->line++;
    }
}

/* A "---" or "..." line: the end of the document. */
static bool doc_marker(const struct scan *s)
{
    return s->indent == 0 && s->end - s->p >= 3 &&
           (!memcmp(s->p, "---", 3) || !memcmp(s->p, "...", 3)) && blankz(s, s->p + 3);
}

/* skip_blank_lines(), declining a document marker. */
static bool next_line(struct scan *s)
{
    skip_blank_lines(s);
    return !doc_marker(s);
}

/* The rest of a line after a node: spaces, maybe a comment, the line break;
 * then the next content line. */
static bool end_line(struct scan *s)
{
    skip_spaces(s);
    if (s->p < s->end && *s->p == '#') {
        if (s->p[-1] != ' ')
            return false;
        while (s->p < s->end && *s->p != '\n')
            s->p++;
    }
    if (s->p < s->end) {
        if (*s->p != '\n')
            return false;
        s->p++;
        s->bol = s->p;
        s->line++;
    }
    return next_line(s);
}

static bool at_end_of_line(const struct scan *s)
{
    return s->p >= s->end || *s->p == '\n' || (*s->p == '#' && s->p[-1] == ' ');
}

/* The escapes of a "double quoted" scalar that stand for fixed bytes, as
 * libyaml's yaml_parser_scan_flow_scalar() decodes them (\<TAB> aside:
 * no tab gets this far). */
static const struct {
    unsigned char len;
    char out[3];
} escapes[128] = {
    ['0'] = {1, "\0"},   ['a'] = {1, "\a"},       ['b'] = {1, "\b"},       ['t'] = {1, "\t"},
    ['n'] = {1, "\n"},   ['v'] = {1, "\v"},       ['f'] = {1, "\f"},       ['r'] = {1, "\r"},
    ['e'] = {1, "\x1b"}, [' '] = {1, " "},        ['"'] = {1, "\""},       ['/'] = {1, "/"},
    ['\\'] = {1, "\\"},  ['N'] = {2, "\xc2\x85"}, ['_'] = {2, "\xc2\xa0"},
};

/* A "double quoted" scalar on one line, decoded as libyaml's
 * yaml_parser_scan_flow_scalar() does. */
static bool scan_double(struct scan *s, struct scalar *sc)
{
    const char *q = s->p + 1;
    bool escaped = false;
    for (;;) {
        while (q < s->end && !(cls[(unsigned char)*q] & C_DOUBLE))
            q++;
        if (q >= s->end || *q != '\\')
            break;
        if (q + 1 >= s->end || q[1] == '\n')
            return false; /* an escaped line break */
        escaped = true;
        q += 2;
    }
    if (q >= s->end || *q != '"')
        return false;
    const char *close = q;
    sc->style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
    if (!escaped) {
        sc->value = s->p + 1;
        sc->len = (size_t)(close - sc->value);
        s->p = close + 1;
        return true;
    }
    char *out = scratch(s);
    char *o = out;
    for (q = s->p + 1; q < close; q++) {
        if (*q != '\\') {
            *o++ = *q;
            continue;
        }
        q++;
        unsigned char e = (unsigned char)*q;
        if (e < 128 && escapes[e].len) {
            memcpy(o, escapes[e].out, escapes[e].len);
            o += escapes[e].len;
            continue;
        }
        /* \L and \P would outgrow their source; others are errors */
        unsigned len = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
        if (!len)
            return false;
        uint32_t v = 0;
        for (unsigned k = 1; k <= len; k++) {
            int h = q + k < close ? an_hex_digit((unsigned char)q[k]) : -1;
            if (h < 0)
                return false;
            v = (v << 4) | (uint32_t)h;
        }
        q += len;
        if ((v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff)
            return false;
        if (v <= 0x7f) {
            *o++ = (char)v;
        } else if (v <= 0x7ff) {
            *o++ = (char)(0xc0 + (v >> 6));
            *o++ = (char)(0x80 + (v & 0x3f));
        } else if (v <= 0xffff) {
            *o++ = (char)(0xe0 + (v >> 12));
            *o++ = (char)(0x80 + ((v >> 6) & 0x3f));
            *o++ = (char)(0x80 + (v & 0x3f));
        } else {
            *o++ = (char)(0xf0 + (v >> 18));
            *o++ = (char)(0x80 + ((v >> 12) & 0x3f));
            *o++ = (char)(0x80 + ((v >> 6) & 0x3f));
            *o++ = (char)(0x80 + (v & 0x3f));
        }
    }
    sc->value = out;
    sc->len = (size_t)(o - out);
    s->f->scratch_len += sc->len;
    s->p = close + 1;
    return true;
}

/* A 'single quoted' scalar on one line; '' is a quote. */
static bool scan_single(struct scan *s, struct scalar *sc)
{
    const char *q = s->p + 1;
    bool pairs = false;
    for (;; q++) {
        while (q < s->end && !(cls[(unsigned char)*q] & C_SINGLE))
            q++;
        if (q >= s->end || *q == '\n')
            return false;
        if (q + 1 < s->end && q[1] == '\'') {
            pairs = true;
            q++;
            continue;
        }
        break;
    }
    const char *close = q;
    sc->style = YAML_SINGLE_QUOTED_SCALAR_STYLE;
    sc->value = s->p + 1;
    sc->len = (size_t)(close - sc->value);
    if (pairs) {
        char *out = scratch(s);
        char *o = out;
        for (q = s->p + 1; q < close; q++) {
            *o++ = *q;
            if (*q == '\'')
                q++;
        }
        sc->value = out;
        sc->len = (size_t)(o - out);
        s->f->scratch_len += sc->len;
    }
    s->p = close + 1;
    return true;
}

/* A plain scalar on one line, in block or flow context: it ends at ": ",
 * at " #", at the line's end and, in flow context, at ",[]{}"; trailing
 * spaces are not part of it. */
static bool scan_plain(struct scan *s, bool flow, struct scalar *sc)
{
    const char *q = s->p;
    unsigned char c0 = (unsigned char)*q;
    if (c0 == ' ' || c0 == '\n' || (cls[c0] & C_START))
        return false;
    if (c0 == '-' && (blankz(s, q + 1) || (flow && (cls[(unsigned char)q[1]] & C_FLOW))))
        return false;
    unsigned stop = flow ? C_PLAIN | C_FLOW : C_PLAIN;
    const char *last = q;
    for (;;) {
        const char *r = q;
        while (q < s->end && !(cls[(unsigned char)*q] & stop))
            q++;
        if (q > r)
            last = q;
        if (q >= s->end || *q == '\n')
            break;
        if (*q == ' ') {
            q++;
            continue;
        }
        if (*q == ':') {
            if (blankz(s, q + 1))
                break;
            if (flow)
                return false;
        } else if (*q == '#') {
            if (q[-1] == ' ')
                break;
        } else {
            break; /* a flow indicator */
        }
        last = ++q;
    }
    sc->style = YAML_PLAIN_SCALAR_STYLE;
    sc->value = s->p;
    sc->len = (size_t)(last - s->p);
    s->p = last;
    return true;
}

static bool scan_scalar(struct scan *s, bool flow, struct scalar *sc)
{
    sc->start = s->p;
    sc->line = s->line;
    sc->col = col_at(s, s->p);
    if (*s->p == '"')
        return scan_double(s, sc);
    if (*s->p == '\'')
        return scan_single(s, sc);
    return scan_plain(s, flow, sc);
}

/* After a key scalar: spaces, then the ':' of a key within libyaml's
 * simple key limit. `flow`: any ':' will do; in block context it must be
 * followed by a blank. */
static bool key_colon(struct scan *s, const struct scalar *key, bool flow)
{
    skip_spaces(s);
    if (s->p >= s->end || *s->p != ':' || (!flow && !blankz(s, s->p + 1)))
        return false;
    if (s->p - key->start > FAST_MAX_KEY)
        return false;
    s->p++;
    return true;
}

static bool flow_node(struct scan *s);

/* [a, b] or {k: v, ...} on one line; the cursor is at the bracket. */
static bool flow_collection(struct scan *s)
{
    bool map = *s->p == '{';
    char close = map ? '}' : ']';
    if (++s->depth > FAST_MAX_DEPTH)
        return false;
    emit(s, map ? YAML_MAPPING_START_EVENT : YAML_SEQUENCE_START_EVENT, s->line, col_at(s, s->p));
    s->p++;
    skip_spaces(s);
    if (s->p < s->end && *s->p == close) {
        s->p++;
    } else {
        for (;;) {
            if (s->p >= s->end)
                return false;
            if (map) {
                struct scalar key;
                if (*s->p == '[' || *s->p == '{' || !scan_scalar(s, true, &key))
                    return false;
                emit_scalar(s, &key);
                if (!key_colon(s, &key, true))
                    return false;
                skip_spaces(s);
                if (s->p >= s->end || *s->p == ',' || *s->p == '}')
                    return false; /* an empty value */
            }
            if (!flow_node(s))
                return false;
            skip_spaces(s);
            if (s->p >= s->end)
                return false;
            if (*s->p == close) {
                s->p++;
                break;
            }
            if (*s->p != ',')
                return false;
            s->p++;
            skip_spaces(s);
            if (s->p >= s->end || *s->p == ',' || *s->p == close)
                return false;
        }
    }
    emit(s, map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT, s->line, 0);
    s->depth--;
    return true;
}

static bool flow_node(struct scan *s)
{
    if (*s->p == '[' || *s->p == '{')
        return flow_collection(s);
    struct scalar sc;
    if (*s->p == '\n' || !scan_scalar(s, true, &sc))
        return false;
    emit_scalar(s, &sc);
    return true;
}

/* A scalar or a flow collection after "k: " or "- ", then the rest of its
 * line. */
static bool inline_value(struct scan *s)
{
    if (*s->p == '[' || *s->p == '{') {
        if (!flow_collection(s))
            return false;
    } else {
        struct scalar sc;
        if (is_entry(s) || !scan_scalar(s, false, &sc))
            return false;
        emit_scalar(s, &sc);
    }
    return end_line(s);
}

static bool block_node(struct scan *s);
static bool block_seq(struct scan *s, int n, bool indentless);

/* A block mapping at column n whose first key was just read (the cursor is
 * after it). Returns at the first content line left of n, or the end. */
static bool block_map(struct scan *s, int n, struct scalar key)
{
    if (++s->depth > FAST_MAX_DEPTH)
        return false;
    emit(s, YAML_MAPPING_START_EVENT, key.line, key.col);
    for (;;) {
        emit_scalar(s, &key);
        if (!key_colon(s, &key, false))
            return false;
        unsigned vline = s->line, vcol = col_at(s, s->p);
        skip_spaces(s);
        if (!at_end_of_line(s)) {
            if (!inline_value(s))
                return false;
        } else {
            if (!end_line(s))
                return false;
            if (s->indent > n) {
                if (!block_node(s))
                    return false;
            } else if (s->indent == n && is_entry(s)) {
                if (!block_seq(s, n, true))
                    return false;
            } else {
                emit_empty(s, vline, vcol);
            }
        }
        if (s->indent < n)
            break;
        if (s->indent > n || is_entry(s))
            return false;
        if (*s->p == '[' || *s->p == '{' || !scan_scalar(s, false, &key))
            return false;
    }
    emit(s, YAML_MAPPING_END_EVENT, s->line, 0);
    s->depth--;
    return true;
}

/* A block sequence whose first '-' is at the cursor, column n. An
 * indentless one (the value of a key at the same column) ends at a line of
 * column n that is not an entry. */
static bool block_seq(struct scan *s, int n, bool indentless)
{
    if (++s->depth > FAST_MAX_DEPTH)
        return false;
    emit(s, YAML_SEQUENCE_START_EVENT, s->line, col_at(s, s->p));
    for (;;) {
        s->p++; /* the '-' */
        unsigned eline = s->line, ecol = col_at(s, s->p);
        skip_spaces(s);
        if (at_end_of_line(s)) {
            if (!end_line(s))
                return false;
            if (s->indent > n) {
                if (!block_node(s))
                    return false;
            } else {
                emit_empty(s, eline, ecol);
            }
        } else if (is_entry(s)) {
            if (!block_seq(s, (int)col_at(s, s->p), false))
                return false;
        } else if (*s->p == '[' || *s->p == '{') {
            if (!inline_value(s))
                return false;
        } else {
            struct scalar sc;
            if (!scan_scalar(s, false, &sc))
                return false;
            const char *after = s->p;
            skip_spaces(s);
            if (s->p < s->end && *s->p == ':' && blankz(s, s->p + 1)) {
                s->p = after;
                if (!block_map(s, (int)sc.col, sc))
                    return false;
            } else {
                s->p = after;
                emit_scalar(s, &sc);
                if (!end_line(s))
                    return false;
            }
        }
        if (s->indent < n)
            break;
        if (s->indent > n)
            return false;
        if (!is_entry(s)) {
            if (indentless)
                break;
            return false;
        }
    }
    emit(s, YAML_SEQUENCE_END_EVENT, s->line, 0);
    s->depth--;
    return true;
}

/* The block node that starts the content line at the cursor: a sequence or
 * a mapping (a lone scalar, on a line of its own, is declined). */
static bool block_node(struct scan *s)
{
    int n = s->indent;
    if (is_entry(s))
        return block_seq(s, n, false);
    struct scalar key;
    if (*s->p == '[' || *s->p == '{' || !scan_scalar(s, false, &key))
        return false;
    return block_map(s, n, key);
}

static bool parse(struct scan *s)
{
    skip_blank_lines(s);
    if (s->indent < 0)
        return true; /* no document: libyaml gives no node either */
    if (doc_marker(s)) {
        if (*s->p != '-')
            return false;
        s->p += 3;
        if (!end_line(s) || s->indent < 0)
            return false; /* "---" alone: an empty document, a null */
    }
    if (!block_node(s))
        return false;
    return s->indent < 0;
}

bool an_yaml_fast_parse(struct an_yfast *f, const char *data, size_t len)
{
    f->ev = f->small_ev;
    f->n = 0;
    f->cap = sizeof f->small_ev / sizeof f->small_ev[0];
    f->scratch = f->small_scratch;
    f->scratch_len = 0;
    f->scratch_cap = sizeof f->small_scratch;
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, init_classes);
    if (len == 0)
        return true; /* no document (and no arithmetic on a maybe-NULL data) */
    struct scan s = {.start = data, .p = data, .end = data + len, .bol = data, .f = f};
    if (len > AN_YAML_FAST_MAX_BYTES || !check_chars((const unsigned char *)data, len, &s.ascii))
        return false;
    return parse(&s);
}

void an_yaml_fast_release(struct an_yfast *f)
{
    if (f->ev != f->small_ev)
        free(f->ev);
    if (f->scratch != f->small_scratch)
        free(f->scratch);
    f->ev = f->small_ev;
    f->scratch = f->small_scratch;
    f->n = 0;
}

void an_yaml_fast_event(const struct an_yfast *f, size_t i, yaml_event_t *ev)
{
    if (i >= f->n) {
        *ev = (yaml_event_t){.type = YAML_STREAM_END_EVENT};
        return;
    }
    const struct an_yfast_event *e = &f->ev[i];
    *ev = (yaml_event_t){.type = (yaml_event_type_t)e->type,
                         .start_mark = {.line = e->line, .column = e->col}};
    if (ev->type == YAML_SCALAR_EVENT) {
        ev->data.scalar.value = (yaml_char_t *)(uintptr_t)e->value;
        ev->data.scalar.length = e->len;
        ev->data.scalar.style = (yaml_scalar_style_t)e->style;
    }
}
