/*
 * An A2A streamed answer (proto/a2a.h): the input is an SSE body; each
 * event's data is a JSON-RPC answer whose `result` (a Task, a Message, a
 * status or an artifact update, 1.0 or 0.3 shape) goes to
 * an_a2a_turn_result, as the session's stream reader feeds it, until the
 * turn is final. The whole input, when it is JSON, is also read as an
 * agent card (an_a2a_card_read_binding, every binding), as discovery
 * would, and as a REST answer (proto/a2a_rest.h: the result read back into
 * the 0.3 JSON-RPC shapes, then the agent's; an error body), as the REST
 * binding reads it.
 */
#include <stdlib.h>

#include "ananke/transcript.h"
#include "core/json.h"
#include "fuzz.h"
#include "proto/a2a.h"
#include "proto/a2a_rest.h"
#include "proto/sse.h"

static int on_event(void *ud, const struct an_sse_event *ev)
{
    struct an_a2a_turn *d = ud;
    char why[256];
    json_t *j = an_json_parse(ev->data, ev->len, why, sizeof why);
    if (!j)
        return 1;
    const json_t *res = json_object_get(j, "result");
    int rc = res ? an_a2a_turn_result(d, res, 100 + (int64_t)ev->index, why, sizeof why) : 1;
    json_decref(j);
    return rc ? rc : d->final ? 2 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct an_transcript t;
    an_transcript_init(&t);
    json_t *seen = json_object();
    /* two turns of one task: the second sees what the first took */
    for (int turn = 0; turn < 2; turn++) {
        an_transcript_add_turn(&t, "a2a:send");
        struct an_a2a_turn d;
        an_a2a_turn_init(&d, &t, seen);
        struct an_sse_parser p;
        an_sse_init(&p, 1 << 16, on_event, &d);
        if (!an_sse_feed(&p, data, size))
            an_sse_finish(&p);
        an_sse_release(&p);
        an_a2a_turn_finish(&d);
        an_a2a_turn_release(&d);
    }
    json_decref(seen);
    an_transcript_release(&t);

    char why[256];
    json_t *card = an_json_parse((const char *)data, size, why, sizeof why);
    if (card) {
        struct an_a2a_card c = {0};
        struct an_err err = AN_ERR_INIT;
        for (int want = AN_A2A_AUTO; want <= AN_A2A_V0_3; want++)
            for (int bind = AN_A2A_BIND_AUTO; bind <= AN_A2A_BIND_REST; bind++) {
                if (an_a2a_card_read_binding(card, want, bind, &c, &err) == 0) {
                    char *u = an_a2a_card_url_for(c.url);
                    free(u);
                }
                an_a2a_card_release(&c);
            }
        json_t *in = an_a2a_rest_result_in(card);
        json_t *out = an_a2a_rest_result_out("message/stream", in);
        json_decref(out);
        json_decref(in);
        json_t *e = an_a2a_rest_error(card, 404);
        json_decref(e);
        json_decref(card);
    }
    return 0;
}
