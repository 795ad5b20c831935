/*
 * The AG-UI event shapes and their checks: which fields each known event
 * has, which of them are required, what type each must have, and which
 * unknown properties are dropped (after a warning). The ordering rules that
 * use the same table live in agui_verify.c.
 */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "proto/agui_verify_int.h"

#define R(name, kind)                                                                              \
    {                                                                                              \
        name, kind, true                                                                           \
    } /* required field */
#define O(name, kind)                                                                              \
    {                                                                                              \
        name, kind, false                                                                          \
    } /* optional field */

static const struct shape shapes[] = {
    {"RUN_STARTED",
     S_RUN_STARTED,
     0,
     NULL,
     NO_SUBAGENT,
     {R("threadId", F_STR), R("runId", F_STR), O("parentRunId", F_STR), O("input", F_OBJ),
      O("protocolVersion", F_STR)}},
    {"RUN_FINISHED",
     S_RUN_FINISHED,
     0,
     NULL,
     NO_SUBAGENT,
     {R("threadId", F_STR), R("runId", F_STR), O("result", F_ANY), O("outcome", F_OUTCOME),
      O("usage", F_ARR)}},
    {"RUN_ERROR",
     S_RUN_ERROR,
     0,
     NULL,
     NO_SUBAGENT,
     {R("message", F_STR), O("code", F_CODE), O("usage", F_ARR)}},
    {"STEP_STARTED", S_OPEN, K_STEP, "stepName", 0, {R("stepName", F_STR)}},
    {"STEP_FINISHED", S_CLOSE, K_STEP, "stepName", 0, {R("stepName", F_STR)}},
    {"TEXT_MESSAGE_START",
     S_OPEN,
     K_TEXT,
     "messageId",
     0,
     {R("messageId", F_STR), O("role", F_ROLE), O("name", F_STR)}},
    {"TEXT_MESSAGE_CONTENT",
     S_USE,
     K_TEXT,
     "messageId",
     0,
     {R("messageId", F_STR), R("delta", F_STR)}},
    {"TEXT_MESSAGE_END", S_CLOSE, K_TEXT, "messageId", 0, {R("messageId", F_STR)}},
    {"TEXT_MESSAGE_CHUNK",
     S_CHUNK,
     K_TEXT,
     "messageId",
     KEEPS_CHUNK,
     {O("messageId", F_STR), O("role", F_ROLE), O("delta", F_STR), O("name", F_STR)}},
    {"TOOL_CALL_START",
     S_OPEN,
     K_TOOL,
     "toolCallId",
     0,
     {R("toolCallId", F_STR), R("toolCallName", F_STR), O("parentMessageId", F_STR)}},
    {"TOOL_CALL_ARGS", S_USE, K_TOOL, "toolCallId", 0, {R("toolCallId", F_STR), R("delta", F_STR)}},
    {"TOOL_CALL_END", S_CLOSE, K_TOOL, "toolCallId", 0, {R("toolCallId", F_STR)}},
    {"TOOL_CALL_CHUNK",
     S_CHUNK,
     K_TOOL,
     "toolCallId",
     KEEPS_CHUNK,
     {O("toolCallId", F_STR), O("toolCallName", F_STR), O("parentMessageId", F_STR),
      O("delta", F_STR)}},
    {"TOOL_CALL_RESULT",
     S_NONE,
     0,
     NULL,
     0,
     {R("messageId", F_STR), R("toolCallId", F_STR), R("content", F_CONTENT), O("role", F_TROLE),
      O("error", F_STR)}},
    {"STATE_SNAPSHOT", S_NONE, 0, NULL, 0, {R("snapshot", F_ANY)}},
    {"STATE_DELTA", S_NONE, 0, NULL, 0, {R("delta", F_PATCH)}},
    {"MESSAGES_SNAPSHOT", S_NONE, 0, NULL, NO_SUBAGENT, {R("messages", F_MESSAGES)}},
    {"ACTIVITY_SNAPSHOT",
     S_NONE,
     0,
     NULL,
     KEEPS_CHUNK,
     {R("messageId", F_STR), R("activityType", F_STR), R("content", F_OBJ), O("replace", F_BOOL)}},
    {"ACTIVITY_DELTA",
     S_NONE,
     0,
     NULL,
     KEEPS_CHUNK,
     {R("messageId", F_STR), R("activityType", F_STR), R("patch", F_PATCH)}},
    {"REASONING_START",
     S_OPEN,
     K_RSPAN,
     "messageId",
     0,
     {R("messageId", F_STR), O("encryptedValue", F_STR), O("encryptedValueType", F_STR)}},
    {"REASONING_END", S_CLOSE, K_RSPAN, "messageId", 0, {R("messageId", F_STR)}},
    {"REASONING_MESSAGE_START",
     S_OPEN,
     K_RMSG,
     "messageId",
     0,
     {R("messageId", F_STR), R("role", F_RROLE)}},
    {"REASONING_MESSAGE_CONTENT",
     S_USE,
     K_RMSG,
     "messageId",
     0,
     {R("messageId", F_STR), R("delta", F_STR)}},
    {"REASONING_MESSAGE_END", S_CLOSE, K_RMSG, "messageId", 0, {R("messageId", F_STR)}},
    {"REASONING_MESSAGE_CHUNK",
     S_CHUNK,
     K_RMSG,
     "messageId",
     KEEPS_CHUNK,
     {O("messageId", F_STR), O("delta", F_STR)}},
    {"REASONING_ENCRYPTED_VALUE",
     S_NONE,
     0,
     NULL,
     KEEPS_CHUNK,
     {R("subtype", F_STR), R("entityId", F_STR), R("encryptedValue", F_STR),
      O("encryptedValueType", F_STR)}},
    {"SUBAGENT_STARTED",
     S_OPEN,
     K_SUB,
     "subagentRunId",
     KEEPS_CHUNK,
     {R("subagentRunId", F_STR), R("name", F_STR), O("description", F_STR),
      O("parentSubagentRunId", F_STR), O("parentToolCallId", F_STR), O("parentMessageId", F_STR)}},
    {"SUBAGENT_FINISHED",
     S_CLOSE,
     K_SUB,
     "subagentRunId",
     0,
     {R("subagentRunId", F_STR), O("result", F_ANY), O("outcome", F_OBJ)}},
    {"SUBAGENT_ERROR",
     S_CLOSE,
     K_SUB,
     "subagentRunId",
     0,
     {R("subagentRunId", F_STR), R("message", F_STR), O("code", F_CODE)}},
    {"RAW", S_NONE, 0, NULL, KEEPS_CHUNK, {R("event", F_ANY), O("source", F_STR)}},
    {"CUSTOM", S_NONE, 0, NULL, 0, {R("name", F_STR), R("value", F_ANY)}},
    {"THINKING_START", S_NONE, 0, NULL, LEGACY, {O("title", F_STR)}},
    {"THINKING_END", S_NONE, 0, NULL, LEGACY, {{NULL, 0, false}}},
    {"THINKING_TEXT_MESSAGE_START", S_NONE, 0, NULL, LEGACY, {{NULL, 0, false}}},
    {"THINKING_TEXT_MESSAGE_CONTENT", S_NONE, 0, NULL, LEGACY, {R("delta", F_STR)}},
    {"THINKING_TEXT_MESSAGE_END", S_NONE, 0, NULL, LEGACY, {{NULL, 0, false}}},
};

