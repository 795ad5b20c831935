/* `ananke view`'s HTTP server (include/ananke/view.h): libmicrohttpd with
 * one internal thread (so the read-only database handle is used by one
 * thread only), bound to a loopback address, answering GET and HEAD. A
 * request whose Host header is not ADDR:PORT or localhost:PORT is refused
 * (DNS rebinding: a page of another site that resolves its own name to
 * 127.0.0.1 sends its own name as Host). */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "ananke/view.h"
#include "core/lazy.h"
#include "view/view_int.h"

struct an_view {
    struct MHD_Daemon *d;
    struct an_history h;
    struct view_caps caps;
    unsigned port;
    char addr[INET_ADDRSTRLEN];
    char host_ip[INET_ADDRSTRLEN + 8], host_name[24]; /* the Host values accepted */
};

/* No script, no external anything: the style sheet from this server, forms
 * that submit to it, inline SVG (markup, not a resource). */
static const char csp[] = "default-src 'none'; style-src 'self'; img-src 'self'; "
                          "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/* cut: the list answered was cut at view.max_rows (an array of JSON has no
 * room to say so: a header does) */
static enum MHD_Result reply_cut(struct MHD_Connection *c, unsigned status, const char *type,
                                 struct an_buf *b, bool cut)
{
    size_t len = 0;
    char *data = an_buf_detach(b, &len);
    struct MHD_Response *r = MHD_create_response_from_buffer(
        len, data ? data : "", data ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Content-Security-Policy", csp);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "X-Frame-Options", "DENY");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Cross-Origin-Resource-Policy", "same-origin");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, "Allow", "GET, HEAD");
    if (cut)
        MHD_add_response_header(r, "X-Ananke-Truncated", VIEW_ROWS_KEY);
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *type,
                             struct an_buf *b)
{
    return reply_cut(c, status, type, b, false);
}

static enum MHD_Result fail(struct MHD_Connection *c, bool api, unsigned status, const char *msg)
{
    struct an_buf b;
    an_buf_init(&b, VIEW_ERROR_PAGE_MAX);
    if (api) {
        json_t *j = json_pack("{s:s, s:i}", "error", msg, "status", (int)status);
        char *s = json_dumps(j, JSON_ENSURE_ASCII);
        an_buf_puts(&b, s ? s : "{}");
        free(s);
        json_decref(j);
        return reply(c, status, "application/json", &b);
    }
    view_html_error(&b, status, msg);
    return reply(c, status, "text/html; charset=utf-8", &b);
}

/* A run id: 1 to 15 digits up to the next '/' or the end. */
static bool take_id(const char **p, int64_t *id)
{
    size_t n = strspn(*p, "0123456789");
    if (n == 0 || n > 15 || ((*p)[n] && (*p)[n] != '/'))
        return false;
    *id = strtoll(*p, NULL, 10);
    *p += n;
    return *id > 0;
}

static bool is_test_id(const char *s)
{
    return strlen(s) == 16 && strspn(s, "0123456789abcdef") == 16;
}

/* A GET argument, "" when absent; false when it is longer than the cap. */
static bool arg(struct MHD_Connection *c, const char *name, const char **out)
{
    const char *v = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, name);
    *out = v ? v : "";
    return strlen(*out) <= VIEW_QUERY_MAX;
}

/* The answer to a route: doc (owned) as JSON when api, else as HTML by
 * render. NULL doc: missing (404 `what`) or a database error. */
struct view_answer {
    json_t *doc;
    bool missing, cut;
    const char *what;
    void (*render)(struct an_buf *, const json_t *, const void *);
    const void *extra;
};

static enum MHD_Result answer_of(const struct an_view *v, struct MHD_Connection *c, bool api,
                                 const struct view_answer *a, const struct an_err *err)
{
    json_t *doc = a->doc;
    if (!doc)
        return a->missing ? fail(c, api, MHD_HTTP_NOT_FOUND, a->what)
                          : fail(c, api, MHD_HTTP_INTERNAL_SERVER_ERROR, err->msg);
    /* built whole (the rows and the texts in them are capped already),
     * then measured: a buffer cut at the cap would not say it was */
    struct an_buf b = AN_BUF_INIT;
    if (api) {
        char *s = json_dumps(doc, JSON_ENSURE_ASCII | JSON_INDENT(1));
        an_buf_puts(&b, s ? s : "null");
        free(s);
    } else {
        a->render(&b, doc, a->extra);
    }
    json_decref(doc);
    if (b.len > v->caps.max_page_bytes) {
        an_buf_release(&b);
        char msg[160];
        snprintf(msg, sizeof msg,
                 "the answer is larger than view.max_page_bytes (%zu bytes; the config's view: "
                 "block raises it)",
                 v->caps.max_page_bytes);
        return fail(c, api, MHD_HTTP_INTERNAL_SERVER_ERROR, msg);
    }
    return reply_cut(c, MHD_HTTP_OK, api ? "application/json" : "text/html; charset=utf-8", &b,
                     api && a->cut);
}

