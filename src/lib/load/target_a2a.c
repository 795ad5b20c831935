/* `target.type: a2a` (docs/a2a.md) -> struct an_target. */
#include <string.h>

#include "core/interp.h"
#include "load/config_int.h"
#include "load/target_a2a.h"
#include "core/spec_names.h"

static int url_tmpl(struct an_ld *ld, const struct an_ynode *v, const char *key,
                    struct an_tmpl *out)
{
    int rc = an_cfg_tmpl(ld, v, key, out);
    if (rc)
        return rc;
    if (!an_interp_has_refs(out->src) && strncmp(out->src, "http://", 7) != 0 &&
        strncmp(out->src, "https://", 8) != 0)
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "'%s' must be an http:// or https:// URL, not '%s'", key, out->src);
    return 0;
}

int an_target_a2a_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t)
{
    static const char *const keys[] = {"type",
                                       "agentCardUrl",
                                       "agentCard",
                                       "endpoint",
                                       "version",
                                       "binding",
                                       "blocking",
                                       "stream",
                                       "acceptedOutputModes",
                                       "api_key",
                                       "bearer",
                                       "headers",
                                       "timeout_ms",
                                       "assert",
                                       "trust_card_url",
                                       "max_event_bytes",
                                       "max_turn_bytes",
                                       "start",
                                       NULL};
    struct an_ynode *v;
    int rc;
    struct an_a2a_target *a = an_arena_alloc(ld->a, sizeof *a);
    t->data = a;
    a->stream = -1;
    if ((rc = an_ld_keys(ld, n, keys, "an a2a target")))
        return rc;
    struct an_ynode *url = an_yaml_get(n, "agentCardUrl"), *card = an_yaml_get(n, "agentCard"),
                    *ep = an_yaml_get(n, "endpoint");
    if (url && card)
        return an_fail(ld->err, AN_ESCHEMA, &card->loc,
                       "an a2a target has 'agentCardUrl' or 'agentCard', not both");
    if (!url && !card && !ep)
        return an_fail(ld->err, AN_ESCHEMA, &n->loc,
                       "an a2a target needs 'agentCardUrl', 'agentCard' or 'endpoint'");
    if (url && (rc = url_tmpl(ld, url, "agentCardUrl", &a->card_url)))
        return rc;
    if (ep && (rc = url_tmpl(ld, ep, "endpoint", &a->endpoint)))
        return rc;
    if (card) {
        if ((rc = an_ld_expect(ld, card, AN_Y_MAP, "agentCard")) ||
            (rc = an_cfg_json_tmpl(ld, card, "agentCard", &a->agent_card)))
            return rc;
        if (!an_yaml_get(card, "name"))
            return an_fail(ld->err, AN_ESCHEMA, &card->loc, "'agentCard' needs a 'name'");
    }
    if ((v = an_yaml_get(n, "version"))) {
        const char *s;
        if ((rc = an_ld_string(ld, v, "version", &s)))
            return rc;
        if (!strcmp(s, "auto"))
            a->version = AN_A2A_AUTO;
        else if (!strcmp(s, "1.0"))
            a->version = AN_A2A_V1_0;
        else if (!strcmp(s, "0.3"))
            a->version = AN_A2A_V0_3;
        else
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "unknown A2A version '%s' (one of: auto, 1.0, 0.3)", s);
    }
    if ((v = an_yaml_get(n, "binding"))) {
        static const char *const names[] = {"auto", "jsonrpc", "rest"}; /* enum an_a2a_binding */
        const char *s;
        if ((rc = an_ld_string(ld, v, "binding", &s)))
            return rc;
        a->binding = 0;
        while (a->binding < 3 && strcmp(s, names[a->binding]))
            a->binding++;
        if (a->binding == 3)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "unknown A2A binding '%s' (one of: auto, jsonrpc, rest)", s);
    }
    if ((v = an_yaml_get(n, "blocking"))) {
        bool b;
        if (!an_yaml_as_bool(v, &b))
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'blocking' must be true or false");
        a->nonblocking = !b;
    }
    if ((v = an_yaml_get(n, "stream"))) {
        bool b;
        if (v->kind == AN_Y_SCALAR && !strcmp(v->str, "auto"))
            a->stream = -1;
        else if (an_yaml_as_bool(v, &b))
            a->stream = b ? 1 : 0;
        else
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'stream' must be true, false or auto");
    }
    if ((v = an_yaml_get(n, "trust_card_url")) && !an_yaml_as_bool(v, &a->trust_card_url))
        return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'trust_card_url' must be true or false");
    if ((v = an_yaml_get(n, "acceptedOutputModes"))) {
        if ((rc = an_ld_expect(ld, v, AN_Y_SEQ, "acceptedOutputModes")))
            return rc;
        a->noutput_modes = v->nitems;
        a->output_modes = an_arena_alloc(ld->a, (v->nitems ? v->nitems : 1) * sizeof(char *));
        for (size_t i = 0; i < v->nitems; i++)
            if ((rc = an_ld_string(ld, v->items[i], "acceptedOutputModes[]", &a->output_modes[i])))
                return rc;
    }
    if ((v = an_yaml_get(n, "api_key")) && (rc = an_cfg_tmpl(ld, v, "api_key", &a->api_key)))
        return rc;
    if ((v = an_yaml_get(n, "bearer")) && (rc = an_cfg_tmpl(ld, v, "bearer", &a->bearer)))
        return rc;
    if ((v = an_yaml_get(n, "headers")) && (rc = an_cfg_headers(ld, v, t)))
        return rc;
    const struct an_cfg_cap caps[] = {{"max_event_bytes", &a->max_event_bytes},
                                      {"max_turn_bytes", &a->max_turn_bytes}};
    return an_cfg_caps(ld, n, caps, 2);
}
