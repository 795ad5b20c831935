/* Reading back without following links (nofollow.h). */
#include "core/nofollow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"

/* Where the walk stopped and why. */
enum walk { WK_OK, WK_ABSENT, WK_LINK, WK_OTHER, WK_BADREL };

/* The component walk: *fd is the open last component on WK_OK. */
static enum walk walk(const char *root, const char *rel, int *fd, int *errno_out)
{
    *fd = -1;
    *errno_out = 0;
    if (!root) {
        int f = open(rel, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (f >= 0) {
            *fd = f;
            return WK_OK;
        }
        *errno_out = errno;
        struct stat st;
        if (!lstat(rel, &st) && S_ISLNK(st.st_mode))
            return WK_LINK;
        return errno == ENOENT || errno == ENOTDIR ? WK_ABSENT : WK_OTHER;
    }
    int dir = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) {
        *errno_out = errno;
        return errno == ENOENT || errno == ENOTDIR ? WK_ABSENT : WK_OTHER;
    }
    enum walk w = WK_OK;
    const char *p = rel;
    for (;;) {
        size_t n = strcspn(p, "/");
        bool last = p[n] == '\0';
        char name[256];
        if (n == 0 || n >= sizeof name || (n == 1 && p[0] == '.') ||
            (n == 2 && p[0] == '.' && p[1] == '.')) {
            w = WK_BADREL;
            break;
        }
        memcpy(name, p, n);
        name[n] = '\0';
        int f = openat(dir, name,
                       last ? O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
                            : O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (f < 0) {
            *errno_out = errno;
            struct stat st;
            if (!fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
                w = WK_LINK;
            else
                w = errno == ENOENT || errno == ENOTDIR ? WK_ABSENT : WK_OTHER;
            break;
        }
        close(dir);
        dir = f;
        if (last) {
            *fd = f;
            return WK_OK;
        }
        p += n + 1;
    }
    close(dir);
    return w;
}

static enum walk open_reg(const char *root, const char *rel, int *fd, int *e)
{
    enum walk w = walk(root, rel, fd, e);
    if (w != WK_OK)
        return w;
    struct stat st;
    if (fstat(*fd, &st) || !S_ISREG(st.st_mode)) {
        close(*fd);
        *fd = -1;
        return WK_OTHER;
    }
    return WK_OK;
}

enum an_nf_kind an_nf_kind(const char *root, const char *rel)
{
    int fd, e;
    enum walk w = open_reg(root, rel, &fd, &e);
    if (fd >= 0)
        close(fd);
    switch (w) {
    case WK_OK:
        return AN_NF_FILE;
    case WK_ABSENT:
        return AN_NF_ABSENT;
    case WK_LINK:
        return AN_NF_LINK;
    default:
        return AN_NF_OTHER;
    }
}

int an_nf_open(const char *root, const char *rel, int *fd, struct an_err *err)
{
    int e;
    const char *sep = root ? "/" : "";
    if (!root)
        root = "";
    enum walk w = open_reg(*root ? root : NULL, rel, fd, &e);
    switch (w) {
    case WK_OK:
        return AN_OK;
    case WK_ABSENT:
        return an_fail(err, AN_ENOTFOUND, NULL, "cannot read '%s%s%s': %s", root, sep, rel,
                       strerror(e ? e : ENOENT));
    case WK_LINK:
        return an_fail(err, AN_EIO, NULL,
                       "'%s%s%s' is (or goes through) a symbolic link: not followed (recorded "
                       "files are read without following links)",
                       root, sep, rel);
    case WK_BADREL:
        return an_fail(err, AN_EIO, NULL, "'%s%s%s': not a plain path below the directory", root,
                       sep, rel);
    default:
        if (e)
            return an_fail(err, AN_EIO, NULL, "cannot read '%s%s%s': %s", root, sep, rel,
                           strerror(e));
        return an_fail(err, AN_EIO, NULL, "'%s%s%s' is not a regular file: not read", root, sep,
                       rel);
    }
}

int an_nf_read(const char *root, const char *rel, size_t cap, struct an_buf *out,
               struct an_err *err)
{
    int fd;
    an_buf_init(out, cap);
    int rc = an_nf_open(root, rel, &fd, err);
    if (rc)
        return rc;
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = an_fail(err, AN_EIO, NULL, "cannot read '%s%s%s': %s", root ? root : "",
                         root ? "/" : "", rel, strerror(errno));
            break;
        }
        if (n == 0)
            break;
        if (an_buf_append(out, chunk, (size_t)n)) {
            rc = an_fail(err, AN_ELIMIT, NULL, "'%s%s%s' is larger than %zu bytes: not read",
                         root ? root : "", root ? "/" : "", rel, cap);
            break;
        }
    }
    close(fd);
    if (rc)
        an_buf_release(out);
    return rc;
}

json_t *an_nf_json(const char *root, const char *rel, size_t flags, size_t cap, struct an_err *err)
{
    struct an_buf b;
    if (an_nf_read(root, rel, cap, &b, err))
        return NULL;
    char why[256];
    if (an_json_tree_over_cap(b.data ? b.data : "", b.len, why, sizeof why)) {
        struct an_buf path = AN_BUF_INIT;
        an_buf_printf(&path, "%s%s%s", root ? root : "", root ? "/" : "", rel);
        struct an_loc at = {an_buf_cstr(&path), 0, 0};
        an_fail(err, AN_ELIMIT, &at, "not read: %s", why);
        an_buf_release(&path);
        an_buf_release(&b);
        return NULL;
    }
    json_error_t je;
    json_t *v = json_loadb(b.data ? b.data : "", b.len, flags, &je);
    if (!v) {
        struct an_buf path = AN_BUF_INIT;
        an_buf_printf(&path, "%s%s%s", root ? root : "", root ? "/" : "", rel);
        struct an_loc loc = {an_buf_cstr(&path), (unsigned)(je.line > 0 ? je.line : 0),
                             (unsigned)(je.column > 0 ? je.column : 0)};
        an_fail(err, AN_EPARSE, &loc, "%s", an_json_error_text(&je));
        an_buf_release(&path);
    }
    an_buf_release(&b);
    return v;
}
