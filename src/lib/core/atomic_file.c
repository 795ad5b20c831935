/* Files written whole or not at all (core/atomic_file.h). */
#include "core/atomic_file.h"
#include "core/port.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int an_mkdir_p(const char *path, size_t n, struct an_err *err)
{
    char *b = an_xstrndup(path, n);
    int rc = 0;
    for (size_t i = 1; i <= n && !rc; i++) {
        if (b[i] != '/' && b[i] != '\0')
            continue;
        char c = b[i];
        b[i] = '\0';
        if (mkdir(b, 0777) && errno != EEXIST)
            rc = an_fail(err, AN_EIO, NULL, "cannot create directory '%s': %s", b, strerror(errno));
        b[i] = c;
    }
    free(b);
    return rc;
}

int an_atomic_open(struct an_atomic_file *f, const char *path, struct an_err *err)
{
    memset(f, 0, sizeof *f);
    if (!path || !strcmp(path, "-")) {
        f->fp = stdout;
        return AN_OK;
    }
    f->path = path;
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    struct an_buf tmp = AN_BUF_INIT;
    int fd = -1, e = 0;
    bool made = dirlen <= 1;
    /* open(O_EXCL) with our own name rather than mkstemp(): mkstemp makes
     * the file 0600, and a report should get the usual umask permissions. */
    for (unsigned n = 0; n < 100 && fd < 0; n++) {
        an_buf_reset(&tmp);
        an_buf_append(&tmp, path, dirlen);
        an_buf_printf(&tmp, ".%s.tmp-%ld-%u", path + dirlen, (long)getpid(), n);
        fd = open(an_buf_cstr(&tmp), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        e = errno;
        if (fd < 0 && e == ENOENT && !made) {
            /* its directory is made, as html:DIR's is: when missing, not
             * before every file (a recording writes thousands into a few) */
            struct an_err merr = AN_ERR_INIT;
            made = true;
            if (an_mkdir_p(path, dirlen - 1, &merr)) {
                an_buf_release(&tmp);
                return an_fail(err, AN_EIO, NULL, "cannot write report '%s': %s", path,
                               merr.msg);
            }
            n--; /* the same name again */
            continue;
        }
        if (fd < 0 && e != EEXIST)
            break;
    }
    if (fd < 0) {
        an_buf_release(&tmp);
        return an_fail(err, AN_EIO, NULL, "cannot write report '%s': %s", path, strerror(e));
    }
    f->fp = fdopen(fd, "w");
    if (!f->fp) {
        e = errno;
        close(fd);
        unlink(an_buf_cstr(&tmp));
        an_buf_release(&tmp);
        return an_fail(err, AN_EIO, NULL, "cannot write report '%s': %s", path, strerror(e));
    }
    f->tmp = an_buf_detach(&tmp, NULL);
    return AN_OK;
}

int an_atomic_commit(struct an_atomic_file *f, struct an_err *err)
{
    int e = 0;
    if (!f->tmp) {
        if (fflush(f->fp) != 0 || ferror(f->fp))
            e = errno ? errno : EIO;
        f->fp = NULL;
        if (e)
            return an_fail(err, AN_EIO, NULL, "cannot write report to standard output: %s",
                           strerror(e));
        return AN_OK;
    }
    errno = 0;
    if (fflush(f->fp) != 0 || ferror(f->fp))
        e = errno ? errno : EIO;
    /* fsync so a power loss after the rename cannot leave an empty file
     * under the final name */
    if (!e && !f->unsynced && fsync(fileno(f->fp)) != 0)
        e = errno;
    if (fclose(f->fp) != 0 && !e)
        e = errno;
    f->fp = NULL;
    if (!e && rename(f->tmp, f->path) != 0)
        e = errno;
    if (e)
        unlink(f->tmp);
    free(f->tmp);
    f->tmp = NULL;
    if (e)
        return an_fail(err, AN_EIO, NULL, "cannot write report '%s': %s", f->path, strerror(e));
    return AN_OK;
}

static int write_whole(const char *path, const struct an_buf *b, bool unsynced,
                       struct an_err *err)
{
    struct an_atomic_file f;
    int rc = an_atomic_open(&f, path, err);
    if (rc)
        return rc;
    f.unsynced = unsynced;
    /* a short write sets the stream's error flag; commit reports it */
    (void)fwrite(b->data ? b->data : "", 1, b->len, f.fp);
    return an_atomic_commit(&f, err);
}

int an_atomic_write(const char *path, const struct an_buf *b, struct an_err *err)
{
    return write_whole(path, b, false, err);
}

int an_atomic_write_unsynced(const char *path, const struct an_buf *b, struct an_err *err)
{
    return write_whole(path, b, true, err);
}

int an_fs_sync(const char *dir, struct an_err *err)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int e = fd < 0 ? errno : an_port_sync_fs(fd) != 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    if (e)
        return an_fail(err, AN_EIO, NULL, "cannot sync '%s': %s", dir, strerror(e));
    return AN_OK;
}

void an_atomic_abort(struct an_atomic_file *f)
{
    if (f->tmp) {
        if (f->fp)
            fclose(f->fp);
        unlink(f->tmp);
        free(f->tmp);
    }
    memset(f, 0, sizeof *f);
}
