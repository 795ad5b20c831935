/* Paths in a result relative to the project directory (core/result_paths.h). */
#include "core/result_paths.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "ananke/err.h"

/* p made absolute against the current directory, "." and ".." folded
 * lexically (for a path that does not exist, so realpath cannot). */
static char *lexical(const char *p)
{
    struct an_buf in = AN_BUF_INIT, out = AN_BUF_INIT;
    if (p[0] != '/') {
        char *cwd = getcwd(NULL, 0);
        an_buf_puts(&in, cwd ? cwd : "/");
        an_buf_putc(&in, '/');
        free(cwd);
    }
    an_buf_puts(&in, p);
    const char *s = an_buf_cstr(&in);
    while (*s) {
        while (*s == '/')
            s++;
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (!n)
            break;
        if (n == 1 && s[0] == '.') {
            /* nothing */
        } else if (n == 2 && s[0] == '.' && s[1] == '.') {
            char *last = out.len ? strrchr(out.data, '/') : NULL;
            if (last)
                out.len = (size_t)(last - out.data);
            if (out.data)
                out.data[out.len] = '\0';
        } else {
            an_buf_putc(&out, '/');
            an_buf_append(&out, s, n);
        }
        s += n;
    }
    if (!out.len)
        an_buf_putc(&out, '/');
    an_buf_release(&in);
    return an_buf_detach(&out, NULL);
}

/* A directory's absolute path, links resolved when it exists. */
static char *dir_abs(const char *d)
{
    char *r = realpath(d && d[0] ? d : ".", NULL);
    return r ? r : lexical(d && d[0] ? d : ".");
}

char *an_path_absolute(const char *dir)
{
    return dir_abs(dir);
}

/* The part of abs under dir ("." for dir itself), or NULL. */
static const char *under(const char *abs, const char *dir)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/')
        return abs[1] ? abs + 1 : ".";
    if (strncmp(abs, dir, n))
        return NULL;
    if (!abs[n])
        return ".";
    return abs[n] == '/' ? abs + n + 1 : NULL;
}

char *an_path_in_project(const char *path, const char *project_dir)
{
    char *dir = dir_abs(project_dir);
    /* the file's directory resolved, its own name kept (a linked test file
     * is named as the project names it) */
    char *abs = NULL;
    const char *slash = strrchr(path, '/');
    if (slash) {
        char *parent = slash == path ? an_xstrdup("/") : an_xstrndup(path, (size_t)(slash - path));
        char *pd = dir_abs(parent);
        struct an_buf b = AN_BUF_INIT;
        an_buf_puts(&b, pd);
        if (strcmp(pd, "/"))
            an_buf_putc(&b, '/');
        an_buf_puts(&b, slash + 1);
        abs = an_buf_detach(&b, NULL);
        free(pd);
        free(parent);
    } else {
        char *pd = dir_abs(".");
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "%s%s%s", pd, strcmp(pd, "/") ? "/" : "", path);
        abs = an_buf_detach(&b, NULL);
        free(pd);
    }
    const char *rel = under(abs, dir);
    if (!rel) { /* links in the project's own path: try its lexical form */
        char *lex = lexical(project_dir && project_dir[0] ? project_dir : ".");
        char *labs = lexical(path);
        const char *r2 = under(labs, lex);
        char *out = r2 ? an_xstrdup(r2) : NULL;
        free(lex);
        free(labs);
        if (out) {
            free(abs);
            free(dir);
            return out;
        }
    }
    char *out = an_xstrdup(rel ? rel : abs);
    free(abs);
    free(dir);
    return out;
}

struct subst {
    const char *from[4], *to[4];
    size_t n;
};

/* Every occurrence of a `from` in *s replaced by its `to`. */
static void rewrite(const struct subst *sb, char **s)
{
    if (!*s)
        return;
    bool any = false;
    for (size_t k = 0; k < sb->n && !any; k++)
        any = strstr(*s, sb->from[k]) != NULL;
    if (!any)
        return;
    struct an_buf b = AN_BUF_INIT;
    const char *p = *s;
    while (*p) {
        size_t k;
        for (k = 0; k < sb->n; k++) {
            size_t n = strlen(sb->from[k]);
            if (!strncmp(p, sb->from[k], n)) {
                an_buf_puts(&b, sb->to[k]);
                p += n;
                break;
            }
        }
        if (k == sb->n)
            an_buf_putc(&b, *p++);
    }
    free(*s);
    *s = an_buf_detach(&b, NULL);
}

static void file_field(char **f, const char *project_dir)
{
    if (!*f || !**f)
        return;
    char *rel = an_path_in_project(*f, project_dir);
    free(*f);
    *f = rel;
}

void an_test_result_relative(struct an_test_result *t, const char *project_dir)
{
    char *given = t->file ? an_xstrdup(t->file) : NULL;
    file_field(&t->file, project_dir);
    for (size_t i = 0; i < t->findings.n; i++)
        file_field(&t->findings.v[i].file, project_dir);
    for (size_t i = 0; i < t->judgements.n; i++)
        file_field(&t->judgements.v[i].file, project_dir);

    /* messages that quote a path: "FILE:LINE: ..." with the file as it was
     * given, or the project's absolute directory */
    char *real = dir_abs(project_dir);
    char *lex = lexical(project_dir && project_dir[0] ? project_dir : ".");
    struct an_buf r1 = AN_BUF_INIT, l1 = AN_BUF_INIT, g1 = AN_BUF_INIT, f1 = AN_BUF_INIT;
    struct subst sb = {.n = 0};
    if (given && t->file && strcmp(given, t->file)) {
        an_buf_printf(&g1, "%s:", given);
        an_buf_printf(&f1, "%s:", t->file);
        sb.from[sb.n] = an_buf_cstr(&g1);
        sb.to[sb.n++] = an_buf_cstr(&f1);
    }
    if (strcmp(real, "/")) {
        an_buf_printf(&r1, "%s/", real);
        sb.from[sb.n] = an_buf_cstr(&r1);
        sb.to[sb.n++] = "";
    }
    if (strcmp(lex, "/") && strcmp(lex, real)) {
        an_buf_printf(&l1, "%s/", lex);
        sb.from[sb.n] = an_buf_cstr(&l1);
        sb.to[sb.n++] = "";
    }
    rewrite(&sb, &t->error);
    for (size_t i = 0; i < t->findings.n; i++)
        rewrite(&sb, &t->findings.v[i].detail);
    if (t->attempts)
        for (unsigned i = 0; i < t->runs; i++)
            rewrite(&sb, &t->attempts[i].summary);
    an_buf_release(&r1);
    an_buf_release(&l1);
    an_buf_release(&g1);
    an_buf_release(&f1);
    free(real);
    free(lex);
    free(given);
}
