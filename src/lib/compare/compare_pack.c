/*
 * The evidence pack on disk (seed 004's "portable report directory"):
 *
 *   report.html  compare-report.json  case-<id>.html ...
 *   baseline/ new/      raw copies of the recorded files compare read:
 *                       run.json, results.json, redactions.json and each
 *                       test's tests/<slug>/{result.json,frames.jsonl,vars.json}
 *   assets/             derived per-case files: final_output/<id>/<side>.json,
 *                       failure_summary/<id>/<side>.json, and case_response/
 *                       when a record has no tests/<slug>/result.json
 *   repro/              ananke.config.yaml (new/run.json's target),
 *                       baseline.config.yaml, <id>.json (the command)
 *   artifacts/          manifest.json (every other file: key, path, media
 *                       type, bytes, SHA-256), redaction-summary.json
 *
 * Every file goes through cmp_pack_put: redacted, written, hashed and
 * listed. The pack is built in a temporary sibling of REPORT_DIR and moved
 * into place when complete, so a reader never sees half of one and a
 * failed run leaves the previous pack as it was. The inputs are only read;
 * a REPORT_DIR that is, holds or lies in an input is refused.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"
#include "core/nofollow.h"
#include "core/sha256.h"
#include "core/tmpdir.h"
#include "core/vec.h"
#include "compare/compare_int.h"
#include "report/report_util.h"

/* A recorded file larger than this is not copied (a clean error). */
#define CMP_MAX_FILE (256u << 20)

/* --- files ------------------------------------------------------------------ */

/* The directories of root/rel. */
static int mkdirs(const char *root, const char *rel, struct an_err *err)
{
    const char *slash = strrchr(rel, '/');
    if (!slash)
        return 0;
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "%s/", root);
    an_buf_append(&b, rel, (size_t)(slash - rel));
    int rc = an_mkdir_p(b.data, b.len, err);
    an_buf_release(&b);
    return rc;
}

int cmp_pack_put(struct cmp_pack *p, const char *rel, const char *key, const char *media,
                 struct an_buf *data, struct an_err *err)
{
    cmp_redactor_file(p->red, rel);
    cmp_redact_bytes(p->red, data);
    struct an_buf path = AN_BUF_INIT;
    an_buf_printf(&path, "%s/%s", p->root, rel);
    /* the file's directory made when it is missing, not before every file
     * (a pack of 10,000 cases writes 50,000 into a few) */
    FILE *f = fopen(an_buf_cstr(&path), "wb");
    int rc = 0;
    if (!f && errno == ENOENT && !(rc = mkdirs(p->root, rel, err)))
        f = fopen(an_buf_cstr(&path), "wb");
    if (rc) {
        an_buf_release(&path);
        return rc;
    }
    if (!f || (data->len && fwrite(data->data, 1, data->len, f) != data->len) || fclose(f)) {
        rc = an_fail(err, AN_EIO, NULL, "cannot write '%s': %s", an_buf_cstr(&path),
                     strerror(errno));
        an_buf_release(&path);
        return rc;
    }
    an_buf_release(&path);
    if (!key)
        return 0;
    AN_GROW(p->v, p->n, p->cap);
    struct cmp_entry *e = &p->v[p->n++];
    e->key = an_xstrdup(key);
    e->rel = an_xstrdup(rel);
    e->media = an_xstrdup(media);
    e->bytes = data->len;
    an_sha256_hex(data->data ? data->data : "", data->len, e->sha256);
    an_strmap_put(&p->by_key, key, e->rel);
    an_strmap_put(&p->by_rel, rel, e->rel);
    return 0;
}

int cmp_pack_put_json(struct cmp_pack *p, const char *rel, const char *key, json_t *v,
                      struct an_err *err)
{
    cmp_redactor_file(p->red, rel);
    cmp_redact_json(p->red, v);
    char *s = an_json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, s);
    an_buf_putc(&b, '\n');
    free(s);
    int rc = cmp_pack_put(p, rel, key, "application/json", &b, err);
    an_buf_release(&b);
    return rc;
}

