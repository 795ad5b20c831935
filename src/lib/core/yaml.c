#include "core/yaml.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

#include "core/buf.h"
#include "core/sha256.h"
#include "core/yaml_fast.h"

struct anchor {
    const char *name;
    struct an_ynode *node;
    size_t weight; /* nodes in the expanded subtree */
};

struct loader {
    yaml_parser_t p;
    const struct an_yfast *fast; /* when set, the events come from it, not from p */
    size_t fast_next;
    struct an_arena *a; /* nodes */
    struct an_arena *s; /* strings and the file name: may outlive the nodes */
    const char *file;
    struct anchor *anchors;
    size_t nanchors, cap_anchors;
    size_t expanded; /* nodes counting alias expansions */
    struct an_err *err;
    const char *data; /* the text read, to explain a syntax error */
    size_t len;
};

static struct an_loc mark_loc(const struct loader *l, yaml_mark_t m)
{
    struct an_loc loc = {l->file, (unsigned)m.line + 1, (unsigned)m.column + 1};
    return loc;
}

/* Is a tab the cause of a syntax error on line `line` (0-based)? A tab in
 * the line's indentation, or right where the reader stopped. */
static bool tab_at(const struct loader *l, size_t line, size_t col)
{
    const char *p = l->data, *end = l->data ? l->data + l->len : NULL;
    if (!p)
        return false;
    for (size_t k = 0; k < line && p < end; k++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    size_t i = 0;
    for (; p + i < end && (p[i] == ' ' || p[i] == '\t'); i++)
        if (p[i] == '\t')
            return true;
    return p + col < end && memchr(p, '\n', col) == NULL && p[col] == '\t';
}

static int parser_error(struct loader *l)
{
    struct an_loc loc = {l->file, (unsigned)l->p.problem_mark.line + 1,
                         (unsigned)l->p.problem_mark.column + 1};
    if (tab_at(l, l->p.problem_mark.line, l->p.problem_mark.column))
        return an_fail(l->err, AN_EPARSE, &loc,
                       "invalid YAML: a tab character where YAML needs spaces (YAML indents "
                       "with spaces only; replace the tab)");
    const char *what = l->p.problem ? l->p.problem : "malformed YAML";
    if (l->p.context)
        return an_fail(l->err, AN_EPARSE, &loc, "invalid YAML: %s %s", what, l->p.context);
    return an_fail(l->err, AN_EPARSE, &loc, "invalid YAML: %s", what);
}

static int next_event(struct loader *l, yaml_event_t *ev)
{
    if (l->fast) {
        an_yaml_fast_event(l->fast, l->fast_next++, ev);
        return 0;
    }
    if (!yaml_parser_parse(&l->p, ev))
        return parser_error(l);
    return 0;
}

/* The fast path's events borrow their strings: only libyaml's are freed. */
static void event_delete(const struct loader *l, yaml_event_t *ev)
{
    if (!l->fast)
        yaml_event_delete(ev);
}

static int add_anchor(struct loader *l, const unsigned char *name, struct an_ynode *n,
                      size_t weight)
{
    if (!name)
        return 0;
    if (l->nanchors == l->cap_anchors) {
        l->cap_anchors = l->cap_anchors ? l->cap_anchors * 2 : 8;
        l->anchors = an_xrealloc(l->anchors, l->cap_anchors * sizeof *l->anchors);
    }
    l->anchors[l->nanchors].name = an_arena_strdup(l->a, (const char *)name);
    l->anchors[l->nanchors].node = n;
    l->anchors[l->nanchors].weight = weight;
    l->nanchors++;
    return 0;
}

static int count_node(struct loader *l, size_t w, struct an_loc *loc)
{
    l->expanded += w;
    if (l->expanded > AN_YAML_MAX_NODES)
        return an_fail(l->err, AN_ELIMIT, loc,
                       "YAML document expands to more than %u nodes (alias bomb?)",
                       AN_YAML_MAX_NODES);
    return 0;
}

static int parse_node(struct loader *l, yaml_event_t *ev, unsigned depth, struct an_ynode **out,
                      size_t *weight);

/* Parse children until the closing event; `ev` is the start event (not freed here). */
static int parse_children(struct loader *l, struct an_ynode *n, unsigned depth, size_t *weight)
{
    int rc = 0;
    size_t cap = 0;
    for (;;) {
        yaml_event_t ev;
        if ((rc = next_event(l, &ev)))
            return rc;
        if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) {
            event_delete(l, &ev);
            return 0;
        }
        struct an_ynode *child = NULL;
        size_t w = 0;
        rc = parse_node(l, &ev, depth + 1, &child, &w);
        event_delete(l, &ev);
        if (rc)
            return rc;
        if (!child) /* parse_node sets it whenever it returns 0 */
            return an_fail(l->err, AN_EPARSE, NULL, "internal: an empty YAML node");
        *weight += w;
        if (n->kind == AN_Y_SEQ) {
            if (n->nitems == cap) {
                cap = cap ? cap * 2 : 4;
                n->items = an_arena_grow(l->a, n->items, n->nitems, cap, sizeof *n->items);
            }
            n->items[n->nitems++] = child;
            continue;
        }
        /* map: child is the key; read the value */
        if (child->kind != AN_Y_SCALAR)
            return an_fail(l->err, AN_EPARSE, &child->loc, "map keys must be plain strings");
        yaml_event_t vev;
        if ((rc = next_event(l, &vev)))
            return rc;
        struct an_ynode *val = NULL;
        w = 0;
        rc = parse_node(l, &vev, depth + 1, &val, &w);
        event_delete(l, &vev);
        if (rc)
            return rc;
        *weight += w;
        for (size_t i = 0; i < n->npairs; i++)
            if (strcmp(n->pairs[i].key->str, child->str) == 0)
                return an_fail(l->err, AN_EPARSE, &child->loc,
                               "duplicate key '%s' (first at line %u)", child->str,
                               n->pairs[i].key->loc.line);
        if (n->npairs == cap) {
            cap = cap ? cap * 2 : 4;
            n->pairs = an_arena_grow(l->a, n->pairs, n->npairs, cap, sizeof *n->pairs);
        }
        n->pairs[n->npairs].key = child;
        n->pairs[n->npairs].value = val;
        n->npairs++;
    }
}

