/* Cases from a generator agent or a command (input_source.h). */
#include "run/input_source.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/hex.h"
#include "core/json.h"
#include "core/proc.h"
#include "proto/adapter.h"
#include "proto/http.h"
#include "run/target_conf.h"

#define SCRIPT_TIMEOUT_MS (5 * 60 * 1000)
#define SCRIPT_STDOUT_MAX ((size_t)64 << 20)

static const char *const instruction =
    "You write test cases for an AI agent. The JSON object below says which agent is tested "
    "(target_agent), how many cases to write (count) and what to focus on (focus). Answer "
    "with only JSON Lines, one test case per line, no other text. Each case is an object: "
    "{\"id\": \"a-unique-slug\", \"name\": \"what it checks\", \"input\": \"the user's "
    "message\", \"assertions\": [{\"type\": \"contains\", \"value\": \"...\"}]}. Assertion "
    "types: contains, not_contains, equals, regex (pattern), tool_called (name).\n\n";

static char *url_decode(const char *s, size_t n)
{
    char *o = an_xmalloc(n + 1), *p = o;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '+') {
            *p++ = ' ';
        } else if (s[i] == '%' && i + 2 < n && an_hex_digit((unsigned char)s[i + 1]) >= 0 &&
                   an_hex_digit((unsigned char)s[i + 2]) >= 0) {
            *p++ = (char)(an_hex_digit((unsigned char)s[i + 1]) * 16 +
                          an_hex_digit((unsigned char)s[i + 2]));
            i += 2;
        } else {
            *p++ = s[i];
        }
    }
    *p = '\0';
    return o;
}

int an_gen_spec_parse(const char *src, struct an_gen_spec *g, struct an_err *err)
{
    struct an_loc at = {"-i", 0, 0};
    memset(g, 0, sizeof *g);
    g->count = AN_GENERATE_DEFAULT_COUNT;
    if (strncmp(src, "agents:", 7))
        return an_fail(err, AN_EUSAGE, &at, "a generator is written agents:NAME?count=N");
    const char *name = src + 7, *q = strchr(name, '?');
    size_t nlen = q ? (size_t)(q - name) : strlen(name);
    if (!nlen)
        return an_fail(err, AN_EUSAGE, &at, "'%s' names no agent", src);
    g->agent = an_xstrndup(name, nlen);
    for (const char *p = q ? q + 1 : NULL; p && *p;) {
        const char *amp = strchr(p, '&'), *end = amp ? amp : p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        size_t klen = eq ? (size_t)(eq - p) : (size_t)(end - p);
        char *val = eq ? url_decode(eq + 1, (size_t)(end - eq - 1)) : an_xstrdup("");
        if (klen == 5 && !strncmp(p, "count", 5)) {
            char *e;
            long v = strtol(val, &e, 10);
            if (!*val || *e || v < 1 || v > 1000) {
                an_fail(err, AN_EUSAGE, &at,
                        "count must be a whole number from 1 to 1000, not '%s'", val);
                free(val);
                an_gen_spec_release(g);
                return AN_EUSAGE;
            }
            g->count = (unsigned)v;
            free(val);
        } else if (klen == 5 && !strncmp(p, "focus", 5)) {
            free(g->focus);
            g->focus = val;
        } else {
            an_fail(err, AN_EUSAGE, &at, "unknown generator parameter '%.*s' (count, focus)",
                    (int)klen, p);
            free(val);
            an_gen_spec_release(g);
            return AN_EUSAGE;
        }
        p = amp ? amp + 1 : end;
    }
    return 0;
}

void an_gen_spec_release(struct an_gen_spec *g)
{
    free(g->agent);
    free(g->focus);
    memset(g, 0, sizeof *g);
}

/* Strip a ``` fence (with its language tag) around the text. */
static void unfence(const char **s, size_t *n)
{
    const char *a = *s, *e = *s + *n;
    while (a < e && strchr(" \t\r\n", *a))
        a++;
    while (e > a && strchr(" \t\r\n", e[-1]))
        e--;
    if (e - a >= 6 && !strncmp(a, "```", 3) && !strncmp(e - 3, "```", 3)) {
        const char *nl = memchr(a, '\n', (size_t)(e - a));
        a = nl ? nl + 1 : a + 3;
        e -= 3;
        while (e > a && strchr(" \t\r\n", e[-1]))
            e--;
    }
    *s = a;
    *n = (size_t)(e - a);
}

/* The agent's answer as JSONL: arrays and {"cases": [...]} become lines,
 * anything else is passed on line by line for the loader to judge. */
static char *as_jsonl(const char *text, size_t *len)
{
    const char *s = text ? text : "";
    size_t n = strlen(s);
    unfence(&s, &n);
    struct an_buf out = AN_BUF_INIT;
    json_t *j = json_loadb(s, n, 0, NULL);
    json_t *list = json_is_array(j)                             ? j
                   : json_is_array(json_object_get(j, "cases")) ? json_object_get(j, "cases")
                                                                : NULL;
    if (list) {
        size_t i;
        json_t *c;
        json_array_foreach(list, i, c)
        {
            char *line = an_json_compact(c);
            an_buf_printf(&out, "%s\n", line);
            free(line);
        }
    } else {
        an_buf_append(&out, s, n);
        an_buf_putc(&out, '\n');
    }
    json_decref(j);
    *len = out.len;
    char *r = an_buf_detach(&out, NULL);
    return r ? r : an_xstrdup("");
}

