/*
 * .jsont: the AG-UI step kinds, `run` (a RunAgentInput) and `http` (a body
 * exactly as written), MCP's `mcpHttp` (one request to a Streamable HTTP
 * endpoint: a method, headers, the test's session), and their outcome
 * expectations. Everything a step
 * could get wrong is found here, with the line:col of the offending value,
 * before any server is contacted.
 *
 * Every message starts with the value's path as a reader would write it
 * (steps[3].run.expect.anyOf[1].status) and the error carries its
 * position in the file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/jsonmatch.h"
#include "core/json.h"
#include "load/jsont_int.h"
#include "load/schema.h"
#include "core/spec_names.h"

static const char *const run_keys[] = {"input",   "user",      "continue", "headers",
                                       "accept",  "timeoutMs", "expect",   "captures",
                                       "observe", "naUnless",  "naReason", NULL};
static const char *const http_keys[] = {"body",      "json",   "headers",  "accept",
                                        "timeoutMs", "expect", "captures", "observe",
                                        "method",    "path",   NULL};
static const char *const mcp_http_keys[] = {
    "body",   "json",    "headers",    "accept",   "timeoutMs", "expect", "captures",
    "method", "session", "concurrent", "naUnless", "naReason",  "listenMs", "during", NULL};
/* mcpHttp `during`: the request sent once the listened stream's first
 * message came */
static const char *const during_keys[] = {"json", "headers", NULL};
/* the members of the outcome object a pattern may name (docs/comply.md) */
static const char *const outcome_keys[] = {"status", "rule", "error", "http", "threadId", "runId",
                                           "types", "events", "noEvents", "runError", "messages",
                                           "state", "warnings", "body", "anyOf",
                                           /* A2A (run/comply_a2a.h) */
                                           "response", "kinds", "last", "sse",
                                           /* mcpHttp with listenMs */
                                           "first", "during", "noMessages", NULL};
static const char *const statuses[] = {
    "completed", "run_error", "protocol_error", "http_error", "timeout", "transport_error", NULL};

/* A path as messages show it: steps.3.run.expect.anyOf.1 ->
 * steps[3].run.expect.anyOf[1]. */
static const char *show(const char *path, char *buf, size_t cap)
{
    size_t o = 0;
    buf[0] = '\0';
    for (const char *c = path; *c;) {
        size_t n = strcspn(c, ".");
        bool num = strspn(c, "0123456789") >= n;
        int w = num ? snprintf(buf + o, cap - o, "[%.*s]", (int)n, c)
                    : snprintf(buf + o, cap - o, "%s%.*s", o ? "." : "", (int)n, c);
        if (w < 0 || (size_t)w >= cap - o)
            break;
        o += (size_t)w;
        c += n;
        if (*c == '.')
            c++;
    }
    return buf;
}

/* Fail at `path`, the message prefixed with the path as shown. */
static int fail(struct jsont_ld *l, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct jsont_ld *l, const char *path, const char *fmt, ...)
{
    char msg[512], shown[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return jsont_fail_at(l, AN_ESCHEMA, path, "%s: %s", show(path, shown, sizeof shown), msg);
}

/* `base` + "." + a formatted tail, into buf. */
static const char *sub(char *buf, size_t cap, const char *base, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static const char *sub(char *buf, size_t cap, const char *base, const char *fmt, ...)
{
    int n = snprintf(buf, cap, "%s.", base);
    if (n < 0 || (size_t)n >= cap)
        return buf;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - (size_t)n, fmt, ap);
    va_end(ap);
    return buf;
}

static int check_keys(struct jsont_ld *l, json_t *obj, const char *const *valid, const char *path)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v)
    {
        bool ok = false;
        for (const char *const *x = valid; *x && !ok; x++)
            ok = !strcmp(*x, k);
        if (ok)
            continue;
        char p[256];
        const char *near = an_closest(k, valid);
        return fail(l, sub(p, sizeof p, path, "%s", k), "unknown key '%s'%s%s%s", k,
                    near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    }
    return AN_OK;
}

/* A plain word (optionally anchored) must be one of the known names: a
 * typo in a status or rule would otherwise be a pattern that never
 * matches. */
static bool plain_word(const char *s, char *word, size_t cap)
{
    size_t n = strlen(s);
    if (n && s[0] == '^')
        s++, n--;
    if (n && s[n - 1] == '$')
        n--;
    if (!n || n >= cap || strspn(s, "abcdefghijklmnopqrstuvwxyz_-") < n)
        return false;
    memcpy(word, s, n);
    word[n] = '\0';
    return true;
}