void cmp_pack_plan(struct cmp_pack *p, const char *rel, const char *key, const char *media)
{
    AN_GROW(p->planned, p->nplanned, p->cap_planned);
    struct cmp_entry *e = &p->planned[p->nplanned++];
    memset(e, 0, sizeof *e);
    e->key = an_xstrdup(key);
    e->rel = an_xstrdup(rel);
    e->media = an_xstrdup(media);
    /* a file written already keeps its entry */
    if (!an_strmap_get(&p->by_key, key))
        an_strmap_put(&p->by_key, key, e->rel);
    if (!an_strmap_get(&p->by_rel, rel))
        an_strmap_put(&p->by_rel, rel, e->rel);
}

const char *cmp_pack_rel(const struct cmp_pack *p, const char *key)
{
    return key ? an_strmap_get(&p->by_key, key) : NULL;
}

bool cmp_pack_has_file(const struct cmp_pack *p, const char *rel)
{
    if (an_strmap_get(&p->by_rel, rel))
        return true; /* written (or to be) by this run */
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "%s/%s", p->root, rel);
    struct stat st;
    /* lstat: a symlink would point out of the pack */
    bool ok = !lstat(an_buf_cstr(&b), &st) && S_ISREG(st.st_mode);
    an_buf_release(&b);
    return ok;
}

static void unescape_attr(struct an_buf *out, const char *s, size_t n)
{
    static const struct {
        const char *ent;
        char c;
    } ents[] = {{"&amp;", '&'}, {"&quot;", '"'}, {"&#39;", '\''}, {"&lt;", '<'}, {"&gt;", '>'}};
    for (size_t i = 0; i < n; i++) {
        size_t k = s[i] == '&' ? 0 : sizeof ents / sizeof *ents;
        for (; k < sizeof ents / sizeof *ents; k++) {
            size_t len = strlen(ents[k].ent);
            if (i + len <= n && !strncmp(s + i, ents[k].ent, len)) {
                an_buf_putc(out, ents[k].c);
                i += len - 1;
                break;
            }
        }
        if (k == sizeof ents / sizeof *ents)
            an_buf_putc(out, s[i]);
    }
}

void cmp_pack_scan_links(struct cmp_pack *p, const char *page, const char *html, size_t n)
{
    static const char *const attrs[] = {" href=\"", " src=\"", " action=\"", NULL};
    for (size_t i = 0; i < n; i++) {
        /* every attribute starts with a space: the bytes between are
         * skipped, not compared three times each (a tenth of compare's
         * time was this loop) */
        const char *sp = memchr(html + i, ' ', n - i);
        if (!sp)
            return;
        i = (size_t)(sp - html);
        for (size_t a = 0; attrs[a]; a++) {
            size_t len = strlen(attrs[a]);
            if (i + len > n || strncmp(html + i, attrs[a], len))
                continue;
            const char *v = html + i + len;
            const char *end = memchr(v, '"', n - i - len);
            if (!end)
                return;
            struct an_buf b = AN_BUF_INIT;
            unescape_attr(&b, v, (size_t)(end - v));
            AN_GROW(p->links, p->nlinks, p->cap_links);
            p->links[p->nlinks].where = an_xstrdup(page);
            p->links[p->nlinks++].href = an_buf_detach(&b, NULL);
            i = (size_t)(end - html);
            break;
        }
    }
}

void cmp_pack_release(struct cmp_pack *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->v[i].key);
        free(p->v[i].rel);
        free(p->v[i].media);
    }
    free(p->v);
    for (size_t i = 0; i < p->nplanned; i++) {
        free(p->planned[i].key);
        free(p->planned[i].rel);
        free(p->planned[i].media);
    }
    free(p->planned);
    for (size_t i = 0; i < p->nlinks; i++) {
        free(p->links[i].where);
        free(p->links[i].href);
    }
    free(p->links);
    free(p->root);
    an_arena_release(&p->arena);
}

/* --- copies of the recorded files -------------------------------------------- */

static const char *media_of(const char *rel)
{
    size_t n = strlen(rel);
    if (n > 6 && !strcmp(rel + n - 6, ".jsonl"))
        return "application/x-ndjson";
    if (n > 5 && !strcmp(rel + n - 5, ".json"))
        return "application/json";
    if (n > 5 && !strcmp(rel + n - 5, ".html"))
        return "text/html";
    if (n > 5 && !strcmp(rel + n - 5, ".yaml"))
        return "application/yaml";
    return "application/octet-stream";
}

