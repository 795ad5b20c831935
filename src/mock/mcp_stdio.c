#include "mcp_stdio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/json.h"
#include "mcp_listen.h"
#include "mcp_modern.h"
#include "proto/jsonrpc.h"

/* A line from the client longer than this is dropped with a parse error. */
#define MAX_LINE (64u * 1024u * 1024u)
#define ASKS 3 /* the ask tool's requests: ping, roots/list, sampling/createMessage */

struct stdio_srv {
    const struct mcp_server_opts *opts;
    FILE *log;
    bool out_gone; /* stdout closed, by us or by the client */
    /* a request spoke 2026-07-28 (its _meta names the protocol version):
     * from then on every request is answered in that revision */
    bool modern;
    unsigned long next_id;
    /* the ask tool, while its requests are out */
    json_t *ask_call;          /* the tools/call id; NULL when nothing is asked */
    char ask_ids[ASKS][24];    /* our request ids */
    json_t *ask_replies[ASKS]; /* what came back */
    /* a kit tool that asks the client (mcp_ask.c), while its request is out */
    json_t *kit_call; /* the tools/call id; NULL when nothing is asked */
    enum mcp_tool kit_tool;
    char kit_id[24]; /* our request's id */
};

static void write_line(struct stdio_srv *s, const char *data, size_t len)
{
    struct {
        const char *p;
        size_t n;
    } parts[2] = {{data, len}, {"\n", 1}};
    for (int i = 0; i < 2 && !s->out_gone; i++) {
        const char *p = parts[i].p;
        size_t n = parts[i].n;
        while (n > 0) {
            ssize_t w = write(STDOUT_FILENO, p, n);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) { /* the client closed our stdout: keep reading until stdin ends */
                s->out_gone = true;
                return;
            }
            p += w;
            n -= (size_t)w;
        }
    }
}

static void send_msg(struct stdio_srv *s, json_t *msg)
{
    if (!msg)
        return;
    char *line = an_json_compact(msg);
    write_line(s, line, strlen(line));
    free(line);
    json_decref(msg);
}

static void ask_start(struct stdio_srv *s, const json_t *call_id)
{
    static const char *const methods[ASKS] = {"ping", "roots/list", "sampling/createMessage"};
    s->ask_call = json_incref((json_t *)call_id);
    for (int i = 0; i < ASKS; i++) {
        snprintf(s->ask_ids[i], sizeof s->ask_ids[i], "s%lu", ++s->next_id);
        json_t *req =
            json_pack("{s:s,s:s,s:s}", "jsonrpc", "2.0", "id", s->ask_ids[i], "method", methods[i]);
        if (i == 2)
            json_object_set_new(req, "params", json_pack("{s:[],s:i}", "messages", "maxTokens", 1));
        send_msg(s, req);
    }
}

/* "{...}" for a result, "error CODE" for an error. */
static void said(struct an_buf *b, const json_t *reply)
{
    const json_t *e = json_object_get(reply, "error");
    if (e) {
        an_buf_printf(b, "error %lld", (long long)json_integer_value(json_object_get(e, "code")));
        return;
    }
    char *r = an_json_compact(json_object_get(reply, "result"));
    an_buf_puts(b, r);
    free(r);
}

/* A kit tool that asks the client: its request goes out, the answer
 * comes in on_response. */
static void kit_ask_start(struct stdio_srv *s, enum mcp_tool t, const json_t *call)
{
    const json_t *id = json_object_get(call, "id");
    if (s->kit_call) {
        send_msg(s, json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", id, "error", "code",
                              -32603, "message", "a kit tool is already asking"));
        return;
    }
    snprintf(s->kit_id, sizeof s->kit_id, "s%lu", ++s->next_id);
    s->kit_call = json_incref((json_t *)id);
    s->kit_tool = t;
    send_msg(s, mcp_ask_request(s->opts, t, json_object_get(call, "params"), s->kit_id));
}

/* A response from the client: the kit tool's, one of the ask tool's, or
 * ignored. */
static void on_response(struct stdio_srv *s, json_t *msg)
{
    const char *id = an_json_str(msg, "id");
    if (s->kit_call && id && !strcmp(id, s->kit_id)) {
        send_msg(s, json_pack("{s:s,s:o,s:o}", "jsonrpc", "2.0", "id", s->kit_call, "result",
                              mcp_ask_result(s->kit_tool, msg)));
        s->kit_call = NULL; /* the reference went into the answer */
        return;
    }
    if (!s->ask_call || !id)
        return;
    int done = 0;
    for (int i = 0; i < ASKS; i++) {
        if (!strcmp(id, s->ask_ids[i]) && !s->ask_replies[i])
            s->ask_replies[i] = json_incref(msg);
        done += s->ask_replies[i] != NULL;
    }
    if (done < ASKS)
        return;
    static const char *const labels[ASKS] = {"ping: ", "; roots: ", "; sampling: "};
    struct an_buf b = AN_BUF_INIT;
    for (int i = 0; i < ASKS; i++) {
        an_buf_puts(&b, labels[i]);
        said(&b, s->ask_replies[i]);
        json_decref(s->ask_replies[i]);
        s->ask_replies[i] = NULL;
    }
    send_msg(s, json_pack("{s:s,s:o,s:{s:[{s:s,s:s}]}}", "jsonrpc", "2.0", "id", s->ask_call,
                          "result", "content", "type", "text", "text", an_buf_cstr(&b)));
    s->ask_call = NULL; /* the reference went into the answer */
    an_buf_release(&b);
}

