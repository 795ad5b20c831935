#include "core/jsonmatch.h"

#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/strmap.h"

int an_jm_compile(struct an_regex **out, const char *pattern, const struct an_loc *loc,
                  struct an_err *err)
{
    /* an_regex_compile reads "/body/flags" as a delimited pattern; a .jsont
     * leaf is always a plain pattern, and paths start with '/'. An empty
     * group in front changes nothing in what matches and keeps the slash
     * form from applying. */
    if (pattern[0] != '/')
        return an_regex_compile(out, pattern, loc, err);
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, "(?:)");
    an_buf_puts(&b, pattern);
    int rc = an_regex_compile(out, an_buf_cstr(&b), loc, err);
    an_buf_release(&b);
    return rc;
}

static void path_key(struct an_buf *p, size_t base, const char *key)
{
    p->len = base;
    if (p->data)
        p->data[base] = '\0';
    if (base)
        an_buf_putc(p, '.');
    an_buf_puts(p, key);
}

static int check_rec(const json_t *e, struct an_buf *path, const struct an_loc *loc,
                     struct an_err *err)
{
    size_t base = path->len;
    if (json_is_string(e)) {
        struct an_regex *re = NULL;
        int rc = an_jm_compile(&re, json_string_value(e), loc, err);
        an_regex_free(re);
        if (rc)
            an_err_prefix(err, "%s: ", path->len ? an_buf_cstr(path) : "(message)");
        return rc;
    }
    if (json_is_object(e)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)e, k, v)
        {
            path_key(path, base, k);
            int rc = check_rec(v, path, loc, err);
            if (rc)
                return rc;
        }
    } else if (json_is_array(e)) {
        size_t i;
        json_t *v;
        json_array_foreach(e, i, v)
        {
            path->len = base;
            an_buf_printf(path, "[%zu]", i);
            int rc = check_rec(v, path, loc, err);
            if (rc)
                return rc;
        }
    }
    path->len = base;
    if (path->data)
        path->data[base] = '\0';
    return AN_OK;
}

int an_jm_check(const json_t *expected, const struct an_loc *loc, struct an_err *err)
{
    struct an_buf path = AN_BUF_INIT;
    int rc = check_rec(expected, &path, loc, err);
    an_buf_release(&path);
    return rc;
}

char *an_jm_stringify(const json_t *v)
{
    if (json_is_string(v))
        return an_xstrdup(json_string_value(v));
    if (json_is_true(v))
        return an_xstrdup("true");
    if (json_is_false(v))
        return an_xstrdup("false");
    if (!v || json_is_null(v))
        return an_xstrdup("null");
    return an_json_compact(v);
}

/* String leaves compiled once per top-level call, by pattern: one
 * expected leaf meets every element of an actual array (and each of
 * theirs), and compiling a pattern (JIT) costs far more than running it.
 * Compiling per comparison made matching a few kilobytes take seconds
 * (fuzz/regress/jsonmatch/nested-arrays). A pattern that does not compile
 * maps to `re_bad`. */
struct re_cache {
    struct an_arena a;
    struct an_strmap m;
};
static char re_bad;

static void re_cache_init(struct re_cache *c)
{
    c->a = (struct an_arena)AN_ARENA_INIT;
    an_strmap_init(&c->m, &c->a);
}

static void re_free(void *re)
{
    an_regex_free(re);
}

static bool leaf_search(struct re_cache *c, const char *pattern, const char *s)
{
    void *v = an_strmap_get(&c->m, pattern);
    if (!v) {
        struct an_regex *re = NULL;
        if (an_jm_compile(&re, pattern, NULL, NULL) == AN_OK) {
            an_arena_defer(&c->a, re_free, re);
            v = re;
        } else {
            an_regex_free(re);
            v = &re_bad;
        }
        an_strmap_put(&c->m, pattern, v);
    }
    return v != &re_bad && an_regex_search(v, s, strlen(s));
}

static bool leaf_match(const json_t *e, const json_t *a, struct re_cache *c)
{
    char *s = an_jm_stringify(a);
    bool ok;
    if (json_is_string(e)) {
        ok = leaf_search(c, json_string_value(e), s);
    } else {
        char *es = an_jm_stringify(e);
        ok = strcmp(es, s) == 0;
        free(es);
    }
    free(s);
    return ok;
}

struct arr_ctx {
    const json_t *e, *a;
    struct re_cache *cache;
};

static bool match_rec(const json_t *expected, const json_t *actual, struct re_cache *cache);

