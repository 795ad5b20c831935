/* Shared by the OpenAI adapter's unit tests (test_openai*.c): JSON
 * assertions and stream chunks written in one line. */
#ifndef ANANKE_TEST_OAI_H
#define ANANKE_TEST_OAI_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "ananke/err.h"
#include "ananke/transcript.h"
#include "core/buf.h"
#include "core/json.h"
#include "proto/adapter.h"
#include "proto/openai_int.h"

#define ARGV(...) ((const char *const[]){__VA_ARGS__, NULL})

/* ---- helpers ---- */

static inline void assert_json(const json_t *got, const char *want_text)
{
    json_error_t je;
    json_t *want = json_loads(want_text, JSON_DECODE_ANY, &je);
    if (!want)
        fail_msg("bad expected JSON (%s): %s", je.text, want_text);
    if (!got || !json_equal((json_t *)got, want)) {
        char *g = got ? an_json_compact(got) : strdup("(null)");
        json_decref(want);
        fail_msg("json %s\n want %s", g, want_text);
    }
    json_decref(want);
}

static inline void assert_has(const char *text, const char *needle)
{
    if (!text || !strstr(text, needle))
        fail_msg("'%s' lacks '%s'", text ? text : "(null)", needle);
}

static inline json_t *parse(const char *text)
{
    json_error_t je;
    json_t *j = json_loads(text, JSON_DECODE_ANY, &je);
    if (!j)
        fail_msg("bad JSON (%s): %s", je.text, text);
    return j;
}

/* Chunk i arrives at 100 + 10 * i. Returns the first failure. */
static inline int feed(struct an_oai_answer *a, const char *const *chunks, struct an_err *e)
{
    for (size_t i = 0; chunks[i]; i++) {
        int rc = an_oai_chunk(a, chunks[i], strlen(chunks[i]), 100 + 10 * (int64_t)i, e);
        if (rc)
            return rc;
    }
    return AN_OK;
}

#define CH(delta)                                                                                  \
    "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"       \
    "\"delta\":" delta "}]}"
#define TEXT(s) CH("{\"content\":\"" s "\"}")
#define TC(calls) CH("{\"tool_calls\":[" calls "]}")
#define FIN(reason)                                                                                \
    "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"" reason    \
    "\"}]}"
#define USAGE                                                                                      \
    "{\"id\":\"chatcmpl-1\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,"                       \
    "\"completion_tokens\":3,\"total_tokens\":15}}"
#define DONE "[DONE]"
#define CHUNKS(...) ((const char *const[]){__VA_ARGS__, NULL})

#endif