/* One message from the client; returns an exit status to stop with, or -1. */
static int on_message(struct stdio_srv *s, json_t *msg)
{
    if (!json_object_get(msg, "method")) {
        on_response(s, msg);
        return -1;
    }
    if (s->modern || s->opts->modern_only || mcp_modern_is(msg, NULL)) {
        s->modern = true;
        json_t *out = json_array();
        const char *method = an_json_str(msg, "method");
        if (method && !strcmp(method, "notifications/cancelled")) /* a listen ends */
            mcp_hub_cancel(s->opts->hub,
                           json_object_get(json_object_get(msg, "params"), "requestId"));
        mcp_modern_answer(s->opts, msg, NULL, out);
        mcp_hub_drain(s->opts->hub, out); /* what a trigger tool published */
        size_t k;
        json_t *m;
        json_array_foreach(out, k, m) send_msg(s, json_incref(m));
        json_decref(out);
        return -1;
    }
    json_t *reply = NULL, *notes = json_array();
    enum mcp_tool t = mcp_server_answer(s->opts, msg, notes, &reply);
    size_t i;
    json_t *note;
    json_array_foreach(notes, i, note) send_msg(s, json_incref(note));
    json_decref(notes);
    const json_t *id = json_object_get(msg, "id");
    switch (t) {
    case MCP_T_ASK:
        json_decref(reply);
        if (s->ask_call)
            send_msg(s, json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", id, "error",
                                  "code", -32603, "message", "ask is already waiting"));
        else
            ask_start(s, id);
        return -1;
    case MCP_T_DIE:
        json_decref(reply);
        fputs("ananke-mock mcp: dying mid-call on purpose\n", stderr);
        return 3;
    case MCP_T_GARBAGE: {
        json_decref(reply);
        char *g = mcp_garbage_frame(id);
        write_line(s, g, strlen(g));
        free(g);
        return -1;
    }
    case MCP_T_HANG:
        json_decref(reply);
        return -1;
    case MCP_T_HUGE: {
        json_decref(reply);
        size_t len;
        char *h = mcp_huge_frame(id, AN_RPC_MAX_FRAME + 1, &len);
        write_line(s, h, len);
        free(h);
        return -1;
    }
    case MCP_T_CLOSE_STDOUT:
        json_decref(reply);
        close(STDOUT_FILENO);
        s->out_gone = true;
        return -1;
    case MCP_T_STDERR_FLOOD:
        mcp_stderr_flood(MCP_FLOOD_BYTES);
        send_msg(s, reply);
        return -1;
    default:
        if (mcp_ask_is(t)) {
            json_decref(reply);
            kit_ask_start(s, t, msg);
            return -1;
        }
        send_msg(s, reply);
        return -1;
    }
}

static int on_line(struct stdio_srv *s, const char *line, size_t n)
{
    if (n && line[n - 1] == '\r')
        n--;
    if (!n)
        return -1;
    if (s->log) {
        fwrite(line, 1, n, s->log);
        fputc('\n', s->log);
        fflush(s->log);
    }
    char why[160];
    json_t *msg = an_json_parse(line, n, why, sizeof why);
    if (!json_is_object(msg)) {
        json_decref(msg);
        send_msg(s, json_pack("{s:s,s:n,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", "error", "code",
                              -32700, "message", "Parse error"));
        return -1;
    }
    int status = on_message(s, msg);
    json_decref(msg);
    return status;
}

int mcp_stdio_run(const struct mcp_server_opts *opts, FILE *log)
{
    struct stdio_srv s = {.opts = opts, .log = log};
    struct an_buf in;
    an_buf_init(&in, MAX_LINE);
    bool dropping = false; /* inside a line over MAX_LINE: skip to its end */
    int status = -1;
    char chunk[65536];
    while (status < 0) {
        ssize_t got = read(STDIN_FILENO, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        const char *p = chunk, *end = chunk + got;
        while (p < end && status < 0) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t n = (size_t)((nl ? nl : end) - p);
            if (!dropping && an_buf_append(&in, p, n)) {
                an_buf_reset(&in);
                dropping = true;
                send_msg(&s, json_pack("{s:s,s:n,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", "error",
                                       "code", -32700, "message", "Parse error: line too long"));
            }
            if (!nl)
                break;
            if (!dropping)
                status = on_line(&s, in.data ? in.data : "", in.len);
            an_buf_reset(&in);
            dropping = false;
            p = nl + 1;
        }
    }
    an_buf_release(&in);
    json_decref(s.ask_call);
    json_decref(s.kit_call);
    for (int i = 0; i < ASKS; i++)
        json_decref(s.ask_replies[i]);
    return status < 0 ? 0 : status;
}
