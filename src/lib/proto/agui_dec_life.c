/*
 * The AG-UI decoder's lifecycle. A decoder lives for one run (one HTTP
 * response), and most runs are short: allocating its arrays, id tables and
 * buffers and growing the buffers again from nothing was a large part of a
 * short run's cost. So each thread keeps the last decoder it freed, emptied
 * but with that memory, for the next an_agui_dec_new; what a run could have
 * made large (over KEEP_BYTES) is released rather than kept. The adapter's
 * session (agui.c), one per test, is kept the same way: it is over 1 KiB,
 * which glibc serves slowly.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "proto/agui_dec_int.h"
#include "proto/agui_decode.h"
#include "proto/agui_verify.h"

#define KEEP_BYTES (64u * 1024u)
#define KEEP_SLOTS (KEEP_BYTES / sizeof(struct an_agui_idslot))

static void destroy(struct an_agui_dec *d)
{
    for (size_t i = 0; i < d->kept_msgs; i++) {
        struct msg *m = &d->msgs[i];
        if (i < d->nmsgs) {
            free(m->id);
            free(m->role);
            free(m->name);
            free(m->tool_call_id);
            json_decref(m->tool_content);
        }
        an_buf_release(&m->content);
        free(m->calls);
    }
    free(d->msgs);
    free(d->order);
    for (size_t i = 0; i < d->kept_calls; i++)
        an_buf_release(&d->calls[i].args);
    free(d->calls);
    an_agui_idmap_release(&d->msg_ids);
    an_agui_idmap_release(&d->call_ids);
    json_decref(d->state);
    json_decref(d->snapshot);
    an_buf_release(&d->text);
    an_buf_release(&d->fast_delta);
    free(d->run_id);
    free(d->chunk_id);
    an_agui_verify_free(d->verify);
    free(d);
}

/* The calling thread's spares: a decoder, and up to SPARE_MEM blocks of
 * one size for adapter sessions (an_agui_spare_take: several tests are in
 * flight at once, so several sessions end before the next ones open). The
 * key only says the thread has some, for drop_spares to run when it ends;
 * atexit runs it for the main thread. */
#define SPARE_MEM 32
static _Thread_local struct an_agui_dec *spare;
static _Thread_local void *spare_mem[SPARE_MEM];
static _Thread_local size_t spare_mem_n, spare_mem_size;
static pthread_key_t spare_key;
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;

static void drop_mem(void)
{
    while (spare_mem_n)
        free(spare_mem[--spare_mem_n]);
}

static void drop_spares(void)
{
    struct an_agui_dec *d = spare;
    spare = NULL;
    if (d)
        destroy(d);
    drop_mem();
}

static void on_thread_end(void *unused)
{
    (void)unused;
    drop_spares();
}

static void spare_init(void)
{
    if (pthread_key_create(&spare_key, on_thread_end))
        an_oom();
    atexit(drop_spares);
}

static void spares_held(void)
{
    pthread_once(&spare_once, spare_init);
    pthread_setspecific(spare_key, &spare_key); /* any non-NULL value */
}

void *an_agui_spare_take(size_t size)
{
    if (!spare_mem_n || spare_mem_size != size)
        return an_xcalloc(1, size);
    return memset(spare_mem[--spare_mem_n], 0, size);
}

void an_agui_spare_put(void *p, size_t size)
{
    if (!p)
        return;
    spares_held();
    if (spare_mem_size != size) {
        drop_mem();
        spare_mem_size = size;
    }
    if (spare_mem_n == SPARE_MEM)
        free(p);
    else
        spare_mem[spare_mem_n++] = p;
}

