/* fs/read_text_file and fs/write_text_file inside the sandbox.
 *
 * A path is checked and opened by acp_open_param(): absolute, naming the
 * sandbox, then opened beneath the sandbox's directory fd (acp_path.c), so
 * ".." and symlinks are resolved by the kernel on the very objects that are
 * opened. Only regular files are served: the open never blocks
 * (O_NONBLOCK, so a FIFO without a reader is ENXIO instead of a hang), and
 * anything fstat() does not call a regular file with one link is refused
 * before a byte is read or written (a file is truncated only then). */
#define _GNU_SOURCE
#include "proto/acp_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Answer r with an error {code, "<message>", data {path, reason}}; with
 * `viol`, the request also broke the rules: "agent called METHOD <viol>". */
static void refuse(struct an_acp_client *c, struct acp_req *r, int code, const char *reason,
                   const char *path, const char *viol, const char *fmt, const char *subject)
{
    char msg[PATH_MAX + 160], v[PATH_MAX + 160];
    snprintf(msg, sizeof msg, fmt, subject);
    json_t *data = json_pack("{s:s%,s:s}", "path", path, strlen(path), "reason", reason);
    if (viol)
        snprintf(v, sizeof v, "agent called %s %s: '%s'", r->method, viol, path);
    acp_finish(c, r, NULL, acp_error(code, msg, data), viol ? v : NULL);
}

/* What an open that failed with e means to the agent. */
static void open_failed(struct an_acp_client *c, struct acp_req *r, const char *path,
                        const char *subj, bool cwd, int e)
{
    char msg[PATH_MAX + 128];
    switch (e) {
    case EXDEV:
        refuse(c, r, AN_RPC_INVALID_PARAMS, "outside_sandbox", path,
               cwd ? "with a cwd outside the sandbox" : "outside the sandbox",
               "access denied: %s is outside the sandbox", subj);
        return;
    case ELOOP:
    case ENAMETOOLONG:
        refuse(c, r, AN_RPC_INVALID_PARAMS, "unresolvable", path, "with an unresolvable path",
               e == ELOOP ? "cannot resolve %s (too many symlinks, or a magic link)"
                          : "cannot resolve %s (too long)",
               subj);
        return;
    case ENXIO:
        /* O_NONBLOCK on a FIFO without a reader, or a socket */
        refuse(c, r, AN_RPC_INVALID_PARAMS, "not_regular_file", path, "on a special file",
               "%s is not a regular file (a FIFO, socket or device)", subj);
        return;
    case EISDIR:
        refuse(c, r, AN_RPC_INVALID_PARAMS, "directory", path, NULL, "%s is a directory", subj);
        return;
    case ENOENT:
    case ENOTDIR:
        snprintf(msg, sizeof msg, "Resource not found: %s", path);
        acp_finish(c, r, NULL,
                   acp_error(AN_RPC_RESOURCE_NOT_FOUND, msg, json_pack("{s:s}", "uri", path)),
                   NULL);
        return;
    default:
        snprintf(msg, sizeof msg, "cannot open %s: %s", subj, strerror(e));
        acp_finish(c, r, NULL, acp_error(AN_RPC_INTERNAL_ERROR, msg, NULL), NULL);
    }
}

int acp_open_param(struct an_acp_client *c, struct acp_req *r, const char *key, int flags)
{
    const json_t *v = json_object_get(r->params, key);
    bool cwd = strcmp(key, "cwd") == 0;
    char msg[128], subj[PATH_MAX + 16];
    if (!json_is_string(v)) {
        snprintf(msg, sizeof msg, "Invalid params: '%s' must be a string", key);
        acp_finish(c, r, NULL, acp_error(AN_RPC_INVALID_PARAMS, msg, NULL), NULL);
        return -1;
    }
    const char *path = json_string_value(v);
    snprintf(subj, sizeof subj, cwd ? "cwd '%s'" : "'%s'", path);
    if (strlen(path) != json_string_length(v)) {
        /* the C string would stop at the NUL: another path than the one sent */
        refuse(c, r, AN_RPC_INVALID_PARAMS, "nul_byte", path, "with a NUL byte in a path",
               "%s contains a NUL byte", subj);
        return -1;
    }
    const char *rel;
    int rc = acp_path_rel(c->sandbox, path, &rel);
    if (rc == ACP_PATH_OUTSIDE && c->sandbox_given) /* the path as configured, links and all */
        rc = acp_path_rel(c->sandbox_given, path, &rel);
    if (rc == ACP_PATH_RELATIVE) {
        refuse(c, r, AN_RPC_INVALID_PARAMS, "relative_path", path,
               cwd ? "with a cwd not absolute" : "with a relative path",
               cwd ? "access denied: %s is not absolute" : "path must be absolute: %s", subj);
        return -1;
    }
    if (rc == ACP_PATH_OUTSIDE) {
        open_failed(c, r, path, subj, cwd, EXDEV);
        return -1;
    }
    int fd = acp_open_beneath(c->root_fd, rel, flags, 0644);
    if (fd < 0 && errno == ENOENT && (flags & O_CREAT)) {
        /* the parents first, each made beneath the sandbox */
        const char *slash = strrchr(rel, '/');
        if (slash) {
            char *dir = an_xstrndup(rel, (size_t)(slash - rel));
            int mk = acp_mkdirs_beneath(c->root_fd, dir);
            int e = errno;
            free(dir);
            if (mk != 0) {
                open_failed(c, r, path, subj, cwd, e);
                return -1;
            }
            fd = acp_open_beneath(c->root_fd, rel, flags, 0644);
        }
    }
    if (fd < 0) {
        open_failed(c, r, path, subj, cwd, errno);
        return -1;
    }
    return fd;
}

