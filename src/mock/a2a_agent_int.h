/*
 * Private to `ananke-mock a2a` (a2a_agent.h): what its files share.
 * a2a_agent.c takes a request (JSON-RPC at /rpc, REST under /rest, the
 * card) to its method; a2a_methods.c answers each method; a2a_play.c plays
 * a message's behaviour into a struct run (the events, in the version's
 * shapes); a2a_reply.c sends what a method answers (JSON-RPC's or REST's
 * error, result, event stream); a2a_store.c keeps the tasks.
 *
 * Ownership: a struct run owns its json_t members but `user`
 * (a2a_run_release); a struct task copied out of the store borrows nothing
 * (its `artifacts` are the store's: not to be used).
 */
#ifndef ANANKE_MOCK_A2A_AGENT_INT_H
#define ANANKE_MOCK_A2A_AGENT_INT_H

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "a2a_agent.h"
#include "mock_http.h"

#define CUT_AFTER_MS 100 /* "cut": the connection is cut this long after working */

enum st { ST_SUBMITTED, ST_WORKING, ST_INPUT_REQUIRED, ST_COMPLETED, ST_FAILED, ST_CANCELED };
/* The states' names, [v03][state]: TASK_STATE_* (1.0) or lowercase (0.3). */
extern const char *const a2a_st_names[2][6];

struct task {
    char id[32], ctx[64];
    enum st state;
    json_t *artifacts; /* the store's own (task_keep_artifacts); a copy: borrowed, do not use */
};

struct a2a_agent {
    bool v03, push;
    enum a2a_bind bindings;
    enum a2a_fault fault;
    json_t *push_configs; /* task id -> [TaskPushNotificationConfig], under lock */
    pthread_mutex_t lock;
    struct task *tasks;
    size_t n, cap;
};

/* One behaviour played: the events of a stream, and what a blocking call
 * answers at the end. */
struct run {
    struct a2a_agent *a;
    struct task t;
    json_t *events;    /* StreamResponse results, in order */
    json_t *artifacts; /* the task's artifacts so far */
    json_t *status;    /* the task's current status */
    json_t *message;   /* a direct message: the answer, no task */
    json_t *user;      /* the client's message (borrowed), for the history; or NULL */
};

/* Where and how one request is answered. */
struct reply {
    struct MHD_Connection *c;
    bool v03;
    const char *rest; /* REST: the JSON-RPC method the request maps to; NULL: JSON-RPC */
    bool status_400;  /* REST: every error answered 400 (the fault rest-status) */
};

/* How a played stream ends. */
enum ending { END_CLOSE, END_STALL, END_CUT, END_GARBAGE };

/* ---- a2a_store.c: the tasks, under a->lock ---- */

/* A new task (submitted) in context ctx (one made up when NULL, empty or
 * too long); a copy. */
struct task a2a_task_new(struct a2a_agent *a, const char *ctx);
/* Copy the task `id` into *out; false when there is none. */
bool a2a_task_get(struct a2a_agent *a, const char *id, struct task *out);
/* Set the state of task `id`, unless it is already canceled (a cancel wins
 * over a task still playing). Returns the state it has afterwards. */
enum st a2a_task_set(struct a2a_agent *a, const char *id, enum st s);
/* Keep a copy of the task's artifacts for tasks/get. */
void a2a_task_keep_artifacts(struct a2a_agent *a, const char *id, const json_t *arts);
/* The task's artifacts (a new reference, an empty array when none). */
json_t *a2a_task_artifacts(struct a2a_agent *a, const char *id);
bool a2a_terminal(enum st s);

/* ---- a2a_play.c: shapes of the two versions, behaviours ---- */

json_t *a2a_part_text(const struct a2a_agent *a, const char *text);
/* An agent message with `parts` (reference taken), of task t and context
 * ctx when given. */
json_t *a2a_agent_msg(const struct a2a_agent *a, const struct task *t, const char *ctx,
                      json_t *parts);
json_t *a2a_status_obj(struct run *r, enum st s, const char *text);
json_t *a2a_task_obj(struct run *r);
void a2a_emit_task(struct run *r);
void a2a_emit_status(struct run *r, enum st s, const char *text);
void a2a_emit_artifact(struct run *r, const char *name, json_t *parts, bool append, bool last);
void a2a_run_release(struct run *r);
/* The code of "no such task": -32001, unless the fault says otherwise. */
int a2a_not_found_code(const struct a2a_agent *a);
/* Does s start with prefix? Then *rest is what follows. */
bool a2a_starts(const char *s, const char *prefix, const char **rest);
/* Play a new task's behaviour for `text` into r; returns how its stream ends. */
enum ending a2a_play(struct run *r, const char *text, const char *ctx);

/* ---- a2a_reply.c: answers ---- */

enum MHD_Result a2a_send_json(struct MHD_Connection *c, unsigned status, json_t *j);
/* An error: JSON-RPC's (HTTP 200), or REST's (its HTTP status and body). */
enum MHD_Result a2a_rpc_error(const struct reply *c, const json_t *id, int code,
                              const char *message);
/* A result (reference taken): JSON-RPC's, or REST's body (0.3: its
 * protobuf JSON shape). */
enum MHD_Result a2a_rpc_result(const struct reply *c, const json_t *id, json_t *result);
/* r's events as an SSE stream under JSON-RPC id rid (REST: bare), ending
 * as `end` says. */
enum MHD_Result a2a_send_events(struct mock_http *http, const struct reply *c, const json_t *rid,
                                const struct run *r, enum ending end);
/* A blocking call whose task does not finish by itself: wait until it is
 * canceled (answer it) or the client gives up. */
enum MHD_Result a2a_wait_canceled(struct mock_http *http, const struct reply *c, const json_t *rid,
                                  struct run *r);

/* ---- a2a_methods.c: the methods, by their 0.3 names ---- */

/* message/send (stream false) and message/stream. */
enum MHD_Result a2a_do_send(struct a2a_agent *a, struct mock_http *http, const struct reply *c,
                            const json_t *id, const json_t *params, bool stream);
/* tasks/get, or tasks/cancel (cancel true). */
enum MHD_Result a2a_do_task(struct a2a_agent *a, const struct reply *c, const json_t *id,
                            const json_t *params, bool cancel);
enum MHD_Result a2a_do_resubscribe(struct a2a_agent *a, struct mock_http *http,
                                   const struct reply *c, const json_t *id, const json_t *params);
/* tasks/pushNotificationConfig/VERB (set, get, list, delete), with push. */
enum MHD_Result a2a_do_push(struct a2a_agent *a, const struct reply *c, const json_t *id,
                            const char *verb, const json_t *params);
/* ListTasks (1.0). */
enum MHD_Result a2a_do_list(struct a2a_agent *a, const struct reply *c, const json_t *id,
                            const json_t *params);

#endif
