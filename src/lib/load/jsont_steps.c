/* .jsont: the ACP step kinds (newSession, send, expect, forbid, delayMs),
 * validated into the model (jsont_int.h; the AG-UI and A2A ones:
 * jsont_agui.c). */
#include "load/jsont_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/jsonmatch.h"

static int get_ms(struct jsont_ld *l, json_t *v, const char *what, int64_t *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) > 24LL * 3600 * 1000)
        return jsont_bad(l, "%s must be a whole number of milliseconds (0 to 86400000)", what);
    *out = (int64_t)json_integer_value(v);
    return AN_OK;
}

static int load_expect(struct jsont_ld *l, struct an_jsont_step *st, json_t *ex)
{
    size_t i = st->index;
    struct an_arena *a = &l->t->arena;
    if (!json_is_object(ex))
        return jsont_bad(l, "steps[%zu]: 'expect' must be an object", i);
    st->ms = AN_JSONT_EXPECT_TIMEOUT_MS;
    json_t *to = json_object_get(ex, "timeoutMs");
    char what[64];
    snprintf(what, sizeof what, "steps[%zu]: 'expect.timeoutMs'", i);
    if (to && get_ms(l, to, what, &st->ms))
        return AN_ESCHEMA;
    json_t *any = json_object_get(ex, "anyOf");
    if (any && !json_is_boolean(any))
        return jsont_bad(l, "steps[%zu]: 'expect.anyOf' must be true or false", i);
    st->any_of = json_is_true(any);
    json_t *msgs = json_object_get(ex, "messages");
    if (!json_is_array(msgs) || json_array_size(msgs) == 0)
        return jsont_bad(l, "steps[%zu]: 'expect.messages' must be a non-empty array", i);
    st->nmsgs = json_array_size(msgs);
    st->msgs = an_arena_alloc(a, st->nmsgs * sizeof *st->msgs);
    for (size_t m = 0; m < st->nmsgs; m++) {
        json_t *env = json_array_get(msgs, m);
        static const char *const kinds[] = {"response", "notification", "clientRequest"};
        int found = -1;
        for (int k = 0; k < 3; k++) {
            if (json_object_get(env, kinds[k])) {
                if (found >= 0)
                    return jsont_bad(l, "steps[%zu]: expect.messages[%zu] has both '%s' and '%s'",
                                     i, m, kinds[found], kinds[k]);
                found = k;
            }
        }
        if (!json_is_object(env) || found < 0)
            return jsont_bad(l,
                             "steps[%zu]: expect.messages[%zu] needs one of 'response', "
                             "'notification' or 'clientRequest'",
                             i, m);
        json_t *pat = json_object_get(env, kinds[found]);
        if (!json_is_object(pat))
            return jsont_bad(l, "steps[%zu]: expect.messages[%zu].%s must be an object", i, m,
                             kinds[found]);
        struct an_jsont_expected *e = &st->msgs[m];
        e->kind = (enum an_jsont_msg_kind)found;
        json_t *reply = json_object_get(env, "reply");
        json_t *copy = json_deep_copy(pat);
        if (!reply && e->kind == AN_JSONT_CLIENT_REQUEST && json_object_get(copy, "reply")) {
            reply = json_object_get(pat, "reply"); /* accepted inside too */
            json_object_del(copy, "reply");
        }
        e->pattern = jsont_keep(l, copy);
        json_decref(copy);
        if (reply) {
            if (e->kind != AN_JSONT_CLIENT_REQUEST)
                return jsont_bad(l,
                                 "steps[%zu]: expect.messages[%zu]: 'reply' goes with a "
                                 "'clientRequest' only",
                                 i, m);
            if (!json_is_object(reply) ||
                !!json_object_get(reply, "result") == !!json_object_get(reply, "error"))
                return jsont_bad(l,
                                 "steps[%zu]: expect.messages[%zu].reply needs exactly one of "
                                 "'result' or 'error'",
                                 i, m);
            e->reply = jsont_keep(l, reply);
        }
        struct an_loc loc;
        jsont_loc_at(l, l->at, &loc);
        if (an_jm_check(e->pattern, &loc, l->err)) {
            an_err_prefix(l->err, "steps[%zu]: expect.messages[%zu].%s: ", i, m, kinds[found]);
            return AN_EREGEX;
        }
    }
    json_t *caps = json_object_get(ex, "captures");
    if (caps) {
        if (!json_is_array(caps))
            return jsont_bad(l, "steps[%zu]: 'expect.captures' must be an array", i);
        st->ncaptures = json_array_size(caps);
        st->captures = an_arena_alloc(a, (st->ncaptures + 1) * sizeof *st->captures);
        for (size_t c = 0; c < st->ncaptures; c++) {
            json_t *cv = json_array_get(caps, c);
            const char *path = an_json_str(cv, "path"), *var = an_json_str(cv, "var");
            if (!path || !var || !*var)
                return jsont_bad(
                    l, "steps[%zu]: expect.captures[%zu] needs 'path' and 'var' strings", i, c);
            st->captures[c].path = an_arena_strdup(a, path);
            st->captures[c].var = an_arena_strdup(a, var);
            st->captures[c].from = -1;
            json_t *from = json_object_get(cv, "from");
            if (from) {
                if (!json_is_integer(from) || json_integer_value(from) < 0 ||
                    (size_t)json_integer_value(from) >= st->nmsgs)
                    return jsont_bad(l,
                                     "steps[%zu]: expect.captures[%zu].from must index "
                                     "expect.messages",
                                     i, c);
                st->captures[c].from = (int)json_integer_value(from);
            }
        }
    }
    return AN_OK;
}

