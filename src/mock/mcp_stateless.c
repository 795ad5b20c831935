/*
 * The official kit's diagnostic tools of MCP 2026-07-28's server-stateless
 * scenario (MCP_STATELESS_TOOL_MAP), as its checks use them:
 *  - test_missing_capability needs the client's sampling capability: a
 *    request whose _meta clientCapabilities lack it is -32021
 *    MissingRequiredClientCapabilityError, error.data.requiredCapabilities
 *    {"sampling": {}} (HTTP 400: mcp_modern.c);
 *  - test_trigger_tool_change / test_trigger_prompt_change change a list:
 *    the open subscriptions/listen streams that asked hear of it
 *    (mcp_listen.h);
 *  - test_logging_tool logs (notifications/message) only to a request
 *    whose _meta names io.modelcontextprotocol/logLevel;
 *  - test_streaming_elicitation asks elicitation the 2026-07-28 way: an
 *    input_required result, never a request of its own on the stream;
 *    retried with its inputResponses, it completes.
 */
#include <string.h>

#include "core/json.h"
#include "mcp_listen.h"
#include "mcp_server.h"

#define META_CAPS "io.modelcontextprotocol/clientCapabilities"
#define META_LOG_LEVEL "io.modelcontextprotocol/logLevel"

bool mcp_stateless_is(enum mcp_tool t)
{
    return t >= MCP_T_KIT_MISSING_CAP && t <= MCP_T_KIT_STREAM_ELICIT;
}

static json_t *text(const json_t *id, const char *s)
{
    return json_pack("{s:s,s:O,s:{s:[{s:s,s:s}]}}", "jsonrpc", "2.0", "id", id, "result", "content",
                     "type", "text", "text", s);
}

static json_t *elicit_request(void)
{
    return json_pack("{s:s,s:{s:s,s:{s:s,s:{s:{s:s}},s:[s]}}}", "method", "elicitation/create",
                     "params", "message", "What is your name?", "requestedSchema", "type", "object",
                     "properties", "name", "type", "string", "required", "name");
}

json_t *mcp_stateless_call(const struct mcp_server_opts *o, enum mcp_tool t, const json_t *id,
                           const json_t *params, json_t *notes)
{
    const json_t *meta = json_object_get(params, "_meta");
    switch (t) {
    case MCP_T_KIT_MISSING_CAP:
        if (!json_object_get(json_object_get(meta, META_CAPS), "sampling") &&
            o->fault != MCP_F_CAPABILITY_UNCHECKED)
            return json_pack("{s:s,s:O,s:{s:i,s:s,s:{s:{s:{}}}}}", "jsonrpc", "2.0", "id", id,
                             "error", "code", -32021, "message",
                             "MissingRequiredClientCapabilityError: this tool needs sampling",
                             "data", "requiredCapabilities", "sampling");
        return text(id, "the client declared sampling");
    case MCP_T_KIT_TOOL_CHANGE:
        mcp_hub_publish(o->hub, o, MCP_CHANGE_TOOLS);
        return text(id, "the tool list changed");
    case MCP_T_KIT_PROMPT_CHANGE:
        mcp_hub_publish(o->hub, o, MCP_CHANGE_PROMPTS);
        return text(id, "the prompt list changed");
    case MCP_T_KIT_LOG_LEVEL:
        if (an_json_str(meta, META_LOG_LEVEL) || o->fault == MCP_F_LOG_WITHOUT_LEVEL)
            json_array_append_new(notes, json_pack("{s:s,s:s,s:{s:s,s:s}}", "jsonrpc", "2.0",
                                                   "method", "notifications/message", "params",
                                                   "level", "info", "data", "a log line"));
        return text(id, "logged only if asked");
    case MCP_T_KIT_STREAM_ELICIT: {
        const json_t *got = json_object_get(json_object_get(params, "inputResponses"), "name");
        if (json_is_object(got))
            return text(id, "elicitation answered");
        if (o->fault == MCP_F_REQUEST_ON_STREAM) {
            json_t *req = elicit_request();
            json_object_set_new(req, "jsonrpc", json_string("2.0"));
            json_object_set_new(req, "id", json_string("elicit-1"));
            json_array_append_new(notes, req);
        }
        return json_pack("{s:s,s:O,s:{s:s,s:{s:o}}}", "jsonrpc", "2.0", "id", id, "result",
                         "resultType", "input_required", "inputRequests", "name", elicit_request());
    }
    default:
        return text(id, "not a diagnostic tool");
    }
}
