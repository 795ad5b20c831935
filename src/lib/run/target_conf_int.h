/*
 * What the built-in target types' files share (run/target_<type>.c): each
 * holds its type's interpolated config, its open() and its row
 * (ananke/target_type.h); run/target_type.c lists the rows.
 */
#ifndef ANANKE_RUN_TARGET_CONF_INT_H
#define ANANKE_RUN_TARGET_CONF_INT_H

#include "ananke/target_type.h"
#include "load/target_proc.h"
#include "run/target_conf.h"

/* A target's `headers`, interpolated: names borrowed from the target,
 * values owned. */
struct an_target_headers {
    struct an_kv *kv;
    size_t n;
};
void an_target_headers_free(struct an_target_headers *h);
int an_target_headers_build(struct an_target_headers *h, const struct an_target *t,
                            const struct an_vars *vars, struct an_err *err);

/* A child process's command line and environment (acp; mcp over stdio),
 * interpolated: all owned. */
struct an_proc_conf {
    char **argv; /* NULL-terminated */
    size_t argc;
    char **env; /* NULL-terminated NAME=VALUE */
    size_t nenv;
};
void an_proc_conf_release(struct an_proc_conf *c);
int an_proc_conf_build(struct an_proc_conf *c, const struct an_target_proc *p,
                       const struct an_vars *vars, struct an_err *err);

/* One turn's limit: the test's own (a JSONL `timeout`) or the target's. */
int64_t an_target_turn_ms(const struct an_target *t, const struct an_test *test);
/* A helper agent's shorter limit over *timeout_ms, when `over` sets one. */
void an_target_over_timeout(const struct an_target_over *over, int64_t *timeout_ms);

/* For rows' describe(): s under `key`; brief: as json_string (what a
 * generator is shown), else with invalid UTF-8 replaced (the record). */
void an_target_put(json_t *o, const char *key, const char *s, bool brief);
/* For rows' describe() and secrets(): a child process's command, args, env. */
void an_target_describe_proc(const struct an_target_proc *p, json_t *o, bool brief);
void an_target_proc_secrets(const struct an_target_proc *p, an_target_secret_fn fn, void *ud);

extern const struct an_target_type an_target_agui, an_target_acp, an_target_openai, an_target_http,
    an_target_mcp, an_target_a2a;

#endif
