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

/* `--name VALUE` or `--name=VALUE`; advances *i past the value. */
static const char *flag_value(int argc, char **argv, int *i, const char *name, bool *matched,
                              struct an_err *err)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    *matched = false;
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=') {
        *matched = true;
        return a + n + 1;
    }
    if (a[n] != '\0')
        return NULL;
    *matched = true;
    if (*i + 1 >= argc) {
        an_fail(err, AN_EUSAGE, NULL, "%s needs a value", name);
        return NULL;
    }
    return argv[++*i];
}

int mock_parse_flags(int argc, char **argv, const struct mock_flag *flags, size_t n, bool *help,
                     struct an_err *err)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            *help = true;
            return 0;
        }
        const char *v = NULL;
        size_t which = 0;
        bool matched = false;
        for (; which < n; which++) {
            if (flags[which].kind == MOCK_FLAG_SWITCH) {
                matched = !strcmp(argv[i], flags[which].name);
                v = "";
            } else {
                v = flag_value(argc, argv, &i, flags[which].name, &matched, err);
            }
            if (matched)
                break;
        }
        if (!matched)
            return an_fail(err, AN_EUSAGE, NULL, "unknown option '%s'", argv[i]);
        if (!v)
            return AN_EUSAGE; /* err already says which value is missing */
        const struct mock_flag *f = &flags[which];
        int rc = 0;
        switch (f->kind) {
        case MOCK_FLAG_STR:
            *(const char **)f->out = v;
            break;
        case MOCK_FLAG_ULONG:
            rc = mock_parse_ulong(v, f->name, f->min, f->max, f->out, err);
            break;
        case MOCK_FLAG_SWITCH:
            *(bool *)f->out = true;
            break;
        }
        if (rc)
            return rc;
    }
    return 0;
}

int mock_parse_server_flags(int argc, char **argv, struct mock_server_flags *f, bool *help,
                            struct an_err *err)
{
    const struct mock_flag flags[] = {
        {"--scenario", MOCK_FLAG_STR, &f->scenario, 0, 0},
        {"--port", MOCK_FLAG_ULONG, &f->port, 0, 65535},
        {"--port-file", MOCK_FLAG_STR, &f->port_file, 0, 0},
        {"--requests", MOCK_FLAG_STR, &f->requests, 0, 0},
        {"--max-body", MOCK_FLAG_ULONG, &f->max_body, 1, (unsigned long)1 << 40},
    };
    int rc = mock_parse_flags(argc, argv, flags, sizeof flags / sizeof flags[0], help, err);
    if (rc || *help)
        return rc;
    if (!f->scenario)
        return an_fail(err, AN_EUSAGE, NULL, "--scenario FILE is required");
    return 0;
}

int mock_report(const struct an_err *err, const char *protocol, int status)
{
    char msg[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    an_err_format(err, msg, sizeof msg);
    if (err->file[0])
        fprintf(stderr, "%s\n", msg);
    else
        fprintf(stderr, "ananke-mock %s: %s\n", protocol, msg);
    return status;
}

int mock_usage_error(const struct an_err *err, const char *protocol)
{
    mock_report(err, protocol, 2);
    fprintf(stderr, "Run 'ananke-mock %s --help' for usage.\n", protocol);
    return 2;
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
