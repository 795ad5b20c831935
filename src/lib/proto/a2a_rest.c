/* The A2A REST binding as a translation of the JSON-RPC one (a2a_rest.h). */
#include "proto/a2a_rest.h"

#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/spec_names.h"

char *an_a2a_rest_escape(const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, "");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~') {
            an_buf_putc(&b, (char)c);
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            an_buf_append(&b, e, 3);
        }
    }
    return an_buf_detach(&b, NULL);
}

/* %XX decoded (a server's path segment; a query's part, where plus says
 * '+' is a space); NULL when it decodes to a NUL or is malformed. */
static char *unescape_as(const char *s, size_t n, bool plus)
{
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, "");
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '%') {
            an_buf_putc(&b, plus && s[i] == '+' ? ' ' : s[i]);
            continue;
        }
        char h[3] = {0};
        if (i + 2 >= n) {
            an_buf_release(&b);
            return NULL;
        }
        h[0] = s[i + 1];
        h[1] = s[i + 2];
        char *end;
        long v = strtol(h, &end, 16);
        if (end != h + 2 || v == 0) {
            an_buf_release(&b);
            return NULL;
        }
        an_buf_putc(&b, (char)v);
        i += 2;
    }
    return an_buf_detach(&b, NULL);
}

static char *unescape(const char *s, size_t n)
{
    return unescape_as(s, n, false);
}

/* ---- query parameters (ListTasks, GetTask's historyLength) ---- */

