/* fs/read_text_file and fs/write_text_file inside the sandbox.
 *
 * A path is resolved the way the kernel would, one component at a time:
 * ".." climbs from what is already resolved (so "link/.." is the link
 * target's parent), a symlink's target is spliced in, components that do
 * not exist yet are taken as written. Only then is the result compared
 * with the sandbox (itself a realpath). The file is then opened with
 * O_NOFOLLOW, so a symlink planted after the check is not followed at the
 * last step. */
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

#define MAX_LINKS 40

static void pop(struct an_buf *b)
{
    char *s = b->data;
    size_t n = b->len;
    while (n > 1 && s[n - 1] != '/')
        n--;
    if (n > 1)
        n--; /* drop the '/' too, except the root's */
    b->len = n;
    b->data[n] = '\0';
}

int acp_resolve(const char *root, const char *path, char **out)
{
    *out = NULL;
    if (!path || path[0] != '/')
        return -1;
    struct an_buf res = AN_BUF_INIT, rest = AN_BUF_INIT;
    an_buf_init(&res, PATH_MAX * 4);
    an_buf_init(&rest, PATH_MAX * 4);
    an_buf_puts(&res, "/");
    if (an_buf_puts(&rest, path) != 0)
        goto unresolvable;
    int links = 0;
    bool missing = false;
    size_t pos = 0;
    char target[PATH_MAX];
    while (pos < rest.len) {
        const char *s = rest.data + pos;
        size_t n = 0;
        while (pos + n < rest.len && s[n] != '/')
            n++;
        size_t next = pos + n + (pos + n < rest.len);
        if (n == 0 || (n == 1 && s[0] == '.')) {
            pos = next;
            continue;
        }
        if (n == 2 && s[0] == '.' && s[1] == '.') {
            pop(&res);
            pos = next;
            continue;
        }
        size_t mark = res.len;
        if (res.len > 1 && an_buf_putc(&res, '/') != 0)
            goto unresolvable;
        if (an_buf_append(&res, s, n) != 0)
            goto unresolvable;
        pos = next;
        if (missing)
            continue;
        struct stat st;
        if (lstat(res.data, &st) != 0) {
            if (errno != ENOENT && errno != ENOTDIR)
                goto unresolvable;
            missing = true; /* the rest is taken as written */
            continue;
        }
        if (!S_ISLNK(st.st_mode))
            continue;
        if (++links > MAX_LINKS)
            goto unresolvable;
        ssize_t tl = readlink(res.data, target, sizeof target);
        if (tl < 0 || (size_t)tl >= sizeof target)
            goto unresolvable;
        /* the link is replaced by its target, then the rest */
        res.len = mark;
        res.data[mark] = '\0';
        if (target[0] == '/') {
            res.len = 1;
            res.data[1] = '\0';
        }
        struct an_buf nr = AN_BUF_INIT;
        an_buf_init(&nr, PATH_MAX * 4);
        if (an_buf_append(&nr, target, (size_t)tl) != 0 || an_buf_putc(&nr, '/') != 0 ||
            an_buf_append(&nr, rest.data + pos, rest.len - pos) != 0) {
            an_buf_release(&nr);
            goto unresolvable;
        }
        an_buf_release(&rest);
        rest = nr;
        pos = 0;
    }
    an_buf_release(&rest);
    size_t rl = strlen(root);
    bool inside = strncmp(res.data, root, rl) == 0 &&
                  (res.data[rl] == '\0' || res.data[rl] == '/' || (rl == 1 && root[0] == '/'));
    *out = an_buf_detach(&res, NULL);
    return inside ? 0 : -2;

unresolvable:
    an_buf_release(&res);
    an_buf_release(&rest);
    return -3;
}

