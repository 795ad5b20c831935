/* ananke-mock a2a: the task store, in memory under the agent's lock
 * (a2a_agent_int.h). */
#include "a2a_agent_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/json.h"

struct task a2a_task_new(struct a2a_agent *a, const char *ctx)
{
    pthread_mutex_lock(&a->lock);
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->tasks = an_xrealloc(a->tasks, a->cap * sizeof *a->tasks);
    }
    struct task *t = &a->tasks[a->n++];
    snprintf(t->id, sizeof t->id, "task-%zu", a->n);
    if (ctx && *ctx && strlen(ctx) < sizeof t->ctx)
        snprintf(t->ctx, sizeof t->ctx, "%s", ctx);
    else
        snprintf(t->ctx, sizeof t->ctx, "ctx-%zu", a->n);
    t->state = ST_SUBMITTED;
    t->artifacts = NULL;
    struct task copy = *t;
    pthread_mutex_unlock(&a->lock);
    return copy;
}

/* Copy the task `id` into *out; false when there is none. */
bool a2a_task_get(struct a2a_agent *a, const char *id, struct task *out)
{
    bool found = false;
    pthread_mutex_lock(&a->lock);
    for (size_t i = 0; id && i < a->n && !found; i++)
        if (!strcmp(a->tasks[i].id, id)) {
            *out = a->tasks[i];
            found = true;
        }
    pthread_mutex_unlock(&a->lock);
    return found;
}

/* Set the state of task `id`, unless it is already canceled (a cancel wins
 * over a task still playing). Returns the state it has afterwards. */
enum st a2a_task_set(struct a2a_agent *a, const char *id, enum st s)
{
    enum st now = s;
    pthread_mutex_lock(&a->lock);
    for (size_t i = 0; i < a->n; i++)
        if (!strcmp(a->tasks[i].id, id)) {
            if (a->tasks[i].state != ST_CANCELED)
                a->tasks[i].state = s;
            now = a->tasks[i].state;
        }
    pthread_mutex_unlock(&a->lock);
    return now;
}

/* Keep a copy of the task's artifacts for tasks/get; the task's artifacts
 * (a new reference, an empty array when none). */
void a2a_task_keep_artifacts(struct a2a_agent *a, const char *id, const json_t *arts)
{
    pthread_mutex_lock(&a->lock);
    for (size_t i = 0; i < a->n; i++)
        if (!strcmp(a->tasks[i].id, id)) {
            json_decref(a->tasks[i].artifacts);
            a->tasks[i].artifacts = json_deep_copy(arts);
        }
    pthread_mutex_unlock(&a->lock);
}

json_t *a2a_task_artifacts(struct a2a_agent *a, const char *id)
{
    json_t *out = NULL;
    pthread_mutex_lock(&a->lock);
    for (size_t i = 0; i < a->n && !out; i++)
        if (!strcmp(a->tasks[i].id, id) && a->tasks[i].artifacts)
            out = json_deep_copy(a->tasks[i].artifacts);
    pthread_mutex_unlock(&a->lock);
    return out ? out : json_array();
}

bool a2a_terminal(enum st s)
{
    return s == ST_COMPLETED || s == ST_FAILED || s == ST_CANCELED;
}