static enum MHD_Result answer(const struct an_view *v, struct MHD_Connection *c, bool api,
                              json_t *doc, bool missing, const char *what, const struct an_err *err,
                              void (*render)(struct an_buf *, const json_t *, const void *),
                              const void *extra)
{
    struct view_answer a = {doc, missing, false, what, render, extra};
    return answer_of(v, c, api, &a, err);
}

static void r_runs(struct an_buf *b, const json_t *d, const void *x)
{
    view_html_runs(b, d, x);
}
static void r_run(struct an_buf *b, const json_t *d, const void *x)
{
    view_html_run(b, d, x);
}
static void r_test(struct an_buf *b, const json_t *d, const void *x)
{
    (void)x;
    view_html_test(b, d);
}
static void r_cmp(struct an_buf *b, const json_t *d, const void *x)
{
    (void)x;
    view_html_compare(b, d);
}
static void r_flaky(struct an_buf *b, const json_t *d, const void *x)
{
    view_html_flaky(b, d, *(const bool *)x);
}

static enum MHD_Result route_runs(struct an_view *v, struct MHD_Connection *c, bool api,
                                  const char *p)
{
    int64_t id = 0;
    bool missing = false;
    struct an_err err = AN_ERR_INIT;
    const char *q;
    char what[96];
    if (!take_id(&p, &id))
        return fail(c, api, MHD_HTTP_NOT_FOUND, "no such page");
    snprintf(what, sizeof what, "no run #%lld in the history", (long long)id);
    if (!*p) {
        if (!arg(c, "q", &q))
            return fail(c, api, MHD_HTTP_BAD_REQUEST, "the search is longer than its cap");
        json_t *doc = view_run(&v->h, &v->caps, id, q, &missing, &err);
        return answer(v, c, api, doc, missing, what, &err, r_run, q);
    }
    if (strncmp(p, "/tests/", 7) || !is_test_id(p + 7))
        return fail(c, api, MHD_HTTP_NOT_FOUND, "no such page");
    json_t *doc = view_test(&v->h, &v->caps, id, p + 7, &missing, &err);
    if (!doc && missing && view_run_exists(&v->h, id))
        snprintf(what, sizeof what, "no test %s in run #%lld", p + 7, (long long)id);
    return answer(v, c, api, doc, missing, what, &err, r_test, NULL);
}