static bool arr_ok(size_t e, size_t o, void *ud)
{
    struct arr_ctx *c = ud;
    return match_rec(json_array_get(c->e, e), json_array_get(c->a, o), c->cache);
}

bool an_jm_match(const json_t *expected, const json_t *actual)
{
    struct re_cache c;
    re_cache_init(&c);
    bool ok = match_rec(expected, actual, &c);
    an_arena_release(&c.a);
    return ok;
}

static bool match_rec(const json_t *expected, const json_t *actual, struct re_cache *cache)
{
    if (json_is_object(expected)) {
        if (!json_is_object(actual))
            return false;
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)expected, k, v)
        {
            json_t *av = json_object_get(actual, k);
            if (!av || !match_rec(v, av, cache))
                return false;
        }
        return true;
    }
    if (json_is_array(expected)) {
        if (!json_is_array(actual))
            return false;
        size_t ne = json_array_size(expected), na = json_array_size(actual);
        if (ne == 0)
            return true;
        if (ne > na)
            return false;
        long *as = an_xcalloc(ne, sizeof *as);
        struct arr_ctx c = {expected, actual, cache};
        size_t got = an_jm_assign(ne, na, arr_ok, &c, as);
        free(as);
        return got == ne;
    }
    return actual && leaf_match(expected, actual, cache);
}

static size_t score_rec(const json_t *expected, const json_t *actual, size_t *total,
                        struct re_cache *cache);

size_t an_jm_score(const json_t *expected, const json_t *actual, size_t *total)
{
    struct re_cache c;
    re_cache_init(&c);
    size_t s = score_rec(expected, actual, total, &c);
    an_arena_release(&c.a);
    return s;
}

static size_t score_rec(const json_t *expected, const json_t *actual, size_t *total,
                        struct re_cache *cache)
{
    size_t t = 0, s = 0;
    if (json_is_object(expected)) {
        const char *k;
        json_t *v;
        if (json_object_size(expected) == 0) {
            t = 1;
            s = json_is_object(actual);
        }
        json_object_foreach((json_t *)expected, k, v)
        {
            size_t kt = 0;
            json_t *av = json_is_object(actual) ? json_object_get(actual, k) : NULL;
            size_t ks = av ? score_rec(v, av, &kt, cache) : (score_rec(v, NULL, &kt, cache), 0);
            t += kt;
            s += ks;
        }
    } else if (json_is_array(expected)) {
        size_t i;
        json_t *v;
        if (json_array_size(expected) == 0) {
            t = 1;
            s = json_is_array(actual);
        }
        json_array_foreach(expected, i, v)
        {
            size_t et = 0, best = 0;
            score_rec(v, NULL, &et, cache);
            for (size_t j = 0; json_is_array(actual) && j < json_array_size(actual); j++) {
                size_t jt;
                size_t sc = score_rec(v, json_array_get(actual, j), &jt, cache);
                if (sc > best)
                    best = sc;
            }
            t += et;
            s += best;
        }
    } else {
        t = 1;
        s = actual && leaf_match(expected, actual, cache);
    }
    if (total)
        *total = t;
    return s;
}

static void add_line(char ***lines, size_t *n, struct an_buf *line)
{
    *lines = an_xrealloc(*lines, (*n + 1) * sizeof **lines);
    (*lines)[(*n)++] = an_buf_detach(line, NULL);
}

/* A value for a diff line: strings quoted, containers compact, cut long. */
static void show(struct an_buf *b, const json_t *v)
{
    char *s = an_json_compact(v);
    size_t n = strlen(s);
    if (n > 200) {
        an_buf_append(b, s, 200);
        an_buf_printf(b, "… (%zu more bytes)", n - 200);
    } else {
        an_buf_append(b, s, n);
    }
    free(s);
}

static const char *kind_name(const json_t *v)
{
    if (json_is_object(v))
        return "an object";
    if (json_is_array(v))
        return "an array";
    return "a value";
}

