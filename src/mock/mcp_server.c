#include "mcp_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/json.h"

#define LATEST_VERSION "2025-11-25"
#define PAGE_ONE 3 /* tools on the first page of tools/list */

static const char *const versions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

static const struct {
    const char *name, *desc;
} tool_table[] = {
#define MCP_X(e, name, desc) {name, desc},
    MCP_TOOL_MAP(MCP_X) MCP_KIT_TOOL_MAP(MCP_X) MCP_ASK_TOOL_MAP(MCP_X)
        MCP_STATELESS_TOOL_MAP(MCP_X)
#undef MCP_X
};

static const struct {
    const char *name, *desc;
} fault_table[] = {{NULL, NULL},
#define MCP_X(e, name, desc) {name, desc},
                   MCP_FAULT_MAP(MCP_X)
#undef MCP_X
};

const char *mcp_fault_name(unsigned f)
{
    return f > 0 && f < MCP_F_COUNT ? fault_table[f].name : NULL;
}

const char *mcp_fault_desc(unsigned f)
{
    return f > 0 && f < MCP_F_COUNT ? fault_table[f].desc : NULL;
}

enum mcp_fault mcp_fault_parse(const char *name)
{
    for (unsigned f = 1; f < MCP_F_COUNT; f++)
        if (!strcmp(fault_table[f].name, name))
            return (enum mcp_fault)f;
    return MCP_F_NONE;
}

const char *mcp_tool_name(unsigned i)
{
    return i < MCP_T_COUNT ? tool_table[i].name : NULL;
}

const char *mcp_tool_desc(unsigned i)
{
    return i < MCP_T_COUNT ? tool_table[i].desc : NULL;
}

static json_t *result(const json_t *id, json_t *res)
{
    return json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result", res);
}

static json_t *error(const json_t *id, int code, const char *message)
{
    return json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", id, "error", "code", code,
                     "message", message);
}

static json_t *text_result(const char *text, bool is_error)
{
    json_t *r = json_pack("{s:[{s:s,s:s}]}", "content", "type", "text", "text", text);
    if (is_error)
        json_object_set_new(r, "isError", json_true());
    return r;
}

static json_t *do_initialize(const struct mcp_server_opts *o, const json_t *params)
{
    const char *asked = an_json_str(params, "protocolVersion");
    const char *v = LATEST_VERSION;
    for (size_t i = 0; asked && i < sizeof versions / sizeof versions[0]; i++)
        if (!strcmp(asked, versions[i]))
            v = versions[i];
    if (o->version)
        v = o->version;
    return json_pack("{s:s,s:{s:{},s:{s:b},s:{},s:{},s:{}},s:{s:s,s:s}}", "protocolVersion", v,
                     "capabilities", "tools", "resources", "subscribe", 1, "prompts", "logging",
                     "completions", "serverInfo", "name", "ananke-mock", "version", ANANKE_VERSION);
}

static json_t *do_tools_list(const json_t *params)
{
    const char *cursor = an_json_str(params, "cursor");
    bool second = cursor && !strcmp(cursor, "page2");
    json_t *tools = json_array();
    for (unsigned i = second ? PAGE_ONE : 0; i < (second ? MCP_T_COUNT : PAGE_ONE); i++)
        json_array_append_new(tools, json_pack("{s:s,s:s,s:{s:s}}", "name", tool_table[i].name,
                                               "description", tool_table[i].desc, "inputSchema",
                                               "type", "object"));
    json_t *r = json_pack("{s:o}", "tools", tools);
    if (!second)
        json_object_set_new(r, "nextCursor", json_string("page2"));
    return r;
}

