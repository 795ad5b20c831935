/*
 * SSE framer: bytes of a text/event-stream body in, whole events out.
 *
 * A push parser (WHATWG "server-sent events", interpreting an event
 * stream): feed it whatever each read returned, in any split; it calls back
 * once per complete event. It never decodes UTF-8: a multibyte character
 * split across reads is simply joined again in the line buffer, and the
 * consumer decodes the whole event.
 *
 * Rules implemented: LF, CRLF and lone CR end a line (a CR that ends one
 * chunk and an LF that starts the next are one line end); a UTF-8 BOM at
 * the very start is skipped; lines starting with ':' are comments; a line
 * "name:value" drops one space after the colon, a line without a colon is a
 * field with an empty value; several `data` lines are joined with "\n";
 * `event`, `id` and `retry` are parsed and passed along (AG-UI ignores
 * them, the raw log keeps them); unknown fields are ignored; a blank line
 * dispatches the event, and an event without any `data` line is dropped.
 * Unlike WHATWG (which discards it), an_sse_finish() dispatches a last
 * event that lacks its blank line, as the AG-UI reference client does.
 *
 * Limits: one event's data is capped by `max_data`, any single line
 * (comments included) by `max_data` plus room for a field name; crossing
 * either makes the feed return AN_ELIMIT and the parser stops.
 *
 * Ownership: the event passed to the callback is borrowed for the duration
 * of the call. an_sse_release() frees the parser's buffers.
 */
#ifndef ANANKE_PROTO_SSE_H
#define ANANKE_PROTO_SSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

struct an_sse_event {
    const char *data; /* NUL-terminated unless the parser lends (`lend`
                       * below); may also hold NUL bytes: use len */
    size_t len;
    const char *event; /* last `event:` value of this event; NULL when none */
    const char *id;    /* last event id seen in the stream (WHATWG keeps it
                        * across events); NULL when none was ever sent */
    int64_t retry_ms;  /* last valid `retry:` value in the stream; -1: none */
    uint64_t index;    /* 0-based count of dispatched events */
};

/* Return 0 to go on; any other value stops the parser and is returned by
 * the an_sse_feed()/an_sse_finish() call that dispatched the event. */
typedef int (*an_sse_event_fn)(void *ud, const struct an_sse_event *ev);

/* The fields are private; the struct is public only so it can live on the
 * stack or inside another struct. */
struct an_sse_parser {
    an_sse_event_fn on_event;
    void *ud;
    size_t max_data;
    struct an_buf line;  /* the current, unterminated line */
    struct an_buf data;  /* data lines of the pending event, joined */
    struct an_buf event; /* `event:` of the pending event */
    struct an_buf id;    /* last event id */
    bool has_data, has_event, has_id;
    bool after_cr;     /* the previous byte was a CR: an LF now is not a new line */
    unsigned bom_seen; /* 0..3 bytes of a leading BOM matched; 4 = start passed */
    int64_t retry_ms;
    uint64_t nevents;
    int stopped; /* 0, or the code that stopped the parser */
    /* Set (after an_sse_init) by a consumer that reads an event's data by
     * its length alone: an event of one data line lying wholly in the bytes
     * fed is then handed over in place, pointing into them, with no NUL
     * after it and no copy. */
    bool lend;
    /* Set (after an_sse_init) by a consumer that can frame its commonest
     * events itself and apply them as it reads them. At the start of an
     * event, when the bytes start with "data:" and no `event:` line came
     * before, the framer first offers it the bytes after "data:" and its
     * space (`n`: what was fed from there, at most max_data + 2). It
     * returns the length of the event's data when it took the event
     * (data without CR or LF, followed by "\n\n" in the bytes offered;
     * never empty data: 0 says "not taken"), and the framer goes on after
     * them and counts the event (`index`) as if it had dispatched it. Or
     * it returns 0, having changed nothing, and the framer frames the
     * bytes as it would have. A taken event never reaches on_event. */
    size_t (*take)(void *ud, const char *bytes, size_t n);
};

#define AN_SSE_DEFAULT_MAX (16u * 1024u * 1024u)

/* Prepare a parser. `max_data` caps one event's data and one line
 * (0: AN_SSE_DEFAULT_MAX). No allocation happens until bytes arrive. */
void an_sse_init(struct an_sse_parser *p, size_t max_data, an_sse_event_fn on_event, void *ud);

/* Free the parser's buffers. The parser may be initialised again. */
void an_sse_release(struct an_sse_parser *p);

/* Push n bytes. Returns 0, AN_ELIMIT when an event or a line crosses
 * max_data, or the callback's non-zero value. After a non-zero return the
 * parser is stopped and every later call returns the same value. */
int an_sse_feed(struct an_sse_parser *p, const void *bytes, size_t n);

/* End of stream: an unterminated last line is taken as a line, and a
 * pending event with data is dispatched. Same return values as the feed. */
int an_sse_finish(struct an_sse_parser *p);

#endif