static enum MHD_Result route(struct an_view *v, struct MHD_Connection *c, const char *url)
{
    bool api = !strncmp(url, "/api/", 5) || !strcmp(url, "/api");
    const char *p = api ? url + 4 : url;
    bool missing = false;
    struct an_err err = AN_ERR_INIT;
    if (!api && !strcmp(p, "/style.css")) {
        struct an_buf b = AN_BUF_INIT;
        an_buf_puts(&b, view_style);
        return reply(c, MHD_HTTP_OK, "text/css; charset=utf-8", &b);
    }
    if (!api && (!strcmp(p, "/favicon.svg") || !strcmp(p, "/favicon.ico"))) {
        /* the tab's icon, from here (a browser asks for one; a 404 is a
         * console error) */
        struct an_buf b = AN_BUF_INIT;
        an_buf_puts(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\">"
                        "<rect width=\"16\" height=\"16\" rx=\"3\" fill=\"#1a7f37\"/></svg>");
        return reply(c, MHD_HTTP_OK, "image/svg+xml", &b);
    }
    if (!strcmp(p, "/") || (api && (!*p || !strcmp(p, "/runs")))) {
        struct view_filter f = {.limit = v->caps.max_rows};
        if (!arg(c, "kind", &f.kind) || !arg(c, "branch", &f.branch) ||
            !arg(c, "status", &f.status) || !arg(c, "q", &f.q))
            return fail(c, api, MHD_HTTP_BAD_REQUEST, "a filter is longer than its cap");
        json_t *doc = view_runs(&v->h, &f, &err);
        f.cut = view_cut(doc, f.limit);
        struct view_answer a = {doc, false, f.cut, "", r_runs, &f};
        return answer_of(v, c, api, &a, &err);
    }
    if (!strcmp(p, "/flaky")) {
        json_t *doc = an_history_flaky(&v->h, v->caps.max_rows + 1, 20, &err);
        bool cut = view_cut(doc, v->caps.max_rows);
        struct view_answer a = {doc, false, cut, "", r_flaky, &cut};
        return answer_of(v, c, api, &a, &err);
    }
    if (!strncmp(p, "/runs/", 6))
        return route_runs(v, c, api, p + 6);
    if (!strncmp(p, "/compare/", 9)) {
        int64_t a = 0, b = 0;
        p += 9;
        if (!take_id(&p, &a) || *p != '/' || (p++, !take_id(&p, &b)) || *p)
            return fail(c, api, MHD_HTTP_NOT_FOUND, "no such page");
        char what[96];
        snprintf(what, sizeof what, "no run #%lld or #%lld in the history", (long long)a,
                 (long long)b);
        json_t *doc = view_compare(&v->h, &v->caps, a, b, &missing, &err);
        return answer(v, c, api, doc, missing, what, &err, r_cmp, NULL);
    }
    return fail(c, api, MHD_HTTP_NOT_FOUND, "no such page");
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **state)
{
    struct an_view *v = cls;
    (void)version;
    (void)upload;
    (void)state;
    bool api = url && !strncmp(url, "/api", 4);
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    if (!host || (strcmp(host, v->host_ip) && strcasecmp(host, v->host_name)))
        return fail(c, api, MHD_HTTP_MISDIRECTED_REQUEST,
                    "this server answers only requests for its own address (Host header)");
    if (strcmp(method, "GET") && strcmp(method, "HEAD"))
        return fail(c, api, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD");
    if (*upload_size || MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length") ||
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Transfer-Encoding"))
        return fail(c, api, MHD_HTTP_CONTENT_TOO_LARGE, "a request has no body here");
    if (!url || strlen(url) > VIEW_URL_MAX)
        return fail(c, api, MHD_HTTP_URI_TOO_LONG, "the address is longer than its cap");
    return route(v, c, url);
}

/* addr as a loopback IPv4 address in *sa; false when it is not one. */
static bool loopback(const char *addr, struct sockaddr_in *sa)
{
    memset(sa, 0, sizeof *sa);
    sa->sin_family = AF_INET;
    if (!strcasecmp(addr, "localhost"))
        addr = "127.0.0.1";
    return inet_pton(AF_INET, addr, &sa->sin_addr) == 1 &&
           (ntohl(sa->sin_addr.s_addr) >> 24) == 127;
}

/* The database, read-only: never created, never migrated, never written. */
static int open_ro(struct an_history *h, const char *path, struct an_err *err)
{
    struct stat sb;
    h->path = an_xstrdup(path);
    if (stat(path, &sb))
        return an_fail(err, errno == ENOENT ? AN_ENOTFOUND : AN_EIO, NULL, "'%s': %s", path,
                       errno == ENOENT ? "no history yet (no run has been recorded)"
                                       : strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return an_fail(err, AN_EIO, NULL, "'%s': not a regular file", path);
    /* SQLite opens the -wal and -shm companions by name (a reader of a WAL
     * database makes them when they are absent): never through a link */
    static const char *const companions[] = {"-wal", "-shm", "-journal"};
    for (size_t i = 0; i < sizeof companions / sizeof *companions; i++) {
        char name[4096];
        snprintf(name, sizeof name, "%s%s", path, companions[i]);
        if (!lstat(name, &sb) && !S_ISREG(sb.st_mode))
            return an_fail(err, AN_EIO, NULL,
                           "'%s': a companion file (-wal, -shm, -journal) is a link or not a "
                           "regular file",
                           path);
    }
    an_hist_sqlite_setup();
    if (sqlite3_open_v2(path, &h->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) !=
            SQLITE_OK ||
        sqlite3_exec(h->db, "PRAGMA query_only=1", NULL, NULL, NULL) != SQLITE_OK)
        return an_hist_fail(h, "cannot open it", err);
    sqlite3_busy_timeout(h->db, AN_HIST_BUSY_MS);
    int ver = an_hist_version(h->db);
    if (ver < 0 || sqlite3_exec(h->db, "SELECT count(*) FROM runs", NULL, NULL, NULL) != SQLITE_OK)
        return an_hist_fail(h, "cannot read it", err);
    if (ver != AN_HISTORY_SCHEMA_VERSION)
        return an_fail(err, AN_EIO, NULL,
                       "'%s': schema version %d, this ananke reads %d (a run of this ananke "
                       "updates an older one)",
                       path, ver, AN_HISTORY_SCHEMA_VERSION);
    return 0;
}

/* The caps asked for, 0 meaning the default; each clamped where a larger
 * value means nothing more (and 20 x max_rows stays an int64). */
static unsigned cap_u(int64_t v, unsigned def, unsigned max)
{
    return v <= 0 ? def : v > (int64_t)max ? max : (unsigned)v;
}

static void caps_of(const struct an_view_opts *o, struct view_caps *c)
{
    c->max_rows = cap_u(o->max_rows, AN_VIEW_MAX_ROWS_DEFAULT, 1u << 24);
    c->max_page_bytes = o->max_page_bytes > 0 ? (size_t)o->max_page_bytes
                                              : AN_VIEW_MAX_PAGE_BYTES_DEFAULT;
    c->max_results_bytes = o->max_results_bytes > 0 ? (size_t)o->max_results_bytes
                                                    : AN_VIEW_MAX_RESULTS_BYTES_DEFAULT;
    c->max_connections = cap_u(o->max_connections, AN_VIEW_MAX_CONNECTIONS_DEFAULT, 1u << 16);
    /* MHD counts whole seconds: 1 ms is 1 s */
    int64_t ms = o->idle_timeout_ms > 0 ? o->idle_timeout_ms : AN_VIEW_IDLE_TIMEOUT_MS_DEFAULT;
    if (ms > ((int64_t)1 << 40))
        ms = (int64_t)1 << 40;
    c->idle_timeout_s = cap_u((ms + 999) / 1000, 15, 1u << 20);
}

int an_view_start(struct an_view **out, const struct an_view_opts *o, struct an_err *err)
{
    *out = NULL;
    struct sockaddr_in sa;
    const char *bind = o->bind ? o->bind : AN_VIEW_BIND_DEFAULT;
    if (!loopback(bind, &sa))
        return an_fail(err, AN_EUSAGE, NULL,
                       "'%s' is not a loopback address: ananke view listens on 127.0.0.1 (or "
                       "another 127.x.x.x) only",
                       bind);
    if (o->port > 65535)
        return an_fail(err, AN_EUSAGE, NULL, "port %u is not a port (0 to 65535)", o->port);
    sa.sin_port = htons((uint16_t)o->port);
    int rc = an_lazy_mhd("ananke view", err);
    if (rc)
        return rc;
    struct an_view *v = an_xcalloc(1, sizeof *v);
    caps_of(o, &v->caps);
    rc = open_ro(&v->h, o->db_path, err);
    if (rc) {
        an_view_stop(v);
        return rc;
    }
    v->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL,
                            handle, v, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)VIEW_CONN_MEMORY,
                            MHD_OPTION_CONNECTION_LIMIT, v->caps.max_connections,
                            MHD_OPTION_CONNECTION_TIMEOUT, v->caps.idle_timeout_s, MHD_OPTION_END);
    const union MHD_DaemonInfo *di = v->d ? MHD_get_daemon_info(v->d, MHD_DAEMON_INFO_LISTEN_FD)
                                          : NULL;
    struct sockaddr_in bound;
    socklen_t blen = sizeof bound;
    if (!di || getsockname(di->listen_fd, (struct sockaddr *)&bound, &blen)) {
        an_view_stop(v);
        return an_fail(err, AN_EIO, NULL, "cannot listen on %s:%u (is the port in use?)", bind,
                       o->port);
    }
    v->port = ntohs(bound.sin_port);
    inet_ntop(AF_INET, &sa.sin_addr, v->addr, sizeof v->addr);
    snprintf(v->host_ip, sizeof v->host_ip, "%s:%u", v->addr, v->port);
    snprintf(v->host_name, sizeof v->host_name, "localhost:%u", v->port);
    *out = v;
    return 0;
}

unsigned an_view_port(const struct an_view *v)
{
    return v->port;
}

const char *an_view_addr(const struct an_view *v)
{
    return v->addr;
}

void an_view_stop(struct an_view *v)
{
    if (!v)
        return;
    if (v->d)
        MHD_stop_daemon(v->d);
    sqlite3_close_v2(v->h.db);
    free(v->h.path);
    free(v);
}
