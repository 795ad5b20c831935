/*
 * The check-kind table (ananke/check_kind.h): the keys a typed check may
 * hold, one row per built-in kind, and the rows registered from outside.
 * Everything that lists kinds or keys (the loader's messages, the schema,
 * an_check_kind_name) reads them from here.
 */
#include "ananke/check_kind.h"

#include <pthread.h>
#include <string.h>

#include "ananke/check.h"
#include "check/check_eval.h"
#include "load/check_load.h"

#define KIND_MAX (AN_CHECK__BUILTIN + 64)
#define KEY_MAX 128

/* Every key a built-in kind takes, in the order messages list them. */
static const struct an_check_key builtin_keys[] = {
    {"type", AN_CK_ANY, "The kind of check; equals when absent.", NULL},
    {"value", AN_CK_ANY,
     "What to compare with: the text (contains, not_contains), the exact output (equals), the "
     "pattern (regex), the expected value or a list of allowed values (json_path), a type name "
     "(type), a tool name, list of names or {name, arguments} (tool_called), {tool, result} "
     "(tool_result), anything (script: sent on stdin), the criteria (agent), an action type or "
     "list (action_required), tool names in order (tool_sequence), doc ids or {doc_ids} "
     "(retrieval_required), a JSON Schema (json_schema), true or nothing (evidence_required), a "
     "task state or a list of them (task_state).",
     NULL},
    {"pattern", AN_CK_ANY, "regex: the pattern (PCRE2, or /pattern/flags).",
     "{\"type\": \"string\"}"},
    {"path", AN_CK_ANY,
     "json_path and type: where in the JSON found in the output, e.g. $.order.items[0].sku.",
     "{\"type\": \"string\"}"},
    {"name", AN_CK_ANY, "tool_called: a tool name, or a list of names (any one).",
     "{\"anyOf\": [{\"type\": \"string\"}, {\"type\": \"array\", \"items\": {\"type\": "
     "\"string\"}}]}"},
    {"arguments", AN_CK_ANY,
     "tool_called: arguments the call must hold (a subset; \"regex:...\" strings are "
     "patterns).",
     "{\"type\": \"object\"}"},
    {"negate", AN_CK_BOOL, "Turn the verdict around.", NULL},
    {"message", AN_CK_STRING, "The failure's label instead of the generated one.", NULL},
    {"use", AN_CK_ANY,
     "script: scripts:PATH, a program relative to this file; agent: agents:NAME, a helper "
     "agent of the config's agents:.",
     "{\"type\": \"string\", \"pattern\": \"^(scripts|agents):.+\"}"},
    {"cmd", AN_CK_ANY, "script: argv, run without a shell in this file's directory.",
     "{\"type\": \"array\", \"minItems\": 1, \"items\": {\"type\": \"string\"}}"},
    {"options", AN_CK_ANY,
     "script: sent to the program on stdin as options; agent: options.metadata (criteria and "
     "anything else) is shown to the judge.",
     NULL},
    {"timeout_ms", AN_CK_ANY, "script: kill it after this long (default 30000).",
     "{\"type\": \"integer\", \"minimum\": 1}"},
    {"ignore_case", AN_CK_BOOL, "contains and not_contains: compare ASCII letters without case.",
     NULL},
    {"of", AN_CK_ANY,
     "What text and JSON checks look at: output (the agent's text, default), state (the state "
     "after the turn), messages (the conversation's messages after it).",
     "{\"enum\": [\"output\", \"state\", \"messages\"]}"},
    {NULL, AN_CK_ANY, NULL, NULL},
};

#define KEYS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define TEXT_KEYS KEYS("ignore_case", "of")

/* The built-in kinds, in enum an_check_kind order. */
static const struct an_check_kind_def builtin[] = {
    {"contains", "check.contains", TEXT_KEYS, NULL, an_ck_load_text, an_ck_eval_text, true, false,
     false},
    {"not_contains", "check.not_contains", TEXT_KEYS, NULL, an_ck_load_text, an_ck_eval_text, true,
     false, true},
    {"equals", "check.equals", KEYS("of"), NULL, an_ck_load_text, an_ck_eval_text, true, false,
     false},
    {"regex", "check.regex", KEYS("pattern", "of"), NULL, an_ck_load_regex, an_ck_eval_text, true,
     false, false},
    {"json_path", "check.json_path", KEYS("path", "of"), NULL, an_ck_load_json_path,
     an_ck_eval_json, true, false, false},
    {"type", "check.type", KEYS("path", "of"), NULL, an_ck_load_type, an_ck_eval_json, true, false,
     false},
    {"tool_called", "check.tool_called", KEYS("name", "arguments"), NULL, an_ck_load_tool_called,
     an_ck_eval_tool_called, true, true, false},
    {"tool_result", "check.tool_result", NULL, NULL, an_ck_load_tool_result, an_ck_eval_tool_result,
     true, true, false},
    {"script", "check.script", KEYS("use", "cmd", "options", "timeout_ms"), NULL, an_ck_load_script,
     NULL, false, false, false},
    {"agent", "check.agent", KEYS("use", "options"), NULL, an_ck_load_agent, NULL, false, false,
     false},
    {"action_required", "check.action_required", NULL, NULL, an_ck_load_action_required,
     an_ck_eval_case, true, false, false},
    {"tool_sequence", "check.tool_sequence", NULL, NULL, an_ck_load_tool_sequence, an_ck_eval_case,
     true, false, false},
    {"retrieval_required", "check.retrieval_required", NULL, NULL, an_ck_load_retrieval_required,
     an_ck_eval_case, true, false, false},
    {"json_schema", "check.json_schema", NULL, NULL, an_ck_load_json_schema, an_ck_eval_case, true,
     false, false},
    {"evidence_required", "check.evidence_required", NULL, NULL, an_ck_load_evidence_required,
     an_ck_eval_case, true, false, false},
    {"tool_execution", "check.tool_execution", NULL, NULL, an_ck_load_tool_execution,
     an_ck_eval_case, true, false, false},
    {"task_state", "check.task_state", NULL, NULL, an_task_state_load, an_ck_eval_task_state, true,
     false, false},
};

