#include "core/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned cp;
    if (c < 0x80)
        return c ? 1 : 0;
    if ((c & 0xE0) == 0xC0)
        len = 2, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0)
        len = 3, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0)
        len = 4, cp = c & 0x07;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

char *an_utf8_lossy(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    struct an_buf b = AN_BUF_INIT;
    size_t i = 0;
    while (i < n) {
        size_t k = utf8_seq(p + i, n - i);
        if (k) {
            an_buf_append(&b, p + i, k);
            i += k;
        } else {
            an_buf_append(&b, "\xEF\xBF\xBD", 3);
            i++;
        }
    }
    return an_buf_detach(&b, NULL);
}

json_t *an_json_lossy(const char *s, size_t n)
{
    char *clean = an_utf8_lossy(s, n);
    json_t *j = json_string_nocheck(clean);
    free(clean);
    if (!j)
        an_oom();
    return j;
}

/* Does the value hold a real anywhere? Only then is precision a question. */
static bool has_real(const json_t *v)
{
    if (json_is_real(v))
        return true;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            if (has_real(json_array_get(v, i)))
                return true;
    } else if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x)
        {
            if (has_real(x))
                return true;
        }
    }
    return false;
}

char *an_json_dumps(const json_t *v, size_t flags)
{
    if (!v)
        return an_xstrdup("null");
    flags |= JSON_ENCODE_ANY;
    /* jansson prints reals with 17 significant digits, so 54.99 reads back
     * as "54.990000000000002": unreadable, and a regex on the JSON text of
     * an argument would not find what the agent sent. 15 digits give the
     * shortest text for almost every value; keep it when it reads back as
     * the same doubles, else fall back to the exact 17. */
    if (has_real(v)) {
        char *s = json_dumps(v, flags | JSON_REAL_PRECISION(15));
        if (s) {
            json_t *back = json_loads(s, JSON_DECODE_ANY, NULL);
            bool same = back && json_equal(back, v);
            json_decref(back);
            if (same)
                return s;
            free(s);
        }
    }
    char *s = json_dumps(v, flags);
    if (!s)
        an_oom();
    return s;
}

char *an_json_compact(const json_t *v)
{
    return an_json_dumps(v, JSON_COMPACT);
}

const char *an_json_type_name(const json_t *v)
{
    if (!v)
        return "null";
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "object";
    case JSON_ARRAY:
        return "array";
    case JSON_STRING:
        return "string";
    case JSON_INTEGER:
    case JSON_REAL:
        return "number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "boolean";
    case JSON_NULL:
        break;
    }
    return "null";
}

const char *an_json_str(const json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

json_t *an_json_parse(const char *s, size_t n, char *why, size_t why_cap)
{
    json_error_t je;
    /* jansson limits nesting itself (JSON_PARSER_MAX_DEPTH, 2048). */
    json_t *v = json_loadb(s, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    if (!v && why)
        snprintf(why, why_cap, "%s at line %d column %d", je.text, je.line, je.column);
    return v;
}