#undef R
#undef O

const struct shape *an_agui_shape_find(const char *type)
{
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (!strcmp(shapes[i].type, type))
            return &shapes[i];
    return NULL;
}

/* ---- field checks ---- */

static bool known_part(const char *t)
{
    static const char *const parts[] = {"text",     "image",  "audio", "video",
                                        "document", "binary", NULL};
    for (size_t i = 0; t && parts[i]; i++)
        if (!strcmp(t, parts[i]))
            return true;
    return false;
}

/* Unknown content parts inside the snapshot's messages are dropped, the
 * list kept (agui.md 6.12). */
static int check_messages(struct an_agui_verify *v, json_t *msgs)
{
    size_t i;
    json_t *m;
    json_array_foreach(msgs, i, m)
    {
        if (!json_is_object(m) || !json_is_string(json_object_get(m, "role")))
            return an_agui_finding(v, "field-type",
                                   "'messages/%zu' is not a message with a string role", i);
        json_t *content = json_object_get(m, "content");
        if (!json_is_array(content))
            continue;
        for (size_t k = 0; k < json_array_size(content);) {
            json_t *part = json_array_get(content, k);
            if (known_part(an_json_str(part, "type"))) {
                k++;
                continue;
            }
            const char *pt = an_json_str(part, "type");
            if (an_agui_finding(v, "unknown-property",
                                "unknown content part '%.60s' at /messages/%zu/content/%zu "
                                "dropped",
                                pt ? pt : "?", i, k))
                return 1;
            json_array_remove(content, k);
        }
    }
    return 0;
}

