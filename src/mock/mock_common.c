#include "mock_common.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json.h"

int mock_parse_ulong(const char *s, const char *flag, unsigned long min, unsigned long max,
                     unsigned long *out, struct an_err *err)
{
    char *end = NULL;
    errno = 0;
    /* strtoul accepts a sign and leading blanks; a flag value should not. */
    if (!s || !*s || *s < '0' || *s > '9')
        return an_fail(err, AN_EUSAGE, NULL, "%s needs a number, not '%s'", flag, s ? s : "");
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end)
        return an_fail(err, AN_EUSAGE, NULL, "%s needs a number, not '%s'", flag, s);
    if (v < min || v > max)
        return an_fail(err, AN_EUSAGE, NULL, "%s must be between %lu and %lu, not %lu", flag, min,
                       max, v);
    *out = v;
    return 0;
}

void mock_signals_setup(sigset_t *stop_set)
{
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, NULL);
    sigemptyset(stop_set);
    sigaddset(stop_set, SIGINT);
    sigaddset(stop_set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, stop_set, NULL);
}

int mock_signals_wait(const sigset_t *stop_set)
{
    int sig = 0;
    while (sigwait(stop_set, &sig) != 0)
        ;
    return sig;
}

int mock_announce(unsigned port, const char *port_file, struct an_err *err)
{
    struct an_loc loc = {port_file, 0, 0};
    if (port_file) {
        size_t n = strlen(port_file) + 32;
        char *tmp = an_xmalloc(n);
        snprintf(tmp, n, "%s.tmp.%ld", port_file, (long)getpid());
        FILE *f = fopen(tmp, "w");
        int rc = 0;
        if (!f) {
            rc = an_fail(err, AN_EIO, &loc, "cannot write port file: %s", strerror(errno));
        } else {
            fprintf(f, "%u\n", port);
            if (fclose(f) != 0)
                rc = an_fail(err, AN_EIO, &loc, "cannot write port file: %s", strerror(errno));
            else if (rename(tmp, port_file) != 0)
                rc = an_fail(err, AN_EIO, &loc, "cannot write port file: %s", strerror(errno));
            if (rc)
                unlink(tmp);
        }
        free(tmp);
        if (rc)
            return rc;
    }
    printf("http://127.0.0.1:%u\n", port);
    fflush(stdout);
    return 0;
}

struct mock_reqlog {
    FILE *f;
    pthread_mutex_t lock;
};

int mock_reqlog_open(struct mock_reqlog **out, const char *path, struct an_err *err)
{
    struct an_loc loc = {path, 0, 0};
    FILE *f = fopen(path, "a");
    if (!f)
        return an_fail(err, AN_EIO, &loc, "cannot open requests log: %s", strerror(errno));
    struct mock_reqlog *log = an_xcalloc(1, sizeof *log);
    log->f = f;
    pthread_mutex_init(&log->lock, NULL);
    *out = log;
    return 0;
}

void mock_reqlog_write(struct mock_reqlog *log, const json_t *line)
{
    if (!log)
        return;
    char *s = an_json_compact(line);
    pthread_mutex_lock(&log->lock);
    /* Line and newline under one lock, then a flush before the answer is
     * sent, so a test that reads the log after its request sees whole lines. */
    fputs(s, log->f);
    fputc('\n', log->f);
    fflush(log->f);
    pthread_mutex_unlock(&log->lock);
    free(s);
}

void mock_reqlog_close(struct mock_reqlog *log)
{
    if (!log)
        return;
    fclose(log->f);
    pthread_mutex_destroy(&log->lock);
    free(log);
}