/* Redact a file's content by its structure: each string of a JSON
 * document or of each JSON line; text that is not JSON as a whole. */
static void redact_content(struct cmp_redactor *r, struct an_buf *b, bool lines)
{
    if (!cmp_redactor_active(r) || !b->len)
        return;
    struct an_buf out = AN_BUF_INIT;
    size_t start = 0;
    while (start < b->len) {
        size_t end = b->len;
        if (lines) {
            const char *nl = memchr(b->data + start, '\n', b->len - start);
            end = nl ? (size_t)(nl - b->data) : b->len;
        }
        json_t *v =
            json_loadb(b->data + start, end - start, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
        if (v) {
            cmp_redact_json(r, v);
            char *s = an_json_dumps(v, lines ? JSON_COMPACT : JSON_INDENT(2) | JSON_PRESERVE_ORDER);
            an_buf_puts(&out, s);
            free(s);
            json_decref(v);
        } else {
            size_t n = 0;
            char *s = cmp_redact(r, b->data + start, end - start, &n);
            if (s)
                an_buf_append(&out, s, n);
            else
                an_buf_append(&out, b->data + start, end - start);
            free(s);
        }
        if (end < b->len || !lines)
            an_buf_putc(&out, '\n');
        start = end + 1;
    }
    an_buf_release(b);
    *b = out;
}

/* dir/src copied to the pack as rel under key; AN_OK when src is absent. */
static int copy_recorded(struct cmp_pack *p, const char *dir, const char *src, const char *rel,
                         const char *key, bool *copied, struct an_err *err)
{
    struct an_buf path = AN_BUF_INIT, data = AN_BUF_INIT;
    an_buf_printf(&path, "%s/%s", dir, src);
    int rc = 0;
    if (copied)
        *copied = false;
    /* a link is never followed (nor copied): compare_pair.c reported the
     * case's data missing */
    if (an_nf_kind(dir, src) != AN_NF_FILE)
        goto done;
    if ((rc = an_nf_read(dir, src, CMP_MAX_FILE, &data, err)))
        goto done;
    cmp_redactor_file(p->red, rel);
    size_t n = strlen(rel);
    redact_content(p->red, &data, n > 6 && !strcmp(rel + n - 6, ".jsonl"));
    if (!(rc = cmp_pack_put(p, rel, key, media_of(rel), &data, err)) && copied)
        *copied = true;
done:
    an_buf_release(&path);
    an_buf_release(&data);
    return rc;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    struct an_buf out = AN_BUF_INIT;
    va_list ap;
    va_start(ap, f);
    an_buf_vprintf(&out, f, ap);
    va_end(ap);
    return an_buf_detach(&out, NULL);
}

static void side_art(struct cmp_pack *p, struct cmp_side *s, enum cmp_art art, const char *key)
{
    const char *rel = cmp_pack_rel(p, key);
    if (!rel)
        return;
    free(s->href[art]);
    free(s->key[art]);
    s->href[art] = an_xstrdup(rel);
    s->key[art] = an_xstrdup(key);
}

static json_t *final_output(const struct cmp_item *it, int side, const struct an_test_result *t)
{
    char *joined = NULL;
    const char *text = an_scope_test(&t->transcript, &joined).text;
    json_t *turns = json_array();
    for (size_t i = 0; i < t->transcript.nturns; i++) {
        const char *x = t->transcript.turns[i].text;
        json_array_append_new(turns, json_pack("{s:I, s:o}", "turn", (json_int_t)(i + 1), "text",
                                               an_json_lossy(x ? x : "", x ? strlen(x) : 0)));
    }
    json_t *o = json_pack("{s:o, s:s, s:s, s:o, s:o}", "case_id",
                          an_json_lossy(it->case_id, strlen(it->case_id)), "side",
                          cmp_side_name[side], "content_type", "text", "content",
                          an_json_lossy(text ? text : "", text ? strlen(text) : 0), "turns", turns);
    free(joined);
    return o;
}

static int side_files(struct an_compare *c, struct cmp_pack *p, struct cmp_item *it, int k,
                      struct an_err *err)
{
    struct cmp_side *s = &it->side[k];
    const struct cmp_run *run = &c->run[k];
    const char *sn = cmp_side_name[k];
    int rc = 0;
    char *src = NULL, *rel = NULL, *key = NULL;
    static const struct {
        const char *file;
        enum cmp_art art;
    } rec[] = {{"result.json", CMP_ART_CASE_RESPONSE},
               {"frames.jsonl", CMP_ART_FRAMES},
               {"vars.json", CMP_ART_VARS}};
    for (size_t i = 0; s->slug && i < sizeof rec / sizeof *rec && !rc; i++) {
        src = fmt("tests/%s/%s", s->slug, rec[i].file);
        rel = fmt("%s/%s", sn, src);
        key = fmt("%s/%s/%s", it->fid, sn, cmp_art_name[rec[i].art]);
        bool copied;
        rc = copy_recorded(p, run->dir, src, rel, key, &copied, err);
        if (copied)
            side_art(p, s, rec[i].art, key);
        free(src);
        free(rel);
        free(key);
        src = rel = key = NULL;
    }
    if (rc || !s->t)
        return rc;
    if (!s->href[CMP_ART_CASE_RESPONSE]) {
        /* no tests/<slug>/result.json: the same object from results.json */
        size_t ix = (size_t)(s->t - run->res.tests);
        json_t *v = json_deep_copy(json_array_get(json_object_get(run->doc, "tests"), ix));
        rel = fmt("assets/case_response/%s/%s.json", it->fid, sn);
        key = fmt("%s/%s/%s", it->fid, sn, "case_response");
        if (v && !(rc = cmp_pack_put_json(p, rel, key, v, err)))
            side_art(p, s, CMP_ART_CASE_RESPONSE, key);
        json_decref(v);
        free(rel);
        free(key);
        if (rc)
            return rc;
    }
    rel = fmt("assets/final_output/%s/%s.json", it->fid, sn);
    key = fmt("%s/%s/%s", it->fid, sn, "final_output");
    json_t *fo = final_output(it, k, s->t);
    if (!(rc = cmp_pack_put_json(p, rel, key, fo, err)))
        side_art(p, s, CMP_ART_FINAL_OUTPUT, key);
    json_decref(fo);
    free(rel);
    free(key);
    if (rc || !s->failed_run)
        return rc;
    const struct cmp_failure *f = &s->failure;
    json_t *fs = json_pack(
        "{s:o, s:s, s:s, s:o, s:I, s:I}", "case_id",
        an_json_lossy(it->case_id, strlen(it->case_id)), "side", sn, "class", f->cls, "message",
        f->message ? an_json_lossy(f->message, strlen(f->message)) : json_null(), "attempts",
        (json_int_t)f->attempts, "turn", (json_int_t)(f->turn >= 0 ? f->turn + 1 : 0));
    json_object_set_new(fs, "code", json_string(f->code));
    if (f->http_status)
        json_object_set_new(fs, "http_status", json_integer(f->http_status));
    if (f->timeout_ms)
        json_object_set_new(fs, "timeout_ms", json_integer(f->timeout_ms));
    if (f->net_error_kind)
        json_object_set_new(fs, "net_error_kind",
                            an_json_lossy(f->net_error_kind, strlen(f->net_error_kind)));
    rel = fmt("assets/failure_summary/%s/%s.json", it->fid, sn);
    key = fmt("%s/%s/%s", it->fid, sn, "failure_summary");
    if (!(rc = cmp_pack_put_json(p, rel, key, fs, err)))
        side_art(p, s, CMP_ART_FAILURE_SUMMARY, key);
    json_decref(fs);
    free(rel);
    free(key);
    return rc;
}

static int run_files(struct an_compare *c, struct cmp_pack *p, struct an_err *err)
{
    static const struct {
        const char *file, *kind;
    } files[] = {
        {"run.json", "run_meta"}, {"results.json", "results"}, {"redactions.json", "redactions"}};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
            char *rel = fmt("%s/%s", cmp_side_name[k], files[i].file);
            char *key = fmt("run/%s/%s", cmp_side_name[k], files[i].kind);
            int rc = copy_recorded(p, c->run[k].dir, files[i].file, rel, key, NULL, err);
            free(rel);
            free(key);
            if (rc)
                return rc;
        }
    return 0;
}

