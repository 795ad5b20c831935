/*
 * `type: openai` (docs/openai.md): the target's own keys, behind
 * an_target.data. Loaded by load/target_openai.c into the suite's arena;
 * read by run/target_openai.c.
 */
#ifndef ANANKE_LOAD_TARGET_OPENAI_H
#define ANANKE_LOAD_TARGET_OPENAI_H

#include "ananke/model.h"

/* A tool an openai target offers its model (docs/openai.md). A call is
 * answered with `result`, or by running `argv`, or (neither) recorded
 * without a result, which ends the turn. */
struct an_tool_def {
    const char *name;
    const char *description; /* NULL = none */
    json_t *parameters;      /* JSON Schema; NULL = {"type": "object"} */
    json_t *result;          /* canned answer; NULL = none */
    struct an_tmpl *argv;    /* command; argc 0 = none */
    size_t argc;
    int64_t timeout_ms; /* command: default 30000 */
    struct an_loc loc;
};

struct an_openai_target {
    struct an_tmpl endpoint; /* the API's base URL ("http://host/v1") */
    struct an_tmpl model;
    struct an_tmpl api_key;     /* src NULL = no Authorization header */
    struct an_tmpl system;      /* src NULL = no system message */
    struct an_json_tmpl params; /* extra request members (temperature ...) */
    struct an_tool_def *tools;
    size_t ntools;
    bool no_stream;      /* `stream: false` */
    unsigned max_rounds; /* model calls per turn; 0 = 10 */
    /* what one turn may take; 0: the defaults (docs/openai.md "Limits") */
    int64_t max_event_bytes, max_turn_bytes, max_tool_calls;
};

static inline const struct an_openai_target *an_openai_target(const struct an_target *t)
{
    return t->data;
}

#endif
