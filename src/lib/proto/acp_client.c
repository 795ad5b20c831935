/* ACP client: spawn, dispatch agent requests, helpers, the record. */
#define _GNU_SOURCE
#include "proto/acp_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cancel.h"
#include "core/clock.h"
#include "core/envmin.h"
#include "core/json.h"

#ifndef ANANKE_VERSION
#define ANANKE_VERSION "0"
#endif

#define RESPONSES_KEPT 256

int an_acp_policy_parse(const char *s, enum an_acp_policy *out)
{
    static const struct {
        const char *name;
        enum an_acp_policy p;
    } t[] = {{"none", AN_ACP_POLICY_NONE},
             {"read", AN_ACP_POLICY_READ},
             {"write", AN_ACP_POLICY_WRITE},
             {"yolo", AN_ACP_POLICY_YOLO}};
    for (size_t i = 0; s && i < sizeof t / sizeof t[0]; i++)
        if (strcmp(s, t[i].name) == 0) {
            *out = t[i].p;
            return 0;
        }
    return -1;
}

const char *an_acp_policy_name(enum an_acp_policy p)
{
    switch (p) {
    case AN_ACP_POLICY_NONE:
        return "none";
    case AN_ACP_POLICY_READ:
        return "read";
    case AN_ACP_POLICY_WRITE:
        return "write";
    case AN_ACP_POLICY_YOLO:
        break;
    }
    return "yolo";
}

json_t *acp_error(int code, const char *message, json_t *data)
{
    json_t *e = json_object();
    if (!e)
        an_oom();
    json_object_set_new(e, "code", json_integer(code));
    json_object_set_new(e, "message", an_json_lossy(message, strlen(message)));
    if (data)
        json_object_set_new(e, "data", data);
    return e;
}

void acp_record_violation(struct an_acp_client *c, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->nviol == c->viol_cap) {
        c->viol_cap = c->viol_cap ? c->viol_cap * 2 : 8;
        c->viol = an_xrealloc(c->viol, c->viol_cap * sizeof *c->viol);
    }
    c->viol[c->nviol++] = an_xstrdup(msg);
}

static void req_free(struct acp_req *r)
{
    json_decref(r->id);
    json_decref(r->params);
    free(r->method);
    free(r->violation);
    free(r);
}

static void req_unlink(struct an_acp_client *c, struct acp_req *r)
{
    for (size_t i = 0; i < c->nreqs; i++)
        if (c->reqs[i] == r) {
            memmove(&c->reqs[i], &c->reqs[i + 1], (c->nreqs - i - 1) * sizeof *c->reqs);
            c->nreqs--;
            return;
        }
}

void acp_finish(struct an_acp_client *c, struct acp_req *r, json_t *result, json_t *error,
                const char *violation)
{
    if (violation && !r->violation) {
        r->violation = an_xstrdup(violation);
        acp_record_violation(c, "%s", violation);
    }
    if (error) {
        json_t *code = json_object_get(error, "code");
        an_rpc_reply_error(c->rpc, r->id, (int)json_integer_value(code),
                           an_json_str(error, "message") ? an_json_str(error, "message") : "",
                           json_object_get(error, "data"), NULL);
    } else {
        if (!result)
            result = json_object();
        an_rpc_reply(c->rpc, r->id, result, NULL);
    }
    if (c->nrecs == c->recs_cap) {
        c->recs_cap = c->recs_cap ? c->recs_cap * 2 : 16;
        c->recs = an_xrealloc(c->recs, c->recs_cap * sizeof *c->recs);
    }
    struct an_acp_call *rec = an_xmalloc(sizeof *rec);
    c->recs[c->nrecs++] = rec;
    *rec = (struct an_acp_call){.method = r->method,
                                .id = r->id,
                                .params = r->params,
                                .result = error ? NULL : result,
                                .error = error,
                                .violation = r->violation,
                                .by_caller = r->park == PARK_CLAIMED,
                                .kept_bytes = r->kept_bytes,
                                .cap = r->cap,
                                .start_ms = r->start_ms,
                                .end_ms = an_clock_unix_ms()};
    if (error)
        json_decref(result);
    r->method = NULL;
    r->id = r->params = NULL;
    r->violation = NULL;
    req_unlink(c, r);
    req_free(r);
    if (c->cbs.on_agent_call)
        c->cbs.on_agent_call(c->cbs.ud, c, rec);
}

