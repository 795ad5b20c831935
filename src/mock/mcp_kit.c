/*
 * The fixtures of the official MCP conformance kit's server, as its
 * scenarios describe them (npm @modelcontextprotocol/conformance: tools
 * test_simple_text ..., resources test://static-text ..., prompts
 * test_simple_prompt ...), so that the kit and ananke's tests citing its
 * scenarios run on ananke-mock mcp; each MCP_FAULT_MAP row that names a
 * fixture breaks it here.
 */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "mcp_server.h"

/* A 1x1 red PNG and a 44-byte silent WAV header, base64. */
#define PNG_B64                                                                                    \
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJg" \
    "gg=="
#define WAV_B64 "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA="

static bool broken(const struct mcp_server_opts *o, enum mcp_fault f)
{
    return o->fault == f;
}

static json_t *text_block(const char *text)
{
    return json_pack("{s:s,s:s}", "type", "text", "text", text);
}

static json_t *image_block(const struct mcp_server_opts *o)
{
    json_t *b = json_pack("{s:s,s:s}", "type", "image", "data", PNG_B64);
    if (!broken(o, MCP_F_IMAGE_NO_MIME))
        json_object_set_new(b, "mimeType", json_string("image/png"));
    return b;
}

static json_t *resource_block(const struct mcp_server_opts *o)
{
    if (broken(o, MCP_F_EMBEDDED_NO_RESOURCE))
        return json_pack("{s:s}", "type", "resource");
    return json_pack("{s:s,s:{s:s,s:s,s:s}}", "type", "resource", "resource", "uri",
                     "test://embedded-resource", "mimeType", "text/plain", "text",
                     "This is an embedded resource content.");
}

static json_t *notification(const char *method, json_t *params)
{
    return json_pack("{s:s,s:s,s:o}", "jsonrpc", "2.0", "method", method, "params", params);
}

json_t *mcp_kit_tool(const struct mcp_server_opts *o, enum mcp_tool t, const json_t *params,
                     json_t *notes)
{
    json_t *content = json_array();
    bool is_error = false;
    switch (t) {
    case MCP_T_KIT_TEXT:
        if (!broken(o, MCP_F_TEXT_EMPTY))
            json_array_append_new(content,
                                  text_block("This is a simple text response for testing."));
        break;
    case MCP_T_KIT_IMAGE:
        json_array_append_new(content, image_block(o));
        break;
    case MCP_T_KIT_AUDIO: {
        json_t *b = json_pack("{s:s,s:s}", "type", "audio", "mimeType", "audio/wav");
        if (!broken(o, MCP_F_AUDIO_NO_DATA))
            json_object_set_new(b, "data", json_string(WAV_B64));
        json_array_append_new(content, b);
        break;
    }
    case MCP_T_KIT_EMBEDDED:
        json_array_append_new(content, resource_block(o));
        break;
    case MCP_T_KIT_MIXED:
        json_array_append_new(content, text_block("Multiple content types test:"));
        if (!broken(o, MCP_F_MIXED_TEXT_ONLY)) {
            json_array_append_new(content, image_block(o));
            json_array_append_new(content, resource_block(o));
        }
        break;
    case MCP_T_KIT_LOGGING:
        for (int i = 0; i < 3 && !broken(o, MCP_F_NO_LOG); i++) {
            static const char *const said[] = {"Tool execution started", "Tool processing data",
                                               "Tool execution completed"};
            json_array_append_new(
                notes, notification("notifications/message",
                                    json_pack("{s:s,s:s}", "level", "info", "data", said[i])));
        }
        json_array_append_new(content, text_block("Tool with logging executed successfully"));
        break;
    case MCP_T_KIT_ERROR:
        is_error = !broken(o, MCP_F_ERROR_NOT_FLAGGED);
        json_array_append_new(content, text_block("This tool intentionally returns an error for "
                                                  "testing"));
        break;
    case MCP_T_KIT_PROGRESS: {
        const json_t *token = json_object_get(json_object_get(params, "_meta"), "progressToken");
        for (int i = 0; token && i < (broken(o, MCP_F_NO_PROGRESS) ? 1 : 3); i++)
            json_array_append_new(notes,
                                  notification("notifications/progress",
                                               json_pack("{s:O,s:i,s:i}", "progressToken", token,
                                                         "progress", i * 50, "total", 100)));
        json_array_append_new(content, text_block("Progress test completed"));
        break;
    }
    default:
        break;
    }
    json_t *r = json_pack("{s:o}", "content", content);
    if (is_error)
        json_object_set_new(r, "isError", json_true());
    return r;
}

