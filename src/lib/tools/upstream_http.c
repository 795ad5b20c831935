/* A tool server's upstream over Streamable HTTP (docs/tools.md): each
 * message POSTed to the endpoint; the answer read from a JSON body or from
 * the event stream the POST opens (the event whose id is the request's).
 * The session id and protocol version the server gives at initialize are
 * sent on every later request. One request at a time (the caller's lock). */
#include <ctype.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "proto/jsonrpc.h"
#include "tools/upstream_http.h"

struct an_http_upstream {
    CURL *h;
    char *endpoint;
    char **headers; /* "Name: value" */
    size_t nheaders;
    char *session_id;
    char *version;
};

struct reply {
    struct an_buf body;
    bool sse;
    char *session_id;
};

static size_t on_body(char *p, size_t sz, size_t n, void *ud)
{
    struct reply *r = ud;
    return an_buf_append(&r->body, p, sz * n) ? 0 : sz * n;
}

static size_t on_header(char *p, size_t sz, size_t n, void *ud)
{
    struct reply *r = ud;
    size_t len = sz * n;
    char h[512];
    size_t hl = len < sizeof h - 1 ? len : sizeof h - 1;
    for (size_t i = 0; i < hl; i++)
        h[i] = (char)tolower((unsigned char)p[i]);
    h[hl] = '\0';
    if (!strncmp(h, "content-type:", 13) && strstr(h, "text/event-stream"))
        r->sse = true;
    if (!strncmp(h, "mcp-session-id:", 15)) {
        const char *v = p + 15;
        size_t vl = hl - 15;
        while (vl && (*v == ' ' || *v == '\t'))
            v++, vl--;
        while (vl && (v[vl - 1] == '\r' || v[vl - 1] == '\n' || v[vl - 1] == ' '))
            vl--;
        free(r->session_id);
        r->session_id = an_xstrndup(v, vl);
    }
    return len;
}

struct an_http_upstream *an_http_upstream_new(const char *endpoint, char **headers, size_t nheaders)
{
    struct an_http_upstream *u = an_xcalloc(1, sizeof *u);
    u->h = curl_easy_init();
    u->endpoint = an_xstrdup(endpoint);
    u->headers = headers;
    u->nheaders = nheaders;
    return u;
}

void an_http_upstream_free(struct an_http_upstream *u)
{
    if (!u)
        return;
    curl_easy_cleanup(u->h);
    for (size_t i = 0; i < u->nheaders; i++)
        free(u->headers[i]);
    free(u->headers);
    free(u->endpoint);
    free(u->session_id);
    free(u->version);
    free(u);
}

/* The message of the stream whose id is `id`, or NULL. */
static json_t *from_sse(const char *s, size_t n, const json_t *id)
{
    struct an_buf data = AN_BUF_INIT;
    json_t *found = NULL;
    const char *end = s + n;
    while (s <= end && !found) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
        if (len && s[len - 1] == '\r')
            len--;
        if (len == 0 || !nl) {
            if (data.len) {
                json_t *m = json_loadb(an_buf_cstr(&data), data.len, 0, NULL);
                if (m && json_equal(json_object_get(m, "id"), id) && !json_object_get(m, "method"))
                    found = m;
                else
                    json_decref(m);
                an_buf_reset(&data);
            }
        } else if (len >= 5 && !strncmp(s, "data:", 5)) {
            const char *d = s + 5;
            size_t dl = len - 5;
            if (dl && *d == ' ')
                d++, dl--;
            if (data.len)
                an_buf_putc(&data, '\n');
            an_buf_append(&data, d, dl);
        }
        if (!nl)
            break;
        s = nl + 1;
    }
    an_buf_release(&data);
    return found;
}

json_t *an_http_upstream_send(struct an_http_upstream *u, const json_t *msg, const json_t *id,
                              int64_t timeout_ms, size_t max_body, char *why, size_t cap)
{
    char *body = an_json_compact(msg);
    struct reply r = {.sse = false};
    an_buf_init(&r.body, max_body);
    struct curl_slist *hd = curl_slist_append(NULL, "Content-Type: application/json");
    hd = curl_slist_append(hd, "Accept: application/json, text/event-stream");
    char line[1024];
    if (u->session_id) {
        snprintf(line, sizeof line, "Mcp-Session-Id: %s", u->session_id);
        hd = curl_slist_append(hd, line);
    }
    if (u->version) {
        snprintf(line, sizeof line, "MCP-Protocol-Version: %s", u->version);
        hd = curl_slist_append(hd, line);
    }
    for (size_t i = 0; i < u->nheaders; i++)
        hd = curl_slist_append(hd, u->headers[i]);
    curl_easy_reset(u->h);
    curl_easy_setopt(u->h, CURLOPT_URL, u->endpoint);
    curl_easy_setopt(u->h, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(u->h, CURLOPT_HTTPHEADER, hd);
    curl_easy_setopt(u->h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(u->h, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(u->h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(u->h, CURLOPT_HEADERDATA, &r);
    curl_easy_setopt(u->h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(u->h, CURLOPT_TIMEOUT_MS, (long)timeout_ms);
    CURLcode cc = curl_easy_perform(u->h);
    long status = 0;
    curl_easy_getinfo(u->h, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(hd);
    free(body);
    json_t *answer = NULL;
    if (cc == CURLE_WRITE_ERROR)
        snprintf(why, cap,
                 "upstream %s: the answer crossed the %zu-byte cap (tool_servers "
                 "max_body_bytes)",
                 u->endpoint, max_body);
    else if (cc == CURLE_OPERATION_TIMEDOUT)
        snprintf(why, cap, "upstream %s: no answer in %lld ms (tool_servers timeout_ms)",
                 u->endpoint, (long long)timeout_ms);
    else if (cc != CURLE_OK)
        snprintf(why, cap, "upstream %s: %s", u->endpoint, curl_easy_strerror(cc));
    else if (id && (status < 200 || status >= 300))
        snprintf(why, cap, "upstream %s: HTTP %ld", u->endpoint, status);
    else if (id && r.sse && !(answer = from_sse(an_buf_cstr(&r.body), r.body.len, id)))
        snprintf(why, cap, "upstream %s: the event stream carried no answer", u->endpoint);
    else if (id && !r.sse && !(answer = json_loadb(an_buf_cstr(&r.body), r.body.len, 0, NULL)))
        snprintf(why, cap, "upstream %s: the answer is not JSON", u->endpoint);
    if (r.session_id) {
        free(u->session_id);
        u->session_id = r.session_id;
    }
    const char *v =
        json_string_value(json_object_get(json_object_get(answer, "result"), "protocolVersion"));
    const char *method = json_string_value(json_object_get(msg, "method"));
    if (v && method && !strcmp(method, "initialize")) {
        free(u->version);
        u->version = an_xstrdup(v);
    }
    an_buf_release(&r.body);
    return answer;
}
