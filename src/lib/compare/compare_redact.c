/*
 * Redaction for the evidence pack (`ananke compare --redact`).
 *
 * Rules run in order (run/redact.h an_redact_in_order: the same engine as
 * a recording's redaction) over every string that goes into the pack: the
 * strings of every JSON file (copied or made), every text shown on a page.
 * A rule is a regex whose match (or its capture group 1, so "Bearer" or
 * "api_key=" stays readable) becomes "[redacted]", or a literal: the value
 * of a recorded ${ENV.NAME} secret, which is also searched for in the final
 * bytes of every file as a last net.
 *
 *   pii       e-mail addresses, phone numbers, US social security numbers
 *   secrets   sk-… keys, bearer tokens, api_key=… / token: … / password=…
 *   REGEX     anything else given to --redact (PCRE2, /pattern/flags too)
 *
 * Replacements are counted per rule category and per pack file, for
 * artifacts/redaction-summary.json. Values are never stored or reported.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "core/json.h"
#include "core/vec.h"
#include "run/redact.h"

#define MIN_SECRET 6

/* What the summary says of a rule; the matching is the engine's
 * (run/redact.h): rule i is the redactor's label i. */
struct rule {
    const char *category; /* static */
    char *source;         /* "preset:pii", "regex", "env:NAME" */
    size_t count;
};

struct touched {
    char *rel;
    size_t count;
};

struct cmp_redactor {
    struct an_redactor *eng;
    struct rule *v;
    size_t n, cap;
    size_t *counts; /* per rule, one call's (an_redact_in_order) */
    struct touched *files;
    size_t nfiles, cap_files;
    size_t cur_ix;
    struct an_arena arena;
    struct an_strmap file_ix; /* rel -> index + 1 into files */
    bool given;               /* --redact */
    struct an_buf preset;
};

static const struct {
    const char *preset, *category, *pattern;
} PRESETS[] = {
    {"pii", "ssn", "\\b\\d{3}-\\d{2}-\\d{4}\\b"},
    {"pii", "email", "/\\b[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}\\b/i"},
    {"pii", "phone",
     "(?<![\\w.+-])(?:\\+?\\d{1,3}[-.\\s]?)?\\(?\\d{3}\\)?[-.\\s]?\\d{3}[-.\\s]?\\d{4}(?![\\w-])"},
    {"secrets", "openai_key", "\\bsk-[A-Za-z0-9_-]{10,}"},
    {"secrets", "bearer_token", "/\\bbearer\\s+([a-z0-9._~+\\/=-]{8,})/i"},
    {"secrets", "api_key",
     "/\\b(?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|client[_-]?secret|secret|"
     "password|passwd|token)[\"']?\\s*[=:]\\s*[\"']?([^\\s\"'&,;<>\\\\]{4,})/i"},
};

/* A rule whose matching the engine has just taken under label r->n. */
static void add_rule(struct cmp_redactor *r, const char *category, const char *source)
{
    AN_GROW(r->v, r->n, r->cap);
    r->v[r->n++] = (struct rule){category, an_xstrdup(source), 0};
    r->counts = an_xrealloc(r->counts, r->n * sizeof *r->counts);
}

/* Each rule its own label, whatever its source: two --redact of the same
 * regex are two rules, counted apart. */
static const char *label(struct cmp_redactor *r, char *buf, size_t cap)
{
    snprintf(buf, cap, "compare rule %zu", r->n);
    return buf;
}

static void preset_word(struct cmp_redactor *r, const char *w)
{
    if (strstr(an_buf_cstr(&r->preset), w))
        return;
    if (r->preset.len)
        an_buf_putc(&r->preset, '+');
    an_buf_puts(&r->preset, w);
}

