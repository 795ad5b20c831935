/* session/request_permission decided by a policy (seed 003):
 *   none  denies everything;
 *   read  allows read operations only;
 *   write allows read and write operations;
 *   yolo  allows everything, execute included.
 * The operation comes from the tool call's kind (read/search/fetch/think are
 * reads; edit/delete/move are writes; execute, switch_mode, other and
 * unknown kinds are neither) or, for a kind that says nothing, from its
 * title naming "read" or "write", as the reference runner does. */
#include "proto/acp_int.h"

#include <string.h>
#include <strings.h>

enum op { OP_READ, OP_WRITE, OP_OTHER };

static bool title_has(const char *title, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = title; p && *p; p++)
        if (strncasecmp(p, word, n) == 0)
            return true;
    return false;
}

static enum op classify(const json_t *tool_call)
{
    const char *kind = an_json_str(tool_call, "kind");
    const char *title = an_json_str(tool_call, "title");
    static const char *const reads[] = {"read", "search", "fetch", "think"};
    static const char *const writes[] = {"edit", "delete", "move"};
    for (size_t i = 0; kind && i < sizeof reads / sizeof reads[0]; i++)
        if (strcmp(kind, reads[i]) == 0)
            return OP_READ;
    for (size_t i = 0; kind && i < sizeof writes / sizeof writes[0]; i++)
        if (strcmp(kind, writes[i]) == 0)
            return OP_WRITE;
    if (!kind || strcmp(kind, "other") == 0) {
        if (title_has(title, "read"))
            return OP_READ;
        if (title_has(title, "write"))
            return OP_WRITE;
    }
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
    const char *id = yes ? option_of_kind(options, "allow_once") : option_of_kind(options, "reject_once");
    if (!id)
        id = yes ? option_of_kind(options, "allow_always") : option_of_kind(options, "reject_always");
    /* No option says what the policy decided: choosing another would turn
     * a denial into a grant, so the request is withdrawn instead. */
    if (!id)
        return acp_perm_cancelled();
    return json_pack("{s:{s:s,s:s}}", "outcome", "outcome", "selected", "optionId", id);
}
