/* Around one compliance test: its sandbox directory, its preconditions, and
 * the metadata copied into its result. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "run/comply_int.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/jsonmatch.h"
#include "core/buf.h"
#include "core/cancel.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/acp_client.h"

/* ---- sandbox --------------------------------------------------------------
 */

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

void comply_rm_tree(const char *dir)
{
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int mkdirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int rc = mkdir(path, 0755);
        *p = '/';
        if (rc && errno != EEXIST)
            return -1;
    }
    return 0;
}

int comply_make_sandbox(const struct an_jsont *t, char *dir, size_t cap, struct an_err *err)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, cap, "%s/ananke-comply-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return an_fail(err, AN_EIO, NULL, "cannot create a sandbox in %s: %s", dir,
                       strerror(errno));
    for (size_t i = 0; i < t->nfiles; i++) {
        struct an_buf p = AN_BUF_INIT;
        an_buf_printf(&p, "%s/%s", dir, t->files[i].path);
        char *path = an_buf_detach(&p, NULL);
        FILE *fp = NULL;
        int rc = mkdirs(path) ? -1 : 0;
        if (!rc && (fp = fopen(path, "wb")) &&
            fwrite(t->files[i].data, 1, t->files[i].len, fp) == t->files[i].len)
            rc = 0;
        else
            rc = -1;
        if (fp && fclose(fp))
            rc = -1;
        if (rc) {
            an_fail(err, AN_EIO, NULL, "cannot write sandbox file '%s': %s", path, strerror(errno));
            free(path);
            return AN_EIO;
        }
        free(path);
    }
    return AN_OK;
}

/* ---- preconditions --------------------------------------------------------
 */

static bool truthy(const json_t *v)
{
    return v && !json_is_false(v) && !json_is_null(v);
}

char *an_comply_precheck(const struct an_jsont *t, const json_t *agent_caps)
{
    for (size_t i = 0; i < t->npreconds; i++) {
        const struct an_jsont_precond *p = &t->preconds[i];
        const json_t *root = p->agent ? agent_caps : t->client_caps;
        const char *path = p->agent ? p->path : p->path + 7; /* "client." */
        const json_t *v = root ? an_jsont_path(root, path) : NULL;
        bool ok;
        if (json_is_true(p->must_be))
            ok = truthy(v);
        else if (json_is_false(p->must_be))
            ok = !truthy(v);
        else
            ok = v && json_equal((json_t *)v, p->must_be);
        if (ok)
            continue;
        char *want = an_json_compact(p->must_be);
        char *got = v ? an_json_compact(v) : an_xstrdup("absent");
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "precondition not met: %s '%s' must be %s (%s: %s)",
                      p->agent ? "agentCap" : "cap", p->path, want,
                      p->agent ? "agent advertises" : "client has", got);
        free(want);
        free(got);
        return an_buf_detach(&b, NULL);
    }
    return NULL;
}

void comply_fill_meta(struct an_comply_test *out, const struct an_jsont *t)
{
    out->id = an_xstrdup(t->id);
    out->title = an_xstrdup(t->title);
    out->description = an_xstrdup(t->description);
    out->area = an_xstrdup(t->area);
    out->required = t->required;
    out->ndocs = t->ndocs;
    out->docs = an_xcalloc(t->ndocs + 1, sizeof *out->docs);
    for (size_t i = 0; i < t->ndocs; i++)
        out->docs[i] = an_xstrdup(t->docs[i]);
    out->nrequirements = t->nrequirements;
    out->requirements = an_xcalloc(t->nrequirements + 1, sizeof *out->requirements);
    for (size_t i = 0; i < t->nrequirements; i++)
        out->requirements[i] = an_xstrdup(t->requirements[i]);
}
