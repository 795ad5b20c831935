/*
 * Reading two recorded runs (docs/record.md) and pairing their tests into
 * cases: one item per case in the union of both runs, each with what its
 * baseline and new sides hold and the verdicts computed from them.
 *
 * A test is paired by its JSONL id when both sides have one, else by its
 * name. A run's tests are those of results.json plus any that run.json lists
 * without a result (a run cut short). A case absent from one run is
 * filtered_out when that run's selection had a --filter or --shard (it was
 * never asked for), else it is missing there (deleted, renamed, not
 * recorded): a regression when it passed before.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/json.h"
#include "core/result_json.h"
#include "core/nofollow.h"
#include "core/sha256.h"
#include "core/vec.h"
#include "compare/compare_int.h"
#include "report/report_util.h"

/* One test of one run: from results.json, or only listed in run.json. */
struct entry {
    const char *id, *name, *file, *slug;
    const char *listed; /* run.json's status for a test without a result */
    const struct an_test_result *t;
    const char *const *kinds;
    bool taken;
    bool slug_listed; /* run.json gave its directory (a safe slug) */
};

static int fail_dir(struct an_err *err, const char *dir, const char *file, enum an_code code,
                    const char *why)
{
    return an_fail(err, code, NULL, "%s/%s: %s (record a run with 'ananke run --record DIR')", dir,
                   file, why);
}

static char *join(const char *dir, const char *rel)
{
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, dir);
    if (b.len && b.data[b.len - 1] != '/')
        an_buf_putc(&b, '/');
    an_buf_puts(&b, rel);
    return an_buf_detach(&b, NULL);
}

/* A recorded file is read whole: past this size it is refused. */
#define CMP_MAX_RECORD_FILE (256u << 20)

/* dir/rel, a file of a recording: never through a symbolic link (a link to
 * /etc/passwd would end up in the pack), at most CMP_MAX_RECORD_FILE. */
static json_t *load_json(const char *dir, const char *rel, struct an_err *err)
{
    return an_nf_json(dir, rel, JSON_REJECT_DUPLICATES, CMP_MAX_RECORD_FILE, err);
}