/* One outcome pattern at `path` (an `expect`, or one of its `anyOf`).
 * *out: the pattern to keep, without anyOf, `status` filled in when it has
 * none (and, at the top, no anyOf: then the alternatives carry it). */
static int load_outcome(struct jsont_ld *l, json_t *pat, const char *path, bool top, json_t **out)
{
    char p[256], word[64];
    *out = NULL;
    if (!json_is_object(pat))
        return fail(l, path, "an outcome pattern must be an object");
    int rc = check_keys(l, pat, outcome_keys, path);
    if (rc)
        return rc;
    json_t *any = json_object_get(pat, "anyOf");
    if (any && !top)
        return fail(l, sub(p, sizeof p, path, "anyOf"), "'anyOf' does not nest");
    json_t *st = json_object_get(pat, "status");
    if (st && !json_is_string(st))
        return fail(l, sub(p, sizeof p, path, "status"), "must be a string (a pattern)");
    if (st && plain_word(json_string_value(st), word, sizeof word)) {
        bool ok = false;
        for (const char *const *s = statuses; *s && !ok; s++)
            ok = !strcmp(*s, word);
        const char *near = an_closest(word, statuses);
        if (!ok)
            return fail(l, sub(p, sizeof p, path, "status"),
                        "unknown status '%s'%s%s%s (completed, run_error, protocol_error, "
                        "http_error, timeout, transport_error)",
                        word, near ? ", did you mean '" : "", near ? near : "", near ? "'?" : "");
    }
    json_t *rule = json_object_get(pat, "rule");
    if (json_is_string(rule) && plain_word(json_string_value(rule), word, sizeof word) &&
        !an_agui_rule_find(word))
        return fail(l, sub(p, sizeof p, path, "rule"),
                    "no AG-UI rule is called '%s' (docs/agui.md lists them)", word);
    static const char *const evkeys[] = {"events", "noEvents"};
    for (size_t k = 0; k < 2; k++) {
        json_t *ev = json_object_get(pat, evkeys[k]);
        if (!ev)
            continue;
        if (!json_is_array(ev))
            return fail(l, sub(p, sizeof p, path, "%s", evkeys[k]),
                        "must be an array of event patterns");
        size_t i;
        json_t *e;
        json_array_foreach(ev, i, e)
        {
            if (!json_is_object(e))
                return fail(l, sub(p, sizeof p, path, "%s.%zu", evkeys[k], i),
                            "must be an object (a partial event)");
        }
    }
    json_t *nm = json_object_get(pat, "noMessages");
    if (nm && !json_is_array(nm))
        return fail(l, sub(p, sizeof p, path, "noMessages"),
                    "must be an array of message patterns");
    size_t ni;
    json_t *ne;
    json_array_foreach(nm, ni, ne)
    {
        if (!json_is_object(ne) && !json_is_string(ne))
            return fail(l, sub(p, sizeof p, path, "noMessages.%zu", ni),
                        "must be an object (a partial message) or a string (a pattern searched "
                        "in the message's compact JSON)");
    }
    json_t *copy = json_deep_copy(pat);
    json_object_del(copy, "anyOf");
    if (!st && !any)
        json_object_set_new(copy, "status", json_string("^completed$"));
    struct an_loc loc;
    jsont_loc_at(l, path, &loc);
    if (an_jm_check(copy, &loc, l->err)) {
        /* the message starts with the pattern's path ("events[0].type: "):
         * the error goes to that string, not to the whole expectation */
        char inner[256];
        size_t n = strcspn(l->err->msg, ":");
        if (l->err->msg[n] == ':' && strlen(path) + n + 2 < sizeof inner) {
            size_t o = (size_t)snprintf(inner, sizeof inner, "%s.", path);
            for (size_t i = 0; i < n; i++)
                if (l->err->msg[i] != ']')
                    inner[o++] = l->err->msg[i] == '[' ? '.' : l->err->msg[i];
            inner[o] = '\0';
            jsont_loc_at(l, inner, &loc);
            l->err->line = loc.line;
            l->err->col = loc.col;
        }
        an_err_prefix(l->err, "%s: ", show(path, p, sizeof p));
        json_decref(copy);
        return AN_EREGEX;
    }
    *out = copy;
    return AN_OK;
}

