/* Which values are secrets (run/secrets.h). */
#include "run/secrets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ananke/target_type.h"
#include "core/buf.h"
#include "core/json.h"

/* strcasestr(), which is a GNU extension. */
static bool contains_nocase(const char *h, const char *needle)
{
    size_t n = strlen(needle);
    for (; *h; h++)
        if (!strncasecmp(h, needle, n))
            return true;
    return false;
}

/* docs/record.md: names that say they hold a secret. */
bool an_secret_name(const char *name)
{
    static const char *const words[] = {"TOKEN", "SECRET", "KEY", "PASSWORD"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (contains_nocase(name, words[i]))
            return true;
    return false;
}

struct gather {
    struct an_redactor *red;
    an_secret_short_fn short_fn;
    void *ud;
};

static void add_secret(struct gather *rc, const char *label, const char *value)
{
    if (an_redactor_add_secret(rc->red, label, value) == AN_REDACT_SHORT && rc->short_fn)
        rc->short_fn(label, rc->ud);
}

/* What each ${...} of a secret template stands for is as secret as the
 * whole: a token may also show up without its "Bearer ". */
static void add_refs(struct gather *rc, const char *src, const struct an_vars *vars)
{
    for (const char *p = src; p && *p;) {
        if (p[0] == '$' && p[1] == '$' && p[2] == '{') {
            p += 3;
            continue;
        }
        if (p[0] != '$' || p[1] != '{') {
            p++;
            continue;
        }
        const char *start = p + 2, *end = strchr(start, '}');
        if (!end)
            return;
        char *name = an_xstrndup(start, (size_t)(end - start));
        bool env = !strncmp(name, "ENV.", 4);
        const char *v = env ? getenv(name + 4) : an_vars_get(vars, name);
        char label[300];
        snprintf(label, sizeof label, "%s %.200s", env ? "environment variable" : "hook variable",
                 env ? name + 4 : name);
        if (v)
            add_secret(rc, label, v);
        free(name);
        p = end + 1;
    }
}

static void add_template(struct gather *rc, const char *label, const struct an_tmpl *t,
                         const struct an_vars *vars, bool auth)
{
    if (!t->src)
        return;
    /* the parts first: a value known already keeps its first label, and
     * "environment variable X" says more than "header Authorization" */
    add_refs(rc, t->src, vars);
    char *v = NULL;
    struct an_err e = AN_ERR_INIT;
    if (!an_interp(t->src, &t->loc, vars, &v, &e)) {
        add_secret(rc, label, v);
        /* "Bearer abc123": the credential alone too */
        const char *sp = auth ? strchr(v, ' ') : NULL;
        if (sp)
            add_secret(rc, label, sp + strspn(sp, " "));
    }
    free(v); /* an unknown variable: the test never sent it; its parts still count */
}

/* A target's own templates that may carry credentials (its row's secrets()). */
struct typed {
    struct gather *rc;
    const char *agent;
    const struct an_vars *vars;
};

static void typed_secret(void *ud, const char *key, const char *name, const struct an_tmpl *value)
{
    const struct typed *ty = ud;
    const char *of = ty->agent ? " of agent " : "";
    char label[300];
    if (!name) {
        snprintf(label, sizeof label, "%s%s%.100s", key, of, ty->agent ? ty->agent : "");
    } else {
        if (!an_secret_name(name) && !(value->src && strstr(value->src, "${ENV.")))
            return;
        snprintf(label, sizeof label, "%s %.100s%s%.100s", key, name, of,
                 ty->agent ? ty->agent : "");
    }
    add_template(ty->rc, label, value, ty->vars, false);
}

static void target_secrets(struct gather *rc, const struct an_target *t, const char *agent,
                           const struct an_vars *vars)
{
    char label[300];
    const char *of = agent ? " of agent " : "";
    for (size_t i = 0; i < t->nheaders; i++) {
        const struct an_header *h = &t->headers[i];
        bool auth = !strcasecmp(h->name, "Authorization") ||
                    !strcasecmp(h->name, "Proxy-Authorization");
        if (!auth && !an_secret_name(h->name) && !(h->value.src && strstr(h->value.src, "${ENV.")))
            continue;
        snprintf(label, sizeof label, "header %.100s%s%.100s", h->name, of, agent ? agent : "");
        add_template(rc, label, &h->value, vars, auth);
    }
    if (t->type && t->type->secrets) { /* a suite built by hand may have none */
        struct typed ty = {rc, agent, vars};
        t->type->secrets(t, typed_secret, &ty);
    }
    /* target.start's env, by the same rule: the started agent may print it */
    for (size_t i = 0; t->start && i < t->start->nenv; i++) {
        const struct an_env_var *e = &t->start->env[i];
        if (!an_secret_name(e->name) && !(e->value.src && strstr(e->value.src, "${ENV.")))
            continue;
        snprintf(label, sizeof label, "start env %.100s", e->name);
        add_template(rc, label, &e->value, vars, false);
    }
}

/* otlp.headers (docs/otel.md): a collector's API key, by the targets' rule */
static void otlp_secrets(struct gather *rc, const struct an_otlp_config *o,
                         const struct an_vars *vars)
{
    char label[300];
    for (size_t i = 0; i < o->nheaders; i++) {
        const char *name = o->header_names[i], *src = o->header_values[i];
        bool auth = !strcasecmp(name, "Authorization");
        if (!auth && !an_secret_name(name) && !strstr(src, "${ENV."))
            continue;
        snprintf(label, sizeof label, "otlp header %.100s", name);
        struct an_tmpl t = {.src = src, .loc = o->loc};
        add_template(rc, label, &t, vars, auth);
    }
}

void an_secrets_gather(struct an_redactor *r, const struct an_config *cfg,
                       const struct an_vars *vars, an_secret_short_fn short_fn, void *ud)
{
    struct gather g = {r, short_fn, ud};
    target_secrets(&g, &cfg->target, NULL, vars);
    for (size_t i = 0; i < cfg->nagents; i++)
        target_secrets(&g, &cfg->agents[i].target, cfg->agents[i].name, vars);
    otlp_secrets(&g, &cfg->otlp, vars);
    for (size_t i = 0; i < vars->n; i++) {
        if (!an_secret_name(vars->names[i]))
            continue;
        char label[300];
        snprintf(label, sizeof label, "hook variable %.200s", vars->names[i]);
        add_secret(&g, label, vars->values[i]);
    }
}

void an_secrets_add_template(struct an_redactor *r, const char *label, const char *src,
                             an_secret_short_fn short_fn, void *ud)
{
    struct gather g = {r, short_fn, ud};
    struct an_vars none = AN_VARS_INIT;
    struct an_tmpl t = {.src = src};
    add_template(&g, label, &t, &none, false);
}

void an_secrets_add_env_refs(struct an_redactor *r, const char *text, an_secret_short_fn short_fn,
                             void *ud)
{
    struct gather g = {r, short_fn, ud};
    struct an_vars none = AN_VARS_INIT;
    add_refs(&g, text, &none);
}

/* ---- a hook's output, as far as it goes ---- */

/* The JSON string token at s[*i] (on its opening quote), decoded as far
 * as it goes: a string cut before its closing quote gives what came.
 * *i moves past it. Caller frees. */
static char *string_token(const char *s, size_t n, size_t *i)
{
    size_t a = *i, e = a + 1;
    while (e < n && s[e] != '"')
        e += s[e] == '\\' ? 2 : 1;
    bool closed = e < n;
    size_t end = closed ? e : n;
    *i = closed ? e + 1 : n;
    /* decode through jansson: the token, closed if it was cut (a cut
     * escape is dropped) */
    struct an_buf b = AN_BUF_INIT;
    an_buf_append(&b, s + a, end - a);
    for (int tries = 0; tries < 8; tries++) {
        struct an_buf t = AN_BUF_INIT;
        an_buf_append(&t, b.data, b.len);
        an_buf_putc(&t, '"');
        json_t *j = json_loadb(t.data, t.len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
        an_buf_release(&t);
        if (j) {
            char *v = an_xstrndup(json_string_value(j), json_string_length(j));
            json_decref(j);
            an_buf_release(&b);
            return v;
        }
        if (b.len <= 1)
            break;
        b.len--; /* a cut escape (\u00, a lone backslash): drop its last byte */
        b.data[b.len] = '\0';
    }
    an_buf_release(&b);
    return NULL;
}

void an_secrets_from_hook_output(struct an_redactor *r, const char *s, size_t n,
                                 an_secret_short_fn short_fn, void *ud)
{
    struct gather g = {r, short_fn, ud};
    /* every "KEY": VALUE pair, wherever it is: a hook cut in the middle of
     * printing its object still printed the members before the cut */
    for (size_t i = 0; i < n;) {
        if (s[i] != '"') {
            i++;
            continue;
        }
        char *key = string_token(s, n, &i);
        size_t j = i;
        while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n'))
            j++;
        if (!key || j >= n || s[j] != ':') {
            free(key);
            continue; /* a value, not a key: go on from after it */
        }
        j++;
        while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n'))
            j++;
        char *val = NULL;
        if (j < n && s[j] == '"') {
            val = string_token(s, n, &j);
        } else {
            size_t e = j;
            while (e < n && !strchr(",}] \t\r\n", s[e]))
                e++;
            val = an_xstrndup(s + j, e - j); /* a number, true ...: its text */
            j = e;
        }
        if (val && an_secret_name(key)) {
            char label[300];
            snprintf(label, sizeof label, "hook variable %.200s", key);
            add_secret(&g, label, val);
        }
        free(key);
        free(val);
        i = j;
    }
}
