/* Recording a run into a directory (ananke/record.h, docs/record.md). */
#include "ananke/record.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ananke/result.h"
#include "ananke/target_type.h"
#include "core/arena.h"
#include "core/atomic_file.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/interp.h"
#include "core/iso8601.h"
#include "core/json.h"
#include "core/result_json.h"
#include "core/result_paths.h"
#include "core/sha256.h"
#include "core/strmap.h"
#include "proto/uuid.h"
#include "run/redact.h"
#include "run/secrets.h"
#include "tools/tools.h"

#ifndef ANANKE_VERSION
#define ANANKE_VERSION "unknown"
#endif

struct an_recorder {
    char *dir;
    const struct an_suite *suite;
    struct an_record_info info;
    char run_id[AN_UUID_STR];
    char *config_sha256;     /* NULL: the config could not be read */
    char *config_assertions; /* its `assertions:` section as written; NULL: none */
    int64_t opened_ms;
    struct an_redactor *red;
    json_t *report; /* redactions.json: [{"what", "file", "count"}] */
    size_t redacted;
    char **warned; /* labels already reported as too short to redact */
    size_t nwarned;
    size_t *selected; /* info.selected, copied */
};

/* ---- slugs ---- */

static bool slug_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
}

void an_record_slugs(const char *const *keys, size_t n, char **out)
{
    struct an_arena a = AN_ARENA_INIT;
    struct an_strmap taken;
    an_strmap_init(&taken, &a);
    struct an_buf b = AN_BUF_INIT, low = AN_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        const char *k = keys[i] ? keys[i] : "";
        size_t len = strlen(k);
        if (len > AN_RECORD_SLUG_MAX)
            len = AN_RECORD_SLUG_MAX;
        char base[AN_RECORD_SLUG_MAX + 1];
        for (size_t j = 0; j < len; j++)
            base[j] = slug_byte((unsigned char)k[j]) ? k[j] : '_';
        base[len] = '\0';
        if (len == 0) {
            base[0] = '_';
            base[1] = '\0';
        }
        if (base[0] == '.')
            base[0] = '_';
        for (unsigned m = 1;; m++) {
            an_buf_reset(&b);
            an_buf_puts(&b, base);
            if (m > 1)
                an_buf_printf(&b, "-%u", m);
            an_buf_reset(&low);
            for (size_t j = 0; j < b.len; j++)
                an_buf_putc(&low, (char)tolower((unsigned char)b.data[j]));
            if (!an_strmap_get(&taken, an_buf_cstr(&low)))
                break;
        }
        an_strmap_put(&taken, an_buf_cstr(&low), (void *)1);
        out[i] = an_xstrdup(an_buf_cstr(&b));
    }
    an_buf_release(&b);
    an_buf_release(&low);
    an_arena_release(&a);
}

/* ---- secrets ---- */

static void short_secret(const char *label, void *ud)
{
    struct an_recorder *rc = ud;
    if (!rc->info.warn)
        return;
    for (size_t i = 0; i < rc->nwarned; i++)
        if (!strcmp(rc->warned[i], label))
            return;
    rc->warned = an_xrealloc(rc->warned, (rc->nwarned + 1) * sizeof *rc->warned);
    rc->warned[rc->nwarned++] = an_xstrdup(label);
    char msg[512];
    snprintf(msg, sizeof msg,
             "the value of %s is shorter than %d bytes: it is not searched for, so it is not "
             "redacted",
             label, AN_REDACT_MIN);
    rc->info.warn(msg, rc->info.ud);
}

/* Every secret one test may have sent or seen: its target's and helper
 * agents' credentials (built with its variables) and its secret-named
 * hook variables. */
static void gather_secrets(struct an_recorder *rc, const struct an_vars *vars)
{
    an_secrets_gather(rc->red, &rc->suite->config, vars, short_secret, rc);
}

/* ---- files ---- */

static void set(json_t *o, const char *key, json_t *v)
{
    if (!v || json_object_set_new(o, key, v))
        an_oom();
}

static json_t *str(const char *s)
{
    return s ? an_json_lossy(s, strlen(s)) : json_null();
}

