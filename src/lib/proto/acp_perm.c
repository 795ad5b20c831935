/* session/request_permission decided by a policy (seed 003):
 *   none  denies everything;
 *   read  allows read operations only;
 *   write allows read and write operations;
 *   yolo  allows everything, execute included.
 * What the operation is (docs/acp.md, "Permission requests"):
 * - The tool call's `kind` decides when it has one: read, search, fetch and
 *   think are reads; edit, delete and move are writes; execute,
 *   switch_mode, other, any other value and a kind that is not a string
 *   are neither (only yolo grants them).
 * - Only without a kind (absent or null) does the title count, by whole
 *   words (runs of ASCII letters, any case): a word that executes or
 *   installs makes it neither, else a word that changes files makes it a
 *   write, else a word that reads makes it a read; a title with none of
 *   these words, or no title, is neither.
 * When in doubt it is "neither", which every policy but yolo denies. */
#include "proto/acp_int.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

enum op { OP_READ, OP_WRITE, OP_OTHER };

/* The title's vocabulary. A word is matched whole: "already" is not "read". */
static const char *const read_words[] = {"read",   "reads",   "reading", "view", "list",
                                         "search", "find",    "grep",    "glob", "fetch",
                                         "show",   "inspect", "look",    NULL};
static const char *const write_words[] = {
    "write",  "writes",    "writing", "edit",   "edits",  "create",   "delete", "remove", "move",
    "rename", "overwrite", "modify",  "update", "change", "replace",  "patch",  "append", "save",
    "copy",   "mkdir",     "rm",      "mv",     "cp",     "truncate", "erase",  NULL};
static const char *const other_words[] = {"run",     "runs",  "running", "execute", "exec",
                                          "install", "shell", "command", "kill",    "sudo",
                                          "deploy",  "push",  "switch",  NULL};

static bool in(const char *const *list, const char *w, size_t n)
{
    for (size_t i = 0; list[i]; i++)
        if (strlen(list[i]) == n && strncasecmp(list[i], w, n) == 0)
            return true;
    return false;
}

static enum op classify_title(const char *title)
{
    bool rd = false, wr = false;
    for (const char *p = title; p && *p;) {
        if (!isalpha((unsigned char)*p)) {
            p++;
            continue;
        }
        const char *w = p;
        while (isalpha((unsigned char)*p))
            p++;
        size_t n = (size_t)(p - w);
        if (in(other_words, w, n))
            return OP_OTHER;
        wr = wr || in(write_words, w, n);
        rd = rd || in(read_words, w, n);
    }
    return wr ? OP_WRITE : rd ? OP_READ : OP_OTHER;
}

static enum op classify(const json_t *tool_call)
{
    const json_t *kind = json_object_get(tool_call, "kind");
    static const char *const reads[] = {"read", "search", "fetch", "think", NULL};
    static const char *const writes[] = {"edit", "delete", "move", NULL};
    if (!kind || json_is_null(kind))
        return classify_title(an_json_str(tool_call, "title"));
    const char *k = json_string_value(kind); /* NULL when not a string */
    for (size_t i = 0; k && reads[i]; i++)
        if (strcmp(k, reads[i]) == 0)
            return OP_READ;
    for (size_t i = 0; k && writes[i]; i++)
        if (strcmp(k, writes[i]) == 0)
            return OP_WRITE;
    return OP_OTHER;
}

static bool allowed(enum an_acp_policy p, enum op op)
{
    switch (p) {
    case AN_ACP_POLICY_NONE:
        return false;
    case AN_ACP_POLICY_READ:
        return op == OP_READ;
    case AN_ACP_POLICY_WRITE:
        return op == OP_READ || op == OP_WRITE;
    case AN_ACP_POLICY_YOLO:
        break;
    }
    return true;
}

static const char *option_of_kind(const json_t *options, const char *kind)
{
    size_t i;
    json_t *o;
    json_array_foreach(options, i, o)
    {
        const char *k = an_json_str(o, "kind"), *id = an_json_str(o, "optionId");
        if (k && id && strcmp(k, kind) == 0)
            return id;
    }
    return NULL;
}

json_t *acp_perm_cancelled(void)
{
    return json_pack("{s:{s:s}}", "outcome", "outcome", "cancelled");
}

json_t *acp_perm_decide(enum an_acp_policy p, const json_t *params)
{
    const json_t *options = json_object_get(params, "options");
    bool yes = allowed(p, classify(json_object_get(params, "toolCall")));
    const char *id = yes ? option_of_kind(options, "allow_once")
                         : option_of_kind(options, "reject_once");
    if (!id)
        id = yes ? option_of_kind(options, "allow_always")
                 : option_of_kind(options, "reject_always");
    /* No option says what the policy decided: choosing another would turn
     * a denial into a grant, so the request is withdrawn instead. */
    if (!id)
        return acp_perm_cancelled();
    return json_pack("{s:{s:s,s:s}}", "outcome", "outcome", "selected", "optionId", id);
}