static json_t *tool_answer(const struct mcp_server_opts *o, const json_t *id, enum mcp_tool t,
                           const char *name, const json_t *args)
{
    char buf[512];
    switch (t) {
    case MCP_T_ADD: {
        const json_t *a = json_object_get(args, "a"), *b = json_object_get(args, "b");
        if (!json_is_number(a) || !json_is_number(b))
            return result(id, text_result("add needs numbers 'a' and 'b'", true));
        snprintf(buf, sizeof buf, "%.17g", json_number_value(a) + json_number_value(b));
        return result(id, text_result(buf, false));
    }
    case MCP_T_RPC_ERROR:
        return error(id, -32602, "Invalid params: rpc_error always fails");
    case MCP_T_IS_ERROR:
        return result(id, text_result("the tool failed on purpose", true));
    case MCP_T_HTTP_500:
        return error(id, -32603, "Internal error: http_500 over stdio");
    case MCP_T_ASK:
        if (o->http)
            return result(id, text_result("ask needs the stdio transport", true));
        break;
    case MCP_T_WRONG_ID: {
        json_t *other = json_is_integer(id) ? json_integer(json_integer_value(id) + 1000)
                                            : json_string("wrong-id");
        const char *m = an_json_str(args, "message");
        snprintf(buf, sizeof buf, "echo: %.400s", m ? m : "");
        json_t *r = result(other, text_result(buf, false));
        json_decref(other);
        return r;
    }
    case MCP_T_ECHO: /* the input schema wants a string message */
        if (json_object_get(args, "message") && !an_json_str(args, "message"))
            return result(id, text_result("echo needs a string 'message'", true));
        break;
    case MCP_T_COUNT:
        snprintf(buf, sizeof buf, "unknown tool %.200s", name);
        return result(id, text_result(buf, true));
    default:
        break;
    }
    const char *m = an_json_str(args, "message");
    snprintf(buf, sizeof buf, "echo: %.400s", m ? m : "");
    return result(id, text_result(buf, false));
}

static enum mcp_tool do_tools_call(const struct mcp_server_opts *o, const json_t *id,
                                   const json_t *params, json_t *notes, json_t **reply)
{
    const char *name = an_json_str(params, "name");
    const json_t *args = json_object_get(params, "arguments");
    char buf[300];
    if (!name) {
        *reply = error(id, -32602, "Invalid params: tools/call needs a 'name'");
        return MCP_T_NONE;
    }
    unsigned t = 0;
    while (t < MCP_T_COUNT && strcmp(tool_table[t].name, name))
        t++;
    if (t < MCP_T_COUNT && o->forced != MCP_T_NONE)
        t = o->forced;
    if (mcp_ask_is((enum mcp_tool)t)) { /* the transport asks the client */
        snprintf(buf, sizeof buf, "%.200s needs a client that answers its request", name);
        *reply = result(id, text_result(buf, true));
        return (enum mcp_tool)t;
    }
    if (mcp_stateless_is((enum mcp_tool)t)) {
        *reply = mcp_stateless_call(o, (enum mcp_tool)t, id, params, notes);
        return MCP_T_NONE;
    }
    if (t >= MCP_T_KIT_TEXT && t < MCP_T_COUNT) {
        *reply = result(id, mcp_kit_tool(o, (enum mcp_tool)t, params, notes));
        return MCP_T_NONE;
    }
    *reply = tool_answer(o, id, (enum mcp_tool)t, name, args);
    return t < MCP_T_COUNT ? (enum mcp_tool)t : MCP_T_NONE;
}

static json_t *do_resources_read(const struct mcp_server_opts *o, const json_t *id,
                                 const json_t *params)
{
    const char *uri = an_json_str(params, "uri");
    json_t *kit = uri ? mcp_kit_read(o, uri) : NULL;
    if (kit)
        return result(id, kit);
    if (!uri || strcmp(uri, "mock://greeting"))
        return error(id, -32002, "Resource not found");
    return result(id, json_pack("{s:[{s:s,s:s,s:s}]}", "contents", "uri", uri, "mimeType",
                                "text/plain", "text", "hello from ananke-mock"));
}

static json_t *do_prompts_get(const struct mcp_server_opts *o, const json_t *id,
                              const json_t *params)
{
    const char *name = an_json_str(params, "name");
    json_t *kit = name ? mcp_kit_prompt(o, name, json_object_get(params, "arguments")) : NULL;
    if (kit)
        return result(id, kit);
    if (!name || strcmp(name, "greet"))
        return error(id, -32602, "Invalid params: unknown prompt");
    const char *who = an_json_str(json_object_get(params, "arguments"), "name");
    char text[300];
    snprintf(text, sizeof text, "Say hello to %.200s.", who ? who : "the world");
    return result(id, json_pack("{s:[{s:s,s:{s:s,s:s}}]}", "messages", "role", "user", "content",
                                "type", "text", "text", text));
}