/* --- repro -------------------------------------------------------------------- */

/* A PCRE2 pattern matching exactly s. */
static void regex_quote(struct an_buf *b, const char *s)
{
    for (; *s; s++) {
        if (strchr("\\^$.|?*+()[]{}", *s))
            an_buf_putc(b, '\\');
        an_buf_putc(b, *s);
    }
}

/* s as one POSIX shell word. */
static void shell_quote(struct an_buf *b, const char *s)
{
    an_buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            an_buf_puts(b, "'\\''");
        else
            an_buf_putc(b, *s);
    }
    an_buf_putc(b, '\'');
}

char *cmp_repro_command(const struct cmp_item *it, const char *config)
{
    struct an_buf b = AN_BUF_INIT, re = AN_BUF_INIT;
    an_buf_printf(&b, "ananke run -c %s --filter ", config);
    an_buf_putc(&re, '^');
    regex_quote(&re, it->name ? it->name : it->case_id);
    an_buf_putc(&re, '$');
    shell_quote(&b, an_buf_cstr(&re));
    if (it->file) {
        an_buf_putc(&b, ' ');
        shell_quote(&b, it->file);
    }
    an_buf_release(&re);
    return an_buf_detach(&b, NULL);
}

static int repro_config(struct cmp_pack *p, const struct cmp_run *run, const char *side,
                        const char *rel, const char *key, struct an_err *err)
{
    json_t *target = json_deep_copy(json_object_get(run->meta, "target"));
    if (!json_is_object(target)) {
        json_decref(target);
        return 0;
    }
    cmp_redactor_file(p->red, rel);
    cmp_redact_json(p->red, target);
    char *t = an_json_dumps(target, JSON_COMPACT | JSON_PRESERVE_ORDER);
    /* the config's reusable blocks, as the recording kept them: a test that
     * `extends` one loads with this config */
    const char *as = an_json_str(json_object_get(run->meta, "config"), "assertions");
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b,
                  "# The target of the %s run, as recorded in %s/run.json: secrets are\n"
                  "# ${ENV.NAME} templates, export them before running. The config's\n"
                  "# reusable assertion blocks (assertions:) follow when it had some; a\n"
                  "# suite that needs more of its config (agents:, hooks) needs the original\n"
                  "# config (its path and SHA-256 are in each repro/<case>.json).\n"
                  "version: \"1.0\"\ntarget: %s\n",
                  side, side, t);
    if (as && !strncmp(as, "assertions:", 11)) {
        char *red = cmp_redact(p->red, as, strlen(as), NULL);
        an_buf_puts(&b, red ? red : as);
        an_buf_putc(&b, '\n');
        free(red);
    }
    free(t);
    json_decref(target);
    int rc = cmp_pack_put(p, rel, key, "application/yaml", &b, err);
    an_buf_release(&b);
    return rc;
}

