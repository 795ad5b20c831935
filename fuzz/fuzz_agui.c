/*
 * The AG-UI event decoder (proto/agui_decode.h): one line of the input is
 * one SSE event's data, decoded into a turn exactly as a run does it, then
 * a second run's RunAgentInput is built from the conversation the first
 * left behind. An optional first line "#mode N" (0 strict, 1 warn, 2 off)
 * picks the protocol mode.
 */
#include <stdlib.h>
#include <string.h>

#include "ananke/model.h"
#include "ananke/transcript.h"
#include "fuzz.h"
#include "proto/agui_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int mode = AN_PROTOCOL_STRICT;
    if (size >= 7 && !memcmp(data, "#mode ", 6)) {
        mode = (data[6] - '0') % 3;
        const uint8_t *nl = memchr(data, '\n', size);
        size_t skip = nl ? (size_t)(nl - data) + 1 : size;
        data += skip;
        size -= skip;
    }
    struct an_agui_conv conv;
    struct an_transcript t;
    an_agui_conv_init(&conv, "thread-1", NULL, NULL);
    an_transcript_init(&t);
    an_transcript_add_turn(&t, "user");
    json_t *input = an_agui_conv_input(&conv, "run-1", "hello");
    json_decref(input);

    struct an_agui_dec *d;
    an_agui_dec_new(&d, &conv, &t, 64);
    an_agui_dec_protocol(d, mode);
    int64_t now = 1000;
    size_t off = 0;
    while (off < size) {
        const uint8_t *nl = memchr(data + off, '\n', size - off);
        size_t n = nl ? (size_t)(nl - (data + off)) : size - off;
        char *ev = fz_strdup(data + off, n);
        int rc = an_agui_dec_event(d, ev, n, now += 10);
        free(ev);
        off += n + 1;
        if (rc)
            break;
    }
    an_agui_dec_finish(d, off < size ? "stopped" : NULL);
    an_agui_dec_free(d);

    /* the next run carries what this one merged into the conversation */
    an_transcript_add_turn(&t, "user");
    free(an_agui_conv_body(&conv, "run-2", "again"));
    an_agui_conv_release(&conv);
    an_transcript_release(&t);
    return 0;
}
