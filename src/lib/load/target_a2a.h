/*
 * `type: a2a` (docs/a2a.md): the target's own keys, behind an_target.data.
 * Loaded by load/target_a2a.c into the suite's arena; read by
 * run/target_a2a.c when a session is opened.
 */
#ifndef ANANKE_LOAD_TARGET_A2A_H
#define ANANKE_LOAD_TARGET_A2A_H

#include "ananke/model.h"

struct an_a2a_target {
    struct an_tmpl endpoint;        /* the interface URL (over the card's); src NULL: the card's */
    struct an_tmpl card_url;        /* agentCardUrl; src NULL: none */
    struct an_json_tmpl agent_card; /* inline agentCard; value NULL: none */
    int version;                    /* enum an_a2a_version (core/spec_names.h); 0: auto */
    int binding;                    /* enum an_a2a_binding (proto/a2a.h); 0: auto */
    bool nonblocking;               /* `blocking: false` */
    int stream;                     /* `stream`: 1 true, 0 false, -1 auto (default) */
    bool trust_card_url;            /* `trust_card_url: true` */
    const char **output_modes;      /* acceptedOutputModes */
    size_t noutput_modes;
    struct an_tmpl api_key;  /* goes in the card's apiKey header; src NULL: none */
    struct an_tmpl bearer;   /* Authorization: Bearer; src NULL: none */
    int64_t max_event_bytes; /* one SSE event; 0: the default */
    int64_t max_turn_bytes;  /* the whole answer; 0: the default */
};

static inline const struct an_a2a_target *an_a2a_target(const struct an_target *t)
{
    return t->data;
}

#endif