static bool session_cancelled(const struct an_acp_client *c, const json_t *params)
{
    const char *sid = an_json_str(params, "sessionId");
    return sid && json_object_get(c->cancelled, sid);
}

/* The capability a client method needs, or NULL when it needs none. */
static const char *missing_cap(const struct an_acp_client *c, const char *method)
{
    if (strcmp(method, "fs/read_text_file") == 0 && !c->fs_read)
        return "fs.readTextFile";
    if (strcmp(method, "fs/write_text_file") == 0 && !c->fs_write)
        return "fs.writeTextFile";
    if (strncmp(method, "terminal/", 9) == 0 && !c->terminal)
        return "terminal";
    return NULL;
}

static void serve(struct an_acp_client *c, struct acp_req *r)
{
    const char *m = r->method;
    if (strcmp(m, "fs/read_text_file") == 0) {
        acp_fs_read(c, r);
    } else if (strcmp(m, "fs/write_text_file") == 0) {
        acp_fs_write(c, r);
    } else if (strcmp(m, "terminal/create") == 0 || strcmp(m, "terminal/output") == 0 ||
               strcmp(m, "terminal/wait_for_exit") == 0 || strcmp(m, "terminal/kill") == 0 ||
               strcmp(m, "terminal/release") == 0) {
        acp_term_request(c, r);
    } else if (strcmp(m, "session/request_permission") == 0) {
        if (session_cancelled(c, r->params)) {
            acp_finish(c, r, acp_perm_cancelled(), NULL, NULL);
        } else if (c->perm_delay_ms > 0) {
            r->park = PARK_PERM;
            r->decide_at = an_clock_mono_ms() + c->perm_delay_ms;
        } else {
            acp_finish(c, r, acp_perm_decide(c->policy, r->params), NULL, NULL);
        }
    } else {
        json_t *data = json_pack("{s:s}", "method", m);
        acp_finish(c, r, NULL, acp_error(AN_RPC_METHOD_NOT_FOUND, "Method not found", data), NULL);
    }
}

static void on_request(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m)
{
    (void)rpc;
    struct an_acp_client *c = ud;
    struct acp_req *r = an_xcalloc(1, sizeof *r);
    r->id = json_deep_copy(m->id);
    r->method = an_xstrdup(m->method);
    r->params = m->params ? json_deep_copy(m->params) : NULL;
    r->start_ms = m->unix_ms;
    const char *cap = missing_cap(c, m->method);
    char viol[512];
    if (cap)
        snprintf(viol, sizeof viol, "agent called %s although the client did not advertise %s",
                 m->method, cap);
    if (c->nreqs == c->reqs_cap) {
        c->reqs_cap = c->reqs_cap ? c->reqs_cap * 2 : 8;
        c->reqs = an_xrealloc(c->reqs, c->reqs_cap * sizeof *c->reqs);
    }
    c->reqs[c->nreqs++] = r;
    if (c->cbs.on_agent_request && c->cbs.on_agent_request(c->cbs.ud, c, m, cap ? viol : NULL)) {
        /* it may have answered already, freeing r: look it up again */
        for (size_t i = 0; i < c->nreqs; i++)
            if (c->reqs[i] == r) {
                r->park = PARK_CLAIMED;
                if (cap && !r->violation) {
                    r->violation = an_xstrdup(viol);
                    acp_record_violation(c, "%s", viol);
                }
            }
        return;
    }
    if (cap) {
        json_t *data = json_pack("{s:s}", "method", m->method);
        acp_finish(c, r, NULL, acp_error(AN_RPC_METHOD_NOT_FOUND, "Method not found", data), viol);
        return;
    }
    serve(c, r);
}

static void resp_release(struct acp_resp *r)
{
    json_decref(r->result);
    json_decref(r->error);
}

static void keep_response(struct an_acp_client *c, const struct an_rpc_msg *m)
{
    if (c->nresp >= RESPONSES_KEPT) {
        resp_release(&c->resp[0]);
        memmove(&c->resp[0], &c->resp[1], --c->nresp * sizeof *c->resp);
    }
    if (c->nresp == c->resp_cap) {
        c->resp_cap = c->resp_cap ? c->resp_cap * 2 : 8;
        c->resp = an_xrealloc(c->resp, c->resp_cap * sizeof *c->resp);
    }
    /* References, not copies: the frame is released after its callbacks,
     * and nothing changes a response once read. Only an integer id can be
     * waited for; the others keep their place in the order. */
    struct acp_resp *r = &c->resp[c->nresp++];
    r->int_id = json_is_integer(m->id);
    r->id = r->int_id ? json_integer_value(m->id) : 0;
    r->error = m->error ? json_incref((json_t *)m->error) : NULL;
    r->result = m->error ? NULL : m->result ? json_incref((json_t *)m->result) : json_null();
}

