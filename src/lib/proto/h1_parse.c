/*
 * The HTTP/1.1 response parser of proto/h1.h. Its leniencies and its
 * errors are libcurl's (7.88, http.c and http_chunks.c), so that an answer
 * reads the same whichever client took it: a line ends at LF (a CR before it
 * is part of the line end), a line that starts with CR or LF ends the head,
 * the status line is "HTTP/1.x NNN ...", folded lines are skipped, the last
 * valid Content-Length counts unless a Transfer-Encoding came, a chunk's
 * size line ends at its LF whatever came after the digits, 1xx answers are
 * skipped (101 ends the head: what follows is read until the close), and
 * the messages are libcurl's. One difference on purpose: a transfer coding
 * other than chunked (libcurl would decode gzip) fails the answer.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/hex.h"
#include "proto/h1.h"

enum {
    S_STATUS = 0,  /* the status line */
    S_HEADER,      /* header lines */
    S_BODY_LEN,    /* a Content-Length body: `left` to go */
    S_BODY_CLOSE,  /* a body that ends when the peer closes */
    S_CHUNK_HEX,   /* a chunk's size */
    S_CHUNK_LF,    /* the rest of the size line */
    S_CHUNK_DATA,  /* `left` bytes of chunk data */
    S_CHUNK_POSTLF,/* the line end after the data */
    S_TRAILER,     /* trailer lines after the last chunk */
    S_TRAILER_CR,
    S_TRAILER_POSTCR,
    S_CHUNK_STOP,
    S_END,
};

void an_h1_parse_init(struct an_h1_parser *p, size_t max_header, an_h1_head_fn on_head,
                      an_h1_body_fn on_body, void *ud)
{
    memset(p, 0, sizeof *p);
    p->head.length = -1;
    p->max_header = max_header ? max_header : AN_H1_DEFAULT_MAX_HEADER;
    p->on_head = on_head;
    p->on_body = on_body;
    p->ud = ud;
    an_buf_init(&p->line, 0);
}

void an_h1_parse_release(struct an_h1_parser *p)
{
    an_buf_release(&p->line);
}

static enum an_h1_rc fail(struct an_h1_parser *p, const char *why)
{
    p->why = why;
    p->state = S_END;
    return p->rc = AN_H1_FAIL;
}

/* Count header bytes against the cap (before they are kept). */
static bool header_room(struct an_h1_parser *p, size_t n)
{
    if (n > p->max_header - p->header_bytes || p->header_bytes > p->max_header) {
        p->header_bytes += n;
        p->state = S_END;
        p->rc = AN_H1_CAP;
        return false;
    }
    p->header_bytes += n;
    return true;
}

/* libcurl's curlx_strtoofft: blanks skipped, then a non-negative decimal
 * (or hex) number; the rest of the text is ignored. 0: a number, 1: none
 * or negative, 2: too large. */
static int strtoofft(const char *s, const char *end, int base, int64_t *out)
{
    *out = 0;
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    if (s == end || *s == '-' || isspace((unsigned char)*s))
        return 1;
    if (*s == '+')
        s++;
    uint64_t v = 0;
    const char *d = s;
    for (; s < end; s++) {
        int c = (unsigned char)*s, k;
        if (c >= '0' && c <= '9')
            k = c - '0';
        else if (base == 16 && c >= 'a' && c <= 'f')
            k = c - 'a' + 10;
        else if (base == 16 && c >= 'A' && c <= 'F')
            k = c - 'A' + 10;
        else
            break;
        if (v > ((uint64_t)INT64_MAX - (uint64_t)k) / (uint64_t)base)
            return 2;
        v = v * (uint64_t)base + (uint64_t)k;
    }
    if (s == d)
        return 1;
    *out = (int64_t)v;
    return 0;
}

/* The header's value, blanks and the line end trimmed, into dst (cut). */
static void copy_value(char *dst, size_t cap, const char *v, const char *end)
{
    while (v < end && isspace((unsigned char)*v))
        v++;
    while (end > v && isspace((unsigned char)end[-1]))
        end--;
    size_t n = (size_t)(end - v);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, v, n);
    dst[n] = '\0';
}

static bool has_word(const char *v, const char *end, const char *w)
{
    size_t n = strlen(w);
    for (; (size_t)(end - v) >= n; v++)
        if (!strncasecmp(v, w, n))
            return true;
    return false;
}

