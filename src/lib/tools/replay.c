/*
 * --replay-tools DIR (tools/replay.h, docs/tools.md "Record and replay"):
 * DIR/tools/NAME.jsonl of each tool server, read as hostile input (never
 * through a link, a regular file only, capped by replay_max_bytes, every
 * line checked, errors at file:line:col), then the calls it answers.
 */
#include "tools/replay.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/tools.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/nofollow.h"
#include "tools/canon.h"
#include "tools/ctx.h"

#define REPLAY_MAX_BYTES (64 * 1024 * 1024) /* tool_servers.NAME.replay_max_bytes */

struct rcall {
    char *test; /* JSONL id, else name; NULL: outside any test */
    char *tool, *canon;
    json_t *answer; /* {"result": R} or {"error": E} */
};

struct rserver {
    const struct an_tool_server *cfg;
    struct rcall *calls;
    size_t n;
    json_t *answers; /* {METHOD: {"result": R} or {"error": E}} */
    size_t base;     /* where its calls start in a test's `used` (tools/ctx.h) */
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static bool on, passthrough;
static char *rdir;
static struct rserver *srv;
static size_t nsrv;
static size_t ncalls; /* of every server: the size of a test's `used` */

bool an_replay_on(void)
{
    return on;
}

bool an_replay_passthrough(void)
{
    return passthrough;
}

static char *canon_for(const struct an_tool_server *cfg, const char *tool, const json_t *args)
{
    for (size_t i = 0; i < cfg->nignore_args; i++)
        if (!strcmp(cfg->ignore_args[i].tool, tool))
            return an_tools_canon(args, cfg->ignore_args[i].paths, cfg->ignore_args[i].npaths);
    return an_tools_canon(args, NULL, 0);
}

/* ---- reading DIR/tools/NAME.jsonl ---- */

struct reader {
    struct rserver *rs;
    const char *path; /* DIR/tools/NAME.jsonl, for the messages */
    unsigned line;
    struct an_err *err;
};

static int bad(const struct reader *r, unsigned col, const char *what)
{
    struct an_loc loc = {.file = r->path, .line = r->line, .col = col ? col : 1};
    return an_fail(r->err, AN_ESCHEMA, &loc, "%s", what);
}

/* {"result": R} or {"error": E} of a line: exactly one, each an object */
static int answer_of(const struct reader *r, const json_t *l, json_t **out)
{
    const json_t *res = json_object_get(l, "result"), *er = json_object_get(l, "error");
    if ((res != NULL) == (er != NULL))
        return bad(r, 1, "a recorded answer has one of 'result' and 'error'");
    if (!json_is_object(res ? res : er))
        return bad(r, 1, res ? "'result' must be an object" : "'error' must be an object");
    *out = json_pack("{s:O}", res ? "result" : "error", res ? res : er);
    return 0;
}

static int header(const struct reader *r, const json_t *l)
{
    const char *f = json_string_value(json_object_get(l, "format"));
    const char *s = json_string_value(json_object_get(l, "server"));
    char msg[512];
    if (!f || strcmp(f, AN_TOOLS_FORMAT) != 0) {
        snprintf(msg, sizeof msg, "the format is '%s'; this ananke reads '%s'", f ? f : "(none)",
                 AN_TOOLS_FORMAT);
        return bad(r, 1, msg);
    }
    if (!s || strcmp(s, r->rs->cfg->name) != 0) {
        snprintf(msg, sizeof msg, "this is the traffic of tool server '%s', not of '%s'",
                 s ? s : "(none)", r->rs->cfg->name);
        return bad(r, 1, msg);
    }
    return 0;
}

static int call_line(const struct reader *r, const json_t *l)
{
    const json_t *name = json_object_get(l, "name"), *args = json_object_get(l, "arguments");
    const json_t *test = json_object_get(l, "test"), *mocked = json_object_get(l, "mocked");
    if (!json_is_string(name))
        return bad(r, 1, "'name' must be a string (the tool)");
    if (args && !json_is_object(args) && !json_is_null(args))
        return bad(r, 1, "'arguments' must be an object");
    if (test && !json_is_string(test) && !json_is_null(test))
        return bad(r, 1, "'test' must be a string or null");
    if (mocked && !json_is_boolean(mocked))
        return bad(r, 1, "'mocked' must be true or false");
    if (json_is_true(mocked))
        return 0; /* a tool_mocks rule answered it: not the upstream's answer */
    json_t *ans = NULL;
    int rc = answer_of(r, l, &ans);
    if (rc)
        return rc;
    struct rserver *rs = r->rs;
    rs->calls = an_xrealloc(rs->calls, (rs->n + 1) * sizeof *rs->calls);
    struct rcall *c = &rs->calls[rs->n++];
    c->test = json_is_string(test) ? an_xstrdup(json_string_value(test)) : NULL;
    c->tool = an_xstrdup(json_string_value(name));
    c->canon = canon_for(rs->cfg, c->tool, args);
    c->answer = ans;
    return 0;
}

static int one_line(const struct reader *r, const char *text, size_t len)
{
    json_error_t je;
    json_t *l = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    int rc = 0;
    char msg[300];
    if (!l) {
        snprintf(msg, sizeof msg, "invalid JSON: %s", je.text);
        return bad(r, (unsigned)(je.column > 0 ? je.column : 1), msg);
    }
    const char *method = json_string_value(json_object_get(l, "method"));
    if (!json_is_object(l))
        rc = bad(r, 1, "a line must be one JSON object");
    else if (r->line == 1)
        rc = header(r, l);
    else if (!method)
        rc = bad(r, 1, "'method' must be a string");
    else if (!strcmp(method, "tools/call"))
        rc = call_line(r, l);
    else if (!json_object_get(r->rs->answers, method)) {
        json_t *ans = NULL;
        if (!(rc = answer_of(r, l, &ans)))
            json_object_set_new(r->rs->answers, method, ans);
    }
    json_decref(l);
    return rc;
}

static int load_server(struct rserver *rs, const char *dir, struct an_err *err)
{
    const struct an_tool_server *cfg = rs->cfg;
    char rel[256], path[4352];
    snprintf(rel, sizeof rel, "tools/%s.jsonl", cfg->name);
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    rs->answers = json_object();
    enum an_nf_kind k = an_nf_kind(dir, rel);
    if (k == AN_NF_ABSENT && passthrough)
        return 0; /* every call goes upstream */
    if (k == AN_NF_ABSENT)
        return an_fail(err, AN_ENOTFOUND, NULL,
                       "'%s' holds no recorded traffic of tool server '%s' (%s): record it with "
                       "'ananke run --record', or give --replay-miss passthrough",
                       dir, cfg->name, rel);
    size_t cap = cfg->replay_max_bytes > 0 ? (size_t)cfg->replay_max_bytes : REPLAY_MAX_BYTES;
    struct an_buf b = AN_BUF_INIT;
    int rc = an_nf_read(dir, rel, cap, &b, err);
    if (rc == AN_ELIMIT)
        rc = an_fail(err, AN_ELIMIT, NULL,
                     "'%s' is larger than %zu bytes: not read (tool_servers.%s.replay_max_bytes)",
                     path, cap, cfg->name);
    struct reader r = {.rs = rs, .path = path, .err = err};
    const char *p = an_buf_cstr(&b), *end = p + b.len;
    while (!rc && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        r.line++;
        if (len && !(r.line > 1 && strspn(p, " \t\r") >= len))
            rc = one_line(&r, p, len);
        else if (r.line == 1)
            rc = bad(&r, 1, "the first line must name the format");
        p += len + 1;
    }
    if (!rc && b.len == 0)
        rc = bad(&(struct reader){.path = path, .line = 1, .err = err}, 1,
                 "the file is empty: the first line must name the format");
    an_buf_release(&b);
    return rc;
}

int an_tools_replay_open(const char *dir, enum an_replay_miss miss, const struct an_config *cfg,
                         struct an_err *err)
{
    an_tools_replay_close();
    if (!cfg->ntool_servers)
        return an_fail(err, AN_EUSAGE, NULL,
                       "--replay-tools: the config names no tool_servers: there is no tool "
                       "traffic to replay");
    if (an_nf_kind(dir, "run.json") != AN_NF_FILE)
        return an_fail(err, AN_ENOTFOUND, NULL,
                       "'%s' is not an ananke recording: it has no run.json (recordings are "
                       "made with 'ananke run --record DIR')",
                       dir);
    passthrough = miss == AN_REPLAY_MISS_PASSTHROUGH;
    srv = an_xcalloc(cfg->ntool_servers, sizeof *srv);
    nsrv = cfg->ntool_servers;
    for (size_t i = 0; i < nsrv; i++) {
        srv[i].cfg = &cfg->tool_servers[i];
        int rc = load_server(&srv[i], dir, err);
        if (rc) {
            an_tools_replay_close();
            return rc;
        }
        srv[i].base = ncalls;
        ncalls += srv[i].n;
    }
    rdir = an_xstrdup(dir);
    on = true;
    return 0;
}

void an_tools_replay_close(void)
{
    pthread_mutex_lock(&mu);
    for (size_t i = 0; i < nsrv; i++) {
        for (size_t k = 0; k < srv[i].n; k++) {
            free(srv[i].calls[k].test);
            free(srv[i].calls[k].tool);
            free(srv[i].calls[k].canon);
            json_decref(srv[i].calls[k].answer);
        }
        free(srv[i].calls);
        json_decref(srv[i].answers);
    }
    free(srv);
    srv = NULL;
    nsrv = 0;
    ncalls = 0;
    free(rdir);
    rdir = NULL;
    on = passthrough = false;
    pthread_mutex_unlock(&mu);
}

/* ---- answering ---- */

static struct rserver *server_named(const char *name)
{
    for (size_t i = 0; i < nsrv; i++)
        if (!strcmp(srv[i].cfg->name, name))
            return &srv[i];
    return NULL;
}

static json_t *response(const json_t *id, const json_t *ans)
{
    json_t *r = json_pack("{s:s,s:O}", "jsonrpc", "2.0", "id", id ? id : json_null());
    json_object_update(r, (json_t *)ans);
    return r;
}

static bool same_test(const char *a, const char *b)
{
    return a && b ? !strcmp(a, b) : a == b;
}

/* The agent chose the arguments (up to max_body_bytes): the message quotes
 * at most MISS_QUOTE bytes of them, cut at a character's start. */
#define MISS_QUOTE 512

static char *miss_text(const char *server, const char *tool, const char *canon, const char *test)
{
    struct an_buf b = AN_BUF_INIT;
    size_t len = strlen(canon), cut = len;
    if (len > MISS_QUOTE) {
        cut = MISS_QUOTE;
        while (cut > 0 && ((unsigned char)canon[cut] & 0xC0) == 0x80)
            cut--;
    }
    an_buf_printf(&b, "no recorded call %s(%.*s", tool, (int)cut, canon);
    if (cut < len)
        an_buf_printf(&b, "… (%zu bytes)", len);
    an_buf_printf(&b, ") on tool server '%s'", server);
    if (test)
        an_buf_printf(&b, " in test '%s'", test);
    else
        an_buf_puts(&b, " outside the tests");
    an_buf_printf(&b,
                  " of '%s' (--replay-tools; --replay-miss passthrough sends such calls "
                  "upstream)",
                  rdir ? rdir : "");
    char *s = an_xstrdup(an_buf_cstr(&b));
    an_buf_release(&b);
    return s;
}

json_t *an_replay_call(struct an_tool_ctx *ctx, const char *server, const char *tool,
                       const json_t *args, const json_t *id, char **miss)
{
    *miss = NULL;
    tool = tool ? tool : "";
    const char *test = ctx ? ctx->key : NULL;
    json_t *out = NULL;
    pthread_mutex_lock(&mu);
    if (ctx && ctx->nused < ncalls) { /* `used` is this lock's, not the registry's */
        ctx->used = an_xrealloc(ctx->used, ncalls);
        memset(ctx->used + ctx->nused, 0, ncalls - ctx->nused);
        ctx->nused = ncalls;
    }
    struct rserver *rs = server_named(server);
    char *canon = rs ? canon_for(rs->cfg, tool, args) : an_tools_canon(args, NULL, 0);
    struct rcall *hit = NULL, *last = NULL;
    for (size_t i = 0; rs && i < rs->n && !hit; i++) {
        struct rcall *c = &rs->calls[i];
        if (!same_test(c->test, test) || strcmp(c->tool, tool) || strcmp(c->canon, canon))
            continue;
        if (!ctx || !ctx->used[rs->base + i])
            hit = c;
        last = c;
    }
    if (!hit)
        hit = last; /* past the recorded ones: the last again */
    if (hit) {
        if (ctx)
            ctx->used[rs->base + (size_t)(hit - rs->calls)] = 1;
        out = response(id, hit->answer);
    } else {
        *miss = miss_text(server, tool, canon, test);
    }
    pthread_mutex_unlock(&mu);
    free(canon);
    return out;
}

json_t *an_replay_answer(const char *server, const char *method, const json_t *id)
{
    pthread_mutex_lock(&mu);
    struct rserver *rs = server_named(server);
    const json_t *ans = rs ? json_object_get(rs->answers, method) : NULL;
    json_t *out = ans ? response(id, ans) : NULL;
    pthread_mutex_unlock(&mu);
    return out;
}

void an_replay_rewind(struct an_tool_ctx *ctx)
{
    pthread_mutex_lock(&mu);
    if (ctx && ctx->used)
        memset(ctx->used, 0, ctx->nused);
    pthread_mutex_unlock(&mu);
}
