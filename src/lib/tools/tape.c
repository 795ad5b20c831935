/* The tool traffic kept for a recording (tools/tape.h). */
#include "tools/tape.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "ananke/err.h"
#include "tools/tools.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static bool keep;
static json_t *kept;  /* {SERVER: [line, ...]} */
static char **tokens; /* every test's proxy path token while kept: secrets */
static size_t ntokens;

void an_tools_tape_keep(void)
{
    pthread_mutex_lock(&mu);
    keep = true;
    pthread_mutex_unlock(&mu);
}

/* A new line of SERVER's file, as of test/turn (NULL: no test's); NULL
 * when nothing is kept. */
static json_t *line_for(const char *server, const char *method, const char *cur_test,
                        size_t cur_turn)
{
    if (!keep)
        return NULL;
    if (!kept)
        kept = json_object();
    json_t *list = json_object_get(kept, server);
    if (!list) {
        list = json_array();
        json_object_set_new(kept, server, list);
    }
    json_t *l = json_pack("{s:o,s:o,s:s}", "test", cur_test ? json_string(cur_test) : json_null(),
                          "turn", cur_test ? json_integer((json_int_t)cur_turn) : json_null(),
                          "method", method);
    json_array_append_new(list, l);
    return l;
}

/* answer's "result" or "error" into l, as a copy */
static void put_answer(json_t *l, const json_t *answer)
{
    const json_t *res = json_object_get(answer, "result");
    const json_t *rerr = json_object_get(answer, "error");
    if (rerr)
        json_object_set_new(l, "error", json_deep_copy(rerr));
    else
        json_object_set_new(l, "result", res ? json_deep_copy(res) : json_null());
}

void an_tape_call(const char *test, size_t turn, const char *server, const json_t *params,
                  const json_t *answer, bool mocked)
{
    pthread_mutex_lock(&mu);
    json_t *l = line_for(server, "tools/call", test, turn);
    if (l) {
        const json_t *name = json_object_get(params, "name");
        const json_t *args = json_object_get(params, "arguments");
        const json_t *res = json_object_get(answer, "result");
        bool is_error = !answer || json_object_get(answer, "error") ||
                        json_is_true(json_object_get(res, "isError"));
        json_object_set_new(l, "name", json_is_string(name) ? json_deep_copy(name) : json_null());
        json_object_set_new(l, "arguments", args ? json_deep_copy(args) : json_object());
        put_answer(l, answer);
        json_object_set_new(l, "is_error", json_boolean(is_error));
        json_object_set_new(l, "mocked", json_boolean(mocked));
    }
    pthread_mutex_unlock(&mu);
}

void an_tape_answer(const char *server, const char *method, const json_t *answer)
{
    pthread_mutex_lock(&mu);
    const json_t *list = kept ? json_object_get(kept, server) : NULL;
    size_t i;
    json_t *l;
    bool seen = false;
    json_array_foreach(list, i, l)
    {
        const char *m = json_string_value(json_object_get(l, "method"));
        seen = seen || (m && !strcmp(m, method));
    }
    if (!seen && answer && (l = line_for(server, method, NULL, 0)))
        put_answer(l, answer);
    pthread_mutex_unlock(&mu);
}

void an_tape_secret(const char *token)
{
    pthread_mutex_lock(&mu);
    if (keep && token && *token) {
        tokens = an_xrealloc(tokens, (ntokens + 1) * sizeof *tokens);
        tokens[ntokens++] = an_xstrdup(token);
    }
    pthread_mutex_unlock(&mu);
}

/* s with every token replaced by "[redacted]"; NULL when it holds none */
static char *scrub_text(const char *s)
{
    struct an_buf b = AN_BUF_INIT;
    bool any = false;
    while (*s) {
        size_t at = 0, len = 0;
        const char *first = NULL;
        for (size_t i = 0; i < ntokens; i++) {
            const char *hit = strstr(s, tokens[i]);
            if (hit && (!first || hit < first))
                first = hit, len = strlen(tokens[i]);
        }
        if (!first) {
            an_buf_puts(&b, s);
            break;
        }
        at = (size_t)(first - s);
        an_buf_append(&b, s, at);
        an_buf_puts(&b, "[redacted]");
        s = first + len;
        any = true;
    }
    if (!any) {
        an_buf_release(&b);
        return NULL;
    }
    return an_buf_detach(&b, NULL);
}

/* v's strings (object keys too) without a token, in place where possible */
static json_t *scrub(json_t *v)
{
    if (json_is_string(v)) {
        char *t = scrub_text(json_string_value(v));
        if (!t)
            return v;
        json_decref(v);
        v = json_string(t);
        free(t);
        return v ? v : json_string("[redacted]"); /* not UTF-8 after the cut: all of it */
    }
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            json_array_set_new(v, i, scrub(json_incref(json_array_get(v, i))));
        return v;
    }
    if (json_is_object(v)) {
        json_t *out = json_object();
        const char *k;
        json_t *e;
        json_object_foreach(v, k, e)
        {
            char *nk = scrub_text(k);
            json_object_set_new(out, nk ? nk : k, scrub(json_incref(e)));
            free(nk);
        }
        json_decref(v);
        return out;
    }
    return v;
}

json_t *an_tools_tape(void)
{
    pthread_mutex_lock(&mu);
    json_t *v = kept ? json_deep_copy(kept) : NULL;
    if (v && ntokens)
        v = scrub(v);
    pthread_mutex_unlock(&mu);
    return v;
}

void an_tape_release(void)
{
    pthread_mutex_lock(&mu);
    json_decref(kept);
    kept = NULL;
    for (size_t i = 0; i < ntokens; i++)
        free(tokens[i]);
    free(tokens);
    tokens = NULL;
    ntokens = 0;
    pthread_mutex_unlock(&mu);
}