static int repro_files(struct an_compare *c, struct cmp_pack *p, struct an_err *err)
{
    int rc;
    if ((rc = repro_config(p, &c->run[CMP_NEW], "new", "repro/ananke.config.yaml", "repro/config",
                           err)) ||
        (rc = repro_config(p, &c->run[CMP_BASE], "baseline", "repro/baseline.config.yaml",
                           "repro/baseline_config", err)))
        return rc;
    const char *cfg = cmp_pack_rel(p, "repro/config");
    const char *bcfg = cmp_pack_rel(p, "repro/baseline_config");
    for (size_t i = 0; i < c->nitems && !rc; i++) {
        struct cmp_item *it = &c->items[i];
        json_t *o = json_object();
        json_object_set_new(o, "case_id", an_json_lossy(it->case_id, strlen(it->case_id)));
        json_object_set_new(o, "name",
                            it->name ? an_json_lossy(it->name, strlen(it->name)) : json_null());
        json_object_set_new(o, "file",
                            it->file ? an_json_lossy(it->file, strlen(it->file)) : json_null());
        if (cfg) {
            char *cmd = cmp_repro_command(it, cfg);
            json_object_set_new(o, "command", an_json_lossy(cmd, strlen(cmd)));
            free(cmd);
            json_object_set_new(o, "config_href", json_string(cfg));
        }
        if (bcfg) {
            char *cmd = cmp_repro_command(it, bcfg);
            json_object_set_new(o, "baseline_command", an_json_lossy(cmd, strlen(cmd)));
            free(cmd);
            json_object_set_new(o, "baseline_config_href", json_string(bcfg));
        }
        json_object_set_new(o, "note",
                            json_string("run from the project directory (test paths are "
                                        "relative to it), with the config path made relative "
                                        "to it"));
        for (int k = 0; k < 2; k++) {
            json_t *m = c->run[k].meta;
            json_t *r = json_object();
            json_object_set(r, "target",
                            json_object_get(m, "target") ? json_object_get(m, "target")
                                                         : json_null());
            json_object_set(r, "config",
                            json_object_get(m, "config") ? json_object_get(m, "config")
                                                         : json_null());
            json_object_set(r, "options",
                            json_object_get(m, "options") ? json_object_get(m, "options")
                                                          : json_null());
            json_object_set_new(o, k == CMP_BASE ? "baseline_recorded" : "new_recorded", r);
        }
        /* the target blocks are shared with run.json: redact a copy */
        json_t *copy = json_deep_copy(o);
        json_decref(o);
        char *rel = fmt("repro/%s.json", it->fid);
        char *key = fmt("%s/repro", it->fid);
        if (!(rc = cmp_pack_put_json(p, rel, key, copy, err))) {
            free(it->repro_href);
            it->repro_href = an_xstrdup(rel);
        }
        json_decref(copy);
        free(rel);
        free(key);
    }
    return rc;
}