/* Emptied, keeping its memory unless that is too large to keep. */
static void buf_empty(struct an_buf *b)
{
    if (b->cap > KEEP_BYTES) {
        an_buf_release(b);
        return;
    }
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

/* Everything one run put in d goes; its arrays and buffers stay. */
static void empty(struct an_agui_dec *d)
{
    for (size_t i = 0; i < d->nmsgs; i++) {
        struct msg *m = &d->msgs[i];
        free(m->id);
        free(m->role);
        free(m->name);
        free(m->tool_call_id);
        json_decref(m->tool_content);
        m->id = m->role = m->name = m->tool_call_id = NULL;
        m->tool_content = NULL;
        m->ncalls = 0;
    }
    for (size_t i = 0; i < d->kept_msgs; i++) {
        struct msg *m = &d->msgs[i];
        buf_empty(&m->content);
        if (m->cap_calls * sizeof *m->calls > KEEP_BYTES) {
            free(m->calls);
            m->calls = NULL;
            m->cap_calls = 0;
        }
    }
    for (size_t i = 0; i < d->kept_calls; i++)
        buf_empty(&d->calls[i].args);
    if (d->cap_msgs * sizeof *d->msgs > KEEP_BYTES ||
        d->cap_calls * sizeof *d->calls > KEEP_BYTES ||
        d->cap_order * sizeof *d->order > KEEP_BYTES) {
        /* a run of many messages or calls: start small again */
        for (size_t i = 0; i < d->kept_msgs; i++) {
            an_buf_release(&d->msgs[i].content);
            free(d->msgs[i].calls);
        }
        for (size_t i = 0; i < d->kept_calls; i++)
            an_buf_release(&d->calls[i].args);
        free(d->msgs);
        free(d->calls);
        free(d->order);
        d->msgs = NULL;
        d->calls = NULL;
        d->order = NULL;
        d->cap_msgs = d->cap_calls = d->cap_order = 0;
        d->kept_msgs = d->kept_calls = 0;
    }
    d->nmsgs = d->ncalls = d->norder = 0;
    an_agui_idmap_clear(&d->msg_ids, KEEP_SLOTS);
    an_agui_idmap_clear(&d->call_ids, KEEP_SLOTS);
    json_decref(d->state);
    json_decref(d->snapshot);
    d->state = d->snapshot = NULL;
    buf_empty(&d->text);
    buf_empty(&d->fast_delta);
    free(d->run_id);
    free(d->chunk_id);
    d->run_id = d->chunk_id = NULL;
    an_agui_verify_free(d->verify);
    d->verify = NULL;
}

void an_agui_dec_new(struct an_agui_dec **out, struct an_agui_conv *conv, struct an_transcript *t,
                     size_t max_tool_calls)
{
    struct an_agui_dec *d = spare;
    if (d) {
        /* the kept memory, everything else as calloc would leave it */
        struct an_agui_dec keep = *d;
        spare = NULL;
        memset(d, 0, sizeof *d);
        d->msgs = keep.msgs;
        d->cap_msgs = keep.cap_msgs;
        d->kept_msgs = keep.kept_msgs;
        d->order = keep.order;
        d->cap_order = keep.cap_order;
        d->msg_ids = keep.msg_ids;
        d->calls = keep.calls;
        d->cap_calls = keep.cap_calls;
        d->kept_calls = keep.kept_calls;
        d->call_ids = keep.call_ids;
        d->text = keep.text;
        d->fast_delta = keep.fast_delta;
    } else {
        d = an_xcalloc(1, sizeof *d);
    }
    d->conv = conv;
    d->t = t;
    d->turn = t->nturns - 1;
    d->max_calls = max_tool_calls ? max_tool_calls : AN_AGUI_DEFAULT_MAX_CALLS;
    d->state = conv->state ? json_incref(conv->state) : json_object();
    an_agui_dec_max_state(d, 0);
    d->fast_idx = NONE;
    d->text_owner = NONE;
    an_agui_verify_new(&d->verify, conv->thread_id, AN_PROTOCOL_STRICT);
    *out = d;
}

void an_agui_dec_free(struct an_agui_dec *d)
{
    if (!d)
        return;
    spares_held();
    empty(d);
    if (spare)
        destroy(spare);
    spare = d;
}
