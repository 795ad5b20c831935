/* Redaction of secrets and patterns (redact.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "run/redact.h"

#include <pcre2.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/regex.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/vec.h"

/* One way a secret is written: as is, or escaped for JSON. */
struct form {
    char *s;
    size_t n;
    size_t label;
};

struct pattern {
    struct an_regex *re;
    size_t label;
    bool utf;              /* compiled with the u flag: step over whole characters */
    bool group1;           /* AN_REDACT_GROUP1: replace capture group 1 when it took part */
    atomic_size_t gave_up; /* texts redacted whole: PCRE2 gave up on them */
};

struct an_redactor {
    char **labels;
    size_t nlabels, cap_labels;
    char **values; /* every secret added, as given: to know it again */
    size_t nvalues, cap_values;
    struct form *forms;
    size_t nforms, cap_forms;
    struct pattern **pats;
    size_t npats, cap_pats;
    bool borrowed; /* pats are another redactor's (an_redactor_clone) */
};

struct an_redactor *an_redactor_new(void)
{
    return an_xcalloc(1, sizeof(struct an_redactor));
}

void an_redactor_free(struct an_redactor *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nlabels; i++)
        free(r->labels[i]);
    free(r->labels);
    /* wiped before they go back to the allocator: they are secrets */
    for (size_t i = 0; i < r->nvalues; i++) {
        memset(r->values[i], 0, strlen(r->values[i]));
        free(r->values[i]);
    }
    free(r->values);
    for (size_t i = 0; i < r->nforms; i++) {
        memset(r->forms[i].s, 0, r->forms[i].n);
        free(r->forms[i].s);
    }
    free(r->forms);
    for (size_t i = 0; i < r->npats && !r->borrowed; i++) {
        an_regex_free(r->pats[i]->re);
        free(r->pats[i]);
    }
    free(r->pats);
    free(r);
}

struct an_redactor *an_redactor_clone(const struct an_redactor *r)
{
    struct an_redactor *c = an_redactor_new();
    for (size_t i = 0; i < r->nlabels; i++) {
        AN_GROW(c->labels, c->nlabels, c->cap_labels);
        c->labels[c->nlabels++] = an_xstrdup(r->labels[i]);
    }
    for (size_t i = 0; i < r->nvalues; i++) {
        AN_GROW(c->values, c->nvalues, c->cap_values);
        c->values[c->nvalues++] = an_xstrdup(r->values[i]);
    }
    for (size_t i = 0; i < r->nforms; i++) {
        AN_GROW(c->forms, c->nforms, c->cap_forms);
        c->forms[c->nforms++] = (struct form){an_xstrndup(r->forms[i].s, r->forms[i].n),
                                              r->forms[i].n, r->forms[i].label};
    }
    if (r->npats) {
        c->pats = an_xcalloc(r->npats, sizeof *c->pats);
        memcpy(c->pats, r->pats, r->npats * sizeof *c->pats);
        c->npats = c->cap_pats = r->npats;
    }
    c->borrowed = true;
    return c;
}

bool an_redactor_empty(const struct an_redactor *r)
{
    return !r || (!r->nforms && !r->npats);
}

size_t an_redactor_size(const struct an_redactor *r)
{
    return r ? r->nvalues + r->npats : 0;
}

static size_t label_of(struct an_redactor *r, const char *label)
{
    for (size_t i = 0; i < r->nlabels; i++)
        if (!strcmp(r->labels[i], label))
            return i;
    AN_GROW(r->labels, r->nlabels, r->cap_labels);
    r->labels[r->nlabels] = an_xstrdup(label);
    return r->nlabels++;
}

static void add_form(struct an_redactor *r, const char *s, size_t n, size_t label)
{
    if (n == 0)
        return;
    for (size_t i = 0; i < r->nforms; i++)
        if (r->forms[i].n == n && !memcmp(r->forms[i].s, s, n))
            return;
    AN_GROW(r->forms, r->nforms, r->cap_forms);
    r->forms[r->nforms++] = (struct form){an_xstrndup(s, n), n, label};
}