static json_t *iso(int64_t ms)
{
    char buf[40];
    an_iso8601_ms(buf, sizeof buf, ms);
    return buf[0] ? json_string(buf) : json_null();
}

/* The target as written in the config: templates, never their values. */
static json_t *target_json(const struct an_target *t)
{
    json_t *o = json_object();
    if (t->type) { /* a suite built by hand may have none */
        set(o, "type", json_string(t->type->name));
        if (t->type->describe)
            t->type->describe(t, o, false);
    }
    if (t->nheaders) {
        json_t *h = json_object();
        for (size_t i = 0; i < t->nheaders; i++)
            set(h, t->headers[i].name, str(t->headers[i].value.src));
        set(o, "headers", h);
    }
    set(o, "timeout_ms", json_integer(t->timeout_ms));
    return o;
}

static json_t *test_entry(const char *name, const char *id, const char *file, const char *slug,
                          const char *status)
{
    json_t *e = json_object();
    set(e, "name", str(name));
    set(e, "id", str(id));
    set(e, "file", str(file));
    set(e, "slug", str(slug));
    set(e, "status", json_string(status));
    return e;
}

/* A result's name (or file) is the test's, as the run redacted it. */
static bool same(const struct an_recorder *rc, const char *result, const char *test)
{
    if (!result || !test)
        return !result && !test;
    if (!strcmp(result, test))
        return true;
    char *a = an_redact_text(rc->red, result, strlen(result), NULL, NULL);
    char *b = an_redact_text(rc->red, test, strlen(test), NULL, NULL);
    bool eq = !strcmp(a ? a : result, b ? b : test);
    free(a);
    free(b);
    return eq;
}

/* Every selected test in run order: those with a result, and those that
 * never started ("not_run", no directory). The results are the selection
 * in order with the never-started ones left out (run/sched.c). */
static json_t *tests_json(const struct an_recorder *rc, const struct an_run_result *res,
                          char **slugs)
{
    json_t *a = json_array();
    struct an_project_paths *pp = an_project_paths_new(rc->suite->config.dir);
    size_t j = 0;
    for (size_t k = 0; k < rc->info.nselected; k++) {
        const struct an_test *t = &rc->suite->tests[rc->selected[k]];
        const struct an_test_result *r = j < res->ntests ? &res->tests[j] : NULL;
        /* a result names its file relative to the project (core/result_paths.h) */
        char *file = t->file ? an_project_path(pp, t->file) : NULL;
        bool ran = r && same(rc, r->name, t->name) && same(rc, r->file, file);
        if (!ran) {
            json_array_append_new(a, test_entry(t->name, t->id, file, NULL, "not_run"));
            free(file);
            continue;
        }
        free(file);
        json_array_append_new(a, test_entry(r->name, r->id, r->file, slugs ? slugs[j] : NULL,
                                            an_status_name(r->status)));
        j++;
    }
    for (; res->tests && j < res->ntests; j++) /* no selection given, or one that does not match */
        json_array_append_new(a, test_entry(res->tests[j].name, res->tests[j].id,
                                            res->tests[j].file, slugs ? slugs[j] : NULL,
                                            an_status_name(res->tests[j].status)));
    an_project_paths_free(pp);
    return a;
}

