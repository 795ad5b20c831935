/* proto/jsonrpc: two in-process peers over a socketpair, and scripted
 * child peers (sh -c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/jsonrpc.h"

/* What one peer saw. */
struct seen {
    json_t *responses;     /* [{id, result|error, known}] in arrival order */
    json_t *requests;      /* [{id, method}] */
    json_t *notifications; /* [method] */
    json_t *warnings;      /* [what] */
    json_t *frames;        /* ["> line" / "< line"] */
    enum an_rpc_close_kind closed;
    char reason[512];
    bool stop;
};

static void seen_init(struct seen *s)
{
    memset(s, 0, sizeof *s);
    s->responses = json_array();
    s->requests = json_array();
    s->notifications = json_array();
    s->warnings = json_array();
    s->frames = json_array();
}

static void seen_release(struct seen *s)
{
    json_decref(s->responses);
    json_decref(s->requests);
    json_decref(s->notifications);
    json_decref(s->warnings);
    json_decref(s->frames);
}

static void on_response(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m)
{
    (void)rpc;
    struct seen *s = ud;
    json_t *e = json_pack("{s:O,s:b}", "id", (json_t *)m->id, "known", m->known);
    if (m->result)
        json_object_set(e, "result", (json_t *)m->result);
    if (m->error)
        json_object_set(e, "error", (json_t *)m->error);
    json_array_append_new(s->responses, e);
}

static void on_request(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m)
{
    (void)rpc;
    struct seen *s = ud;
    json_array_append_new(s->requests,
                          json_pack("{s:O,s:s}", "id", (json_t *)m->id, "method", m->method));
}

static void on_notification(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m)
{
    (void)rpc;
    struct seen *s = ud;
    json_array_append_new(s->notifications, json_string(m->method));
}

static void on_frame(void *ud, struct an_rpc *rpc, enum an_rpc_dir dir, const char *line,
                     size_t len, int64_t unix_ms)
{
    (void)rpc;
    struct seen *s = ud;
    assert_true(unix_ms > 1600000000000LL);
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, dir == AN_RPC_OUT ? "> " : "< ");
    an_buf_append(&b, line, len);
    json_array_append_new(s->frames, an_json_lossy(b.data, b.len));
    an_buf_release(&b);
}

static void on_warning(void *ud, struct an_rpc *rpc, const char *what, const char *line, size_t len)
{
    (void)rpc;
    (void)line;
    (void)len;
    struct seen *s = ud;
    json_array_append_new(s->warnings, json_string(what));
}

static void on_close(void *ud, struct an_rpc *rpc, enum an_rpc_close_kind kind, const char *reason)
{
    (void)rpc;
    struct seen *s = ud;
    assert_int_equal(s->closed, AN_RPC_OPEN); /* once */
    s->closed = kind;
    snprintf(s->reason, sizeof s->reason, "%s", reason);
    s->stop = true;
}

static struct an_rpc_cbs cbs_for(struct seen *s)
{
    return (struct an_rpc_cbs){.ud = s,
                               .on_response = on_response,
                               .on_request = on_request,
                               .on_notification = on_notification,
                               .on_frame = on_frame,
                               .on_warning = on_warning,
                               .on_close = on_close};
}

struct pair {
    int sv[2];
    struct seen a, b;
    struct an_rpc *ra, *rb;
};

static void pair_open(struct pair *p, const struct an_rpc_opts *oa)
{
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p->sv), 0);
    seen_init(&p->a);
    seen_init(&p->b);
    struct an_rpc_cbs ca = cbs_for(&p->a), cb = cbs_for(&p->b);
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_rpc_new_fds(&p->ra, p->sv[0], p->sv[0], oa, &ca, &err), AN_OK);
    assert_int_equal(an_rpc_new_fds(&p->rb, p->sv[1], p->sv[1], NULL, &cb, &err), AN_OK);
}

static void pair_close(struct pair *p)
{
    an_rpc_free(p->ra);
    an_rpc_free(p->rb);
    close(p->sv[0]);
    close(p->sv[1]);
    seen_release(&p->a);
    seen_release(&p->b);
}