static void run_warn(const struct cmp_run *run, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void run_warn(const struct cmp_run *run, const char *fmt, ...)
{
    if (!run->o || !run->o->on_warning)
        return;
    struct an_buf b = AN_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    an_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    run->o->on_warning(run->o->warning_ud, an_buf_cstr(&b));
    an_buf_release(&b);
}

static int load_run(struct cmp_run *run, const char *dir, struct an_err *err)
{
    struct stat st;
    int rc = 0;
    char *path = NULL;
    run->dir = an_xstrdup(dir);
    if (stat(dir, &st) || !S_ISDIR(st.st_mode))
        return an_fail(err, AN_ENOTFOUND, NULL, "'%s' is not a directory (a recorded run)", dir);
    path = join(dir, "run.json");
    if (an_nf_kind(dir, "run.json") == AN_NF_ABSENT) {
        rc = fail_dir(err, dir, "run.json", AN_ENOTFOUND, "missing: not a recorded run");
        goto done;
    }
    if (!(run->meta = load_json(dir, "run.json", err))) {
        rc = err ? (int)err->code : AN_EPARSE;
        goto done;
    }
    const char *fmt = an_json_str(run->meta, "format");
    if (!json_is_object(run->meta) || !fmt || strncmp(fmt, "ananke-record/1", 15) ||
        (fmt[15] && fmt[15] != '.')) {
        rc = fail_dir(err, dir, "run.json", AN_ESCHEMA,
                      "not an ananke record (needs \"format\": \"ananke-record/1\")");
        goto done;
    }
    free(path);
    path = join(dir, "results.json");
    if (an_nf_kind(dir, "results.json") == AN_NF_ABSENT) {
        rc = fail_dir(err, dir, "results.json", AN_ENOTFOUND, "missing: not a recorded run");
        goto done;
    }
    if (!(run->doc = load_json(dir, "results.json", err))) {
        rc = err ? (int)err->code : AN_EPARSE;
        goto done;
    }
    /* the tree is read once: the results share what they keep of it */
    if ((rc = an_run_result_read(&run->res, run->doc, path, err)))
        goto done;
    /* The loader keeps the kinds it knows as static strings and calls the
     * rest "other"; the verdicts want the kind as written. */
    json_t *tests = json_object_get(run->doc, "tests");
    run->kinds = an_xcalloc(run->res.ntests + 1, sizeof *run->kinds);
    run->slugs = an_xcalloc(run->res.ntests + 1, sizeof *run->slugs);
    for (size_t i = 0; i < run->res.ntests; i++) {
        json_t *fs = json_object_get(json_array_get(tests, i), "findings");
        const struct an_test_result *t = &run->res.tests[i];
        run->kinds[i] = an_xcalloc(t->findings.n + 1, sizeof **run->kinds);
        for (size_t k = 0; k < t->findings.n; k++) {
            const char *raw = an_json_str(json_array_get(fs, k), "kind");
            run->kinds[i][k] = raw ? raw : t->findings.v[k].kind;
        }
    }
    json_t *sel = json_object_get(run->meta, "selection");
    run->filtered = an_json_str(sel, "filter") || an_json_str(sel, "shard");
    enum an_nf_kind rk = an_nf_kind(dir, "redactions.json");
    run->has_redactions = rk == AN_NF_FILE;
    if (rk == AN_NF_LINK)
        run_warn(run, "%s/redactions.json is (or goes through) a symbolic link: not followed", dir);
done:
    free(path);
    return rc;
}

static void release_run(struct cmp_run *run)
{
    for (size_t i = 0; run->kinds && i < run->res.ntests; i++)
        free(run->kinds[i]);
    free(run->kinds);
    for (size_t i = 0; run->slugs && i < run->res.ntests; i++)
        free(run->slugs[i]);
    free(run->slugs);
    an_run_result_release(&run->res);
    json_decref(run->meta);
    json_decref(run->doc);
    free(run->dir);
}

/* needle (lowercase) somewhere in s, ignoring case */
static bool has_word(const char *s, const char *needle)
{
    size_t n = strlen(needle);
    for (; *s; s++)
        if (!strncasecmp(s, needle, n))
            return true;
    return false;
}

static bool same_test(const char *id1, const char *name1, const char *id2, const char *name2)
{
    if (id1 && id2)
        return !strcmp(id1, id2);
    return name1 && name2 && !strcmp(name1, name2);
}

static const char *nonnull_str(const json_t *o, const char *k)
{
    const char *s = an_json_str(o, k);
    return s && s[0] ? s : NULL;
}

/* A slug from run.json names a directory under tests/: one plain
 * segment, never a path out of the record. */
static bool slug_safe(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (!n || n > 120 || !strcmp(s, ".") || !strcmp(s, ".."))
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!(isalnum(c) || c == '.' || c == '_' || c == '-'))
            return false;
    }
    return true;
}

/* A run's tests as entries: results first (with the slug run.json gives
 * them, else one made by the record's rule), then run.json's tests that
 * have no result. */
static struct entry *entries_of(struct cmp_run *run, size_t *n)
{
    json_t *listed = json_object_get(run->meta, "tests");
    size_t nl = json_array_size(listed);
    struct entry *v = an_xcalloc(run->res.ntests + nl + 1, sizeof *v);
    bool *used = an_xcalloc(nl + 1, sizeof *used);
    *n = 0;
    for (size_t i = 0; i < run->res.ntests; i++) {
        const struct an_test_result *t = &run->res.tests[i];
        struct entry *e = &v[(*n)++];
        e->id = t->id;
        e->name = t->name;
        e->file = t->file;
        e->t = t;
        e->kinds = run->kinds[i];
        for (size_t k = 0; k < nl; k++) {
            json_t *x = json_array_get(listed, k);
            if (!used[k] &&
                same_test(nonnull_str(x, "id"), an_json_str(x, "name"), t->id, t->name)) {
                used[k] = true;
                if (slug_safe(an_json_str(x, "slug"))) {
                    run->slugs[i] = an_xstrdup(an_json_str(x, "slug"));
                    e->slug_listed = true;
                }
                break;
            }
        }
        if (!run->slugs[i]) {
            struct an_buf b = AN_BUF_INIT;
            cmp_slug(&b, t->id ? t->id : t->name);
            run->slugs[i] = an_buf_detach(&b, NULL);
        }
        e->slug = run->slugs[i];
    }
    for (size_t k = 0; k < nl; k++) {
        json_t *x = json_array_get(listed, k);
        if (used[k] || !an_json_str(x, "name"))
            continue;
        struct entry *e = &v[(*n)++];
        e->id = nonnull_str(x, "id");
        e->name = an_json_str(x, "name");
        e->file = an_json_str(x, "file");
        e->slug = slug_safe(an_json_str(x, "slug")) ? an_json_str(x, "slug") : NULL;
        e->listed = an_json_str(x, "status");
    }
    free(used);
    return v;
}

