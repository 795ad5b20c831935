/* terminal/create|output|wait_for_exit|kill|release: real children in the
 * sandbox, each in its own process group, output kept up to a byte limit
 * (the tail: the beginning is dropped on a UTF-8 boundary). */
#define _GNU_SOURCE
#include "proto/acp_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/envmin.h"
#include "core/proc.h"

#define READS_PER_WAKE 16
#define SCRATCH ((size_t)64 << 10)

static struct acp_term *find_term(struct an_acp_client *c, const json_t *params)
{
    const char *id = an_json_str(params, "terminalId");
    unsigned num;
    char tail;
    if (!id || sscanf(id, "term-%u%c", &num, &tail) != 1)
        return NULL;
    for (size_t i = 0; i < c->nterms; i++)
        if (c->terms[i]->num == num)
            return c->terms[i];
    return NULL;
}

static void keep_tail(struct acp_term *t, const char *p, size_t n)
{
    t->out_new = true;
    an_buf_append(&t->out, p, n);
    if (t->out.len <= t->limit)
        return;
    size_t drop = t->out.len - t->limit;
    /* never start in the middle of a UTF-8 sequence */
    while (drop < t->out.len && ((unsigned char)t->out.data[drop] & 0xC0) == 0x80)
        drop++;
    an_buf_consume(&t->out, drop);
    t->truncated = true;
}

static void drain(struct an_acp_client *c, struct acp_term *t, int max_reads)
{
    for (int i = 0; i < max_reads && t->child.out_fd >= 0; i++) {
        ssize_t n = read(t->child.out_fd, c->scratch, SCRATCH);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            close(t->child.out_fd);
            t->child.out_fd = -1;
            return;
        }
        keep_tail(t, c->scratch, (size_t)n);
    }
}

static json_t *exit_status(const struct acp_term *t)
{
    const struct an_child *ch = &t->child;
    json_t *s = json_object();
    json_object_set_new(s, "exitCode",
                        ch->term_signal || ch->exit_code < 0 ? json_null()
                                                             : json_integer(ch->exit_code));
    json_object_set_new(
        s, "signal", ch->term_signal ? json_string(an_proc_signame(ch->term_signal)) : json_null());
    return s;
}

/* Answer every wait_for_exit parked on t, if it has exited. */
static void answer_waiters(struct an_acp_client *c, struct acp_term *t)
{
    if (!t->child.exited)
        return;
    for (size_t i = 0; i < c->nreqs;) {
        struct acp_req *r = c->reqs[i];
        if (r->park == PARK_WAIT && r->term == t->num) {
            acp_finish(c, r, exit_status(t), NULL, NULL);
            continue;
        }
        i++;
    }
}

static void term_free(struct acp_term *t)
{
    an_child_close(&t->child, 0);
    an_buf_release(&t->out);
    json_decref(t->out_json);
    free(t);
}

static void invalid(struct an_acp_client *c, struct acp_req *r, const char *msg)
{
    acp_finish(c, r, NULL, acp_error(AN_RPC_INVALID_PARAMS, msg, NULL), NULL);
}

/* A string whose C form would stop early: another value than the one sent. */
static bool has_nul(const json_t *v)
{
    return json_is_string(v) && strlen(json_string_value(v)) != json_string_length(v);
}

