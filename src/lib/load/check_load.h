/*
 * Loading seed 002's typed checks (contains, regex, json_path, tool_called,
 * script ...) into struct an_check_item, from a JSON value: a JSONL case's
 * `assertions` and a YAML assert block's `checks:` (converted to JSON
 * first) go through the same code, so they are read alike and fail alike.
 *
 * Values are borrowed: the caller keeps `item` alive as long as the suite
 * (an_arena_defer). Regexes are compiled here, once. Each kind is a row of
 * the check-kind table (ananke/check_kind.h, check/check_kinds.c).
 */
#ifndef ANANKE_LOAD_CHECK_LOAD_H
#define ANANKE_LOAD_CHECK_LOAD_H

#include <jansson.h>

#include "ananke/check_kind.h"
#include "ananke/model.h"
#include "load/schema.h"

/* Where an item was written, so each message can point at its key. */
struct an_ck_src {
    struct an_loc loc;            /* the item (YAML) or the list's key (JSONL) */
    const struct an_ynode *ynode; /* YAML: the item's node; NULL for JSONL */
    const char *line;             /* JSONL: the raw line, to find a key's column */
    const char *file_dir;         /* directory of the file: `use: scripts:PATH` is relative */
};

/* One check. `item` is an object, or a bare type name ("contains" is
 * {"type": "contains"}, as seed 002's original reads it). */
int an_check_item_load(struct an_ld *ld, json_t *item, const struct an_ck_src *src,
                       enum an_level level, struct an_check_item *out);

/* An assert block's rule written as a typed check, {"type": "tools.allow",
 * "value": [...]} for `tools: {allow: [...]}` (any GROUP.KEY of tools,
 * timing, text and usage): loaded into blk's rules as the block would be,
 * with *taken set. Anything else: 0 and *taken false. */
int an_check_block_load(struct an_ld *ld, json_t *item, const struct an_ck_src *src,
                        enum an_level level, struct an_assert *blk, bool *taken);

/* A YAML `checks:` list into blk->checks (appended). */
int an_checks_load_yaml(struct an_ld *ld, const struct an_ynode *n, enum an_level level,
                        struct an_assert *blk);

/* Point every agent check of `blk` at its agent in cfg->agents; an unknown
 * name is an error at the check (with the nearest name, or the list). */
int an_checks_resolve_agents(const struct an_config *cfg, struct an_assert *blk,
                             struct an_err *err);

/* Where `key` of the item was written; the item's own place otherwise. */
struct an_loc an_ck_key_loc(const struct an_ck_src *src, const char *key);
/* An AN_ESCHEMA error at `key` of the item. */
int an_ck_fail(struct an_ld *ld, const struct an_ck_src *src, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The source of a member (`key`, or its index-th item when it is a list). */
struct an_ck_src an_ck_child(const struct an_ck_src *src, const char *key, size_t index);

/* What a row's loader gets (ananke/check_kind.h's opaque an_check_ctx). */
struct an_check_ctx {
    struct an_ld *ld;
    const struct an_ck_src *src;
    const struct an_check_kind_def *def;
};

/* The built-in loaders, reached through the table (check/check_kinds.c):
 * contains, not_contains, equals, regex, json_path, type (load/check_load_text.c) */
an_check_load_fn an_ck_load_text, an_ck_load_regex, an_ck_load_json_path, an_ck_load_type;
/* tool_called, tool_result (load/check_load_tools.c) */
an_check_load_fn an_ck_load_tool_called, an_ck_load_tool_result;
/* script, agent: the impure kinds the runner runs (load/check_load_run.c) */
an_check_load_fn an_ck_load_script, an_ck_load_agent;
/* seed 004's run-case kinds (load/check_load_case.c) */
an_check_load_fn an_ck_load_action_required, an_ck_load_tool_sequence,
    an_ck_load_retrieval_required, an_ck_load_json_schema, an_ck_load_evidence_required,
    an_ck_load_tool_execution;
/* task_state (load/check_task_state.c) */
an_check_load_fn an_task_state_load;

/* The keys of the table (built-in, then registered), in the order
 * messages list them; a key by name (NULL when none). */
size_t an_check_keys_count(void);
const struct an_check_key *an_check_key_at(size_t i);
const struct an_check_key *an_check_key_find(const char *name);
/* Does the row take `key` (besides type, value, negate, message)? */
bool an_check_kind_takes(const struct an_check_kind_def *d, const char *key);
/* Every kind's name, every key's name (NULL-terminated, for an_closest). */
const char *const *an_check_kind_names(void);
const char *const *an_check_key_names(void);

/* Keeps a new JSON value as long as the suite (the arena). */
json_t *an_ck_keep(struct an_ld *ld, json_t *v);

/* The column (1-based) of `"key"` in `line` at or after byte `from`; 0 when absent. */
unsigned an_ck_key_col(const char *line, size_t from, const char *key);

#endif