static void pump_both(struct pair *p, int rounds)
{
    for (int i = 0; i < rounds; i++) {
        an_rpc_pump(p->ra, 0, NULL);
        an_rpc_pump(p->rb, 0, NULL);
    }
}

/* Both sides use id 0; responses come back out of order; a peer request
 * is answered later; a notification passes. */
static void test_id_spaces_and_order(void **state)
{
    (void)state;
    struct pair p;
    pair_open(&p, NULL);
    struct an_err err = AN_ERR_INIT;
    int64_t id0 = -1, id1 = -1, bid = -1;
    json_t *params = json_pack("{s:i}", "n", 1);
    assert_int_equal(an_rpc_request(p.ra, "first", params, &id0, &err), AN_OK);
    assert_int_equal(an_rpc_request(p.ra, "second", NULL, &id1, &err), AN_OK);
    assert_int_equal(id0, 0);
    assert_int_equal(id1, 1);
    assert_int_equal(an_rpc_request(p.rb, "from_b", NULL, &bid, &err), AN_OK);
    assert_int_equal(bid, 0); /* B's own id space */
    pump_both(&p, 5);

    assert_int_equal(json_array_size(p.b.requests), 2);
    assert_int_equal(json_array_size(p.a.requests), 1);
    json_t *breq0 = json_object_get(json_array_get(p.b.requests, 0), "id");
    json_t *breq1 = json_object_get(json_array_get(p.b.requests, 1), "id");
    /* B answers A's second request first */
    json_t *r1 = json_pack("{s:s}", "v", "second");
    json_t *r0 = json_pack("{s:s}", "v", "first");
    assert_int_equal(an_rpc_reply(p.rb, breq1, r1, &err), AN_OK);
    assert_int_equal(an_rpc_notify(p.rb, "tick", NULL, &err), AN_OK);
    assert_int_equal(an_rpc_reply_error(p.rb, breq0, -32000, "nope", r0, &err), AN_OK);
    pump_both(&p, 5);
    assert_int_equal(json_array_size(p.a.responses), 2);
    json_t *x = json_array_get(p.a.responses, 0), *y = json_array_get(p.a.responses, 1);
    assert_int_equal(json_integer_value(json_object_get(x, "id")), 1);
    assert_true(json_is_true(json_object_get(x, "known")));
    assert_string_equal(an_json_str(json_object_get(x, "result"), "v"), "second");
    assert_int_equal(json_integer_value(json_object_get(y, "id")), 0);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(y, "error"), "code")),
                     -32000);
    assert_int_equal(an_rpc_pending(p.ra), 0);
    assert_int_equal(json_array_size(p.a.notifications), 1);
    /* A's answer to B's id 0, sent late: routed to B, not confused with A's 0 */
    json_t *aid = json_object_get(json_array_get(p.a.requests, 0), "id");
    assert_int_equal(json_integer_value(aid), 0);
    assert_int_equal(an_rpc_pending(p.rb), 1);
    assert_int_equal(an_rpc_reply(p.ra, aid, NULL, &err), AN_OK);
    pump_both(&p, 5);
    assert_int_equal(json_array_size(p.b.responses), 1);
    assert_true(json_is_true(json_object_get(json_array_get(p.b.responses, 0), "known")));
    assert_int_equal(an_rpc_pending(p.rb), 0);
    assert_int_equal(json_array_size(p.a.warnings), 0);
    /* frames seen in both directions, compact, one per message */
    assert_string_equal(
        json_string_value(json_array_get(p.a.frames, 0)),
        "> {\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"first\",\"params\":{\"n\":1}}");
    json_decref(params);
    json_decref(r0);
    json_decref(r1);
    pair_close(&p);
}

/* String ids are echoed verbatim and matched by type; an_rpc_send
 * registers the id of a raw request. */
