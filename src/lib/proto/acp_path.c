/* The agent's paths, opened beneath the sandbox (acp_int.h).
 *
 * Two steps. First, lexically: the absolute path must name the sandbox
 * (its realpath) as its leading components; only empty and "." components
 * are skipped there, as they mean nothing in any directory. What follows is
 * then opened relative to the sandbox's directory fd, so every component,
 * "..", symlinks and all, is resolved by the kernel on the objects
 * themselves:
 * - openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS) where the kernel has
 *   it (5.6+): a ".." above the sandbox, an absolute symlink or one that
 *   climbs out is EXDEV, a /proc magic link ELOOP;
 * - elsewhere a component walk with the same answers: each component is
 *   opened with O_PATH | O_NOFOLLOW from the directory fd of the one
 *   before, a symlink is read from the fd just opened (not by name again)
 *   and spliced in, ".." pops a directory fd and never goes above the
 *   sandbox, and the last component is opened with O_NOFOLLOW (created
 *   with O_EXCL).
 * Either way what is checked is what is opened: a component swapped for a
 * symlink after it was looked at is not followed. */
#define _GNU_SOURCE
#include "proto/acp_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/port.h"
#if AN_HAVE_OPENAT2
#include <linux/openat2.h>
#endif

#define MAX_LINKS 40 /* the kernel's MAXSYMLINKS */

int acp_path_force_walk;

int acp_path_rel(const char *sandbox, const char *path, const char **rel)
{
    *rel = NULL;
    if (!path || path[0] != '/')
        return ACP_PATH_RELATIVE;
    const char *p = path, *s = sandbox;
    for (;;) {
        while (*s == '/')
            s++;
        /* the next path component that means something */
        for (;;) {
            while (*p == '/')
                p++;
            if (p[0] == '.' && (p[1] == '/' || p[1] == '\0'))
                p++;
            else
                break;
        }
        if (!*s)
            break; /* every component of the sandbox matched */
        size_t sn = strcspn(s, "/"), pn = strcspn(p, "/");
        if (sn != pn || memcmp(s, p, sn) != 0)
            return ACP_PATH_OUTSIDE;
        s += sn;
        p += pn;
    }
    *rel = p;
    return ACP_PATH_OK;
}

/* ---- openat2 ---- */

#if AN_HAVE_OPENAT2
/* 1 openat2 works, -1 it does not (ENOSYS, or a seccomp filter that says
 * EPERM), 0 not known yet. */
static atomic_int have_openat2;

static int openat2_beneath(int root, const char *rel, int flags, mode_t mode)
{
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (uint64_t)(flags | O_CLOEXEC);
    how.mode = flags & O_CREAT ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    return (int)syscall(SYS_openat2, root, rel, &how, sizeof how);
}

static bool use_openat2(int root)
{
    int h = atomic_load(&have_openat2);
    if (h == 0) {
        int fd = openat2_beneath(root, ".", AN_O_PATH | O_DIRECTORY, 0);
        h = fd >= 0 ? 1 : errno == ENOSYS || errno == EPERM ? -1 : 0;
        if (fd >= 0)
            close(fd);
        if (h)
            atomic_store(&have_openat2, h);
    }
    return h >= 0;
}
#else
/* no openat2 on this system (core/port.h): the walk below, every time */
static int openat2_beneath(int root, const char *rel, int flags, mode_t mode)
{
    (void)root, (void)rel, (void)flags, (void)mode;
    return errno = ENOSYS, -1;
}

static bool use_openat2(int root)
{
    (void)root;
    return false;
}
#endif

/* ---- the component walk ---- */

struct walk {
    int *fds; /* fds[0] is the root (borrowed); the others are ours */
    size_t n, cap;
    struct an_buf rest; /* what is left to resolve */
    size_t pos;
    int links;
};

static void walk_release(struct walk *w)
{
    for (size_t i = 1; i < w->n; i++)
        close(w->fds[i]);
    free(w->fds);
    an_buf_release(&w->rest);
}

static int cur(const struct walk *w)
{
    return w->fds[w->n - 1];
}

static void push(struct walk *w, int fd)
{
    if (w->n == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 16;
        w->fds = an_xrealloc(w->fds, w->cap * sizeof *w->fds);
    }
    w->fds[w->n++] = fd;
}

/* rest = a, then "/" b (when b is not empty); a trailing "/" means the
 * last component must be a directory: it becomes "/." */
static void set_rest(struct walk *w, const char *a, size_t an, const char *b, size_t bn)
{
    struct an_buf nr = AN_BUF_INIT;
    an_buf_append(&nr, a, an);
    if (bn) {
        an_buf_putc(&nr, '/');
        an_buf_append(&nr, b, bn);
    }
    if (nr.len && nr.data[nr.len - 1] == '/')
        an_buf_putc(&nr, '.');
    an_buf_release(&w->rest);
    w->rest = nr;
    w->pos = 0;
}

/* A symlink opened as fd (O_PATH | O_NOFOLLOW) replaces its component:
 * its target, then what was left. */