/* {"newSession": {"capture"?, "mcpServers"?}} */
static int load_new_session(struct jsont_ld *l, struct an_jsont_step *st, json_t *v)
{
    size_t i = st->index;
    struct an_arena *a = &l->t->arena;
    if (!json_is_object(v))
        return jsont_bad(l, "steps[%zu]: 'newSession' must be an object", i);
    json_t *cap = json_object_get(v, "capture");
    if (cap && (!json_is_string(cap) || !json_string_length(cap)))
        return jsont_bad(l, "steps[%zu]: 'newSession.capture' must be a variable name", i);
    st->capture = an_arena_strdup(a, cap ? json_string_value(cap) : "sessionId");
    json_t *mcp = json_object_get(v, "mcpServers");
    if (mcp && !json_is_array(mcp))
        return jsont_bad(l, "steps[%zu]: 'newSession.mcpServers' must be an array", i);
    json_t *arr = mcp ? json_incref(mcp) : json_array();
    st->mcp_servers = jsont_keep(l, arr);
    json_decref(arr);
    return AN_OK;
}

/* {"send": FRAME, "expectError"?}: the frame as written, expectError out */
static int load_send(struct jsont_ld *l, struct an_jsont_step *st, json_t *v, json_t *s)
{
    size_t i = st->index;
    if (!json_is_object(v))
        return jsont_bad(l, "steps[%zu]: 'send' must be an object (a JSON-RPC frame)", i);
    if (!json_is_string(json_object_get(v, "method")))
        return jsont_bad(l, "steps[%zu]: 'send' needs a 'method' string", i);
    json_t *frame = json_deep_copy(v);
    st->expect_error = -1;
    json_t *ee = json_object_get(frame, "expectError");
    if (!ee)
        ee = json_object_get(s, "expectError");
    if (ee) {
        if (!json_is_boolean(ee)) {
            json_decref(frame);
            return jsont_bad(l, "steps[%zu]: 'expectError' must be true or false", i);
        }
        st->expect_error = json_is_true(ee);
        json_object_del(frame, "expectError");
    }
    st->has_id = json_object_get(frame, "id") != NULL;
    if (st->expect_error == 1 && !st->has_id) {
        json_decref(frame);
        return jsont_bad(l, "steps[%zu]: 'expectError' needs a request ('send' with an 'id')", i);
    }
    st->frame = jsont_keep(l, frame);
    json_decref(frame);
    return AN_OK;
}