static void test_send_raw_ids(void **state)
{
    (void)state;
    struct pair p;
    pair_open(&p, NULL);
    struct an_err err = AN_ERR_INIT;
    json_t *msg = json_pack("{s:s,s:s,s:s}", "jsonrpc", "2.0", "id", "7", "method", "x");
    assert_int_equal(an_rpc_send(p.ra, msg, &err), AN_OK);
    json_t *batch = json_pack("[O]", msg);
    assert_int_equal(an_rpc_send(p.ra, batch, &err), AN_EUSAGE);
    json_t *msg5 = json_pack("{s:s,s:i,s:s}", "jsonrpc", "2.0", "id", 5, "method", "y");
    assert_int_equal(an_rpc_send(p.ra, msg5, &err), AN_OK);
    int64_t next = -1;
    assert_int_equal(an_rpc_request(p.ra, "z", NULL, &next, &err), AN_OK);
    assert_int_equal(next, 6); /* never reuses an id sent raw */
    pump_both(&p, 4);
    assert_int_equal(json_array_size(p.b.requests), 3);
    json_t *sid = json_object_get(json_array_get(p.b.requests, 0), "id");
    assert_true(json_is_string(sid));
    /* an answer with id 7 (a number) is not the answer to "7" */
    json_t *seven = json_integer(7);
    an_rpc_reply(p.rb, seven, NULL, &err);
    an_rpc_reply(p.rb, sid, NULL, &err);
    pump_both(&p, 4);
    assert_int_equal(json_array_size(p.a.responses), 2);
    assert_false(json_is_true(json_object_get(json_array_get(p.a.responses, 0), "known")));
    assert_true(json_is_true(json_object_get(json_array_get(p.a.responses, 1), "known")));
    assert_int_equal(json_array_size(p.a.warnings), 1);
    assert_non_null(strstr(json_string_value(json_array_get(p.a.warnings, 0)), "unknown id 7"));
    assert_int_equal(an_rpc_pending(p.ra), 2);
    json_decref(seven);
    json_decref(msg);
    json_decref(msg5);
    json_decref(batch);
    pair_close(&p);
}

/* Invalid lines are warnings, not closures; the peer keeps working. */
static void test_invalid_lines(void **state)
{
    (void)state;
    struct pair p;
    pair_open(&p, NULL);
    struct an_err err = AN_ERR_INIT;
    const char *bad[] = {"{not json", "[1,2]", "\"just a string\"", "{\"jsonrpc\":\"2.0\"}"};
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(an_rpc_send_raw(p.rb, bad[i], strlen(bad[i]), &err), AN_OK);
    assert_int_equal(an_rpc_send_raw(p.rb, "a\nb", 3, &err), AN_EUSAGE);
    an_rpc_notify(p.rb, "still", NULL, &err);
    pump_both(&p, 4);
    assert_int_equal(json_array_size(p.a.warnings), 4);
    assert_non_null(strstr(json_string_value(json_array_get(p.a.warnings, 0)), "invalid JSON"));
    assert_non_null(strstr(json_string_value(json_array_get(p.a.warnings, 1)), "batch"));
    assert_int_equal(json_array_size(p.a.notifications), 1);
    assert_true(an_rpc_is_open(p.ra));
    pair_close(&p);
}

static void test_frame_over_cap(void **state)
{
    (void)state;
    struct pair p;
    struct an_rpc_opts o = {.max_frame = 64};
    pair_open(&p, &o);
    struct an_err err = AN_ERR_INIT;
    an_rpc_notify(p.rb, "ok", NULL, &err);
    char big[200];
    memset(big, 'x', sizeof big);
    an_rpc_send_raw(p.rb, big, sizeof big, &err);
    pump_both(&p, 4);
    assert_int_equal(json_array_size(p.a.notifications), 1); /* what came before */
    assert_int_equal(p.a.closed, AN_RPC_CLOSE_OVERSIZE);
    assert_non_null(strstr(p.a.reason, "64-byte cap"));
    assert_false(an_rpc_is_open(p.ra));
    assert_int_equal(an_rpc_notify(p.ra, "late", NULL, &err), AN_EIO);
    assert_int_equal(an_rpc_fds(p.ra, (struct pollfd[4]){0}, 4), 0);
    pair_close(&p);
}

