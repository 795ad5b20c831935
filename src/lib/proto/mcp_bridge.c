/* The MCP stdio <-> Streamable HTTP bridge (include/ananke/mcp_bridge.h):
 * lines in, POSTs out; what the server sends, lines out. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ananke/mcp_bridge.h"
#include "core/buf.h"
#include "core/json.h"
#include "proto/mcp_int.h"

#define MAX_FDS 64
#define READ_CHUNK 65536

struct bridge {
    struct mcp_http *h;
    int out;
    FILE *log;
    int64_t init_id; /* our initialize's id, -1 before */
    bool stream;     /* the GET stream was asked for */
    bool broken;     /* `out` is closed */
    char *gone;      /* a POST got no answer at all: why (the server is gone) */
};

static void put(struct bridge *b, const char *s, size_t n)
{
    while (n && !b->broken) {
        ssize_t w = write(b->out, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            b->broken = true;
            return;
        }
        s += w;
        n -= (size_t)w;
    }
}

/* The initialize answer's version goes back on every later request. */
static void note_version(struct bridge *b, const json_t *m)
{
    const json_t *id = json_object_get(m, "id");
    const char *v =
        json_string_value(json_object_get(json_object_get(m, "result"), "protocolVersion"));
    if (b->init_id >= 0 && json_is_integer(id) && json_integer_value(id) == b->init_id && v)
        mcp_http_set_version(b->h, v);
}

static void on_text(void *ud, const char *text, size_t len, int64_t unix_ms)
{
    (void)unix_ms;
    struct bridge *b = ud;
    json_t *m = json_loadb(text, len, JSON_DECODE_ANY, NULL);
    if (!m) { /* not JSON: passed on as one line, the reader judges it */
        char *line = an_xstrndup(text, len);
        for (char *p = line; *p; p++)
            if (*p == '\n' || *p == '\r')
                *p = ' ';
        put(b, line, strlen(line));
        put(b, "\n", 1);
        free(line);
        return;
    }
    note_version(b, m);
    char *s = an_json_dumps(m, JSON_COMPACT);
    put(b, s, strlen(s));
    put(b, "\n", 1);
    free(s);
    json_decref(m);
}

static void on_fail(void *ud, int64_t id, int code, int http_status, const char *why)
{
    struct bridge *b = ud;
    if (!code)
        return;
    if (id == MCP_HTTP_STREAM && http_status == 405)
        return; /* a server without its own stream: allowed */
    char what[48];
    if (id == MCP_HTTP_STREAM)
        snprintf(what, sizeof what, "the GET stream");
    else if (id >= 0)
        snprintf(what, sizeof what, "the POST of request %lld", (long long)id);
    else
        snprintf(what, sizeof what, "a POST");
    if (!http_status && id != MCP_HTTP_STREAM && !b->gone) {
        /* nothing answered: a client on stdio would see the server exit */
        size_t n = strlen(what) + strlen(why) + 16;
        b->gone = an_xmalloc(n);
        snprintf(b->gone, n, "%s got no answer: %s", what, why);
        return;
    }
    fprintf(b->log, "mcp-bridge: %s failed (HTTP %d): %s\n", what, http_status, why);
    fflush(b->log);
}

/* One line from the client: POSTed as written (a malformed one too). */
static int line_in(struct bridge *b, const char *s, size_t n, struct an_err *err)
{
    if (!n)
        return 0;
    int64_t id = -1;
    bool initialized = false;
    json_t *m = json_loadb(s, n, 0, NULL);
    const char *method = json_string_value(json_object_get(m, "method"));
    const json_t *jid = json_object_get(m, "id");
    if (method && json_is_integer(jid))
        id = json_integer_value(jid);
    if (method && !strcmp(method, "initialize") && id >= 0)
        b->init_id = id;
    initialized = method && !strcmp(method, "notifications/initialized");
    json_decref(m);
    int rc = mcp_http_post(b->h, s, n, id, err);
    if (!rc && initialized && !b->stream) {
        b->stream = true;
        rc = mcp_http_open_stream(b->h, err);
    }
    mcp_http_flush(b->h);
    return rc;
}

/* Whole lines of buf go out; the rest stays. */
static int lines(struct bridge *b, struct an_buf *buf, struct an_err *err)
{
    size_t start = 0;
    for (size_t i = 0; i < buf->len; i++) {
        if (buf->data[i] != '\n')
            continue;
        size_t n = i - start;
        if (n && buf->data[start + n - 1] == '\r')
            n--;
        int rc = line_in(b, buf->data + start, n, err);
        if (rc)
            return rc;
        start = i + 1;
    }
    memmove(buf->data, buf->data + start, buf->len - start);
    buf->len -= start;
    return 0;
}

int an_mcp_bridge(const char *url, int in, int out, FILE *log, struct an_err *err)
{
    struct bridge b = {.out = out, .log = log ? log : stderr, .init_id = -1};
    struct mcp_http_cbs cbs = {.ud = &b, .on_text = on_text, .on_fail = on_fail};
    int rc = mcp_http_new(&b.h, url, NULL, 0, 0, &cbs, err);
    if (rc)
        return rc;
    struct an_buf buf = AN_BUF_INIT;
    bool eof = false;
    char chunk[READ_CHUNK];
    while (!rc && !eof && !b.broken && !b.gone) {
        struct pollfd p[MAX_FDS + 1];
        p[0] = (struct pollfd){.fd = in, .events = POLLIN};
        size_t n = 1 + mcp_http_fds(b.h, p + 1, MAX_FDS);
        /* libcurl's own timers (connects, retries) are driven by polling
         * often while something is in flight */
        poll(p, (nfds_t)n, mcp_http_inflight(b.h) ? 20 : 500);
        if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t r = read(in, chunk, sizeof chunk);
            if (r > 0) {
                an_buf_append(&buf, chunk, (size_t)r);
                if (buf.len > AN_RPC_MAX_FRAME)
                    rc = an_fail(err, AN_ELIMIT, NULL, "a line over %zu bytes", AN_RPC_MAX_FRAME);
                else
                    rc = lines(&b, &buf, err);
            } else if (r == 0 || errno != EINTR) {
                eof = true;
            }
        }
        mcp_http_handle(b.h);
    }
    if (!rc && b.gone)
        rc = an_fail(err, AN_EIO, NULL, "%s: %s", url, b.gone);
    else if (!rc && b.broken)
        rc = an_fail(err, AN_EIO, NULL, "the output was closed");
    free(b.gone);
    an_buf_release(&buf);
    mcp_http_free(b.h); /* ends the session: DELETE */
    return rc;
}