static int load_expect(struct jsont_ld *l, struct an_jsont_agui *g, json_t *ex, const char *base)
{
    char p[256];
    json_t *def = NULL, *outcome = NULL, *alts = NULL;
    if (!ex)
        ex = def = json_object();
    sub(p, sizeof p, base, "expect");
    int rc = load_outcome(l, ex, p, true, &outcome);
    json_t *any = rc ? NULL : json_object_get(ex, "anyOf");
    if (any && (!json_is_array(any) || !json_array_size(any)))
        rc = fail(l, sub(p, sizeof p, base, "expect.anyOf"),
                  "must be a non-empty array of outcome patterns");
    if (!rc && any) {
        alts = json_array();
        for (size_t i = 0; !rc && i < json_array_size(any); i++) {
            json_t *alt = NULL;
            rc = load_outcome(l, json_array_get(any, i),
                              sub(p, sizeof p, base, "expect.anyOf.%zu", i), false, &alt);
            if (!rc)
                json_array_append_new(alts, alt);
        }
    }
    if (!rc) {
        g->expect = jsont_keep(l, outcome);
        g->any_of = alts ? jsont_keep(l, alts) : NULL;
    }
    json_decref(alts);
    json_decref(outcome);
    json_decref(def);
    return rc;
}

static int load_captures(struct jsont_ld *l, struct an_jsont_step *st, json_t *caps,
                         const char *base)
{
    char p[256];
    if (!caps)
        return AN_OK;
    if (!json_is_array(caps))
        return fail(l, sub(p, sizeof p, base, "captures"), "must be an array");
    size_t nev = json_array_size(json_object_get(st->agui->expect, "events"));
    st->ncaptures = json_array_size(caps);
    st->captures = an_arena_alloc(&l->t->arena, (st->ncaptures + 1) * sizeof *st->captures);
    for (size_t c = 0; c < st->ncaptures; c++) {
        json_t *cv = json_array_get(caps, c);
        const char *path = an_json_str(cv, "path"), *var = an_json_str(cv, "var");
        sub(p, sizeof p, base, "captures.%zu", c);
        if (!json_is_object(cv) || !path || !*path || !var || !*var)
            return fail(l, p, "needs 'path' and 'var' strings");
        json_t *ev = json_object_get(cv, "event");
        st->captures[c] = (struct an_jsont_capture){an_arena_strdup(&l->t->arena, path),
                                                    an_arena_strdup(&l->t->arena, var), -1};
        if (!ev)
            continue;
        if (!json_is_integer(ev) || json_integer_value(ev) < 0 ||
            (size_t)json_integer_value(ev) >= nev)
            return fail(l, sub(p, sizeof p, base, "captures.%zu.event", c),
                        "must index expect.events (which has %zu)", nev);
        st->captures[c].from = (int)json_integer_value(ev);
    }
    return AN_OK;
}

/* `headers` at base.key: an object of header names to one-line strings. */
static int check_headers(struct jsont_ld *l, json_t *v, const char *base, const char *key)
{
    char p[256];
    if (!json_is_object(v))
        return fail(l, sub(p, sizeof p, base, "%s", key), "must be an object of strings");
    const char *k;
    json_t *h;
    json_object_foreach(v, k, h)
    {
        if (!json_is_string(h) || !*k || strpbrk(k, ":\r\n") ||
            strpbrk(json_string_value(h), "\r\n"))
            return fail(l, sub(p, sizeof p, base, "%s.%s", key, k),
                        "a header needs a name without ':' and a string value without line "
                        "breaks");
    }
    return AN_OK;
}

static int load_headers(struct jsont_ld *l, struct an_jsont_agui *g, json_t *v, const char *base)
{
    int rc = check_headers(l, v, base, "headers");
    if (!rc)
        g->headers = jsont_keep(l, v);
    return rc;
}

/* What `run` sends must be a RunAgentInput: the members it names have
 * their types (a malformed input is what `http` is for). */
static int check_input(struct jsont_ld *l, json_t *in, const char *base)
{
    char p[256];
    static const struct {
        const char *key;
        json_type type;
        const char *what;
    } members[] = {{"threadId", JSON_STRING, "a string"},    {"runId", JSON_STRING, "a string"},
                   {"parentRunId", JSON_STRING, "a string"}, {"messages", JSON_ARRAY, "an array"},
                   {"tools", JSON_ARRAY, "an array"},        {"context", JSON_ARRAY, "an array"},
                   {"resume", JSON_ARRAY, "an array"}};
    for (size_t i = 0; i < sizeof members / sizeof *members; i++) {
        json_t *v = json_object_get(in, members[i].key);
        if (v && json_typeof(v) != members[i].type)
            return fail(l, sub(p, sizeof p, base, "input.%s", members[i].key),
                        "must be %s (send a malformed input with an 'http' step)", members[i].what);
    }
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(in, "messages"), i, m)
    {
        if (!json_is_object(m) || !an_json_str(m, "id") || !an_json_str(m, "role"))
            return fail(l, sub(p, sizeof p, base, "input.messages.%zu", i),
                        "a message needs 'id' and 'role' strings");
    }
    return AN_OK;
}

