/* Frames redacted as the streams they carry (redact.h, an_redact_frames). */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "core/vec.h"
#include "run/redact.h"

/* A string value inside a parsed frame, and where it sits in its stream. */
struct leaf {
    json_t *v;
    size_t frame;
    size_t at, len;
};

struct stream {
    char *key;          /* the frame's "type" and the value's path */
    struct an_buf text; /* every value of the stream, joined */
    size_t *leaves;     /* into ctx.leaves, in stream order */
    size_t n, cap;
};

struct ctx {
    struct leaf *leaves;
    size_t nleaves, cap_leaves;
    struct stream *streams;
    size_t nstreams, cap_streams;
    bool *changed; /* per frame */
};

static struct stream *stream_of(struct ctx *c, const char *key)
{
    for (size_t i = 0; i < c->nstreams; i++)
        if (!strcmp(c->streams[i].key, key))
            return &c->streams[i];
    AN_GROW(c->streams, c->nstreams, c->cap_streams);
    struct stream *s = &c->streams[c->nstreams++];
    memset(s, 0, sizeof *s);
    s->key = an_xstrdup(key);
    return s;
}

static void walk(struct ctx *c, json_t *v, size_t frame, struct an_buf *path)
{
    size_t keep = path->len;
    if (json_is_string(v)) {
        struct stream *s = stream_of(c, an_buf_cstr(path));
        AN_GROW(c->leaves, c->nleaves, c->cap_leaves);
        size_t len = json_string_length(v);
        c->leaves[c->nleaves] = (struct leaf){v, frame, s->text.len, len};
        an_buf_append(&s->text, json_string_value(v), len);
        AN_GROW(s->leaves, s->n, s->cap);
        s->leaves[s->n++] = c->nleaves++;
    } else if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x)
        {
            an_buf_printf(path, ".%s", k);
            walk(c, x, frame, path);
            path->len = keep;
            path->data[keep] = '\0';
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *x;
        an_buf_puts(path, "[]");
        json_array_foreach(v, i, x)
        {
            walk(c, x, frame, path);
        }
        path->len = keep;
        path->data[keep] = '\0';
    }
}

/* The parts of one value that spans [a, b) of its stream cover, replaced. */
static void cut_leaf(struct ctx *c, const struct leaf *l, const struct an_redact_span *sp,
                     size_t nsp)
{
    const char *s = json_string_value(l->v);
    struct an_buf b = AN_BUF_INIT;
    size_t at = 0; /* within the value */
    bool any = false;
    for (size_t i = 0; i < nsp; i++) {
        if (sp[i].b <= l->at || sp[i].a >= l->at + l->len)
            continue;
        size_t a = sp[i].a > l->at ? sp[i].a - l->at : 0;
        size_t e = sp[i].b - l->at < l->len ? sp[i].b - l->at : l->len;
        an_buf_append(&b, s + at, a - at);
        an_buf_puts(&b, AN_REDACTED);
        at = e;
        any = true;
    }
    if (any) {
        an_buf_append(&b, s + at, l->len - at);
        /* a pattern may have cut a character in two: keep the JSON valid */
        char *clean = an_utf8_lossy(an_buf_cstr(&b), b.len);
        if (json_string_set(l->v, clean))
            an_oom();
        free(clean);
        c->changed[l->frame] = true;
    }
    an_buf_release(&b);
}

char **an_redact_frames(const struct an_redactor *r, const char *const *frames, size_t n,
                        size_t *counts)
{
    struct ctx c = {0};
    json_t **parsed = an_xcalloc(n + 1, sizeof *parsed);
    c.changed = an_xcalloc(n + 1, sizeof *c.changed);
    struct an_buf path = AN_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        const char *f = frames[i] ? frames[i] : "";
        parsed[i] = json_loadb(f, strlen(f), JSON_ALLOW_NUL, NULL);
        if (!json_is_object(parsed[i]) && !json_is_array(parsed[i]))
            continue; /* not JSON: only its text is searched, below */
        an_buf_reset(&path);
        const char *type = an_json_str(parsed[i], "type");
        an_buf_puts(&path, type ? type : "");
        an_buf_putc(&path, ' ');
        walk(&c, parsed[i], i, &path);
    }
    an_buf_release(&path);

    for (size_t k = 0; k < c.nstreams; k++) {
        struct stream *s = &c.streams[k];
        struct an_redact_span *sp;
        size_t nsp = an_redact_find(r, an_buf_cstr(&s->text), s->text.len, counts, &sp);
        for (size_t i = 0; i < s->n && nsp; i++)
            cut_leaf(&c, &c.leaves[s->leaves[i]], sp, nsp);
        free(sp);
        an_buf_release(&s->text);
        free(s->leaves);
        free(s->key);
    }
    free(c.streams);
    free(c.leaves);

    char **out = an_xcalloc(n + 1, sizeof *out);
    for (size_t i = 0; i < n; i++) {
        char *text = c.changed[i] ? an_json_compact(parsed[i])
                                  : an_xstrdup(frames[i] ? frames[i] : "");
        char *red = an_redact_text(r, text, strlen(text), counts, NULL);
        out[i] = red ? red : text;
        if (red)
            free(text);
        json_decref(parsed[i]);
    }
    free(parsed);
    free(c.changed);
    return out;
}
