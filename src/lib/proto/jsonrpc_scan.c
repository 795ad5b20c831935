/* The members a JSON-RPC message is classified by (jsonrpc.h): read from
 * its bytes (an_rpc_scan), where only those members become jansson values,
 * each parsed from its own span of the text; or looked up in the object
 * the whole text was parsed into (an_rpc_members_of). */
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "proto/jsonrpc.h"

/* Deeper than this inside a member, the whole parse judges the message:
 * its depth limit counts the envelope, a member's parse would not. */
#define SCAN_MAX_DEPTH 512

static bool ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The bytes value_end() stops at; the rest of a value is skipped. */
static const unsigned char stop[256] = {
    ['"'] = 1, ['\\'] = 1, ['{'] = 1,  ['['] = 1,  ['}'] = 1,  [']'] = 1,
    [','] = 1, [' '] = 1,  ['\t'] = 1, ['\n'] = 1, ['\r'] = 1,
};

/* The end of the value starting at s[i] (i < n): strings and brackets are
 * followed, nothing is validated (the member's parse does that). 0 when it
 * does not end within n or nests too deep. */
static size_t value_end(const char *s, size_t n, size_t i)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned depth = 0;
    bool in_str = false;
    for (; i < n; i++) {
        if (!stop[u[i]])
            continue;
        char c = s[i];
        if (in_str) {
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                in_str = false;
                if (!depth)
                    return i + 1;
            }
        } else if (c == '"') {
            in_str = true;
        } else if (c == '{' || c == '[') {
            if (++depth > SCAN_MAX_DEPTH)
                return 0;
        } else if (c == '}' || c == ']') {
            if (!depth)
                return i; /* the envelope's own '}' ends a scalar */
            if (!--depth)
                return i + 1;
        } else if (!depth) {
            return i; /* ',' or white space after a scalar */
        }
    }
    return 0;
}

/* Which member a name is: 0 id, 1 method, 2 params, 3 result, 4 error,
 * -1 another one. */
static int member(const char *k, size_t kl)
{
    switch (kl) {
    case 2:
        return memcmp(k, "id", 2) ? -1 : 0;
    case 5:
        return memcmp(k, "error", 5) ? -1 : 4;
    case 6:
        return !memcmp(k, "method", 6)   ? 1
               : !memcmp(k, "params", 6) ? 2
               : !memcmp(k, "result", 6) ? 3
                                         : -1;
    }
    return -1;
}

void an_rpc_members_of(const json_t *obj, struct an_rpc_members *m)
{
    json_t **slot[] = {&m->id, &m->method, &m->params, &m->result, &m->error};
    const char *k;
    size_t kl;
    json_t *v;
    memset(m, 0, sizeof *m);
    /* one walk over the members instead of a lookup per name */
    json_object_keylen_foreach((json_t *)obj, k, kl, v)
    {
        int i = member(k, kl);
        if (i >= 0)
            *slot[i] = v;
    }
}

void an_rpc_members_release(struct an_rpc_members *m)
{
    json_decref(m->id);
    json_decref(m->method);
    json_decref(m->params);
    json_decref(m->result);
    json_decref(m->error);
    memset(m, 0, sizeof *m);
}

bool an_rpc_scan(const char *s, size_t n, struct an_rpc_members *out)
{
    json_t **slot[] = {&out->id, &out->method, &out->params, &out->result, &out->error};
    struct an_buf scratch = AN_BUF_INIT;
    size_t i = 0;
    memset(out, 0, sizeof *out);
    while (i < n && ws(s[i]))
        i++;
    if (i >= n || s[i] != '{')
        return false;
    for (i++; i < n && ws(s[i]); i++)
        ;
    bool first = true, ok = false;
    while (i < n) {
        if (s[i] == '}' && first) {
            i++;
            ok = true;
            break;
        }
        const char *k;
        size_t kl, used;
        if (s[i] != '"' || !an_json_scan_string(s + i, n - i, &scratch, &k, &kl, &used))
            break;
        int which = member(k, kl);
        for (i += used; i < n && ws(s[i]); i++)
            ;
        if (i >= n || s[i] != ':')
            break;
        for (i++; i < n && ws(s[i]); i++)
            ;
        size_t end = i < n ? value_end(s, n, i) : 0;
        if (!end || end == i)
            break;
        if (which >= 0 && *slot[which])
            break; /* a repeated member: its earlier value was not read */
        /* every value is parsed, so that the whole text is known to be
         * JSON; the string "2.0" of "jsonrpc" is checked by the scanner */
        json_t *v = NULL;
        const char *sv;
        size_t svl, su;
        bool plain = which < 0 && s[i] == '"' &&
                     an_json_scan_string(s + i, end - i, &scratch, &sv, &svl, &su) && su == end - i;
        if (!plain && !(v = an_json_parse(s + i, end - i, NULL, 0)))
            break;
        if (which >= 0)
            *slot[which] = v;
        else
            json_decref(v);
        for (i = end; i < n && ws(s[i]); i++)
            ;
        first = false;
        if (i < n && s[i] == ',') {
            for (i++; i < n && ws(s[i]); i++)
                ;
            if (i < n && s[i] == '}')
                break; /* a trailing comma */
            continue;
        }
        if (i < n && s[i] == '}') {
            i++;
            ok = true;
        }
        break;
    }
    while (ok && i < n && ws(s[i]))
        i++;
    an_buf_release(&scratch);
    if (!ok || i != n) {
        an_rpc_members_release(out);
        return false;
    }
    return true;
}
