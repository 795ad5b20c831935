/* Paths in a result relative to the project directory (core/result_paths.h). */
#include "core/result_paths.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "ananke/err.h"

/* p made absolute against `cwd` (NULL: the current directory), "." and
 * ".." folded lexically (for a path that does not exist, so realpath
 * cannot). */
static char *lexical_in(const char *p, const char *cwd)
{
    struct an_buf in = AN_BUF_INIT, out = AN_BUF_INIT;
    if (p[0] != '/') {
        char *own = cwd ? NULL : getcwd(NULL, 0);
        an_buf_puts(&in, cwd ? cwd : own ? own : "/");
        an_buf_putc(&in, '/');
        free(own);
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

static char *lexical(const char *p)
{
    return lexical_in(p, NULL);
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

struct an_project_paths {
    char *dir;  /* as given ("." for none) */
    char *real; /* dir_abs(dir) */
    char *lex;  /* lexical(dir), made when first needed */
    char *cwd;  /* the current directory, read when first needed */
    struct {
        char *parent, *abs; /* a file's directory as given, and dir_abs of it */
    } memo[AN_PROJECT_PATHS_MEMO];
    size_t next; /* the memo entry replaced next */
};

struct an_project_paths *an_project_paths_new(const char *project_dir)
{
    struct an_project_paths *pp = an_xcalloc(1, sizeof *pp);
    pp->dir = an_xstrdup(project_dir && project_dir[0] ? project_dir : ".");
    pp->real = dir_abs(pp->dir);
    return pp;
}

void an_project_paths_free(struct an_project_paths *pp)
{
    if (!pp)
        return;
    for (size_t i = 0; i < AN_PROJECT_PATHS_MEMO; i++) {
        free(pp->memo[i].parent);
        free(pp->memo[i].abs);
    }
    free(pp->dir);
    free(pp->real);
    free(pp->lex);
    free(pp->cwd);
    free(pp);
}

static const char *project_lex(struct an_project_paths *pp)
{
    if (!pp->lex)
        pp->lex = lexical(pp->dir);
    return pp->lex;
}

/* dir_abs(parent), from the memo when parent was seen before. */
static const char *parent_abs(struct an_project_paths *pp, const char *parent, size_t n)
{
    for (size_t i = 0; i < AN_PROJECT_PATHS_MEMO; i++)
        if (pp->memo[i].parent && strlen(pp->memo[i].parent) == n &&
            !memcmp(pp->memo[i].parent, parent, n))
            return pp->memo[i].abs;
    size_t k = pp->next++ % AN_PROJECT_PATHS_MEMO;
    free(pp->memo[k].parent);
    free(pp->memo[k].abs);
    pp->memo[k].parent = an_xstrndup(parent, n);
    pp->memo[k].abs = dir_abs(n ? pp->memo[k].parent : ".");
    return pp->memo[k].abs;
}

char *an_project_path(struct an_project_paths *pp, const char *path)
{
    /* the file's directory resolved, its own name kept (a linked test file
     * is named as the project names it) */
    const char *slash = strrchr(path, '/');
    const char *pd;
    if (slash == path)
        pd = "/";
    else
        pd = slash ? parent_abs(pp, path, (size_t)(slash - path)) : parent_abs(pp, "", 0);
    const char *name = slash ? slash + 1 : path;
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, pd);
    if (strcmp(pd, "/"))
        an_buf_putc(&b, '/');
    an_buf_puts(&b, name);
    char *abs = an_buf_detach(&b, NULL);
    const char *rel = under(abs, pp->real);
    if (!rel) { /* links in the project's own path: try its lexical form */
        if (!pp->cwd && path[0] != '/') {
            pp->cwd = getcwd(NULL, 0);
            if (!pp->cwd)
                pp->cwd = an_xstrdup("/");
        }
        char *labs = lexical_in(path, pp->cwd);
        const char *r2 = under(labs, project_lex(pp));
        char *out = r2 ? an_xstrdup(r2) : NULL;
        free(labs);
        if (out) {
            free(abs);
            return out;
        }
    }
    char *out = an_xstrdup(rel ? rel : abs);
    free(abs);
    return out;
}

char *an_path_in_project(const char *path, const char *project_dir)
{
    struct an_project_paths *pp = an_project_paths_new(project_dir);
    char *out = an_project_path(pp, path);
    an_project_paths_free(pp);
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

static void file_field(char **f, struct an_project_paths *pp)
{
    if (!*f || !**f)
        return;
    char *rel = an_project_path(pp, *f);
    free(*f);
    *f = rel;
}

void an_test_result_relative(struct an_test_result *t, const char *project_dir)
{
    struct an_project_paths *pp = an_project_paths_new(project_dir);
    an_test_result_relative_in(t, pp);
    an_project_paths_free(pp);
}

void an_test_result_relative_in(struct an_test_result *t, struct an_project_paths *pp)
{
    char *given = t->file ? an_xstrdup(t->file) : NULL;
    file_field(&t->file, pp);
    for (size_t i = 0; i < t->findings.n; i++)
        file_field(&t->findings.v[i].file, pp);
    for (size_t i = 0; i < t->judgements.n; i++)
        file_field(&t->judgements.v[i].file, pp);

    /* messages that quote a path: "FILE:LINE: ..." with the file as it was
     * given, or the project's absolute directory */
    const char *real = pp->real;
    const char *lex = project_lex(pp);
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
    free(given);
}