static void create(struct an_acp_client *c, struct acp_req *r)
{
    const json_t *p = r->params;
    const char *command = an_json_str(p, "command");
    const json_t *args = json_object_get(p, "args"), *env = json_object_get(p, "env");
    const json_t *lim = json_object_get(p, "outputByteLimit");
    const char *cwd = an_json_str(p, "cwd");
    if (!command || !command[0])
        return invalid(c, r, "Invalid params: 'command' must be a non-empty string");
    if (args && !json_is_null(args) && !json_is_array(args))
        return invalid(c, r, "Invalid params: 'args' must be an array of strings");
    if (env && !json_is_null(env) && !json_is_array(env))
        return invalid(c, r, "Invalid params: 'env' must be an array of {name, value}");
    if (lim && !json_is_null(lim) && (!json_is_integer(lim) || json_integer_value(lim) < 0))
        return invalid(c, r, "Invalid params: 'outputByteLimit' must be a non-negative integer");
    if (json_object_get(p, "cwd") && !json_is_null(json_object_get(p, "cwd")) && !cwd)
        return invalid(c, r, "Invalid params: 'cwd' must be a string");
    if (c->nterms >= c->max_terms) {
        char msg[96];
        snprintf(msg, sizeof msg, "more than max_terminals (%zu) terminals at once", c->max_terms);
        r->cap = "max_terminals";
        acp_finish(c, r, NULL, acp_error(AN_RPC_INTERNAL_ERROR, msg, NULL), NULL);
        return;
    }
    /* the directory is opened beneath the sandbox and the child fchdir()s
     * to that fd: what was checked is where it runs */
    int dir = c->root_fd;
    if (cwd && (dir = acp_open_param(c, r, "cwd", AN_O_PATH | O_DIRECTORY)) < 0)
        return;
    size_t na = json_array_size(args), ne = json_array_size(env);
    const char **argv = an_xcalloc(na + 2, sizeof *argv);
    char **envv = an_xcalloc(ne + 1, sizeof *envv);
    argv[0] = command;
    bool bad = has_nul(json_object_get(p, "command"));
    for (size_t i = 0; i < na && !bad; i++) {
        argv[i + 1] = json_string_value(json_array_get(args, i));
        bad = !argv[i + 1] || has_nul(json_array_get(args, i));
    }
    for (size_t i = 0; i < ne && !bad; i++) {
        const json_t *e = json_array_get(env, i);
        const char *name = an_json_str(e, "name"), *value = an_json_str(e, "value");
        bad = !name || !value || !name[0] || strchr(name, '=') ||
              has_nul(json_object_get(e, "name")) || has_nul(json_object_get(e, "value"));
        if (!bad) {
            struct an_buf b = AN_BUF_INIT;
            an_buf_printf(&b, "%s=%s", name, value);
            envv[i] = an_buf_detach(&b, NULL);
        }
    }
    struct acp_term *t = NULL;
    if (bad) {
        invalid(c, r,
                "Invalid params: 'command' and 'args' must be strings, 'env' {name, value} "
                "strings, none with a NUL byte");
        goto done;
    }
    t = an_xcalloc(1, sizeof *t);
    t->child = (struct an_child)AN_CHILD_INIT;
    /* the agent's environment then the request's; confined as the target says */
    char **full_env = acp_spawn_env(c, (const char *const *)envv);
    struct an_child_opts co = {.argv = argv,
                               .cwd = cwd ? cwd : c->sandbox,
                               .cwd_fd = dir,
                               .use_cwd_fd = true,
                               .env = (const char *const *)full_env,
                               .env_clear = c->clean_env,
                               .stdin_null = true,
                               .merge_stderr = true,
                               .confine = c->confine_terms ? &c->confine : NULL};
    struct an_err err = AN_ERR_INIT;
    int spawned = an_child_spawn(&t->child, &co, &err);
    an_envmin_free(full_env);
    if (spawned != AN_OK) {
        free(t);
        t = NULL;
        acp_finish(c, r, NULL, acp_error(AN_RPC_INTERNAL_ERROR, err.msg, NULL), NULL);
        goto done;
    }
    size_t limit = c->output_limit;
    if (json_is_integer(lim))
        limit = (uint64_t)json_integer_value(lim) < c->output_limit_max
                    ? (size_t)json_integer_value(lim)
                    : c->output_limit_max;
    t->limit = limit;
    an_buf_init(&t->out, 0);
    t->num = c->next_term++;
    if (c->nterms == c->terms_cap) {
        c->terms_cap = c->terms_cap ? c->terms_cap * 2 : 8;
        c->terms = an_xrealloc(c->terms, c->terms_cap * sizeof *c->terms);
    }
    c->terms[c->nterms++] = t;
    char tid[32];
    snprintf(tid, sizeof tid, "term-%u", t->num);
    acp_finish(c, r, json_pack("{s:s}", "terminalId", tid), NULL, NULL);
done:
    for (size_t i = 0; i < ne; i++)
        free(envv[i]);
    free(envv);
    free(argv);
    if (dir != c->root_fd)
        close(dir);
}