/* run.json; `res` NULL: the first one, before the run. */
static json_t *run_json(const struct an_recorder *rc, const struct an_run_result *res,
                        bool complete, char **slugs)
{
    const struct an_config *cfg = &rc->suite->config;
    const struct an_record_info *in = &rc->info;
    json_t *o = json_object();
    set(o, "format", json_string(AN_RECORD_FORMAT));
    set(o, "complete", json_boolean(res && complete));
    set(o, "run_id", json_string(rc->run_id));
    set(o, "ananke_version", json_string(ANANKE_VERSION));
    json_t *c = json_object();
    /* paths relative to the project, as in every result (core/result_paths.h) */
    char *cfg_path = cfg->path ? an_path_in_project(cfg->path, cfg->dir) : NULL;
    set(c, "path", str(cfg_path));
    free(cfg_path);
    set(c, "sha256", str(rc->config_sha256));
    if (rc->config_assertions) { /* redacted as everything the recording holds */
        char *red = an_redact_text(rc->red, rc->config_assertions, strlen(rc->config_assertions),
                                   NULL, NULL);
        set(c, "assertions", str(red ? red : rc->config_assertions));
        free(red);
    }
    set(o, "config", c);
    set(o, "target", target_json(&cfg->target));
    set(o, "started_at", iso(res ? res->start_ms : rc->opened_ms));
    set(o, "ended_at", res ? iso(res->end_ms) : json_null());
    json_t *sel = json_object(), *paths = json_array();
    for (size_t i = 0; i < in->npaths; i++) {
        char *sp = in->paths[i] ? an_path_in_project(in->paths[i], cfg->dir) : NULL;
        json_array_append_new(paths, str(sp));
        free(sp);
    }
    set(sel, "paths", paths);
    set(sel, "filter", str(in->filter));
    set(sel, "shard", str(in->shard));
    set(o, "selection", sel);
    json_t *opt = json_object();
    set(opt, "parallel", json_integer(in->parallel ? in->parallel : 1));
    set(opt, "repeat", json_integer(in->repeat ? in->repeat : 1));
    set(opt, "retries", json_integer(in->retries));
    set(opt, "timeout_ms", in->timeout_ms > 0 ? json_integer(in->timeout_ms) : json_null());
    set(opt, "seed", in->has_seed ? json_integer(in->seed) : json_null());
    set(o, "options", opt);
    set(o, "tests", res ? tests_json(rc, res, slugs) : json_array());
    return o;
}

static char *path_in(const struct an_recorder *rc, const char *rel)
{
    size_t n = strlen(rc->dir) + strlen(rel) + 2;
    char *p = an_xmalloc(n);
    snprintf(p, n, "%s/%s", rc->dir, rel);
    return p;
}

/* A file of the recording, renamed into place whole but not synced on its
 * own: write_run syncs the file system once, before run.json says the
 * recording is whole (an fsync per file was 3,000 for 1,000 tests). */
static int write_buf(const struct an_recorder *rc, const char *rel, const struct an_buf *b,
                     struct an_err *err)
{
    char *path = path_in(rc, rel);
    int rc_ = strcmp(rel, "run.json") ? an_atomic_write_unsynced(path, b, err)
                                      : an_atomic_write(path, b, err);
    free(path);
    return rc_;
}

static int write_json(const struct an_recorder *rc, const char *rel, const json_t *v,
                      struct an_err *err)
{
    char *text = an_json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, text);
    an_buf_putc(&b, '\n');
    free(text);
    int rc_ = write_buf(rc, rel, &b, err);
    an_buf_release(&b);
    return rc_;
}

/* run.json, synced, once every file before it is on disk: a recording
 * that has it is whole after a crash too. */
static int write_run(const struct an_recorder *rc, const json_t *run, struct an_err *err)
{
    int rc_ = an_fs_sync(rc->dir, err);
    return rc_ ? rc_ : write_json(rc, "run.json", run, err);
}

static int make_dir(const struct an_recorder *rc, const char *rel, struct an_err *err)
{
    char *path = path_in(rc, rel);
    int rc_ = AN_OK;
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        rc_ = an_fail(err, AN_EIO, NULL, "cannot create '%s': %s", path, strerror(errno));
    free(path);
    return rc_;
}

/* `count` replacements of `what` in `file`, into redactions.json's list. */
static void tally_one(struct an_recorder *rc, const char *file, const char *what, size_t count)
{
    if (!count)
        return;
    rc->redacted += count;
    size_t i;
    json_t *e;
    json_array_foreach(rc->report, i, e)
    {
        if (!strcmp(an_json_str(e, "what"), what) && !strcmp(an_json_str(e, "file"), file)) {
            json_int_t n = json_integer_value(json_object_get(e, "count"));
            set(e, "count", json_integer(n + (json_int_t)count));
            return;
        }
    }
    json_array_append_new(rc->report, json_pack("{s:s,s:s,s:I}", "what", what, "file", file,
                                                "count", (json_int_t)count));
}

/* What one file had redacted, into redactions.json's list. */
static void tally(struct an_recorder *rc, const char *file, const size_t *counts)
{
    for (size_t l = 0; l < an_redactor_nlabels(rc->red); l++)
        tally_one(rc, file, an_redactor_label(rc->red, l), counts[l]);
}

