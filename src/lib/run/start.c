/* target.start: start the agent, wait until it is ready, stop it. */
#include "run/start.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/port.h"
#include "core/cancel.h"
#include "proto/http.h"
#include "core/child.h"
#include "core/clock.h"
#include "core/interp.h"

#define PROBE_TIMEOUT_MS 250    /* one TCP connect attempt */
#define URL_TIMEOUT_MS 1000     /* one HTTP request */
#define LOG_LINE_MAX (64 << 10) /* a longer line is matched on its start */

struct an_started {
    struct an_child child;
    struct an_loc loc;         /* target.start's, for the errors after the start */
    char prog[256];            /* cmd[0], as the errors name it */
    char ready[512];           /* "ready.url http://...", as ready_what() says it */
    char shown_log[PATH_MAX + 32];
};

struct waiter {
    const struct an_target_start *s;
    const char *url;    /* ready.url, interpolated */
    int log_fd;         /* ready.log: our read end of the log */
    struct an_buf line; /* the line being read */
    bool line_skip;     /* past LOG_LINE_MAX: the rest is not kept */
    long last_status;   /* ready.url: the last HTTP status, 0 none */
};

/* ---- probes ----------------------------------------------------------- */

/* Does host:port accept a TCP connection within PROBE_TIMEOUT_MS? */
static bool tcp_accepts(const char *host, const char *port)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res = NULL;
    if (getaddrinfo(host, port, &hints, &res) != 0)
        return false;
    bool ok = false;
    for (struct addrinfo *ai = res; ai && !ok; ai = ai->ai_next) {
        int fd = an_port_socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0)
            continue;
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
            ok = true;
        } else if (errno == EINPROGRESS) {
            struct pollfd p = {.fd = fd, .events = POLLOUT};
            int soerr = 0;
            socklen_t len = sizeof soerr;
            if (poll(&p, 1, PROBE_TIMEOUT_MS) == 1 &&
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) == 0 && soerr == 0)
                ok = true;
        }
        close(fd);
    }
    freeaddrinfo(res);
    return ok;
}

/* The host and port a URL names ("80"/"443" by default). false: unparsable. */
static bool url_host_port(const char *url, char **host, char **port)
{
    CURLU *u = curl_url();
    bool ok = u && !curl_url_set(u, CURLUPART_URL, url, 0) &&
              !curl_url_get(u, CURLUPART_HOST, host, 0) &&
              !curl_url_get(u, CURLUPART_PORT, port, CURLU_DEFAULT_PORT);
    curl_url_cleanup(u);
    return ok;
}

static size_t discard(char *p, size_t size, size_t n, void *ud)
{
    (void)p;
    (void)ud;
    return size * n;
}

/* One GET: ready on any HTTP status below 500 but 404 (a route not mounted
 * yet, a proxy in front of nothing); a refused connection is not ready. */
static bool url_ready(struct waiter *w, int64_t left_ms)
{
    CURL *h = curl_easy_init();
    if (!h)
        return false;
    long status = 0;
    curl_easy_setopt(h, CURLOPT_URL, w->url);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, an_http_cancel_progress);
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(
        h, CURLOPT_TIMEOUT_MS,
        (long)(left_ms < URL_TIMEOUT_MS ? (left_ms > 1 ? left_ms : 1) : URL_TIMEOUT_MS));
    curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)(1 << 20));
    if (curl_easy_perform(h) == CURLE_OK)
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(h);
    if (status)
        w->last_status = status;
    return status >= 100 && status < 500 && status != 404;
}

/* Read what the log gained; true when a line (or the unfinished last one)
 * matches ready.log. */
static bool log_ready(struct waiter *w)
{
    char buf[8192];
    ssize_t n;
    while ((n = read(w->log_fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)) {
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] == '\n') {
                bool hit =
                    an_regex_search(w->s->ready_log, w->line.data ? w->line.data : "", w->line.len);
                an_buf_reset(&w->line);
                w->line_skip = false;
                if (hit)
                    return true;
            } else if (!w->line_skip) {
                if (w->line.len >= LOG_LINE_MAX)
                    w->line_skip = true;
                else
                    (void)an_buf_append(&w->line, &buf[i], 1);
            }
        }
    }
    return w->line.len && an_regex_search(w->s->ready_log, w->line.data, w->line.len);
}

static bool is_ready(struct waiter *w, int64_t left_ms)
{
    char port[16];
    switch (w->s->ready) {
    case AN_READY_URL:
        return url_ready(w, left_ms);
    case AN_READY_PORT:
        snprintf(port, sizeof port, "%u", w->s->ready_port);
        return tcp_accepts("127.0.0.1", port);
    case AN_READY_LOG:
        return log_ready(w);
    }
    return false;
}