void acp_term_request(struct an_acp_client *c, struct acp_req *r)
{
    const char *m = r->method + strlen("terminal/");
    if (strcmp(m, "create") == 0)
        return create(c, r);
    struct acp_term *t = find_term(c, r->params);
    if (!t) {
        const char *id = an_json_str(r->params, "terminalId");
        char msg[256];
        snprintf(msg, sizeof msg, "unknown terminal '%s'", id ? id : "");
        acp_finish(
            c, r, NULL,
            acp_error(AN_RPC_INVALID_PARAMS, msg, id ? json_pack("{s:s}", "terminalId", id) : NULL),
            NULL);
        return;
    }
    if (strcmp(m, "output") == 0) {
        drain(c, t, 64);
        an_child_reap(&t->child, true);
        if (!t->out_json || t->out_new) {
            json_decref(t->out_json);
            t->out_json = an_json_lossy(t->out.data ? t->out.data : "", t->out.len);
            t->out_new = false;
        }
        /* shared in memory, but every report shows each read: it counts */
        r->kept_bytes = t->out.len;
        json_t *res = json_object();
        json_object_set(res, "output", t->out_json);
        json_object_set_new(res, "truncated", json_boolean(t->truncated));
        if (t->child.exited)
            json_object_set_new(res, "exitStatus", exit_status(t));
        acp_finish(c, r, res, NULL, NULL);
    } else if (strcmp(m, "wait_for_exit") == 0) {
        r->park = PARK_WAIT;
        r->term = t->num;
        an_child_reap(&t->child, true);
        answer_waiters(c, t);
    } else if (strcmp(m, "kill") == 0) {
        an_child_kill_group(&t->child, SIGKILL);
        acp_finish(c, r, json_object(), NULL, NULL);
    } else if (strcmp(m, "release") == 0) {
        for (size_t i = 0; i < c->nterms; i++)
            if (c->terms[i] == t) {
                memmove(&c->terms[i], &c->terms[i + 1], (c->nterms - i - 1) * sizeof *c->terms);
                c->nterms--;
                break;
            }
        an_child_kill_group(&t->child, SIGKILL);
        an_child_close(&t->child, 0);
        answer_waiters(c, t);
        term_free(t);
        acp_finish(c, r, json_object(), NULL, NULL);
    } else {
        json_t *data = json_pack("{s:s}", "method", r->method);
        acp_finish(c, r, NULL, acp_error(AN_RPC_METHOD_NOT_FOUND, "Method not found", data), NULL);
    }
}

size_t acp_term_fds(const struct an_acp_client *c, struct pollfd *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < c->nterms; i++)
        n += an_child_fds(&c->terms[i]->child, false, out + n, max - n);
    return n;
}

bool acp_term_ticking(const struct an_acp_client *c)
{
    for (size_t i = 0; i < c->nterms; i++)
        if (c->terms[i]->child.pid_fd < 0 && !c->terms[i]->child.exited)
            return true;
    return false;
}

void acp_term_handle(struct an_acp_client *c, const struct pollfd *pfds, size_t n)
{
    for (size_t k = 0; k < c->nterms; k++) {
        struct acp_term *t = c->terms[k];
        bool rd = n == 0, ex = n == 0 || t->child.pid_fd < 0;
        for (size_t i = 0; i < n; i++) {
            if (!pfds[i].revents)
                continue;
            if (pfds[i].fd == t->child.out_fd)
                rd = true;
            if (pfds[i].fd == t->child.pid_fd)
                ex = true;
        }
        if (rd)
            drain(c, t, READS_PER_WAKE);
        if (ex && !t->child.exited && an_child_reap(&t->child, true)) {
            drain(c, t, READS_PER_WAKE); /* its last words */
            answer_waiters(c, t);
        }
    }
}

void acp_term_free_all(struct an_acp_client *c)
{
    /* all groups first, so their ends overlap instead of adding up */
    for (size_t i = 0; i < c->nterms; i++)
        an_child_kill_group(&c->terms[i]->child, SIGKILL);
    for (size_t i = 0; i < c->nterms; i++)
        term_free(c->terms[i]);
    free(c->terms);
    c->terms = NULL;
    c->nterms = 0;
}