/* What the run redacted in a result before it got here (in its frames, or
 * elsewhere in it). */
static void tally_run(struct an_recorder *rc, const char *file, const struct an_test_result *t,
                      bool frames)
{
    for (size_t i = 0; i < t->nredacted; i++)
        if (t->redacted[i].frames == frames)
            tally_one(rc, file, t->redacted[i].what, t->redacted[i].count);
}

/* frames.jsonl: every kept frame, its time from the turn's request; a
 * turn's frames are redacted together (a secret may be streamed in pieces). */
static void frames_jsonl(const struct an_recorder *rc, const struct an_transcript *tr,
                         struct an_buf *out, size_t *counts)
{
    for (size_t k = 0; k < tr->nturns; k++) {
        const struct an_turn_rec *r = &tr->turns[k];
        if (!r->nframes)
            continue;
        const char **data = an_xcalloc(r->nframes, sizeof *data);
        for (size_t f = 0; f < r->nframes; f++)
            data[f] = r->frames[f].data;
        char **red = an_redact_frames(rc->red, data, r->nframes, counts);
        for (size_t f = 0; f < r->nframes; f++) {
            json_t *line = json_pack("{s:I,s:I,s:o}", "turn", (json_int_t)k + 1, "t_ms",
                                     (json_int_t)(r->frames[f].t_ms - r->start_ms), "data",
                                     an_json_lossy(red[f], strlen(red[f])));
            char *text = an_json_compact(line);
            json_decref(line);
            an_buf_puts(out, text);
            an_buf_putc(out, '\n');
            free(text);
            free(red[f]);
        }
        free(red);
        free(data);
    }
}

static void vars_of(const struct an_test_result *t, struct an_vars *v)
{
    for (size_t i = 0; t->var_values && i < t->nvar_names; i++)
        an_vars_set(v, t->var_names[i], t->var_values[i]);
}

/* tests/<slug>/: result.json (the test's entry of results.json, given
 * redacted), frames.jsonl and vars.json. */
static int write_test(struct an_recorder *rc, const struct an_test_result *t, const char *slug,
                      const json_t *result, const size_t *result_counts, struct an_err *err)
{
    size_t nl = an_redactor_nlabels(rc->red);
    size_t *counts = an_xcalloc(nl + 1, sizeof *counts);
    struct an_buf rel = AN_BUF_INIT, b = AN_BUF_INIT;
    json_t *vars = json_object(), *red = NULL;
    int rc_;
    an_buf_printf(&rel, "tests/%s", slug);
    if ((rc_ = make_dir(rc, an_buf_cstr(&rel), err)))
        goto done;
    an_buf_printf(&rel, "/result.json");
    if ((rc_ = write_json(rc, an_buf_cstr(&rel), result, err)))
        goto done;
    tally(rc, an_buf_cstr(&rel), result_counts);
    tally_run(rc, an_buf_cstr(&rel), t, false);

    an_buf_reset(&rel);
    an_buf_printf(&rel, "tests/%s/frames.jsonl", slug);
    frames_jsonl(rc, &t->transcript, &b, counts);
    if ((rc_ = write_buf(rc, an_buf_cstr(&rel), &b, err)))
        goto done;
    tally(rc, an_buf_cstr(&rel), counts);
    tally_run(rc, an_buf_cstr(&rel), t, true);

    memset(counts, 0, (nl + 1) * sizeof *counts);
    an_buf_reset(&rel);
    an_buf_printf(&rel, "tests/%s/vars.json", slug);
    for (size_t i = 0; t->var_values && i < t->nvar_names; i++)
        set(vars, t->var_names[i], str(t->var_values[i]));
    red = an_redact_json(rc->red, vars, counts);
    if ((rc_ = write_json(rc, an_buf_cstr(&rel), red, err)))
        goto done;
    tally(rc, an_buf_cstr(&rel), counts);
done:
    json_decref(vars);
    json_decref(red);
    an_buf_release(&rel);
    an_buf_release(&b);
    free(counts);
    return rc_;
}

static void put_line(struct an_buf *b, const json_t *v)
{
    char *text = an_json_compact(v);
    an_buf_puts(b, text);
    an_buf_putc(b, '\n');
    free(text);
}