/* The text between the quotes of s as a JSON string written with `flags`;
 * NULL when s is not valid UTF-8 (then no JSON writer can have written it). */
static char *json_escaped(const char *s, size_t flags)
{
    json_t *j = json_string(s);
    if (!j)
        return NULL;
    char *q = json_dumps(j, JSON_ENCODE_ANY | flags);
    json_decref(j);
    if (!q)
        an_oom();
    size_t n = strlen(q);
    memmove(q, q + 1, n - 2); /* drop the quotes */
    q[n - 2] = '\0';
    return q;
}

/* jansson writes \u00E9, other writers \u00e9: the digits of every \u
 * escape made lowercase, in place; false when there was none. */
static bool lower_hex(char *s)
{
    bool any = false;
    for (char *p = s; *p; p++) {
        if (p[0] == '\\' && p[1] == '\\') {
            p++; /* an escaped backslash, not an escape's start */
            continue;
        }
        if (p[0] != '\\' || p[1] != 'u')
            continue;
        for (int i = 2; i < 6 && p[i]; i++) {
            if (p[i] >= 'A' && p[i] <= 'F') {
                p[i] = (char)(p[i] - 'A' + 'a');
                any = true;
            }
        }
    }
    return any;
}

/* The checks both ways of adding a secret make; ADDED when value is new
 * (it is then known, under the label *l). */
static enum an_redact_add add_value(struct an_redactor *r, const char *label, const char *value,
                                    size_t *l)
{
    size_t n = strlen(value);
    if (n == 0)
        return AN_REDACT_EMPTY;
    if (n < AN_REDACT_MIN)
        return AN_REDACT_SHORT;
    for (size_t i = 0; i < r->nvalues; i++)
        if (!strcmp(r->values[i], value))
            return AN_REDACT_KNOWN;
    AN_GROW(r->values, r->nvalues, r->cap_values);
    r->values[r->nvalues++] = an_xstrdup(value);
    *l = label_of(r, label);
    add_form(r, value, n, *l);
    return AN_REDACT_ADDED;
}

enum an_redact_add an_redactor_add_literal(struct an_redactor *r, const char *label,
                                           const char *value)
{
    size_t l;
    return add_value(r, label, value, &l);
}

enum an_redact_add an_redactor_add_secret(struct an_redactor *r, const char *label,
                                          const char *value)
{
    size_t l = 0;
    enum an_redact_add added = add_value(r, label, value, &l);
    if (added != AN_REDACT_ADDED)
        return added;
    static const size_t styles[] = {0, JSON_ENSURE_ASCII, JSON_ESCAPE_SLASH,
                                    JSON_ENSURE_ASCII | JSON_ESCAPE_SLASH};
    for (size_t k = 0; k < sizeof styles / sizeof *styles; k++) {
        char *once = json_escaped(value, styles[k]);
        if (!once)
            break;
        for (int lower = 0; lower < 2; lower++) {
            if (lower && !lower_hex(once))
                break;
            add_form(r, once, strlen(once), l);
            char *twice = json_escaped(once, styles[k]);
            if (twice)
                add_form(r, twice, strlen(twice), l);
            free(twice);
        }
        free(once);
    }
    return AN_REDACT_ADDED;
}

int an_redactor_add_pattern(struct an_redactor *r, const char *label, const char *src,
                            unsigned flags, struct an_err *err)
{
    struct an_regex *re = NULL;
    if (r->borrowed)
        return an_fail(err, AN_EINTERNAL, NULL, "--redact: a pattern added to a copy");
    int rc = an_regex_compile(&re, src, NULL, err);
    if (rc) {
        an_err_prefix(err, "--redact: ");
        return rc;
    }
    /* the cut rule matches partially before a "...": JIT code for that
     * mode too (without it PCRE2 interprets, which is only slower) */
    const char *nojit = getenv("ANANKE_NO_JIT");
    if (!(nojit && *nojit && strcmp(nojit, "0") != 0))
        (void)pcre2_jit_compile(re->code, PCRE2_JIT_PARTIAL_HARD);
    AN_GROW(r->pats, r->npats, r->cap_pats);
    struct pattern *p = an_xcalloc(1, sizeof *p);
    p->re = re;
    p->label = label_of(r, label);
    p->utf = strchr(re->flags, 'u') != NULL;
    p->group1 = (flags & AN_REDACT_GROUP1) != 0;
    atomic_init(&p->gave_up, 0);
    r->pats[r->npats++] = p;
    return AN_OK;
}

