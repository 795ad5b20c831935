#include "proto/a2a_v1.h"

#include <string.h>

#include "core/json.h"
#include "core/spec_names.h"
#include "proto/a2a_rest.h"

static const char *const names[][2] = {
    {"message/send", "SendMessage"},
    {"message/stream", "SendStreamingMessage"},
    {"tasks/get", "GetTask"},
    {"tasks/cancel", "CancelTask"},
    {"tasks/resubscribe", "SubscribeToTask"},
    {"tasks/pushNotificationConfig/set", "CreateTaskPushNotificationConfig"},
    {"tasks/pushNotificationConfig/get", "GetTaskPushNotificationConfig"},
    {"tasks/pushNotificationConfig/list", "ListTaskPushNotificationConfigs"},
    {"tasks/pushNotificationConfig/delete", "DeleteTaskPushNotificationConfig"},
    {"agent/getAuthenticatedExtendedCard", "GetExtendedAgentCard"},
};

const char *an_a2a_v1_method(const char *m)
{
    for (size_t i = 0; m && i < sizeof names / sizeof *names; i++)
        if (!strcmp(m, names[i][0]))
            return names[i][1];
    return NULL;
}

/* Move key `from` of o to `to` (when o has it). */
static void rename_key(json_t *o, const char *from, const char *to)
{
    json_t *v = json_object_get(o, from);
    if (!v)
        return;
    json_object_set(o, to, v);
    json_object_del(o, from);
}

/* A 0.3 part in the 1.0 shape, in place. */
static void part_out(json_t *p)
{
    const char *k = an_json_str(p, "kind");
    json_t *f = json_object_get(p, "file");
    if (k && !strcmp(k, "file") && json_is_object(f)) {
        json_incref(f);
        json_object_del(p, "file");
        if (json_object_get(f, "uri"))
            json_object_set(p, "url", json_object_get(f, "uri"));
        if (json_object_get(f, "bytes"))
            json_object_set(p, "raw", json_object_get(f, "bytes"));
        if (json_object_get(f, "mimeType"))
            json_object_set(p, "mediaType", json_object_get(f, "mimeType"));
        if (json_object_get(f, "name"))
            json_object_set(p, "filename", json_object_get(f, "name"));
        json_decref(f);
    }
    json_object_del(p, "kind");
}

/* A 0.3 message in the 1.0 shape, in place. */
static void message_out(json_t *m)
{
    if (!json_is_object(m))
        return;
    json_object_del(m, "kind");
    const char *role = an_json_str(m, "role");
    if (role && (!strcmp(role, "user") || !strcmp(role, "agent")))
        json_object_set_new(m, "role",
                            json_string(!strcmp(role, "agent") ? "ROLE_AGENT" : "ROLE_USER"));
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(m, "parts"), i, p) if (json_is_object(p)) part_out(p);
}

/* 0.3 push config params in the 1.0 shape, in place (m: the 0.3 method):
 * set's {taskId, pushNotificationConfig: {id, url, token, ...}} is the flat
 * TaskPushNotificationConfig {taskId, id, url, token, ...}; get's and
 * delete's {id, pushNotificationConfigId} are {taskId, id} (the config id
 * the task's when none is named, as 0.3 reads it); list's {id} is
 * {taskId}. */
static void push_params_out(const char *m, json_t *params)
{
    if (!json_is_object(params) || strncmp(m, "tasks/pushNotificationConfig/", 29))
        return;
    if (!strcmp(m + 29, "set")) {
        json_t *cfg = json_object_get(params, "pushNotificationConfig");
        if (json_is_object(cfg)) {
            json_incref(cfg);
            json_object_del(params, "pushNotificationConfig");
            json_object_update_missing(params, cfg);
            json_decref(cfg);
        }
        return;
    }
    json_t *tid = json_object_get(params, "id");
    if (!tid)
        return;
    json_incref(tid);
    json_object_set(params, "taskId", tid);
    if (!strcmp(m + 29, "list")) {
        json_object_del(params, "id");
    } else {
        json_t *cid = json_object_get(params, "pushNotificationConfigId");
        json_object_set(params, "id", cid ? cid : tid);
        json_object_del(params, "pushNotificationConfigId");
    }
    json_decref(tid);
}

json_t *an_a2a_v1_request(const json_t *body)
{
    const char *m = an_a2a_v1_method(an_json_str(body, "method"));
    if (!m)
        return NULL;
    json_t *c = json_deep_copy(body);
    json_object_set_new(c, "method", json_string(m));
    json_t *params = json_object_get(c, "params");
    push_params_out(an_json_str(body, "method"), params);
    message_out(json_object_get(params, "message"));
    json_t *cfg = json_object_get(params, "configuration");
    if (json_is_object(cfg)) {
        json_t *b = json_object_get(cfg, "blocking");
        if (json_is_boolean(b)) {
            json_object_set_new(cfg, "returnImmediately", json_boolean(!json_is_true(b)));
            json_object_del(cfg, "blocking");
        }
        rename_key(cfg, "pushNotificationConfig", "taskPushNotificationConfig");
    }
    return c;
}

/* Is c a 1.0 TaskPushNotificationConfig ({taskId, id, url, ...}: flat)? */
static bool push_config_v1(const json_t *c)
{
    return json_is_object(c) && json_is_string(json_object_get(c, "url")) &&
           !json_object_get(c, "pushNotificationConfig") && !json_object_get(c, "status");
}

/* A 1.0 TaskPushNotificationConfig as the 0.3 {taskId,
 * pushNotificationConfig: {id, url, token, ...}}. New reference. */
static json_t *push_config_in(const json_t *c)
{
    json_t *cfg = json_deep_copy(c), *o = json_object();
    json_t *tid = json_object_get(cfg, "taskId");
    if (tid)
        json_object_set(o, "taskId", tid);
    json_object_del(cfg, "taskId");
    json_object_del(cfg, "tenant");
    json_object_set_new(o, "pushNotificationConfig", cfg);
    return o;
}

json_t *an_a2a_v1_result_in(const json_t *result)
{
    if (push_config_v1(result))
        return push_config_in(result);
    const json_t *configs = json_object_get(result, "configs");
    if (json_is_array(configs) &&
        (!json_array_size(configs) || push_config_v1(json_array_get(configs, 0)))) {
        json_t *l = json_array();
        size_t i;
        const json_t *c;
        json_array_foreach(configs, i, c) json_array_append_new(l, push_config_in(c));
        return l;
    }
    json_t *r = an_a2a_rest_result_in(result);
    const char *k = an_json_str(r, "kind");
    if (k && !strcmp(k, "status-update")) {
        const char *st = an_a2a_state(an_json_str(json_object_get(r, "status"), "state"));
        json_object_set_new(
            r, "final",
            json_boolean(st && (an_a2a_state_terminal(st) || an_a2a_state_interrupted(st))));
    }
    return r;
}

json_t *an_a2a_v1_response_in(const json_t *resp)
{
    const json_t *res = json_object_get(resp, "result");
    if (!json_is_object(res))
        return json_incref((json_t *)resp);
    json_t *c = json_copy((json_t *)resp);
    json_object_set_new(c, "result", an_a2a_v1_result_in(res));
    return c;
}