/* Check r's "path"; on refusal, answer r and return NULL. */
static char *checked_path(struct an_acp_client *c, struct acp_req *r)
{
    const char *path = an_json_str(r->params, "path");
    char msg[PATH_MAX + 128], viol[PATH_MAX + 128];
    if (!path) {
        acp_finish(c, r, NULL,
                   acp_error(AN_RPC_INVALID_PARAMS, "Invalid params: 'path' must be a string",
                             NULL),
                   NULL);
        return NULL;
    }
    char *res = NULL;
    int rc = acp_resolve(c->sandbox, path, &res);
    if (rc == 0)
        return res;
    free(res);
    const char *reason = rc == -1 ? "relative_path" : rc == -2 ? "outside_sandbox" : "unresolvable";
    if (rc == -1) {
        snprintf(msg, sizeof msg, "path must be absolute: '%s'", path);
        snprintf(viol, sizeof viol, "agent called %s with a relative path '%s'", r->method, path);
    } else if (rc == -2) {
        snprintf(msg, sizeof msg, "access denied: '%s' is outside the sandbox", path);
        snprintf(viol, sizeof viol, "agent called %s outside the sandbox: '%s'", r->method, path);
    } else {
        snprintf(msg, sizeof msg, "cannot resolve '%s' (symlink loop or too long)", path);
        snprintf(viol, sizeof viol, "agent called %s with an unresolvable path '%s'", r->method,
                 path);
    }
    json_t *data = json_pack("{s:s,s:s}", "path", path, "reason", reason);
    acp_finish(c, r, NULL, acp_error(AN_RPC_INVALID_PARAMS, msg, data), viol);
    return NULL;
}

static void not_found(struct an_acp_client *c, struct acp_req *r, const char *path)
{
    char msg[PATH_MAX + 64];
    snprintf(msg, sizeof msg, "Resource not found: %s", path);
    acp_finish(c, r, NULL,
               acp_error(AN_RPC_RESOURCE_NOT_FOUND, msg, json_pack("{s:s}", "uri", path)), NULL);
}

static void io_error(struct an_acp_client *c, struct acp_req *r, const char *what,
                     const char *path, int e)
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
    char *path = checked_path(c, r);
    if (!path)
        return;
    const char *asked = an_json_str(r->params, "path");
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0) {
        int e = errno;
        if (e == ENOENT || e == ENOTDIR)
            not_found(c, r, asked);
        else
            io_error(c, r, "read", asked, e);
        free(path);
        return;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        free(path);
        acp_finish(c, r, NULL,
                   acp_error(AN_RPC_INVALID_PARAMS, "not a regular file",
                             json_pack("{s:s}", "path", asked)),
                   NULL);
        return;
    }
    struct an_buf b;
    an_buf_init(&b, AN_ACP_READ_MAX);
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
    free(path);
    if (e || over) {
        an_buf_release(&b);
        if (e) {
            io_error(c, r, "read", asked, e);
        } else {
            char msg[128];
            snprintf(msg, sizeof msg, "file is larger than the %zu-byte cap", (size_t)AN_ACP_READ_MAX);
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
    an_buf_release(&b);
    acp_finish(c, r, res, NULL, NULL);
}

/* mkdir -p of path's parent; every component below the sandbox was
 * resolved already, so this stays inside it. */
static int make_parents(const char *root, const char *path)
{
    char *p = an_xstrdup(path);
    size_t rl = strlen(root);
    int rc = 0;
    for (char *s = p + rl + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) {
            rc = -1;
            break;
        }
        *s = '/';
    }
    int e = errno;
    free(p);
    errno = e;
    return rc;
}

void acp_fs_write(struct an_acp_client *c, struct acp_req *r)
{
    const json_t *content = json_object_get(r->params, "content");
    if (!json_is_string(content)) {
        acp_finish(c, r, NULL,
                   acp_error(AN_RPC_INVALID_PARAMS, "Invalid params: 'content' must be a string",
                             NULL),
                   NULL);
        return;
    }
    char *path = checked_path(c, r);
    if (!path)
        return;
    const char *asked = an_json_str(r->params, "path");
    if (strcmp(path, c->sandbox) == 0) {
        free(path);
        io_error(c, r, "write", asked, EISDIR);
        return;
    }
    if (make_parents(c->sandbox, path) != 0) {
        int e = errno;
        free(path);
        io_error(c, r, "create the directories of", asked, e);
        return;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    free(path);
    if (fd < 0) {
        io_error(c, r, "write", asked, errno);
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
