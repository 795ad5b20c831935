/* .jsont compliance tests: textual interpolation, JSON parse, validation. */
#include "load/jsont.h"
#include "load/jsont_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonmatch.h"
#include "core/buf.h"
#include "core/json.h"

/* The step kinds by their key, in enum an_jsont_step_kind order. */
static const char *const step_keys[AN_JSONT_STEP_KINDS] = {
    "newSession", "send", "expect", "forbid", "delayMs", "run", "http", "mcpHttp"};

const char *an_jsont_step_name(enum an_jsont_step_kind k)
{
    return k < AN_JSONT_STEP_KINDS ? step_keys[k] : "?";
}

const char *an_jsont_protocol_name(enum an_jsont_protocol p)
{
    return p == AN_JSONT_AGUI ? "agui" : "acp";
}

const char *an_jsont_msg_name(enum an_jsont_msg_kind k)
{
    static const char *const names[] = {"response", "notification", "clientRequest"};
    return names[k];
}

json_t *an_jsont_default_caps(void)
{
    return json_pack("{s:{s:b,s:b},s:b}", "fs", "readTextFile", 1, "writeTextFile", 1, "terminal",
                     1);
}

/* ---- pass 1: text ---------------------------------------------------- */

/* A substitution made outside strings: output bytes [out, out+out_len)
 * came from source bytes [src, src+src_len). */
struct subst {
    size_t out, out_len, src, src_len;
};

/* A ${NAME} inside a string literal, checked once the captures are known. */
struct ref {
    char name[128];
    size_t src;
};

struct pass1 {
    struct an_buf out;
    struct subst *subs;
    size_t nsubs;
    struct ref *refs;
    size_t nrefs;
    bool uses_caps; /* a bare ${clientCapabilitiesDefault} */
};

static void pass1_release(struct pass1 *p)
{
    an_buf_release(&p->out);
    free(p->subs);
    free(p->refs);
    memset(p, 0, sizeof *p);
}

static void src_loc(const char *text, size_t off, const char *file, struct an_loc *loc)
{
    unsigned line = 1, col = 1;
    for (size_t i = 0; i < off && text[i]; i++) {
        if (text[i] == '\n') {
            line++;
            col = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            col++;
        }
    }
    loc->file = file;
    loc->line = line;
    loc->col = col;
}

static bool name_char(char c, bool first)
{
    return isalpha((unsigned char)c) || c == '_' ||
           (!first && (isdigit((unsigned char)c) || c == '.'));
}

static int pass1_run(struct pass1 *p, const char *file, const char *text, size_t len,
                     const char *caps_json, struct an_err *err)
{
    char pv[16];
    snprintf(pv, sizeof pv, "%d", AN_JSONT_PROTOCOL_VERSION);
    an_buf_init(&p->out, 0);
    bool in_str = false;
    size_t i = 0;
    while (i < len) {
        char c = text[i];
        if (in_str) {
            if (c == '\\' && i + 1 < len) {
                an_buf_append(&p->out, text + i, 2);
                i += 2;
                continue;
            }
            if (c == '"')
                in_str = false;
            if (c == '$' && i + 2 < len && text[i + 1] == '$' && text[i + 2] == '{') {
                an_buf_append(&p->out, text + i, 3);
                i += 3;
                continue;
            }
        } else if (c == '"') {
            in_str = true;
        }
        if (c != '$' || i + 1 >= len || text[i + 1] != '{') {
            an_buf_putc(&p->out, c);
            i++;
            continue;
        }
        size_t j = i + 2;
        while (j < len && name_char(text[j], j == i + 2))
            j++;
        struct an_loc loc;
        if (j >= len || text[j] != '}' || j == i + 2) {
            src_loc(text, i, file, &loc);
            size_t shown = j - i < 40 ? j - i + (j < len) : 40;
            return an_fail(err, AN_ESCHEMA, &loc,
                           "invalid variable reference '%.*s' (expected ${NAME})", (int)shown,
                           text + i);
        }
        size_t nlen = j - (i + 2);
        if (in_str) {
            if (nlen >= sizeof p->refs->name) {
                src_loc(text, i, file, &loc);
                return an_fail(err, AN_ESCHEMA, &loc, "variable name too long");
            }
            p->refs = an_xrealloc(p->refs, (p->nrefs + 1) * sizeof *p->refs);
            struct ref *r = &p->refs[p->nrefs++];
            memcpy(r->name, text + i + 2, nlen);
            r->name[nlen] = '\0';
            r->src = i;
            an_buf_append(&p->out, text + i, j + 1 - i);
            i = j + 1;
            continue;
        }
        const char *val = NULL;
        if (nlen == 22 && !strncmp(text + i + 2, "protocolVersionDefault", nlen))
            val = pv;
        else if (nlen == 25 && !strncmp(text + i + 2, "clientCapabilitiesDefault", nlen)) {
            val = caps_json;
            p->uses_caps = true;
        }
        if (!val) {
            src_loc(text, i, file, &loc);
            return an_fail(err, AN_EVAR, &loc,
                           "'${%.*s}' outside a string: only ${protocolVersionDefault} and "
                           "${clientCapabilitiesDefault} can stand for a JSON value (write "
                           "\"${%.*s}\")",
                           (int)nlen, text + i + 2, (int)nlen, text + i + 2);
        }
        p->subs = an_xrealloc(p->subs, (p->nsubs + 1) * sizeof *p->subs);
        p->subs[p->nsubs++] = (struct subst){p->out.len, strlen(val), i, j + 1 - i};
        an_buf_puts(&p->out, val);
        i = j + 1;
    }
    return AN_OK;
}