static enum an_nf_kind file_kind(const char *dir, const char *slug, const char *name)
{
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "tests/%s/%s", slug, name);
    enum an_nf_kind k = an_nf_kind(dir, an_buf_cstr(&b));
    an_buf_release(&b);
    return k;
}

/* What each of a case's recorded files is, looked at once (each look walks
 * the path without following links). */
static const char *const case_files[] = {"result.json", "frames.jsonl", "vars.json"};
enum { F_RESULT, F_FRAMES, F_VARS, F_N };
static void case_kinds(const char *dir, const char *slug, enum an_nf_kind k[F_N])
{
    for (size_t i = 0; i < F_N; i++)
        k[i] = slug ? file_kind(dir, slug, case_files[i]) : AN_NF_ABSENT;
}

/* The first of the case's recorded files that is (or goes through) a
 * symbolic link; NULL: none. */
static const char *linked_file(const enum an_nf_kind k[F_N])
{
    for (size_t i = 0; i < F_N; i++)
        if (k[i] == AN_NF_LINK)
            return case_files[i];
    return NULL;
}

/* tests/<slug>/result.json is there but is not a JSON object. */
static bool result_file_broken(const char *dir, const char *slug, const enum an_nf_kind k[F_N])
{
    if (!slug || k[F_RESULT] != AN_NF_FILE)
        return false;
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "tests/%s/result.json", slug);
    json_t *v = an_nf_json(dir, an_buf_cstr(&b), 0, CMP_MAX_RECORD_FILE, NULL);
    bool broken = !json_is_object(v);
    json_decref(v);
    an_buf_release(&b);
    return broken;
}

/* The case's frames should be there and are not (see fill_side). */
static bool frames_lost(const struct entry *e, const enum an_nf_kind k[F_N])
{
    if (!e->slug_listed)
        return true;
    return k[F_RESULT] != AN_NF_ABSENT && k[F_FRAMES] == AN_NF_ABSENT;
}

static const char *status_word(const struct an_test_result *t)
{
    return an_status_name(t->status);
}

static void fill_side(struct cmp_side *s, const struct cmp_run *run, const struct entry *e)
{
    if (!e) {
        s->avail = CMP_MISSING;
        s->word = run->filtered ? "filtered_out" : "missing";
        if (run->filtered) {
            s->reason_code = "excluded_by_filter";
            s->reason = an_xstrdup("not selected by this run's --filter or --shard");
        } else {
            s->reason_code = "not_in_run";
            s->reason = an_xstrdup("not in this run (deleted, renamed or not recorded)");
        }
        cmp_trace_missing(&s->trace, "missing_response");
        return;
    }
    s->slug = e->slug;
    if (!e->t) {
        s->avail = CMP_MISSING;
        s->word = "missing";
        bool not_run = e->listed && !strcmp(e->listed, "not_run");
        s->reason_code = not_run ? "not_run" : "missing_file";
        s->reason = an_xstrdup(not_run ? "listed in run.json but never run (the run stopped early)"
                                       : "listed in run.json without a result in results.json");
        cmp_trace_missing(&s->trace, "missing_response");
        return;
    }
    enum an_nf_kind kinds[F_N];
    case_kinds(run->dir, e->slug, kinds);
    const char *link = linked_file(kinds);
    if (link) {
        /* never followed: the case's data is missing, and says which file */
        s->avail = CMP_MISSING;
        s->word = "missing";
        s->reason_code = "missing_file";
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "tests/%s/%s is (or goes through) a symbolic link: not followed", e->slug,
                      link);
        s->reason = an_buf_detach(&b, NULL);
        s->slug = NULL; /* nothing of it is copied into the pack */
        cmp_trace_missing(&s->trace, "missing_response");
        run_warn(run, "%s/%s", run->dir, s->reason);
        return;
    }
    s->t = e->t;
    s->kinds = e->kinds;
    s->word = status_word(e->t);
    s->pass = e->t->status == AN_STATUS_PASS;
    if (result_file_broken(run->dir, e->slug, kinds)) {
        s->avail = CMP_BROKEN;
        s->word = "broken";
        s->reason_code = "invalid_json";
        s->reason = an_xstrdup("tests/<slug>/result.json is not a JSON object");
    } else if (frames_lost(e, kinds)) {
        /* a recording writes result.json and frames.jsonl together: one
         * without the other, or no directory where run.json names none,
         * is a recording that lost this case's evidence */
        s->avail = CMP_BROKEN;
        s->word = "broken";
        s->reason_code = "missing_file";
        s->broken_file = "frames.jsonl";
        s->reason = an_xstrdup(e->slug ? "tests/<slug>/frames.jsonl is missing: the case's raw "
                                         "frames were not recorded or were lost"
                                       : "run.json names no directory for the case: its raw "
                                         "frames cannot be found");
    }
    s->root = cmp_root_cause(e->t, e->kinds, &s->evidence_failed);
    cmp_trace_of(e->t, &s->trace);
    if (s->avail == CMP_BROKEN) {
        s->trace.status = "broken";
        if (s->trace.n < CMP_TRACE_MAX)
            s->trace.issues[s->trace.n++] = "invalid_result_file";
    }
    cmp_signals_scan(e->t, &s->sig);
    s->failed_run = cmp_failure_of(e->t, &s->failure);
}