static int month_of(const char *s)
{
    static const char m[] = "janfebmaraprmayjunjulaugsepoctnovdec";
    for (int i = 0; i < 12; i++)
        if (!strncasecmp(s, m + 3 * i, 3))
            return i;
    return -1;
}

/* An HTTP date (IMF-fixdate, RFC 850, asctime) as seconds since the epoch,
 * or -1. */
static int64_t http_date(const char *s, const char *end)
{
    int day = -1, mon = -1, year = -1, hh = -1, mi = -1, ss = -1;
    while (s < end) {
        if (isalpha((unsigned char)*s)) {
            const char *w = s;
            while (s < end && isalpha((unsigned char)*s))
                s++;
            if (s - w == 3 && month_of(w) >= 0)
                mon = month_of(w);
            continue;
        }
        if (isdigit((unsigned char)*s)) {
            if (end - s >= 8 && s[2] == ':' && s[5] == ':' && isdigit((unsigned char)s[1])) {
                hh = (s[0] - '0') * 10 + (s[1] - '0');
                mi = (s[3] - '0') * 10 + (s[4] - '0');
                ss = (s[6] - '0') * 10 + (s[7] - '0');
                s += 8;
                continue;
            }
            int v = 0, nd = 0;
            while (s < end && isdigit((unsigned char)*s) && nd < 5) {
                v = v * 10 + (*s++ - '0');
                nd++;
            }
            if (nd <= 2 && day < 0 && mon < 0)
                day = v;
            else if (nd <= 2 && day < 0)
                day = v; /* asctime: the month comes first */
            else if (nd == 4 || (nd == 2 && day >= 0))
                year = nd == 2 ? (v < 70 ? 2000 + v : 1900 + v) : v;
            continue;
        }
        s++;
    }
    if (day < 1 || day > 31 || mon < 0 || year < 1970 || hh < 0 || hh > 23 || mi > 59 || ss > 60)
        return -1;
    struct tm tm = {.tm_year = year - 1900, .tm_mon = mon, .tm_mday = day,
                    .tm_hour = hh, .tm_min = mi, .tm_sec = ss};
    return (int64_t)timegm(&tm);
}

static void retry_after(struct an_h1_parser *p, const char *v, const char *end)
{
    int64_t n = 0;
    (void)strtoofft(v, end, 10, &n);
    if (!n) {
        int64_t d = http_date(v, end);
        if (d != -1)
            n = d - (int64_t)time(NULL);
    }
    p->head.retry_after_s = n;
}

/* True when line[0..n) starts with the header name `name` (with its ':'). */
static bool is(const char *line, size_t n, const char *name, size_t nl)
{
    return n >= nl && !strncasecmp(line, name, nl);
}
#define IS(name) is(l, n, name, sizeof name - 1)
#define VAL(name) (l + sizeof name - 1)

static enum an_h1_rc transfer_coding(struct an_h1_parser *p, const char *v, const char *end)
{
    p->saw_te = true;
    while (v < end) {
        while (v < end && (*v == ' ' || *v == '\t' || *v == ','))
            v++;
        const char *w = v;
        size_t wn = 0;
        for (; v < end && *v != ','; v++)
            if (!isspace((unsigned char)*v))
                wn = (size_t)(v - w) + 1;
        if (wn == 7 && !strncasecmp(w, "chunked", 7))
            p->head.chunked = true;
        else if (wn && !(wn == 8 && !strncasecmp(w, "identity", 8)))
            return fail(p, "Unsupported transfer coding in the response (only chunked is read "
                           "without libcurl)");
    }
    if (!p->head.chunked) {
        p->head.close = true;
        p->ignore_cl = true;
    }
    return AN_H1_MORE;
}