int cmp_redactor_new(struct cmp_redactor **out, const char *const *specs, size_t n,
                     struct an_err *err)
{
    struct cmp_redactor *r = an_xcalloc(1, sizeof *r);
    *out = r;
    r->eng = an_redactor_new();
    r->cur_ix = (size_t)-1;
    an_strmap_init(&r->file_ix, &r->arena);
    char lb[48];
    for (size_t i = 0; i < n; i++) {
        const char *s = specs[i];
        bool preset = false;
        for (size_t p = 0; p < sizeof PRESETS / sizeof *PRESETS; p++) {
            if (strcmp(s, PRESETS[p].preset))
                continue;
            preset = true;
            if (an_redactor_add_pattern(r->eng, label(r, lb, sizeof lb), PRESETS[p].pattern,
                                        AN_REDACT_GROUP1, err))
                return AN_EREGEX; /* our table: a bug */
            char src[32];
            snprintf(src, sizeof src, "preset:%s", PRESETS[p].preset);
            add_rule(r, PRESETS[p].category, src);
        }
        if (preset) {
            preset_word(r, s);
        } else {
            if (!s[0])
                return an_fail(err, AN_EUSAGE, NULL,
                               "--redact needs a preset (pii, secrets) or a regex");
            if (an_redactor_add_pattern(r->eng, label(r, lb, sizeof lb), s, AN_REDACT_GROUP1, err))
                return AN_EREGEX;
            add_rule(r, "custom", "regex");
            preset_word(r, "custom");
        }
        r->given = true;
    }
    return 0;
}

void cmp_redactor_add_secret(struct cmp_redactor *r, const char *env_name, const char *value)
{
    if (!r || !value || strlen(value) < MIN_SECRET)
        return;
    char lb[48];
    /* a value known already (under another name) stays one rule */
    if (an_redactor_add_literal(r->eng, label(r, lb, sizeof lb), value) != AN_REDACT_ADDED)
        return;
    char src[160];
    snprintf(src, sizeof src, "env:%.150s", env_name);
    add_rule(r, "env_secret", src);
    if (!r->given)
        preset_word(r, "env_secrets");
}

void cmp_redactor_free(struct cmp_redactor *r)
{
    if (!r)
        return;
    an_redactor_free(r->eng); /* wipes the secrets */
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i].source);
    free(r->v);
    free(r->counts);
    for (size_t i = 0; i < r->nfiles; i++)
        free(r->files[i].rel);
    free(r->files);
    an_arena_release(&r->arena);
    an_buf_release(&r->preset);
    free(r);
}

bool cmp_redactor_active(const struct cmp_redactor *r)
{
    return r && r->n > 0;
}

const char *cmp_redactor_preset_id(const struct cmp_redactor *r)
{
    return cmp_redactor_active(r) && r->preset.len ? an_buf_cstr(&r->preset) : NULL;
}

void cmp_redactor_file(struct cmp_redactor *r, const char *rel)
{
    if (!cmp_redactor_active(r))
        return;
    r->cur_ix = (size_t)-1;
    if (!rel)
        return;
    uintptr_t ix = (uintptr_t)an_strmap_get(&r->file_ix, rel); /* index + 1 */
    if (!ix) {
        AN_GROW(r->files, r->nfiles, r->cap_files);
        r->files[r->nfiles].rel = an_xstrdup(rel);
        r->files[r->nfiles].count = 0;
        ix = ++r->nfiles;
        an_strmap_put(&r->file_ix, rel, (void *)ix);
    }
    r->cur_ix = ix - 1;
}

/* The engine's replacements, rules in order: counted per rule and for the
 * current file. NULL when nothing matched. */
static char *run_rules(struct cmp_redactor *r, const char *s, size_t n, unsigned what,
                       size_t *outlen)
{
    memset(r->counts, 0, r->n * sizeof *r->counts);
    char *out = an_redact_in_order(r->eng, s, n, what, r->counts, outlen);
    for (size_t i = 0; out && i < r->n; i++) {
        r->v[i].count += r->counts[i];
        if (r->cur_ix != (size_t)-1)
            r->files[r->cur_ix].count += r->counts[i];
    }
    return out;
}