static void tag(struct cmp_item *it, const char *t)
{
    for (size_t i = 0; i < it->ntags; i++)
        if (!strcmp(it->tags[i], t))
            return;
    if (it->ntags < sizeof it->tags / sizeof *it->tags)
        it->tags[it->ntags++] = t;
}

void cmp_item_judge(struct cmp_item *it)
{
    struct cmp_side *b = &it->side[CMP_BASE], *n = &it->side[CMP_NEW];
    bool absent[2];
    for (int k = 0; k < 2; k++)
        absent[k] = it->side[k].avail == CMP_MISSING && it->side[k].reason_code &&
                    !strcmp(it->side[k].reason_code, "excluded_by_filter");
    it->status = CMP_EXECUTED;
    it->status_reason = "ok";
    if (absent[CMP_BASE] || absent[CMP_NEW]) {
        it->status = CMP_FILTERED_OUT;
        it->status_reason = "excluded_by_filter";
    } else if ((n->t && n->t->status == AN_STATUS_SKIP) ||
               (!n->t && b->t && b->t->status == AN_STATUS_SKIP)) {
        it->status = CMP_SKIPPED;
        it->status_reason = "skip";
    }
    /* a side with no data failed for want of it (seed 004: missing_case) */
    for (int k = 0; k < 2; k++)
        if (!it->side[k].t && !absent[k])
            it->side[k].root = CMP_ROOT_MISSING_CASE;
    bool regression = it->status == CMP_EXECUTED && b->pass && !n->pass;
    bool improvement = it->status == CMP_EXECUTED && b->t && !b->pass &&
                       b->t->status != AN_STATUS_SKIP && n->pass;
    if (it->repeated && it->status == CMP_EXECUTED) {
        /* repeated on both sides: the rates decide, not one verdict each
         * (docs/compare.md "Repeated runs") */
        regression = it->rs.regression;
        improvement = it->rs.improvement;
    }
    bool slow = it->repeated && it->status == CMP_EXECUTED &&
                (it->rs.duration.flagged || it->rs.tokens.flagged);
    it->change = regression    ? AN_CHANGE_REGRESSION
                 : improvement ? AN_CHANGE_IMPROVEMENT
                               : AN_CHANGE_NONE;
    it->preventable = (n->root != CMP_ROOT_NONE && n->root != CMP_ROOT_TOOL_FAILURE) ||
                      n->evidence_failed;
    it->nrules = cmp_policy_rules(n->root, n->evidence_failed, it->rules);
    it->gate = cmp_gate(it->status, cmp_signals_max(&n->sig), n->avail, regression || slow);
    it->ntags = 0;
    for (size_t i = 0; i < n->sig.n; i++)
        tag(it, n->sig.v[i].kind);
    if (regression)
        tag(it, "regression");
    if (it->repeated && it->status == CMP_EXECUTED && it->rs.drop && !it->rs.significant)
        tag(it, "not_significant");
    if (slow)
        tag(it, "slowdown");
    if (it->status == CMP_FILTERED_OUT)
        tag(it, "filtered_out");
    if (it->status == CMP_SKIPPED)
        tag(it, "skipped");
    if (n->avail == CMP_MISSING && !absent[CMP_NEW])
        tag(it, "missing_new");
    if (n->avail == CMP_BROKEN)
        tag(it, "broken_new");
}

