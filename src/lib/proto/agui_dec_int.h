/*
 * The AG-UI decoder's state, shared by its two halves: agui_decode.c (events
 * into the transcript) and agui_history.c (the conversation sent with the
 * next run). Private to src/lib/proto.
 */
#ifndef ANANKE_PROTO_AGUI_DEC_INT_H
#define ANANKE_PROTO_AGUI_DEC_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"
#include "proto/agui_decode.h"

#define NONE ((size_t)-1)


enum run_state { RUN_NONE, RUN_ACTIVE, RUN_DONE, RUN_ERRORED };
enum chunk_kind { CHUNK_NONE, CHUNK_TEXT, CHUNK_TOOL, CHUNK_REASONING };

/* A message this run produced, kept for the next run's history. */
struct msg {
    char *id;
    char *role;
    char *name;
    struct an_buf content;
    bool has_content; /* a text message: send "content" even when empty */
    bool open;
    size_t *calls; /* indexes into dec.calls: this message's toolCalls */
    size_t ncalls, cap_calls;
    char *tool_call_id;  /* role "tool" only */
    json_t *tool_content; /* role "tool" only: string or content parts */
    unsigned seq;        /* creation order, compared with a MESSAGES_SNAPSHOT's */
};

/* What the decoder keeps next to a transcript call while it streams. */
struct call {
    size_t idx; /* in t->calls */
    struct an_buf args;
    bool open;
    int64_t last_ms;
    size_t owner; /* in dec.msgs */
};

struct an_agui_dec {
    struct an_agui_conv *conv;
    struct an_transcript *t;
    size_t turn;
    size_t max_calls;
    enum run_state run;
    char *run_id;
    uint64_t nevents; /* SSE events seen: messages say "event #N" */
    int failed;       /* an_code once the turn failed */
    int64_t now;
    const char *type; /* type of the event being decoded */
    struct an_buf text;
    struct msg *msgs; /* creation order */
    size_t nmsgs, cap_msgs;
    size_t *order; /* history order (tool results sit after their call) */
    size_t norder, cap_order;
    json_t *msg_ids; /* id -> index in msgs */
    struct call *calls;
    size_t ncalls, cap_calls;
    json_t *call_ids; /* toolCallId -> index in calls */
    json_t *state;
    json_t *snapshot; /* last MESSAGES_SNAPSHOT, activity messages removed */
    unsigned snapshot_seq, seq;
    enum chunk_kind chunk;
    char *chunk_id;
    struct an_agui_verify *verify; /* the stream's conformance (agui_verify.c) */
    /* the fast path (agui_decode.c): an escaped delta, unescaped; the last
     * id it looked up (in msg_ids when fast_text, else call_ids) and what
     * that gave, valid while map_sets is fast_map_sets */
    struct an_buf fast_delta;
    uint64_t map_sets; /* map_set() calls so far */
    uint64_t fast_map_sets;
    bool fast_text;
    size_t fast_idx;
    char fast_id[256];
};


/* The decoder's fast path for plain text and args deltas (agui_decode.c);
 * on unless a test switches it off to compare it with the general path. */
extern bool an_agui_fast_path;

static inline struct an_tool_call *tcall(struct an_agui_dec *d, size_t ci)
{
    return &d->t->calls[d->calls[ci].idx];
}

/* Merge what this run produced into d->conv->messages (agui_history.c). */
void an_agui_history_merge(struct an_agui_dec *d);

/* The fast path's reading part (agui_fast.c): true when data[0..len) is a
 * plainly written TEXT_MESSAGE_CONTENT (*text) or TOOL_CALL_ARGS with an id
 * of printable ASCII shorter than AN_AGUI_FAST_ID_MAX; *id points into data,
 * *delta into data or, when it had escapes, into `scratch`. */
#define AN_AGUI_FAST_ID_MAX 256
bool an_agui_fast_scan(const char *data, size_t len, struct an_buf *scratch, bool *text,
                       const char **id, size_t *id_len, const char **delta, size_t *delta_len);

#endif