/* One header line of the head, its line end included. */
static enum an_h1_rc header_line(struct an_h1_parser *p, const char *l, size_t n)
{
    const char *end = l + n;
    struct an_h1_head *h = &p->head;
    if (memchr(l, '\0', n))
        return fail(p, "Nul byte in header");
    if ((l[0] == ' ' || l[0] == '\t') && p->lines > 2)
        return AN_H1_MORE; /* a folded line: nothing here reads one */
    if (!memchr(l, ':', n))
        return fail(p, "Header without colon");
    if (!p->bodyless && IS("Content-Length:")) {
        int64_t len;
        int r = strtoofft(VAL("Content-Length:"), end, 10, &len);
        if (r == 1)
            return fail(p, "Invalid Content-Length: value");
        if (r == 2)
            h->close = true; /* too large to read: ignored, as libcurl does */
        else
            h->length = len;
    } else if (IS("Content-Type:")) {
        char v[sizeof h->content_type];
        copy_value(v, sizeof v, VAL("Content-Type:"), end);
        if (*v)
            memcpy(h->content_type, v, sizeof v);
    } else if (h->minor == 0 && IS("Connection:") && has_word(VAL("Connection:"), end, "keep-alive")) {
        h->close = false;
    } else if (IS("Connection:") && has_word(VAL("Connection:"), end, "close")) {
        h->close = true;
    } else if (!p->bodyless && IS("Transfer-Encoding:")) {
        return transfer_coding(p, VAL("Transfer-Encoding:"), end);
    } else if (IS("Retry-After:")) {
        retry_after(p, VAL("Retry-After:"), end);
    } else if (h->status >= 300 && h->status < 400 && IS("Location:") && !h->location[0] &&
               !h->location_cut) {
        const char *v = VAL("Location:"), *e = end;
        while (v < e && isspace((unsigned char)*v))
            v++;
        while (e > v && isspace((unsigned char)e[-1]))
            e--;
        if (e > v && !h->location_cut) {
            size_t k = (size_t)(e - v);
            h->location_cut = k >= sizeof h->location;
            if (!h->location_cut) {
                memcpy(h->location, v, k);
                h->location[k] = '\0';
            }
        }
    }
    if (IS("Content-Encoding:") && !h->content_encoding[0] && !(h->status >= 100 && h->status < 200))
        copy_value(h->content_encoding, sizeof h->content_encoding, VAL("Content-Encoding:"), end);
    return AN_H1_MORE;
}

static enum an_h1_rc status_line(struct an_h1_parser *p, const char *l, size_t n)
{
    struct an_h1_head *h = &p->head;
    if (memchr(l, '\0', n))
        return fail(p, "Nul byte in header");
    /* "HTTP/" D "." D SP DDD, and no fourth digit */
    if (n < 10 || strncmp(l, "HTTP/", 5) || !isdigit((unsigned char)l[5]) || l[6] != '.' ||
        !isdigit((unsigned char)l[7]) || l[8] != ' ')
        return fail(p, "Unsupported HTTP version in response");
    if (l[5] != '1' || (l[7] != '0' && l[7] != '1')) {
        snprintf(p->msg, sizeof p->msg, "Unsupported HTTP version (%c.%c) in response", l[5], l[7]);
        return fail(p, p->msg);
    }
    int code = 0, nd = 0;
    while (nd < 3 && isdigit((unsigned char)l[9 + nd]))
        code = code * 10 + (l[9 + nd++] - '0');
    if (!nd)
        return fail(p, "Unsupported HTTP version in response");
    if (isdigit((unsigned char)l[9 + nd]) || code < 100)
        return fail(p, "Unsupported response code in HTTP response");
    h->status = code;
    h->minor = l[7] - '0';
    if (h->minor == 0)
        h->close = true; /* HTTP/1.0 closes unless it says keep-alive */
    p->bodyless = code >= 100 && code < 200;
    if (code == 204 || code == 304) {
        p->bodyless = true;
        h->length = 0;
    }
    return AN_H1_MORE;
}

/* The head ended (a line that starts with CR or LF). */
static enum an_h1_rc head_end(struct an_h1_parser *p)
{
    struct an_h1_head *h = &p->head;
    p->lines = 0;
    if (h->status >= 100 && h->status < 200 && h->status != 101) {
        p->state = S_STATUS; /* a provisional answer: the real one follows */
        p->bodyless = false;
        return AN_H1_MORE;
    }
    if (p->ignore_cl || h->chunked)
        h->length = -1;
    if (h->length < 0 && !h->chunked)
        h->close = true; /* no size, no chunks: the close ends the body */
    if (h->status == 204 || h->status == 304)
        h->length = 0;
    if (p->on_head)
        p->on_head(p->ud, h);
    if (h->chunked && !p->bodyless) {
        p->state = S_CHUNK_HEX;
    } else if (h->length >= 0) {
        p->left = (uint64_t)h->length;
        p->state = S_BODY_LEN;
        if (!p->left) {
            p->state = S_END;
            return p->rc = AN_H1_DONE;
        }
    } else {
        p->state = S_BODY_CLOSE;
    }
    return AN_H1_MORE;
}