/* A file name for the case's page, unique in the pack even on a file
 * system that ignores case. */
static char *unique_fid(const struct an_compare *c, const char *case_id)
{
    struct an_buf b = AN_BUF_INIT;
    cmp_slug(&b, case_id);
    size_t base = b.len;
    for (unsigned n = 2;; n++) {
        bool taken = false;
        for (size_t i = 0; i < c->nitems && !taken; i++)
            taken = !strcasecmp(c->items[i].fid, an_buf_cstr(&b));
        if (!taken)
            break;
        b.len = base;
        b.data[base] = '\0';
        an_buf_printf(&b, "-%u", n);
    }
    return an_buf_detach(&b, NULL);
}

static void add_item(struct an_compare *c, const struct entry *be, const struct entry *ne)
{
    AN_GROW(c->items, c->nitems, c->cap);
    struct cmp_item *it = &c->items[c->nitems];
    memset(it, 0, sizeof *it);
    const struct entry *e = ne ? ne : be;
    it->case_id = an_xstrdup(e->id ? e->id : e->name);
    const char *title = e->name;
    if (e->t && an_rpt_case_name(e->t))
        title = an_rpt_case_name(e->t);
    it->title = an_xstrdup(title ? title : it->case_id);
    it->name = an_xstrdup(e->name);
    it->file = e->file ? an_xstrdup(e->file) : NULL;
    it->fid = unique_fid(c, it->case_id);
    c->nitems++;
    fill_side(&it->side[CMP_BASE], &c->run[CMP_BASE], be);
    fill_side(&it->side[CMP_NEW], &c->run[CMP_NEW], ne);
    cmp_item_repeat(it, &c->sopt);
    cmp_item_judge(it);
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "case-%s.html", it->fid);
    it->diff_href = an_buf_detach(&b, NULL);
}

/* ${ENV.NAME} templates in the recorded targets' secret-looking values
 * (headers, api_key, ...): their values, as set now, are scrubbed from the
 * pack. */
static void env_secrets(struct cmp_redactor *r, const json_t *v, bool secret, int depth)
{
    static const char *const words[] = {"authorization", "token",  "secret", "key",
                                        "password",      "cookie", "header", NULL};
    const char *k;
    json_t *x;
    size_t i;
    if (depth > 8)
        return;
    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, k, x)
        {
            bool s = secret;
            for (size_t w = 0; words[w] && !s; w++)
                s = has_word(k, words[w]);
            env_secrets(r, x, s, depth + 1);
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, x) env_secrets(r, x, secret, depth + 1);
    } else if (secret && json_is_string(v)) {
        for (const char *p = json_string_value(v); (p = strstr(p, "${ENV.")); p += 6) {
            const char *end = strchr(p + 6, '}');
            if (!end)
                break;
            char *name = an_xstrndup(p + 6, (size_t)(end - p - 6));
            const char *val = getenv(name);
            if (val)
                cmp_redactor_add_secret(r, name, val);
            free(name);
        }
    }
}