static void on_response(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m)
{
    (void)rpc;
    struct an_acp_client *c = ud;
    if (m->known) {
        if (c->init_id >= 0 && json_is_integer(m->id) && json_integer_value(m->id) == c->init_id &&
            json_is_object(m->result)) {
            json_t *pv = json_object_get(m->result, "protocolVersion");
            c->proto_version = json_is_integer(pv) && json_integer_value(pv) >= 0 &&
                                       json_integer_value(pv) <= INT_MAX
                                   ? (int)json_integer_value(pv)
                                   : -1;
            json_decref(c->agent_caps);
            /* a reference, as the kept response: nothing changes one */
            json_t *caps = json_object_get(m->result, "agentCapabilities");
            c->agent_caps = json_is_object(caps) ? json_incref(caps) : NULL;
        }
        keep_response(c, m);
    }
    if (c->cbs.on_response)
        c->cbs.on_response(c->cbs.ud, c, m);
}

static void on_notification(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m)
{
    (void)rpc;
    struct an_acp_client *c = ud;
    if (c->cbs.on_notification)
        c->cbs.on_notification(c->cbs.ud, c, m);
}

static void on_frame(void *ud, struct an_rpc *rpc, enum an_rpc_dir dir, const char *line,
                     size_t len, int64_t unix_ms)
{
    (void)rpc;
    struct an_acp_client *c = ud;
    if (c->cbs.on_frame)
        c->cbs.on_frame(c->cbs.ud, c, dir, line, len, unix_ms);
}

static void on_warning(void *ud, struct an_rpc *rpc, const char *what, const char *line, size_t len)
{
    (void)rpc;
    struct an_acp_client *c = ud;
    if (c->cbs.on_warning)
        c->cbs.on_warning(c->cbs.ud, c, what, line, len);
}

static void on_close(void *ud, struct an_rpc *rpc, enum an_rpc_close_kind kind, const char *reason)
{
    (void)rpc;
    struct an_acp_client *c = ud;
    if (c->cbs.on_close)
        c->cbs.on_close(c->cbs.ud, c, kind, reason);
}

static bool cap_bool(const json_t *caps, const char *a, const char *b)
{
    const json_t *v = json_object_get(caps, a);
    if (b)
        v = json_object_get(v, b);
    return json_is_true(v);
}

