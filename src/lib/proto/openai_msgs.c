/*
 * The chat-completions request: the conversation in the shape the API
 * takes, converted from the AG-UI messages a test's history is written in,
 * and the body around it (model, stream, tools, params).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "proto/openai_int.h"

static json_t *str_json(const char *s)
{
    return an_json_lossy(s, strlen(s));
}

static json_t *data_url(const char *mime, const char *b64)
{
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "data:%s;base64,%s", mime, b64);
    json_t *s = an_json_lossy(an_buf_cstr(&b), b.len);
    an_buf_release(&b);
    return s;
}

static json_t *image_part(json_t *url)
{
    return json_pack("{s:s,s:{s:o}}", "type", "image_url", "image_url", "url", url);
}

/* OpenAI reads file_data only with a filename; "file" when none is known. */
static json_t *file_part(const char *filename, const char *mime, const char *b64)
{
    return json_pack("{s:s,s:{s:o,s:o}}", "type", "file", "file", "filename",
                     str_json(filename ? filename : "file"), "file_data", data_url(mime, b64));
}

static bool starts(const char *s, const char *prefix)
{
    return s && !strncmp(s, prefix, strlen(prefix));
}

/* input_audio knows two formats. */
static const char *audio_format(const char *mime)
{
    if (!mime)
        return NULL;
    if (!strcmp(mime, "audio/wav") || !strcmp(mime, "audio/x-wav") || !strcmp(mime, "audio/wave"))
        return "wav";
    if (!strcmp(mime, "audio/mpeg") || !strcmp(mime, "audio/mp3"))
        return "mp3";
    return NULL;
}

/* The pre-1.0 AG-UI part: {type:"binary", mimeType, data | url, filename?}. */
static json_t *binary_part(const json_t *p, const char *where, size_t k, struct an_err *err)
{
    const char *mime = an_json_str(p, "mimeType"), *data = an_json_str(p, "data"),
               *url = an_json_str(p, "url"), *filename = an_json_str(p, "filename");
    if (data) {
        if (!mime || !*mime) {
            an_fail(err, AN_ESCHEMA, NULL, "%s: part #%zu (binary) has data but no 'mimeType'",
                    where, k + 1);
            return NULL;
        }
        if (starts(mime, "image/"))
            return image_part(data_url(mime, data));
        return file_part(filename, mime, data);
    }
    if (url)
        return image_part(str_json(url));
    an_fail(err, AN_ESCHEMA, NULL, "%s: part #%zu (binary) has neither 'data' nor 'url'", where,
            k + 1);
    return NULL;
}

/* The AG-UI 1.0 media parts: {type, source:{type:"data"|"url"|"file", value,
 * mimeType?}, metadata?}. */
static json_t *media_part(const json_t *p, const char *type, const char *where, size_t k,
                          struct an_err *err)
{
    json_t *src = json_object_get(p, "source");
    const char *stype = an_json_str(src, "type"), *value = an_json_str(src, "value"),
               *mime = an_json_str(src, "mimeType");
    const char *filename = an_json_str(json_object_get(p, "metadata"), "filename");
    if (!stype || !value) {
        an_fail(err, AN_ESCHEMA, NULL,
                "%s: part #%zu (%s) needs a 'source' with a string 'type' and 'value'", where,
                k + 1, type);
        return NULL;
    }
    if (!strcmp(stype, "file"))
        return json_pack("{s:s,s:{s:o}}", "type", "file", "file", "file_id", str_json(value));
    bool data = !strcmp(stype, "data");
    if (data && (!mime || !*mime)) {
        an_fail(err, AN_ESCHEMA, NULL, "%s: part #%zu (%s) has data but no 'mimeType'", where,
                k + 1, type);
        return NULL;
    }
    if (!strcmp(type, "image") && (data || !strcmp(stype, "url")))
        return image_part(data ? data_url(mime, value) : str_json(value));
    if (!strcmp(type, "audio") && data && audio_format(mime))
        return json_pack("{s:s,s:{s:o,s:s}}", "type", "input_audio", "input_audio", "data",
                         str_json(value), "format", audio_format(mime));
    if (!strcmp(type, "document") && data)
        return file_part(filename, mime, value);
    an_fail(err, AN_ESCHEMA, NULL,
            "%s: part #%zu: chat completions has no form for a %s from a '%.40s' source%s%s", where,
            k + 1, type, stype, mime ? " of type " : "", mime ? mime : "");
    return NULL;
}