/* Head bytes: a line at a time. Returns how many of d[0..n) it took. */
static size_t feed_head(struct an_h1_parser *p, const char *d, size_t n)
{
    const char *lf = memchr(d, '\n', n);
    size_t take = lf ? (size_t)(lf - d) + 1 : n;
    if (!header_room(p, take))
        return take;
    an_buf_append(&p->line, d, take);
    const char *l = p->line.data;
    size_t ln = p->line.len;
    if (p->state == S_STATUS) {
        /* libcurl takes anything that does not start as "HTTP/" for
         * HTTP/0.9, which it refuses */
        size_t k = ln < 5 ? ln : 5;
        if (strncasecmp(l, "HTTP/", k)) {
            fail(p, "Received HTTP/0.9 when not allowed");
            return take;
        }
    }
    if (!lf)
        return take;
    p->lines++;
    if (p->state == S_STATUS) {
        status_line(p, l, ln);
        p->state = p->rc ? S_END : S_HEADER;
    } else if (l[0] == '\r' || l[0] == '\n') {
        head_end(p);
    } else {
        header_line(p, l, ln);
    }
    an_buf_reset(&p->line);
    return take;
}

static size_t body(struct an_h1_parser *p, const char *d, size_t n)
{
    p->body_bytes += n;
    if (p->on_body && n) {
        int rc = p->on_body(p->ud, d, n);
        if (rc) {
            p->stop = rc;
            p->state = S_END;
            p->rc = AN_H1_STOP;
        }
    }
    return n;
}

bool an_h1_whole_chunks = true;

/* A whole chunk in d[0..n) at the start of a size line, written plainly
 * ("<hex>\r\n<data>\r\n", a size above 0 that fits in 16 digits and in
 * int64_t): its data handed over in one piece, the bytes taken returned.
 * 0 for anything else (an extension, a bare LF, the last chunk, a chunk
 * that goes on past d + n, a size the state machine rejects), which
 * feed_chunked then reads byte by byte as before: a server that writes
 * each event as a chunk sends a chunk header of 4 to 8 bytes per event. */
static size_t whole_chunk(struct an_h1_parser *p, const char *d, size_t n)
{
    const unsigned char *u = (const unsigned char *)d;
    uint64_t size = 0;
    size_t i = 0;
    for (int h; i < n && i < 16 && (h = an_hex_digit(u[i])) >= 0; i++)
        size = size << 4 | (uint64_t)h;
    if (!i || !size || size > (uint64_t)INT64_MAX || n - i < 2 || d[i] != '\r' ||
        d[i + 1] != '\n')
        return 0;
    size_t head = i + 2;
    if (size > n - head || n - head - size < 2 || d[head + size] != '\r' ||
        d[head + size + 1] != '\n')
        return 0;
    body(p, d + head, (size_t)size);
    /* a callback that stopped the answer took the data, not the line end
     * after it (as in S_CHUNK_DATA) */
    return p->state == S_END ? head + (size_t)size : head + (size_t)size + 2;
}

