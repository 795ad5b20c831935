/* A compliance result redacted in place (run/comply_redact.h). */
#include "run/comply_redact.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"

/* The strings of messages, one stream per (method or type, path). */
struct streams {
    char **keys;
    struct an_buf *texts;
    size_t n;
};

static void stream_add(struct streams *ss, const char *key, const char *s, size_t n)
{
    size_t i = 0;
    while (i < ss->n && strcmp(ss->keys[i], key))
        i++;
    if (i == ss->n) {
        ss->keys = an_xrealloc(ss->keys, (ss->n + 1) * sizeof *ss->keys);
        ss->texts = an_xrealloc(ss->texts, (ss->n + 1) * sizeof *ss->texts);
        ss->keys[i] = an_xstrdup(key);
        ss->texts[i] = (struct an_buf)AN_BUF_INIT;
        ss->n++;
    }
    an_buf_append(&ss->texts[i], s, n);
}

static void walk(struct streams *ss, struct an_buf *path, const json_t *v)
{
    size_t len = path->len;
    if (json_is_string(v)) {
        stream_add(ss, an_buf_cstr(path), json_string_value(v), json_string_length(v));
    } else if (json_is_object(v)) {
        const char *k;
        json_t *m;
        json_object_foreach((json_t *)v, k, m)
        {
            an_buf_printf(path, ".%s", k);
            walk(ss, path, m);
            path->len = len;
            path->data[len] = '\0';
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *m;
        an_buf_puts(path, "[]");
        json_array_foreach(v, i, m) walk(ss, path, m);
        path->len = len;
        path->data[len] = '\0';
    }
}

static void str(const struct an_redactor *r, char **s)
{
    if (!*s)
        return;
    char *out = an_redact_quoted(r, *s, strlen(*s), NULL, NULL);
    if (!out)
        return;
    free(*s);
    *s = out;
}

/* A JSON value of the agent's (its initialize result, a session's modes):
 * its strings searched joined, as a stream's are. */
static void tree(const struct an_redactor *r, json_t **v)
{
    if (!*v)
        return;
    json_t *out = an_redact_tree(r, *v, NULL);
    if (!out)
        return; /* nothing to redact */
    json_decref(*v);
    *v = out;
}

void an_comply_test_redact(struct an_comply_test *t, const struct an_redactor *r)
{
    if (!t || an_redactor_empty(r))
        return;
    str(r, &t->id);
    str(r, &t->title);
    str(r, &t->description);
    str(r, &t->area);
    for (size_t i = 0; i < t->ndocs; i++)
        str(r, &t->docs[i]);
    str(r, &t->na_reason);
    for (size_t i = 0; i < t->nunmet; i++) {
        struct an_comply_unmet *u = &t->unmet[i];
        str(r, &u->kind);
        str(r, &u->message);
        str(r, &u->expected);
        str(r, &u->closest);
        for (size_t k = 0; k < u->ndiff; k++)
            str(r, &u->diff[k]);
    }
    str(r, &t->stderr_tail);
    for (size_t i = 0; i < t->nnotes; i++)
        str(r, &t->notes[i]);
}

void an_comply_test_redact_seen(struct an_comply_test *t, const struct an_redactor *r,
                                const json_t *seen)
{
    if (!t || an_redactor_empty(r))
        return;
    if (!seen || !an_redactor_npatterns(r)) {
        an_comply_test_redact(t, r); /* a literal secret's pieces are found as they are */
        return;
    }
    struct streams ss = {0};
    size_t i;
    json_t *m;
    json_array_foreach(seen, i, m)
    {
        const char *kind = an_json_str(m, "method");
        struct an_buf path = AN_BUF_INIT;
        an_buf_puts(&path, kind ? kind : an_json_str(m, "type") ? an_json_str(m, "type") : "-");
        walk(&ss, &path, m);
        an_buf_release(&path);
    }
    struct an_redactor *more = an_redactor_clone(r);
    for (size_t k = 0; k < ss.n; k++) {
        struct an_redact_span *spans = NULL;
        size_t n = an_redact_find(r, an_buf_cstr(&ss.texts[k]), ss.texts[k].len, NULL, &spans);
        for (size_t j = 0; j < n; j++) {
            if (spans[j].b - spans[j].a < AN_REDACT_MIN)
                continue;
            char *v = an_xstrndup(ss.texts[k].data + spans[j].a, spans[j].b - spans[j].a);
            (void)an_redactor_add_secret(more, "a --redact match", v);
            free(v);
        }
        free(spans);
        free(ss.keys[k]);
        an_buf_release(&ss.texts[k]);
    }
    free(ss.keys);
    free(ss.texts);
    an_comply_test_redact(t, more);
    an_redactor_free(more);
}

char *an_comply_shown(const struct an_redactor *r, const char *s)
{
    char *out = s ? an_redact_text(r, s, strlen(s), NULL, NULL) : NULL;
    return out ? out : an_xstrdup(s ? s : "");
}

void an_comply_agent_redact(struct an_comply_agent *a, const struct an_redactor *r)
{
    if (!a || an_redactor_empty(r))
        return;
    str(r, &a->name);
    str(r, &a->command);
    tree(r, &a->init);
    str(r, &a->init_error);
    tree(r, &a->modes);
    tree(r, &a->commands);
}