static json_t *target_json(const struct an_target *t)
{
    json_t *o = json_pack("{s:s}", "type", t->type->name);
    if (t->type->describe)
        t->type->describe(t, o, true);
    return o;
}

int an_generate_cases(const struct an_config *cfg, const struct an_gen_spec *g, char **jsonl,
                      size_t *len, struct an_err *err)
{
    struct an_loc at = {"-i", 0, 0};
    const struct an_agent *agent = NULL;
    for (size_t i = 0; i < cfg->nagents && !agent; i++)
        if (!strcmp(cfg->agents[i].name, g->agent))
            agent = &cfg->agents[i];
    if (!agent)
        return an_fail(err, AN_EUSAGE, &at, "generator agent '%s' is not in the config's 'agents:'",
                       g->agent);
    json_t *shown = json_pack("{s:s,s:o,s:I}", "test_mode", "generator", "target_agent",
                              target_json(&cfg->target), "count", (json_int_t)g->count);
    if (g->focus)
        json_object_set_new(shown, "focus", json_string(g->focus));
    char *body = json_dumps(shown, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(shown);
    struct an_buf msg = AN_BUF_INIT;
    if (agent->target.type->bare_model)
        an_buf_puts(&msg, instruction);
    an_buf_puts(&msg, body);
    free(body);

    struct an_vars vars = AN_VARS_INIT;
    struct an_target_conf *conf = NULL;
    struct an_session *sess = NULL;
    struct an_transcript tr;
    an_transcript_init(&tr);
    int rc = an_target_open(&agent->target, NULL, &vars, NULL, cfg->dir, NULL, &conf, &sess, err);
    if (!rc) {
        struct an_turn_rec *rec = an_transcript_add_turn(&tr, "user");
        rec->input = an_xstrdup(an_buf_cstr(&msg));
        rec->drop_frames = true;
        an_session_turn(sess, &tr, an_buf_cstr(&msg));
        rec = &tr.turns[0];
        if (rec->status == AN_TURN_ERROR)
            rc = an_fail(err, rec->error_code ? rec->error_code : AN_EPROTO, &agent->loc,
                         "generator '%s' failed: %s", agent->name,
                         rec->error ? rec->error : "the turn failed");
        else
            *jsonl = as_jsonl(rec->text, len);
    }
    an_session_free(sess);
    an_target_conf_free(conf);
    an_http_thread_cleanup();
    an_transcript_release(&tr);
    an_vars_release(&vars);
    an_buf_release(&msg);
    return rc;
}

int an_script_cases(const char *command, char **jsonl, size_t *len, struct an_err *err)
{
    struct an_loc at = {"-i", 0, 0};
    char *copy = an_xstrdup(command);
    size_t cap = 8, n = 0;
    const char **argv = an_xcalloc(cap, sizeof *argv);
    for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w;
         w = strtok_r(NULL, " \t", &save)) {
        if (n + 2 > cap) {
            cap *= 2;
            argv = an_xrealloc(argv, cap * sizeof *argv);
        }
        argv[n++] = w;
    }
    argv[n] = NULL;
    int rc = 0;
    if (!n) {
        rc = an_fail(err, AN_EUSAGE, &at, "scripts: names no command");
        goto out;
    }
    struct an_proc_opts po = AN_PROC_OPTS_INIT;
    po.argv = argv;
    po.stdout_max = SCRIPT_STDOUT_MAX;
    po.timeout_ms = SCRIPT_TIMEOUT_MS;
    struct an_proc_result r;
    struct an_err perr = AN_ERR_INIT;
    if (an_proc_run(&po, &r, &perr)) {
        rc = an_fail(err, AN_EUSAGE, &at, "scripts:%s could not run: %s", command, perr.msg);
    } else if (r.timed_out || r.term_signal || r.exit_code || r.stdout_truncated) {
        char st[128];
        size_t el = r.stderr_buf.len < 300 ? r.stderr_buf.len : 300;
        char *ex = an_utf8_lossy(an_buf_cstr(&r.stderr_buf), el);
        rc = an_fail(err, AN_EUSAGE, &at, "scripts:%s %s%s%s", command,
                     r.stdout_truncated ? "printed more than 64 MiB"
                                        : an_proc_status_str(&r, st, sizeof st),
                     el ? ": " : "", ex);
        free(ex);
    } else {
        *len = r.stdout_buf.len;
        *jsonl = an_buf_detach(&r.stdout_buf, NULL);
        if (!*jsonl)
            *jsonl = an_xstrdup("");
    }
    an_proc_result_release(&r);
out:
    free(argv);
    free(copy);
    return rc;
}