/* The words test and config files write over and over (keys, mostly):
 * their scalars point here instead of each holding a copy in the suite's
 * arena, which keeps every scalar's string (docs/performance.md, issue 26).
 * Sorted by strcmp, for bsearch. */
static const char *const common_words[] = {
    "1.0",
    "after",
    "agentId",
    "allow",
    "args_match",
    "assert",
    "checks",
    "contains",
    "count",
    "endpoint",
    "exact",
    "extends",
    "false",
    "forbid",
    "forbid_calls",
    "headers",
    "hooks",
    "id",
    "max",
    "max_duration_ms",
    "min",
    "must_match",
    "must_not_match",
    "name",
    "only",
    "require",
    "sequence",
    "skip",
    "state",
    "tags",
    "target",
    "text",
    "timeout_ms",
    "timing",
    "tools",
    "true",
    "turns",
    "type",
    "usage",
    "use",
    "user",
    "value",
    "version",
};

struct word_key {
    const char *p;
    size_t n;
};

static int word_cmp(const void *k, const void *w)
{
    const struct word_key *key = k;
    const char *word = *(const char *const *)w;
    size_t wn = strlen(word);
    int c = memcmp(key->p, word, key->n < wn ? key->n : wn);
    return c ? c : key->n < wn ? -1 : key->n > wn;
}

/* A scalar's string: a common word's static copy, else one in the arena.
 * A scalar holding a NUL byte is never a common word. */
static const char *scalar_str(struct loader *l, const char *p, size_t n)
{
    struct word_key key = {p, n};
    const char *const *w = n <= 16 && !memchr(p, '\0', n)
                               ? bsearch(&key, common_words,
                                         sizeof common_words / sizeof *common_words,
                                         sizeof *common_words, word_cmp)
                               : NULL;
    return w ? *w : an_arena_strndup(l->s, p, n);
}

