#include "proto/sse.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "ananke/err.h"

static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};

void an_sse_init(struct an_sse_parser *p, size_t max_data, an_sse_event_fn on_event, void *ud)
{
    memset(p, 0, sizeof *p);
    p->on_event = on_event;
    p->ud = ud;
    p->max_data = max_data ? max_data : AN_SSE_DEFAULT_MAX;
    /* A line holds a field name and its value, so allow a little more than
     * the data cap: "data: " plus a maximal value must still fit. */
    an_buf_init(&p->line, p->max_data + 16);
    an_buf_init(&p->data, p->max_data);
    an_buf_init(&p->event, p->max_data + 16); /* any value that fit its line fits */
    an_buf_init(&p->id, p->max_data + 16);
    p->retry_ms = -1;
}

void an_sse_release(struct an_sse_parser *p)
{
    an_buf_release(&p->line);
    an_buf_release(&p->data);
    an_buf_release(&p->event);
    an_buf_release(&p->id);
}

static int stop(struct an_sse_parser *p, int rc)
{
    p->stopped = rc;
    return rc;
}

static int dispatch(struct an_sse_parser *p)
{
    int rc = 0;
    if (p->has_data) {
        struct an_sse_event ev = {
            .data = an_buf_cstr(&p->data),
            .len = p->data.len,
            .event = p->has_event ? an_buf_cstr(&p->event) : NULL,
            .id = p->has_id ? an_buf_cstr(&p->id) : NULL,
            .retry_ms = p->retry_ms,
            .index = p->nevents++,
        };
        rc = p->on_event(p->ud, &ev);
    }
    /* The id is stream state (WHATWG "last event ID"); the rest is per event. */
    an_buf_reset(&p->data);
    an_buf_reset(&p->event);
    p->has_data = p->has_event = false;
    return rc ? stop(p, rc) : 0;
}

/* dispatch() for a one-line event lent in place (p->lend) */
static int lend(struct an_sse_parser *p, const char *data, size_t len)
{
    struct an_sse_event ev = {
        .data = data,
        .len = len,
        .event = p->has_event ? an_buf_cstr(&p->event) : NULL,
        .id = p->has_id ? an_buf_cstr(&p->id) : NULL,
        .retry_ms = p->retry_ms,
        .index = p->nevents++,
    };
    int rc = p->on_event(p->ud, &ev);
    an_buf_reset(&p->event);
    p->has_event = false;
    return rc ? stop(p, rc) : 0;
}

static bool all_digits(const char *s, size_t n)
{
    if (!n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* One complete line, without its line end: straight from the bytes fed, or
 * from p->line when it came in pieces. */
static int take_line(struct an_sse_parser *p, const char *s, size_t n)
{
    int rc = 0;

    if (n == 0) {
        rc = dispatch(p);
        goto done;
    }
    if (s[0] == ':')
        goto done;

    /* nearly every line of an event stream is a `data:` line */
    const char *colon = n >= 5 && !memcmp(s, "data:", 5) ? s + 4 : memchr(s, ':', n);
    size_t name_len = colon ? (size_t)(colon - s) : n;
    const char *val = colon ? colon + 1 : s + n;
    size_t val_len = n - (size_t)(val - s);
    if (val_len && val[0] == ' ')
        val++, val_len--;

    if (name_len == 4 && !memcmp(s, "data", 4)) {
        if (p->has_data && an_buf_putc(&p->data, '\n'))
            rc = stop(p, AN_ELIMIT);
        else if (an_buf_add(&p->data, val, val_len))
            rc = stop(p, AN_ELIMIT);
        p->has_data = true;
    } else if (name_len == 5 && !memcmp(s, "event", 5)) {
        an_buf_reset(&p->event);
        an_buf_append(&p->event, val, val_len); /* fits: the line did */
        p->has_event = true;
    } else if (name_len == 2 && !memcmp(s, "id", 2)) {
        if (!memchr(val, '\0', val_len)) {
            an_buf_reset(&p->id);
            an_buf_append(&p->id, val, val_len);
            p->has_id = true;
        }
    } else if (name_len == 5 && !memcmp(s, "retry", 5)) {
        if (all_digits(val, val_len)) {
            int64_t v = 0;
            for (size_t i = 0; i < val_len; i++) {
                if (v > (INT64_MAX - 9) / 10) {
                    v = INT64_MAX; /* saturate rather than wrap */
                    break;
                }
                v = v * 10 + (val[i] - '0');
            }
            p->retry_ms = v;
        }
    }
    /* Any other field name is ignored, as the standard says. */
done:
    return rc;
}

/* The first CR or LF in s[0..n), or s + n: one pass for both line ends. */
static const unsigned char *find_eol(const unsigned char *s, size_t n)
{
    size_t i = 0;
#ifdef __SSE2__
    const __m128i cr = _mm_set1_epi8('\r'), lf = _mm_set1_epi8('\n');
    for (; n - i >= 16; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        unsigned m =
            (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, cr), _mm_cmpeq_epi8(x, lf)));
        if (m)
            return s + i + (unsigned)__builtin_ctz(m);
    }
#endif
    while (i < n && s[i] != '\r' && s[i] != '\n')
        i++;
    return s + i;
}