/* `naUnless` with its `naReason` (mcpHttp and AG-UI run steps). */
static int load_na(struct jsont_ld *l, struct an_jsont_agui *g, json_t *v, const char *base)
{
    char p[256];
    json_t *na = json_object_get(v, "naUnless");
    const char *why = an_json_str(v, "naReason");
    if (!na != !why)
        return fail(l, base,
                    "'naUnless' (an outcome pattern) and 'naReason' (a string) go together");
    if (!na)
        return AN_OK;
    if (!json_is_object(na) || json_object_get(na, "anyOf"))
        return fail(l, sub(p, sizeof p, base, "naUnless"), "must be an outcome pattern (no anyOf)");
    struct an_loc loc;
    jsont_loc_at(l, sub(p, sizeof p, base, "naUnless"), &loc);
    if (an_jm_check(na, &loc, l->err))
        return AN_EREGEX;
    g->na_unless = jsont_keep(l, na);
    g->na_reason = an_arena_strdup(&l->t->arena, why);
    return AN_OK;
}

/* mcpHttp: the method, `session`. */
static int load_mcp_http(struct jsont_ld *l, struct an_jsont_agui *g, json_t *v, const char *base)
{
    char p[256];
    const char *m = an_json_str(v, "method");
    if (m && strcmp(m, "GET") && strcmp(m, "POST") && strcmp(m, "DELETE"))
        return fail(l, sub(p, sizeof p, base, "method"), "must be \"GET\", \"POST\" or \"DELETE\"");
    json_t *x = json_object_get(v, "session");
    if (x && !json_is_boolean(x))
        return fail(l, sub(p, sizeof p, base, "session"), "must be true or false");
    g->no_session = json_is_false(x);
    g->concurrent = 1;
    if ((x = json_object_get(v, "concurrent"))) {
        if (!json_is_integer(x) || json_integer_value(x) < 1 ||
            json_integer_value(x) > AN_JSONT_MAX_CONCURRENT)
            return fail(l, sub(p, sizeof p, base, "concurrent"),
                        "must be a whole number of copies (1 to %d)", AN_JSONT_MAX_CONCURRENT);
        g->concurrent = (unsigned)json_integer_value(x);
    }
    if ((x = json_object_get(v, "listenMs"))) {
        if (!json_is_integer(x) || json_integer_value(x) < 1 ||
            json_integer_value(x) > AN_JSONT_MAX_LISTEN_MS)
            return fail(l, sub(p, sizeof p, base, "listenMs"),
                        "must be a whole number of milliseconds (1 to %d)", AN_JSONT_MAX_LISTEN_MS);
        if (g->concurrent > 1)
            return fail(l, sub(p, sizeof p, base, "listenMs"),
                        "a listened stream is one request: not with 'concurrent'");
        g->listen_ms = (int64_t)json_integer_value(x);
    }
    if ((x = json_object_get(v, "during"))) {
        if (!g->listen_ms)
            return fail(l, sub(p, sizeof p, base, "during"),
                        "needs 'listenMs': it is sent while a stream is listened to");
        if (!json_is_object(x) || !json_is_object(json_object_get(x, "json")))
            return fail(l, sub(p, sizeof p, base, "during"),
                        "must be an object with 'json' (the request to send) and optional "
                        "'headers'");
        int rc = check_keys(l, x, during_keys, sub(p, sizeof p, base, "during"));
        if (rc)
            return rc;
        json_t *h = json_object_get(x, "headers");
        if (h && (rc = check_headers(l, h, base, "during.headers")))
            return rc;
        g->during = jsont_keep(l, x);
    }
    return AN_OK;
}

