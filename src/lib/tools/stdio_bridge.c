/* `ananke tool-proxy NAME` (docs/tools.md): MCP over stdio for agents that
 * spawn their servers, bridged to the run's Streamable HTTP proxy. Each
 * line read is POSTed as it is; a JSON answer is written back as one line,
 * an event-stream answer one line per event's data, a 202 nothing. */
#include <ctype.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "proto/http.h"
#include "proto/jsonrpc.h"
#include "tools/tools.h"

struct answer {
    struct an_buf body;
    bool sse;
};

static size_t on_body(char *p, size_t sz, size_t n, void *ud)
{
    struct answer *a = ud;
    return an_buf_append(&a->body, p, sz * n) ? 0 : sz * n;
}

static size_t on_header(char *p, size_t sz, size_t n, void *ud)
{
    struct answer *a = ud;
    size_t len = sz * n;
    static const char ct[] = "content-type:";
    char h[256];
    size_t hl = len < sizeof h - 1 ? len : sizeof h - 1;
    for (size_t i = 0; i < hl; i++)
        h[i] = (char)tolower((unsigned char)p[i]);
    h[hl] = '\0';
    if (!strncmp(h, ct, sizeof ct - 1) && strstr(h, "text/event-stream"))
        a->sse = true;
    return len;
}

/* The data lines of an event stream, one line each. */
static void write_sse(const char *s, size_t n)
{
    const char *end = s + n;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
        if (len >= 5 && !strncmp(s, "data:", 5)) {
            const char *d = s + 5;
            size_t dl = len - 5;
            if (dl && *d == ' ')
                d++, dl--;
            if (dl && d[dl - 1] == '\r')
                dl--;
            fwrite(d, 1, dl, stdout);
            fputc('\n', stdout);
        }
        s += len + 1;
    }
}

static int post_line(CURL *h, const char *url, const char *line, size_t len)
{
    struct answer a = {.sse = false};
    an_buf_init(&a.body, AN_RPC_MAX_FRAME);
    struct curl_slist *hd = curl_slist_append(NULL, "Content-Type: application/json");
    hd = curl_slist_append(hd, "Accept: application/json, text/event-stream");
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, line);
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hd);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &a);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &a);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    CURLcode cc = curl_easy_perform(h);
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(hd);
    if (cc != CURLE_OK) {
        fprintf(stderr, "ananke tool-proxy: %s: %s\n", url, curl_easy_strerror(cc));
        an_buf_release(&a.body);
        return -1;
    }
    if (a.sse) {
        write_sse(an_buf_cstr(&a.body), a.body.len);
    } else if (status != 202 && a.body.len) {
        fwrite(an_buf_cstr(&a.body), 1, a.body.len, stdout);
        fputc('\n', stdout);
    }
    fflush(stdout);
    an_buf_release(&a.body);
    return 0;
}

int an_tools_stdio_bridge(const char *url)
{
    struct an_err err = AN_ERR_INIT;
    if (an_http_global_init("ananke tool-proxy", &err)) {
        fprintf(stderr, "ananke tool-proxy: %s\n", err.msg);
        return 1;
    }
    CURL *h = curl_easy_init();
    if (!h)
        return 1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            n--;
        if (!n)
            continue;
        if ((size_t)n > AN_RPC_MAX_FRAME) {
            fprintf(stderr, "ananke tool-proxy: a line over the %zu-byte frame cap\n",
                    (size_t)AN_RPC_MAX_FRAME);
            rc = 1;
            break;
        }
        if (post_line(h, url, line, (size_t)n)) {
            rc = 1;
            break;
        }
    }
    free(line);
    curl_easy_cleanup(h);
    return rc;
}