/* {"forbid": {"timeoutMs"?, "methods"?, "messages"?}} */
static int load_forbid(struct jsont_ld *l, struct an_jsont_step *st, json_t *v)
{
    size_t i = st->index;
    struct an_arena *a = &l->t->arena;
    if (!json_is_object(v))
        return jsont_bad(l, "steps[%zu]: 'forbid' must be an object", i);
    st->ms = AN_JSONT_FORBID_TIMEOUT_MS;
    json_t *to = json_object_get(v, "timeoutMs");
    char what[64];
    snprintf(what, sizeof what, "steps[%zu]: 'forbid.timeoutMs'", i);
    if (to && get_ms(l, to, what, &st->ms))
        return AN_ESCHEMA;
    json_t *fm = json_object_get(v, "methods"), *fe = json_object_get(v, "messages");
    if (!fm && !fe)
        return jsont_bad(l,
                         "steps[%zu]: 'forbid' needs 'methods' (names) or 'messages' "
                         "(envelopes)",
                         i);
    snprintf(what, sizeof what, "steps[%zu].forbid.methods", i);
    if (fm && jsont_load_strings(l, fm, what, &st->methods, &st->nmethods, true))
        return AN_ESCHEMA;
    if (!fe)
        return AN_OK;
    /* an extension: agent requests or notifications matching any of
     * these partial envelopes are forbidden too */
    if (!json_is_array(fe) || !json_array_size(fe))
        return jsont_bad(l, "steps[%zu]: 'forbid.messages' must be a non-empty array", i);
    st->nmsgs = json_array_size(fe);
    st->msgs = an_arena_alloc(a, st->nmsgs * sizeof *st->msgs);
    for (size_t m = 0; m < st->nmsgs; m++) {
        json_t *env = json_array_get(fe, m);
        json_t *cr = json_object_get(env, "clientRequest"),
               *nt = json_object_get(env, "notification");
        if (!json_is_object(cr) == !json_is_object(nt))
            return jsont_bad(l,
                             "steps[%zu]: forbid.messages[%zu] needs one of 'clientRequest' or "
                             "'notification' (an object)",
                             i, m);
        st->msgs[m].kind = cr ? AN_JSONT_CLIENT_REQUEST : AN_JSONT_NOTIFICATION;
        st->msgs[m].pattern = jsont_keep(l, cr ? cr : nt);
        struct an_loc loc;
        jsont_loc_at(l, l->at, &loc);
        if (an_jm_check(st->msgs[m].pattern, &loc, l->err)) {
            an_err_prefix(l->err, "steps[%zu]: forbid.messages[%zu]: ", i, m);
            return AN_EREGEX;
        }
    }
    return AN_OK;
}

int jsont_load_step(struct jsont_ld *l, struct an_jsont_step *st, json_t *s)
{
    size_t i = st->index;
    if (!json_is_object(s))
        return jsont_bad(l, "steps[%zu] must be an object", i);
    const char *kinds[AN_JSONT_STEP_KINDS];
    for (int k = 0; k < AN_JSONT_STEP_KINDS; k++)
        kinds[k] = an_jsont_step_name((enum an_jsont_step_kind)k);
    int found = -1;
    for (int k = 0; k < AN_JSONT_STEP_KINDS; k++) {
        if (json_object_get(s, kinds[k])) {
            if (found >= 0)
                return jsont_bad(l, "steps[%zu] has both '%s' and '%s' (one kind per step)", i,
                                 kinds[found], kinds[k]);
            found = k;
        }
    }
    if (found < 0) {
        const char *k0 = "";
        void *it = json_object_iter(s);
        if (it)
            k0 = json_object_iter_key(it);
        return jsont_bad(l,
                         "steps[%zu] has no known kind ('%s'?): expected one of "
                         "newSession, send, expect, forbid, delayMs (ACP), mcpHttp (MCP) or run, "
                         "http, delayMs (AG-UI)",
                         i, k0);
    }
    st->kind = (enum an_jsont_step_kind)found;
    json_t *v = json_object_get(s, kinds[found]);
    switch (st->kind) {
    case AN_JSONT_AGUI_RUN:
    case AN_JSONT_AGUI_HTTP:
    case AN_JSONT_MCP_HTTP:
        return jsont_load_agui_step(l, st, kinds[found], v, s);
    case AN_JSONT_NEW_SESSION:
        return load_new_session(l, st, v);
    case AN_JSONT_SEND:
        return load_send(l, st, v, s);
    case AN_JSONT_EXPECT:
        return load_expect(l, st, v);
    case AN_JSONT_FORBID:
        return load_forbid(l, st, v);
    case AN_JSONT_DELAY: {
        char what[64];
        snprintf(what, sizeof what, "steps[%zu]: 'delayMs'", i);
        return get_ms(l, v, what, &st->ms);
    }
    case AN_JSONT_STEP_KINDS:
        break;
    }
    return AN_OK;
}