/* --- where the pack goes -------------------------------------------------------- */

/* path made absolute and canonical, whether or not its last parts exist:
 * the longest existing prefix through realpath, the rest appended with
 * "." and ".." applied. */
static char *canonical(const char *path)
{
    struct an_buf abs = AN_BUF_INIT;
    if (path[0] != '/') {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            return NULL;
        an_buf_printf(&abs, "%s/", cwd);
    }
    an_buf_puts(&abs, path);
    /* split into parts, applying . and .. textually first */
    char *s = an_buf_detach(&abs, NULL);
    char **parts = an_xcalloc(strlen(s) + 1, sizeof *parts);
    size_t np = 0;
    for (char *tok = s, *next; tok; tok = next) {
        next = strchr(tok, '/');
        if (next)
            *next++ = '\0';
        if (!*tok || !strcmp(tok, "."))
            continue;
        if (!strcmp(tok, "..")) {
            if (np)
                np--;
            continue;
        }
        parts[np++] = tok;
    }
    /* resolve the longest existing prefix */
    char *out = NULL;
    for (size_t k = np + 1; k-- > 0;) {
        struct an_buf pre = AN_BUF_INIT;
        an_buf_putc(&pre, '/');
        for (size_t i = 0; i < k; i++)
            an_buf_printf(&pre, "%s%s", i ? "/" : "", parts[i]);
        char real[PATH_MAX];
        if (realpath(an_buf_cstr(&pre), real)) {
            struct an_buf r = AN_BUF_INIT;
            an_buf_puts(&r, real);
            for (size_t i = k; i < np; i++)
                an_buf_printf(&r, "%s%s", r.len && r.data[r.len - 1] == '/' ? "" : "/", parts[i]);
            out = an_buf_detach(&r, NULL);
            an_buf_release(&pre);
            break;
        }
        an_buf_release(&pre);
    }
    free(parts);
    free(s);
    return out;
}

/* a is b or lies below it */
static bool within(const char *a, const char *b)
{
    size_t n = strlen(b);
    if (n == 1 && b[0] == '/')
        return true;
    return !strncmp(a, b, n) && (a[n] == '\0' || a[n] == '/');
}

static bool dir_empty(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    bool empty = d != NULL;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            empty = false;
            break;
        }
    if (d)
        closedir(d);
    return empty;
}

static bool is_pack(const char *path)
{
    struct an_buf a = AN_BUF_INIT, b = AN_BUF_INIT;
    an_buf_printf(&a, "%s/compare-report.json", path);
    an_buf_printf(&b, "%s/artifacts/manifest.json", path);
    bool yes = !access(an_buf_cstr(&a), F_OK) && !access(an_buf_cstr(&b), F_OK);
    an_buf_release(&a);
    an_buf_release(&b);
    return yes;
}

