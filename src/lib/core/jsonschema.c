/* JSON Schema validation (jsonschema.h). */
#include "core/jsonschema.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "ananke/regex.h"
#include "core/json.h"

#define MAX_NEST 256  /* schema nesting walked at compile time */
#define MAX_DEPTH 512 /* subschemas applied at once while validating */
#define MAX_REFS 128  /* $refs followed at once (each also checked for loops) */
#define SHOWN 60      /* bytes of a value quoted in a message */

struct pat {
    const json_t *node; /* the "pattern" string, or a patternProperties key's schema object */
    const char *key;    /* patternProperties: the key (the pattern); NULL for "pattern" */
    struct an_regex *re;
};

struct an_jschema {
    json_t *root;
    struct pat *pats;
    size_t npats, cap;
};

/* ---- shared helpers ---- */

static const char *const type_names[] = {"object",  "array",   "string", "number",
                                         "integer", "boolean", "null",   NULL};

static bool is_type_name(const char *s)
{
    for (size_t i = 0; type_names[i]; i++)
        if (!strcmp(type_names[i], s))
            return true;
    return false;
}

static void ptr_push(struct an_buf *p, const char *key)
{
    an_buf_putc(p, '/');
    for (const char *c = key; *c; c++) {
        if (*c == '~')
            an_buf_puts(p, "~0");
        else if (*c == '/')
            an_buf_puts(p, "~1");
        else
            an_buf_putc(p, *c);
    }
}

static void ptr_push_index(struct an_buf *p, size_t i)
{
    an_buf_printf(p, "/%zu", i);
}

static void ptr_pop(struct an_buf *p, size_t len)
{
    p->len = len;
    if (p->data)
        p->data[len] = '\0';
}

/* Regexes in schemas are plain patterns: a "/x/i" must not be read as
 * ananke's slash form, so such a pattern is wrapped in a group, which
 * matches the same and is never in that form. */
static int compile_pattern(const char *src, struct an_regex **out, struct an_err *e)
{
    if (src[0] != '/')
        return an_regex_compile(out, src, NULL, e);
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "(?:%s)", src);
    int rc = an_regex_compile(out, an_buf_cstr(&b), NULL, e);
    an_buf_release(&b);
    return rc;
}

/* Numbers compare by value; everything else structurally. */
static bool same(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b))
        return json_number_value(a) == json_number_value(b);
    if (json_typeof(a) != json_typeof(b))
        return false;
    if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b))
            return false;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!same(json_array_get(a, i), json_array_get(b, i)))
                return false;
        return true;
    }
    if (json_is_object(a)) {
        if (json_object_size(a) != json_object_size(b))
            return false;
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)a, k, v)
        {
            json_t *w = json_object_get(b, k);
            if (!w || !same(v, w))
                return false;
        }
        return true;
    }
    return json_equal((json_t *)a, (json_t *)b);
}

/* Resolve "#" or "#/a/b~1c" (percent-escapes decoded) in root; NULL when
 * it does not resolve or is not written that way. */
static const json_t *resolve(const json_t *root, const char *ref)
{
    if (ref[0] != '#')
        return NULL;
    const json_t *at = root;
    const char *p = ref + 1;
    if (!*p)
        return at;
    if (*p != '/')
        return NULL;
    while (*p == '/' && at) {
        p++;
        struct an_buf tok = AN_BUF_INIT;
        while (*p && *p != '/') {
            if (p[0] == '~' && p[1] == '0') {
                an_buf_putc(&tok, '~');
                p += 2;
            } else if (p[0] == '~' && p[1] == '1') {
                an_buf_putc(&tok, '/');
                p += 2;
            } else if (p[0] == '%' && p[1] && p[2] && strchr("0123456789abcdefABCDEF", p[1]) &&
                       strchr("0123456789abcdefABCDEF", p[2])) {
                char hex[3] = {p[1], p[2], 0};
                an_buf_putc(&tok, (char)strtol(hex, NULL, 16));
                p += 3;
            } else {
                an_buf_putc(&tok, *p++);
            }
        }
        const char *t = an_buf_cstr(&tok);
        if (json_is_object(at)) {
            at = json_object_get(at, t);
        } else if (json_is_array(at)) {
            char *end;
            unsigned long i = strtoul(t, &end, 10);
            at = *t && !*end && (t[0] != '0' || !t[1]) ? json_array_get(at, i) : NULL;
        } else {
            at = NULL;
        }
        an_buf_release(&tok);
    }
    return at;
}

