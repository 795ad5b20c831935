/*
 * The MCP Streamable HTTP response reader (proto/mcp_http.c) and the
 * connection that reads its messages (proto/mcp_conn.c), without a
 * network: both files are compiled into this target, so the reader's own
 * static functions run (on_data: the Content-Type decides between the SSE
 * framer and one JSON body, each under the message cap; the SSE events;
 * post_done at the end of the body), and every message goes through the
 * connection as a run's would (batches, responses matched by id, the
 * server's requests answered, the initialize answer checked). Answers are
 * only queued as POSTs: no transfer is ever started.
 *
 * Byte 0: the Content-Type (low 3 bits: SSE, JSON, JSON with parameters,
 * SSE in capitals, none), with 0x08 initialize sent first (the body may
 * then complete the handshake), with 0x10 a 64-byte message cap, and the
 * read size from the top bits (1, 7, 64 bytes, or everything at once).
 * The rest is the body of the answer to a tools/call (id 1).
 */
#include "proto/mcp_http.c" /* NOLINT(bugprone-suspicious-include) */
#include "proto/mcp_conn.c" /* NOLINT(bugprone-suspicious-include) */

#include "fuzz.h"

static void fz_on_response(void *ud, const struct an_rpc_msg *m)
{
    (void)ud;
    char *s = an_json_compact(m->json ? m->json : m->result);
    free(s);
}

static void fz_on_ready(void *ud)
{
    (void)ud;
}

static void fz_on_broken(void *ud, int code, const char *why)
{
    (void)ud;
    if (!code || !why[0])
        abort(); /* a broken connection always says why */
}

static void fz_on_frame(void *ud, enum an_rpc_dir dir, const char *line, size_t len, int64_t ms)
{
    (void)ud;
    (void)dir;
    (void)ms;
    if (len && !line)
        abort();
}

static void fz_on_warning(void *ud, const char *what)
{
    (void)ud;
    (void)what;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const types[] = {"text/event-stream", "application/json",
                                        "application/json; charset=utf-8",
                                        "TEXT/EVENT-STREAM; charset=utf-8", ""};
    static const size_t steps[] = {1, 7, 64, 0};
    int m = fz_mode(&data, &size);
    if (m < 0)
        return 0;
    unsigned mode = (unsigned)m;
    const char *roots[] = {"file:///tmp/fuzz-root", NULL};
    struct an_mcp_opts o = {.http = true,
                            .endpoint = "http://127.0.0.1:9/mcp",
                            .roots = roots,
                            .timeout_ms = 1000,
                            .max_frame_bytes = (mode & 0x10) ? 64 : 0};
    struct mcp_conn_cbs cbs = {.on_response = fz_on_response,
                               .on_ready = fz_on_ready,
                               .on_broken = fz_on_broken,
                               .on_frame = fz_on_frame,
                               .on_warning = fz_on_warning};
    struct mcp_conn *c = NULL;
    struct an_err err = AN_ERR_INIT;
    if (mcp_conn_new(&c, &o, &cbs, &err))
        abort();
    if ((mode & 0x08) && mcp_conn_start(c, &err))
        abort();
    int64_t id = 1;
    json_t *params = json_pack("{s:s,s:{}}", "name", "echo", "arguments");
    if (mcp_conn_request(c, "tools/call", params, &id, &err))
        abort();
    json_decref(params);

    /* the answer to the last POST queued, as libcurl would hand it over */
    struct mcp_http *h = c->http;
    struct post *p = h->posts[h->nposts - 1];
    unsigned t = mode & 7;
    snprintf(p->resp.content_type, sizeof p->resp.content_type, "%s",
             types[t < sizeof types / sizeof *types ? t : 0]);
    p->resp.status = 200;
    size_t step = steps[(mode >> 6) & 3] ? steps[(mode >> 6) & 3] : size + 1;
    int rc = 0;
    for (size_t off = 0; off < size && !rc; off += step) {
        size_t n = size - off < step ? size - off : step;
        char *chunk = malloc(n); /* a copy per read: ASan sees reads past it */
        memcpy(chunk, data + off, n);
        rc = on_data(p, chunk, n);
        free(chunk);
    }
    CURLcode cc = CURLE_OK;
    if (rc) {
        p->x.stop_rc = rc;
        cc = CURLE_WRITE_ERROR;
    }
    /* what mcp_http_handle does with a finished transfer (answers to the
     * server's requests may have been queued behind it meanwhile) */
    for (size_t i = 0; i < h->nposts; i++)
        if (h->posts[i] == p) {
            memmove(&h->posts[i], &h->posts[i + 1], (h->nposts - i - 1) * sizeof *h->posts);
            h->nposts--;
            break;
        }
    post_done(h, p, cc);
    post_free(p);
    mcp_conn_free(c);
    return 0;
}
