/* A comply step's HTTP request, as the A2A, AG-UI and MCP-over-HTTP steps
 * send it (run/comply_int.h). */
#include <string.h>

#include "ananke/err.h"
#include "proto/http.h"
#include "run/comply_int.h"

struct an_kv *an_comply_http_req(struct an_http_req *req, const char *url, const char *method,
                                 const json_t *headers, const char *body)
{
    size_t nh = json_object_size(headers), k = 0;
    struct an_kv *kv = an_xcalloc(nh + 1, sizeof *kv);
    const char *name;
    json_t *val;
    json_object_foreach((json_t *)headers, name, val)
    {
        kv[k].name = name;
        kv[k++].value = json_string_value(val);
    }
    bool bodyless = !strcmp(method, "GET") || !strcmp(method, "DELETE");
    *req = (struct an_http_req)AN_HTTP_REQ_INIT;
    req->url = url;
    req->content_type = bodyless ? NULL : "application/json";
    req->headers = kv;
    req->nheaders = k;
    req->body = bodyless ? NULL : body;
    req->body_len = bodyless || !body ? 0 : strlen(body);
    return kv;
}

void an_comply_http_method(struct an_http_xfer *xf, const char *method)
{
    if (!strcmp(method, "GET"))
        curl_easy_setopt(xf->easy, CURLOPT_HTTPGET, 1L);
    else if (!strcmp(method, "DELETE")) { /* no body, so no Content-Type */
        curl_easy_setopt(xf->easy, CURLOPT_HTTPGET, 1L);
        curl_easy_setopt(xf->easy, CURLOPT_CUSTOMREQUEST, method);
    }
}