int jsont_load_agui_step(struct jsont_ld *l, struct an_jsont_step *st, const char *key, json_t *v,
                         json_t *step)
{
    char base[160], p[256];
    struct an_arena *a = &l->t->arena;
    bool run = st->kind == AN_JSONT_AGUI_RUN, mcp = st->kind == AN_JSONT_MCP_HTTP;
    snprintf(base, sizeof base, "%s.%s", l->at, key);
    const char *const only[] = {key, NULL};
    int rc = check_keys(l, step, only, l->at);
    if (rc)
        return rc;
    if (!json_is_object(v))
        return fail(l, base, "must be an object");
    if ((rc = check_keys(l, v, run ? run_keys : mcp ? mcp_http_keys : http_keys, base)))
        return rc;
    struct an_jsont_agui *g = an_arena_alloc(a, sizeof *g);
    memset(g, 0, sizeof *g);
    st->agui = g;
    st->ms = mcp ? AN_JSONT_EXPECT_TIMEOUT_MS : AN_JSONT_AGUI_TIMEOUT_MS;
    json_t *x;
    if ((x = json_object_get(v, "timeoutMs"))) {
        if (!json_is_integer(x) || json_integer_value(x) < 1 ||
            json_integer_value(x) > 24LL * 3600 * 1000)
            return fail(l, sub(p, sizeof p, base, "timeoutMs"),
                        "must be a whole number of milliseconds (1 to 86400000)");
        st->ms = (int64_t)json_integer_value(x);
    }
    static const char *const strs[] = {"user", "accept", "body", "method", "path"};
    for (size_t k = 0; k < 5; k++)
        if ((x = json_object_get(v, strs[k])) && !json_is_string(x))
            return fail(l, sub(p, sizeof p, base, "%s", strs[k]), "must be a string");
    static const char *const bools[] = {"continue", "observe"};
    for (size_t k = 0; k < 2; k++)
        if ((x = json_object_get(v, bools[k])) && !json_is_boolean(x))
            return fail(l, sub(p, sizeof p, base, "%s", bools[k]), "must be true or false");
    g->observe = json_is_true(json_object_get(v, "observe"));
    if ((x = json_object_get(v, "accept")))
        g->accept = an_arena_strdup(a, json_string_value(x));
    if ((x = json_object_get(v, "headers")) && (rc = load_headers(l, g, x, base)))
        return rc;
    if ((run || mcp) && (rc = load_na(l, g, v, base)))
        return rc;
    if (run) {
        x = json_object_get(v, "input");
        if (x && !json_is_object(x))
            return fail(l, sub(p, sizeof p, base, "input"),
                        "must be an object (the RunAgentInput members to send)");
        json_t *in = x ? json_incref(x) : json_object();
        rc = check_input(l, in, base);
        g->input = jsont_keep(l, in);
        json_decref(in);
        if (rc)
            return rc;
        if ((x = json_object_get(v, "user")))
            g->user = an_arena_strdup(a, json_string_value(x));
        g->cont = json_is_true(json_object_get(v, "continue"));
        bool earlier = false;
        for (size_t i = 0; i < st->index; i++)
            earlier = earlier || l->t->steps[i].kind == AN_JSONT_AGUI_RUN;
        if (g->cont && !earlier)
            return fail(l, sub(p, sizeof p, base, "continue"),
                        "needs an earlier 'run' step to continue");
    } else {
        json_t *body = json_object_get(v, "body"), *js = json_object_get(v, "json");
        const char *m = an_json_str(v, "method");
        if (mcp && (rc = load_mcp_http(l, g, v, base)))
            return rc;
        if (!mcp && m && strcmp(m, "GET") && strcmp(m, "POST"))
            return fail(l, sub(p, sizeof p, base, "method"), "must be \"GET\" or \"POST\"");
        g->method = m ? an_arena_strdup(a, m) : NULL;
        if ((x = json_object_get(v, "path")))
            g->path = an_arena_strdup(a, json_string_value(x));
        bool get = m && (!strcmp(m, "GET") || !strcmp(m, "DELETE"));
        if (get ? body || js : !body == !js)
            return fail(l, base,
                        get ? (mcp ? "a GET or DELETE sends no 'body' or 'json'"
                                   : "a GET sends no 'body' or 'json'")
                            : "needs exactly one of 'body' (text sent as is) or 'json' (a value "
                              "sent as compact JSON)");
        if (body)
            g->body = an_arena_strdup(a, json_string_value(body));
        else if (js)
            g->json = jsont_keep(l, js);
    }
    if ((rc = load_expect(l, g, json_object_get(v, "expect"), base)))
        return rc;
    return load_captures(l, st, json_object_get(v, "captures"), base);
}