static struct an_rpc *spawn_sh(struct seen *s, const char *script, const struct an_rpc_opts *o)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    struct an_child_opts co = {.argv = argv};
    struct an_rpc_cbs cb = cbs_for(s);
    struct an_rpc *rpc = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_rpc_spawn(&rpc, &co, o, &cb, &err), AN_OK);
    return rpc;
}

static void test_child_exit_mid_request(void **state)
{
    (void)state;
    struct seen s;
    seen_init(&s);
    struct an_rpc *rpc = spawn_sh(&s, "read -r line; echo 'bye' >&2; exit 3", NULL);
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_rpc_request(rpc, "session/prompt", NULL, NULL, &err), AN_OK);
    assert_false(an_rpc_pump(rpc, 5000, &s.stop));
    assert_int_equal(s.closed, AN_RPC_CLOSE_EXITED);
    assert_string_equal(s.reason, "agent exited with status 3");
    assert_int_equal(an_rpc_pending(rpc), 1);
    size_t len = 0, dropped = 9;
    assert_string_equal(an_rpc_stderr(rpc, &len, &dropped), "bye\n");
    assert_int_equal(dropped, 0);
    assert_int_equal(an_rpc_child(rpc)->exit_code, 3);
    an_rpc_free(rpc);
    seen_release(&s);
}

static void test_crlf_and_last_line(void **state)
{
    (void)state;
    struct seen s;
    seen_init(&s);
    struct an_rpc *rpc = spawn_sh(
        &s,
        "printf '{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\\r\\n\\r\\n  \\n{\"jsonrpc\":\"2.0\",'; "
        "sleep 0.1; printf '\"method\":\"b\"}\\n{\"jsonrpc\":\"2.0\",\"method\":\"c\"}'",
        NULL);
    an_rpc_pump(rpc, 5000, &s.stop);
    assert_int_equal(json_array_size(s.notifications), 3);
    assert_string_equal(json_string_value(json_array_get(s.notifications, 1)), "b");
    assert_string_equal(json_string_value(json_array_get(s.notifications, 2)), "c");
    assert_int_equal(json_array_size(s.warnings), 0);
    assert_int_equal(s.closed, AN_RPC_CLOSE_EXITED);
    assert_string_equal(s.reason, "agent exited with status 0");
    an_rpc_free(rpc);
    seen_release(&s);
}

static void test_stderr_cap(void **state)
{
    (void)state;
    struct seen s;
    seen_init(&s);
    struct an_rpc_opts o = {.stderr_max = 10};
    struct an_rpc *rpc =
        spawn_sh(&s, "i=0; while [ $i -lt 10 ]; do printf '0123456789' >&2; i=$((i+1)); done", &o);
    an_rpc_pump(rpc, 5000, &s.stop);
    size_t len = 0, dropped = 0;
    assert_string_equal(an_rpc_stderr(rpc, &len, &dropped), "0123456789");
    assert_int_equal(dropped, 90);
    an_rpc_free(rpc);
    seen_release(&s);
}

/* A peer that never reads: sends queue up, nothing blocks, free ends it. */
static void test_peer_not_reading(void **state)
{
    (void)state;
    struct seen s;
    seen_init(&s);
    struct an_rpc_opts o = {.grace_ms = 100};
    struct an_rpc *rpc = spawn_sh(&s, "exec sleep 30", &o);
    struct an_err err = AN_ERR_INIT;
    char *blob = calloc(1, 1 << 16);
    memset(blob, 'y', 1 << 16);
    json_t *p = json_pack("{s:s%}", "blob", blob, (size_t)1 << 16);
    free(blob);
    int64_t t0 = an_clock_mono_ms();
    for (int i = 0; i < 16; i++) /* 1 MiB: far more than a pipe holds */
        assert_int_equal(an_rpc_request(rpc, "big", p, NULL, &err), AN_OK);
    assert_true(an_rpc_queued(rpc) > 0);
    an_rpc_pump(rpc, 100, NULL);
    assert_true(an_clock_mono_ms() - t0 < 5000); /* generous: valgrind */
    pid_t pg = an_rpc_child(rpc)->pid;
    an_rpc_free(rpc);
    assert_int_equal(kill(-pg, 0), -1);
    assert_int_equal(errno, ESRCH);
    json_decref(p);
    seen_release(&s);
}