int an_redactor_add_regex(struct an_redactor *r, const char *src, struct an_err *err)
{
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "--redact %s", src);
    int rc = an_redactor_add_pattern(r, an_buf_cstr(&b), src, 0, err);
    an_buf_release(&b);
    return rc;
}

size_t an_redactor_npatterns(const struct an_redactor *r)
{
    return r ? r->npats : 0;
}

const char *an_redactor_gave_up(const struct an_redactor *r, size_t i, size_t *texts)
{
    if (!r || i >= r->npats)
        return NULL;
    *texts = atomic_load(&r->pats[i]->gave_up);
    return r->pats[i]->re->src;
}

void an_redactor_say_gave_up(const struct an_redactor *r, void (*warn)(const char *msg, void *ud),
                             void *ud)
{
    for (size_t i = 0; warn && i < an_redactor_npatterns(r); i++) {
        size_t n = 0;
        const char *src = an_redactor_gave_up(r, i, &n);
        if (!n)
            continue;
        char msg[512];
        snprintf(msg, sizeof msg,
                 "--redact '%.200s': PCRE2 gave up on %zu text%s (its match limit): %s redacted "
                 "whole",
                 src, n, n == 1 ? "" : "s", n == 1 ? "it was" : "they were");
        warn(msg, ud);
    }
}

size_t an_redactor_nlabels(const struct an_redactor *r)
{
    return r->nlabels;
}

const char *an_redactor_label(const struct an_redactor *r, size_t i)
{
    return i < r->nlabels ? r->labels[i] : NULL;
}

/* ---- finding and replacing ---- */

struct spans {
    struct an_redact_span *v;
    size_t n, cap;
};

static void span_add(struct spans *s, size_t a, size_t b)
{
    AN_GROW(s->v, s->n, s->cap);
    s->v[s->n++] = (struct an_redact_span){a, b};
}

static int span_cmp(const void *x, const void *y)
{
    const struct an_redact_span *p = x, *q = y;
    return p->a < q->a ? -1 : p->a > q->a ? 1 : 0;
}

/* memmem(), which is a GNU extension. */
static const char *find_bytes(const char *h, size_t hn, const char *nd, size_t nn)
{
    while (hn >= nn) {
        const char *p = memchr(h, nd[0], hn - nn + 1);
        if (!p)
            return NULL;
        if (!memcmp(p, nd, nn))
            return p;
        hn -= (size_t)(p - h) + 1;
        h = p + 1;
    }
    return NULL;
}

/* Every occurrence of f, overlapping ones included (their union is what
 * must go); counted as the non-overlapping occurrences a reader would see. */
static void find_form(const struct form *f, const char *s, size_t n, struct spans *out,
                      size_t *counts)
{
    size_t counted_to = 0;
    for (size_t at = 0; at + f->n <= n;) {
        const char *p = find_bytes(s + at, n - at, f->s, f->n);
        if (!p)
            break;
        size_t a = (size_t)(p - s);
        span_add(out, a, a + f->n);
        if (a >= counted_to) {
            if (counts)
                counts[f->label]++;
            counted_to = a + f->n;
        }
        at = a + 1;
    }
}

/* PCRE2 gave up on s (a limit): all of it goes, and the pattern says so. */
static void gave_up(struct pattern *p, size_t n, struct spans *out, size_t *counts)
{
    if (n)
        span_add(out, 0, n);
    if (counts)
        counts[p->label]++;
    atomic_fetch_add(&p->gave_up, 1);
}