char *cmp_redact(struct cmp_redactor *r, const char *s, size_t n, size_t *outlen)
{
    if (!cmp_redactor_active(r) || !s)
        return NULL;
    return run_rules(r, s, n, AN_REDACT_PATTERNS, outlen);
}

static bool pack_path_member(const char *k)
{
    size_t n = strlen(k);
    return !strcmp(k, "manifest_key") || !strcmp(k, "rel_path") ||
           (n > 5 && !strcmp(k + n - 5, "_href")) ||
           (n > 4 && !strcmp(k + n - 4, "_key") &&
            (!strncmp(k, "baseline_", 9) || !strncmp(k, "new_", 4) || !strncmp(k, "replay_", 7) ||
             !strncmp(k, "repro_", 6) || !strncmp(k, "config_", 7)));
}

static void redact_value(struct cmp_redactor *r, json_t *v, int depth)
{
    const char *k;
    json_t *x;
    size_t i;
    if (depth > 64)
        return;
    if (json_is_object(v)) {
        json_object_foreach(v, k, x)
        {
            if (!(json_is_string(x) && pack_path_member(k)))
                redact_value(r, x, depth + 1);
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, x) redact_value(r, x, depth + 1);
    } else if (json_is_string(v)) {
        size_t n = 0;
        char *s = cmp_redact(r, json_string_value(v), json_string_length(v), &n);
        if (s && json_string_setn(v, s, n)) {
            /* a regex cut a character in two: mend it */
            char *fixed = an_utf8_lossy(s, n);
            json_string_set(v, fixed);
            free(fixed);
        }
        free(s);
    }
}

void cmp_redact_json(struct cmp_redactor *r, json_t *v)
{
    if (cmp_redactor_active(r))
        redact_value(r, v, 0);
}

void cmp_redact_bytes(struct cmp_redactor *r, struct an_buf *b)
{
    if (!cmp_redactor_active(r) || !b->len)
        return;
    size_t n = 0;
    char *out = run_rules(r, b->data, b->len, 0, &n);
    if (!out)
        return;
    struct an_buf nb = AN_BUF_INIT;
    an_buf_append(&nb, out, n);
    free(out);
    an_buf_release(b);
    *b = nb;
}

json_t *cmp_redactor_summary(const struct cmp_redactor *r)
{
    json_t *o = json_object(), *rules = json_array(), *cats = json_object(),
           *touched = json_array();
    size_t total = 0;
    for (size_t i = 0; r && i < r->n; i++) {
        const struct rule *u = &r->v[i];
        json_array_append_new(rules, json_pack("{s:s, s:o, s:I}", "category", u->category, "source",
                                               an_json_lossy(u->source, strlen(u->source)), "count",
                                               (json_int_t)u->count));
        json_int_t had = json_integer_value(json_object_get(cats, u->category));
        json_object_set_new(cats, u->category, json_integer(had + (json_int_t)u->count));
        total += u->count;
    }
    for (size_t i = 0; r && i < r->nfiles; i++)
        if (r->files[i].count)
            json_array_append_new(touched,
                                  json_pack("{s:o, s:I}", "rel_path",
                                            an_json_lossy(r->files[i].rel, strlen(r->files[i].rel)),
                                            "count", (json_int_t)r->files[i].count));
    json_object_set_new(o, "summary_version", json_string("v1"));
    json_object_set_new(o, "redaction_status",
                        json_string(cmp_redactor_active(r) ? "applied" : "none"));
    const char *pid = cmp_redactor_preset_id(r);
    json_object_set_new(o, "redaction_preset_id", pid ? json_string(pid) : json_null());
    json_object_set_new(o, "replacement", json_string(AN_REDACTED));
    json_object_set_new(o, "rules", rules);
    json_object_set_new(o, "categories", cats);
    json_object_set_new(o, "total", json_integer((json_int_t)total));
    json_object_set_new(o, "touched_files", touched);
    return o;
}
