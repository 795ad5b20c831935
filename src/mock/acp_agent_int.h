/*
 * Private to the ACP mock agent: what acp_agent.c (protocol I/O, sessions,
 * client -> agent methods) and acp_steps.c (a prompt turn's scripted steps and
 * the built-in behaviour) share. The agent owns every session and buffer; all
 * functions here borrow it.
 */
#ifndef ANANKE_MOCK_ACP_AGENT_INT_H
#define ANANKE_MOCK_ACP_AGENT_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "acp_agent.h"
#include "core/buf.h"
#include "core/json.h"

struct session {
    char *id;
    char *cwd;
    char *mode; /* current mode id, or NULL without modes */
    json_t *history;
    json_t *mcp_servers; /* session/new's (or load's) mcpServers, for mcp_call */
    struct session *next;
};

struct agent {
    struct acp_scenario *sc;
    unsigned faults;
    FILE *log;
    struct an_buf in;
    bool discarding; /* inside a line that crossed ACP_MAX_LINE */
    bool eof, quit;
    /* what the client advertised in initialize */
    bool fs_read, fs_write, terminal;
    struct session *sessions;
    unsigned nsessions, ntools, nterms;
    long long next_id; /* our requests to the client */
    /* the prompt turn in progress */
    struct session *running;
    bool cancelled;
    unsigned turn_updates;
    char *last_tool; /* toolCallId of the turn's last tool call */
    /* the one request of ours that is waiting for its reply */
    bool waiting, got_reply;
    long long wait_id;
    json_t *reply; /* the whole response message */
    /* session/prompt requests that came while a turn ran: served in order
     * once it ends (whole messages) */
    json_t *deferred;
};

static inline bool fault(const struct agent *a, enum acp_fault f)
{
    return a->faults & (1u << f);
}

struct turn_end {
    const char *stop; /* stop reason; NULL with an error */
    const struct acp_step *error;
    const json_t *usage; /* the `usage` step's object, sent in the prompt's result */
};

/* ---- acp_agent.c: output, input, requests to the client ---------------- */

/* One line to stdout, verbatim (raw steps, the garbage-line fault). */
void send_raw(struct agent *a, const char *s);
/* A session/update (update stolen), recorded for session/load. */
void send_update(struct agent *a, struct session *s, json_t *update);
void send_chunk(struct agent *a, struct session *s, const char *tag, const char *text, size_t len,
                const char *message_id);
void say(struct agent *a, struct session *s, const char *text);
/* Handle the lines already buffered; when there are none, wait up to
 * timeout_ms (-1 = forever) for input and handle what came. At EOF a last
 * line without '\n' still counts. */
void pump(struct agent *a, int timeout_ms);
/* Whether the running turn must stop. Not stdin's end: a client that
 * writes its requests and closes stdin still gets every answer that needs
 * nothing more from it. */
bool interrupted(const struct agent *a);
/* Sleep ms, handling input meanwhile; false when interrupted. */
bool nap(struct agent *a, long long ms);
/* Send a request (params stolen) and wait for its reply. Returns the reply
 * message (caller frees) or NULL when interrupted first. */
json_t *call(struct agent *a, struct session *s, const char *method, json_t *params);
/* Fire and forget: the reply, when it comes, is ignored as unknown. */
void notify_request(struct agent *a, struct session *s, const char *method, json_t *params);
/* The path the client gets: absolute inside the session's cwd, or (fault
 * relative-paths) relative to it. Caller frees. */
char *client_path(struct agent *a, const struct session *s, const char *path);
void fix_update_paths(struct agent *a, const struct session *s, json_t *u);
char *new_tool_id(struct agent *a);
json_t *text_content(const char *text);
void tool_update(struct agent *a, struct session *s, const char *id, const char *status,
                 json_t *content, json_t *raw_output);
/* The error message of a reply, or NULL when it is a result. */
const char *reply_error(const json_t *reply);

/* ---- acp_steps.c: a prompt turn ----------------------------------------- */

void run_rule(struct agent *a, struct session *s, const struct acp_rule *r, struct turn_end *end);
void run_default(struct agent *a, struct session *s, const char *text, struct turn_end *end);

#endif
