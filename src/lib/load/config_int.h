/* Pieces of the config loader shared by its files (config.c, target_load.c,
 * and each type's load/target_<type>.c, which run/target_<type>.c names). */
#ifndef ANANKE_LOAD_CONFIG_INT_H
#define ANANKE_LOAD_CONFIG_INT_H

#include "load/loaders.h"

/* A string that may hold ${...} references (checked now, filled at run time). */
int an_cfg_tmpl(struct an_ld *ld, const struct an_ynode *n, const char *what, struct an_tmpl *out);
/* Any YAML value as JSON whose string leaves may hold ${...} references. */
int an_cfg_json_tmpl(struct an_ld *ld, const struct an_ynode *n, const char *what,
                     struct an_json_tmpl *out);
/* `headers: {Name: value}` (values are templates). */
int an_cfg_headers(struct an_ld *ld, const struct an_ynode *n, struct an_target *t);
/* An endpoint that must be an http(s) URL unless it is built from ${...}. */
int an_cfg_endpoint(struct an_ld *ld, const struct an_ynode *map, const char *where,
                    struct an_tmpl *out);

/* A list of templates into *out (from the arena) and *n: `what` names the
 * list when v is not one, `item` each of its entries ("args[]"). */
int an_cfg_tmpl_list(struct an_ld *ld, const struct an_ynode *v, const char *what, const char *item,
                     struct an_tmpl **out, size_t *n);
/* A child process's required `command` of the map n into t->command and
 * t->args: a string (a program; then `args` may follow) or, as seed 000
 * writes it, a non-empty list (program and arguments; then `args` is
 * refused); `where` names the map when `command` is missing. Then `args`
 * and `env` as an_cfg_args_env. */
struct an_target_proc;
int an_cfg_command(struct an_ld *ld, const struct an_ynode *n, const char *where,
                   const char *args_what, struct an_target_proc *t);
/* A child process's optional `args` (templates) and `env` ({NAME: template})
 * of the map n into t->args and t->env; `args_what` names `args` when it is
 * not a list. The command itself is the caller's (its wording differs). */
int an_cfg_args_env(struct an_ld *ld, const struct an_ynode *n, const char *args_what,
                    struct an_target_proc *t);

/* `tool_servers:` (docs/tools.md) into c->tool_servers. */
int an_cfg_tool_servers(struct an_ld *ld, const struct an_ynode *n, struct an_config *c);

/* `otlp:` (docs/otel.md) into c->otlp. */
int an_cfg_otlp(struct an_ld *ld, const struct an_ynode *n, struct an_config *c);

/* acp, mcp stdio: inherit_env */
int an_cfg_inherit_env(struct an_ld *ld, const struct an_ynode *n, struct an_target_proc *t);
/* The optional `max_frame_bytes` of an acp or mcp target (at least 1). */
int an_cfg_max_frame(struct an_ld *ld, const struct an_ynode *n, int64_t *out);

/* Optional caps: each key present in n must be a whole number of at least
 * 1 (an error at its place otherwise) and is stored in *out; an absent key
 * leaves *out as it was (0: the default). */
struct an_cfg_cap {
    const char *key;
    int64_t *out;
};
int an_cfg_caps(struct an_ld *ld, const struct an_ynode *n, const struct an_cfg_cap *caps,
                size_t ncaps);

/* `target:` or an agent: its `type`'s row loads it (ananke/target_type.h),
 * then the keys every type has; `what` names the map in errors. */
int an_target_load(struct an_ld *ld, const struct an_ynode *n, const struct an_assert_lib *lib,
                   const char *what, struct an_target *t);

/* `type: agui` (docs/agui.md). */
int an_target_agui_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t);
/* `type: acp` (docs/acp.md). */
int an_target_acp_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t);
/* `type: openai` (docs/openai.md). */
int an_target_openai_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t);
/* `type: http` (docs/http.md). */
int an_target_http_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t);
/* `type: mcp` (docs/mcp.md). */
int an_target_mcp_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t);
/* `type: a2a` (docs/a2a.md). */
int an_target_a2a_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t);
/* `target.start` (docs/config.md "Starting the agent") into t->start. */
int an_target_start_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t);
/* After the target's `assert`: the checks an http target always makes. */
int an_target_http_always(struct an_ld *ld, struct an_target *t);

#endif
