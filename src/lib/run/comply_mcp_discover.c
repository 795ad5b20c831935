/*
 * The MCP probe (the protocol row's, comply_protocols.c): which revision
 * an MCP server speaks, so that a run without --spec judges each server
 * at the revision it negotiates (docs/comply.md "Revisions").
 *
 * First the initialize probe of every stdio protocol (an_comply_probe:
 * initialize, notifications/initialized). Then one server/discover of MCP
 * 2026-07-28, as the suite's required.modern.discover test sends it: on a
 * fresh process over stdio (the request first, no initialize), or POSTed
 * with its MCP-Protocol-Version and Mcp-Method headers to a Streamable
 * HTTP endpoint (not through the bridge: it sends no such headers).
 *
 *   - a result whose supportedVersions lists versions: the newest of them;
 *   - anything else (refused with -32601, an HTTP 4xx, no answer within
 *     the probe's window): initialize's protocolVersion;
 *   - neither: none (the run's revision).
 *
 * A server that answers server/discover but not initialize (a 2026-07-28
 * server only) gets the discover result as its probe: its `capabilities`
 * feed the tests' preconditions as initialize's do. With --spec every
 * server is judged at its revision, so one that answered initialize is
 * sent no server/discover (a->spec stays NULL).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "proto/acp_client.h"
#include "run/comply_int.h"
#include "run/comply_plan_int.h"

#ifndef ANANKE_VERSION
#define ANANKE_VERSION "0"
#endif

#define DISCOVER_WAIT_MS 5000 /* a server that ignores the request: NULL after this */

static json_t *discover_params(void)
{
    return json_pack(
        "{s:{s:s,s:{},s:{s:s,s:s}}}", "_meta", "io.modelcontextprotocol/protocolVersion",
        AN_COMPLY_MCP_MODERN, "io.modelcontextprotocol/clientCapabilities",
        "io.modelcontextprotocol/clientInfo", "name", "ananke", "version", ANANKE_VERSION);
}

static int64_t wait_ms(const struct an_comply_opts *o)
{
    double f = o->timeout_scale > 0 ? o->timeout_scale : 1.0;
    return (int64_t)(DISCOVER_WAIT_MS * f);
}

/* server/discover over stdio: the result, or NULL. */
static json_t *discover_stdio(const struct an_comply_spec *spec, const struct an_comply_opts *o)
{
    char dir[PATH_MAX];
    struct an_err err = AN_ERR_INIT;
    struct an_jsont empty = {0};
    if (comply_make_sandbox(&empty, dir, sizeof dir, &err))
        return NULL;
    struct an_acp_opts ao = AN_ACP_OPTS_INIT;
    ao.argv = spec->argv;
    ao.env = spec->env;
    ao.sandbox = dir;
    comply_confine_opts(&ao, spec);
    struct an_acp_cbs cbs = {0};
    struct an_acp_client *c = NULL;
    json_t *res = NULL, *er = NULL, *params = discover_params();
    int64_t id;
    if (an_acp_client_new(&c, &ao, &cbs, &err) ||
        an_rpc_request(an_acp_rpc(c), "server/discover", params, &id, &err) ||
        an_acp_wait(c, id, wait_ms(o), &res, &er, &err)) {
        json_decref(res);
        res = NULL;
    }
    json_decref(params);
    json_decref(er);
    an_acp_client_free(c);
    comply_rm_tree(dir);
    return res;
}

/* server/discover POSTed to a Streamable HTTP endpoint: the result, or
 * NULL. */
static json_t *discover_http(const char *url, const struct an_comply_opts *o)
{
    json_t *js = json_pack("{s:s,s:i,s:s,s:o}", "jsonrpc", "2.0", "id", 1, "method",
                           "server/discover", "params", discover_params());
    json_t *headers = json_pack("{s:s,s:s}", "MCP-Protocol-Version", AN_COMPLY_MCP_MODERN,
                                "Mcp-Method", "server/discover");
    json_t *out = comply_mcp_http_post(url, headers, js, wait_ms(o));
    json_t *res = NULL;
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(out, "messages"), i, m)
    {
        const json_t *id = json_object_get(m, "id");
        if (json_is_integer(id) && json_integer_value(id) == 1 && !json_object_get(m, "method"))
            res = json_incref(json_object_get(m, "result"));
    }
    json_decref(out);
    json_decref(headers);
    json_decref(js);
    return res;
}

/* The newest version a discover result lists, or NULL (borrowed). */
static const char *newest_supported(const json_t *res)
{
    const char *best = NULL;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(res, "supportedVersions"), i, v)
    {
        const char *s = json_string_value(v);
        if (s && *s && (!best || an_comply_rev_cmp(s, best) > 0))
            best = s;
    }
    return best;
}

void an_comply_mcp_probe(const struct an_comply_spec *spec, struct an_comply_agent *a,
                         const struct an_comply_opts *o)
{
    an_comply_probe(spec, a, o);
    if (o->spec_given && a->init) /* judged at --spec's revision: nothing to learn */
        return;
    const char *url = spec->command;
    bool http = url && (!strncmp(url, "http://", 7) || !strncmp(url, "https://", 8));
    json_t *res = http ? discover_http(url, o) : discover_stdio(spec, o);
    const char *modern = json_is_object(res) ? newest_supported(res) : NULL;
    const char *pv = an_json_str(a->init, "protocolVersion");
    free(a->spec);
    a->spec = modern ? an_xstrdup(modern) : pv ? an_xstrdup(pv) : NULL;
    if (modern && !a->init) { /* 2026-07-28 only: the discover result is its probe */
        a->init = json_incref(res);
        free(a->init_error);
        a->init_error = NULL;
    }
    json_decref(res);
}