/* Every frame we send, exactly as it goes over the wire: the envelope is
 * written from bytes in the form the jansson object it replaced had. */
static void test_wire_forms(void **state)
{
    (void)state;
    struct pair p;
    pair_open(&p, NULL);
    struct an_err err = AN_ERR_INIT;
    json_t *params = json_pack("{s:[i,s,n,b],s:{}}", "x", 1, "\xc3\xa9\"\n", 1, "y");
    json_t *sid = json_string("s-1"), *data = json_pack("[i]", 1), *three = json_integer(3);
    assert_int_equal(an_rpc_request(p.ra, "a\"b", params, NULL, &err), AN_OK);
    assert_int_equal(an_rpc_notify(p.ra, "n", NULL, &err), AN_OK);
    assert_int_equal(an_rpc_reply(p.ra, sid, NULL, &err), AN_OK);
    assert_int_equal(an_rpc_reply(p.ra, NULL, params, &err), AN_OK);
    assert_int_equal(an_rpc_reply_error(p.ra, three, -32602, "bad", data, &err), AN_OK);
    assert_int_equal(an_rpc_request_text(p.ra, "initialize", "{\"a\":1}", 7, NULL, &err), AN_OK);
    assert_int_equal(an_rpc_request_text(p.ra, "x", "{\n}", 3, NULL, &err), AN_EUSAGE);
    static const char *const want[] = {
        "> "
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"a\\\"b\",\"params\":{\"x\":[1,"
        "\"\xc3\xa9\\\"\\n\","
        "null,true],\"y\":{}}}",
        "> {\"jsonrpc\":\"2.0\",\"method\":\"n\"}",
        "> {\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"result\":{}}",
        "> {\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{\"x\":[1,\"\xc3\xa9\\\"\\n\",null,true],"
        "\"y\":{}}}",
        "> "
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"bad\",\"data\":[1]}"
        "}",
        "> {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"a\":1}}",
    };
    assert_int_equal(json_array_size(p.a.frames), 6);
    for (size_t i = 0; i < 6; i++)
        assert_string_equal(json_string_value(json_array_get(p.a.frames, i)), want[i]);
    /* and the peer reads each of them as sent */
    pump_both(&p, 4);
    assert_int_equal(json_array_size(p.b.requests), 2);
    assert_string_equal(an_json_str(json_array_get(p.b.requests, 0), "method"), "a\"b");
    assert_int_equal(json_array_size(p.b.warnings), 3); /* the answers to unknown ids */
    assert_int_equal(an_rpc_pending(p.ra), 2);
    json_decref(params);
    json_decref(sid);
    json_decref(data);
    json_decref(three);
    pair_close(&p);
}

/* A send from inside on_frame (which gets the frame being sent) leaves
 * both frames whole. */
static void frame_sends(void *ud, struct an_rpc *rpc, enum an_rpc_dir dir, const char *line,
                        size_t len, int64_t unix_ms)
{
    struct seen *s = ud;
    on_frame(ud, rpc, dir, line, len, unix_ms);
    if (dir == AN_RPC_OUT && json_array_size(s->frames) == 1) {
        an_rpc_notify(rpc, "nested", NULL, NULL);
        /* the outer frame is still readable after the nested send */
        json_array_append_new(s->frames, an_json_lossy(line, len));
    }
}