/* fd (just opened) must be a regular file with one link; else r is
 * answered and false returned. */
static bool regular(struct an_acp_client *c, struct acp_req *r, int fd)
{
    const char *path = an_json_str(r->params, "path");
    char subj[PATH_MAX + 16];
    snprintf(subj, sizeof subj, "'%s'", path);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        open_failed(c, r, path, subj, false, errno);
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        open_failed(c, r, path, subj, false, EISDIR);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        open_failed(c, r, path, subj, false, ENXIO);
        return false;
    }
    if (st.st_nlink > 1) {
        /* another name of the same file may be outside the sandbox */
        refuse(c, r, AN_RPC_INVALID_PARAMS, "hard_link", path, "on a file with several hard links",
               "%s has several hard links (one may be outside the sandbox)", subj);
        return false;
    }
    /* a regular file never blocks; the flag goes for what follows anyway */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return true;
}

static void io_error(struct an_acp_client *c, struct acp_req *r, const char *what, const char *path,
                     int e)
{
    char msg[PATH_MAX + 128];
    snprintf(msg, sizeof msg, "cannot %s '%s': %s", what, path, strerror(e));
    acp_finish(c, r, NULL, acp_error(AN_RPC_INTERNAL_ERROR, msg, NULL), NULL);
}

/* A positive integer member, default def; false if present but invalid. */
static bool opt_uint(const json_t *params, const char *key, int64_t def, int64_t *out)
{
    const json_t *v = json_object_get(params, key);
    *out = def;
    if (!v || json_is_null(v))
        return true;
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return false;
    *out = json_integer_value(v);
    return true;
}

void acp_fs_read(struct an_acp_client *c, struct acp_req *r)
{
    int64_t line, limit;
    if (!opt_uint(r->params, "line", 1, &line) || !opt_uint(r->params, "limit", -1, &limit)) {
        acp_finish(c, r, NULL,
                   acp_error(AN_RPC_INVALID_PARAMS,
                             "Invalid params: 'line' and 'limit' must be non-negative integers",
                             NULL),
                   NULL);
        return;
    }
    int fd = acp_open_param(c, r, "path", O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return;
    if (!regular(c, r, fd)) {
        close(fd);
        return;
    }
    const char *asked = an_json_str(r->params, "path");
    struct an_buf b;
    an_buf_init(&b, c->read_max);
    bool over = false;
    int e = 0;
    for (;;) {
        ssize_t n = read(fd, c->scratch, (size_t)64 << 10);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            e = errno;
            break;
        }
        if (n == 0)
            break;
        if (an_buf_append(&b, c->scratch, (size_t)n) != 0) {
            over = true;
            break;
        }
    }
    close(fd);
    if (e || over) {
        an_buf_release(&b);
        if (e) {
            io_error(c, r, "read", asked, e);
        } else {
            char msg[128];
            snprintf(msg, sizeof msg, "file is larger than max_read_bytes (%zu bytes)",
                     c->read_max);
            r->cap = "max_read_bytes";
            acp_finish(c, r, NULL, acp_error(AN_RPC_INTERNAL_ERROR, msg, NULL), NULL);
        }
        return;
    }
    /* line is 1-based (0 is read as 1); limit counts lines */
    const char *s = an_buf_cstr(&b), *end = s + b.len;
    for (int64_t k = 1; k < line && s < end; k++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        s = nl ? nl + 1 : end;
    }
    const char *stop = s;
    if (limit < 0) {
        stop = end;
    } else {
        for (int64_t k = 0; k < limit && stop < end; k++) {
            const char *nl = memchr(stop, '\n', (size_t)(end - stop));
            stop = nl ? nl + 1 : end;
        }
    }
    json_t *res = json_object();
    json_object_set_new(res, "content", an_json_lossy(s, (size_t)(stop - s)));
    r->kept_bytes = (size_t)(stop - s);
    an_buf_release(&b);
    acp_finish(c, r, res, NULL, NULL);
}

void acp_fs_write(struct an_acp_client *c, struct acp_req *r)
{
    const json_t *content = json_object_get(r->params, "content");
    if (!json_is_string(content)) {
        acp_finish(
            c, r, NULL,
            acp_error(AN_RPC_INVALID_PARAMS, "Invalid params: 'content' must be a string", NULL),
            NULL);
        return;
    }
    int fd = acp_open_param(c, r, "path", O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return;
    if (!regular(c, r, fd)) {
        close(fd);
        return;
    }
    const char *asked = an_json_str(r->params, "path");
    if (ftruncate(fd, 0) != 0) {
        int e = errno;
        close(fd);
        io_error(c, r, "write", asked, e);
        return;
    }
    const char *s = json_string_value(content);
    size_t left = json_string_length(content);
    while (left) {
        ssize_t w = write(fd, s, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            int e = errno;
            close(fd);
            io_error(c, r, "write", asked, e);
            return;
        }
        s += w;
        left -= (size_t)w;
    }
    if (close(fd) != 0) {
        io_error(c, r, "write", asked, errno);
        return;
    }
    acp_finish(c, r, json_object(), NULL, NULL);
}
