/* `tags`, `skip` and `only` of a test or case (load/select_load.h). */
#include "load/select_load.h"

#include <string.h>

/* A tag is a word a command line can name: no blank, no control
 * character, no comma (`--tag a,b` would read as one tag). */
static bool tag_ok(const char *s, size_t len)
{
    if (!len || len > 100 || strlen(s) != len)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= ' ' || c == 0x7f || c == ',')
            return false;
    }
    return true;
}

static void add_tag(struct an_ld *ld, struct an_test *t, const char *s, size_t cap)
{
    for (size_t i = 0; i < t->ntags; i++)
        if (!strcmp(t->tags[i], s))
            return; /* written twice: one tag */
    if (!t->tags)
        t->tags = an_arena_alloc(ld->a, (cap ? cap : 1) * sizeof *t->tags);
    t->tags[t->ntags++] = an_arena_strdup(ld->a, s);
}

#define TAG_RULE "a tag is a word of at most 100 characters, without blanks or commas"

int an_select_yaml(struct an_ld *ld, const struct an_ynode *root, struct an_test *t)
{
    const struct an_ynode *v;
    int rc;
    if ((v = an_yaml_get(root, "tags"))) {
        if (v->kind != AN_Y_SEQ)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "'tags' must be a list of words, e.g. [smoke, payments]");
        for (size_t i = 0; i < v->nitems; i++) {
            const char *s;
            if ((rc = an_ld_string(ld, v->items[i], "tags[]", &s)))
                return rc;
            if (!tag_ok(s, v->items[i]->len))
                return an_fail(ld->err, AN_ESCHEMA, &v->items[i]->loc, "bad tag '%s': " TAG_RULE,
                               s);
            add_tag(ld, t, s, v->nitems);
        }
    }
    if ((v = an_yaml_get(root, "skip"))) {
        bool b;
        if (an_yaml_as_bool(v, &b)) {
            t->skip = b;
        } else if (v->kind == AN_Y_SCALAR && !an_yaml_is_null(v) && v->len) {
            t->skip = true;
            t->skip_reason = v->str;
        } else {
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "'skip' takes a reason (skip: \"flaky upstream\") or true");
        }
    }
    if ((v = an_yaml_get(root, "only"))) {
        if (!an_yaml_as_bool(v, &t->only))
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'only' must be true or false");
        t->only_loc = v->loc;
    }
    return 0;
}

const char *an_select_json(struct an_ld *ld, const json_t *obj, unsigned which,
                           const struct an_loc *only_loc, struct an_test *t, const char **key)
{
    const json_t *v;
    if ((which & AN_SEL_TAGS) && (v = json_object_get(obj, "tags"))) {
        *key = "tags";
        if (!json_is_array(v))
            return "'tags' must be a list of words, e.g. [\"smoke\", \"payments\"]";
        size_t i;
        const json_t *x;
        json_array_foreach(v, i, x)
        {
            if (!json_is_string(x) || !tag_ok(json_string_value(x), json_string_length(x)))
                return "bad tag in 'tags': " TAG_RULE;
            add_tag(ld, t, json_string_value(x), json_array_size(v));
        }
    }
    if ((which & AN_SEL_SKIP) && (v = json_object_get(obj, "skip"))) {
        *key = "skip";
        if (json_is_boolean(v)) {
            t->skip = json_is_true(v);
        } else if (json_is_string(v) && json_string_length(v) &&
                   strlen(json_string_value(v)) == json_string_length(v)) {
            t->skip = true;
            t->skip_reason = json_string_value(v);
        } else {
            return "'skip' takes a reason (\"skip\": \"flaky upstream\") or true";
        }
    }
    if ((which & AN_SEL_ONLY) && (v = json_object_get(obj, "only"))) {
        *key = "only";
        if (!json_is_boolean(v))
            return "'only' must be true or false";
        t->only = json_is_true(v);
        t->only_loc = *only_loc;
    }
    *key = NULL;
    return NULL;
}