static const char *ready_what(const struct waiter *w, char *buf, size_t cap)
{
    if (w->s->ready == AN_READY_URL)
        snprintf(buf, cap, "ready.url %s", w->url);
    else if (w->s->ready == AN_READY_PORT)
        snprintf(buf, cap, "ready.port %u", w->s->ready_port);
    else
        snprintf(buf, cap, "ready.log '%s'", w->s->ready_log->src);
    return buf;
}

/* ---- the command ------------------------------------------------------ */

/* "ananke-mock" alone is the one beside this ananke, when there is one. */
static char *beside_self(const char *prog)
{
    if (strcmp(prog, "ananke-mock") != 0)
        return NULL;
    char self[PATH_MAX];
    if (an_port_self_exe(self, sizeof self) != 0)
        return NULL;
    char *slash = strrchr(self, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    size_t len = strlen(self) + sizeof "/ananke-mock";
    char *p = an_xmalloc(len);
    snprintf(p, len, "%s/ananke-mock", self);
    if (access(p, X_OK) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

static void free_strv(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

/* argv and env from their templates (${ENV.X} only). */
static int build(const struct an_target_start *s, char ***argv, char ***env, struct an_err *err)
{
    struct an_vars none = AN_VARS_INIT;
    *argv = an_xcalloc(s->ncmd + 1, sizeof **argv);
    *env = an_xcalloc(s->nenv + 1, sizeof **env);
    for (size_t i = 0; i < s->ncmd; i++)
        if (an_interp(s->cmd[i].src, &s->cmd[i].loc, &none, &(*argv)[i], err))
            return err->code;
    char *mock = beside_self((*argv)[0]);
    if (mock) {
        free((*argv)[0]);
        (*argv)[0] = mock;
    }
    for (size_t i = 0; i < s->nenv; i++) {
        char *v = NULL;
        if (an_interp(s->env[i].value.src, &s->env[i].value.loc, &none, &v, err))
            return err->code;
        size_t len = strlen(s->env[i].name) + strlen(v) + 2;
        (*env)[i] = an_xmalloc(len);
        snprintf((*env)[i], len, "%s=%s", s->env[i].name, v);
        free(v);
    }
    return 0;
}

/* The log's path as the user can open it from here: relative when ananke
 * runs in the project directory, else absolute. */
static void log_shown(const char *dir, char *buf, size_t cap)
{
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) && !strcmp(cwd, dir))
        snprintf(buf, cap, "%s", AN_START_LOG);
    else
        snprintf(buf, cap, "%s/%s", dir, AN_START_LOG);
}

/* .ananke/start.log, truncated, opened without following links. */
static int open_log(const char *dir, int *wfd, int *rfd, struct an_err *err)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), sfd = -1;
    const char *why = NULL;
    if (dfd < 0)
        why = "cannot open the project directory";
    else if (mkdirat(dfd, ".ananke", 0777) && errno != EEXIST)
        why = "cannot create .ananke";
    else if ((sfd = openat(dfd, ".ananke", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
        why = "cannot open .ananke (a link is not followed)";
    else if ((*wfd = openat(sfd, "start.log",
                            O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
                            0666)) < 0)
        why = "cannot write .ananke/start.log (a link is not followed)";
    else if ((*rfd = openat(sfd, "start.log", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
        why = "cannot read .ananke/start.log";
    int e = errno;
    if (dfd >= 0)
        close(dfd);
    if (sfd >= 0)
        close(sfd);
    if (why)
        return an_fail(err, AN_EIO, NULL, "target.start: %s in '%s': %s", why, dir, strerror(e));
    return 0;
}

/* ---- up and down ------------------------------------------------------ */

/* Is something already listening where the server would? Fills where. */
static bool port_busy(const struct waiter *w, char *where, size_t cap)
{
    char *host = NULL, *port = NULL;
    bool busy = false;
    if (w->s->ready == AN_READY_PORT) {
        char p[16];
        snprintf(p, sizeof p, "%u", w->s->ready_port);
        snprintf(where, cap, "port %u (127.0.0.1:%u)", w->s->ready_port, w->s->ready_port);
        busy = tcp_accepts("127.0.0.1", p);
    } else if (w->s->ready == AN_READY_URL && url_host_port(w->url, &host, &port)) {
        snprintf(where, cap, "port %s (%s:%s, from ready.url)", port, host, port);
        busy = tcp_accepts(host, port);
    }
    curl_free(host);
    curl_free(port);
    return busy;
}

/* Poll until ready, the child exits, the deadline passes or the run is
 * cancelled. c is NULL for a reused server. */
static int wait_ready(struct waiter *w, struct an_child *c, const char *shown_log, const char *prog,
                      struct an_err *err)
{
    const struct an_target_start *s = w->s;
    int64_t deadline = an_clock_mono_ms() + s->timeout_ms, tick = 5;
    char what[512], st[96];
    for (;;) {
        if (an_cancelled())
            return an_fail(err, AN_EIO, &s->loc, "target.start: interrupted before '%s' was ready",
                           prog);
        int64_t left = deadline - an_clock_mono_ms();
        if (is_ready(w, left))
            return 0;
        if (c && an_child_reap(c, true))
            return an_fail(err, AN_EIO, &s->loc,
                           "target.start: '%s' %s before it was ready (%s); its output is in %s",
                           prog, an_child_status_str(c, st, sizeof st),
                           ready_what(w, what, sizeof what), shown_log);
        left = deadline - an_clock_mono_ms();
        if (left <= 0) {
            char last[48] = "";
            if (w->last_status)
                snprintf(last, sizeof last, ", last answer HTTP %ld", w->last_status);
            if (!c)
                return an_fail(err, AN_ETIMEOUT, &s->loc,
                               "target.start: the server already there was not ready after "
                               "%lld ms (%s%s; timeout_ms)",
                               (long long)s->timeout_ms, ready_what(w, what, sizeof what), last);
            return an_fail(err, AN_ETIMEOUT, &s->loc,
                           "target.start: '%s' was not ready after %lld ms (%s%s; timeout_ms); "
                           "its output is in %s",
                           prog, (long long)s->timeout_ms, ready_what(w, what, sizeof what), last,
                           shown_log);
        }
        an_sleep_ms(tick < left ? tick : left);
        tick = tick * 2 < 100 ? tick * 2 : 100;
    }
}

int an_start_up(struct an_started **out, const struct an_target_start *s, const char *dir,
                struct an_err *err)
{
    struct waiter w = {.s = s, .log_fd = -1};
    char **argv = NULL, **env = NULL, *url = NULL;
    struct an_started *st = NULL;
    int wfd = -1, rc = 0;
    char shown[PATH_MAX + 32], where[512];
    *out = NULL;
    if (!s)
        return 0;
    if (s->ready == AN_READY_URL) {
        struct an_vars none = AN_VARS_INIT;
        if ((rc = an_interp(s->ready_url.src, &s->ready_url.loc, &none, &url, err)))
            goto done;
        w.url = url;
        if ((rc = an_http_global_init("target.start's ready.url", err)))
            goto done;
    }
    if (port_busy(&w, where, sizeof where)) {
        if (!s->reuse_existing) {
            rc = an_fail(err, AN_EIO, &s->loc,
                         "target.start: %s is already in use: stop what listens there, or set "
                         "reuse_existing: true to test it",
                         where);
            goto done;
        }
        rc = wait_ready(&w, NULL, "", "the server already there", err);
        goto done;
    }
    if ((rc = build(s, &argv, &env, err)))
        goto done;
    log_shown(dir, shown, sizeof shown);
    if ((rc = open_log(dir, &wfd, &w.log_fd, err)))
        goto done;
    st = an_xcalloc(1, sizeof *st);
    st->child = (struct an_child)AN_CHILD_INIT;
    struct an_child_opts o = AN_CHILD_OPTS_INIT;
    o.argv = (const char *const *)argv;
    o.cwd = dir;
    o.env = (const char *const *)env;
    o.stdin_null = true;
    o.out_to_fd = true;
    o.out_fd = wfd;
    o.parent_death_signal = SIGTERM; /* ananke killed (SIGKILL, SIGHUP) */
    if ((rc = an_child_spawn(&st->child, &o, err))) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        rc = an_fail(err, rc == AN_ENOTFOUND ? AN_EIO : rc, &s->loc, "target.start: %s", msg);
        goto done;
    }
    if ((rc = wait_ready(&w, &st->child, shown, argv[0], err)))
        goto done;
    st->loc = s->loc;
    snprintf(st->prog, sizeof st->prog, "%s", argv[0]);
    ready_what(&w, st->ready, sizeof st->ready);
    snprintf(st->shown_log, sizeof st->shown_log, "%s", shown);
    *out = st;
    st = NULL;
done:
    an_start_down(st);
    if (wfd >= 0)
        close(wfd);
    if (w.log_fd >= 0)
        close(w.log_fd);
    an_buf_release(&w.line);
    free_strv(argv);
    free_strv(env);
    free(url);
    return rc;
}

int an_start_check(struct an_started *st, struct an_err *err)
{
    char how[96];
    if (!st || !an_child_reap(&st->child, true) || st->child.exit_code == 0)
        return 0; /* running, or a launcher that started the server and left (status 0) */
    return an_fail(err, AN_EIO, &st->loc,
                   "target.start: '%s' %s during the run: what answered its %s was something "
                   "else (another server took its port?), so the results are not its; its output "
                   "is in %s",
                   st->prog, an_child_status_str(&st->child, how, sizeof how), st->ready,
                   st->shown_log);
}

void an_start_down(struct an_started *st)
{
    if (!st)
        return;
    /* a server does not exit on its own: SIGTERM at once, SIGKILL after
     * the grace */
    an_child_close(&st->child, 0);
    free(st);
}