json_t *mcp_kit_read(const struct mcp_server_opts *o, const char *uri)
{
    json_t *c = NULL;
    if (!strcmp(uri, "test://static-text")) {
        c = json_pack("{s:s,s:s}", "uri", uri, "text",
                      "This is the content of the static text "
                      "resource.");
        if (!broken(o, MCP_F_TEXT_NO_MIME))
            json_object_set_new(c, "mimeType", json_string("text/plain"));
    } else if (!strcmp(uri, "test://static-binary")) {
        c = broken(o, MCP_F_BINARY_AS_TEXT)
                ? json_pack("{s:s,s:s,s:s}", "uri", uri, "mimeType", "image/png", "text", "binary")
                : json_pack("{s:s,s:s,s:s}", "uri", uri, "mimeType", "image/png", "blob", PNG_B64);
    } else if (!strcmp(uri, "test://watched-resource")) {
        c = json_pack("{s:s,s:s,s:s}", "uri", uri, "mimeType", "text/plain", "text", "watched");
    } else if (!strncmp(uri, "test://template/", 16) && strlen(uri) > 21 &&
               !strcmp(uri + strlen(uri) - 5, "/data")) {
        char text[300];
        int idlen = (int)(strlen(uri) - 21);
        if (broken(o, MCP_F_TEMPLATE_LITERAL))
            snprintf(text, sizeof text, "Data for the template test://template/{id}/data");
        else
            snprintf(text, sizeof text, "{\"id\":\"%.*s\",\"templateTest\":true}",
                     idlen > 200 ? 200 : idlen, uri + 16);
        c = json_pack("{s:s,s:s,s:s}", "uri", uri, "mimeType", "application/json", "text", text);
    } else {
        return NULL;
    }
    return json_pack("{s:[o]}", "contents", c);
}

static json_t *user_message(json_t *content, const struct mcp_server_opts *o)
{
    if (broken(o, MCP_F_PROMPT_NO_ROLE))
        return json_pack("{s:o}", "content", content);
    return json_pack("{s:s,s:o}", "role", "user", "content", content);
}

json_t *mcp_kit_prompt(const struct mcp_server_opts *o, const char *name, const json_t *args)
{
    json_t *content;
    if (!strcmp(name, "test_simple_prompt")) {
        content = text_block("This is a simple prompt for testing.");
    } else if (!strcmp(name, "test_prompt_with_arguments")) {
        const char *a1 = an_json_str(args, "arg1"), *a2 = an_json_str(args, "arg2");
        char text[600];
        if (broken(o, MCP_F_PROMPT_ARGS_IGNORED) || !a1 || !a2)
            snprintf(text, sizeof text, "Prompt with arguments: arg1, arg2");
        else
            snprintf(text, sizeof text, "Prompt with arguments: arg1='%.250s', arg2='%.250s'", a1,
                     a2);
        content = text_block(text);
    } else if (!strcmp(name, "test_prompt_with_embedded_resource")) {
        const char *uri = an_json_str(args, "resourceUri");
        content = broken(o, MCP_F_PROMPT_NO_RESOURCE)
                      ? text_block("Here is the resource (not embedded).")
                      : json_pack("{s:s,s:{s:s,s:s,s:s}}", "type", "resource", "resource", "uri",
                                  uri ? uri : "test://example-resource", "mimeType", "text/plain",
                                  "text", "Embedded resource content for testing.");
    } else if (!strcmp(name, "test_prompt_with_image")) {
        content = broken(o, MCP_F_PROMPT_NO_IMAGE)
                      ? json_pack("{s:s,s:s}", "type", "image", "mimeType", "image/png")
                      : json_pack("{s:s,s:s,s:s}", "type", "image", "data", PNG_B64, "mimeType",
                                  "image/png");
    } else {
        return NULL;
    }
    return json_pack("{s:[o]}", "messages", user_message(content, o));
}

void mcp_kit_list(json_t *resources, json_t *templates, json_t *prompts)
{
    static const char *const uris[][3] = {
        {"test://static-text", "static-text", "text/plain"},
        {"test://static-binary", "static-binary", "image/png"},
        {"test://watched-resource", "watched-resource", "text/plain"},
    };
    for (size_t i = 0; i < sizeof uris / sizeof uris[0]; i++)
        json_array_append_new(resources, json_pack("{s:s,s:s,s:s}", "uri", uris[i][0], "name",
                                                   uris[i][1], "mimeType", uris[i][2]));
    json_array_append_new(templates,
                          json_pack("{s:s,s:s,s:s}", "uriTemplate", "test://template/{id}/data",
                                    "name", "template", "mimeType", "application/json"));
    json_array_append_new(prompts, json_pack("{s:s,s:s}", "name", "test_simple_prompt",
                                             "description", "a simple prompt"));
    json_array_append_new(prompts, json_pack("{s:s,s:s,s:[{s:s,s:b},{s:s,s:b}]}", "name",
                                             "test_prompt_with_arguments", "description",
                                             "a prompt with arguments", "arguments", "name", "arg1",
                                             "required", 1, "name", "arg2", "required", 1));
    json_array_append_new(prompts, json_pack("{s:s,s:s,s:[{s:s,s:b}]}", "name",
                                             "test_prompt_with_embedded_resource", "description",
                                             "a prompt with an embedded resource", "arguments",
                                             "name", "resourceUri", "required", 1));
    json_array_append_new(prompts, json_pack("{s:s,s:s}", "name", "test_prompt_with_image",
                                             "description", "a prompt with an image"));
}