static void find_pattern(struct pattern *p, const char *s, size_t n, struct spans *out,
                         size_t *counts)
{
    pcre2_code *code = p->re->code;
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
    if (!md)
        an_oom();
    for (size_t at = 0; at <= n;) {
        int rc = pcre2_match(code, (PCRE2_SPTR)s, n, at, 0, md, p->re->mctx);
        if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
            rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT ||
            rc == PCRE2_ERROR_NOMEMORY) {
            gave_up(p, n, out, counts); /* fail closed */
            break;
        }
        if (rc < 0)
            break; /* no more matches (or a subject PCRE2 refuses: nothing to find) */
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        size_t a = ov[0], b = ov[1];
        if (p->group1 && rc > 1 && ov[2] != PCRE2_UNSET) {
            a = ov[2]; /* may lie in a lookaround, outside the match */
            b = ov[3];
        }
        if (b > a) { /* an empty match (or group) hides nothing */
            span_add(out, a, b);
            if (counts)
                counts[p->label]++;
        }
        if (ov[1] > ov[0]) {
            at = ov[1];
            continue;
        }
        /* step past an empty match, a whole character in UTF mode
         * (PCRE2 refuses an offset inside one) */
        at = ov[1] + 1;
        while (p->utf && at < n && ((unsigned char)s[at] & 0xC0) == 0x80)
            at++;
    }
    pcre2_match_data_free(md);
}

/* s[0..c) ends in the first k >= AN_REDACT_MIN bytes of f (not all of
 * them: that is a match): the longest such k, else 0. */
static size_t prefix_at(const struct form *f, const char *s, size_t c)
{
    size_t k = f->n - 1 < c ? f->n - 1 : c;
    for (; k >= AN_REDACT_MIN; k--)
        if (s[c - k] == f->s[0] && !memcmp(s + c - k, f->s, k))
            return k;
    return 0;
}

static size_t suffix_at(const struct form *f, const char *s, size_t n, size_t a);

/* A pattern that matches s[0..c) partially at its end: from where (an
 * offset below c), else c. */
static size_t partial_at(struct pattern *p, const char *s, size_t c)
{
    pcre2_code *code = p->re->code;
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
    if (!md)
        an_oom();
    size_t from = c;
    /* a secret is not kilobytes long: start near the cut, so a text full
     * of "..." is not searched again from its start at each */
    size_t at = c > 4096 ? c - 4096 : 0;
    while (p->utf && at < c && ((unsigned char)s[at] & 0xC0) == 0x80)
        at++;
    while (at <= c) {
        int rc = pcre2_match(code, (PCRE2_SPTR)s, c, at, PCRE2_PARTIAL_HARD, md, p->re->mctx);
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        if (rc == PCRE2_ERROR_PARTIAL) {
            from = ov[0];
            break;
        }
        if (rc < 0)
            break; /* no match, or a limit: the whole-text search said so already */
        at = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
        while (p->utf && at < c && ((unsigned char)s[at] & 0xC0) == 0x80)
            at++;
    }
    pcre2_match_data_free(md);
    return from;
}

/* The cut rule (redact.h): the start of a secret just before a "..." or
 * U+2026, or at the end of s. */
static void find_cuts(const struct an_redactor *r, const char *s, size_t n, struct spans *out,
                      size_t *counts)
{
    for (size_t i = 0; i < r->nforms; i++) {
        size_t k = prefix_at(&r->forms[i], s, n);
        if (k) {
            span_add(out, n - k, n);
            if (counts)
                counts[r->forms[i].label]++;
        }
    }
    for (size_t at = 0; at < n;) {
        const char *dots = find_bytes(s + at, n - at, "...", 3);
        const char *ell = find_bytes(s + at, n - at, "\xE2\x80\xA6", 3);
        const char *m = !dots ? ell : !ell ? dots : dots < ell ? dots : ell;
        if (!m)
            break;
        size_t c = (size_t)(m - s);
        for (size_t i = 0; i < r->nforms; i++) {
            /* the start of a secret before the cut, or its end after it
             * (a text that keeps only its last bytes: "...tail") */
            size_t k = prefix_at(&r->forms[i], s, c);
            size_t e = c + 3 < n ? suffix_at(&r->forms[i], s, n, c + 3) : 0;
            if (k)
                span_add(out, c - k, c);
            if (e)
                span_add(out, c + 3, c + 3 + e);
            if (counts && (k || e))
                counts[r->forms[i].label]++;
        }
        for (size_t i = 0; i < r->npats; i++) {
            size_t from = partial_at(r->pats[i], s, c);
            if (c - from >= AN_REDACT_MIN) {
                span_add(out, from, c);
                if (counts)
                    counts[r->pats[i]->label]++;
            }
        }
        at = c + 3;
    }
}

