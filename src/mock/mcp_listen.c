/* MCP 2026-07-28's subscriptions/listen in the mock (mcp_listen.h). */
#include "mcp_listen.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "mcp_modern.h"
#include "mock_plan.h"

static const char *const change_flag[] = {"toolsListChanged", "promptsListChanged",
                                          "resourcesListChanged"};
static const char *const change_method[] = {"notifications/tools/list_changed",
                                            "notifications/prompts/list_changed",
                                            "notifications/resources/list_changed"};
#define NCHANGES (sizeof change_flag / sizeof change_flag[0])

/* One open subscription. Over HTTP each AWAIT of its stream holds a
 * reference; over stdio the hub does, until cancelled. */
struct sub {
    struct mcp_hub *h;
    struct sub *next;
    unsigned refs;
    char id[32];       /* what its notifications are tagged with */
    json_t *listen_id; /* the listen request's id */
    bool want[NCHANGES];
    bool stdio;
    bool ended; /* its stream ended (HTTP): nothing more is queued */
    json_t *queue;
    int64_t deadline;
    unsigned sent;
};

struct mcp_hub {
    pthread_mutex_t lock;
    struct sub *subs;
    unsigned long opened;
    int64_t listen_ms;
};

struct mcp_hub *mcp_hub_new(int64_t listen_ms)
{
    struct mcp_hub *h = an_xcalloc(1, sizeof *h);
    pthread_mutex_init(&h->lock, NULL);
    h->listen_ms = listen_ms;
    return h;
}

static void sub_free(struct sub *s)
{
    json_decref(s->listen_id);
    json_decref(s->queue);
    free(s);
}

void mcp_hub_free(struct mcp_hub *h)
{
    if (!h)
        return;
    while (h->subs) {
        struct sub *s = h->subs;
        h->subs = s->next;
        sub_free(s);
    }
    pthread_mutex_destroy(&h->lock);
    free(h);
}

/* A notification of `method` tagged with s's id (untagged under the
 * fault listen-untagged). New reference. */
static json_t *tagged(const struct mcp_server_opts *o, const struct sub *s, const char *method)
{
    json_t *params = json_object();
    if (o->fault != MCP_F_LISTEN_UNTAGGED)
        json_object_set_new(params, "_meta", json_pack("{s:s}", MCP_SUBSCRIPTION_ID_META, s->id));
    return json_pack("{s:s,s:s,s:o}", "jsonrpc", "2.0", "method", method, "params", params);
}

/* A new subscription for `listen`, in the hub's list. Caller holds no lock. */
static struct sub *sub_open(struct mcp_hub *h, const json_t *listen, bool stdio, unsigned refs)
{
    struct sub *s = an_xcalloc(1, sizeof *s);
    const json_t *want = json_object_get(json_object_get(listen, "params"), "notifications");
    for (size_t k = 0; k < NCHANGES; k++)
        s->want[k] = json_is_true(json_object_get(want, change_flag[k]));
    s->h = h;
    s->refs = refs;
    s->stdio = stdio;
    s->listen_id = json_incref(json_object_get(listen, "id"));
    s->queue = json_array();
    s->deadline = an_clock_mono_ms() + h->listen_ms;
    pthread_mutex_lock(&h->lock);
    snprintf(s->id, sizeof s->id, "sub-%lu", ++h->opened);
    s->next = h->subs;
    h->subs = s;
    pthread_mutex_unlock(&h->lock);
    return s;
}

/* Unlink s from its hub; caller holds the lock. */
static void sub_unlink(struct sub *s)
{
    for (struct sub **p = &s->h->subs; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            return;
        }
}

void mcp_hub_publish(struct mcp_hub *h, const struct mcp_server_opts *o, enum mcp_change what)
{
    if (!h || o->fault == MCP_F_LIST_CHANGED_SILENT)
        return;
    pthread_mutex_lock(&h->lock);
    for (struct sub *s = h->subs; s; s = s->next)
        if (!s->ended && (s->want[what] || o->fault == MCP_F_LISTEN_UNFILTERED) &&
            json_array_size(s->queue) < MCP_LISTEN_MAX_NOTES)
            json_array_append_new(s->queue, tagged(o, s, change_method[what]));
    pthread_mutex_unlock(&h->lock);
}

/* ---- HTTP: the listen POST's stream ---------------------------------------- */

/* One AWAIT of a subscription's stream. */
struct wait_ref {
    struct sub *s;
    const struct mcp_server_opts *o;
};

