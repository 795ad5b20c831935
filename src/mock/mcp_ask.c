/*
 * The official conformance kit's fixture tools that ask the client in the
 * middle of a tools/call (scenarios tools-call-sampling,
 * tools-call-elicitation, elicitation-sep1034-defaults and
 * elicitation-sep1330-enums): the request each sends the client, and the
 * result it builds from the answer. The transports do the asking (over
 * stdio a line each way; over HTTP the request on the call's SSE stream,
 * the answer in a POST of its own); each MCP_FAULT_MAP row that names one
 * of these tools breaks its request here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "mcp_server.h"

bool mcp_ask_is(enum mcp_tool t)
{
    return t == MCP_T_KIT_SAMPLING || t == MCP_T_KIT_ELICIT || t == MCP_T_KIT_ELICIT_DEFAULTS ||
           t == MCP_T_KIT_ELICIT_ENUMS;
}

/* {"const": v, "title": t} for each pair of `ct` (NULL-ended). */
static json_t *titled(const char *const *ct)
{
    json_t *a = json_array();
    for (; *ct; ct += 2)
        json_array_append_new(a, json_pack("{s:s,s:s}", "const", ct[0], "title", ct[1]));
    return a;
}

/* SEP-1034: a default for every primitive type (none with the fault). */
static json_t *defaults_schema(const struct mcp_server_opts *o)
{
    json_t *p = json_pack("{s:{s:s,s:s},s:{s:s,s:s},s:{s:s,s:s},s:{s:s,s:[s,s,s]},s:{s:s,s:s}}",
                          "name", "type", "string", "description", "Your name", "age", "type",
                          "integer", "description", "Your age", "score", "type", "number",
                          "description", "Your score", "status", "type", "string", "enum", "active",
                          "inactive", "pending", "verified", "type", "boolean", "description",
                          "Whether you are verified");
    if (o->fault != MCP_F_ELICIT_NO_DEFAULTS) {
        json_object_set_new(json_object_get(p, "name"), "default", json_string("John Doe"));
        json_object_set_new(json_object_get(p, "age"), "default", json_integer(30));
        json_object_set_new(json_object_get(p, "score"), "default", json_real(95.5));
        json_object_set_new(json_object_get(p, "status"), "default", json_string("active"));
        json_object_set_new(json_object_get(p, "verified"), "default", json_true());
    }
    return json_pack("{s:s,s:o}", "type", "object", "properties", p);
}

/* SEP-1330: the five enum forms (the titled ones as plain enums with the
 * fault). */
static json_t *enums_schema(const struct mcp_server_opts *o)
{
    static const char *const single[] = {"value1", "First Option", "value2", "Second Option",
                                         "value3", "Third Option", NULL};
    static const char *const multi[] = {"value1", "First Choice", "value2", "Second Choice",
                                        "value3", "Third Choice", NULL};
    bool plain = o->fault == MCP_F_ELICIT_ENUM_UNTITLED;
    json_t *p =
        json_pack("{s:{s:s,s:[s,s,s]},s:{s:s,s:[s,s,s],s:[s,s,s]},s:{s:s,s:{s:s,s:[s,s,s]}}}",
                  "untitledSingle", "type", "string", "enum", "option1", "option2", "option3",
                  "legacyEnum", "type", "string", "enum", "opt1", "opt2", "opt3", "enumNames",
                  "Option One", "Option Two", "Option Three", "untitledMulti", "type", "array",
                  "items", "type", "string", "enum", "option1", "option2", "option3");
    json_object_set_new(
        p, "titledSingle",
        plain ? json_pack("{s:s,s:[s,s,s]}", "type", "string", "enum", "value1", "value2", "value3")
              : json_pack("{s:s,s:o}", "type", "string", "oneOf", titled(single)));
    json_object_set_new(
        p, "titledMulti",
        plain ? json_pack("{s:s,s:{s:s,s:[s,s,s]}}", "type", "array", "items", "type", "string",
                          "enum", "value1", "value2", "value3")
              : json_pack("{s:s,s:{s:o}}", "type", "array", "items", "anyOf", titled(multi)));
    return json_pack("{s:s,s:o}", "type", "object", "properties", p);
}

json_t *mcp_ask_request(const struct mcp_server_opts *o, enum mcp_tool t, const json_t *params,
                        const char *id)
{
    const json_t *args = json_object_get(params, "arguments");
    json_t *p;
    const char *method = "elicitation/create";
    if (t == MCP_T_KIT_SAMPLING) {
        const char *prompt = an_json_str(args, "prompt");
        method = "sampling/createMessage";
        p = json_pack("{s:[{s:s,s:{s:s,s:s}}]}", "messages", "role", "user", "content", "type",
                      "text", "text", prompt ? prompt : "");
        if (o->fault != MCP_F_SAMPLING_NO_MAX_TOKENS)
            json_object_set_new(p, "maxTokens", json_integer(100));
    } else if (t == MCP_T_KIT_ELICIT) {
        const char *message = an_json_str(args, "message");
        p = json_pack("{s:s}", "message", message ? message : "Please provide your information");
        if (o->fault != MCP_F_ELICIT_NO_SCHEMA)
            json_object_set_new(p, "requestedSchema",
                                json_pack("{s:s,s:{s:{s:s,s:s},s:{s:s,s:s}},s:[s,s]}", "type",
                                          "object", "properties", "username", "type", "string",
                                          "description", "User's response", "email", "type",
                                          "string", "description", "User's email address",
                                          "required", "username", "email"));
    } else if (t == MCP_T_KIT_ELICIT_DEFAULTS) {
        p = json_pack("{s:s,s:o}", "message", "Please review and update the form fields",
                      "requestedSchema", defaults_schema(o));
    } else {
        p = json_pack("{s:s,s:o}", "message", "Please select options from the enum fields",
                      "requestedSchema", enums_schema(o));
    }
    return json_pack("{s:s,s:s,s:s,s:o}", "jsonrpc", "2.0", "id", id, "method", method, "params",
                     p);
}

json_t *mcp_ask_result(enum mcp_tool t, const json_t *response)
{
    const json_t *res = json_object_get(response, "result");
    const json_t *er = json_object_get(response, "error");
    struct an_buf b = AN_BUF_INIT;
    if (!json_is_object(res)) {
        char *e = an_json_compact(er);
        an_buf_printf(&b, "%s failed: the client answered %s", mcp_tool_name(t),
                      e ? e : "no result");
        free(e);
    } else if (t == MCP_T_KIT_SAMPLING) {
        const char *text = an_json_str(json_object_get(res, "content"), "text");
        an_buf_printf(&b, "LLM response: %s", text ? text : "");
    } else {
        const char *action = an_json_str(res, "action");
        const json_t *c = json_object_get(res, "content"); /* none when declined */
        json_t *none = json_object();
        char *content = an_json_compact(c ? c : none);
        json_decref(none);
        an_buf_printf(&b, "%s action=%s, content=%s",
                      t == MCP_T_KIT_ELICIT ? "User response:" : "Elicitation completed:",
                      action ? action : "", content);
        free(content);
    }
    json_t *r = json_pack("{s:[{s:s,s:s}]}", "content", "type", "text", "text", an_buf_cstr(&b));
    if (!json_is_object(res))
        json_object_set_new(r, "isError", json_true());
    an_buf_release(&b);
    return r;
}