/* ---- compiling: check the whole schema ---- */

struct cctx {
    struct an_jschema *s;
    struct an_buf ptr; /* where in the schema */
    char *why;
    size_t cap;
    unsigned depth;
};

static int cfail(struct cctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int cfail(struct cctx *c, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(c->why, c->cap, "at %s: %s", c->ptr.len ? an_buf_cstr(&c->ptr) : "the top", msg);
    return -1;
}

static void add_pat(struct an_jschema *s, const json_t *node, const char *key, struct an_regex *re)
{
    if (s->npats == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->pats = an_xrealloc(s->pats, s->cap * sizeof *s->pats);
    }
    s->pats[s->npats++] = (struct pat){node, key, re};
}

static const struct an_regex *find_pat(const struct an_jschema *s, const json_t *node,
                                       const char *key)
{
    for (size_t i = 0; i < s->npats; i++)
        if (s->pats[i].node == node && (!key || (s->pats[i].key && !strcmp(s->pats[i].key, key))))
            return s->pats[i].re;
    return NULL;
}

static int check_schema(struct cctx *c, const json_t *sch);

static int check_sub(struct cctx *c, const char *key, const json_t *sch)
{
    size_t at = c->ptr.len;
    ptr_push(&c->ptr, key);
    int rc = check_schema(c, sch);
    ptr_pop(&c->ptr, at);
    return rc;
}

/* A map of name -> schema (properties, patternProperties, $defs). */
static int check_map(struct cctx *c, const char *kw, const json_t *v)
{
    if (!json_is_object(v))
        return cfail(c, "'%s' must be an object of schemas", kw);
    size_t at = c->ptr.len;
    ptr_push(&c->ptr, kw);
    const char *k;
    json_t *m;
    int rc = 0;
    json_object_foreach((json_t *)v, k, m)
    {
        if ((rc = check_sub(c, k, m)))
            break;
    }
    ptr_pop(&c->ptr, at);
    return rc;
}

/* A non-empty list of schemas (allOf, anyOf, oneOf, items, prefixItems). */
static int check_list(struct cctx *c, const char *kw, const json_t *v, bool may_be_empty)
{
    if (!json_is_array(v) || (!may_be_empty && !json_array_size(v)))
        return cfail(c, "'%s' must be a %slist of schemas", kw, may_be_empty ? "" : "non-empty ");
    size_t at = c->ptr.len;
    ptr_push(&c->ptr, kw);
    size_t i;
    json_t *m;
    int rc = 0;
    json_array_foreach(v, i, m)
    {
        size_t at2 = c->ptr.len;
        ptr_push_index(&c->ptr, i);
        rc = check_schema(c, m);
        ptr_pop(&c->ptr, at2);
        if (rc)
            break;
    }
    ptr_pop(&c->ptr, at);
    return rc;
}

static bool is_count(const json_t *v)
{
    if (json_is_integer(v))
        return json_integer_value(v) >= 0;
    if (json_is_real(v)) {
        double d = json_real_value(v);
        return d >= 0 && d == floor(d) && d < 9e15;
    }
    return false;
}

/* The keywords that hold values: counts, numbers, type, required, enum. */
static int check_values(struct cctx *c, const json_t *sch)
{
    static const char *const counts[] = {"minLength",     "maxLength",     "minItems", "maxItems",
                                         "minProperties", "maxProperties", NULL};
    static const char *const numbers[] = {"minimum", "maximum", NULL};
    const json_t *v;
    int rc = 0;
    for (size_t i = 0; counts[i] && !rc; i++)
        if ((v = json_object_get(sch, counts[i])) && !is_count(v))
            rc = cfail(c, "'%s' must be a whole number, 0 or more", counts[i]);
    for (size_t i = 0; numbers[i] && !rc; i++)
        if ((v = json_object_get(sch, numbers[i])) && !json_is_number(v))
            rc = cfail(c, "'%s' must be a number", numbers[i]);
    static const char *const excl[] = {"exclusiveMinimum", "exclusiveMaximum", NULL};
    for (size_t i = 0; excl[i] && !rc; i++)
        if ((v = json_object_get(sch, excl[i])) && !json_is_number(v) && !json_is_boolean(v))
            rc = cfail(c, "'%s' must be a number (or, as in draft 4, true or false)", excl[i]);
    if (!rc && (v = json_object_get(sch, "multipleOf")) &&
        (!json_is_number(v) || json_number_value(v) <= 0))
        rc = cfail(c, "'multipleOf' must be a number greater than 0");
    if (!rc && (v = json_object_get(sch, "uniqueItems")) && !json_is_boolean(v))
        rc = cfail(c, "'uniqueItems' must be true or false");
    if (!rc && (v = json_object_get(sch, "type"))) {
        if (json_is_string(v)) {
            if (!is_type_name(json_string_value(v)))
                rc = cfail(c,
                           "unknown type '%s' (one of: object, array, string, number, integer, "
                           "boolean, null)",
                           json_string_value(v));
        } else if (json_is_array(v) && json_array_size(v)) {
            size_t i;
            json_t *t;
            json_array_foreach(v, i, t)
            {
                if (!json_is_string(t) || !is_type_name(json_string_value(t))) {
                    rc = cfail(c, "'type' lists '%s', which is not a JSON Schema type",
                               json_is_string(t) ? json_string_value(t) : an_json_type_name(t));
                    break;
                }
            }
        } else {
            rc = cfail(c, "'type' must be a type name or a non-empty list of them");
        }
    }
    if (!rc && (v = json_object_get(sch, "required"))) {
        size_t i;
        json_t *t;
        if (!json_is_array(v))
            rc = cfail(c, "'required' must be a list of property names");
        json_array_foreach(v, i, t)
        {
            if (!rc && !json_is_string(t))
                rc = cfail(c, "'required' must hold strings, not %s", an_json_type_name(t));
        }
    }
    if (!rc && (v = json_object_get(sch, "enum")) && !json_is_array(v))
        rc = cfail(c, "'enum' must be a list of values");
    return rc;
}

/* The keywords that hold a regex or a reference. */
static int check_refs(struct cctx *c, const json_t *sch)
{
    const json_t *v;
    int rc = 0;
    if (!rc && (v = json_object_get(sch, "pattern"))) {
        struct an_regex *re = NULL;
        struct an_err e = AN_ERR_INIT;
        if (!json_is_string(v))
            rc = cfail(c, "'pattern' must be a string");
        else if (compile_pattern(json_string_value(v), &re, &e))
            rc = cfail(c, "'pattern': %s", e.msg);
        else
            add_pat(c->s, v, NULL, re);
    }
    if (!rc && (v = json_object_get(sch, "patternProperties"))) {
        if ((rc = check_map(c, "patternProperties", v)))
            return rc;
        const char *k;
        json_t *m;
        json_object_foreach((json_t *)v, k, m)
        {
            struct an_regex *re = NULL;
            struct an_err e = AN_ERR_INIT;
            if (compile_pattern(k, &re, &e)) {
                rc = cfail(c, "'patternProperties': %s", e.msg);
                break;
            }
            add_pat(c->s, v, k, re);
        }
    }
    if (!rc && (v = json_object_get(sch, "$ref"))) {
        if (!json_is_string(v))
            rc = cfail(c, "'$ref' must be a string");
        else if (json_string_value(v)[0] != '#' ||
                 (json_string_value(v)[1] && json_string_value(v)[1] != '/'))
            rc = cfail(c,
                       "'$ref' '%s': only references inside this schema (\"#\" or "
                       "\"#/path/to/it\") are supported",
                       json_string_value(v));
        else if (!resolve(c->s->root, json_string_value(v)))
            rc = cfail(c, "'$ref' '%s' points at nothing in this schema", json_string_value(v));
        else if (!json_is_object(resolve(c->s->root, json_string_value(v))) &&
                 !json_is_boolean(resolve(c->s->root, json_string_value(v))))
            rc = cfail(c, "'$ref' '%s' points at %s, not a schema", json_string_value(v),
                       an_json_type_name(resolve(c->s->root, json_string_value(v))));
    }
    return rc;
}

/* The keywords that hold schemas, each checked in turn. */
static int check_children(struct cctx *c, const json_t *sch)
{
    static const char *const subs[] = {"not",      "additionalProperties", "additionalItems",
                                       "contains", "propertyNames",        NULL};
    const json_t *v;
    int rc = 0;
    for (size_t i = 0; subs[i] && !rc; i++)
        if ((v = json_object_get(sch, subs[i])))
            rc = check_sub(c, subs[i], v);
    if (!rc && (v = json_object_get(sch, "properties")))
        rc = check_map(c, "properties", v);
    if (!rc && (v = json_object_get(sch, "$defs")))
        rc = check_map(c, "$defs", v);
    if (!rc && (v = json_object_get(sch, "definitions")))
        rc = check_map(c, "definitions", v);
    if (!rc && (v = json_object_get(sch, "items")))
        rc = json_is_array(v) ? check_list(c, "items", v, true) : check_sub(c, "items", v);
    if (!rc && (v = json_object_get(sch, "prefixItems")))
        rc = check_list(c, "prefixItems", v, true);
    static const char *const lists[] = {"allOf", "anyOf", "oneOf", NULL};
    for (size_t i = 0; lists[i] && !rc; i++)
        if ((v = json_object_get(sch, lists[i])))
            rc = check_list(c, lists[i], v, false);
    return rc;
}

static int check_schema(struct cctx *c, const json_t *sch)
{
    if (json_is_boolean(sch))
        return 0;
    if (!json_is_object(sch))
        return cfail(c, "a schema must be an object or a boolean, not %s", an_json_type_name(sch));
    if (++c->depth > MAX_NEST) {
        c->depth--;
        return cfail(c, "schema nested deeper than %d levels", MAX_NEST);
    }
    int rc = check_values(c, sch);
    if (!rc)
        rc = check_refs(c, sch);
    if (!rc)
        rc = check_children(c, sch);
    c->depth--;
    return rc;
}

int an_jschema_compile(struct an_jschema **out, const json_t *schema, char *why, size_t cap)
{
    *out = NULL;
    struct an_jschema *s = an_xcalloc(1, sizeof *s);
    s->root = json_incref((json_t *)schema);
    struct cctx c = {.s = s, .why = why, .cap = cap};
    int rc = check_schema(&c, schema);
    an_buf_release(&c.ptr);
    if (rc) {
        an_jschema_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

void an_jschema_free(struct an_jschema *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->npats; i++)
        an_regex_free(s->pats[i].re);
    free(s->pats);
    json_decref(s->root);
    free(s);
}

/* ---- validating ---- */

struct ref_step {
    const json_t *target, *inst;
};

struct vctx {
    const struct an_jschema *s;
    struct an_jschema_errors *errs;
    struct an_buf ptr; /* where in the instance */
    unsigned quiet;    /* > 0: inside anyOf/oneOf/not, only the verdict counts */
    unsigned depth;
    struct ref_step refs[MAX_REFS];
    size_t nrefs;
};

static size_t verr(struct vctx *c, const char *kw, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static size_t verr(struct vctx *c, const char *kw, const char *fmt, ...)
{
    if (c->quiet || !c->errs)
        return 1;
    c->errs->total++;
    if (c->errs->n == AN_JSCHEMA_KEEP)
        return 1;
    struct an_buf m = AN_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    an_buf_vprintf(&m, fmt, ap);
    va_end(ap);
    struct an_jschema_error *e = &c->errs->v[c->errs->n++];
    e->where = an_xstrdup(an_buf_cstr(&c->ptr));
    e->keyword = kw;
    e->msg = an_buf_detach(&m, NULL);
    return 1;
}

/* A value as a message shows it: compact JSON, cut. */
static void show(struct an_buf *b, const json_t *v)
{
    char *t = an_json_compact(v);
    size_t n = strlen(t);
    if (n > SHOWN) {
        while (n > SHOWN - 3 || (n && ((unsigned char)t[n] & 0xC0) == 0x80))
            n--;
        an_buf_append(b, t, n);
        an_buf_puts(b, "…");
    } else {
        an_buf_append(b, t, n);
    }
    free(t);
}

static const char *shown(struct an_buf *b, const json_t *v)
{
    an_buf_reset(b);
    show(b, v);
    return an_buf_cstr(b);
}

static const char *type_of(const json_t *v)
{
    if (json_is_integer(v))
        return "integer";
    return an_json_type_name(v);
}

static bool has_type(const json_t *v, const char *t)
{
    if (!strcmp(t, "integer"))
        return json_is_integer(v) ||
               (json_is_real(v) && json_real_value(v) == floor(json_real_value(v)) &&
                isfinite(json_real_value(v)));
    if (!strcmp(t, "number"))
        return json_is_number(v);
    return !strcmp(an_json_type_name(v), t);
}

static size_t utf8_chars(const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            k++;
    return k;
}

static size_t apply(struct vctx *c, const json_t *sch, const json_t *inst);

static size_t apply_at(struct vctx *c, const json_t *sch, const json_t *inst, const char *key,
                       size_t index)
{
    size_t at = c->ptr.len;
    if (key)
        ptr_push(&c->ptr, key);
    else
        ptr_push_index(&c->ptr, index);
    size_t n = apply(c, sch, inst);
    ptr_pop(&c->ptr, at);
    return n;
}

/* Does `sch` accept `inst`? Nothing recorded. */
static bool accepts(struct vctx *c, const json_t *sch, const json_t *inst)
{
    c->quiet++;
    size_t n = apply(c, sch, inst);
    c->quiet--;
    return n == 0;
}

static size_t v_type(struct vctx *c, const json_t *t, const json_t *inst)
{
    if (json_is_string(t)) {
        if (has_type(inst, json_string_value(t)))
            return 0;
        return verr(c, "type", "expected %s, got %s", json_string_value(t), type_of(inst));
    }
    size_t i;
    json_t *e;
    json_array_foreach(t, i, e)
    {
        if (has_type(inst, json_string_value(e)))
            return 0;
    }
    struct an_buf b = AN_BUF_INIT;
    size_t n = verr(c, "type", "expected one of %s, got %s", shown(&b, t), type_of(inst));
    an_buf_release(&b);
    return n;
}

static size_t v_number(struct vctx *c, const json_t *sch, const json_t *inst)
{
    size_t n = 0;
    double x = json_number_value(inst);
    const json_t *v;
    struct an_buf a = AN_BUF_INIT, b = AN_BUF_INIT;
    const json_t *emin = json_object_get(sch, "exclusiveMinimum");
    const json_t *emax = json_object_get(sch, "exclusiveMaximum");
    if ((v = json_object_get(sch, "minimum"))) {
        bool excl = json_is_true(emin); /* draft 4 */
        if (excl ? !(x > json_number_value(v)) : x < json_number_value(v))
            n += verr(c, excl ? "exclusiveMinimum" : "minimum",
                      excl ? "%s is not greater than %s" : "%s is less than %s", shown(&a, inst),
                      shown(&b, v));
    }
    if ((v = json_object_get(sch, "maximum"))) {
        bool excl = json_is_true(emax);
        if (excl ? !(x < json_number_value(v)) : x > json_number_value(v))
            n += verr(c, excl ? "exclusiveMaximum" : "maximum",
                      excl ? "%s is not less than %s" : "%s is greater than %s", shown(&a, inst),
                      shown(&b, v));
    }
    if (json_is_number(emin) && !(x > json_number_value(emin)))
        n += verr(c, "exclusiveMinimum", "%s is not greater than %s", shown(&a, inst),
                  shown(&b, emin));
    if (json_is_number(emax) && !(x < json_number_value(emax)))
        n +=
            verr(c, "exclusiveMaximum", "%s is not less than %s", shown(&a, inst), shown(&b, emax));
    if ((v = json_object_get(sch, "multipleOf"))) {
        double q = x / json_number_value(v);
        if (!isfinite(q) || fabs(q - round(q)) > 1e-9 * fmax(1.0, fabs(q)))
            n += verr(c, "multipleOf", "%s is not a multiple of %s", shown(&a, inst), shown(&b, v));
    }
    an_buf_release(&a);
    an_buf_release(&b);
    return n;
}

static size_t v_string(struct vctx *c, const json_t *sch, const json_t *inst)
{
    size_t n = 0;
    const char *s = json_string_value(inst);
    size_t len = json_string_length(inst), chars = utf8_chars(s, len);
    const json_t *v;
    struct an_buf a = AN_BUF_INIT;
    if ((v = json_object_get(sch, "minLength")) && chars < (size_t)json_number_value(v))
        n += verr(c, "minLength", "%s has %zu character%s, fewer than %lld", shown(&a, inst), chars,
                  chars == 1 ? "" : "s", (long long)json_number_value(v));
    if ((v = json_object_get(sch, "maxLength")) && chars > (size_t)json_number_value(v))
        n += verr(c, "maxLength", "%s has %zu characters, more than %lld", shown(&a, inst), chars,
                  (long long)json_number_value(v));
    if ((v = json_object_get(sch, "pattern"))) {
        const struct an_regex *re = find_pat(c->s, v, NULL);
        if (re && !an_regex_search(re, s, len))
            n +=
                verr(c, "pattern", "%s does not match /%s/", shown(&a, inst), json_string_value(v));
    }
    an_buf_release(&a);
    return n;
}

static size_t v_array(struct vctx *c, const json_t *sch, const json_t *inst)
{
    size_t n = 0, len = json_array_size(inst);
    const json_t *v;
    if ((v = json_object_get(sch, "minItems")) && len < (size_t)json_number_value(v))
        n += verr(c, "minItems", "%zu item%s, fewer than %lld", len, len == 1 ? "" : "s",
                  (long long)json_number_value(v));
    if ((v = json_object_get(sch, "maxItems")) && len > (size_t)json_number_value(v))
        n += verr(c, "maxItems", "%zu items, more than %lld", len, (long long)json_number_value(v));
    if (json_is_true(json_object_get(sch, "uniqueItems"))) {
        bool dup = false;
        for (size_t i = 0; i < len && !dup; i++)
            for (size_t k = i + 1; k < len && !dup; k++)
                if (same(json_array_get(inst, i), json_array_get(inst, k))) {
                    n += verr(c, "uniqueItems", "items %zu and %zu are equal", i, k);
                    dup = true;
                }
    }
    /* positional schemas: prefixItems (2020-12) or items as a list (before) */
    const json_t *items = json_object_get(sch, "items");
    const json_t *tuple = json_object_get(sch, "prefixItems");
    const json_t *rest = NULL;
    if (!tuple && json_is_array(items)) {
        tuple = items;
        rest = json_object_get(sch, "additionalItems");
    } else {
        rest = items;
    }
    size_t from = 0;
    if (tuple) {
        from = json_array_size(tuple);
        for (size_t i = 0; i < len && i < from; i++)
            n += apply_at(c, json_array_get(tuple, i), json_array_get(inst, i), NULL, i);
    }
    if (rest)
        for (size_t i = from; i < len; i++)
            n += apply_at(c, rest, json_array_get(inst, i), NULL, i);
    if ((v = json_object_get(sch, "contains"))) {
        bool found = false;
        for (size_t i = 0; i < len && !found; i++)
            found = accepts(c, v, json_array_get(inst, i));
        if (!found)
            n += verr(c, "contains", "no item matches the schema in 'contains'");
    }
    return n;
}

static size_t v_object(struct vctx *c, const json_t *sch, const json_t *inst)
{
    size_t n = 0, size = json_object_size(inst);
    const json_t *v;
    if ((v = json_object_get(sch, "minProperties")) && size < (size_t)json_number_value(v))
        n += verr(c, "minProperties", "%zu propert%s, fewer than %lld", size,
                  size == 1 ? "y" : "ies", (long long)json_number_value(v));
    if ((v = json_object_get(sch, "maxProperties")) && size > (size_t)json_number_value(v))
        n += verr(c, "maxProperties", "%zu properties, more than %lld", size,
                  (long long)json_number_value(v));
    if ((v = json_object_get(sch, "required"))) {
        size_t i;
        json_t *k;
        json_array_foreach(v, i, k)
        {
            if (!json_object_get(inst, json_string_value(k)))
                n += verr(c, "required", "missing property '%s'", json_string_value(k));
        }
    }
    const json_t *props = json_object_get(sch, "properties");
    const json_t *pprops = json_object_get(sch, "patternProperties");
    const json_t *extra = json_object_get(sch, "additionalProperties");
    const json_t *names = json_object_get(sch, "propertyNames");
    const char *k;
    json_t *m;
    json_object_foreach((json_t *)inst, k, m)
    {
        bool known = false;
        const json_t *p = props ? json_object_get(props, k) : NULL;
        if (p) {
            known = true;
            n += apply_at(c, p, m, k, 0);
        }
        if (pprops) {
            const char *pk;
            json_t *ps;
            json_object_foreach((json_t *)pprops, pk, ps)
            {
                const struct an_regex *re = find_pat(c->s, pprops, pk);
                if (re && an_regex_search(re, k, strlen(k))) {
                    known = true;
                    n += apply_at(c, ps, m, k, 0);
                }
            }
        }
        if (names) {
            json_t *kj = an_json_lossy(k, strlen(k));
            if (!accepts(c, names, kj))
                n += verr(c, "propertyNames", "property name '%s' does not match the schema", k);
            json_decref(kj);
        }
        if (known || !extra)
            continue;
        if (json_is_false(extra)) {
            n += verr(c, "additionalProperties", "property '%s' is not allowed", k);
        } else if (!json_is_true(extra)) {
            n += apply_at(c, extra, m, k, 0);
        }
    }
    return n;
}

static size_t v_ref(struct vctx *c, const char *ref, const json_t *inst)
{
    const json_t *target = resolve(c->s->root, ref);
    if (!target)
        return verr(c, "$ref", "'%s' points at nothing", ref); /* compile refused this */
    for (size_t i = 0; i < c->nrefs; i++)
        if (c->refs[i].target == target && c->refs[i].inst == inst)
            return verr(c, "$ref",
                        "'%s' leads back to itself without going into the value (a reference "
                        "loop)",
                        ref);
    if (c->nrefs == MAX_REFS)
        return verr(c, "$ref", "more than %d references followed at once", MAX_REFS);
    c->refs[c->nrefs++] = (struct ref_step){target, inst};
    size_t n = apply(c, target, inst);
    c->nrefs--;
    return n;
}

static size_t v_combine(struct vctx *c, const json_t *sch, const json_t *inst)
{
    size_t n = 0, i;
    json_t *e;
    const json_t *v;
    if ((v = json_object_get(sch, "allOf")))
        json_array_foreach(v, i, e)
        {
            n += apply(c, e, inst);
        }
    if ((v = json_object_get(sch, "anyOf"))) {
        bool ok = false;
        json_array_foreach(v, i, e)
        {
            if ((ok = accepts(c, e, inst)))
                break;
        }
        if (!ok)
            n += verr(c, "anyOf", "matches none of the %zu schemas", json_array_size(v));
    }
    if ((v = json_object_get(sch, "oneOf"))) {
        size_t hits = 0, first = 0, second = 0;
        json_array_foreach(v, i, e)
        {
            if (accepts(c, e, inst)) {
                if (hits == 0)
                    first = i;
                else if (hits == 1)
                    second = i;
                hits++;
            }
        }
        if (hits == 0)
            n += verr(c, "oneOf", "matches none of the %zu schemas", json_array_size(v));
        else if (hits > 1)
            n += verr(c, "oneOf", "matches schemas %zu and %zu, exactly one expected", first,
                      second);
    }
    if ((v = json_object_get(sch, "not")) && accepts(c, v, inst))
        n += verr(c, "not", "matches the schema in 'not'");
    return n;
}

static size_t apply(struct vctx *c, const json_t *sch, const json_t *inst)
{
    if (json_is_true(sch))
        return 0;
    if (json_is_false(sch))
        return verr(c, "false", "no value is allowed here (the schema is false)");
    if (c->depth >= MAX_DEPTH)
        return verr(c, "$ref", "schema applied more than %d levels deep", MAX_DEPTH);
    c->depth++;
    size_t n = 0;
    const json_t *v;
    struct an_buf a = AN_BUF_INIT, b = AN_BUF_INIT;
    if ((v = json_object_get(sch, "type")))
        n += v_type(c, v, inst);
    if ((v = json_object_get(sch, "enum"))) {
        bool found = false;
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e)
        {
            if ((found = same(e, inst)))
                break;
        }
        if (!found)
            n += verr(c, "enum", "%s is not one of %s", shown(&a, inst), shown(&b, v));
    }
    if ((v = json_object_get(sch, "const")) && !same(v, inst))
        n += verr(c, "const", "expected %s, got %s", shown(&a, v), shown(&b, inst));
    an_buf_release(&a);
    an_buf_release(&b);
    if (json_is_number(inst))
        n += v_number(c, sch, inst);
    else if (json_is_string(inst))
        n += v_string(c, sch, inst);
    else if (json_is_array(inst))
        n += v_array(c, sch, inst);
    else if (json_is_object(inst))
        n += v_object(c, sch, inst);
    if ((v = json_object_get(sch, "$ref")))
        n += v_ref(c, json_string_value(v), inst);
    n += v_combine(c, sch, inst);
    c->depth--;
    return n;
}

size_t an_jschema_validate(const struct an_jschema *s, const json_t *instance,
                           struct an_jschema_errors *errs)
{
    struct vctx c = {.s = s, .errs = errs};
    an_buf_puts(&c.ptr, ""); /* an_buf_cstr works on an empty buffer too */
    size_t n = apply(&c, s->root, instance);
    an_buf_release(&c.ptr);
    return n;
}

void an_jschema_errors_release(struct an_jschema_errors *errs)
{
    for (size_t i = 0; i < errs->n; i++) {
        free(errs->v[i].where);
        free(errs->v[i].msg);
    }
    memset(errs, 0, sizeof *errs);
}

void an_jschema_error_format(const struct an_jschema_error *e, struct an_buf *b)
{
    an_buf_printf(b, "%s: %s: %s", e->where[0] ? e->where : "(root)", e->keyword, e->msg);
}