/* Chunk framing, libcurl's Curl_httpchunk_read state by state. */
static size_t feed_chunked(struct an_h1_parser *p, const char *d, size_t n)
{
    char c = d[0];
    switch (p->state) {
    case S_CHUNK_HEX:
        if (!p->nhex && an_h1_whole_chunks) {
            size_t k = whole_chunk(p, d, n);
            if (k)
                return k;
        }
        if (isxdigit((unsigned char)c)) {
            if (p->nhex >= 16) {
                fail(p, "Too long hexadecimal number in chunked-encoding");
                return 0;
            }
            p->hex[p->nhex++] = c;
            return 1;
        }
        if (!p->nhex) {
            fail(p, "Illegal or missing hexadecimal sequence in chunked-encoding");
            return 0;
        }
        int64_t size;
        if (strtoofft(p->hex, p->hex + p->nhex, 16, &size)) {
            fail(p, "Illegal or missing hexadecimal sequence in chunked-encoding");
            return 0;
        }
        p->left = (uint64_t)size;
        p->state = S_CHUNK_LF;
        return 0;
    case S_CHUNK_LF:
        if (c == '\n')
            p->state = p->left ? S_CHUNK_DATA : S_TRAILER;
        return 1;
    case S_CHUNK_DATA: {
        size_t k = (uint64_t)n < p->left ? n : (size_t)p->left;
        p->left -= k;
        if (!p->left && p->state == S_CHUNK_DATA)
            p->state = S_CHUNK_POSTLF;
        return body(p, d, k);
    }
    case S_CHUNK_POSTLF:
        if (c == '\n') {
            p->state = S_CHUNK_HEX;
            p->nhex = 0;
        } else if (c != '\r') {
            fail(p, "Malformed encoding found in chunked-encoding");
            return 0;
        }
        return 1;
    case S_TRAILER:
        if (c == '\r' || c == '\n') {
            if (p->trailer_len) {
                p->trailer_len = 0;
                p->state = S_TRAILER_CR;
                if (c == '\n')
                    return 0; /* already on the LF */
                return 1;
            }
            p->state = S_TRAILER_POSTCR;
            return 0;
        }
        if (!header_room(p, 1))
            return 0;
        p->trailer_len++;
        return 1;
    case S_TRAILER_CR:
        if (c != '\n') {
            fail(p, "Malformed encoding found in chunked-encoding");
            return 0;
        }
        p->state = S_TRAILER_POSTCR;
        return 1;
    case S_TRAILER_POSTCR:
        if (c != '\r' && c != '\n') {
            p->state = S_TRAILER; /* another trailer line */
            return 0;
        }
        p->state = S_CHUNK_STOP;
        return c == '\r' ? 1 : 0;
    case S_CHUNK_STOP:
        if (c != '\n') {
            fail(p, "Malformed encoding found in chunked-encoding");
            return 0;
        }
        p->state = S_END;
        p->rc = AN_H1_DONE;
        return 1;
    default:
        return 0;
    }
}

enum an_h1_rc an_h1_parse_feed(struct an_h1_parser *p, const char *d, size_t n, size_t *used)
{
    size_t off = 0;
    while (off < n && p->state != S_END) {
        size_t k;
        switch (p->state) {
        case S_STATUS:
        case S_HEADER:
            k = feed_head(p, d + off, n - off);
            break;
        case S_BODY_LEN:
            k = (uint64_t)(n - off) < p->left ? n - off : (size_t)p->left;
            p->left -= k;
            body(p, d + off, k);
            if (!p->left && p->state == S_BODY_LEN) {
                p->state = S_END;
                p->rc = AN_H1_DONE;
            }
            break;
        case S_BODY_CLOSE:
            k = body(p, d + off, n - off);
            break;
        default:
            k = feed_chunked(p, d + off, n - off);
            break;
        }
        off += k;
    }
    p->bytes += off;
    if (used)
        *used = off;
    return (enum an_h1_rc)p->rc;
}

enum an_h1_rc an_h1_parse_eof(struct an_h1_parser *p)
{
    if (p->state == S_END)
        return (enum an_h1_rc)p->rc;
    if (p->state == S_BODY_CLOSE) {
        p->state = S_END;
        return p->rc = AN_H1_DONE;
    }
    if (p->state == S_STATUS || p->state == S_HEADER) {
        /* libcurl counts a head cut after a complete line as an answer
         * without a body (and one cut before as no answer) */
        if (p->state == S_HEADER) {
            p->state = S_END;
            if (p->on_head)
                p->on_head(p->ud, &p->head);
            p->head.close = true;
            return p->rc = AN_H1_DONE;
        }
        return fail(p, "Empty reply from server");
    }
    if (p->state == S_BODY_LEN) {
        snprintf(p->msg, sizeof p->msg, "transfer closed with %llu bytes remaining to read",
                 (unsigned long long)p->left);
        return fail(p, p->msg);
    }
    return fail(p, "transfer closed with outstanding read data remaining");
}

bool an_h1_parse_reusable(const struct an_h1_parser *p)
{
    return p->rc == AN_H1_DONE && !p->head.close && p->head.status >= 200;
}