/* s[a..) begins with the last k >= AN_REDACT_MIN bytes of f (not all of
 * them): the longest such k, else 0. */
static size_t suffix_at(const struct form *f, const char *s, size_t n, size_t a)
{
    size_t k = f->n - 1 < n - a ? f->n - 1 : n - a;
    for (; k >= AN_REDACT_MIN; k--)
        if (s[a] == f->s[f->n - k] && !memcmp(s + a, f->s + f->n - k, k))
            return k;
    return 0;
}

/* The quoted rule (an_redact_quoted): pieces of a literal secret at the
 * edges of a quoted string, or all of one. */
static void find_quoted(const struct an_redactor *r, const char *s, size_t n, struct spans *out,
                        size_t *counts)
{
    const char *q = memchr(s, '"', n);
    while (q) {
        size_t at = (size_t)(q - s), a = at + 1;
        /* the piece before this quote ends before its escaping backslash */
        size_t e = at > 0 && s[at - 1] == '\\' ? at - 1 : at;
        const char *next = a < n ? memchr(s + a, '"', n - a) : NULL;
        size_t e2 = next ? (size_t)(next - s) : n;
        if (next && e2 > a && s[e2 - 1] == '\\')
            e2--;
        for (size_t i = 0; i < r->nforms; i++) {
            const struct form *f = &r->forms[i];
            size_t k = a < n ? suffix_at(f, s, n, a) : 0;
            size_t p = prefix_at(f, s, e);
            bool whole = e2 > a && e2 - a >= AN_REDACT_MIN && e2 - a < f->n &&
                         find_bytes(f->s, f->n, s + a, e2 - a);
            if (k)
                span_add(out, a, a + k);
            if (p)
                span_add(out, e - p, e);
            if (whole)
                span_add(out, a, e2);
            if (counts && (k || p || whole))
                counts[f->label]++;
        }
        q = next;
    }
}

static size_t find_all(const struct an_redactor *r, const char *s, size_t n, size_t *counts,
                       struct an_redact_span **out, bool quoted)
{
    struct spans sp = {0};
    *out = NULL;
    if (an_redactor_empty(r))
        return 0;
    for (size_t i = 0; i < r->nforms; i++)
        find_form(&r->forms[i], s, n, &sp, counts);
    for (size_t i = 0; i < r->npats; i++)
        find_pattern(r->pats[i], s, n, &sp, counts);
    find_cuts(r, s, n, &sp, counts);
    if (quoted)
        find_quoted(r, s, n, &sp, counts);
    if (!sp.n)
        return 0;
    qsort(sp.v, sp.n, sizeof *sp.v, span_cmp);
    /* merge everything that overlaps or touches */
    size_t w = 0;
    for (size_t i = 0; i < sp.n; i++) {
        if (w && sp.v[i].a <= sp.v[w - 1].b) {
            if (sp.v[i].b > sp.v[w - 1].b)
                sp.v[w - 1].b = sp.v[i].b;
            continue;
        }
        sp.v[w++] = sp.v[i];
    }
    *out = sp.v;
    return w;
}

size_t an_redact_find(const struct an_redactor *r, const char *s, size_t n, size_t *counts,
                      struct an_redact_span **out)
{
    return find_all(r, s, n, counts, out, false);
}

static char *redact(const struct an_redactor *r, const char *s, size_t n, size_t *counts,
                    size_t *out_len, bool quoted)
{
    struct an_redact_span *sp;
    size_t nsp = find_all(r, s, n, counts, &sp, quoted);
    if (!nsp)
        return NULL;
    struct an_buf b = AN_BUF_INIT;
    size_t at = 0;
    for (size_t i = 0; i < nsp; i++) {
        an_buf_append(&b, s + at, sp[i].a - at);
        an_buf_puts(&b, AN_REDACTED);
        at = sp[i].b;
    }
    an_buf_append(&b, s + at, n - at);
    free(sp);
    size_t len = 0;
    char *out = an_buf_detach(&b, &len);
    if (!out)
        out = an_xstrdup("");
    if (out_len)
        *out_len = len;
    return out;
}