static int parse_node(struct loader *l, yaml_event_t *ev, unsigned depth, struct an_ynode **out,
                      size_t *weight)
{
    struct an_loc loc = mark_loc(l, ev->start_mark);
    int rc;
    if (depth > AN_YAML_MAX_DEPTH)
        return an_fail(l->err, AN_ELIMIT, &loc, "YAML nested deeper than %u levels",
                       AN_YAML_MAX_DEPTH);
    if (ev->type == YAML_ALIAS_EVENT) {
        const char *name = (const char *)ev->data.alias.anchor;
        for (size_t i = l->nanchors; i-- > 0;) {
            if (strcmp(l->anchors[i].name, name) == 0) {
                if ((rc = count_node(l, l->anchors[i].weight, &loc)))
                    return rc;
                *out = l->anchors[i].node;
                *weight = l->anchors[i].weight;
                return 0;
            }
        }
        return an_fail(l->err, AN_EPARSE, &loc, "unknown alias '*%s'", name);
    }
    struct an_ynode *n = an_arena_alloc(l->a, sizeof *n);
    n->loc = loc;
    *weight = 1;
    if ((rc = count_node(l, 1, &loc)))
        return rc;
    switch (ev->type) {
    case YAML_SCALAR_EVENT:
        n->kind = AN_Y_SCALAR;
        n->str = scalar_str(l, (const char *)ev->data.scalar.value, ev->data.scalar.length);
        n->len = ev->data.scalar.length;
        n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE &&
                    ev->data.scalar.style != YAML_ANY_SCALAR_STYLE;
        if (ev->data.scalar.tag) {
            n->tag = an_arena_strdup(l->s, (const char *)ev->data.scalar.tag);
            if (strcmp(n->tag, YAML_STR_TAG) == 0)
                n->quoted = true;
        }
        add_anchor(l, ev->data.scalar.anchor, n, 1);
        break;
    case YAML_SEQUENCE_START_EVENT:
        n->kind = AN_Y_SEQ;
        if ((rc = parse_children(l, n, depth, weight)))
            return rc;
        add_anchor(l, ev->data.sequence_start.anchor, n, *weight);
        break;
    case YAML_MAPPING_START_EVENT:
        n->kind = AN_Y_MAP;
        if ((rc = parse_children(l, n, depth, weight)))
            return rc;
        add_anchor(l, ev->data.mapping_start.anchor, n, *weight);
        break;
    default:
        return an_fail(l->err, AN_EPARSE, &loc, "unexpected YAML event");
    }
    *out = n;
    return 0;
}

int an_yaml_load_mem(struct an_ynode **out, const char *name, const char *data, size_t len,
                     struct an_arena *a, struct an_err *err)
{
    return an_yaml_load_mem2(out, name, data, len, a, a, err);
}

int an_yaml_load_mem2(struct an_ynode **out, const char *name, const char *data, size_t len,
                      struct an_arena *a, struct an_arena *strings, struct an_err *err)
{
    return an_yaml_load_mem_with(out, name, data, len, a, strings, err, AN_YAML_READER_AUTO);
}

int an_yaml_load_mem_with(struct an_ynode **out, const char *name, const char *data, size_t len,
                          struct an_arena *a, struct an_arena *strings, struct an_err *err,
                          enum an_yaml_reader reader)
{
    struct loader l = {.a = a, .s = strings, .file = an_arena_strdup(strings, name), .err = err};
    struct an_yfast fast;
    int rc = 0;
    *out = NULL;
    if (len > AN_YAML_MAX_BYTES) {
        struct an_loc loc = {l.file, 0, 0};
        return an_fail(err, AN_ELIMIT, &loc, "file is larger than %u bytes", AN_YAML_MAX_BYTES);
    }
    /* The fast path first (core/yaml_fast.h). It reads the whole input
     * before a node is made, so declining leaves nothing to undo. It
     * declines any NUL byte, which spares it the check below. */
    if (reader != AN_YAML_READER_LIBYAML) {
        if (an_yaml_fast_parse(&fast, data, len)) {
            l.fast = &fast;
        } else {
            an_yaml_fast_release(&fast);
            if (reader == AN_YAML_READER_FAST)
                return AN_YAML_FAST_DECLINED;
        }
    }
    if (!l.fast) {
        if (memchr(data, '\0', len)) {
            struct an_loc loc = {l.file, 0, 0};
            return an_fail(err, AN_EPARSE, &loc, "file is binary (contains NUL bytes), not YAML");
        }
        if (!yaml_parser_initialize(&l.p))
            an_oom();
        yaml_parser_set_input_string(&l.p, (const unsigned char *)data, len);
        l.data = data;
        l.len = len;
    }
    yaml_event_t ev;
    bool done = false, had_doc = false;
    while (!done) {
        if ((rc = next_event(&l, &ev)))
            goto out;
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        case YAML_DOCUMENT_START_EVENT:
            /* a file is one document: a second one ("---") would be
             * silently left unread; the parser reads on to find it */
            if (had_doc) {
                struct an_loc loc = {l.file, (unsigned)ev.start_mark.line + 1,
                                     (unsigned)ev.start_mark.column + 1};
                rc = an_fail(err, AN_EPARSE, &loc,
                             "a second YAML document ('---'): a file holds one document (put "
                             "the second in its own file)");
            }
            had_doc = true;
            break;
        case YAML_SCALAR_EVENT:
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
        case YAML_ALIAS_EVENT: {
            size_t w = 0;
            rc = parse_node(&l, &ev, 0, out, &w);
            break;
        }
        default:
            break;
        }
        event_delete(&l, &ev);
        if (rc)
            goto out;
    }
    if (!*out) {
        struct an_ynode *n = an_arena_alloc(a, sizeof *n);
        n->kind = AN_Y_MAP;
        n->loc.file = l.file;
        n->loc.line = 1;
        n->loc.col = 1;
        *out = n;
    }