static void test_send_inside_on_frame(void **state)
{
    (void)state;
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    struct seen s, t;
    seen_init(&s);
    seen_init(&t);
    struct an_rpc_cbs ca = cbs_for(&s), cb = cbs_for(&t);
    ca.on_frame = frame_sends;
    struct an_rpc *ra = NULL, *rb = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_rpc_new_fds(&ra, sv[0], sv[0], NULL, &ca, &err), AN_OK);
    assert_int_equal(an_rpc_new_fds(&rb, sv[1], sv[1], NULL, &cb, &err), AN_OK);
    assert_int_equal(an_rpc_notify(ra, "outer", NULL, &err), AN_OK);
    assert_int_equal(json_array_size(s.frames), 3);
    assert_string_equal(json_string_value(json_array_get(s.frames, 1)),
                        "> {\"jsonrpc\":\"2.0\",\"method\":\"nested\"}");
    assert_string_equal(json_string_value(json_array_get(s.frames, 2)),
                        "{\"jsonrpc\":\"2.0\",\"method\":\"outer\"}");
    for (int i = 0; i < 4; i++)
        an_rpc_pump(rb, 0, NULL);
    assert_int_equal(json_array_size(t.notifications), 2);
    assert_int_equal(json_array_size(t.warnings), 0);
    an_rpc_free(ra);
    an_rpc_free(rb);
    close(sv[0]);
    close(sv[1]);
    seen_release(&s);
    seen_release(&t);
}

/* The cap's reason names the config key that sets it. */
static void test_frame_cap_key(void **state)
{
    (void)state;
    struct pair p;
    struct an_rpc_opts o = {.max_frame = 64, .max_frame_key = "max_frame_bytes"};
    pair_open(&p, &o);
    struct an_err err = AN_ERR_INIT;
    char big[65];
    memset(big, 'x', sizeof big);
    an_rpc_send_raw(p.rb, big, 64, &err); /* exactly the cap: read (a warning) */
    an_rpc_send_raw(p.rb, big, 65, &err);
    pump_both(&p, 4);
    assert_int_equal(json_array_size(p.a.warnings), 1);
    assert_string_equal(p.a.reason, "agent sent a frame over the 64-byte cap (max_frame_bytes)");
    pair_close(&p);
}

/* An agent that closed its stdin: sends fail cleanly, no SIGPIPE kills us
 * (it is ignored once, process-wide), and the child still starts with
 * SIGPIPE at its default action. */
static void test_peer_gone(void **state)
{
    (void)state;
    struct seen s;
    seen_init(&s);
    struct an_rpc *rpc = spawn_sh(&s, "exec 0<&-; exec sleep 5", NULL);
    struct sigaction sa;
    assert_int_equal(sigaction(SIGPIPE, NULL, &sa), 0);
    assert_true(sa.sa_handler == SIG_IGN);
    struct an_err err = AN_ERR_INIT;
    int rc = AN_OK;
    int64_t t0 = an_clock_mono_ms();
    while (rc == AN_OK && an_clock_mono_ms() - t0 < 5000) {
        rc = an_rpc_notify(rpc, "anyone", NULL, &err);
        an_rpc_pump(rpc, 10, NULL);
    }
    assert_int_equal(rc, AN_EIO);
    assert_string_equal(err.msg, "cannot send to agent: it closed its input");
    sigset_t pending;
    sigpending(&pending);
    assert_int_equal(sigismember(&pending, SIGPIPE), 0);
    an_rpc_free(rpc);
    seen_release(&s);
}

/* an_rpc_scan reads the members as the whole parse would, or declines
 * (and the whole parse then judges). */
static void test_scan_table(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        bool scanned;
    } t[] = {
        {"{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"a\":[1,2.5,null]}}", true},
        {" { \"id\" : \"x\\\"}\" , \"method\" : \"m\\u00e9\" , \"params\" : [ ] } ", true},
        {"{\"jsonrpc\":\"2.0\",\"method\":\"n\",\"extra\":{\"id\":9},\"more\":true}", true},
        {"{\"\\u0069d\":7,\"error\":{\"code\":-1,\"message\":\"m\"}}", true},
        {"{}", true},
        {"{\"id\":1,\"id\":2}", false},         /* repeated: the last wins, judged whole */
        {"{\"id\":1,}", false},                 /* invalid */
        {"{\"id\":1 2}", false},                /* invalid */
        {"{\"id\":[}", false},                  /* invalid */
        {"{\"x\":\"\\u0000\",\"id\":1}", true}, /* read by jansson, as whole */
        {"{\"x\":12345678901234567890123,\"id\":1}", true}, /* beyond int64: a real, as whole */
        {"[{\"id\":1}]", false},                            /* a batch */
        {"{\"id\":1}x", false},
        {"\"id\"", false},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        struct an_rpc_members m;
        bool got = an_rpc_scan(t[i].in, strlen(t[i].in), &m);
        if (got != t[i].scanned)
            fail_msg("%s: scanned %d", t[i].in, got);
        if (!got)
            continue;
        json_t *j = an_json_parse(t[i].in, strlen(t[i].in), NULL, 0);
        assert_non_null(j);
        const char *names[] = {"id", "method", "params", "result", "error"};
        json_t *have[] = {m.id, m.method, m.params, m.result, m.error};
        for (size_t k = 0; k < 5; k++) {
            json_t *want = json_object_get(j, names[k]);
            assert_true(!want == !have[k]);
            assert_true(!want || json_equal(want, have[k]));
        }
        json_decref(j);
        an_rpc_members_release(&m);
    }
}