static char *frames(json_t *msgs, size_t *len)
{
    struct an_buf ev = AN_BUF_INIT;
    mcp_sse_frames(&ev, msgs);
    json_decref(msgs);
    char *d = an_buf_detach(&ev, len);
    return d ? d : an_xstrdup("");
}

/* The AWAIT poll: the next queued notification; at the deadline or the
 * cap, the listen request's result (the stream's end); after it, nothing
 * (an empty write: the stream's remaining awaits pass at once). */
static char *poll_note(void *ud, size_t *len)
{
    struct wait_ref *w = ud;
    struct sub *s = w->s;
    json_t *msgs = NULL;
    pthread_mutex_lock(&s->h->lock);
    if (s->ended) {
        msgs = json_array();
    } else if (json_array_size(s->queue)) {
        msgs = json_pack("[O]", json_array_get(s->queue, 0));
        json_array_remove(s->queue, 0);
        s->sent++;
    }
    if (!s->ended && !msgs &&
        (an_clock_mono_ms() >= s->deadline || s->sent >= MCP_LISTEN_MAX_NOTES)) {
        s->ended = true;
        msgs = json_pack("[{s:s,s:O,s:{s:s}}]", "jsonrpc", "2.0", "id", s->listen_id, "result",
                         "resultType", "complete");
    }
    pthread_mutex_unlock(&s->h->lock);
    return msgs ? frames(msgs, len) : NULL;
}

static void drop_ref(void *ud)
{
    struct wait_ref *w = ud;
    struct sub *s = w->s;
    struct mcp_hub *h = s->h;
    pthread_mutex_lock(&h->lock);
    bool last = --s->refs == 0;
    if (last)
        sub_unlink(s);
    pthread_mutex_unlock(&h->lock);
    if (last)
        sub_free(s);
    free(w);
}

enum MHD_Result mcp_listen_http(struct mcp_hub *h, const struct mcp_server_opts *o,
                                struct mock_http *http, struct MHD_Connection *c,
                                const json_t *listen)
{
    /* one await per notification it may carry, and one for its end */
    unsigned n = MCP_LISTEN_MAX_NOTES + 1;
    struct sub *s = sub_open(h, listen, false, n);
    struct mock_plan plan = MOCK_PLAN_INIT;
    if (o->fault != MCP_F_LISTEN_NO_ACK) {
        size_t len = 0;
        char *ack = frames(
            json_pack("[o]", tagged(o, s, "notifications/subscriptions/acknowledged")), &len);
        mock_plan_write_take(&plan, ack, len);
    }
    for (unsigned k = 0; k < n; k++) {
        struct wait_ref *w = an_xcalloc(1, sizeof *w);
        *w = (struct wait_ref){s, o};
        mock_plan_await(&plan, poll_note, w, drop_ref);
    }
    enum MHD_Result rc =
        mock_http_send_plan(http, c, MHD_HTTP_OK, "text/event-stream", NULL, 0, &plan);
    mock_plan_release(&plan);
    return rc;
}

/* ---- stdio ---------------------------------------------------------------------- */

void mcp_listen_stdio(struct mcp_hub *h, const struct mcp_server_opts *o, const json_t *listen,
                      json_t *out)
{
    struct sub *s = sub_open(h, listen, true, 1);
    if (o->fault != MCP_F_LISTEN_NO_ACK)
        json_array_append_new(out, tagged(o, s, "notifications/subscriptions/acknowledged"));
}

void mcp_hub_drain(struct mcp_hub *h, json_t *out)
{
    if (!h)
        return;
    pthread_mutex_lock(&h->lock);
    for (struct sub *s = h->subs; s; s = s->next)
        if (s->stdio) {
            json_array_extend(out, s->queue);
            json_array_clear(s->queue);
        }
    pthread_mutex_unlock(&h->lock);
}

void mcp_hub_cancel(struct mcp_hub *h, const json_t *listen_id)
{
    if (!h || !listen_id)
        return;
    struct sub *gone = NULL;
    pthread_mutex_lock(&h->lock);
    for (struct sub *s = h->subs; s && !gone; s = s->next)
        if (s->stdio && json_equal(s->listen_id, (json_t *)listen_id))
            gone = s;
    if (gone)
        sub_unlink(gone);
    pthread_mutex_unlock(&h->lock);
    if (gone)
        sub_free(gone);
}
