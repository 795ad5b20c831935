/*
 * A2A 1.0 as a translation of the 0.3 JSON-RPC shapes (docs/comply.md
 * "A2A 1.0"). No I/O. The comply suite is written in the 0.3 shapes; to an
 * agent spoken to in 1.0 each request is sent in the 1.0 shape and each
 * answer read back into the 0.3 one, so one suite judges both revisions.
 *
 * Requests: the 0.3 method names map onto the 1.0 ones (`message/send` ->
 * `SendMessage`, `message/stream` -> `SendStreamingMessage`, `tasks/get`
 * -> `GetTask`, `tasks/cancel` -> `CancelTask`, `tasks/resubscribe` ->
 * `SubscribeToTask`, `tasks/pushNotificationConfig/{set,get,list,delete}`
 * -> `{Create,Get,List,Delete}TaskPushNotificationConfig[s]`,
 * `agent/getAuthenticatedExtendedCard` -> `GetExtendedAgentCard`); the
 * push config params are 1.0's (set's `pushNotificationConfig` flattened
 * into `{taskId, id, url, ...}`, get's and delete's `{id,
 * pushNotificationConfigId}` as `{taskId, id}`: the config id the task's
 * when none is named; list's `{id}` as `{taskId}`); a
 * message loses `kind`, its role is `ROLE_USER`/`ROLE_AGENT`, its parts are
 * `{text}` | `{data}` | `{url, mediaType, filename}` | `{raw, mediaType,
 * filename}`; the configuration's `blocking: false` is `returnImmediately:
 * true` and `pushNotificationConfig` is `taskPushNotificationConfig`. A
 * request whose method is no 0.3 name (a test written in 1.0) is sent as
 * it is.
 *
 * Answers: `{task}` | `{message}` | `{statusUpdate}` | `{artifactUpdate}`
 * (and a bare Task) become the 0.3 objects with `kind`, `TASK_STATE_*`
 * the lowercase states, `ROLE_*` the lowercase roles, parts with `kind`
 * (proto/a2a_rest.h reads them); a flat push config becomes `{taskId,
 * pushNotificationConfig}`, `{configs}` the array of those. 1.0 has no `final` on a status update:
 * the one with a terminal or interrupted state is marked `final: true`,
 * the others `final: false`, so the suite's stream rules (nothing after
 * the final update) read the same. Answers to a 1.0 request are left as
 * they are.
 *
 * Ownership: every json_t * returned is a new reference.
 */
#ifndef ANANKE_PROTO_A2A_V1_H
#define ANANKE_PROTO_A2A_V1_H

#include <jansson.h>

/* The 1.0 name of 0.3 JSON-RPC method m, or NULL when it has none. */
const char *an_a2a_v1_method(const char *m);

/* A 0.3 JSON-RPC request as the 1.0 one; NULL when its method is no 0.3
 * name (send it as it is). */
json_t *an_a2a_v1_request(const json_t *body);

/* A 1.0 result (a JSON-RPC `result`, a REST body or stream event) in the
 * 0.3 JSON-RPC shape. */
json_t *an_a2a_v1_result_in(const json_t *result);

/* A JSON-RPC response or stream event whose `result` is 1.0, with that
 * result in the 0.3 shape (an error is left as it is). */
json_t *an_a2a_v1_response_in(const json_t *resp);

#endif