_Static_assert(sizeof builtin / sizeof *builtin == AN_CHECK__BUILTIN,
               "one row per enum an_check_kind value before AN_CHECK__BUILTIN");

/* Registered rows, and their keys, after the built-in ones. */
static const struct an_check_kind_def *extra[KIND_MAX - AN_CHECK__BUILTIN];
static size_t nextra;
static const struct an_check_key *extra_keys[KEY_MAX];
static size_t nextra_keys;

/* Names for an_closest() (NULL-terminated), rebuilt on each registration. */
static const char *kind_names[KIND_MAX + 1];
static const char *key_names[KEY_MAX + 1];
static pthread_once_t names_once = PTHREAD_ONCE_INIT;

static size_t nbuiltin_keys(void)
{
    return sizeof builtin_keys / sizeof *builtin_keys - 1;
}

static void names_build(void)
{
    size_t n = 0;
    for (size_t k = 0; k < an_check_kind_count(); k++)
        kind_names[n++] = an_check_kind_get((enum an_check_kind)k)->name;
    kind_names[n] = NULL;
    n = 0;
    for (size_t k = 0; k < an_check_keys_count(); k++)
        key_names[n++] = an_check_key_at(k)->name;
    key_names[n] = NULL;
}

static void names_ready(void)
{
    pthread_once(&names_once, names_build);
}

size_t an_check_kind_count(void)
{
    return AN_CHECK__BUILTIN + nextra;
}

const struct an_check_kind_def *an_check_kind_get(enum an_check_kind kind)
{
    size_t k = (size_t)kind;
    if (k < AN_CHECK__BUILTIN)
        return &builtin[k];
    return k < an_check_kind_count() ? extra[k - AN_CHECK__BUILTIN] : NULL;
}

const struct an_check_kind_def *an_check_kind_find(const char *name, enum an_check_kind *kind)
{
    for (size_t k = 0; name && k < an_check_kind_count(); k++) {
        const struct an_check_kind_def *d = an_check_kind_get((enum an_check_kind)k);
        if (!strcmp(d->name, name)) {
            if (kind)
                *kind = (enum an_check_kind)k;
            return d;
        }
    }
    return NULL;
}

const char *an_check_kind_name(enum an_check_kind k)
{
    const struct an_check_kind_def *d = an_check_kind_get(k);
    return d ? d->finding : "check.unknown";
}

size_t an_check_keys_count(void)
{
    return nbuiltin_keys() + nextra_keys;
}

const struct an_check_key *an_check_key_at(size_t i)
{
    return i < nbuiltin_keys() ? &builtin_keys[i] : extra_keys[i - nbuiltin_keys()];
}

const struct an_check_key *an_check_key_find(const char *name)
{
    for (size_t i = 0; i < an_check_keys_count(); i++)
        if (!strcmp(an_check_key_at(i)->name, name))
            return an_check_key_at(i);
    return NULL;
}

bool an_check_kind_takes(const struct an_check_kind_def *d, const char *key)
{
    for (size_t i = 0; d->keys && d->keys[i]; i++)
        if (!strcmp(d->keys[i], key))
            return true;
    for (size_t i = 0; d->new_keys && d->new_keys[i].name; i++)
        if (!strcmp(d->new_keys[i].name, key))
            return true;
    return false;
}

const char *const *an_check_kind_names(void)
{
    names_ready();
    return kind_names;
}

const char *const *an_check_key_names(void)
{
    names_ready();
    return key_names;
}

int an_check_kind_register(const struct an_check_kind_def *def)
{
    /* an impure kind needs the runner to run it: only built-in ones have one */
    if (!def || !def->name || !def->finding || !def->load || !def->pure || !def->eval ||
        an_check_kind_find(def->name, NULL) || nextra == KIND_MAX - AN_CHECK__BUILTIN)
        return -1;
    size_t added = 0;
    for (size_t i = 0; def->new_keys && def->new_keys[i].name; i++) {
        if (an_check_key_find(def->new_keys[i].name))
            continue;
        if (nextra_keys == KEY_MAX - nbuiltin_keys()) {
            nextra_keys -= added;
            return -1;
        }
        extra_keys[nextra_keys++] = &def->new_keys[i];
        added++;
    }
    for (size_t i = 0; def->keys && def->keys[i]; i++)
        if (!an_check_key_find(def->keys[i])) {
            nextra_keys -= added;
            return -1;
        }
    extra[nextra++] = def;
    names_build();
    return (int)(an_check_kind_count() - 1);
}
