/*
 * An `mcpHttp` step over stdio: a test of MCP 2026-07-28 that says it
 * runs over both transports (`"transports": ["http", "stdio"]`) sends its
 * step's `json` on the agent's stdin, as is (the _meta with the protocol
 * version it carries: no initialize, no session), and reads the agent's
 * messages until the answer to the request's id. The outcome has the
 * shape comply_mcp_http.c gives (status, error, messages, body) without
 * `http`: the step's expectations of HTTP (status, headers) are left out,
 * and an anyOf alternative that expects HTTP only is dropped (an HTTP 4xx
 * of a server of an earlier revision has no stdio equivalent; its
 * JSON-RPC error alternatives stay).
 */
#include "run/comply_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/acp_client.h"

/* Whether the answer to rid is among the messages observed from *from on;
 * *from moves past those looked at (a server that floods notifications is
 * not scanned again and again). */
static bool answered(const struct eng *e, size_t *from, const json_t *rid)
{
    for (; *from < e->nobs; (*from)++)
        if (e->obs[*from].kind == AN_JSONT_RESPONSE &&
            json_equal(json_object_get(e->obs[*from].msg, "id"), (json_t *)rid))
            return true;
    return false;
}

/* The outcome over stdio (msgs taken): as an mcpHttp step's, no `http`. */
static json_t *outcome(const char *st, const char *why, json_t *msgs)
{
    json_t *first = json_array_get(msgs, 0);
    json_t *o = json_pack("{s:s,s:o,s:O,s:n,s:O}", "status", st, "error",
                          why ? json_string(why) : json_null(), "messages", msgs, "body", "first",
                          first ? first : json_null());
    json_decref(msgs);
    return o;
}

json_t *comply_mcp_stdio_exchange(struct eng *e, const json_t *js, int64_t window_ms)
{
    const char *st = "completed";
    char *why = NULL;
    struct an_err err = AN_ERR_INIT;
    size_t from = e->nobs;
    const json_t *rid = json_object_get(js, "method") ? json_object_get(js, "id") : NULL;
    if (!json_is_object(js)) {
        st = "transport_error";
        why = an_xstrdup("over stdio an mcpHttp step sends its `json`, and this one has none");
    } else if (an_rpc_send(an_acp_rpc(e->c), js, &err)) {
        st = "transport_error";
        why = an_xstrdup(e->closed ? e->close_reason : err.msg);
    } else if (rid) {
        int64_t end = an_clock_mono_ms() + window_ms;
        size_t seen = from;
        while (!answered(e, &seen, rid)) {
            int64_t left = end - an_clock_mono_ms();
            if (e->closed || left <= 0) {
                struct an_buf b = AN_BUF_INIT;
                char *id = an_json_compact(rid);
                if (e->closed)
                    an_buf_printf(&b, "the agent closed before answering id %s: %s", id,
                                  e->close_reason);
                else
                    an_buf_printf(&b, "no answer to id %s within %lld ms", id,
                                  (long long)window_ms);
                free(id);
                st = e->closed ? "transport_error" : "timeout";
                why = an_buf_detach(&b, NULL);
                break;
            }
            comply_pump(e, left);
        }
    } else {
        comply_pump(e, 0); /* a notification: nothing is answered */
    }
    json_t *msgs = json_array();
    for (size_t i = from; i < e->nobs; i++) {
        json_array_append(msgs, e->obs[i].msg);
        e->obs[i].taken = true;
    }
    json_t *o = outcome(st, why, msgs);
    free(why);
    return o;
}

json_t *comply_mcp_stdio_listen(struct eng *e, const json_t *js, int64_t listen_ms,
                                const json_t *during, int64_t window_ms)
{
    struct an_err err = AN_ERR_INIT;
    size_t from = e->nobs;
    const json_t *did = during ? json_object_get(during, "id") : NULL;
    const char *st = "completed", *dst = NULL;
    char *why = NULL;
    if (!json_is_object(js) || an_rpc_send(an_acp_rpc(e->c), js, &err)) {
        st = "transport_error";
        why = an_xstrdup(!json_is_object(js) ? "over stdio an mcpHttp step sends its `json`"
                         : e->closed         ? e->close_reason
                                             : err.msg);
    } else {
        int64_t now = an_clock_mono_ms(), end = now + listen_ms, dend = 0;
        bool sent = false;
        size_t seen = from;
        for (;;) {
            now = an_clock_mono_ms();
            if (during && !sent && e->nobs > from) { /* the stream's first message came */
                sent = true;
                dst = an_rpc_send(an_acp_rpc(e->c), during, &err) ? "transport_error" : NULL;
                dend = now + window_ms;
            }
            bool dwait = sent && did && !dst && !answered(e, &seen, did);
            if (e->closed || (now >= end && (!dwait || now >= dend)))
                break;
            int64_t left = (now < end ? end : dend) - now;
            comply_pump(e, left > 0 ? left : 1);
        }
        if (sent && !dst)
            dst = answered(e, &seen, did) || !did ? "completed" : "timeout";
        json_t *cancel = json_pack("{s:s,s:s,s:{s:O}}", "jsonrpc", "2.0", "method",
                                   "notifications/cancelled", "params", "requestId",
                                   json_object_get(js, "id"));
        an_rpc_send(an_acp_rpc(e->c), cancel, &err); /* the listen ends; a closed pipe is said below */
        json_decref(cancel);
        if (e->closed) {
            st = "transport_error";
            why = an_xstrdup(e->close_reason);
        }
    }
    json_t *msgs = json_array(), *dmsgs = json_array();
    for (size_t i = from; i < e->nobs; i++) {
        const json_t *m = e->obs[i].msg;
        bool theirs = did && json_equal(json_object_get(m, "id"), (json_t *)did) &&
                      !json_object_get(m, "method");
        json_array_append(theirs ? dmsgs : msgs, (json_t *)m);
        e->obs[i].taken = true;
    }
    json_t *o = outcome(st, why, msgs);
    if (during)
        json_object_set_new(o, "during", dst ? outcome(dst, NULL, json_incref(dmsgs)) : json_null());
    json_decref(dmsgs);
    free(why);
    return o;
}

/* An alternative that expects of HTTP only: nothing but `http` and its
 * status (the loader's default, completed: left alone it would accept any
 * answer). */
static bool http_only(const json_t *alt)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)alt, k, v)
    {
        if (strcmp(k, "http") && strcmp(k, "status"))
            return false;
    }
    return json_object_get(alt, "http") != NULL;
}

void comply_mcp_stdio_unhttp(json_t *expect, json_t **any_of)
{
    json_object_del(expect, "http");
    if (!*any_of)
        return;
    json_t *kept = json_array();
    size_t i;
    json_t *alt;
    json_array_foreach(*any_of, i, alt)
    {
        if (http_only(alt))
            continue;
        json_t *c = json_deep_copy(alt);
        json_object_del(c, "http");
        json_array_append_new(kept, c);
    }
    json_decref(*any_of);
    *any_of = kept;
}
