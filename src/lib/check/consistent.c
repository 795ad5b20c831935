/* tools.consistent (docs/tools.md): the calls the agent reported in a turn
 * and the calls its tool servers received through ananke's proxy agree.
 * Each reported call is paired, in order, with the first unpaired server
 * call of the same name and equal arguments (JSON equality); a reported
 * call left without one, and a server call left unreported, is one finding
 * each, naming the call. */
#include <stdlib.h>
#include <string.h>

#include "check/check_int.h"
#include "core/buf.h"
#include "core/json.h"

/* name({"compact":"args"}), the arguments cut at CALL_SHOWN bytes */
#define CALL_SHOWN 200
static void put_call(struct an_buf *b, const char *name, const json_t *args)
{
    char *j = args ? an_json_compact(args) : NULL;
    size_t n = j ? strlen(j) : 0;
    an_buf_printf(b, "%s(%.*s%s)", name ? name : "?", (int)(n > CALL_SHOWN ? CALL_SHOWN : n),
                  j ? j : "", n > CALL_SHOWN ? "…" : "");
    free(j);
}

static void finding(struct an_findings *out, const struct an_scope *s, const struct an_limit *l,
                    const char *label, const char *expected, struct an_buf *actual)
{
    struct an_buf lb = AN_BUF_INIT, eb = AN_BUF_INIT;
    an_buf_puts(&lb, label);
    an_buf_puts(&eb, expected);
    chk_add(out, "tools.consistent", s, &l->loc, &lb, &eb, actual, NULL);
    an_buf_release(&lb);
    an_buf_release(&eb);
}

/* The agent's call #i had no server call: say what the servers got of
 * that name, if anything. */
static void unmatched(struct an_findings *out, const struct an_scope *s, const struct an_limit *l,
                      size_t i, const json_t *calls)
{
    const struct an_tool_call *c = &s->calls[i];
    struct an_buf a = AN_BUF_INIT;
    an_buf_printf(&a, "call #%zu ", i + 1);
    put_call(&a, c->name, an_tool_call_args(c));
    an_buf_puts(&a, " reported by the agent; ");
    size_t k, same = 0;
    json_t *sc;
    json_array_foreach(calls, k, sc)
    {
        const char *n = json_string_value(json_object_get(sc, "name"));
        if (!n || !c->name || strcmp(n, c->name) != 0)
            continue;
        an_buf_puts(&a, same++ ? ", " : "the tool servers received ");
        put_call(&a, n, json_object_get(sc, "arguments"));
    }
    if (!same)
        an_buf_printf(&a, "no tool server received a call of \"%s\"", c->name ? c->name : "");
    finding(out, s, l, "Every call the agent reports must reach a tool server",
            "a tool server call with the same name and arguments", &a);
    an_buf_release(&a);
}

size_t chk_consistent(const struct an_assert *blk, const struct an_scope *s,
                      struct an_findings *out)
{
    const struct an_limit *l = &blk->consistent;
    if (l->state != AN_LIMIT_SET)
        return 0;
    json_t *calls = json_array();
    bool any = false;
    for (size_t t = 0; t < s->nturns; t++) {
        any |= s->turns[t].server_calls != NULL;
        json_array_extend(calls, s->turns[t].server_calls);
    }
    size_t n = json_array_size(calls), added = 0;
    if (!any) {
        struct an_buf a = AN_BUF_INIT;
        an_buf_puts(&a, "no tool server (the config has no tool_servers:)");
        finding(out, s, l, "The agent's calls must agree with its tool servers'",
                "calls observed through ananke's tool proxy", &a);
        an_buf_release(&a);
        json_decref(calls);
        return 1;
    }
    bool *used = an_xcalloc(n ? n : 1, sizeof *used);
    for (size_t i = 0; i < s->ncalls; i++) {
        const struct an_tool_call *c = &s->calls[i];
        const json_t *args = an_tool_call_args(c);
        size_t k = 0;
        for (; k < n; k++) {
            const json_t *sc = json_array_get(calls, k);
            const char *name = json_string_value(json_object_get(sc, "name"));
            const json_t *sargs = json_object_get(sc, "arguments");
            if (!used[k] && name && c->name && !strcmp(name, c->name) && args &&
                (json_equal(args, sargs) || (json_is_null(sargs) && json_object_size(args) == 0)))
                break;
        }
        if (k < n) {
            used[k] = true;
            continue;
        }
        unmatched(out, s, l, i, calls);
        added++;
    }
    for (size_t k = 0; k < n; k++) {
        if (used[k])
            continue;
        const json_t *sc = json_array_get(calls, k);
        struct an_buf a = AN_BUF_INIT;
        an_buf_printf(&a, "%s received ",
                      json_string_value(json_object_get(sc, "server"))
                          ? json_string_value(json_object_get(sc, "server"))
                          : "a tool server");
        put_call(&a, json_string_value(json_object_get(sc, "name")),
                 json_object_get(sc, "arguments"));
        an_buf_puts(&a, "; the agent did not report it");
        finding(out, s, l, "Every tool server call must be reported by the agent",
                "the agent reports each call it makes", &a);
        an_buf_release(&a);
        added++;
    }
    free(used);
    json_decref(calls);
    return added;
}