static char **copy_list(const char *const *l)
{
    size_t n = 0;
    while (l && l[n])
        n++;
    char **out = an_xcalloc(n + 1, sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = an_xstrdup(l[i]);
    return out;
}

char **acp_spawn_env(const struct an_acp_client *c, const char *const *extra)
{
    size_t n = 0, m = 0;
    while (c->env[n])
        n++;
    while (extra && extra[m])
        m++;
    const char **all = an_xcalloc(n + m + 1, sizeof *all);
    memcpy(all, c->env, n * sizeof *all);
    if (m)
        memcpy(all + n, extra, m * sizeof *all);
    char **env = c->clean_env ? an_envmin_build(c->sandbox, all) : copy_list(all);
    free(all);
    return env;
}

/* Which children are confined, after asking whether they can be: the
 * fallback is said once per process, REQUIRED fails instead. */
static int decide_confinement(struct an_acp_client *c, const struct an_acp_opts *opts, bool *agent,
                              struct an_err *err)
{
    *agent = false;
    if (opts->confine == AN_ACP_CONFINE_NONE)
        return AN_OK;
    struct an_err cerr = AN_ERR_INIT;
    if (an_confine_available(&cerr) != AN_OK) {
        if (opts->confine == AN_ACP_CONFINE_REQUIRED)
            return an_fail(err, AN_EIO, NULL, "confine is 'required', but %s", cerr.msg);
        char msg[AN_ERR_MSG_MAX + 160];
        snprintf(msg, sizeof msg,
                 "%s; ACP agents and their terminals run unconfined (confine: required makes "
                 "this an error)",
                 cerr.msg);
        an_confine_warn_once(msg);
        return AN_OK;
    }
    c->confine_terms = true;
    *agent = opts->confine >= AN_ACP_CONFINE_AGENT;
    c->confine_paths = copy_list(opts->confine_paths);
    c->confine = (struct an_confine){.sandbox = c->sandbox,
                                     .ro_paths = (const char *const *)c->confine_paths,
                                     .network = opts->network};
    /* a confine path that is missing is the test's error now, not a
     * terminal/create failure the agent may shrug off */
    struct an_confine_plan *plan = NULL;
    int rc = an_confine_plan_new(&plan, &c->confine, err);
    an_confine_plan_free(plan);
    return rc;
}

int an_acp_client_new(struct an_acp_client **out, const struct an_acp_opts *opts,
                      const struct an_acp_cbs *cbs, struct an_err *err)
{
    *out = NULL;
    if (!opts->sandbox || opts->sandbox[0] != '/')
        return an_fail(err, AN_EUSAGE, NULL, "acp sandbox must be an absolute path, not '%s'",
                       opts->sandbox ? opts->sandbox : "");
#if !AN_HAVE_O_PATH
    /* every agent path is opened beneath the sandbox's fd (acp_path.c),
     * which needs O_PATH: without it, no file system for the agent */
    return an_fail(err, AN_EIO, NULL,
                   "acp sandbox '%s': this system has no O_PATH, which the sandbox needs "
                   "(Linux only)",
                   opts->sandbox);
#endif
    char *real = realpath(opts->sandbox, NULL);
    struct stat st;
    if (!real || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
        int e = real ? ENOTDIR : errno;
        free(real);
        return an_fail(err, AN_ENOTFOUND, NULL, "acp sandbox '%s': %s", opts->sandbox, strerror(e));
    }
    /* the directory itself, held: a sandbox renamed or swapped for a link
     * later is not followed */
    int root = open(real, AN_O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) {
        int e = errno;
        free(real);
        return an_fail(err, AN_ENOTFOUND, NULL, "acp sandbox '%s': %s", opts->sandbox, strerror(e));
    }
    struct an_acp_client *c = an_xcalloc(1, sizeof *c);
    if (cbs)
        c->cbs = *cbs;
    c->sandbox = real;
    c->root_fd = root;
    if (strcmp(real, opts->sandbox) != 0)
        c->sandbox_given = an_xstrdup(opts->sandbox);
    if (opts->client_capabilities)
        c->caps = json_deep_copy(opts->client_capabilities);
    else
        c->caps = json_pack("{s:{s:b,s:b},s:b}", "fs", "readTextFile", 1, "writeTextFile", 1,
                            "terminal", 1);
    if (!c->caps)
        an_oom();
    c->fs_read = cap_bool(c->caps, "fs", "readTextFile");
    c->fs_write = cap_bool(c->caps, "fs", "writeTextFile");
    c->terminal = cap_bool(c->caps, "terminal", NULL);
    c->policy = opts->policy;
    c->perm_delay_ms = opts->permission_delay_ms > 0 ? opts->permission_delay_ms : 0;
    c->output_limit_max = opts->output_limit_max ? opts->output_limit_max : AN_ACP_OUTPUT_LIMIT_MAX;
    c->output_limit = opts->output_byte_limit ? opts->output_byte_limit : AN_ACP_OUTPUT_LIMIT;
    if (c->output_limit > c->output_limit_max)
        c->output_limit = c->output_limit_max;
    c->read_max = opts->read_max ? opts->read_max : AN_ACP_READ_MAX;
    c->max_terms = opts->max_terminals ? opts->max_terminals : AN_ACP_MAX_TERMINALS;
    c->version = an_xstrdup(opts->client_version ? opts->client_version : ANANKE_VERSION);
    c->proto_version = -1;
    c->init_id = -1;
    c->cancelled = json_object();
    json_t *ip = json_pack("{s:i,s:O,s:{s:s,s:s}}", "protocolVersion", AN_ACP_PROTOCOL_VERSION,
                           "clientCapabilities", c->caps, "clientInfo", "name", "ananke", "version",
                           c->version);
    if (!ip)
        an_oom();
    c->init_text = an_json_compact(ip);
    json_decref(ip);
    c->scratch = an_xmalloc((size_t)64 << 10);
    c->clean_env = opts->clean_env;
    c->env = copy_list(opts->env);
    bool confine_agent;
    int rcode = decide_confinement(c, opts, &confine_agent, err);
    if (rcode != AN_OK) {
        an_acp_client_free(c);
        return rcode;
    }

    char **env = acp_spawn_env(c, NULL);
    struct an_child_opts co = {.argv = opts->argv,
                               .cwd = opts->cwd ? opts->cwd : c->sandbox,
                               .env = (const char *const *)env,
                               .env_clear = c->clean_env,
                               .confine = confine_agent ? &c->confine : NULL};
    struct an_rpc_cbs rc = {.ud = c,
                            .on_response = on_response,
                            .on_request = on_request,
                            .on_notification = on_notification,
                            .on_frame = on_frame,
                            .on_warning = on_warning,
                            .on_close = on_close};
    struct an_rpc_opts ro = opts->rpc;
    rcode = an_rpc_spawn(&c->rpc, &co, &ro, &rc, err);
    an_envmin_free(env);
    if (rcode == AN_ENOTFOUND && confine_agent && err) {
        char msg[AN_ERR_MSG_MAX];
        snprintf(msg, sizeof msg,
                 "%.700s (the agent is confined: /tmp, /run, /home, /root, $HOME and $TMPDIR are "
                 "hidden from it; list what it needs in confine_paths)",
                 err->msg);
        an_fail(err, rcode, NULL, "%s", msg);
    }
    if (rcode != AN_OK) {
        an_acp_client_free(c);
        return rcode;
    }
    *out = c;
    return AN_OK;
}

void an_acp_client_free(struct an_acp_client *c)
{
    if (!c)
        return;
    /* the agent first: it may be what keeps its terminals busy */
    an_rpc_free(c->rpc);
    acp_term_free_all(c);
    for (size_t i = 0; i < c->nreqs; i++)
        req_free(c->reqs[i]);
    free(c->reqs);
    for (size_t i = 0; i < c->nrecs; i++) {
        /* the record owns what its const pointers point to */
        struct an_acp_call *r = c->recs[i];
        free((char *)r->method);
        free((char *)r->violation);
        json_decref((json_t *)r->id);
        json_decref((json_t *)r->params);
        json_decref((json_t *)r->result);
        json_decref((json_t *)r->error);
        free(r);
    }
    free(c->recs);
    for (size_t i = 0; i < c->nviol; i++)
        free(c->viol[i]);
    free(c->viol);
    json_decref(c->caps);
    json_decref(c->agent_caps);
    json_decref(c->cancelled);
    for (size_t i = 0; i < c->nresp; i++)
        resp_release(&c->resp[i]);
    free(c->resp);
    free(c->init_text);
    an_envmin_free(c->env);
    an_envmin_free(c->confine_paths);
    free(c->sandbox);
    free(c->sandbox_given);
    if (c->root_fd >= 0)
        close(c->root_fd);
    free(c->version);
    free(c->scratch);
    free(c);
}

struct an_rpc *an_acp_rpc(struct an_acp_client *c)
{
    return c->rpc;
}

int an_acp_initialize(struct an_acp_client *c, int64_t *id, struct an_err *err)
{
    /* the same params every time: built once, in an_acp_client_new */
    int64_t got = -1;
    int rc =
        an_rpc_request_text(c->rpc, "initialize", c->init_text, strlen(c->init_text), &got, err);
    if (rc == AN_OK) {
        c->init_id = got;
        if (id)
            *id = got;
    }
    return rc;
}

int an_acp_new_session(struct an_acp_client *c, const char *cwd, const json_t *mcp_servers,
                       int64_t *id, struct an_err *err)
{
    json_t *p = json_pack("{s:s,s:o}", "cwd", cwd ? cwd : c->sandbox, "mcpServers",
                          mcp_servers ? json_deep_copy(mcp_servers) : json_array());
    if (!p)
        return an_fail(err, AN_EUSAGE, NULL, "session/new: invalid cwd or mcpServers");
    int rc = an_rpc_request(c->rpc, "session/new", p, id, err);
    json_decref(p);
    return rc;
}

int an_acp_prompt(struct an_acp_client *c, const char *session_id, const json_t *blocks,
                  int64_t *id, struct an_err *err)
{
    json_object_del(c->cancelled, session_id);
    json_t *p = json_is_array(blocks)
                    ? json_pack("{s:s,s:O}", "sessionId", session_id, "prompt", (json_t *)blocks)
                    : NULL;
    if (!p)
        return an_fail(err, AN_EUSAGE, NULL, "session/prompt needs an array of content blocks");
    int rc = an_rpc_request(c->rpc, "session/prompt", p, id, err);
    json_decref(p);
    return rc;
}

int an_acp_cancel(struct an_acp_client *c, const char *session_id, struct an_err *err)
{
    json_t *p = json_pack("{s:s}", "sessionId", session_id);
    int rc = an_rpc_notify(c->rpc, "session/cancel", p, err);
    json_decref(p);
    json_object_set_new(c->cancelled, session_id, json_true());
    /* every pending permission request of the session, claimed or held */
    for (size_t i = 0; i < c->nreqs;) {
        struct acp_req *r = c->reqs[i];
        if (strcmp(r->method, "session/request_permission") == 0 &&
            session_cancelled(c, r->params)) {
            acp_finish(c, r, acp_perm_cancelled(), NULL, NULL);
            continue; /* r was removed: same index again */
        }
        i++;
    }
    return rc;
}

static struct acp_req *find_req(struct an_acp_client *c, const json_t *id)
{
    for (size_t i = 0; i < c->nreqs; i++)
        if (c->reqs[i]->park == PARK_CLAIMED && json_equal(c->reqs[i]->id, (json_t *)id))
            return c->reqs[i];
    return NULL;
}

int an_acp_reply(struct an_acp_client *c, const json_t *peer_id, const json_t *result,
                 struct an_err *err)
{
    struct acp_req *r = find_req(c, peer_id);
    if (!r) {
        /* the hook answering inside itself: not marked claimed yet */
        for (size_t i = 0; i < c->nreqs && !r; i++)
            if (c->reqs[i]->park == PARK_NONE && json_equal(c->reqs[i]->id, (json_t *)peer_id))
                r = c->reqs[i];
        if (!r)
            return an_fail(err, AN_EUSAGE, NULL, "no pending agent request with that id");
        r->park = PARK_CLAIMED;
    }
    acp_finish(c, r, result ? json_deep_copy(result) : json_object(), NULL, NULL);
    return AN_OK;
}

int an_acp_reply_error(struct an_acp_client *c, const json_t *peer_id, int code,
                       const char *message, const json_t *data, struct an_err *err)
{
    struct acp_req *r = find_req(c, peer_id);
    if (!r) {
        for (size_t i = 0; i < c->nreqs && !r; i++)
            if (c->reqs[i]->park == PARK_NONE && json_equal(c->reqs[i]->id, (json_t *)peer_id))
                r = c->reqs[i];
        if (!r)
            return an_fail(err, AN_EUSAGE, NULL, "no pending agent request with that id");
        r->park = PARK_CLAIMED;
    }
    acp_finish(c, r, NULL, acp_error(code, message, data ? json_deep_copy(data) : NULL), NULL);
    return AN_OK;
}

const json_t *an_acp_agent_caps(const struct an_acp_client *c)
{
    return c->agent_caps;
}

int an_acp_protocol_version(const struct an_acp_client *c)
{
    return c->proto_version;
}

const char *an_acp_sandbox(const struct an_acp_client *c)
{
    return c->sandbox;
}

size_t an_acp_nfds_max(const struct an_acp_client *c)
{
    return 4 + 2 * c->nterms;
}

size_t an_acp_fds(const struct an_acp_client *c, struct pollfd *out, size_t max)
{
    size_t n = an_rpc_fds(c->rpc, out, max);
    return n + acp_term_fds(c, out + n, max - n);
}

static void held_permissions(struct an_acp_client *c)
{
    if (!c->nreqs)
        return; /* the usual case: no clock read */
    int64_t now = an_clock_mono_ms();
    for (size_t i = 0; i < c->nreqs;) {
        struct acp_req *r = c->reqs[i];
        if (r->park == PARK_PERM && now >= r->decide_at) {
            acp_finish(c, r, acp_perm_decide(c->policy, r->params), NULL, NULL);
            continue;
        }
        i++;
    }
}

void an_acp_handle(struct an_acp_client *c, const struct pollfd *pfds, size_t n)
{
    an_rpc_handle(c->rpc, pfds, n);
    acp_term_handle(c, pfds, n);
    held_permissions(c);
}

int64_t an_acp_next_wake_ms(const struct an_acp_client *c)
{
    int64_t best = -1, now = c->nreqs ? an_clock_mono_ms() : 0;
    for (size_t i = 0; i < c->nreqs; i++)
        if (c->reqs[i]->park == PARK_PERM) {
            int64_t d = c->reqs[i]->decide_at - now;
            if (d < 0)
                d = 0;
            if (best < 0 || d < best)
                best = d;
        }
    const struct an_child *ch = an_rpc_child(c->rpc);
    bool tick = acp_term_ticking(c) ||
                (ch && ch->pid_fd < 0 && !ch->exited && an_rpc_is_open(c->rpc));
    if (tick && (best < 0 || best > 10))
        best = 10;
    return best;
}

/* One poll (at most `wait` ms, less when a timer is due) and its events. */
static void pump_once(struct an_acp_client *c, int64_t wait)
{
    struct pollfd stack[64];
    size_t cap = an_acp_nfds_max(c);
    struct pollfd *p = cap <= 64 ? stack : an_xcalloc(cap, sizeof *p);
    size_t n = an_acp_fds(c, p, cap);
    int64_t wake = an_acp_next_wake_ms(c);
    if (wake >= 0 && wake < wait)
        wait = wake;
    int got = poll(p, (nfds_t)n, (int)wait);
    an_acp_handle(c, p, got > 0 ? n : 0);
    if (p != stack)
        free(p);
}

bool an_acp_pump(struct an_acp_client *c, int64_t timeout_ms, const bool *stop)
{
    int64_t start = an_clock_mono_ms();
    while (an_rpc_is_open(c->rpc) && !(stop && *stop)) {
        int64_t wait = AN_CANCEL_POLL_MS;
        if (timeout_ms >= 0) {
            int64_t left = start + timeout_ms - an_clock_mono_ms();
            if (left < 0)
                left = 0;
            if (left < wait)
                wait = left;
        }
        pump_once(c, wait);
        if (an_cancelled() || (timeout_ms >= 0 && an_clock_mono_ms() - start >= timeout_ms))
            break;
    }
    return an_rpc_is_open(c->rpc);
}

static bool take_response(struct an_acp_client *c, int64_t id, json_t **result, json_t **error)
{
    for (size_t i = 0; i < c->nresp; i++) {
        struct acp_resp *r = &c->resp[i];
        if (!r->int_id || r->id != id)
            continue;
        /* the references pass to the caller */
        if (result)
            *result = r->result;
        else
            json_decref(r->result);
        if (error)
            *error = r->error;
        else
            json_decref(r->error);
        memmove(r, r + 1, (--c->nresp - i) * sizeof *r);
        return true;
    }
    return false;
}

int an_acp_wait(struct an_acp_client *c, int64_t id, int64_t timeout_ms, json_t **result,
                json_t **error, struct an_err *err)
{
    if (result)
        *result = NULL;
    if (error)
        *error = NULL;
    int64_t start = an_clock_mono_ms();
    for (;;) {
        if (take_response(c, id, result, error))
            return AN_OK;
        if (!an_rpc_is_open(c->rpc))
            return an_fail(err, AN_EPROTO, NULL, "no response to request %lld: %s", (long long)id,
                           an_rpc_close_reason(c->rpc));
        if (an_cancelled())
            return an_fail(err, AN_ETIMEOUT, NULL, "cancelled while waiting for request %lld",
                           (long long)id);
        int64_t left = timeout_ms < 0 ? -1 : start + timeout_ms - an_clock_mono_ms();
        if (timeout_ms >= 0 && left <= 0)
            return an_fail(err, AN_ETIMEOUT, NULL, "no response to request %lld within %lld ms",
                           (long long)id, (long long)timeout_ms);
        /* one poll at a time, so the answer is taken as soon as it is read
         * (pumping for the whole slice would wait it out every time) */
        pump_once(c, left < 0 || left > AN_CANCEL_POLL_MS ? AN_CANCEL_POLL_MS : left);
    }
}

size_t an_acp_ncalls(const struct an_acp_client *c)
{
    return c->nrecs;
}

const struct an_acp_call *an_acp_call_at(const struct an_acp_client *c, size_t i)
{
    return i < c->nrecs ? c->recs[i] : NULL;
}

size_t an_acp_nviolations(const struct an_acp_client *c)
{
    return c->nviol;
}

const char *an_acp_violation_at(const struct an_acp_client *c, size_t i)
{
    return i < c->nviol ? c->viol[i] : NULL;
}

size_t an_acp_nterminals(const struct an_acp_client *c)
{
    return c->nterms;
}