/* tools/NAME.jsonl: each tool server's traffic through the proxy, after a
 * header line naming the format (docs/tools.md "Record and replay"). */
static int write_tools(struct an_recorder *rc, struct an_err *err)
{
    const struct an_config *cfg = &rc->suite->config;
    if (!cfg->ntool_servers)
        return AN_OK;
    json_t *tape = an_tools_tape();
    size_t nl = an_redactor_nlabels(rc->red);
    size_t *counts = an_xcalloc(nl + 1, sizeof *counts);
    struct an_buf b = AN_BUF_INIT, rel = AN_BUF_INIT;
    int rc_ = make_dir(rc, "tools", err);
    for (size_t i = 0; i < cfg->ntool_servers && !rc_; i++) {
        const char *name = cfg->tool_servers[i].name;
        memset(counts, 0, (nl + 1) * sizeof *counts);
        an_buf_reset(&b);
        json_t *head = json_pack("{s:s,s:s}", "format", AN_TOOLS_FORMAT, "server", name);
        put_line(&b, head);
        json_decref(head);
        size_t k;
        json_t *l;
        json_array_foreach(json_object_get(tape, name), k, l)
        {
            json_t *red = an_redact_json(rc->red, l, counts);
            put_line(&b, red);
            json_decref(red);
        }
        an_buf_reset(&rel);
        an_buf_printf(&rel, "tools/%s.jsonl", name);
        if (!(rc_ = write_buf(rc, an_buf_cstr(&rel), &b, err)))
            tally(rc, an_buf_cstr(&rel), counts);
    }
    json_decref(tape);
    free(counts);
    an_buf_release(&b);
    an_buf_release(&rel);
    return rc_;
}

/* The tests of an_record_write, each its element of results.json: the
 * test's JSON redacted (its counts added to all), and its own files. */
struct each_test {
    struct an_recorder *rc;
    const struct an_run_result *res;
    char **slugs;
    size_t *all, *one, nl;
    struct an_err *err;
    int rc_; /* a test's files could not be written: the stream stops */
};

static json_t *record_test(void *ud, size_t i)
{
    struct each_test *et = ud;
    memset(et->one, 0, (et->nl + 1) * sizeof *et->one);
    json_t *t = an_result_json_test(et->res, &et->res->tests[i]);
    json_t *rt = an_redact_json(et->rc->red, t, et->one);
    json_decref(t);
    for (size_t l = 0; l < et->nl; l++)
        et->all[l] += et->one[l]; /* results.json holds the same object */
    if ((et->rc_ = write_test(et->rc, &et->res->tests[i], et->slugs[i], rt, et->one, et->err))) {
        json_decref(rt);
        return NULL;
    }
    return rt;
}

int an_record_write(struct an_recorder *rc, const struct an_run_result *res, bool complete,
                    struct an_err *err)
{
    size_t n = res->ntests;
    int rc_ = AN_OK;
    for (size_t i = 0; i < n; i++) {
        struct an_vars v = AN_VARS_INIT;
        vars_of(&res->tests[i], &v);
        gather_secrets(rc, &v);
        an_vars_release(&v);
    }
    char **slugs = an_xcalloc(n + 1, sizeof *slugs);
    const char **keys = an_xcalloc(n + 1, sizeof *keys);
    /* a directory's name is output too: taken from the names as redacted
     * (the run's redaction did it; this one adds another test's secrets) */
    char **red_keys = an_xcalloc(n + 1, sizeof *red_keys);
    for (size_t i = 0; i < n; i++) {
        keys[i] = res->tests[i].id ? res->tests[i].id : res->tests[i].name;
        red_keys[i] = keys[i] ? an_redact_text(rc->red, keys[i], strlen(keys[i]), NULL, NULL)
                              : NULL;
        if (red_keys[i])
            keys[i] = red_keys[i];
    }
    an_record_slugs(keys, n, slugs);