int an_compare_load(struct an_compare **out, const char *baseline_dir, const char *new_dir,
                    const struct an_compare_opts *o, struct an_err *err)
{
    struct an_compare_opts def = AN_COMPARE_OPTS_INIT;
    if (!o)
        o = &def;
    struct an_compare *c = an_xcalloc(1, sizeof *c);
    struct entry *ev[2] = {NULL, NULL};
    size_t nev[2] = {0, 0};
    int rc;
    *out = NULL;
    if ((rc = cmp_redactor_new(&c->red, o->redact, o->nredact, err)))
        goto done;
    c->run[CMP_BASE].o = c->run[CMP_NEW].o = o;
    c->sopt.alpha = o->alpha > 0 && o->alpha < 1 ? o->alpha : 0.05;
    c->sopt.any_drop = o->gate_any_drop;
    c->sopt.max_slowdown = o->max_slowdown;
    c->sopt.cache = &c->mw_cache;
    if ((rc = load_run(&c->run[CMP_BASE], baseline_dir, err)) ||
        (rc = load_run(&c->run[CMP_NEW], new_dir, err)))
        goto done;
    for (int k = 0; k < 2; k++) {
        ev[k] = entries_of(&c->run[k], &nev[k]);
        env_secrets(c->red, json_object_get(c->run[k].meta, "target"), false, 0);
    }
    for (size_t i = 0; i < nev[CMP_BASE]; i++) {
        struct entry *be = &ev[CMP_BASE][i], *ne = NULL;
        for (size_t k = 0; k < nev[CMP_NEW] && !ne; k++)
            if (!ev[CMP_NEW][k].taken &&
                same_test(be->id, be->name, ev[CMP_NEW][k].id, ev[CMP_NEW][k].name))
                ne = &ev[CMP_NEW][k];
        if (ne)
            ne->taken = true;
        add_item(c, be, ne);
    }
    for (size_t k = 0; k < nev[CMP_NEW]; k++)
        if (!ev[CMP_NEW][k].taken)
            add_item(c, NULL, &ev[CMP_NEW][k]);
    c->now_ms = o->now_ms ? o->now_ms : an_clock_unix_ms();
    if (o->report_id && o->report_id[0]) {
        c->report_id = an_xstrdup(o->report_id);
    } else {
        struct an_buf b = AN_BUF_INIT;
        const char *id0 = an_json_str(c->run[0].meta, "run_id");
        const char *id1 = an_json_str(c->run[1].meta, "run_id");
        an_buf_printf(&b, "%s|%s|%lld", id0 ? id0 : "", id1 ? id1 : "", (long long)c->now_ms);
        char hex[AN_SHA256_HEX_LEN + 1];
        an_sha256_hex(b.data, b.len, hex);
        hex[32] = '\0';
        c->report_id = an_xstrdup(hex);
        an_buf_release(&b);
    }
done:
    c->run[CMP_BASE].o = c->run[CMP_NEW].o = NULL; /* o was borrowed for the load */
    free(ev[0]);
    free(ev[1]);
    if (rc)
        an_compare_free(c);
    else
        *out = c;
    return rc;
}

void an_compare_free(struct an_compare *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nitems; i++) {
        struct cmp_item *it = &c->items[i];
        for (int k = 0; k < 2; k++) {
            struct cmp_side *s = &it->side[k];
            free(s->reason);
            cmp_signals_release(&s->sig);
            for (int a = 0; a < CMP_ART_COUNT; a++) {
                free(s->href[a]);
                free(s->key[a]);
            }
        }
        free(it->case_id);
        free(it->title);
        free(it->fid);
        free(it->name);
        free(it->file);
        free(it->diff_href);
        free(it->repro_href);
    }
    free(c->items);
    release_run(&c->run[0]);
    release_run(&c->run[1]);
    free(c->report_id);
    cmp_redactor_free(c->red);
    free(c);
}

size_t an_compare_ncases(const struct an_compare *c)
{
    return c ? c->nitems : 0;
}

void an_compare_case_at(const struct an_compare *c, size_t i, struct an_compare_case *out)
{
    const struct cmp_item *it = &c->items[i];
    out->case_id = it->case_id;
    out->title = it->title;
    out->baseline_status = it->side[CMP_BASE].word;
    out->new_status = it->side[CMP_NEW].word;
    out->change = it->change;
    out->gate = it->gate;
    out->new_root = cmp_root_name(it->side[CMP_NEW].root);
    out->repeated = it->repeated;
    out->baseline_runs = it->rs.side[CMP_BASE].runs;
    out->baseline_passes = it->rs.side[CMP_BASE].passes;
    out->new_runs = it->rs.side[CMP_NEW].runs;
    out->new_passes = it->rs.side[CMP_NEW].passes;
    out->p_value = it->rs.p_value;
    out->significant = it->rs.significant;
    out->slower = it->repeated && it->rs.duration.flagged;
    out->more_tokens = it->repeated && it->rs.tokens.flagged;
}