/* An offset in pass 1's output back to the source. */
static size_t map_back(const struct pass1 *p, size_t off)
{
    long delta = 0;
    for (size_t k = 0; k < p->nsubs; k++) {
        const struct subst *s = &p->subs[k];
        if (off < s->out)
            break;
        if (off < s->out + s->out_len)
            return s->src;
        delta = (long)(s->src + s->src_len) - (long)(s->out + s->out_len);
    }
    return (size_t)((long)off + delta);
}

static json_t *pass1_parse(struct pass1 *p, const char *file, const char *text, struct an_err *err)
{
    json_error_t je;
    json_t *v = json_loadb(an_buf_cstr(&p->out), p->out.len, JSON_REJECT_DUPLICATES, &je);
    if (!v) {
        struct an_loc loc;
        size_t off = je.position > 0 ? (size_t)je.position - 1 : 0;
        src_loc(text, map_back(p, off), file, &loc);
        an_fail(err, AN_EPARSE, &loc, "invalid JSON after interpolation: %s",
                an_json_error_text(&je));
    }
    return v;
}

/* ---- pass 3: validation into the model --------------------------------- */

void jsont_loc_at(const struct jsont_ld *l, const char *path, struct an_loc *loc)
{
    loc->file = l->file;
    loc->line = 0;
    loc->col = 0;
    if (!path || !*path || !l->pass || !l->src)
        return;
    const struct pass1 *p = l->pass;
    size_t off = jsont_locate(an_buf_cstr(&p->out), p->out.len, path);
    src_loc(l->src, map_back(p, off), l->file, loc);
}

static int fail_atv(struct jsont_ld *l, int code, const char *path, const char *fmt, va_list ap)
{
    struct an_loc loc;
    jsont_loc_at(l, path, &loc);
    an_failv(l->err, code, &loc, fmt, ap);
    return code;
}

int jsont_fail_at(struct jsont_ld *l, int code, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_atv(l, code, path, fmt, ap);
    va_end(ap);
    return code;
}

/* A schema error at the step being read (l->at), or without a position. */
static int bad(struct jsont_ld *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct jsont_ld *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fail_atv(l, AN_ESCHEMA, l->at, fmt, ap);
    va_end(ap);
    return AN_ESCHEMA;
}

json_t *jsont_keep(struct jsont_ld *l, json_t *v)
{
    json_incref(v);
    an_arena_defer(&l->t->arena, (void (*)(void *))json_decref, v);
    return v;
}

static int get_ms(struct jsont_ld *l, json_t *v, const char *what, int64_t *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) > 24LL * 3600 * 1000)
        return bad(l, "%s must be a whole number of milliseconds (0 to 86400000)", what);
    *out = (int64_t)json_integer_value(v);
    return AN_OK;
}

