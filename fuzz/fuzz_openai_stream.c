/*
 * OpenAI-compatible chat completions answers (proto/openai_int.h): a
 * streamed answer through the real SSE framer, one an_oai_chunk() per
 * event, then an_oai_stream_end() and the assistant message the next
 * request would carry; the whole input also as a non-stream body
 * (an_oai_parse_body) and as an error body (an_oai_error_message).
 *
 * The first byte chooses the read size (1..63 bytes, or everything at
 * once) and, with 0x40, a small SSE event cap; the rest is the body.
 * Checked promises: an error always says why, and an_oai_stream_end() is
 * AN_OK only for an answer that reached [DONE].
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "proto/openai_int.h"
#include "proto/sse.h"

struct stream {
    struct an_oai_answer a;
    int rc;      /* the first error an_oai_chunk returned */
    int64_t now; /* a clock that moves one ms per event */
};

static int on_event(void *ud, const struct an_sse_event *ev)
{
    struct stream *s = ud;
    struct an_err err = AN_ERR_INIT;
    int rc = an_oai_chunk(&s->a, ev->data, ev->len, ++s->now, &err);
    if (rc) {
        if (!err.msg[0])
            abort(); /* an error always says why */
        s->rc = rc;
        return 1; /* the session stops reading at the first error */
    }
    return 0;
}

/* The assistant message needs every call to have an id: name those the
 * server left without, as the session does. */
static void assistant(struct an_oai_answer *a)
{
    for (size_t i = 0; i < a->ncalls; i++)
        if (!a->calls[i].id)
            a->calls[i].id = strdup("call_fuzz");
    json_t *m = an_oai_assistant_msg(a);
    char *s = json_dumps(m, JSON_COMPACT);
    free(s);
    json_decref(m);
}

static void stream(const uint8_t *data, size_t size, size_t step, size_t cap)
{
    struct stream s = {.rc = 0};
    an_oai_answer_init(&s.a);
    struct an_sse_parser p;
    an_sse_init(&p, cap, on_event, &s);
    int rc = 0;
    for (size_t off = 0; off < size && !rc; off += step) {
        size_t n = size - off < step ? size - off : step;
        uint8_t *chunk = malloc(n); /* a copy per read: ASan sees reads past it */
        memcpy(chunk, data + off, n);
        rc = an_sse_feed(&p, chunk, n);
        free(chunk);
    }
    if (!rc)
        rc = an_sse_finish(&p);
    an_sse_release(&p);
    if (!s.rc) {
        struct an_err err = AN_ERR_INIT;
        if (an_oai_stream_end(&s.a, &err) == AN_OK && !s.a.done)
            abort(); /* "AN_OK when it reached [DONE]" */
        assistant(&s.a);
    }
    an_oai_answer_release(&s.a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int m = fz_mode(&data, &size);
    if (m < 0)
        return 0;
    unsigned mode = (unsigned)m;
    size_t step = fz_step(mode, size);
    stream(data, size, step, (mode & 0x40) ? 256 : 0);

    /* the same bytes as a whole non-stream answer, and as an error body */
    char *body = fz_strdup(data, size);
    struct an_oai_answer a;
    an_oai_answer_init(&a);
    struct an_err err = AN_ERR_INIT;
    if (an_oai_parse_body(&a, body, size, 1, &err) == AN_OK)
        assistant(&a);
    an_oai_answer_release(&a);
    free(an_oai_error_message(body, size));
    char snip[96];
    an_oai_snippet(snip, sizeof snip, body, size);
    free(body);
    return 0;
}
