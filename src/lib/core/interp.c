#include "core/interp.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

void an_vars_set(struct an_vars *v, const char *name, const char *value)
{
    for (size_t i = 0; i < v->n; i++) {
        if (strcmp(v->names[i], name) == 0) {
            free(v->values[i]);
            v->values[i] = an_xstrdup(value);
            return;
        }
    }
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 8;
        v->names = an_xrealloc(v->names, v->cap * sizeof *v->names);
        v->values = an_xrealloc(v->values, v->cap * sizeof *v->values);
    }
    v->names[v->n] = an_xstrdup(name);
    v->values[v->n] = an_xstrdup(value);
    v->n++;
}

const char *an_vars_get(const struct an_vars *v, const char *name)
{
    for (size_t i = 0; v && i < v->n; i++)
        if (strcmp(v->names[i], name) == 0)
            return v->values[i];
    return NULL;
}

void an_vars_release(struct an_vars *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free(v->names[i]);
        free(v->values[i]);
    }
    free(v->names);
    free(v->values);
    memset(v, 0, sizeof *v);
}

static bool name_ok(const char *s, size_t n)
{
    if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return false;
    return true;
}

/* ${TOOL_SERVERS.NAME.url|command}: the run's tool servers (docs/tools.md),
 * dotted names read from the process-wide table the proxy fills */
#define TOOL_PREFIX "TOOL_SERVERS."
static const struct an_vars *tool_vars;

void an_interp_set_tool_vars(const struct an_vars *v)
{
    tool_vars = v;
}

static bool tool_name_ok(const char *s, size_t n)
{
    size_t pl = strlen(TOOL_PREFIX), dots = 0;
    if (n <= pl || strncmp(s, TOOL_PREFIX, pl) != 0)
        return false;
    for (size_t i = pl; i < n; i++) {
        if (s[i] == '.') {
            if (i == pl || i + 1 == n || s[i - 1] == '.')
                return false;
            dots++;
        } else if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-')) {
            return false;
        }
    }
    return dots == 1;
}

static _Thread_local an_env_watch_fn *env_watch;
static _Thread_local void *env_watch_ctx;

void an_interp_watch_env(an_env_watch_fn *fn, void *ctx)
{
    env_watch = fn;
    env_watch_ctx = ctx;
}

/* Walks src; with out == NULL only checks syntax (and tells a watch of
 * the unset environment variables). */
static int walk(const char *src, const struct an_loc *loc, const struct an_vars *vars,
                struct an_buf *out, struct an_err *err)
{
    const char *p = src;
    while (*p) {
        if (p[0] == '$' && p[1] == '$' && p[2] == '{') {
            if (out)
                an_buf_puts(out, "${");
            p += 3;
            continue;
        }
        if (p[0] != '$' || p[1] != '{') {
            /* the literal text up to the next '$' (after this one), at once */
            const char *next = strchr(p + 1, '$');
            size_t n = next ? (size_t)(next - p) : strlen(p);
            if (out)
                an_buf_add(out, p, n);
            p += n;
            continue;
        }
        const char *start = p + 2;
        const char *end = strchr(start, '}');
        if (!end)
            return an_fail(err, AN_ESCHEMA, loc, "unterminated '${' in \"%s\"", src);
        size_t n = (size_t)(end - start);
        bool env = n > 4 && strncmp(start, "ENV.", 4) == 0;
        const char *name = env ? start + 4 : start;
        size_t nlen = env ? n - 4 : n;
        bool tool = !env && tool_name_ok(name, nlen);
        if (!tool && !name_ok(name, nlen))
            return an_fail(err, AN_ESCHEMA, loc,
                           "invalid variable reference '${%.*s}' (expected ${NAME} or "
                           "${ENV.NAME})",
                           (int)n, start);
        if (!out && env && env_watch && nlen < 256) {
            char key[256];
            memcpy(key, name, nlen);
            key[nlen] = '\0';
            if (!getenv(key))
                env_watch(env_watch_ctx, key, loc);
        }
        if (out) {
            char key[256];
            if (nlen >= sizeof key)
                return an_fail(err, AN_EVAR, loc, "variable name too long");
            memcpy(key, name, nlen);
            key[nlen] = '\0';
            /* a test's own tool server paths (in its vars) before the run's */
            const char *val = env ? getenv(key) : an_vars_get(vars, key);
            if (!val && tool)
                val = an_vars_get(tool_vars, key);
            if (!val && tool)
                return an_fail(err, AN_EVAR, loc,
                               "unknown tool server variable '%s' (tool_servers: names the "
                               "servers; each has .url and .command)",
                               key);
            if (!val) {
                if (env)
                    return an_fail(err, AN_EVAR, loc,
                                   "environment variable '%s' is not set (used as ${ENV.%s})", key,
                                   key);
                return an_fail(err, AN_EVAR, loc,
                               "unknown variable '%s' (no hook defined it; for the "
                               "environment write ${ENV.%s})",
                               key, key);
            }
            an_buf_puts(out, val);
        }
        p = end + 1;
    }
    return 0;
}

int an_interp_check(const char *src, const struct an_loc *loc, struct an_err *err)
{
    return walk(src, loc, NULL, NULL, err);
}

bool an_interp_has_refs(const char *src)
{
    return src && strstr(src, "${") != NULL;
}

int an_interp(const char *src, const struct an_loc *loc, const struct an_vars *vars, char **out,
              struct an_err *err)
{
    struct an_buf b = AN_BUF_INIT;
    int rc = walk(src, loc, vars, &b, err);
    if (rc) {
        an_buf_release(&b);
        *out = NULL;
        return rc;
    }
    *out = an_buf_detach(&b, NULL);
    return 0;
}

int an_interp_json(const json_t *in, const struct an_loc *loc, const struct an_vars *vars,
                   json_t **out, struct an_err *err)
{
    *out = NULL;
    if (json_is_string(in)) {
        char *s;
        int rc = an_interp(json_string_value(in), loc, vars, &s, err);
        if (rc)
            return rc;
        *out = json_string(s);
        free(s);
        if (!*out)
            *out = json_string("");
        return 0;
    }
    if (json_is_array(in)) {
        json_t *arr = json_array();
        size_t i;
        json_t *v;
        json_array_foreach(in, i, v)
        {
            json_t *c;
            int rc = an_interp_json(v, loc, vars, &c, err);
            if (rc) {
                json_decref(arr);
                return rc;
            }
            json_array_append_new(arr, c);
        }
        *out = arr;
        return 0;
    }
    if (json_is_object(in)) {
        json_t *obj = json_object();
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)in, k, v)
        {
            json_t *c;
            int rc = an_interp_json(v, loc, vars, &c, err);
            if (rc) {
                json_decref(obj);
                return rc;
            }
            json_object_set_new(obj, k, c);
        }
        *out = obj;
        return 0;
    }
    *out = json_deep_copy(in);
    return 0;
}

int an_interp_check_json(const json_t *in, const struct an_loc *loc, struct an_err *err)
{
    if (json_is_string(in))
        return an_interp_check(json_string_value(in), loc, err);
    if (json_is_array(in)) {
        size_t i;
        json_t *v;
        json_array_foreach(in, i, v)
        {
            int rc = an_interp_check_json(v, loc, err);
            if (rc)
                return rc;
        }
    } else if (json_is_object(in)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)in, k, v)
        {
            int rc = an_interp_check_json(v, loc, err);
            if (rc)
                return rc;
        }
    }
    return 0;
}