static int b64_val(int c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

/* Decode base64 (standard or URL alphabet, padding optional, whitespace
 * skipped). */
static unsigned char *b64_decode(const char *s, size_t *len)
{
    size_t n = strlen(s);
    unsigned char *out = an_xmalloc(n / 4 * 3 + 4);
    size_t o = 0;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        if (isspace((unsigned char)s[i]))
            continue;
        if (s[i] == '=')
            break;
        int v = b64_val((unsigned char)s[i]);
        if (v < 0) {
            free(out);
            return NULL;
        }
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    *len = o;
    return out;
}

/* An MCP revision: a date, YYYY-MM-DD. */
static bool is_revision_date(const char *s)
{
    for (size_t i = 0; i < 10; i++)
        if (i == 4 || i == 7 ? s[i] != '-' : s[i] < '0' || s[i] > '9')
            return false;
    return s[10] == '\0';
}

static int load_strings(struct jsont_ld *l, json_t *v, const char *what, const char ***out,
                        size_t *n, bool nonempty)
{
    if (!json_is_array(v) || (nonempty && json_array_size(v) == 0))
        return bad(l, "'%s' must be a%s array of strings", what, nonempty ? " non-empty" : "n");
    *n = json_array_size(v);
    *out = an_arena_alloc(&l->t->arena, (*n + 1) * sizeof **out);
    for (size_t i = 0; i < *n; i++) {
        json_t *s = json_array_get(v, i);
        if (!json_is_string(s))
            return bad(l, "'%s[%zu]' must be a string", what, i);
        (*out)[i] = an_arena_strdup(&l->t->arena, json_string_value(s));
    }
    return AN_OK;
}

static int load_files(struct jsont_ld *l, json_t *sb)
{
    if (!sb)
        return AN_OK;
    if (!json_is_object(sb))
        return bad(l, "'sandbox' must be an object");
    json_t *files = json_object_get(sb, "files");
    if (!files)
        return AN_OK;
    if (!json_is_array(files))
        return bad(l, "'sandbox.files' must be an array");
    struct an_jsont *t = l->t;
    t->nfiles = json_array_size(files);
    t->files = an_arena_alloc(&t->arena, (t->nfiles + 1) * sizeof *t->files);
    for (size_t i = 0; i < t->nfiles; i++) {
        json_t *f = json_array_get(files, i);
        const char *path = an_json_str(f, "path");
        const char *text = an_json_str(f, "text");
        const char *b64 = an_json_str(f, "base64");
        if (!json_is_object(f) || !path || !*path)
            return bad(l, "sandbox.files[%zu] needs a 'path' string", i);
        if (path[0] == '/' || !strcmp(path, "..") || !strncmp(path, "../", 3) ||
            strstr(path, "/../") || (strlen(path) >= 3 && !strcmp(path + strlen(path) - 3, "/..")))
            return bad(l,
                       "sandbox.files[%zu]: path '%s' must be relative and stay in "
                       "the sandbox",
                       i, path);
        if (!!text == !!b64)
            return bad(l, "sandbox.files[%zu] ('%s') needs exactly one of 'text' or 'base64'", i,
                       path);
        struct an_jsont_file *tf = &t->files[i];
        tf->path = an_arena_strdup(&t->arena, path);
        if (text) {
            tf->text = an_arena_strdup(&t->arena, text);
            tf->data = tf->text;
            tf->len = json_string_length(json_object_get(f, "text"));
        } else {
            size_t n = 0;
            unsigned char *d = b64_decode(b64, &n);
            if (!d)
                return bad(l, "sandbox.files[%zu] ('%s'): 'base64' is not valid base64", i, path);
            void *copy = an_arena_alloc(&t->arena, n + 1);
            memcpy(copy, d, n);
            free(d);
            tf->data = copy;
            tf->len = n;
        }
    }
    return AN_OK;
}

static int load_preconds(struct jsont_ld *l, json_t *pc)
{
    if (!pc)
        return AN_OK;
    if (!json_is_array(pc))
        return bad(l, "'preconditions' must be an array");
    struct an_jsont *t = l->t;
    t->npreconds = json_array_size(pc);
    t->preconds = an_arena_alloc(&t->arena, (t->npreconds + 1) * sizeof *t->preconds);
    for (size_t i = 0; i < t->npreconds; i++) {
        json_t *c = json_array_get(pc, i);
        const char *ac = an_json_str(c, "agentCap"), *cc = an_json_str(c, "cap");
        if (!json_is_object(c) || !!ac == !!cc)
            return bad(l,
                       "preconditions[%zu] needs exactly one of 'agentCap' or 'cap' "
                       "(a string)",
                       i);
        struct an_jsont_precond *p = &t->preconds[i];
        p->agent = ac != NULL;
        p->path = an_arena_strdup(&t->arena, ac ? ac : cc);
        if (!p->agent && strncmp(p->path, "client.", 7) != 0)
            return bad(l,
                       "preconditions[%zu]: 'cap' paths start with 'client.' (e.g. "
                       "client.fs.readTextFile), not '%s'",
                       i, p->path);
        json_t *mb = json_object_get(c, "mustBe");
        p->must_be = jsont_keep(l, mb ? mb : json_true());
    }
    return AN_OK;
}

static void merge_into(json_t *dst, json_t *src)
{
    const char *k;
    json_t *v;
    json_object_foreach(src, k, v)
    {
        json_t *d = json_object_get(dst, k);
        if (json_is_object(d) && json_is_object(v))
            merge_into(d, v);
        else
            json_object_set(dst, k, v);
    }
}

static int load_init(struct jsont_ld *l, json_t *init)
{
    struct an_jsont *t = l->t;
    json_t *caps = an_jsont_default_caps();
    t->client_caps = jsont_keep(l, caps);
    json_decref(caps);
    if (!init)
        return AN_OK;
    if (!json_is_object(init))
        return bad(l, "'init' must be an object");
    json_t *cc = json_object_get(init, "clientCapabilities");
    if (cc && !json_is_object(cc))
        return bad(l, "'init.clientCapabilities' must be an object");
    if (cc)
        merge_into(t->client_caps, cc);
    json_t *pp = json_object_get(init, "permissionPolicy");
    if (pp) {
        const char *s = json_string_value(pp);
        if (!s)
            return bad(l, "'init.permissionPolicy' must be a string");
        if (!strcmp(s, "yolo"))
            t->policy = AN_POLICY_YOLO;
        else if (!strcmp(s, "none"))
            t->policy = AN_POLICY_NONE;
        else if (!strcmp(s, "read"))
            t->policy = AN_POLICY_READ;
        else if (!strcmp(s, "write"))
            t->policy = AN_POLICY_WRITE;
        else
            return bad(l, "'init.permissionPolicy' must be none, read, write or yolo, not '%s'", s);
    }
    return AN_OK;
}

static int load_expect(struct jsont_ld *l, struct an_jsont_step *st, json_t *ex)
{
    size_t i = st->index;
    struct an_arena *a = &l->t->arena;
    if (!json_is_object(ex))
        return bad(l, "steps[%zu]: 'expect' must be an object", i);
    st->ms = AN_JSONT_EXPECT_TIMEOUT_MS;
    json_t *to = json_object_get(ex, "timeoutMs");
    char what[64];
    snprintf(what, sizeof what, "steps[%zu]: 'expect.timeoutMs'", i);
    if (to && get_ms(l, to, what, &st->ms))
        return AN_ESCHEMA;
    json_t *any = json_object_get(ex, "anyOf");
    if (any && !json_is_boolean(any))
        return bad(l, "steps[%zu]: 'expect.anyOf' must be true or false", i);
    st->any_of = json_is_true(any);
    json_t *msgs = json_object_get(ex, "messages");
    if (!json_is_array(msgs) || json_array_size(msgs) == 0)
        return bad(l, "steps[%zu]: 'expect.messages' must be a non-empty array", i);
    st->nmsgs = json_array_size(msgs);
    st->msgs = an_arena_alloc(a, st->nmsgs * sizeof *st->msgs);
    for (size_t m = 0; m < st->nmsgs; m++) {
        json_t *env = json_array_get(msgs, m);
        static const char *const kinds[] = {"response", "notification", "clientRequest"};
        int found = -1;
        for (int k = 0; k < 3; k++) {
            if (json_object_get(env, kinds[k])) {
                if (found >= 0)
                    return bad(l, "steps[%zu]: expect.messages[%zu] has both '%s' and '%s'", i, m,
                               kinds[found], kinds[k]);
                found = k;
            }
        }
        if (!json_is_object(env) || found < 0)
            return bad(l,
                       "steps[%zu]: expect.messages[%zu] needs one of 'response', "
                       "'notification' or 'clientRequest'",
                       i, m);
        json_t *pat = json_object_get(env, kinds[found]);
        if (!json_is_object(pat))
            return bad(l, "steps[%zu]: expect.messages[%zu].%s must be an object", i, m,
                       kinds[found]);
        struct an_jsont_expected *e = &st->msgs[m];
        e->kind = (enum an_jsont_msg_kind)found;
        json_t *reply = json_object_get(env, "reply");
        json_t *copy = json_deep_copy(pat);
        if (!reply && e->kind == AN_JSONT_CLIENT_REQUEST && json_object_get(copy, "reply")) {
            reply = json_object_get(pat, "reply"); /* accepted inside too */
            json_object_del(copy, "reply");
        }
        e->pattern = jsont_keep(l, copy);
        json_decref(copy);
        if (reply) {
            if (e->kind != AN_JSONT_CLIENT_REQUEST)
                return bad(l,
                           "steps[%zu]: expect.messages[%zu]: 'reply' goes with a "
                           "'clientRequest' only",
                           i, m);
            if (!json_is_object(reply) ||
                !!json_object_get(reply, "result") == !!json_object_get(reply, "error"))
                return bad(l,
                           "steps[%zu]: expect.messages[%zu].reply needs exactly one of "
                           "'result' or 'error'",
                           i, m);
            e->reply = jsont_keep(l, reply);
        }
        struct an_loc loc;
        jsont_loc_at(l, l->at, &loc);
        if (an_jm_check(e->pattern, &loc, l->err)) {
            an_err_prefix(l->err, "steps[%zu]: expect.messages[%zu].%s: ", i, m, kinds[found]);
            return AN_EREGEX;
        }
    }
    json_t *caps = json_object_get(ex, "captures");
    if (caps) {
        if (!json_is_array(caps))
            return bad(l, "steps[%zu]: 'expect.captures' must be an array", i);
        st->ncaptures = json_array_size(caps);
        st->captures = an_arena_alloc(a, (st->ncaptures + 1) * sizeof *st->captures);
        for (size_t c = 0; c < st->ncaptures; c++) {
            json_t *cv = json_array_get(caps, c);
            const char *path = an_json_str(cv, "path"), *var = an_json_str(cv, "var");
            if (!path || !var || !*var)
                return bad(l, "steps[%zu]: expect.captures[%zu] needs 'path' and 'var' strings", i,
                           c);
            st->captures[c].path = an_arena_strdup(a, path);
            st->captures[c].var = an_arena_strdup(a, var);
            st->captures[c].from = -1;
            json_t *from = json_object_get(cv, "from");
            if (from) {
                if (!json_is_integer(from) || json_integer_value(from) < 0 ||
                    (size_t)json_integer_value(from) >= st->nmsgs)
                    return bad(l,
                               "steps[%zu]: expect.captures[%zu].from must index "
                               "expect.messages",
                               i, c);
                st->captures[c].from = (int)json_integer_value(from);
            }
        }
    }
    return AN_OK;
}

/* {"newSession": {"capture"?, "mcpServers"?}} */
static int load_new_session(struct jsont_ld *l, struct an_jsont_step *st, json_t *v)
{
    size_t i = st->index;
    struct an_arena *a = &l->t->arena;
    if (!json_is_object(v))
        return bad(l, "steps[%zu]: 'newSession' must be an object", i);
    json_t *cap = json_object_get(v, "capture");
    if (cap && (!json_is_string(cap) || !json_string_length(cap)))
        return bad(l, "steps[%zu]: 'newSession.capture' must be a variable name", i);
    st->capture = an_arena_strdup(a, cap ? json_string_value(cap) : "sessionId");
    json_t *mcp = json_object_get(v, "mcpServers");
    if (mcp && !json_is_array(mcp))
        return bad(l, "steps[%zu]: 'newSession.mcpServers' must be an array", i);
    json_t *arr = mcp ? json_incref(mcp) : json_array();
    st->mcp_servers = jsont_keep(l, arr);
    json_decref(arr);
    return AN_OK;
}

/* {"send": FRAME, "expectError"?}: the frame as written, expectError out */
static int load_send(struct jsont_ld *l, struct an_jsont_step *st, json_t *v, json_t *s)
{
    size_t i = st->index;
    if (!json_is_object(v))
        return bad(l, "steps[%zu]: 'send' must be an object (a JSON-RPC frame)", i);
    if (!json_is_string(json_object_get(v, "method")))
        return bad(l, "steps[%zu]: 'send' needs a 'method' string", i);
    json_t *frame = json_deep_copy(v);
    st->expect_error = -1;
    json_t *ee = json_object_get(frame, "expectError");
    if (!ee)
        ee = json_object_get(s, "expectError");
    if (ee) {
        if (!json_is_boolean(ee)) {
            json_decref(frame);
            return bad(l, "steps[%zu]: 'expectError' must be true or false", i);
        }
        st->expect_error = json_is_true(ee);
        json_object_del(frame, "expectError");
    }
    st->has_id = json_object_get(frame, "id") != NULL;
    if (st->expect_error == 1 && !st->has_id) {
        json_decref(frame);
        return bad(l, "steps[%zu]: 'expectError' needs a request ('send' with an 'id')", i);
    }
    st->frame = jsont_keep(l, frame);
    json_decref(frame);
    return AN_OK;
}

/* {"forbid": {"timeoutMs"?, "methods"?, "messages"?}} */
static int load_forbid(struct jsont_ld *l, struct an_jsont_step *st, json_t *v)
{
    size_t i = st->index;
    struct an_arena *a = &l->t->arena;
    if (!json_is_object(v))
        return bad(l, "steps[%zu]: 'forbid' must be an object", i);
    st->ms = AN_JSONT_FORBID_TIMEOUT_MS;
    json_t *to = json_object_get(v, "timeoutMs");
    char what[64];
    snprintf(what, sizeof what, "steps[%zu]: 'forbid.timeoutMs'", i);
    if (to && get_ms(l, to, what, &st->ms))
        return AN_ESCHEMA;
    json_t *fm = json_object_get(v, "methods"), *fe = json_object_get(v, "messages");
    if (!fm && !fe)
        return bad(l,
                   "steps[%zu]: 'forbid' needs 'methods' (names) or 'messages' "
                   "(envelopes)",
                   i);
    snprintf(what, sizeof what, "steps[%zu].forbid.methods", i);
    if (fm && load_strings(l, fm, what, &st->methods, &st->nmethods, true))
        return AN_ESCHEMA;
    if (!fe)
        return AN_OK;
    /* an extension: agent requests or notifications matching any of
     * these partial envelopes are forbidden too */
    if (!json_is_array(fe) || !json_array_size(fe))
        return bad(l, "steps[%zu]: 'forbid.messages' must be a non-empty array", i);
    st->nmsgs = json_array_size(fe);
    st->msgs = an_arena_alloc(a, st->nmsgs * sizeof *st->msgs);
    for (size_t m = 0; m < st->nmsgs; m++) {
        json_t *env = json_array_get(fe, m);
        json_t *cr = json_object_get(env, "clientRequest"),
               *nt = json_object_get(env, "notification");
        if (!json_is_object(cr) == !json_is_object(nt))
            return bad(l,
                       "steps[%zu]: forbid.messages[%zu] needs one of 'clientRequest' or "
                       "'notification' (an object)",
                       i, m);
        st->msgs[m].kind = cr ? AN_JSONT_CLIENT_REQUEST : AN_JSONT_NOTIFICATION;
        st->msgs[m].pattern = jsont_keep(l, cr ? cr : nt);
        struct an_loc loc;
        jsont_loc_at(l, l->at, &loc);
        if (an_jm_check(st->msgs[m].pattern, &loc, l->err)) {
            an_err_prefix(l->err, "steps[%zu]: forbid.messages[%zu]: ", i, m);
            return AN_EREGEX;
        }
    }
    return AN_OK;
}

static int load_step(struct jsont_ld *l, struct an_jsont_step *st, json_t *s)
{
    size_t i = st->index;
    if (!json_is_object(s))
        return bad(l, "steps[%zu] must be an object", i);
    const char *const *kinds = step_keys;
    int found = -1;
    for (int k = 0; k < AN_JSONT_STEP_KINDS; k++) {
        if (json_object_get(s, kinds[k])) {
            if (found >= 0)
                return bad(l, "steps[%zu] has both '%s' and '%s' (one kind per step)", i,
                           kinds[found], kinds[k]);
            found = k;
        }
    }
    if (found < 0) {
        const char *k0 = "";
        void *it = json_object_iter(s);
        if (it)
            k0 = json_object_iter_key(it);
        return bad(l,
                   "steps[%zu] has no known kind ('%s'?): expected one of "
                   "newSession, send, expect, forbid, delayMs (ACP), mcpHttp (MCP) or run, "
                   "http, delayMs (AG-UI)",
                   i, k0);
    }
    st->kind = (enum an_jsont_step_kind)found;
    json_t *v = json_object_get(s, kinds[found]);
    switch (st->kind) {
    case AN_JSONT_AGUI_RUN:
    case AN_JSONT_AGUI_HTTP:
    case AN_JSONT_MCP_HTTP:
        return jsont_load_agui_step(l, st, kinds[found], v, s);
    case AN_JSONT_NEW_SESSION:
        return load_new_session(l, st, v);
    case AN_JSONT_SEND:
        return load_send(l, st, v, s);
    case AN_JSONT_EXPECT:
        return load_expect(l, st, v);
    case AN_JSONT_FORBID:
        return load_forbid(l, st, v);
    case AN_JSONT_DELAY: {
        char what[64];
        snprintf(what, sizeof what, "steps[%zu]: 'delayMs'", i);
        return get_ms(l, v, what, &st->ms);
    }
    case AN_JSONT_STEP_KINDS:
        break;
    }
    return AN_OK;
}

static bool known_var(const struct an_jsont *t, const char *name)
{
    static const char *const acp[] = {
        "sandbox", "protocolVersionDefault", "clientCapabilitiesDefault", "sessionId", "suiteDir",
        NULL};
    static const char *const agui[] = {"threadId", "runId", "messageId", "suiteDir", NULL};
    for (const char *const *b = t->protocol == AN_JSONT_AGUI ? agui : acp; *b; b++)
        if (!strcmp(name, *b))
            return true;
    if (!strncmp(name, "ENV.", 4) && name[4])
        return true;
    for (size_t s = 0; s < t->nsteps; s++) {
        const struct an_jsont_step *st = &t->steps[s];
        if (st->kind == AN_JSONT_NEW_SESSION && !strcmp(st->capture, name))
            return true;
        for (size_t c = 0; c < st->ncaptures; c++)
            if (!strcmp(st->captures[c].var, name))
                return true;
    }
    return false;
}

static int build(struct jsont_ld *l, json_t *root)
{
    struct an_jsont *t = l->t;
    struct an_arena *a = &t->arena;
    if (!json_is_object(root))
        return bad(l, "a .jsont test must be a JSON object");
    const char *title = an_json_str(root, "title");
    if (!title || !*title)
        return bad(l, "'title' must be a non-empty string");
    t->title = an_arena_strdup(a, title);
    const char *desc = an_json_str(root, "description");
    if (!desc || !*desc)
        return bad(l, "'description' must be a non-empty string (what the test verifies)");
    t->description = an_arena_strdup(a, desc);
    json_t *area = json_object_get(root, "area");
    if (area && (!json_is_string(area) || !json_string_length(area)))
        return bad(l, "'area' must be a non-empty string");
    t->area = an_arena_strdup(a, area ? json_string_value(area) : title);
    const char *sev = an_json_str(root, "severity");
    if (!sev || (strcmp(sev, "required") && strcmp(sev, "optional")))
        return bad(l, "'severity' must be \"required\" or \"optional\"");
    t->required = !strcmp(sev, "required");
    if (load_strings(l, json_object_get(root, "docs"), "docs", &t->docs, &t->ndocs, true))
        return AN_ESCHEMA;
    json_t *reqs = json_object_get(root, "requirements");
    if (reqs && load_strings(l, reqs, "requirements", &t->requirements, &t->nrequirements, false))
        return AN_ESCHEMA;
    json_t *bind = json_object_get(root, "bindings");
    if (bind && load_strings(l, bind, "bindings", &t->bindings, &t->nbindings, false))
        return AN_ESCHEMA;
    for (size_t i = 0; i < t->nbindings; i++)
        if (strcmp(t->bindings[i], "jsonrpc") && strcmp(t->bindings[i], "rest"))
            return bad(l, "'bindings' lists \"jsonrpc\" and \"rest\" (A2A), not '%s'",
                       t->bindings[i]);
    json_t *revs = json_object_get(root, "revisions");
    if (revs && load_strings(l, revs, "revisions", &t->revisions, &t->nrevisions, false))
        return AN_ESCHEMA;
    for (size_t i = 0; i < t->nrevisions; i++)
        if (strcmp(t->revisions[i], "0.3") && strcmp(t->revisions[i], "1.0") &&
            !is_revision_date(t->revisions[i]))
            return bad(l,
                       "'revisions' lists \"0.3\" and \"1.0\" (A2A), not '%s' (MCP: revision "
                       "dates, e.g. 2025-11-25)",
                       t->revisions[i]);
    int rc;
    if ((rc = load_preconds(l, json_object_get(root, "preconditions"))) ||
        (rc = load_files(l, json_object_get(root, "sandbox"))) ||
        (rc = load_init(l, json_object_get(root, "init"))))
        return rc;
    json_t *steps = json_object_get(root, "steps");
    if (!json_is_array(steps) || json_array_size(steps) == 0)
        return bad(l, "'steps' must be a non-empty array");
    t->nsteps = json_array_size(steps);
    t->steps = an_arena_alloc(a, t->nsteps * sizeof *t->steps);
    int first_acp = -1, first_agui = -1;
    for (size_t i = 0; i < t->nsteps; i++) {
        t->steps[i].index = i;
        snprintf(l->at, sizeof l->at, "steps.%zu", i);
        if ((rc = load_step(l, &t->steps[i], json_array_get(steps, i))))
            return rc;
        enum an_jsont_step_kind k = t->steps[i].kind;
        if (k == AN_JSONT_DELAY)
            continue;
        bool agui = k == AN_JSONT_AGUI_RUN || k == AN_JSONT_AGUI_HTTP;
        int *first = agui ? &first_agui : &first_acp;
        if (*first < 0)
            *first = (int)i;
        if (first_acp >= 0 && first_agui >= 0)
            return bad(l,
                       "steps[%zu]: '%s' is an %s step, but steps[%d] is an %s step ('%s'): "
                       "a test speaks one protocol",
                       i, an_jsont_step_name(k), agui ? "AG-UI" : "ACP",
                       agui ? first_acp : first_agui, agui ? "ACP" : "AG-UI",
                       an_jsont_step_name(t->steps[agui ? first_acp : first_agui].kind));
    }
    l->at[0] = '\0';
    if (first_agui >= 0) {
        t->protocol = AN_JSONT_AGUI;
        /* preconditions stay: an A2A test's are over the card's capabilities */
        static const char *const acp_only[] = {"sandbox", "init"};
        for (size_t k = 0; k < 2; k++)
            if (json_object_get(root, acp_only[k]))
                return jsont_fail_at(l, AN_ESCHEMA, acp_only[k],
                                     "'%s' belongs to ACP tests; an AG-UI or A2A test (steps "
                                     "'run', 'http') has none",
                                     acp_only[k]);
    }
    const struct an_jsont_step *s0 = &t->steps[0];
    /* a test that starts with an mcpHttp step makes its own sessions */
    t->self_init = (s0->kind == AN_JSONT_SEND &&
                    !strcmp(an_json_str(s0->frame, "method"), "initialize")) ||
                   s0->kind == AN_JSONT_MCP_HTTP;
    return AN_OK;
}

static const char *base_id(struct an_arena *a, const char *file)
{
    const char *slash = strrchr(file, '/');
    const char *b = slash ? slash + 1 : file;
    size_t n = strlen(b);
    if (n > 6 && !strcmp(b + n - 6, ".jsont"))
        n -= 6;
    return an_arena_strndup(a, b, n);
}

int an_jsont_load_text(struct an_jsont **out, const char *file, const char *text, size_t len,
                       struct an_err *err)
{
    struct an_jsont *t = an_xcalloc(1, sizeof *t);
    struct pass1 p = {0};
    json_t *root = NULL;
    int rc;
    *out = NULL;
    t->file = an_arena_strdup(&t->arena, file);
    t->id = base_id(&t->arena, file);
    struct jsont_ld l = {.t = t, .file = t->file, .err = err, .src = text};
    if (memchr(text, '\0', len)) {
        struct an_loc loc = {t->file, 0, 0};
        rc = an_fail(err, AN_EPARSE, &loc, "file holds a NUL byte");
        goto done;
    }
    /* Pass 1 with the default capabilities, parse, then again with the
     * test's own when it overrides them and uses ${clientCapabilitiesDefault}. */
    json_t *defcaps = an_jsont_default_caps();
    char *caps_txt = an_json_compact(defcaps);
    json_decref(defcaps);
    rc = pass1_run(&p, t->file, text, len, caps_txt, err);
    free(caps_txt);
    if (rc)
        goto done;
    if (!(root = pass1_parse(&p, t->file, text, err))) {
        rc = AN_EPARSE;
        goto done;
    }
    json_t *cc = json_object_get(json_object_get(root, "init"), "clientCapabilities");
    if (p.uses_caps && json_is_object(cc)) {
        json_t *merged = an_jsont_default_caps();
        merge_into(merged, cc);
        char *mt = an_json_compact(merged);
        json_decref(merged);
        /* the test's own capabilities: what is parsed (and located) now */
        pass1_release(&p);
        rc = pass1_run(&p, t->file, text, len, mt, err);
        free(mt);
        json_decref(root);
        root = rc ? NULL : pass1_parse(&p, t->file, text, err);
        if (!root) {
            rc = rc ? rc : AN_EPARSE;
            goto done;
        }
    }
    l.pass = &p;
    if ((rc = build(&l, root)))
        goto done;
    for (size_t i = 0; i < p.nrefs; i++) {
        if (!known_var(t, p.refs[i].name)) {
            struct an_loc loc;
            src_loc(text, p.refs[i].src, t->file, &loc);
            rc = an_fail(err, AN_EVAR, &loc,
                         "unknown variable '%s' (built-ins: %s; or a name a step captures)",
                         p.refs[i].name,
                         t->protocol == AN_JSONT_AGUI
                             ? "threadId, runId, messageId, suiteDir"
                             : "sandbox, protocolVersionDefault, clientCapabilitiesDefault, "
                               "sessionId, suiteDir");
            goto done;
        }
    }
done:
    json_decref(root);
    pass1_release(&p);
    if (rc)
        an_jsont_free(t);
    else
        *out = t;
    return rc;
}

int an_jsont_load(struct an_jsont **out, const char *file, struct an_err *err)
{
    *out = NULL;
    FILE *fp = fopen(file, "rb");
    if (!fp)
        return an_fail(err, errno == ENOENT ? AN_ENOTFOUND : AN_EIO, NULL, "cannot read '%s': %s",
                       file, strerror(errno));
    struct an_buf b;
    an_buf_init(&b, AN_JSONT_MAX_BYTES);
    char chunk[8192];
    size_t n;
    int rc = AN_OK;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) {
        if (an_buf_append(&b, chunk, n)) {
            rc = an_fail(err, AN_ELIMIT, NULL, "'%s' is larger than %zu bytes", file,
                         AN_JSONT_MAX_BYTES);
            break;
        }
    }
    if (!rc && ferror(fp))
        rc = an_fail(err, AN_EIO, NULL, "cannot read '%s': %s", file, strerror(errno));
    fclose(fp);
    if (!rc)
        rc = an_jsont_load_text(out, file, an_buf_cstr(&b), b.len, err);
    an_buf_release(&b);
    return rc;
}

void an_jsont_free(struct an_jsont *t)
{
    if (!t)
        return;
    an_arena_release(&t->arena);
    free(t);
}
