/*
 * .jsont pass 2: variables inside strings are resolved when a step runs
 * (captures from earlier steps are known only then). Pass 1 (text) is in
 * jsont_pass1.c, pass 3 (validation into the model) in jsont.c and the
 * files it calls (jsont_int.h).
 */
#include "load/jsont.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonmatch.h"
#include "core/buf.h"
#include "core/json.h"

static void quote_regex(struct an_buf *b, const char *v)
{
    an_buf_puts(b, "\\Q");
    for (const char *p = v; *p; p++) {
        if (p[0] == '\\' && p[1] == 'E') {
            an_buf_puts(b, "\\E\\\\E\\Q");
            p++;
        } else {
            an_buf_putc(b, *p);
        }
    }
    an_buf_puts(b, "\\E");
}

int an_jsont_resolve_str(const char *in, const struct an_vars *vars, bool regex, char **out,
                         struct an_err *err)
{
    struct an_buf b = AN_BUF_INIT;
    const char *p = in;
    *out = NULL;
    while (*p) {
        if (p[0] == '$' && p[1] == '$' && p[2] == '{') {
            an_buf_puts(&b, regex ? "\\$\\{" : "${");
            p += 3;
            continue;
        }
        if (p[0] != '$' || p[1] != '{') {
            an_buf_putc(&b, *p++);
            continue;
        }
        const char *end = strchr(p + 2, '}');
        if (!end) {
            an_buf_release(&b);
            return an_fail(err, AN_ESCHEMA, NULL, "unterminated '${' in \"%s\"", in);
        }
        char name[128];
        size_t n = (size_t)(end - p - 2);
        if (n >= sizeof name)
            n = sizeof name - 1;
        memcpy(name, p + 2, n);
        name[n] = '\0';
        const char *val = !strncmp(name, "ENV.", 4) ? getenv(name + 4) : an_vars_get(vars, name);
        if (!val) {
            an_buf_release(&b);
            return an_fail(err, AN_EVAR, NULL, "variable '%s' is not set (yet) when this step runs",
                           name);
        }
        if (regex)
            quote_regex(&b, val);
        else
            an_buf_puts(&b, val);
        p = end + 1;
    }
    *out = an_buf_detach(&b, NULL);
    return AN_OK;
}

int an_jsont_resolve(const json_t *in, const struct an_vars *vars, bool regex, json_t **out,
                     struct an_err *err)
{
    *out = NULL;
    if (json_is_string(in)) {
        char *s = NULL;
        int rc = an_jsont_resolve_str(json_string_value(in), vars, regex, &s, err);
        if (rc)
            return rc;
        /* set on success; said for the static analyzer, which loses track of
         * it through the loop above (make analyze) */
        if (!s)
            s = an_xstrdup("");
        *out = an_json_lossy(s, strlen(s));
        free(s);
        return AN_OK;
    }
    if (json_is_array(in)) {
        json_t *arr = json_array();
        size_t i;
        json_t *v;
        json_array_foreach(in, i, v)
        {
            json_t *c;
            int rc = an_jsont_resolve(v, vars, regex, &c, err);
            if (rc) {
                json_decref(arr);
                return rc;
            }
            json_array_append_new(arr, c);
        }
        *out = arr;
        return AN_OK;
    }
    if (json_is_object(in)) {
        json_t *obj = json_object();
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)in, k, v)
        {
            json_t *c;
            int rc = an_jsont_resolve(v, vars, regex, &c, err);
            if (rc) {
                json_decref(obj);
                return rc;
            }
            json_object_set_new(obj, k, c);
        }
        *out = obj;
        return AN_OK;
    }
    *out = json_deep_copy(in);
    return AN_OK;
}

json_t *an_jsont_path(const json_t *root, const char *path)
{
    const json_t *cur = root;
    const char *p = path;
    while (cur && *p) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        char key[256];
        if (n >= sizeof key)
            return NULL;
        memcpy(key, p, n);
        key[n] = '\0';
        if (json_is_array(cur)) {
            char *end;
            errno = 0;
            unsigned long idx = strtoul(key, &end, 10);
            cur = (n && !*end && !errno) ? json_array_get(cur, idx) : NULL;
        } else {
            cur = json_object_get(cur, key);
        }
        p += n;
        if (*p == '.')
            p++;
    }
    return (json_t *)cur;
}