static int check_target(const struct an_compare *c, const char *out, char **canon_out,
                        struct an_err *err)
{
    char *o = canonical(out);
    if (!o)
        return an_fail(err, AN_EIO, NULL, "cannot resolve '%s': %s", out, strerror(errno));
    for (int k = 0; k < 2; k++) {
        char *in = canonical(c->run[k].dir);
        bool bad = in && (within(o, in) || within(in, o));
        free(in);
        if (bad) {
            free(o);
            return an_fail(err, AN_EUSAGE, NULL,
                           "refusing to write the report into '%s': it is, holds or lies "
                           "inside the %s run '%s' (compare never modifies its inputs)",
                           out, cmp_side_name[k], c->run[k].dir);
        }
    }
    struct stat st;
    if (!stat(o, &st)) {
        if (!S_ISDIR(st.st_mode)) {
            free(o);
            return an_fail(err, AN_EUSAGE, NULL, "'%s' exists and is not a directory", out);
        }
        if (!is_pack(o) && !dir_empty(o)) {
            /* someone's files: left alone */
            free(o);
            return an_fail(err, AN_EUSAGE, NULL,
                           "'%s' is not empty and holds no compare report: refusing to "
                           "replace it",
                           out);
        }
    }
    *canon_out = o;
    return 0;
}

/* --- the whole pack ------------------------------------------------------------ */

static int write_page(struct cmp_pack *p, const char *rel, const char *key, struct cmp_page *pg,
                      struct an_err *err)
{
    cmp_pack_scan_links(p, rel, pg->b.data ? pg->b.data : "", pg->b.len);
    return cmp_pack_put(p, rel, key, "text/html", &pg->b, err);
}

static int manifest(struct cmp_pack *p, int64_t now_ms, struct an_err *err)
{
    json_t *items = json_array();
    for (size_t i = 0; i < p->n; i++) {
        const struct cmp_entry *e = &p->v[i];
        json_array_append_new(items, json_pack("{s:s, s:s, s:s, s:I, s:s}", "manifest_key", e->key,
                                               "rel_path", e->rel, "media_type", e->media, "bytes",
                                               (json_int_t)e->bytes, "sha256", e->sha256));
    }
    json_t *m = json_pack("{s:s, s:I, s:o}", "manifest_version", "v1", "generated_at",
                          (json_int_t)now_ms, "items", items);
    char *s = an_json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, s);
    an_buf_putc(&b, '\n');
    free(s);
    json_decref(m);
    int rc = cmp_pack_put(p, "artifacts/manifest.json", NULL, "application/json", &b, err);
    an_buf_release(&b);
    return rc;
}

