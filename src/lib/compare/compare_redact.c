/*
 * Redaction for the evidence pack (`ananke compare --redact`).
 *
 * Rules run in order over every string that goes into the pack: the
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
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/regex.h"
#include "core/json.h"
#include "core/vec.h"
#include "compare/compare_int.h"

#define REDACTED "[redacted]"
#define MIN_SECRET 6

struct rule {
    const char *category; /* static, or owned in env names */
    char *source;         /* "preset:pii", "regex", "env:NAME" */
    struct an_regex *re;  /* NULL for a literal */
    char *literal;
    size_t litlen;
    size_t count;
};

struct touched {
    char *rel;
    size_t count;
};

struct cmp_redactor {
    struct rule *v;
    size_t n, cap;
    struct touched *files;
    size_t nfiles, cap_files;
    size_t cur_ix;
    struct an_arena arena;
    struct an_strmap file_ix; /* rel -> index + 1 into files */
    bool given; /* --redact */
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

static void add_rule(struct cmp_redactor *r, const char *category, const char *source,
                     struct an_regex *re, const char *literal)
{
    AN_GROW(r->v, r->n, r->cap);
    struct rule *u = &r->v[r->n++];
    memset(u, 0, sizeof *u);
    u->category = category;
    u->source = an_xstrdup(source);
    u->re = re;
    if (literal) {
        u->literal = an_xstrdup(literal);
        u->litlen = strlen(literal);
    }
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
    r->cur_ix = (size_t)-1;
    an_strmap_init(&r->file_ix, &r->arena);
    for (size_t i = 0; i < n; i++) {
        const char *s = specs[i];
        bool preset = false;
        for (size_t p = 0; p < sizeof PRESETS / sizeof *PRESETS; p++) {
            if (strcmp(s, PRESETS[p].preset))
                continue;
            preset = true;
            struct an_regex *re = NULL;
            if (an_regex_compile(&re, PRESETS[p].pattern, NULL, err))
                return AN_EREGEX; /* our table: a bug */
            char src[32];
            snprintf(src, sizeof src, "preset:%s", PRESETS[p].preset);
            add_rule(r, PRESETS[p].category, src, re, NULL);
        }
        if (preset) {
            preset_word(r, s);
        } else {
            struct an_regex *re = NULL;
            if (!s[0])
                return an_fail(err, AN_EUSAGE, NULL,
                               "--redact needs a preset (pii, secrets) or a regex");
            if (an_regex_compile(&re, s, NULL, err)) {
                an_err_prefix(err, "--redact: ");
                return AN_EREGEX;
            }
            add_rule(r, "custom", "regex", re, NULL);
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
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].literal && !strcmp(r->v[i].literal, value))
            return;
    char src[160];
    snprintf(src, sizeof src, "env:%.150s", env_name);
    add_rule(r, "env_secret", src, NULL, value);
    if (!r->given)
        preset_word(r, "env_secrets");
}

void cmp_redactor_free(struct cmp_redactor *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        free(r->v[i].source);
        an_regex_free(r->v[i].re);
        if (r->v[i].literal) /* wipe: it is a secret */
            memset(r->v[i].literal, 0, r->v[i].litlen);
        free(r->v[i].literal);
    }
    free(r->v);
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

static void counted(struct cmp_redactor *r, struct rule *u)
{
    u->count++;
    if (r->cur_ix != (size_t)-1)
        r->files[r->cur_ix].count++;
}

/* One rule over in[0..n): the result in out; false when nothing matched. */
static bool apply(struct cmp_redactor *r, struct rule *u, const char *in, size_t n,
                  struct an_buf *out)
{
    bool hit = false;
    size_t from = 0;
    if (u->literal) {
        for (size_t i = 0; u->litlen && i + u->litlen <= n;) {
            if (memcmp(in + i, u->literal, u->litlen)) {
                i++;
                continue;
            }
            an_buf_append(out, in + from, i - from);
            an_buf_puts(out, REDACTED);
            i += u->litlen;
            from = i;
            hit = true;
            counted(r, u);
        }
    } else {
        pcre2_code *code = u->re->code;
        pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
        if (!md)
            an_oom();
        size_t at = 0;
        while (at <= n) {
            int m = pcre2_match(code, (PCRE2_SPTR)in, n, at, 0, md, NULL);
            if (m < 0)
                break;
            PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
            size_t s = ov[0], e = ov[1];
            if (m > 1 && ov[2] != PCRE2_UNSET) {
                s = ov[2];
                e = ov[3];
            }
            if (e > s && s >= from) {
                an_buf_append(out, in + from, s - from);
                an_buf_puts(out, REDACTED);
                from = e;
                hit = true;
                counted(r, u);
            }
            at = ov[1] > at ? ov[1] : at + 1;
        }
        pcre2_match_data_free(md);
    }
    if (hit)
        an_buf_append(out, in + from, n - from);
    return hit;
}

char *cmp_redact(struct cmp_redactor *r, const char *s, size_t n, size_t *outlen)
{
    if (!cmp_redactor_active(r) || !s)
        return NULL;
    char *cur = NULL;
    size_t curlen = n;
    for (size_t i = 0; i < r->n; i++) {
        struct an_buf out = AN_BUF_INIT;
        if (apply(r, &r->v[i], cur ? cur : s, curlen, &out)) {
            free(cur);
            cur = an_buf_detach(&out, &curlen);
        } else {
            an_buf_release(&out);
        }
    }
    if (cur && outlen)
        *outlen = curlen;
    return cur;
}

static bool pack_path_member(const char *k)
{
    size_t n = strlen(k);
    return !strcmp(k, "manifest_key") || !strcmp(k, "rel_path") ||
           (n > 5 && !strcmp(k + n - 5, "_href")) || (n > 4 && !strcmp(k + n - 4, "_key") &&
                                                       (!strncmp(k, "baseline_", 9) ||
                                                        !strncmp(k, "new_", 4) ||
                                                        !strncmp(k, "replay_", 7) ||
                                                        !strncmp(k, "repro_", 6) ||
                                                        !strncmp(k, "config_", 7)));
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
    for (size_t i = 0; r && i < r->n; i++) {
        if (!r->v[i].literal || !b->len)
            continue;
        struct an_buf out = AN_BUF_INIT;
        if (apply(r, &r->v[i], b->data, b->len, &out)) {
            an_buf_release(b);
            *b = out;
        } else {
            an_buf_release(&out);
        }
    }
}

json_t *cmp_redactor_summary(const struct cmp_redactor *r)
{
    json_t *o = json_object(), *rules = json_array(), *cats = json_object(),
           *touched = json_array();
    size_t total = 0;
    for (size_t i = 0; r && i < r->n; i++) {
        const struct rule *u = &r->v[i];
        json_array_append_new(rules, json_pack("{s:s, s:o, s:I}", "category", u->category,
                                               "source",
                                               an_json_lossy(u->source, strlen(u->source)),
                                               "count", (json_int_t)u->count));
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
    json_object_set_new(o, "redaction_status", json_string(cmp_redactor_active(r) ? "applied"
                                                                                  : "none"));
    const char *pid = cmp_redactor_preset_id(r);
    json_object_set_new(o, "redaction_preset_id", pid ? json_string(pid) : json_null());
    json_object_set_new(o, "replacement", json_string(REDACTED));
    json_object_set_new(o, "rules", rules);
    json_object_set_new(o, "categories", cats);
    json_object_set_new(o, "total", json_integer((json_int_t)total));
    json_object_set_new(o, "touched_files", touched);
    return o;
}