json_t *an_oai_content_from_agui(const json_t *content, const char *where, struct an_err *err)
{
    if (json_is_string(content))
        return json_incref((json_t *)content);
    if (!json_is_array(content)) {
        an_fail(err, AN_ESCHEMA, NULL, "%s: 'content' is a %s, not a string or a list of parts",
                where, an_json_type_name(content));
        return NULL;
    }
    json_t *out = json_array();
    size_t k;
    json_t *p;
    json_array_foreach(content, k, p)
    {
        const char *type = an_json_str(p, "type");
        json_t *conv = NULL;
        if (!type) {
            an_fail(err, AN_ESCHEMA, NULL, "%s: part #%zu has no string 'type'", where, k + 1);
        } else if (!strcmp(type, "text")) {
            const char *text = an_json_str(p, "text");
            if (text)
                conv = json_pack("{s:s,s:o}", "type", "text", "text", str_json(text));
            else
                an_fail(err, AN_ESCHEMA, NULL, "%s: part #%zu (text) has no string 'text'", where,
                        k + 1);
        } else if (!strcmp(type, "binary")) {
            conv = binary_part(p, where, k, err);
        } else if (!strcmp(type, "image") || !strcmp(type, "audio") || !strcmp(type, "document") ||
                   !strcmp(type, "video")) {
            conv = media_part(p, type, where, k, err);
        } else {
            an_fail(err, AN_ESCHEMA, NULL, "%s: part #%zu has unknown type '%.60s'", where, k + 1,
                    type);
        }
        if (!conv) {
            json_decref(out);
            return NULL;
        }
        json_array_append_new(out, conv);
    }
    return out;
}

/* AG-UI toolCalls -> tool_calls; arguments that are not a string (a
 * hand-written history may hold the object) become its JSON text. */
static json_t *tool_calls(const json_t *calls, const char *where, struct an_err *err)
{
    if (!json_is_array(calls)) {
        an_fail(err, AN_ESCHEMA, NULL, "%s: 'toolCalls' is a %s, not a list", where,
                an_json_type_name(calls));
        return NULL;
    }
    json_t *out = json_array();
    size_t k;
    json_t *c;
    json_array_foreach(calls, k, c)
    {
        json_t *fn = json_object_get(c, "function");
        const char *id = an_json_str(c, "id"), *name = an_json_str(fn, "name");
        if (!id || !name) {
            an_fail(err, AN_ESCHEMA, NULL,
                    "%s: toolCalls[%zu] needs a string 'id' and 'function.name'", where, k);
            json_decref(out);
            return NULL;
        }
        json_t *args = json_object_get(fn, "arguments");
        json_t *text;
        if (json_is_string(args)) {
            text = json_incref(args);
        } else if (!args || json_is_null(args)) {
            text = json_string("{}");
        } else {
            char *s = an_json_compact(args);
            text = str_json(s);
            free(s);
        }
        json_array_append_new(out, json_pack("{s:o,s:s,s:{s:o,s:o}}", "id", str_json(id), "type",
                                             "function", "function", "name", str_json(name),
                                             "arguments", text));
    }
    return out;
}

/* A tool message's content: a string, text parts, or (an AG-UI result may
 * be any JSON) the value's JSON text. Without content, its `error`. */
static json_t *tool_content(const json_t *m, const char *where, struct an_err *err)
{
    json_t *c = json_object_get(m, "content");
    if (json_is_string(c) || json_is_array(c))
        return an_oai_content_from_agui(c, where, err);
    if (!c || json_is_null(c)) {
        const char *e = an_json_str(m, "error");
        return str_json(e ? e : "");
    }
    char *s = an_json_compact(c);
    json_t *j = str_json(s);
    free(s);
    return j;
}