static int build(struct an_compare *c, struct cmp_pack *p, struct an_err *err)
{
    int rc;
    json_t *report = NULL;
    struct cmp_page pg = {AN_BUF_INIT, c->red, p};
    if ((rc = run_files(c, p, err)))
        goto done;
    for (size_t i = 0; i < c->nitems; i++)
        for (int k = 0; k < 2; k++)
            if ((rc = side_files(c, p, &c->items[i], k, err)))
                goto done;
    if ((rc = repro_files(c, p, err)))
        goto done;
    /* what is written after the checks, so links to it resolve */
    cmp_pack_plan(p, "compare-report.json", "report/json", "application/json");
    cmp_pack_plan(p, "report.html", "report/html", "text/html");
    cmp_pack_plan(p, "artifacts/manifest.json", "artifacts/manifest", "application/json");
    if (cmp_redactor_active(c->red))
        cmp_pack_plan(p, "artifacts/redaction-summary.json", "redaction/summary",
                      "application/json");
    for (size_t i = 0; i < c->nitems; i++) {
        char key[200];
        snprintf(key, sizeof key, "%s/replay_diff", c->items[i].fid);
        cmp_pack_plan(p, c->items[i].diff_href, key, "text/html");
    }
    for (size_t i = 0; i < c->nitems; i++) {
        char key[200];
        struct cmp_item *it = &c->items[i];
        snprintf(key, sizeof key, "%s/replay_diff", it->fid);
        an_buf_reset(&pg.b);
        cmp_html_case(&pg, c, it);
        if ((rc = write_page(p, it->diff_href, key, &pg, err)))
            goto done;
    }
    report = cmp_report_json(c, p);
    /* the overview page once to learn its links, then with the flags that
     * include them (its links do not depend on the flags) */
    an_buf_reset(&pg.b);
    cmp_html_report(&pg, c, report);
    size_t before = p->nlinks;
    cmp_pack_scan_links(p, "report.html", pg.b.data ? pg.b.data : "", pg.b.len);
    json_object_set_new(report, "quality_flags", cmp_quality_flags(report, p, c));
    /* write_page scans the final page again */
    for (size_t i = before; i < p->nlinks; i++) {
        free(p->links[i].where);
        free(p->links[i].href);
    }
    p->nlinks = before;
    an_buf_reset(&pg.b);
    cmp_html_report(&pg, c, report);
    if ((rc = write_page(p, "report.html", "report/html", &pg, err)) ||
        (rc = cmp_pack_put_json(p, "compare-report.json", "report/json", report, err)))
        goto done;
    if (cmp_redactor_active(c->red)) {
        json_t *sum = cmp_redactor_summary(c->red);
        /* its own counts are final before it is written: it holds no value */
        struct cmp_redactor *red = p->red;
        p->red = NULL;
        rc =
            cmp_pack_put_json(p, "artifacts/redaction-summary.json", "redaction/summary", sum, err);
        p->red = red;
        json_decref(sum);
        if (rc)
            goto done;
    }
    rc = manifest(p, c->now_ms, err);
done:
    json_decref(report);
    an_buf_release(&pg.b);
    return rc;
}

int an_compare_write(struct an_compare *c, const char *report_dir, struct an_err *err)
{
    char *target = NULL, *tmp = NULL, *old = NULL;
    struct cmp_pack p = {0};
    int rc;
    if (!report_dir || !report_dir[0])
        return an_fail(err, AN_EUSAGE, NULL, "compare needs a report directory (-o DIR)");
    if ((rc = check_target(c, report_dir, &target, err)))
        return rc;
    /* build next to the target: the final rename stays on one file system */
    char *slash = strrchr(target, '/');
    struct an_buf b = AN_BUF_INIT;
    an_buf_append(&b, target, slash ? (size_t)(slash - target) : 0); /* canonical(): absolute */
    if (b.len && (rc = an_mkdir_p(b.data, b.len, err))) {
        an_buf_release(&b);
        goto done;
    }
    an_buf_printf(&b, "/.%s.tmp-XXXXXX", slash + 1);
    tmp = an_buf_detach(&b, NULL);
    if (!mkdtemp(tmp)) {
        rc = an_fail(err, AN_EIO, NULL, "cannot create a directory next to '%s': %s", report_dir,
                     strerror(errno));
        free(tmp);
        tmp = NULL;
        goto done;
    }
    mode_t um = umask(0);
    umask(um);
    chmod(tmp, 0777 & ~um);
    p.root = an_xstrdup(tmp);
    p.red = c->red;
    an_strmap_init(&p.by_key, &p.arena);
    an_strmap_init(&p.by_rel, &p.arena);
    if ((rc = build(c, &p, err)))
        goto done;
    struct stat st;
    if (!stat(target, &st) && rmdir(target)) {
        /* a previous pack (check_target let only that or an empty
         * directory through): moved aside, replaced, then removed */
        old = fmt("%s.old", tmp);
        if (rename(target, old)) {
            rc = an_fail(err, AN_EIO, NULL, "cannot replace '%s': %s", report_dir, strerror(errno));
            free(old);
            old = NULL;
            goto done;
        }
    }
    if (rename(tmp, target)) {
        rc = an_fail(err, AN_EIO, NULL, "cannot move the report into '%s': %s", report_dir,
                     strerror(errno));
        if (old)
            rename(old, target);
        goto done;
    }
    free(tmp);
    tmp = NULL;
done:
    if (old)
        an_tmpdir_remove(old);
    if (tmp)
        an_tmpdir_remove(tmp);
    free(old);
    free(tmp);
    free(target);
    cmp_pack_release(&p);
    return rc;
}