/* With no_message the callbacks get the same members and warnings, and
 * no m->json. */
static void no_json(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m)
{
    assert_null(m->json);
    if (m->kind == AN_RPC_REQUEST)
        on_request(ud, rpc, m);
    else if (m->kind == AN_RPC_RESPONSE)
        on_response(ud, rpc, m);
    else
        on_notification(ud, rpc, m);
}

static void test_no_message(void **state)
{
    (void)state;
    struct pair p;
    struct an_rpc_opts o = {.no_message = true};
    pair_open(&p, &o);
    an_rpc_free(p.ra);
    struct an_rpc_cbs ca = cbs_for(&p.a);
    ca.on_request = ca.on_response = ca.on_notification = no_json;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_rpc_new_fds(&p.ra, p.sv[0], p.sv[0], &o, &ca, &err), AN_OK);
    int64_t id = -1;
    assert_int_equal(an_rpc_request(p.ra, "q", NULL, &id, &err), AN_OK);
    pump_both(&p, 2);
    json_t *bid = json_object_get(json_array_get(p.b.requests, 0), "id");
    json_t *res = json_pack("{s:[i]}", "r", 1);
    assert_int_equal(an_rpc_reply(p.rb, bid, res, &err), AN_OK);
    const char *raw[] = {"{\"jsonrpc\":\"2.0\",\"method\":\"note\",\"params\":{\"k\":\"v\"}}",
                         "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"ask\"}",
                         "{\"jsonrpc\":\"2.0\",\"method\":7}", "{\"id\":1,\"id\":2}", "{nope"};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(an_rpc_send_raw(p.rb, raw[i], strlen(raw[i]), &err), AN_OK);
    pump_both(&p, 4);
    assert_int_equal(json_array_size(p.a.responses), 1);
    assert_true(json_equal(json_object_get(json_array_get(p.a.responses, 0), "result"), res));
    assert_int_equal(json_array_size(p.a.notifications), 1);
    assert_int_equal(json_array_size(p.a.requests), 1);
    assert_true(json_is_string(json_object_get(json_array_get(p.a.requests, 0), "id")));
    assert_int_equal(json_array_size(p.a.warnings), 3);
    assert_string_equal(json_string_value(json_array_get(p.a.warnings, 0)),
                        "method is not a string");
    assert_non_null(strstr(json_string_value(json_array_get(p.a.warnings, 1)), "neither"));
    assert_non_null(strstr(json_string_value(json_array_get(p.a.warnings, 2)), "invalid JSON"));
    json_decref(res);
    pair_close(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_id_spaces_and_order),
        cmocka_unit_test(test_send_raw_ids),
        cmocka_unit_test(test_invalid_lines),
        cmocka_unit_test(test_frame_over_cap),
        cmocka_unit_test(test_child_exit_mid_request),
        cmocka_unit_test(test_crlf_and_last_line),
        cmocka_unit_test(test_stderr_cap),
        cmocka_unit_test(test_peer_not_reading),
        cmocka_unit_test(test_wire_forms),
        cmocka_unit_test(test_send_inside_on_frame),
        cmocka_unit_test(test_frame_cap_key),
        cmocka_unit_test(test_peer_gone),
        cmocka_unit_test(test_scan_table),
        cmocka_unit_test(test_no_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
