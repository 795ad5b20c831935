/* .jsont: the ACP sandbox's files ("sandbox": {"files": ...}), text or
 * base64 (jsont_int.h). */
#include "load/jsont_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"

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

int jsont_load_files(struct jsont_ld *l, json_t *sb)
{
    if (!sb)
        return AN_OK;
    if (!json_is_object(sb))
        return jsont_bad(l, "'sandbox' must be an object");
    json_t *files = json_object_get(sb, "files");
    if (!files)
        return AN_OK;
    if (!json_is_array(files))
        return jsont_bad(l, "'sandbox.files' must be an array");
    struct an_jsont *t = l->t;
    t->nfiles = json_array_size(files);
    t->files = an_arena_alloc(&t->arena, (t->nfiles + 1) * sizeof *t->files);
    for (size_t i = 0; i < t->nfiles; i++) {
        json_t *f = json_array_get(files, i);
        const char *path = an_json_str(f, "path");
        const char *text = an_json_str(f, "text");
        const char *b64 = an_json_str(f, "base64");
        if (!json_is_object(f) || !path || !*path)
            return jsont_bad(l, "sandbox.files[%zu] needs a 'path' string", i);
        if (path[0] == '/' || !strcmp(path, "..") || !strncmp(path, "../", 3) ||
            strstr(path, "/../") || (strlen(path) >= 3 && !strcmp(path + strlen(path) - 3, "/..")))
            return jsont_bad(l,
                             "sandbox.files[%zu]: path '%s' must be relative and stay in "
                             "the sandbox",
                             i, path);
        if (!!text == !!b64)
            return jsont_bad(l, "sandbox.files[%zu] ('%s') needs exactly one of 'text' or 'base64'",
                             i, path);
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
                return jsont_bad(l, "sandbox.files[%zu] ('%s'): 'base64' is not valid base64", i,
                                 path);
            void *copy = an_arena_alloc(&t->arena, n + 1);
            memcpy(copy, d, n);
            free(d);
            tf->data = copy;
            tf->len = n;
        }
    }
    return AN_OK;
}