out:
    if (l.fast)
        an_yaml_fast_release(&fast);
    else
        yaml_parser_delete(&l.p);
    free(l.anchors);
    return rc;
}

int an_yaml_load_file(struct an_ynode **out, const char *path, struct an_arena *a,
                      struct an_err *err)
{
    return an_yaml_load_file2(out, path, a, a, err);
}

int an_yaml_load_file2(struct an_ynode **out, const char *path, struct an_arena *a,
                       struct an_arena *strings, struct an_err *err)
{
    return an_yaml_load_file_sum(out, path, a, strings, NULL, err);
}

int an_yaml_load_file_sum(struct an_ynode **out, const char *path, struct an_arena *a,
                          struct an_arena *strings, unsigned char *sum, struct an_err *err)
{
    struct an_loc loc = {path, 0, 0};
    /* open/read, not stdio: stdio adds an fstat per file, and a suite is
     * thousands of small files */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return an_fail(err, AN_EIO, &loc, "cannot open: %s", strerror(errno));
    struct an_buf b;
    an_buf_init(&b, AN_YAML_MAX_BYTES + 1);
    char chunk[65536];
    ssize_t n;
    int rc = 0;
    while ((n = read(fd, chunk, sizeof chunk)) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            rc = an_fail(err, AN_EIO, &loc, "read error: %s", strerror(errno));
            break;
        }
        if (an_buf_append(&b, chunk, (size_t)n)) {
            rc = an_fail(err, AN_ELIMIT, &loc, "file is larger than %u bytes", AN_YAML_MAX_BYTES);
            break;
        }
    }
    close(fd);
    if (!rc && sum)
        an_sha256(an_buf_cstr(&b), b.len, sum);
    if (!rc)
        rc = an_yaml_load_mem2(out, path, an_buf_cstr(&b), b.len, a, strings, err);
    an_buf_release(&b);
    return rc;
}

struct an_ynode *an_yaml_get(const struct an_ynode *map, const char *key)
{
    if (!map || map->kind != AN_Y_MAP)
        return NULL;
    for (size_t i = 0; i < map->npairs; i++)
        if (strcmp(map->pairs[i].key->str, key) == 0)
            return map->pairs[i].value;
    return NULL;
}

const char *an_yaml_kind_name(const struct an_ynode *n)
{
    if (!n)
        return "nothing";
    switch (n->kind) {
    case AN_Y_SCALAR: {
        long long i;
        bool b;
        if (an_yaml_is_null(n))
            return "null";
        if (an_yaml_as_bool(n, &b))
            return "a boolean";
        if (an_yaml_as_int(n, &i))
            return "a number";
        return "a string";
    }
    case AN_Y_SEQ:
        return "a list";
    case AN_Y_MAP:
        return "a map";
    }
    return "?";
}

bool an_yaml_is_null(const struct an_ynode *n)
{
    if (!n || n->kind != AN_Y_SCALAR || n->quoted)
        return false;
    return n->len == 0 || !strcmp(n->str, "~") || !strcmp(n->str, "null") ||
           !strcmp(n->str, "Null") || !strcmp(n->str, "NULL");
}

bool an_yaml_as_bool(const struct an_ynode *n, bool *out)
{
    if (!n || n->kind != AN_Y_SCALAR || n->quoted)
        return false;
    if (!strcmp(n->str, "true") || !strcmp(n->str, "True") || !strcmp(n->str, "TRUE")) {
        *out = true;
        return true;
    }
    if (!strcmp(n->str, "false") || !strcmp(n->str, "False") || !strcmp(n->str, "FALSE")) {
        *out = false;
        return true;
    }
    return false;
}