/* The lists: the mock's own entries first, then the kit's. */
static json_t *do_list(const char *method)
{
    json_t *res = json_pack("[{s:s,s:s,s:s}]", "uri", "mock://greeting", "name", "greeting",
                            "mimeType", "text/plain");
    json_t *tpl =
        json_pack("[{s:s,s:s}]", "uriTemplate", "mock://greeting/{name}", "name", "greeting");
    json_t *pr = json_pack("[{s:s,s:s,s:[{s:s,s:b}]}]", "name", "greet", "description",
                           "a greeting", "arguments", "name", "name", "required", 0);
    mcp_kit_list(res, tpl, pr);
    json_t *r = !strcmp(method, "resources/list") ? json_pack("{s:O}", "resources", res)
                : !strcmp(method, "prompts/list") ? json_pack("{s:O}", "prompts", pr)
                                                  : json_pack("{s:O}", "resourceTemplates", tpl);
    json_decref(res);
    json_decref(tpl);
    json_decref(pr);
    return r;
}

/* The methods with a fixed answer (a fault may break it): NULL for others. */
static json_t *do_simple(const struct mcp_server_opts *o, const char *method, const json_t *id)
{
    if (!strcmp(method, "ping"))
        return result(id, o->fault == MCP_F_PING_NOT_EMPTY ? json_pack("{s:b}", "pong", 1)
                                                           : json_object());
    if (!strcmp(method, "completion/complete"))
        return result(id, o->fault == MCP_F_COMPLETION_NO_VALUES
                              ? json_pack("{s:{s:i}}", "completion", "total", 0)
                              : json_pack("{s:{s:[s],s:i,s:b}}", "completion", "values", "test",
                                          "total", 1, "hasMore", 0));
    static const struct {
        const char *method;
        enum mcp_fault refused_by;
    } empty[] = {{"logging/setLevel", MCP_F_LOG_LEVEL_REFUSED},
                 {"resources/subscribe", MCP_F_SUBSCRIBE_REFUSED},
                 {"resources/unsubscribe", MCP_F_UNSUBSCRIBE_REFUSED}};
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++)
        if (!strcmp(method, empty[i].method))
            return o->fault == empty[i].refused_by ? error(id, -32601, "Method not found")
                                                   : result(id, json_object());
    if (!strcmp(method, "resources/list") || !strcmp(method, "prompts/list") ||
        !strcmp(method, "resources/templates/list"))
        return result(id, do_list(method));
    return NULL;
}

enum mcp_tool mcp_server_answer(const struct mcp_server_opts *o, const json_t *msg, json_t *notes,
                                json_t **reply)
{
    const json_t *id = json_object_get(msg, "id");
    const char *method = an_json_str(msg, "method");
    const json_t *params = json_object_get(msg, "params");
    *reply = NULL;
    if (!method || !id) /* a response or a notification: nothing to answer */
        return MCP_T_NONE;
    if (!strcmp(method, "initialize"))
        *reply = result(id, do_initialize(o, params));
    else if (!strcmp(method, "tools/list"))
        *reply = result(id, do_tools_list(params));
    else if (!strcmp(method, "tools/call"))
        return do_tools_call(o, id, params, notes, reply);
    else if (!strcmp(method, "resources/read"))
        *reply = do_resources_read(o, id, params);
    else if (!strcmp(method, "prompts/get"))
        *reply = do_prompts_get(o, id, params);
    else if (!(*reply = do_simple(o, method, id)))
        *reply = error(id, -32601, "Method not found");
    return MCP_T_NONE;
}

char *mcp_huge_frame(const json_t *id, size_t size, size_t *len)
{
    char *ids = an_json_compact(id);
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b,
                  "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":"
                  "\"text\",\"text\":\"",
                  ids);
    char block[4096];
    memset(block, 'x', sizeof block);
    for (size_t left = size; left > 0;) {
        size_t n = left < sizeof block ? left : sizeof block;
        an_buf_append(&b, block, n);
        left -= n;
    }
    an_buf_puts(&b, "\"}]}}");
    free(ids);
    return an_buf_detach(&b, len);
}

char *mcp_garbage_frame(const json_t *id)
{
    char *ids = an_json_compact(id);
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{", ids);
    free(ids);
    return an_buf_detach(&b, NULL);
}

void mcp_stderr_flood(size_t total)
{
    static const char line[] = "ananke-mock mcp: stderr flood, a line of log noise that nobody "
                               "reads ..........................................\n";
    for (size_t sent = 0; sent < total; sent += sizeof line - 1)
        if (write(STDERR_FILENO, line, sizeof line - 1) < 0)
            return;
}
