/* The protocols' named things, as data (spec_names.h). */
#include "core/spec_names.h"

#include <string.h>
#include <strings.h>

/* ---- AG-UI stream rules ---- */

const struct an_agui_rule an_agui_rules[] = {
    {"first-event", AN_AGUI_MUST, "the first event is RUN_STARTED or RUN_ERROR"},
    {"nested-run-started", AN_AGUI_MUST, "no RUN_STARTED while a run is active"},
    {"after-run-finished", AN_AGUI_MUST,
     "after RUN_FINISHED only RUN_STARTED (a new run) or RUN_ERROR (a late "
     "failure)"},
    {"nothing-after-run-error", AN_AGUI_MUST, "after RUN_ERROR only RUN_STARTED (a new run)"},
    {"run-id-echo", AN_AGUI_MUST, "RUN_FINISHED names the runId of its RUN_STARTED"},
    {"thread-id-echo", AN_AGUI_MUST,
     "RUN_STARTED and RUN_FINISHED carry the threadId of the request"},
    {"open-before-use", AN_AGUI_MUST,
     "content, args and END of messages, tool calls and reasoning, "
     "STEP_FINISHED and "
     "SUBAGENT_FINISHED/ERROR name something opened and still open"},
    {"already-open", AN_AGUI_MUST,
     "a START does not reopen an id that is still open; a subagent id is not "
     "reused in a run"},
    {"closed-before-finish", AN_AGUI_MUST,
     "every message, tool call, reasoning message or span, step and subagent "
     "is closed before "
     "RUN_FINISHED"},
    {"chunk-first-needs-id", AN_AGUI_MUST,
     "the first chunk of a stream carries its id (and, for TOOL_CALL_CHUNK, "
     "toolCallName)"},
    {"chunk-conflict", AN_AGUI_MUST,
     "a continuation chunk repeats role, name, toolCallName or parentMessageId "
     "only with the "
     "opener's value"},
    {"subagent-attribution", AN_AGUI_MUST,
     "a continuation's subagentRunId is the one its opener carried"},
    {"required-field", AN_AGUI_MUST, "every required field of a known event is present"},
    {"field-type", AN_AGUI_MUST,
     "known fields have their types: strings, integer timestamps, object "
     "metadata, known "
     "roles, outcome shapes"},
    {"unknown-event", AN_AGUI_SHOULD, "an unknown event type is dropped with a warning"},
    {"unknown-property", AN_AGUI_SHOULD,
     "an unknown property (or content part) is dropped with a warning"},
    {"unknown-outcome", AN_AGUI_SHOULD,
     "an unknown RUN_FINISHED outcome type is dropped with a warning (read as "
     "success)"},
    {"deprecated-event", AN_AGUI_SHOULD, "THINKING_* events (0.0.x) are accepted with a warning"},
    {"protocol-version", AN_AGUI_SHOULD,
     "a producer declaring a newer or uninterpretable protocolVersion is "
     "served with a warning"},
};
const size_t an_agui_nrules = sizeof an_agui_rules / sizeof an_agui_rules[0];

const struct an_agui_rule *an_agui_rule_find(const char *id)
{
    for (size_t i = 0; i < an_agui_nrules; i++)
        if (!strcmp(an_agui_rules[i].id, id))
            return &an_agui_rules[i];
    return NULL;
}

/* ---- A2A task states ---- */

static const char *const states[] = {"submitted", "working", "input-required", "auth-required",
                                     "completed", "failed",  "canceled",       "rejected",
                                     "unknown",   NULL};

const char *an_a2a_state(const char *s)
{
    if (!s)
        return NULL;
    if (!strncmp(s, "TASK_STATE_", 11))
        s += 11;
    if (!strcasecmp(s, "UNSPECIFIED"))
        return "unknown";
    if (!strcasecmp(s, "cancelled"))
        return "canceled";
    for (size_t i = 0; states[i]; i++) {
        const char *a = states[i], *b = s;
        while (*a && *b &&
               (*a == *b || (*a == '-' && *b == '_') ||
                (*a >= 'a' && *a <= 'z' && *b == *a - 'a' + 'A'))) {
            a++;
            b++;
        }
        if (!*a && !*b)
            return states[i];
    }
    return NULL;
}

bool an_a2a_state_terminal(const char *s)
{
    return s && (!strcmp(s, "completed") || !strcmp(s, "failed") || !strcmp(s, "canceled") ||
                 !strcmp(s, "rejected"));
}

bool an_a2a_state_interrupted(const char *s)
{
    return s && (!strcmp(s, "input-required") || !strcmp(s, "auth-required"));
}

/* ---- MCP versions ---- */

const char *const an_mcp_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05",
                                       NULL};

bool an_mcp_version_known(const char *v)
{
    for (size_t i = 0; v && an_mcp_versions[i]; i++)
        if (!strcmp(v, an_mcp_versions[i]))
            return true;
    return false;
}
