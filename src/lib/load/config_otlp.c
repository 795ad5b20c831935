/* `otlp:` of the config (docs/otel.md): where each test goes as an
 * OpenTelemetry trace, and how. */
#include <string.h>

#include "core/interp.h"
#include "load/config_int.h"
#include "load/schema.h"

/* W3C Trace Context: list members "key=value" split by commas, printable
 * ASCII, at most 512 characters (and never a line break: it is a header). */
static bool tracestate_ok(const char *s)
{
    size_t n = strlen(s);
    if (!n || n > 512)
        return false;
    bool eq = false;
    for (const char *c = s;; c++) {
        if (!*c || *c == ',') {
            if (!eq)
                return false;
            if (!*c)
                return true;
            eq = false;
        } else if (*c == '=') {
            eq = true;
        } else if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e) {
            return false;
        }
    }
}

static int load_headers(struct an_ld *ld, const struct an_ynode *hd, struct an_otlp_config *o)
{
    int rc;
    if ((rc = an_ld_expect(ld, hd, AN_Y_MAP, "otlp.headers")))
        return rc;
    size_t n = hd->npairs ? hd->npairs : 1;
    o->nheaders = hd->npairs;
    o->header_names = an_arena_alloc(ld->a, n * sizeof(char *));
    o->header_values = an_arena_alloc(ld->a, n * sizeof(char *));
    o->header_locs = an_arena_alloc(ld->a, n * sizeof *o->header_locs);
    for (size_t i = 0; i < hd->npairs; i++) {
        const char *k = hd->pairs[i].key->str;
        if (!*k || strpbrk(k, ": \t\r\n"))
            return an_fail(ld->err, AN_ESCHEMA, &hd->pairs[i].key->loc, "invalid header name '%s'",
                           k);
        o->header_names[i] = k;
        o->header_locs[i] = hd->pairs[i].value->loc;
        if ((rc = an_ld_string(ld, hd->pairs[i].value, k, &o->header_values[i])) ||
            (rc = an_interp_check(o->header_values[i], &hd->pairs[i].value->loc, ld->err)))
            return rc;
        if (strpbrk(o->header_values[i], "\r\n"))
            return an_fail(ld->err, AN_ESCHEMA, &hd->pairs[i].value->loc,
                           "header '%s' holds a line break", k);
    }
    return 0;
}

static int load_strings(struct an_ld *ld, const struct an_ynode *n, struct an_otlp_config *o)
{
    struct an_ynode *v;
    int rc;
    if ((v = an_yaml_get(n, "endpoint"))) {
        o->endpoint_loc = v->loc;
        if ((rc = an_ld_string(ld, v, "endpoint", &o->endpoint)) ||
            (rc = an_interp_check(o->endpoint, &v->loc, ld->err)))
            return rc;
        if (!an_interp_has_refs(o->endpoint) && strncmp(o->endpoint, "http://", 7) != 0 &&
            strncmp(o->endpoint, "https://", 8) != 0)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "'endpoint' must be an http:// or https:// URL, not '%s'", o->endpoint);
    }
    if ((v = an_yaml_get(n, "protocol"))) {
        if ((rc = an_ld_string(ld, v, "protocol", &o->protocol)))
            return rc;
        if (strcmp(o->protocol, "http/protobuf") != 0 && strcmp(o->protocol, "http/json") != 0)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "'protocol' must be 'http/protobuf' or 'http/json', not '%s'",
                           o->protocol);
    }
    if ((v = an_yaml_get(n, "tracestate"))) {
        if ((rc = an_ld_string(ld, v, "tracestate", &o->tracestate)))
            return rc;
        if (!tracestate_ok(o->tracestate))
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "'tracestate' must be W3C list members 'key=value' joined by ',' "
                           "(printable ASCII, at most 512 characters)");
    }
    if ((v = an_yaml_get(n, "service_name")) &&
        (rc = an_ld_string(ld, v, "service_name", &o->service_name)))
        return rc;
    return 0;
}

int an_cfg_otlp(struct an_ld *ld, const struct an_ynode *n, struct an_config *c)
{
    static const char *const keys[] = {"endpoint",
                                       "headers",
                                       "protocol",
                                       "tracestate",
                                       "service_name",
                                       "timeout_ms",
                                       "max_batch_bytes",
                                       "max_attribute_bytes",
                                       NULL};
    struct an_otlp_config *o = &c->otlp;
    struct an_ynode *v;
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "otlp")) || (rc = an_ld_keys(ld, n, keys, "otlp")))
        return rc;
    o->present = true;
    o->loc = n->loc;
    if ((rc = load_strings(ld, n, o)))
        return rc;
    if ((v = an_yaml_get(n, "headers")) && (rc = load_headers(ld, v, o)))
        return rc;
    const struct an_cfg_cap caps[] = {{"timeout_ms", &o->timeout_ms},
                                      {"max_batch_bytes", &o->max_batch_bytes},
                                      {"max_attribute_bytes", &o->max_attribute_bytes}};
    return an_cfg_caps(ld, n, caps, 3);
}