char *an_redact_text(const struct an_redactor *r, const char *s, size_t n, size_t *counts,
                     size_t *out_len)
{
    return redact(r, s, n, counts, out_len, false);
}

char *an_redact_quoted(const struct an_redactor *r, const char *s, size_t n, size_t *counts,
                       size_t *out_len)
{
    return redact(r, s, n, counts, out_len, true);
}

static json_t *redact_string(const struct an_redactor *r, const json_t *v, size_t *counts)
{
    size_t len = 0;
    char *red = an_redact_text(r, json_string_value(v), json_string_length(v), counts, &len);
    if (!red)
        return json_incref((json_t *)v);
    json_t *out = an_json_lossy(red, len);
    free(red);
    return out;
}

json_t *an_redact_json(const struct an_redactor *r, const json_t *v, size_t *counts)
{
    if (json_is_string(v))
        return redact_string(r, v, counts);
    if (json_is_array(v)) {
        json_t *a = json_array();
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x)
        {
            if (json_array_append_new(a, an_redact_json(r, x, counts)))
                an_oom();
        }
        return a;
    }
    if (json_is_object(v)) {
        json_t *o = json_object();
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x)
        {
            json_t *val = an_redact_json(r, x, counts);
            char *rk = an_redact_text(r, k, strlen(k), counts, NULL);
            char *key = rk ? an_utf8_lossy(rk, strlen(rk)) : NULL;
            if (json_object_set_new(o, key ? key : k, val))
                an_oom();
            free(key);
            free(rk);
        }
        return o;
    }
    return json_incref((json_t *)v);
}

/* ---- rules in order (an_redact_in_order) ---- */

/* The rules under label l over s[0..n), replaced one match after another
 * into out; how many were replaced (0: out untouched). */
static size_t order_label(const struct an_redactor *r, size_t l, const char *s, size_t n,
                          unsigned what, struct an_buf *out)
{
    struct spans sp = {0};
    size_t sources = 0;
    for (size_t i = 0; i < r->nforms; i++) {
        if (r->forms[i].label == l) {
            find_form(&r->forms[i], s, n, &sp, NULL);
            sources++;
        }
    }
    for (size_t i = 0; (what & AN_REDACT_PATTERNS) && i < r->npats; i++) {
        if (r->pats[i]->label == l) {
            find_pattern(r->pats[i], s, n, &sp, NULL);
            sources++;
        }
    }
    if (sources > 1) /* one source finds its matches in order already */
        qsort(sp.v, sp.n, sizeof *sp.v, span_cmp);
    size_t done = 0, from = 0;
    for (size_t i = 0; i < sp.n; i++) {
        if (sp.v[i].a < from || sp.v[i].b <= sp.v[i].a)
            continue; /* overlaps one replaced already: leftmost first wins */
        an_buf_append(out, s + from, sp.v[i].a - from);
        an_buf_puts(out, AN_REDACTED);
        from = sp.v[i].b;
        done++;
    }
    if (done)
        an_buf_append(out, s + from, n - from);
    free(sp.v);
    return done;
}

char *an_redact_in_order(const struct an_redactor *r, const char *s, size_t n, unsigned what,
                         size_t *counts, size_t *out_len)
{
    char *cur = NULL;
    size_t curlen = n;
    for (size_t l = 0; r && l < r->nlabels; l++) {
        struct an_buf out = AN_BUF_INIT;
        size_t k = order_label(r, l, cur ? cur : s, curlen, what, &out);
        if (!k) {
            an_buf_release(&out);
            continue;
        }
        if (counts)
            counts[l] += k;
        free(cur);
        cur = an_buf_detach(&out, &curlen);
        if (!cur)
            cur = an_xstrdup("");
    }
    if (cur && out_len)
        *out_len = curlen;
    return cur;
}