    size_t nl = an_redactor_nlabels(rc->red);
    size_t *all = an_xcalloc(nl + 1, sizeof *all), *one = an_xcalloc(nl + 1, sizeof *one);
    json_t *head = an_result_json_head(res);
    json_t *red_head = an_redact_json(rc->red, head, all);
    json_t *run = NULL, *red_run = NULL;
    if ((rc_ = make_dir(rc, "tests", err)))
        goto done;
    /* results.json a test at a time, each test's files written as its
     * element is: the run's whole document as trees, and a redacted copy,
     * were most of what a recording of 10,000 tests held */
    char *path = path_in(rc, "results.json");
    struct an_atomic_file f;
    rc_ = an_atomic_open(&f, path, err);
    if (!rc_) {
        f.unsynced = true; /* write_run syncs before run.json */
        struct each_test et = {rc, res, slugs, all, one, nl, err, AN_OK};
        bool whole = an_json_stream_object(f.fp, red_head, "tests", n, record_test, &et);
        if (!whole) {
            an_atomic_abort(&f);
            rc_ = et.rc_;
        } else {
            rc_ = an_atomic_commit(&f, err);
        }
    }
    free(path);
    if (rc_)
        goto done;
    tally(rc, "results.json", all);
    for (size_t i = 0; i < n; i++)
        tally_run(rc, "results.json", &res->tests[i], false);

    memset(one, 0, (nl + 1) * sizeof *one);
    run = run_json(rc, res, complete, slugs);
    red_run = an_redact_json(rc->red, run, one);
    tally(rc, "run.json", one);
    if ((rc_ = write_tools(rc, err)) || (rc_ = write_json(rc, "redactions.json", rc->report, err)))
        goto done;
    rc_ = write_run(rc, red_run, err); /* last: now the recording is whole */
done:
    json_decref(head);
    json_decref(red_head);
    json_decref(run);
    json_decref(red_run);
    for (size_t i = 0; i < n; i++) {
        free(slugs[i]);
        free(red_keys[i]);
    }
    free(slugs);
    free(red_keys);
    free(keys);
    free(all);
    free(one);
    return rc_;
}

size_t an_record_redacted(const struct an_recorder *rc)
{
    return rc->redacted;
}

/* ---- opening ---- */

/* DIR/run.json names a recording: its run id and start, for the message. */
static bool is_recording(const char *dir, char *what, size_t cap)
{
    size_t n = strlen(dir) + sizeof "/run.json";
    char *p = an_xmalloc(n);
    snprintf(p, n, "%s/run.json", dir);
    json_t *j = json_load_file(p, 0, NULL);
    free(p);
    const char *f = an_json_str(j, "format");
    bool yes = f && !strncmp(f, "ananke-record/", 14);
    if (yes) {
        const char *id = an_json_str(j, "run_id"), *at = an_json_str(j, "started_at");
        snprintf(what, cap, "run %s, started %s", id ? id : "?", at ? at : "?");
    }
    json_decref(j);
    return yes;
}

static int check_dir(const char *dir, bool *exists, struct an_err *err)
{
    struct stat st;
    *exists = false;
    if (stat(dir, &st) != 0) {
        if (errno == ENOENT)
            return AN_OK;
        return an_fail(err, AN_EIO, NULL, "cannot record into '%s': %s", dir, strerror(errno));
    }
    if (!S_ISDIR(st.st_mode))
        return an_fail(err, AN_EUSAGE, NULL,
                       "cannot record into '%s': it exists and is not a directory", dir);
    *exists = true;
    char what[200];
    if (is_recording(dir, what, sizeof what))
        return an_fail(err, AN_EUSAGE, NULL,
                       "'%s' holds a previous recording (%s): runs are never mixed, record into "
                       "a new or empty directory",
                       dir, what);
    DIR *d = opendir(dir);
    if (!d)
        return an_fail(err, AN_EIO, NULL, "cannot record into '%s': %s", dir, strerror(errno));
    bool empty = true;
    struct dirent *e;
    while (empty && (e = readdir(d)))
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
    if (!empty)
        return an_fail(err, AN_EUSAGE, NULL,
                       "cannot record into '%s': it is not empty and not a recording; record into "
                       "a new or empty directory",
                       dir);
    return AN_OK;
}