/* A scalar as query text; NULL for an object, an array or null. */
static char *scalar_text(const json_t *v)
{
    struct an_buf b = AN_BUF_INIT;
    if (json_is_string(v))
        an_buf_append(&b, json_string_value(v), json_string_length(v));
    else if (json_is_integer(v))
        an_buf_printf(&b, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        an_buf_printf(&b, "%.17g", json_real_value(v));
    else if (json_is_boolean(v))
        an_buf_puts(&b, json_is_true(v) ? "true" : "false");
    else
        return NULL;
    an_buf_puts(&b, "");
    return an_buf_detach(&b, NULL);
}

/* The scalar members of params appended to p as "?k=v&k=v", every key and
 * value percent-encoded (a value cannot add a parameter, a fragment or a
 * segment); an array of scalars repeats its key; objects and nulls are
 * left out (a ListTasksRequest has none). A string holding a NUL is cut
 * there. */
static void query_put(struct an_buf *p, const json_t *params)
{
    const char *k;
    json_t *v;
    char sep = '?';
    json_object_foreach((json_t *)params, k, v)
    {
        size_t n = json_is_array(v) ? json_array_size(v) : 1;
        for (size_t i = 0; i < n; i++) {
            char *s = scalar_text(json_is_array(v) ? json_array_get(v, i) : v);
            if (!s)
                continue;
            char *ek = an_a2a_rest_escape(k), *ev = an_a2a_rest_escape(s);
            an_buf_printf(p, "%c%s=%s", sep, ek, ev);
            sep = '&';
            free(ek);
            free(ev);
            free(s);
        }
    }
}

/* A decoded query value as JSON: pageSize and historyLength of digits an
 * integer, includeArtifacts true|false a boolean, the rest a string (for
 * the server to judge). */
static json_t *query_value(const char *k, const char *v)
{
    if (!strcmp(k, "pageSize") || !strcmp(k, "historyLength")) {
        size_t n = strspn(v, "0123456789");
        if (n && n <= 9 && !v[n])
            return json_integer(strtol(v, NULL, 10));
    }
    if (!strcmp(k, "includeArtifacts") && (!strcmp(v, "true") || !strcmp(v, "false")))
        return json_boolean(!strcmp(v, "true"));
    return json_string(v);
}

/* "k=v&k=v" (NULL: none) into params, each part percent-decoded ('+' a
 * space); a key given twice keeps its last value. False when a part does
 * not decode (malformed, or a NUL). */
static bool query_get(const char *q, json_t *params)
{
    while (q && *q) {
        size_t n = strcspn(q, "&");
        const char *eq = memchr(q, '=', n);
        size_t kn = eq ? (size_t)(eq - q) : n;
        char *k = unescape_as(q, kn, true);
        char *v = eq ? unescape_as(eq + 1, n - kn - 1, true) : an_xstrdup("");
        bool ok = k && v;
        if (ok && *k)
            json_object_set_new(params, k, query_value(k, v));
        free(k);
        free(v);
        if (!ok)
            return false;
        q += n + (q[n] == '&');
    }
    return true;
}

/* ---- 0.3 shapes: JSON-RPC <-> protobuf JSON ---- */

static const char *const st_rpc[] = {"submitted", "working",       "input-required",
                                     "completed", "failed",        "canceled",
                                     "rejected",  "auth-required", "unknown"};
static const char *const st_proto[] = {
    "TASK_STATE_SUBMITTED", "TASK_STATE_WORKING",       "TASK_STATE_INPUT_REQUIRED",
    "TASK_STATE_COMPLETED", "TASK_STATE_FAILED",        "TASK_STATE_CANCELLED",
    "TASK_STATE_REJECTED",  "TASK_STATE_AUTH_REQUIRED", "TASK_STATE_UNSPECIFIED"};

static void map_state(json_t *status, bool out)
{
    const char *s = an_json_str(status, "state");
    if (!s)
        return;
    const char *rpc = an_a2a_state(s); /* any spelling -> the 0.3 JSON-RPC one */
    for (size_t i = 0; rpc && i < sizeof st_rpc / sizeof *st_rpc; i++)
        if (!strcmp(rpc, st_rpc[i])) {
            json_object_set_new(status, "state", json_string(out ? st_proto[i] : st_rpc[i]));
            return;
        }
}

/* A 0.3 JSON-RPC part as protobuf JSON (out), or back. New reference. */
static json_t *part_conv(const json_t *p, bool out)
{
    json_t *o = json_object();
    const json_t *v, *f;
    if (out) {
        const char *k = an_json_str(p, "kind");
        if ((v = json_object_get(p, "text")) && (!k || !strcmp(k, "text"))) {
            json_object_set(o, "text", (json_t *)v);
        } else if (k && !strcmp(k, "data")) {
            json_object_set_new(o, "data", json_pack("{s:O}", "data", json_object_get(p, "data")));
        } else if (json_is_object(f = json_object_get(p, "file"))) {
            json_t *pf = json_object();
            if ((v = json_object_get(f, "uri")))
                json_object_set(pf, "fileWithUri", (json_t *)v);
            if ((v = json_object_get(f, "bytes")))
                json_object_set(pf, "fileWithBytes", (json_t *)v);
            if ((v = json_object_get(f, "mimeType")))
                json_object_set(pf, "mimeType", (json_t *)v);
            json_object_set_new(o, "file", pf);
        }
    } else if ((v = json_object_get(p, "text"))) {
        json_object_set_new(o, "kind", json_string("text"));
        json_object_set(o, "text", (json_t *)v);
    } else if (json_is_object(v = json_object_get(p, "data"))) {
        json_object_set_new(o, "kind", json_string("data"));
        const json_t *d = json_object_get(v, "data");
        json_object_set(o, "data", d ? (json_t *)d : (json_t *)v);
    } else if (json_is_object(f = json_object_get(p, "file"))) {
        json_t *rf = json_object();
        if ((v = json_object_get(f, "fileWithUri")))
            json_object_set(rf, "uri", (json_t *)v);
        if ((v = json_object_get(f, "fileWithBytes")))
            json_object_set(rf, "bytes", (json_t *)v);
        if ((v = json_object_get(f, "mimeType")))
            json_object_set(rf, "mimeType", (json_t *)v);
        json_object_set_new(o, "kind", json_string("file"));
        json_object_set_new(o, "file", rf);
    } else if (json_object_get(p, "url") || json_object_get(p, "raw")) { /* 1.0 */
        json_t *rf = json_object();
        if ((v = json_object_get(p, "url")))
            json_object_set(rf, "uri", (json_t *)v);
        if ((v = json_object_get(p, "raw")))
            json_object_set(rf, "bytes", (json_t *)v);
        if ((v = json_object_get(p, "mediaType")))
            json_object_set(rf, "mimeType", (json_t *)v);
        if ((v = json_object_get(p, "filename")))
            json_object_set(rf, "name", (json_t *)v);
        json_object_set_new(o, "kind", json_string("file"));
        json_object_set_new(o, "file", rf);
    }
    if ((v = json_object_get(p, "metadata")))
        json_object_set(o, "metadata", (json_t *)v);
    return o;
}

static json_t *parts_conv(const json_t *parts, bool out)
{
    json_t *a = json_array();
    size_t i;
    const json_t *p;
    json_array_foreach(parts, i, p) json_array_append_new(a, part_conv(p, out));
    return a;
}

/* A message, task, artifact, event or status of either shape converted in
 * place: kind dropped or set, parts renamed, states and roles spelled. */
static void message_conv(json_t *m, bool out)
{
    if (!json_is_object(m))
        return;
    const char *from = out ? "parts" : "content", *to = out ? "content" : "parts";
    json_t *parts = json_object_get(m, from);
    if (!parts && !out)
        parts = json_object_get(m, "parts");
    if (parts) {
        json_t *c = parts_conv(parts, out);
        json_object_del(m, from);
        json_object_set_new(m, to, c);
    }
    const char *role = an_json_str(m, "role");
    if (role) {
        bool agent = !strcmp(role, "agent") || !strcmp(role, "ROLE_AGENT");
        json_object_set_new(
            m, "role",
            json_string(out ? (agent ? "ROLE_AGENT" : "ROLE_USER") : (agent ? "agent" : "user")));
    }
    if (out)
        json_object_del(m, "kind");
    else
        json_object_set_new(m, "kind", json_string("message"));
}

static void status_conv(json_t *st, bool out)
{
    if (!json_is_object(st))
        return;
    map_state(st, out);
    message_conv(json_object_get(st, "message"), out);
}

static void artifact_conv(json_t *a, bool out)
{
    json_t *parts = json_object_get(a, "parts");
    if (parts)
        json_object_set_new(a, "parts", parts_conv(parts, out));
}

static void task_conv(json_t *t, bool out)
{
    size_t i;
    json_t *x;
    status_conv(json_object_get(t, "status"), out);
    json_array_foreach(json_object_get(t, "artifacts"), i, x) artifact_conv(x, out);
    json_array_foreach(json_object_get(t, "history"), i, x) message_conv(x, out);
    json_object_del(t, "kind");
    json_object_del(t, "final");
    json_object_del(t, "append");
    json_object_del(t, "lastChunk");
}

/* A 0.3 JSON-RPC result (with `kind`) as {task|message|statusUpdate|artifactUpdate}. */
static json_t *object_out(const json_t *r)
{
    const char *k = an_json_str(r, "kind");
    json_t *c = json_deep_copy(r);
    if (k && !strcmp(k, "message")) {
        message_conv(c, true);
        return json_pack("{s:o}", "message", c);
    }
    if (k && !strcmp(k, "status-update")) {
        status_conv(json_object_get(c, "status"), true);
        json_object_del(c, "kind");
        return json_pack("{s:o}", "statusUpdate", c);
    }
    if (k && !strcmp(k, "artifact-update")) {
        artifact_conv(json_object_get(c, "artifact"), true);
        json_object_del(c, "kind");
        return json_pack("{s:o}", "artifactUpdate", c);
    }
    if (k && !strcmp(k, "task")) {
        task_conv(c, true);
        return json_pack("{s:o}", "task", c);
    }
    return c; /* no known shape: as it is, for the client to judge */
}

static json_t *push_out(const json_t *r)
{
    json_t *c = json_object();
    const char *tid = an_json_str(r, "taskId");
    const json_t *cfg = json_object_get(r, "pushNotificationConfig");
    const char *cid = an_json_str(cfg, "id");
    struct an_buf n = AN_BUF_INIT;
    an_buf_printf(&n, "tasks/%s/pushNotificationConfigs/%s", tid ? tid : "",
                  cid ? cid : (tid ? tid : ""));
    json_object_set_new(c, "name", json_string(an_buf_cstr(&n)));
    an_buf_release(&n);
    if (cfg)
        json_object_set(c, "pushNotificationConfig", (json_t *)cfg);
    return c;
}

static json_t *push_in(const json_t *b)
{
    json_t *c = json_object();
    const char *name = an_json_str(b, "name");
    if (name && !strncmp(name, "tasks/", 6)) {
        const char *end = strchr(name + 6, '/');
        json_object_set_new(
            c, "taskId", json_stringn(name + 6, end ? (size_t)(end - name - 6) : strlen(name + 6)));
    }
    const json_t *cfg = json_object_get(b, "pushNotificationConfig");
    if (cfg)
        json_object_set(c, "pushNotificationConfig", (json_t *)cfg);
    return c;
}

json_t *an_a2a_rest_result_out(const char *method, const json_t *result)
{
    if (method && !strncmp(method, "tasks/pushNotificationConfig/", 29)) {
        if (json_is_array(result)) {
            json_t *l = json_array();
            size_t i;
            const json_t *x;
            json_array_foreach(result, i, x) json_array_append_new(l, push_out(x));
            return json_pack("{s:o}", "configs", l);
        }
        return json_is_object(result) ? push_out(result) : json_object();
    }
    if (method && (!strcmp(method, "tasks/get") || !strcmp(method, "tasks/cancel"))) {
        json_t *c = json_deep_copy(result);
        task_conv(c, true);
        return c; /* a bare Task */
    }
    return object_out(result);
}

json_t *an_a2a_rest_result_in(const json_t *body)
{
    static const char *const keys[] = {"task", "message", "msg", "statusUpdate", "artifactUpdate"};
    static const char *const kinds[] = {"task", "message", "message", "status-update",
                                        "artifact-update"};
    if (!json_is_object(body))
        return json_incref((json_t *)body);
    for (size_t k = 0; k < 5; k++) {
        const json_t *v = json_object_get(body, keys[k]);
        if (!json_is_object(v))
            continue;
        json_t *c = json_deep_copy(v);
        if (k == 1 || k == 2) {
            message_conv(c, false);
        } else {
            if (k == 3)
                status_conv(json_object_get(c, "status"), false);
            else if (k == 4)
                artifact_conv(json_object_get(c, "artifact"), false);
            else
                task_conv(c, false);
            json_object_set_new(c, "kind", json_string(kinds[k]));
        }
        return c;
    }
    if (json_is_array(json_object_get(body, "configs"))) {
        json_t *l = json_array();
        size_t i;
        const json_t *x;
        json_array_foreach(json_object_get(body, "configs"), i, x)
            json_array_append_new(l, push_in(x));
        return l;
    }
    if (json_object_get(body, "pushNotificationConfig"))
        return push_in(body);
    if (an_json_str(body, "id") && json_object_get(body, "status")) {
        json_t *c = json_deep_copy(body); /* a bare Task (tasks/get, tasks/cancel) */
        task_conv(c, false);
        json_object_set_new(c, "kind", json_string("task"));
        return c;
    }
    return json_deep_copy(body);
}

/* The params of message/send as a 0.3 SendMessageRequest, or back. */
static json_t *send_conv(const json_t *params, bool out)
{
    json_t *c = json_deep_copy(json_is_object(params) ? params : NULL);
    if (!c)
        c = json_object();
    json_t *m = json_object_get(c, out ? "message" : "message");
    if (!m && !out)
        m = json_object_get(c, "request");
    if (m) {
        message_conv(m, out);
        if (!out && json_object_get(c, "request")) {
            json_object_set(c, "message", m);
            json_object_del(c, "request");
        }
    }
    return c;
}

/* ---- routes ---- */

struct route {
    const char *method, *verb;
    const char *suffix; /* after /tasks/{id}; NULL: no task id */
    const char *path;   /* without a task id */
    bool stream;
};
static const struct route routes[] = {
    {"message/send", "POST", NULL, "/message:send", false},
    {"message/stream", "POST", NULL, "/message:stream", true},
    {"tasks/get", "GET", "", NULL, false},
    {"tasks/cancel", "POST", ":cancel", NULL, false},
    {"tasks/resubscribe", "GET", ":subscribe", NULL, true},
    {"tasks/pushNotificationConfig/set", "POST", "/pushNotificationConfigs", NULL, false},
    {"tasks/pushNotificationConfig/list", "GET", "/pushNotificationConfigs", NULL, false},
    {"tasks/pushNotificationConfig/get", "GET", "/pushNotificationConfigs/", NULL, false},
    {"tasks/pushNotificationConfig/delete", "DELETE", "/pushNotificationConfigs/", NULL, false},
    {"agent/getAuthenticatedExtendedCard", "GET", NULL, "/card", false},
    {NULL, "GET", NULL, "/tasks", false}, /* 1.0 only: 0.3 has no tasks/list */
};
#define NROUTES (sizeof routes / sizeof *routes)
/* 1.0 names of the same rows */
static const char *const names_10[NROUTES] = {"SendMessage",
                                              "SendStreamingMessage",
                                              "GetTask",
                                              "CancelTask",
                                              "SubscribeToTask",
                                              "CreateTaskPushNotificationConfig",
                                              "ListTaskPushNotificationConfigs",
                                              "GetTaskPushNotificationConfig",
                                              "DeleteTaskPushNotificationConfig",
                                              "GetExtendedAgentCard",
                                              "ListTasks"};
#define ROUTE_LIST 10 /* ListTasks: its params are the query */

static const struct route *route_of(const char *method, int version, size_t *at)
{
    for (size_t i = 0; method && i < NROUTES; i++) {
        const char *name = version == AN_A2A_V0_3 ? routes[i].method : names_10[i];
        if (name && !strcmp(method, name)) {
            *at = i;
            return &routes[i];
        }
    }
    return NULL;
}

bool an_a2a_rest_route(const char *method, const json_t *params, int version,
                       struct an_a2a_rest_req *out)
{
    size_t at = 0;
    const struct route *r = route_of(method, version, &at);
    if (!r)
        return false;
    bool v03 = version == AN_A2A_V0_3;
    struct an_buf p = AN_BUF_INIT;
    an_buf_puts(&p, v03 ? "/v1" : "");
    if (r->path) {
        an_buf_puts(&p, !v03 && !strcmp(r->path, "/card") ? "/extendedAgentCard" : r->path);
    } else {
        /* 1.0's push config params name the task taskId, the config id */
        bool push10 = !v03 && at >= 5 && at <= 8;
        const char *tid = an_json_str(params, push10 ? "taskId" : "id");
        if (!tid && !push10)
            tid = an_json_str(params, "taskId");
        char *e = an_a2a_rest_escape(tid ? tid : "");
        an_buf_printf(&p, "/tasks/%s%s", e, r->suffix);
        free(e);
        if (r->suffix[0] == '/' && r->suffix[strlen(r->suffix) - 1] == '/') {
            /* one config: its id, else the task's (the default config's) */
            const char *cid = an_json_str(params, push10 ? "id" : "pushNotificationConfigId");
            if (!cid)
                cid = tid;
            e = an_a2a_rest_escape(cid ? cid : "");
            an_buf_puts(&p, e);
            free(e);
        }
    }
    const json_t *hl = json_object_get(params, "historyLength");
    if (at == 2 && json_is_integer(hl))
        an_buf_printf(&p, "?historyLength=%lld", (long long)json_integer_value(hl));
    if (at == ROUTE_LIST && json_is_object(params))
        query_put(&p, params);
    out->verb = r->verb;
    out->path = an_buf_detach(&p, NULL);
    out->stream = r->stream;
    out->body = NULL;
    if (!strcmp(r->verb, "POST")) {
        if (at <= 1)
            out->body = v03 ? send_conv(params, true) : json_deep_copy(params);
        else if (at == 5)
            out->body = v03 ? push_out(params) : json_deep_copy(params);
        else
            out->body = json_object();
    }
    return true;
}

void an_a2a_rest_req_release(struct an_a2a_rest_req *r)
{
    free(r->path);
    json_decref(r->body);
    memset(r, 0, sizeof *r);
}

/* "/tasks/{id}<rest>" -> the decoded id and where <rest> starts; NULL if not. */
static char *task_segment(const char *path, const char **rest)
{
    if (strncmp(path, "/tasks/", 7))
        return NULL;
    const char *s = path + 7;
    size_t n = strcspn(s, "/:");
    if (!n)
        return NULL;
    *rest = s + n;
    return unescape(s, n);
}

const char *an_a2a_rest_method(const char *verb, const char *path, const char *query,
                               const json_t *body, int version, json_t **params)
{
    bool v03 = version == AN_A2A_V0_3;
    *params = NULL;
    if (v03) {
        if (strncmp(path, "/v1/", 4))
            return NULL;
        path += 3;
    }
    size_t at = NROUTES;
    char *tid = NULL, *cid = NULL;
    const char *rest = NULL;
    for (size_t i = 0; i < NROUTES && at == NROUTES; i++) {
        const struct route *r = &routes[i];
        if ((v03 && !r->method) || (strcmp(verb, r->verb) && !(i == 4 && !strcmp(verb, "POST"))))
            continue;
        if (r->path) {
            const char *want = !v03 && i == 9 ? "/extendedAgentCard" : r->path;
            if (!strcmp(path, want))
                at = i;
            continue;
        }
        free(tid);
        if (!(tid = task_segment(path, &rest)))
            continue;
        size_t sl = strlen(r->suffix);
        if (sl && r->suffix[sl - 1] == '/') {
            if (!strncmp(rest, r->suffix, sl) && rest[sl] && !strchr(rest + sl, '/') &&
                (cid = unescape(rest + sl, strlen(rest + sl))))
                at = i;
        } else if (!strcmp(rest, r->suffix)) {
            at = i;
        }
    }
    if (at == NROUTES) {
        free(tid);
        return NULL;
    }
    json_t *p;
    if (at <= 1)
        p = v03 ? send_conv(body, false) : json_deep_copy(json_is_object(body) ? body : NULL);
    else if (at == 5)
        p = v03 ? push_in(body) : json_deep_copy(json_is_object(body) ? body : NULL);
    else
        p = json_object();
    if (!p)
        p = json_object();
    bool push10 = !v03 && at >= 5 && at <= 8; /* 1.0: {taskId, id: the config's} */
    if (tid)
        json_object_set_new(p, at == 5 || push10 ? "taskId" : "id", json_string(tid));
    if (at == 5 && v03 && tid && !an_json_str(p, "taskId"))
        json_object_set_new(p, "taskId", json_string(tid));
    if (cid)
        json_object_set_new(p, push10 ? "id" : "pushNotificationConfigId", json_string(cid));
    json_t *q = json_object();
    bool q_ok = (at != 2 && at != ROUTE_LIST) || query_get(query, q);
    const json_t *hl = json_object_get(q, "historyLength");
    if (at == 2 && json_is_integer(hl))
        json_object_set(p, "historyLength", (json_t *)hl);
    if (at == ROUTE_LIST)
        json_object_update(p, q);
    json_decref(q);
    free(tid);
    free(cid);
    if (!q_ok) {
        json_decref(p);
        return NULL;
    }
    *params = p;
    return v03 ? routes[at].method : names_10[at];
}

/* ---- errors ---- */

static const struct {
    long code;
    const char *reason;
} reasons[] = {
    {-32001, "TASK_NOT_FOUND"},
    {-32002, "TASK_NOT_CANCELABLE"},
    {-32003, "PUSH_NOTIFICATION_NOT_SUPPORTED"},
    {-32004, "UNSUPPORTED_OPERATION"},
    {-32005, "CONTENT_TYPE_NOT_SUPPORTED"},
    {-32006, "INVALID_AGENT_RESPONSE"},
    {-32007, "EXTENDED_AGENT_CARD_NOT_CONFIGURED"},
    {-32008, "EXTENSION_SUPPORT_REQUIRED"},
    {-32009, "VERSION_NOT_SUPPORTED"},
};

unsigned an_a2a_rest_status_of(long code)
{
    switch (code) {
    case -32001:
        return 404;
    case -32601:
        return 501;
    case -32603:
    case -32006:
        return 500;
    default:
        return 400;
    }
}

json_t *an_a2a_rest_error_body(long code, const char *message, unsigned status, int version)
{
    if (version == AN_A2A_V0_3)
        return json_pack("{s:I,s:s}", "code", (json_int_t)code, "message", message);
    const char *reason = NULL;
    for (size_t i = 0; i < sizeof reasons / sizeof *reasons; i++)
        if (reasons[i].code == code)
            reason = reasons[i].reason;
    json_t *details = json_array();
    if (reason)
        json_array_append_new(details, json_pack("{s:s,s:s,s:s}", "@type",
                                                 "type.googleapis.com/google.rpc.ErrorInfo",
                                                 "reason", reason, "domain", "a2a-protocol.org"));
    return json_pack("{s:{s:I,s:s,s:s,s:o}}", "error", "code", (json_int_t)status, "status",
                     status == 404   ? "NOT_FOUND"
                     : status >= 500 ? "INTERNAL"
                                     : "INVALID_ARGUMENT",
                     "message", message, "details", details);
}

json_t *an_a2a_rest_error(const json_t *body, long status)
{
    const json_t *e = json_object_get(body, "error");
    const json_t *code = json_object_get(body, "code");
    const char *msg = an_json_str(body, "message");
    json_int_t c = json_is_integer(code) ? json_integer_value(code) : 0;
    if (json_is_object(e)) { /* 1.0: google.rpc.Status */
        msg = an_json_str(e, "message");
        c = 0;
        size_t i;
        const json_t *d;
        json_array_foreach(json_object_get(e, "details"), i, d)
        {
            const char *r = an_json_str(d, "reason");
            for (size_t k = 0; r && !c && k < sizeof reasons / sizeof *reasons; k++)
                if (!strcmp(r, reasons[k].reason))
                    c = reasons[k].code;
        }
        if (!c)
            c = status == 400 ? -32602 : -32603;
    } else if (!c || c > -32000 || c < -32768) {
        c = status == 404 ? -32001 : -32603;
    }
    json_t *o = json_pack("{s:I,s:s}", "code", c, "message", msg ? msg : "");
    const json_t *data = json_object_get(body, "data");
    if (data)
        json_object_set(o, "data", (json_t *)data);
    return o;
}