static void diff_rec(const json_t *e, const json_t *a, const char *path, char ***lines, size_t *n,
                     struct re_cache *cache)
{
    struct an_buf line = AN_BUF_INIT;
    const char *shown = *path ? path : "(message)";
    if (json_is_object(e) || json_is_array(e)) {
        bool is_obj = json_is_object(e);
        if (is_obj ? !json_is_object(a) : !json_is_array(a)) {
            an_buf_printf(&line, "%s: expected %s, got ", shown, kind_name(e));
            show(&line, a);
            add_line(lines, n, &line);
            return;
        }
        if (is_obj) {
            const char *k;
            json_t *v;
            json_object_foreach((json_t *)e, k, v)
            {
                struct an_buf sub = AN_BUF_INIT;
                an_buf_printf(&sub, "%s%s%s", path, *path ? "." : "", k);
                json_t *av = json_object_get(a, k);
                if (!av) {
                    an_buf_printf(&line, "missing field '%s'", an_buf_cstr(&sub));
                    add_line(lines, n, &line);
                } else if (!match_rec(v, av, cache)) {
                    diff_rec(v, av, an_buf_cstr(&sub), lines, n, cache);
                }
                an_buf_release(&sub);
            }
            return;
        }
        size_t ne = json_array_size(e), na = json_array_size(a);
        if (ne == 0)
            return;
        long *as = an_xcalloc(ne, sizeof *as);
        struct arr_ctx c = {e, a, cache};
        an_jm_assign(ne, na, arr_ok, &c, as);
        for (size_t i = 0; i < ne; i++) {
            if (as[i] >= 0)
                continue;
            json_t *ev = json_array_get(e, i);
            an_buf_printf(&line, "%s[]: no element matches ", shown);
            show(&line, ev);
            add_line(lines, n, &line);
            /* the closest element, to say what differs */
            size_t best = 0, bi = na;
            for (size_t j = 0; j < na; j++) {
                size_t sc = score_rec(ev, json_array_get(a, j), NULL, cache);
                if (bi == na || sc > best) {
                    best = sc;
                    bi = j;
                }
            }
            if (bi < na && (json_is_object(ev) || json_is_array(ev))) {
                struct an_buf sub = AN_BUF_INIT;
                an_buf_printf(&sub, "%s[%zu]", path, bi);
                diff_rec(ev, json_array_get(a, bi), an_buf_cstr(&sub), lines, n, cache);
                an_buf_release(&sub);
            }
        }
        free(as);
        return;
    }
    if (a && leaf_match(e, a, cache))
        return;
    if (json_is_string(e))
        an_buf_printf(&line, "%s: expected /%s/, got ", shown, json_string_value(e));
    else {
        an_buf_printf(&line, "%s: expected ", shown);
        show(&line, e);
        an_buf_puts(&line, ", got ");
    }
    if (a)
        show(&line, a);
    else
        an_buf_puts(&line, "nothing");
    add_line(lines, n, &line);
}

void an_jm_diff(const json_t *expected, const json_t *actual, char ***lines, size_t *n)
{
    struct re_cache c;
    re_cache_init(&c);
    diff_rec(expected, actual, "", lines, n, &c);
    an_arena_release(&c.a);
}

struct assign_ctx {
    size_t nexp, nobs;
    const unsigned char *adj;
    long *obs_of; /* observed → expected, -1 */
    unsigned char *seen;
};

static bool augment(struct assign_ctx *c, size_t e)
{
    for (size_t o = 0; o < c->nobs; o++) {
        if (!c->adj[e * c->nobs + o] || c->seen[o])
            continue;
        c->seen[o] = 1;
        if (c->obs_of[o] < 0 || augment(c, (size_t)c->obs_of[o])) {
            c->obs_of[o] = (long)e;
            return true;
        }
    }
    return false;
}

size_t an_jm_assign(size_t nexp, size_t nobs, bool (*ok)(size_t e, size_t o, void *ud), void *ud,
                    long *assign)
{
    for (size_t e = 0; e < nexp; e++)
        assign[e] = -1;
    if (!nexp || !nobs)
        return 0;
    unsigned char *adj = an_xcalloc(nexp * nobs, 1);
    for (size_t e = 0; e < nexp; e++)
        for (size_t o = 0; o < nobs; o++)
            adj[e * nobs + o] = ok(e, o, ud);
    struct assign_ctx c = {nexp, nobs, adj, an_xcalloc(nobs, sizeof(long)), an_xcalloc(nobs, 1)};
    for (size_t o = 0; o < nobs; o++)
        c.obs_of[o] = -1;
    size_t got = 0;
    for (size_t e = 0; e < nexp; e++) {
        memset(c.seen, 0, nobs);
        if (augment(&c, e))
            got++;
    }
    for (size_t o = 0; o < nobs; o++)
        if (c.obs_of[o] >= 0)
            assign[c.obs_of[o]] = (long)o;
    free(adj);
    free(c.obs_of);
    free(c.seen);
    return got;
}