/* mkdir -p */
static int make_dirs(const char *dir, struct an_err *err)
{
    char *p = an_xstrdup(dir);
    int rc = AN_OK;
    for (char *s = p + 1;; s++) {
        bool end = *s == '\0';
        if (*s != '/' && !end)
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            rc = an_fail(err, AN_EIO, NULL, "cannot create the recording directory '%s': %s", p,
                         strerror(errno));
            break;
        }
        if (end)
            break;
        *s = '/';
    }
    free(p);
    return rc;
}

/* The config's top-level `assertions:` section as written: from its line
 * to the next top-level key (a line that starts with neither a blank nor
 * '#'). NULL when there is none. A compare's repro config carries it, so a
 * test that `extends` a block loads there too. */
static char *assertions_section(const char *text, size_t n)
{
    const char *p = text, *end = text + n, *from = NULL, *to = end;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *next = nl ? nl + 1 : end;
        if (!from) {
            if ((size_t)(end - p) >= 11 && !strncmp(p, "assertions:", 11))
                from = p;
        } else if (p < next && *p != ' ' && *p != '\t' && *p != '#' && *p != '\n' && *p != '\r') {
            to = p;
            break;
        }
        p = next;
    }
    if (!from)
        return NULL;
    while (to > from && (to[-1] == '\n' || to[-1] == '\r'))
        to--;
    return an_xstrndup(from, (size_t)(to - from));
}

static char *file_sha256(const char *path, char **assertions)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f)
        return NULL;
    struct an_buf b = AN_BUF_INIT;
    char chunk[8192];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
        an_buf_append(&b, chunk, k);
    bool bad = ferror(f);
    fclose(f);
    char *hex = NULL;
    if (!bad) {
        hex = an_xmalloc(AN_SHA256_HEX_LEN + 1);
        an_sha256_hex(b.data ? b.data : "", b.len, hex);
        *assertions = assertions_section(b.data ? b.data : "", b.len);
    }
    an_buf_release(&b);
    return hex;
}

void an_record_free(struct an_recorder *rc)
{
    if (!rc)
        return;
    free(rc->dir);
    free(rc->config_sha256);
    free(rc->config_assertions);
    an_redactor_free(rc->red);
    json_decref(rc->report);
    for (size_t i = 0; i < rc->nwarned; i++)
        free(rc->warned[i]);
    free(rc->warned);
    free(rc->selected);
    free(rc);
}

int an_record_open(struct an_recorder **out, const char *dir, const struct an_suite *s,
                   const struct an_record_info *info, struct an_err *err)
{
    struct an_recorder *rc = an_xcalloc(1, sizeof *rc);
    int rc_ = AN_OK;
    bool exists = false;
    json_t *run = NULL, *red = NULL;
    *out = NULL;
    rc->dir = an_xstrdup(dir);
    size_t n = strlen(rc->dir);
    while (n > 1 && rc->dir[n - 1] == '/')
        rc->dir[--n] = '\0';
    rc->suite = s;
    rc->info = *info;
    rc->selected = an_xcalloc(info->nselected + 1, sizeof *rc->selected);
    for (size_t i = 0; i < info->nselected && info->selected; i++)
        rc->selected[i] = info->selected[i];
    if (!info->selected)
        rc->info.nselected = 0;
    rc->red = an_redactor_new();
    rc->report = json_array();
    for (size_t i = 0; i < info->nredact; i++)
        if ((rc_ = an_redactor_add_regex(rc->red, info->redact[i], err)))
            goto done;
    if ((rc_ = check_dir(rc->dir, &exists, err)))
        goto done;
    if (!exists && (rc_ = make_dirs(rc->dir, err)))
        goto done;
    an_uuid4(rc->run_id);
    an_tools_tape_keep(); /* every tool call, for tools/ */
    rc->config_sha256 = file_sha256(s->config.path, &rc->config_assertions);
    rc->opened_ms = an_clock_unix_ms();
    /* the config's own secrets (${ENV...} credentials, literal ones) */
    struct an_vars none = AN_VARS_INIT;
    gather_secrets(rc, &none);
    run = run_json(rc, NULL, false, NULL);
    red = an_redact_json(rc->red, run, NULL);
    rc_ = write_json(rc, "run.json", red, err);
done:
    json_decref(run);
    json_decref(red);
    if (rc_) {
        an_record_free(rc);
        return rc_;
    }
    *out = rc;
    return AN_OK;
}