static bool in_set(const char *s, const char *const *set)
{
    for (size_t i = 0; set[i]; i++)
        if (!strcmp(s, set[i]))
            return true;
    return false;
}

/* An operation with an op JSON Patch does not define is dropped, the rest
 * applied: the patch is an open list of open objects (agui.md 6.14). */
static int check_patch(struct an_agui_verify *v, const char *field, json_t *ops)
{
    static const char *const known[] = {"add", "remove", "replace", "move", "copy", "test", NULL};
    size_t orig = 0;
    for (size_t k = 0; k < json_array_size(ops); orig++) {
        json_t *o = json_array_get(ops, k);
        const char *op = an_json_str(o, "op");
        if (!json_is_object(o) || !an_json_str(o, "path") || !op)
            return an_agui_finding(v, "field-type",
                                   "'%s/%zu' is not an operation with string 'op' and 'path'",
                                   field, orig);
        if (in_set(op, known)) {
            k++;
            continue;
        }
        if (an_agui_finding(v, "unknown-property", "unknown patch op '%.40s' at /%s/%zu dropped",
                            op, field, orig))
            return 1;
        json_array_remove(ops, k);
    }
    return 0;
}

static int check_outcome(struct an_agui_verify *v, json_t *ev, json_t *o)
{
    if (!json_is_object(o))
        return an_agui_finding(v, "field-type", "'outcome': expected object, received %s",
                               an_json_type_name(o));
    const char *t = an_json_str(o, "type");
    if (!t)
        return an_agui_finding(v, "required-field", "'outcome' has no string 'type'");
    if (!strcmp(t, "success") || !strcmp(t, "cancelled")) {
        json_t *p = json_object_get(o, "pendingToolCallIds");
        if (p && !json_is_array(p))
            return an_agui_finding(v, "field-type",
                                   "'outcome.pendingToolCallIds': expected array, received %s",
                                   an_json_type_name(p));
        return 0;
    }
    if (!strcmp(t, "interrupt")) {
        json_t *is = json_object_get(o, "interrupts");
        if (!json_is_array(is))
            return an_agui_finding(v, "field-type",
                                   "'outcome.interrupts': expected array, received %s",
                                   is ? an_json_type_name(is) : "nothing");
        size_t i;
        json_t *it;
        json_array_foreach(is, i, it)
        {
            if (!an_json_str(it, "id") || !an_json_str(it, "reason"))
                return an_agui_finding(
                    v, "field-type", "'outcome.interrupts/%zu' needs string 'id' and 'reason'", i);
        }
        return 0;
    }
    if (an_agui_finding(v, "unknown-outcome", "unknown outcome type '%.60s' at /outcome dropped",
                        t))
        return 1;
    json_object_del(ev, "outcome");
    return 0;
}

static int check_field(struct an_agui_verify *v, json_t *ev, const struct field *f, json_t *x)
{
    static const char *const roles[] = {"developer", "system", "assistant", "user", NULL};
    const char *want = NULL;
    switch (f->kind) {
    case F_ANY:
        return 0;
    case F_STR:
        want = json_is_string(x) ? NULL : "string";
        break;
    case F_OBJ:
        want = json_is_object(x) ? NULL : "object";
        break;
    case F_ARR:
        want = json_is_array(x) ? NULL : "array";
        break;
    case F_BOOL:
        want = json_is_boolean(x) ? NULL : "boolean";
        break;
    case F_CODE:
        want = json_is_string(x) || json_is_number(x) ? NULL : "string";
        break;
    case F_CONTENT:
        want = json_is_string(x) || json_is_array(x) ? NULL : "string or array";
        break;
    case F_MESSAGES:
        if (!json_is_array(x))
            want = "array";
        else
            return check_messages(v, x);
        break;
    case F_OUTCOME:
        return check_outcome(v, ev, x);
    case F_PATCH:
        if (!json_is_array(x))
            want = "array";
        else
            return check_patch(v, f->name, x);
        break;
    case F_ROLE:
        if (!json_is_string(x))
            want = "string";
        else if (!in_set(json_string_value(x), roles))
            return an_agui_finding(
                v, "field-type",
                "'role' is \"%.60s\", expected one of \"developer\", \"system\", "
                "\"assistant\", \"user\"",
                json_string_value(x));
        break;
    case F_RROLE:
    case F_TROLE: {
        const char *lit = f->kind == F_RROLE ? "reasoning" : "tool";
        if (!json_is_string(x) || strcmp(json_string_value(x), lit))
            return an_agui_finding(v, "field-type", "'role' is %s%.60s%s, expected \"%s\"",
                                   json_is_string(x) ? "\"" : "",
                                   json_is_string(x) ? json_string_value(x) : an_json_type_name(x),
                                   json_is_string(x) ? "\"" : "", lit);
        break;
    }
    }
    if (want)
        return an_agui_finding(v, "field-type", "'%s': expected %s, received %s", f->name, want,
                               an_json_type_name(x));
    return 0;
}

