/* Agent checks: a helper agent as judge (judge.h). */
#include "run/judge.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/check.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "run/script_check.h"
#include "run/target_conf.h"
#include "run/trace.h"

#define EXCERPT 300

static const char *const instruction =
    "You are a strict test validator. The JSON object below holds a user's input to an AI "
    "agent, the agent's output and the tools it called, and the criteria the output must "
    "meet. Decide whether the output meets the criteria. Answer with only a JSON object, "
    "no other text: {\"passed\": true or false, \"reason\": \"one sentence\"}.\n\n";

static char *strf(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *strf(const char *f, ...)
{
    struct an_buf b = AN_BUF_INIT;
    va_list ap;
    va_start(ap, f);
    an_buf_vprintf(&b, f, ap);
    va_end(ap);
    char *s = an_buf_detach(&b, NULL);
    return s ? s : an_xstrdup("");
}

char *an_judge_excerpt(const char *s)
{
    size_t n = strlen(s);
    char *safe = an_utf8_lossy(s, n < EXCERPT ? n : EXCERPT);
    if (n <= EXCERPT)
        return safe;
    size_t m = strlen(safe);
    safe = an_xrealloc(safe, m + 4);
    memcpy(safe + m, "…", 4);
    return safe;
}

/* The JSON object in a judge's text: all of it, or inside ``` fences, or
 * from the first '{' to the last '}'. */
static json_t *find_object(const char *text)
{
    json_t *j = json_loads(text, JSON_DECODE_ANY, NULL);
    if (json_is_object(j))
        return j;
    json_decref(j);
    const char *a = strchr(text, '{'), *b = strrchr(text, '}');
    if (!a || !b || b < a)
        return NULL;
    j = json_loadb(a, (size_t)(b - a + 1), 0, NULL);
    if (json_is_object(j))
        return j;
    json_decref(j);
    return NULL;
}

int an_judge_parse(const char *text, char **reason, char **why)
{
    *reason = NULL;
    *why = NULL;
    if (!text || !text[strspn(text, " \t\r\n")]) {
        *why = an_xstrdup("the judge answered nothing");
        return -1;
    }
    json_t *o = find_object(text);
    if (!o) {
        char *ex = an_judge_excerpt(text);
        *why = strf("the judge's answer is not a JSON object {\"passed\": bool, "
                    "\"reason\": \"...\"}: %s",
                    ex);
        free(ex);
        return -1;
    }
    json_t *p = json_object_get(o, "passed");
    if (!json_is_boolean(p)) {
        char *c = an_json_compact(o);
        char *ex = an_judge_excerpt(c);
        *why = strf(p ? "the judge's 'passed' is not true or false: %s"
                      : "the judge's answer has no 'passed' field: %s",
                    ex);
        free(ex);
        free(c);
        json_decref(o);
        return -1;
    }
    const char *r = an_json_str(o, "reason");
    if (r)
        *reason = an_xstrdup(r);
    int verdict = json_is_true(p);
    json_decref(o);
    return verdict;
}

static json_t *shown_json(const struct an_check_item *it, const struct an_scope *s,
                          const char *input)
{
    json_t *m = json_object();
    json_object_set_new(m, "test_mode", json_string("validator"));
    json_t *md = it->options ? json_object_get(it->options, "metadata") : NULL;
    json_t *criteria = it->value ? it->value : (md ? json_object_get(md, "criteria") : NULL);
    json_object_set(m, "criteria", criteria ? criteria : json_null());
    json_t *subj = an_check_subject_json(s, input);
    json_object_update(m, subj);
    json_decref(subj);
    if (md) {
        const char *k;
        json_t *v;
        json_object_foreach(md, k, v)
        {
            if (!json_object_get(m, k))
                json_object_set(m, k, v);
        }
    }
    return m;
}

static int judge_one(const struct an_check_item *it, const struct an_scope *s, const char *input,
                     const struct an_vars *vars, const char *project_dir,
                     const struct an_target_over *over, struct an_findings *out, size_t *nfailed,
                     struct an_judgements *js, struct an_err *err)
{
    const struct an_agent *agent = it->agent;
    json_t *shown = shown_json(it, s, input);
    char *body = json_dumps(shown, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(shown);
    char *msg = agent->target.type->bare_model ? strf("%s%s", instruction, body) : an_xstrdup(body);
    free(body);

    struct an_judgement *jg = an_judgements_add(js);
    jg->agent = an_xstrdup(agent->name);
    jg->turn = s->turn;
    jg->file = it->loc.file ? an_xstrdup(it->loc.file) : NULL;
    jg->line = it->loc.line;
    jg->col = it->loc.col;
    jg->shown = msg;
    jg->verdict = -1;

    int64_t t0 = an_clock_mono_ms();
    jg->start_ms = an_clock_unix_ms();
    struct an_target_conf *conf = NULL;
    struct an_session *sess = NULL;
    struct an_transcript tr;
    an_transcript_init(&tr);
    struct an_err oerr = AN_ERR_INIT;
    int rc =
        an_target_open(&agent->target, NULL, vars, NULL, project_dir, over, &conf, &sess, &oerr);
    if (rc) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        jg->reason = an_xstrdup(an_err_format(&oerr, buf, sizeof buf));
        rc = an_fail(err, rc, &it->loc, "judge '%s' could not be started: %s", agent->name,
                     jg->reason);
        goto done;
    }
    struct an_turn_rec *rec = an_transcript_add_turn(&tr, "user");
    rec->input = an_xstrdup(msg);
    rec->drop_frames = true;
    char trace[33];
    an_trace_of_turns(s->turns, s->nturns, trace);
    an_trace_helper(trace, jg->span_id, rec);
    an_session_turn(sess, &tr, msg);
    rec = &tr.turns[0];
    jg->duration_ms = an_clock_mono_ms() - t0;
    if (rec->text)
        jg->answer = an_xstrdup(rec->text);
    if (rec->status == AN_TURN_ERROR) {
        jg->reason = an_xstrdup(rec->error ? rec->error : "the turn failed");
        rc = an_fail(err, rec->error_code ? rec->error_code : AN_EPROTO, &it->loc,
                     "judge '%s' failed: %s", agent->name, jg->reason);
        goto done;
    }
    char *reason = NULL, *why = NULL;
    int verdict = an_judge_parse(rec->text, &reason, &why);
    jg->verdict = verdict;
    if (verdict < 0) {
        jg->reason = why;
        rc = an_fail(err, AN_EPROTO, &it->loc, "judge '%s': %s", agent->name, why);
        free(reason);
        goto done;
    }
    jg->reason = reason;
    free(why);
    if ((verdict == 1) == it->negate) {
        struct an_buf subject = AN_BUF_INIT, exp = AN_BUF_INIT, act = AN_BUF_INIT;
        an_buf_printf(&subject, "Judge '%s'", agent->name);
        json_t *md = it->options ? json_object_get(it->options, "metadata") : NULL;
        json_t *criteria = it->value ? it->value : (md ? json_object_get(md, "criteria") : NULL);
        char *c = json_is_string(criteria) ? an_xstrdup(json_string_value(criteria))
                                           : an_json_compact(criteria);
        char *cex = an_judge_excerpt(c);
        an_buf_printf(&exp, "%s: %s", it->negate ? "rejects" : "accepts", cex);
        an_buf_printf(&act, "%s%s%s", verdict ? "accepted" : "rejected", reason ? ": " : "",
                      reason ? reason : "");
        an_check_item_finding(out, it, s, an_buf_cstr(&subject), "accept the output", it->negate,
                              an_buf_cstr(&exp), an_buf_cstr(&act), NULL);
        (*nfailed)++;
        free(cex);
        free(c);
        an_buf_release(&subject);
        an_buf_release(&exp);
        an_buf_release(&act);
    }
done:
    if (!jg->duration_ms)
        jg->duration_ms = an_clock_mono_ms() - t0;
    an_session_free(sess);
    an_target_conf_free(conf);
    an_transcript_release(&tr);
    return rc;
}

int an_judge_checks(const struct an_assert *blk, const struct an_scope *s, const char *input,
                    const struct an_vars *vars, const char *project_dir,
                    const struct an_target_over *over, struct an_findings *out, size_t *nfailed,
                    struct an_judgements *js, struct an_err *err)
{
    *nfailed = 0;
    for (size_t k = 0; k < blk->nchecks; k++) {
        const struct an_check_item *it = &blk->checks[k];
        if (it->kind != AN_CHECK_AGENT || !it->agent)
            continue;
        int rc = judge_one(it, s, input, vars, project_dir, over, out, nfailed, js, err);
        if (rc)
            return rc;
    }
    return AN_OK;
}
