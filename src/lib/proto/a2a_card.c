/* Agent cards: which interface and protocol version to speak (a2a.h). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/json.h"
#include "proto/a2a.h"

const char *an_a2a_version_name(int v)
{
    return v == AN_A2A_V0_3 ? "0.3" : v == AN_A2A_V1_0 ? "1.0" : "auto";
}

/* "1.0", "1", "1.0.1" -> 1.0; "0.3", "0.3.0" -> 0.3; else AUTO (not spoken). */
static int version_of(const char *s)
{
    if (!s)
        return AN_A2A_AUTO;
    if (!strcmp(s, "1") || !strncmp(s, "1.", 2))
        return AN_A2A_V1_0;
    if (!strcmp(s, "0.3") || !strncmp(s, "0.3.", 4))
        return AN_A2A_V0_3;
    return AN_A2A_AUTO;
}

static bool is_jsonrpc(const char *binding)
{
    return binding && !strcasecmp(binding, "JSONRPC");
}

static bool is_rest(const char *binding)
{
    return binding && !strcasecmp(binding, "HTTP+JSON");
}

/* Does an interface of `binding` (the card's word) serve what was asked? */
static bool binding_ok(const char *binding, int want)
{
    return (want != AN_A2A_BIND_REST && is_jsonrpc(binding)) ||
           (want != AN_A2A_BIND_JSONRPC && is_rest(binding));
}

/* The first apiKey scheme whose key goes in a header: 1.0 writes
 * {"apiKeySecurityScheme": {location, name}}, 0.3 {type: apiKey, in, name}. */
static const char *api_key_header(const json_t *schemes)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)schemes, k, v)
    {
        const json_t *s = json_object_get(v, "apiKeySecurityScheme");
        const char *where = s ? an_json_str(s, "location") : NULL;
        if (!s) {
            const char *type = an_json_str(v, "type");
            if (!type || strcmp(type, "apiKey"))
                continue;
            s = v;
            where = an_json_str(v, "in");
        }
        const char *name = an_json_str(s, "name");
        if (name && *name && (!where || !strcasecmp(where, "header")))
            return name;
    }
    return NULL;
}

/* Interfaces of either card shape as a list of {url, version, tenant},
 * in the card's order of preference. */
struct iface {
    const char *url, *tenant, *version;
    bool rest;
};

static size_t list_ifaces(const json_t *card, int bind, struct iface *out, size_t max)
{
    size_t n = 0, i;
    json_t *it;
    json_array_foreach(json_object_get(card, "supportedInterfaces"), i, it)
    {
        const char *b = an_json_str(it, "protocolBinding");
        if (n < max && binding_ok(b, bind) && an_json_str(it, "url"))
            out[n++] = (struct iface){an_json_str(it, "url"), an_json_str(it, "tenant"),
                                      an_json_str(it, "protocolVersion"), is_rest(b)};
    }
    if (n)
        return n;
    /* 0.3: `url` speaks `preferredTransport` (JSONRPC when absent); other
     * transports are in additionalInterfaces */
    const char *ver = an_json_str(card, "protocolVersion");
    if (!ver)
        ver = "0.3";
    const char *pref = an_json_str(card, "preferredTransport");
    if (an_json_str(card, "url") && binding_ok(pref ? pref : "JSONRPC", bind) && n < max)
        out[n++] = (struct iface){an_json_str(card, "url"), NULL, ver, is_rest(pref)};
    json_array_foreach(json_object_get(card, "additionalInterfaces"), i, it)
    {
        const char *b = an_json_str(it, "transport");
        if (n < max && binding_ok(b, bind) && an_json_str(it, "url"))
            out[n++] = (struct iface){an_json_str(it, "url"), NULL, ver, is_rest(b)};
    }
    return n;
}

int an_a2a_card_read(const json_t *card, int want, struct an_a2a_card *out, struct an_err *err)
{
    return an_a2a_card_read_binding(card, want, AN_A2A_BIND_JSONRPC, out, err);
}

int an_a2a_card_read_binding(const json_t *card, int want, int bind, struct an_a2a_card *out,
                             struct an_err *err)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(card))
        return an_fail(err, AN_EPROTO, NULL, "the agent card is not a JSON object");
    const char *name = an_json_str(card, "name");
    if (!name)
        return an_fail(err, AN_EPROTO, NULL, "the agent card has no 'name'");
    struct iface ifs[32];
    size_t n = list_ifaces(card, bind, ifs, 32);
    const struct iface *pick = NULL;
    int ver = AN_A2A_AUTO;
    for (size_t i = 0; i < n && !pick; i++) {
        int v = version_of(ifs[i].version);
        if (v != AN_A2A_AUTO && (want == AN_A2A_AUTO || want == v)) {
            pick = &ifs[i];
            ver = v;
        }
    }
    const char *bname = bind == AN_A2A_BIND_JSONRPC ? "JSON-RPC"
                        : bind == AN_A2A_BIND_REST  ? "HTTP+JSON"
                                                    : "JSON-RPC or HTTP+JSON";
    if (!pick) {
        struct an_buf seen = AN_BUF_INIT;
        for (size_t i = 0; i < n; i++)
            an_buf_printf(&seen, "%s%s", i ? ", " : "", ifs[i].version ? ifs[i].version : "?");
        if (want != AN_A2A_AUTO)
            an_fail(err, AN_EPROTO, NULL,
                    "agent card '%s' offers no %s interface of A2A %s (%s versions "
                    "offered: %s)",
                    name, bname, an_a2a_version_name(want), bname, n ? an_buf_cstr(&seen) : "none");
        else
            an_fail(err, AN_EPROTO, NULL,
                    "agent card '%s' offers no %s interface of A2A 1.0 or 0.3 (%s "
                    "versions offered: %s)",
                    name, bname, bname, n ? an_buf_cstr(&seen) : "none");
        an_buf_release(&seen);
        return AN_EPROTO;
    }
    if (strncmp(pick->url, "http://", 7) && strncmp(pick->url, "https://", 8))
        return an_fail(err, AN_EPROTO, NULL,
                       "agent card '%s': interface URL '%.200s' is not http:// or https://", name,
                       pick->url);
    out->name = an_xstrdup(name);
    out->url = an_xstrdup(pick->url);
    out->tenant = pick->tenant && *pick->tenant ? an_xstrdup(pick->tenant) : NULL;
    out->version = ver;
    out->rest = pick->rest;
    out->streaming =
        json_is_true(json_object_get(json_object_get(card, "capabilities"), "streaming"));
    const char *h = api_key_header(json_object_get(card, "securitySchemes"));
    out->api_key_header = h ? an_xstrdup(h) : NULL;
    return AN_OK;
}

void an_a2a_card_release(struct an_a2a_card *c)
{
    free(c->name);
    free(c->url);
    free(c->tenant);
    free(c->api_key_header);
    memset(c, 0, sizeof *c);
}

char *an_a2a_card_url_for(const char *endpoint)
{
    const char *p = strstr(endpoint, "://");
    p = p ? p + 3 : endpoint;
    size_t host = strcspn(p, "/?#");
    struct an_buf b = AN_BUF_INIT;
    an_buf_append(&b, endpoint, (size_t)(p - endpoint) + host);
    an_buf_puts(&b, "/.well-known/agent-card.json");
    return an_buf_detach(&b, NULL);
}

/* ---- states ---- */