static int feed_bytes(struct an_sse_parser *p, const unsigned char *s, size_t n)
{
    const unsigned char *end = s + n;
    while (s < end) {
        if (p->after_cr) {
            p->after_cr = false;
            if (*s == '\n') {
                s++;
                continue;
            }
        }
        /* the commonest event, one data line: "data: X\n\n", taken whole
         * (what take_line and the blank line would do, in one step) */
        if (!p->line.len && !p->has_data && end - s > 6 && !memcmp(s, "data:", 5)) {
            const unsigned char *v = s + 5 + (s[5] == ' ');
            if (p->take && !p->has_event) {
                size_t room = (size_t)(end - v), cap = p->max_data + 2;
                size_t used = p->take(p->ud, (const char *)v, room < cap ? room : cap);
                if (used) {
                    p->nevents++;
                    s = v + used + 2;
                    continue;
                }
            }
            const unsigned char *eol = find_eol(v, (size_t)(end - v));
            if (end - eol >= 2 && eol[0] == '\n' && eol[1] == '\n' &&
                (size_t)(eol - s) <= p->max_data + 16) {
                if (p->lend) {
                    if ((size_t)(eol - v) > p->max_data)
                        return stop(p, AN_ELIMIT);
                    s = eol + 2;
                    int rc = lend(p, (const char *)v, (size_t)(eol - v));
                    if (rc)
                        return rc;
                    continue;
                }
                if (an_buf_add(&p->data, v, (size_t)(eol - v)))
                    return stop(p, AN_ELIMIT);
                p->has_data = true;
                s = eol + 2;
                int rc = dispatch(p);
                if (rc)
                    return rc;
                continue;
            }
        }
        const unsigned char *eol = find_eol(s, (size_t)(end - s));
        if (eol == end) {
            /* no line end in these bytes: keep the start of the line */
            if (an_buf_append(&p->line, s, (size_t)(end - s)))
                return stop(p, AN_ELIMIT);
            break;
        }
        const char *line = (const char *)s;
        size_t len = (size_t)(eol - s);
        if (p->line.len) {
            if (an_buf_append(&p->line, s, len))
                return stop(p, AN_ELIMIT);
            line = p->line.data;
            len = p->line.len;
        } else if (len > p->max_data + 16) { /* the line buffer's cap */
            return stop(p, AN_ELIMIT);
        }
        p->after_cr = *eol == '\r';
        s = eol + 1;
        int rc = take_line(p, line, len);
        an_buf_reset(&p->line);
        if (rc)
            return rc;
        /* the blank line that ends an event, taken at once */
        if (!p->after_cr && s < end && *s == '\n') {
            s++;
            if ((rc = dispatch(p)))
                return rc;
        }
    }
    return 0;
}

/* Skip a leading BOM even when it arrives split over several feeds. When
 * the first bytes only start like a BOM, give them back as ordinary bytes. */
static int eat_bom(struct an_sse_parser *p, const unsigned char **s, size_t *n)
{
    while (p->bom_seen < 3 && *n) {
        if (**s != bom[p->bom_seen]) {
            unsigned seen = p->bom_seen;
            p->bom_seen = 4;
            return feed_bytes(p, bom, seen);
        }
        p->bom_seen++;
        (*s)++;
        (*n)--;
    }
    if (p->bom_seen == 3)
        p->bom_seen = 4;
    return 0;
}

int an_sse_feed(struct an_sse_parser *p, const void *bytes, size_t n)
{
    const unsigned char *s = bytes;
    if (p->stopped)
        return p->stopped;
    if (p->bom_seen < 4) {
        int rc = eat_bom(p, &s, &n);
        if (rc)
            return rc;
    }
    return feed_bytes(p, s, n);
}

int an_sse_finish(struct an_sse_parser *p)
{
    int rc;
    if (p->stopped)
        return p->stopped;
    if (p->bom_seen > 0 && p->bom_seen < 3) {
        /* The stream ended inside what looked like a BOM: those were data. */
        unsigned seen = p->bom_seen;
        p->bom_seen = 4;
        if ((rc = feed_bytes(p, bom, seen)))
            return rc;
    }
    if (p->line.len) {
        rc = take_line(p, p->line.data, p->line.len);
        an_buf_reset(&p->line);
        if (rc)
            return rc;
    }
    return dispatch(p);
}