/* Required fields, types, unknown properties (removed). Absent and null are
 * the same for optional fields ("absent means absent"; Python and .NET
 * producers send null), except metadata, where null is invalid. */
int an_agui_check_fields(struct an_agui_verify *v, const struct shape *sh, json_t *ev)
{
    /* The members the checks look at, found in one pass over the event (it
     * has a handful of members; a lookup by name per field costs more). Only
     * check_outcome removes a member (`outcome` itself), so the others stay
     * valid. Keys never hold a NUL: jansson refuses one in a key. */
    json_t *vals[MAXF] = {0}, *ts = NULL, *md = NULL, *sub = NULL;
    {
        const char *key;
        json_t *x;
        json_object_foreach(ev, key, x)
        {
            if (!strcmp(key, "timestamp"))
                ts = x;
            else if (!strcmp(key, "metadata"))
                md = x;
            else if (!strcmp(key, "subagentRunId"))
                sub = x;
            for (size_t i = 0; i < MAXF && sh->f[i].name; i++)
                if (!strcmp(key, sh->f[i].name)) {
                    vals[i] = x;
                    break;
                }
        }
    }
    for (const struct field *f = sh->f; f < sh->f + MAXF && f->name; f++) {
        json_t *x = vals[f - sh->f];
        if (!x || (json_is_null(x) && f->kind != F_ANY)) {
            if (f->required && an_agui_finding(v, "required-field", "missing '%s'", f->name))
                return 1;
            continue;
        }
        if (check_field(v, ev, f, x))
            return 1;
    }
    if (ts && !json_is_null(ts)) {
        const json_int_t max = ((json_int_t)1 << 53) - 1;
        if (!json_is_integer(ts) || json_integer_value(ts) > max || json_integer_value(ts) < -max)
            return an_agui_finding(
                v, "field-type", "'timestamp': expected integer (ms), received %s%s",
                an_json_type_name(ts), json_is_integer(ts) ? " out of range" : "");
    }
    if (md && !json_is_object(md))
        return an_agui_finding(v, "field-type", "'metadata': expected object, received %s",
                               an_json_type_name(md));
    if (!(sh->flags & NO_SUBAGENT) && sub && !json_is_null(sub) && !json_is_string(sub))
        return an_agui_finding(v, "field-type", "'subagentRunId': expected string, received %s",
                               an_json_type_name(sub));

    /* unknown properties: collected first, deleting while iterating is not safe
     */
    const char *drop[16];
    size_t ndrop = 0;
    const char *key;
    json_t *x;
    json_object_foreach(ev, key, x)
    {
        bool known = !strcmp(key, "type") || !strcmp(key, "timestamp") ||
                     !strcmp(key, "rawEvent") || !strcmp(key, "metadata") ||
                     (!(sh->flags & NO_SUBAGENT) && !strcmp(key, "subagentRunId"));
        for (const struct field *f = sh->f; !known && f < sh->f + MAXF && f->name; f++)
            known = !strcmp(key, f->name);
        if (!known && ndrop < sizeof drop / sizeof drop[0])
            drop[ndrop++] = key;
    }
    for (size_t i = 0; i < ndrop; i++)
        if (an_agui_finding(v, "unknown-property", "unknown property '/%.60s' dropped", drop[i]))
            return 1;
    for (size_t i = 0; i < ndrop; i++) {
        char k[128];
        snprintf(k, sizeof k, "%s", drop[i]); /* drop[i] dies with the member */
        json_object_del(ev, k);
    }
    return 0;
}
