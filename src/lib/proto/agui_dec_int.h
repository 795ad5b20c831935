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
#include "proto/json_patch.h"

#define NONE ((size_t)-1)

enum run_state { RUN_NONE, RUN_ACTIVE, RUN_DONE, RUN_ERRORED };
enum chunk_kind { CHUNK_NONE, CHUNK_TEXT, CHUNK_TOOL, CHUNK_REASONING };

/* id -> index (agui_idmap.c): the keys are C strings, copied (a short one
 * into the slot itself, as most ids are). */
struct an_agui_idslot {
    char *key; /* NULL: empty; `in` or a malloc'd copy */
    size_t len, val;
    uint64_t hash;
    char in[24];
};
struct an_agui_idmap {
    struct an_agui_idslot *slots;
    size_t n, cap; /* cap: 0 or a power of two */
};
/* NONE when key[0..n) (no NUL in it) is not there. */
size_t an_agui_idmap_getn(const struct an_agui_idmap *m, const char *key, size_t n);
void an_agui_idmap_set(struct an_agui_idmap *m, const char *key, size_t val);
void an_agui_idmap_release(struct an_agui_idmap *m);
/* Empty, keeping the table (released instead when larger than max_cap). */
void an_agui_idmap_clear(struct an_agui_idmap *m, size_t max_cap);

/* A message this run produced, kept for the next run's history. */
struct msg {
    char *id;
    char *role;
    char *name;
    struct an_buf content;
    bool has_content; /* a text message: send "content" even when empty */
    bool open;
    bool assistant; /* role is "assistant" (the role never changes) */
    size_t *calls;  /* indexes into dec.calls: this message's toolCalls */
    size_t ncalls, cap_calls;
    char *tool_call_id;   /* role "tool" only */
    json_t *tool_content; /* role "tool" only: string or content parts */
    unsigned seq;         /* creation order, compared with a MESSAGES_SNAPSHOT's */
    size_t text_seq;      /* 1 + the order of its first text delta of the turn; 0: none */
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
    /* the turn's text: while every assistant delta went to one message
     * (text_owner), that message's content is the text; once another one
     * had a delta (text_own), the text is each such message's content, in
     * the order of their first deltas (text_seq), joined at the turn's end
     * into `text`: two messages whose deltas alternate read as two
     * messages, not as their pieces shuffled (a secret streamed in one of
     * them stays whole, so it can be found and redacted) */
    struct an_buf text;
    size_t text_owner;
    bool text_own;
    size_t text_msgs; /* messages with a text delta so far */
    struct msg *msgs; /* creation order */
    size_t nmsgs, cap_msgs;
    /* msgs[0..kept_msgs) and calls[0..kept_calls) own a content or args
     * buffer and a calls array, possibly from an earlier run of a reused
     * decoder (agui_dec_life.c): msg_new and an_agui_tool_start take them
     * over emptied rather than allocate new ones */
    size_t kept_msgs, kept_calls;
    size_t *order; /* history order (tool results sit after their call) */
    size_t norder, cap_order;
    struct an_agui_idmap msg_ids; /* id -> index in msgs */
    struct call *calls;
    size_t ncalls, cap_calls;
    struct an_agui_idmap call_ids; /* toolCallId -> index in calls */
    json_t *state;
    /* the state's weight and the turn's patch work (json_patch.h); until
     * state_own, d->state may be shared (with conv and earlier turns): the
     * first STATE_DELTA patches a copy */
    struct an_json_patch_cap state_cap;
    bool state_own;
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
    /* an_agui_verify_changes() when the verifier last let a delta of
     * fast_id through (0: never) */
    uint64_t quiet_changes;
    size_t fast_id_len;
    char fast_id[256];
};

/* size zeroed bytes, the calling thread's spare block when it has one of
 * that size (agui_dec_life.c); an_agui_spare_put hands a block back (NULL
 * is ignored), for the thread's next an_agui_spare_take. */
void *an_agui_spare_take(size_t size);
void an_agui_spare_put(void *p, size_t size);

/* The decoder's fast path for plain text and args deltas (agui_decode.c);
 * on unless a test switches it off to compare it with the general path. */
extern bool an_agui_fast_path;

static inline struct an_tool_call *tcall(struct an_agui_dec *d, size_t ci)
{
    return &d->t->calls[d->calls[ci].idx];
}

/* An assistant delta, already added to message mi's content, joins the
 * turn's text. */
static inline void an_agui_text_add(struct an_agui_dec *d, size_t mi, const char *delta, size_t n)
{
    (void)delta, (void)n; /* in the message's content already */
    if (!d->msgs[mi].text_seq)
        d->msgs[mi].text_seq = ++d->text_msgs;
    if (!d->text_own) {
        if (d->text_owner == NONE)
            d->text_owner = mi;
        if (d->text_owner == mi)
            return;
        d->text_own = true;
    }
}

/* Merge what this run produced into d->conv->messages (agui_history.c). */
void an_agui_history_merge(struct an_agui_dec *d);

/* What the general path does for each kind of event (agui_decode.c), for
 * the fast path to do the same. */
void an_agui_text_start(struct an_agui_dec *d, const char *id, const char *role, const char *name);
void an_agui_text_content(struct an_agui_dec *d, const char *id, const char *delta, size_t n);
void an_agui_text_end(struct an_agui_dec *d, const char *id);
int an_agui_tool_start(struct an_agui_dec *d, const char *id, const char *name, const char *parent);
void an_agui_tool_end(struct an_agui_dec *d, const char *id);
/* `content` (a string, or content parts) is borrowed; `mid` may be NULL */
void an_agui_tool_result(struct an_agui_dec *d, const char *id, const char *mid, json_t *content);

/* The fast path (agui_fast.c): true when the event data[0..len) was applied
 * there, *rc then being what an_agui_dec_event returns; false, with nothing
 * changed, when it must take the general path. */
#define AN_AGUI_FAST_ID_MAX 256
bool an_agui_fast_apply(struct an_agui_dec *d, const char *data, size_t len, int64_t t_ms, int *rc);

/* The SSE framer's `take` for the AG-UI decoder (proto/sse.h): bytes[0..n)
 * start an event's data; when they hold a text or argument delta in the
 * plain layout, followed by "}\n\n", that the fast path applies, it is
 * applied and its data's length returned; else 0, nothing changed, and
 * the framer hands the event to an_agui_dec_event as usual. */
size_t an_agui_fast_take(struct an_agui_dec *d, const char *bytes, size_t n, int64_t t_ms);

#endif