static int splice_link(struct walk *w, int fd)
{
    char target[PATH_MAX];
    if (++w->links > MAX_LINKS)
        return errno = ELOOP, -1;
    ssize_t tl = readlinkat(fd, "", target, sizeof target);
    if (tl < 0)
        return -1;
    if ((size_t)tl >= sizeof target)
        return errno = ENAMETOOLONG, -1;
    if (tl == 0)
        return errno = ENOENT, -1;
    if (target[0] == '/')
        return errno = EXDEV, -1; /* RESOLVE_BENEATH refuses absolute links */
    char *left = an_xstrndup(w->rest.data + w->pos, w->rest.len - w->pos);
    set_rest(w, target, (size_t)tl, left, strlen(left));
    free(left);
    return 0;
}

int acp_walk_beneath(int root, const char *rel, int flags, mode_t mode)
{
    if (strlen(rel) >= PATH_MAX)
        return errno = ENAMETOOLONG, -1;
    struct walk w = {0};
    push(&w, root);
    set_rest(&w, rel, strlen(rel), "", 0);
    int result = -1, e = 0;
    for (;;) {
        /* the next component */
        const char *s = w.rest.data + w.pos;
        size_t n = strcspn(s, "/");
        char name[NAME_MAX + 1];
        if (n > NAME_MAX) {
            e = ENAMETOOLONG;
            break;
        }
        memcpy(name, s, n);
        name[n] = '\0';
        w.pos += n;
        while (w.pos < w.rest.len && w.rest.data[w.pos] == '/')
            w.pos++;
        bool last = w.pos >= w.rest.len;
        if (n == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
            if (name[0] == '.' && name[1] == '.') {
                if (w.n == 1) {
                    e = EXDEV; /* above the sandbox */
                    break;
                }
                close(w.fds[--w.n]);
            }
            if (!last)
                continue;
            result = openat(cur(&w), ".", flags | O_CLOEXEC, mode);
            e = errno;
            break;
        }
        int fd = openat(cur(&w), name, AN_O_PATH | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0 && errno == ENOENT && last && (flags & O_CREAT)) {
            /* a new file: made here, never through a link planted meanwhile */
            result = openat(cur(&w), name, flags | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
            e = errno;
            break;
        }
        if (fd < 0 || fstat(fd, &st) != 0) {
            e = errno;
            if (fd >= 0)
                close(fd);
            break;
        }
        if (S_ISLNK(st.st_mode)) {
            int rc = splice_link(&w, fd);
            e = errno;
            close(fd);
            if (rc != 0)
                break;
            continue;
        }
        if (last) {
            close(fd);
            /* O_NOFOLLOW: a link swapped in since the look is refused (ELOOP) */
            result = openat(cur(&w), name, (flags & ~O_CREAT) | O_NOFOLLOW | O_CLOEXEC, mode);
            e = errno;
            break;
        }
        if (!S_ISDIR(st.st_mode)) {
            close(fd);
            e = ENOTDIR;
            break;
        }
        push(&w, fd);
    }
    walk_release(&w);
    errno = e;
    return result;
}

int acp_open_beneath(int root, const char *rel, int flags, mode_t mode)
{
    if (!*rel)
        rel = ".";
    if (!acp_path_force_walk && use_openat2(root)) {
        int fd = openat2_beneath(root, rel, flags, mode);
        if (fd >= 0 || errno != EAGAIN)
            return fd;
        /* EAGAIN: a rename raced the lookup; once more, then the walk */
        fd = openat2_beneath(root, rel, flags, mode);
        if (fd >= 0 || errno != EAGAIN)
            return fd;
    }
    return acp_walk_beneath(root, rel, flags, mode);
}

int acp_mkdirs_beneath(int root, const char *rel)
{
    /* each prefix in turn: opened beneath (so a link out is EXDEV), made
     * in the directory fd of the one before when it is missing */
    size_t len = strlen(rel);
    if (len >= PATH_MAX)
        return errno = ENAMETOOLONG, -1;
    char *p = an_xstrdup(rel);
    int parent = -1, rc = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && p[i] == '/')
            i++;
        size_t start = i;
        while (i < len && p[i] != '/')
            i++;
        if (i == start)
            break;
        char save = p[i];
        p[i] = '\0';
        int fd = acp_open_beneath(root, p, AN_O_PATH | O_DIRECTORY, 0);
        const char *name = p + start;
        bool plain = strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
        if (fd < 0 && errno == ENOENT && plain) {
            int here = parent >= 0 ? parent : root;
            if (mkdirat(here, name, 0755) != 0 && errno != EEXIST) {
                rc = -1;
                p[i] = save;
                break;
            }
            fd = acp_open_beneath(root, p, AN_O_PATH | O_DIRECTORY, 0);
        }
        p[i] = save;
        if (fd < 0) {
            rc = -1;
            break;
        }
        if (parent >= 0)
            close(parent);
        parent = fd;
    }
    int e = errno;
    if (parent >= 0)
        close(parent);
    free(p);
    errno = e;
    return rc;
}