static json_t *convert_msg(const json_t *m, const char *where, struct an_err *err)
{
    static const char *const roles[] = {"system", "developer", "user", "assistant", "tool", NULL};
    const char *role = an_json_str(m, "role");
    if (!json_is_object(m) || !role) {
        an_fail(err, AN_ESCHEMA, NULL, "%s is not a message with a string 'role'", where);
        return NULL;
    }
    size_t r = 0;
    while (roles[r] && strcmp(roles[r], role))
        r++;
    if (!roles[r]) {
        an_fail(err, AN_ESCHEMA, NULL,
                "%s has role '%.40s', which chat completions has no place for", where, role);
        return NULL;
    }
    json_t *o = json_pack("{s:s}", "role", role);
    json_t *content = json_object_get(m, "content"), *conv = NULL;
    if (!strcmp(role, "tool")) {
        const char *id = an_json_str(m, "toolCallId");
        if (!id) {
            an_fail(err, AN_ESCHEMA, NULL, "%s (tool) has no string 'toolCallId'", where);
            goto fail;
        }
        json_object_set_new(o, "tool_call_id", str_json(id));
        if (!(conv = tool_content(m, where, err)))
            goto fail;
        json_object_set_new(o, "content", conv);
        return o;
    }
    const char *name = an_json_str(m, "name");
    if (name)
        json_object_set_new(o, "name", str_json(name));
    json_t *calls = json_object_get(m, "toolCalls");
    bool with_calls = !strcmp(role, "assistant") && calls && !json_is_null(calls);
    if (content && !json_is_null(content)) {
        if (!(conv = an_oai_content_from_agui(content, where, err)))
            goto fail;
    } else {
        /* An assistant message made only of tool calls has content null. */
        conv = with_calls ? json_null() : json_string("");
    }
    json_object_set_new(o, "content", conv);
    if (with_calls) {
        json_t *tc = tool_calls(calls, where, err);
        if (!tc)
            goto fail;
        if (json_array_size(tc))
            json_object_set_new(o, "tool_calls", tc);
        else
            json_decref(tc);
    }
    return o;
fail:
    json_decref(o);
    return NULL;
}

json_t *an_oai_msgs_from_agui(const json_t *history, struct an_err *err)
{
    if (!history || json_is_null(history))
        return json_array();
    if (!json_is_array(history)) {
        an_fail(err, AN_ESCHEMA, NULL, "the history is a %s, not a list of messages",
                an_json_type_name(history));
        return NULL;
    }
    json_t *out = json_array();
    size_t i;
    json_t *m;
    json_array_foreach(history, i, m)
    {
        const char *role = an_json_str(m, "role");
        /* What AG-UI shows a user but never sends a model. */
        if (role && (!strcmp(role, "activity") || !strcmp(role, "reasoning")))
            continue;
        char where[48];
        snprintf(where, sizeof where, "history message #%zu", i + 1);
        json_t *c = convert_msg(m, where, err);
        if (!c) {
            json_decref(out);
            return NULL;
        }
        json_array_append_new(out, c);
    }
    return out;
}

json_t *an_oai_tools_json(const struct an_openai_tool *tools, size_t n)
{
    json_t *out = json_array();
    for (size_t i = 0; i < n; i++) {
        const struct an_openai_tool *t = &tools[i];
        json_t *fn = json_pack("{s:o}", "name", str_json(t->name));
        if (t->description)
            json_object_set_new(fn, "description", str_json(t->description));
        json_object_set_new(fn, "parameters",
                            t->parameters ? json_deep_copy(t->parameters)
                                          : json_pack("{s:s}", "type", "object"));
        json_array_append_new(out, json_pack("{s:s,s:o}", "type", "function", "function", fn));
    }
    return out;
}

json_t *an_oai_request(const char *model, json_t *messages, bool stream, const json_t *tools,
                       const json_t *params)
{
    json_t *o = json_object();
    json_object_set_new(o, "model", str_json(model));
    json_object_set(o, "messages", messages);
    json_object_set_new(o, "stream", json_boolean(stream));
    if (stream) /* the usage comes in a last chunk only when asked for */
        json_object_set_new(o, "stream_options", json_pack("{s:b}", "include_usage", 1));
    if (json_array_size(tools))
        json_object_set_new(o, "tools", json_deep_copy(tools));
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)params, key, v)
    {
        if (json_is_null(v))
            json_object_del(o, key);
        else
            json_object_set_new(o, key, json_deep_copy(v));
    }
    return o;
}

json_t *an_oai_assistant_msg(const struct an_oai_answer *a)
{
    json_t *o = json_pack("{s:s}", "role", "assistant");
    if (a->text.len || !a->ncalls)
        json_object_set_new(o, "content", an_json_lossy(an_buf_cstr(&a->text), a->text.len));
    else
        json_object_set_new(o, "content", json_null());
    if (!a->ncalls)
        return o;
    json_t *calls = json_array();
    for (size_t i = 0; i < a->ncalls; i++) {
        const struct an_oai_call *c = &a->calls[i];
        /* Servers that parse the arguments back (Ollama does) need JSON:
         * a call that streamed none sends {}. */
        const char *args = c->args.len ? an_buf_cstr(&c->args) : "{}";
        json_array_append_new(calls, json_pack("{s:o,s:s,s:{s:o,s:o}}", "id",
                                               str_json(c->id ? c->id : ""), "type", "function",
                                               "function", "name", str_json(c->name ? c->name : ""),
                                               "arguments", str_json(args)));
    }
    json_object_set_new(o, "tool_calls", calls);
    return o;
}
