/* The kit tools that ask the client, over Streamable HTTP (mcp_ask_http.h). */
#include "mcp_ask_http.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "mcp_modern.h"

struct mcp_asks {
    pthread_mutex_t lock;
    json_t *out;       /* our request id -> the client's answer; null while waiting */
    unsigned long ids; /* requests sent so far: ids a1, a2, ... */
};

/* One stream waiting for its answer (an AWAIT action's state). */
struct waiting {
    struct mcp_asks *a;
    char id[24];
    json_t *call_id;
    enum mcp_tool t;
};

struct mcp_asks *mcp_asks_new(void)
{
    struct mcp_asks *a = an_xcalloc(1, sizeof *a);
    pthread_mutex_init(&a->lock, NULL);
    a->out = json_object();
    return a;
}

void mcp_asks_free(struct mcp_asks *a)
{
    if (!a)
        return;
    json_decref(a->out);
    pthread_mutex_destroy(&a->lock);
    free(a);
}

bool mcp_asks_answered(struct mcp_asks *a, const json_t *msg)
{
    const char *id = an_json_str(msg, "id");
    if (json_object_get(msg, "method") || !id)
        return false;
    pthread_mutex_lock(&a->lock);
    const json_t *was = json_object_get(a->out, id);
    bool ours = was && json_is_null(was);
    if (ours)
        json_object_set(a->out, id, (json_t *)msg);
    pthread_mutex_unlock(&a->lock);
    return ours;
}

/* The AWAIT poll: the result's SSE event once the answer is in. */
static char *poll_answer(void *ud, size_t *len)
{
    struct waiting *w = ud;
    pthread_mutex_lock(&w->a->lock);
    json_t *answer = json_incref(json_object_get(w->a->out, w->id));
    pthread_mutex_unlock(&w->a->lock);
    if (!answer || json_is_null(answer)) {
        json_decref(answer);
        return NULL;
    }
    json_t *msgs = json_pack("[{s:s,s:O,s:o}]", "jsonrpc", "2.0", "id", w->call_id, "result",
                             mcp_ask_result(w->t, answer));
    json_decref(answer);
    struct an_buf ev = AN_BUF_INIT;
    mcp_sse_frames(&ev, msgs);
    json_decref(msgs);
    return an_buf_detach(&ev, len);
}

static void drop_waiting(void *ud)
{
    struct waiting *w = ud;
    pthread_mutex_lock(&w->a->lock);
    json_object_del(w->a->out, w->id);
    pthread_mutex_unlock(&w->a->lock);
    json_decref(w->call_id);
    free(w);
}

enum MHD_Result mcp_asks_stream(struct mcp_asks *a, const struct mcp_server_opts *o,
                                struct mock_http *http, struct MHD_Connection *c, enum mcp_tool t,
                                const json_t *call)
{
    struct waiting *w = an_xcalloc(1, sizeof *w);
    w->a = a;
    w->t = t;
    w->call_id = json_incref(json_object_get(call, "id"));
    pthread_mutex_lock(&a->lock);
    snprintf(w->id, sizeof w->id, "a%lu", ++a->ids);
    json_object_set_new(a->out, w->id, json_null());
    pthread_mutex_unlock(&a->lock);
    json_t *msgs = json_pack("[o]", mcp_ask_request(o, t, json_object_get(call, "params"), w->id));
    struct an_buf ev = AN_BUF_INIT;
    mcp_sse_frames(&ev, msgs);
    json_decref(msgs);
    struct mock_plan plan = MOCK_PLAN_INIT;
    size_t n = 0;
    char *first = an_buf_detach(&ev, &n);
    mock_plan_write_take(&plan, first, n);
    mock_plan_await(&plan, poll_answer, w, drop_waiting);
    enum MHD_Result rc =
        mock_http_send_plan(http, c, MHD_HTTP_OK, "text/event-stream", NULL, 0, &plan);
    mock_plan_release(&plan);
    return rc;
}