bool an_yaml_as_int(const struct an_ynode *n, long long *out)
{
    if (!n || n->kind != AN_Y_SCALAR || n->quoted || n->len == 0)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(n->str, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

static json_t *plain_scalar(const struct an_ynode *n)
{
    bool b;
    long long i;
    if (an_yaml_is_null(n))
        return json_null();
    if (an_yaml_as_bool(n, &b))
        return json_boolean(b);
    if (an_yaml_as_int(n, &i))
        return json_integer(i);
    if (!n->quoted && n->len) {
        char *end;
        errno = 0;
        double d = strtod(n->str, &end);
        if (!errno && !*end && isfinite(d) && strchr("+-.0123456789", n->str[0]))
            return json_real(d);
    }
    return json_stringn_nocheck(n->str, n->len);
}

static json_t *to_json(const struct an_ynode *n, size_t *budget, struct an_err *err)
{
    if ((*budget)-- == 0) {
        an_fail(err, AN_ELIMIT, &n->loc, "YAML value expands to more than %u nodes",
                AN_YAML_MAX_NODES);
        return NULL;
    }
    switch (n->kind) {
    case AN_Y_SCALAR:
        return plain_scalar(n);
    case AN_Y_SEQ: {
        json_t *arr = json_array();
        for (size_t i = 0; i < n->nitems; i++) {
            json_t *v = to_json(n->items[i], budget, err);
            if (!v) {
                json_decref(arr);
                return NULL;
            }
            json_array_append_new(arr, v);
        }
        return arr;
    }
    case AN_Y_MAP: {
        json_t *obj = json_object();
        for (size_t i = 0; i < n->npairs; i++) {
            json_t *v = to_json(n->pairs[i].value, budget, err);
            if (!v) {
                json_decref(obj);
                return NULL;
            }
            json_object_set_new_nocheck(obj, n->pairs[i].key->str, v);
        }
        return obj;
    }
    }
    return NULL;
}

int an_yaml_no_nul(const struct an_ynode *n, struct an_err *err)
{
    /* the tree's size is bounded by AN_YAML_MAX_NODES, aliases expanded */
    switch (n->kind) {
    case AN_Y_SCALAR:
        if (n->str && memchr(n->str, '\0', n->len))
            return an_fail(err, AN_EPARSE, &n->loc,
                           "a NUL character ('\\0') in the string '%s...': ananke cannot keep "
                           "it (it would cut the string there)",
                           n->str);
        return AN_OK;
    case AN_Y_SEQ:
        for (size_t i = 0; i < n->nitems; i++) {
            int rc = an_yaml_no_nul(n->items[i], err);
            if (rc)
                return rc;
        }
        return AN_OK;
    case AN_Y_MAP:
        for (size_t i = 0; i < n->npairs; i++) {
            int rc = an_yaml_no_nul(n->pairs[i].key, err);
            if (!rc)
                rc = an_yaml_no_nul(n->pairs[i].value, err);
            if (rc)
                return rc;
        }
        return AN_OK;
    }
    return AN_OK;
}

json_t *an_yaml_to_json(const struct an_ynode *n, struct an_err *err)
{
    size_t budget = AN_YAML_MAX_NODES;
    return to_json(n, &budget, err);
}

struct an_ynode *an_yaml_from_json(const json_t *j, const struct an_loc *loc, struct an_arena *a)
{
    struct an_ynode *n = an_arena_alloc(a, sizeof *n);
    memset(n, 0, sizeof *n);
    n->loc = *loc;
    n->kind = AN_Y_SCALAR;
    char num[64];
    const char *k;
    const json_t *v;
    size_t i;
    switch (json_typeof(j)) {
    case JSON_OBJECT:
        n->kind = AN_Y_MAP;
        n->pairs = an_arena_alloc(a, (json_object_size(j) + 1) * sizeof *n->pairs);
        json_object_foreach((json_t *)j, k, v)
        {
            json_t *key = json_string(k);
            n->pairs[n->npairs].key = an_yaml_from_json(key, loc, a);
            json_decref(key);
            n->pairs[n->npairs++].value = an_yaml_from_json(v, loc, a);
        }
        return n;
    case JSON_ARRAY:
        n->kind = AN_Y_SEQ;
        n->items = an_arena_alloc(a, (json_array_size(j) + 1) * sizeof *n->items);
        json_array_foreach(j, i, v) n->items[n->nitems++] = an_yaml_from_json(v, loc, a);
        return n;
    case JSON_STRING:
        n->str = an_arena_strndup(a, json_string_value(j), json_string_length(j));
        n->len = json_string_length(j);
        n->quoted = true;
        return n;
    case JSON_INTEGER:
        snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(j));
        break;
    case JSON_REAL:
        snprintf(num, sizeof num, "%.17g", json_real_value(j));
        break;
    case JSON_TRUE:
        snprintf(num, sizeof num, "true");
        break;
    case JSON_FALSE:
        snprintf(num, sizeof num, "false");
        break;
    default:
        snprintf(num, sizeof num, "null");
        break;
    }
    n->str = an_arena_strdup(a, num);
    n->len = strlen(num);
    return n;
}
