#include "acp_agent.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"

/* The SDK's default maximum message size; a longer line is answered with a
 * parse error and dropped, not buffered without end. */
#define ACP_MAX_LINE (32u * 1024u * 1024u)
/* Updates kept per session for session/load replay. */
#define ACP_MAX_HISTORY 100000u

static const char *const fault_names[] = {
#define ACP_X(e, name, desc) name,
    ACP_FAULT_MAP(ACP_X)
#undef ACP_X
};
static const char *const fault_descs[] = {
#define ACP_X(e, name, desc) desc,
    ACP_FAULT_MAP(ACP_X)
#undef ACP_X
};

const char *acp_fault_name(unsigned i)
{
    return i < ACP_FAULT_COUNT ? fault_names[i] : NULL;
}

const char *acp_fault_desc(unsigned i)
{
    return i < ACP_FAULT_COUNT ? fault_descs[i] : NULL;
}

struct session {
    char *id;
    char *cwd;
    char *mode; /* current mode id, or NULL without modes */
    json_t *history;
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

static bool fault(const struct agent *a, enum acp_fault f)
{
    return a->faults & (1u << f);
}

/* ---- output -------------------------------------------------------------- */

static void log_line(struct agent *a, const char *dir, const char *s, size_t n)
{
    if (!a->log)
        return;
    int64_t ms = an_clock_unix_ms();
    time_t secs = (time_t)(ms / 1000);
    struct tm tm;
    char when[32];
    gmtime_r(&secs, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
    fprintf(a->log, "%s.%03dZ %s ", when, (int)(ms % 1000), dir);
    fwrite(s, 1, n, a->log);
    fputc('\n', a->log);
    fflush(a->log);
}

static void write_all(struct agent *a, const char *s, size_t n)
{
    while (n > 0 && !a->quit) {
        ssize_t w = write(STDOUT_FILENO, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            /* the client closed our stdout: nobody is listening any more */
            a->quit = true;
            return;
        }
        s += w;
        n -= (size_t)w;
    }
}

/* One line to stdout, verbatim (raw steps, the garbage-line fault). */
static void send_raw(struct agent *a, const char *s)
{
    size_t n = strlen(s);
    if (n && s[n - 1] == '\n')
        n--;
    log_line(a, "A>C", s, n);
    char *line = an_xmalloc(n + 1);
    memcpy(line, s, n);
    line[n] = '\n';
    write_all(a, line, n + 1);
    free(line);
}

/* Send a message (stolen) as one compact line. */
static void send_msg(struct agent *a, json_t *msg)
{
    char *s = an_json_compact(msg);
    json_decref(msg);
    send_raw(a, s);
    free(s);
}

static void send_result(struct agent *a, json_t *id, json_t *result)
{
    send_msg(a, json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                          "result", result));
}

static void send_error(struct agent *a, json_t *id, int code, const char *message, json_t *data)
{
    json_t *e = json_pack("{s:i, s:s}", "code", code, "message", message);
    if (data)
        json_object_set_new(e, "data", data);
    send_msg(a, json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                          "error", e));
}

static void invalid_params(struct agent *a, json_t *id, const char *field, const char *why)
{
    send_error(a, id, -32602, "Invalid params", json_pack("{s:s}", field, why));
}

/* A session/update (update stolen), recorded for session/load. */
static void send_update(struct agent *a, struct session *s, json_t *update)
{
    if (json_array_size(s->history) < ACP_MAX_HISTORY)
        json_array_append(s->history, update);
    send_msg(a, json_pack("{s:s, s:s, s:{s:s, s:o}}", "jsonrpc", "2.0", "method",
                          "session/update", "params", "sessionId", s->id, "update", update));
    if (a->running == s) {
        a->turn_updates++;
        if (fault(a, ACP_FAULT_EXIT_MID_TURN)) {
            fputs("ananke-mock acp: exiting mid-turn (fault exit-mid-turn)\n", stderr);
            if (a->log)
                fflush(a->log);
            _exit(1);
        }
    }
}

static void send_chunk(struct agent *a, struct session *s, const char *tag, const char *text,
                       size_t len, const char *message_id)
{
    json_t *u = json_pack("{s:s, s:{s:s, s:s%}}", "sessionUpdate", tag, "content", "type", "text",
                          "text", text, len);
    if (!u) /* invalid UTF-8 cannot come from YAML or jansson; be safe anyway */
        u = json_pack("{s:s, s:{s:s, s:o}}", "sessionUpdate", tag, "content", "type", "text",
                      "text", an_json_lossy(text, len));
    if (message_id)
        json_object_set_new(u, "messageId", json_string(message_id));
    send_update(a, s, u);
}

static void say(struct agent *a, struct session *s, const char *text)
{
    send_chunk(a, s, "agent_message_chunk", text, strlen(text), NULL);
}

/* ---- input --------------------------------------------------------------- */

static void handle_line(struct agent *a, const char *line, size_t n);

/* Handle the first complete line in the input buffer; false when there is
 * none. A line over ACP_MAX_LINE is answered with a parse error and dropped
 * up to its end. */
static bool take_line(struct agent *a)
{
    char *nl = a->in.len ? memchr(a->in.data, '\n', a->in.len) : NULL;
    if (a->discarding) {
        if (!nl) {
            an_buf_reset(&a->in);
            return false;
        }
        an_buf_consume(&a->in, (size_t)(nl - a->in.data) + 1);
        a->discarding = false;
        nl = a->in.len ? memchr(a->in.data, '\n', a->in.len) : NULL;
    }
    if (!nl) {
        if (a->in.len > ACP_MAX_LINE) {
            fprintf(stderr, "ananke-mock acp: a line is longer than %u bytes; dropped\n",
                    ACP_MAX_LINE);
            send_error(a, NULL, -32700, "Parse error",
                       json_pack("{s:s}", "details", "message over the size limit"));
            an_buf_reset(&a->in);
            a->discarding = true;
        }
        return false;
    }
    /* handle_line may pump again (a prompt turn waiting for a reply), so
     * the line leaves the buffer first and the rest stays in order */
    size_t n = (size_t)(nl - a->in.data);
    char *line = an_xstrndup(a->in.data, n);
    an_buf_consume(&a->in, n + 1);
    handle_line(a, line, n);
    free(line);
    return true;
}

/* Handle the lines already buffered; when there are none, wait up to
 * timeout_ms (-1 = forever) for input and handle what came. At EOF a last
 * line without '\n' still counts. */
static void pump(struct agent *a, int timeout_ms)
{
    if (a->eof || a->quit)
        return;
    if (take_line(a)) {
        while (!a->quit && take_line(a))
            ;
        return;
    }
    struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
    int r = poll(&p, 1, timeout_ms);
    if (r <= 0)
        return; /* timeout or EINTR */
    char chunk[65536];
    ssize_t got = read(STDIN_FILENO, chunk, sizeof chunk);
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (got <= 0) {
        a->eof = true;
        if (a->in.len && !a->discarding) {
            size_t n = a->in.len;
            char *last = an_buf_detach(&a->in, NULL);
            handle_line(a, last, n);
            free(last);
        }
        return;
    }
    an_buf_append(&a->in, chunk, (size_t)got);
    while (!a->quit && take_line(a))
        ;
}

/* Whether the running turn must stop. Not stdin's end: a client that
 * writes its requests and closes stdin still gets every answer that needs
 * nothing more from it. */
static bool interrupted(const struct agent *a)
{
    return a->quit || a->cancelled;
}

/* Sleep ms, handling input meanwhile; false when interrupted. */
static bool nap(struct agent *a, long long ms)
{
    int64_t until = an_clock_mono_ms() + ms;
    for (;;) {
        if (interrupted(a))
            return false;
        int64_t left = until - an_clock_mono_ms();
        if (left <= 0)
            return true;
        if (a->eof)
            an_sleep_ms(left > 100 ? 100 : left);
        else
            pump(a, (int)(left > 1000 ? 1000 : left));
    }
}

/* Send a request (params stolen) and wait for its reply. Returns the reply
 * message (caller frees) or NULL when interrupted first. */
static json_t *call(struct agent *a, struct session *s, const char *method, json_t *params)
{
    long long id = a->next_id++;
    json_t *p = json_pack("{s:s}", "sessionId", s->id);
    json_object_update(p, params);
    json_decref(params);
    send_msg(a, json_pack("{s:s, s:I, s:s, s:o}", "jsonrpc", "2.0", "id", (json_int_t)id,
                          "method", method, "params", p));
    a->waiting = true;
    a->got_reply = false;
    a->wait_id = id;
    while (!a->got_reply && !interrupted(a) && !a->eof)
        pump(a, 1000);
    a->waiting = false;
    json_t *r = a->got_reply ? a->reply : NULL;
    a->reply = NULL;
    a->got_reply = false;
    return r;
}

/* Fire and forget: the reply, when it comes, is ignored as unknown. */
static void notify_request(struct agent *a, struct session *s, const char *method, json_t *params)
{
    json_t *p = json_pack("{s:s}", "sessionId", s->id);
    json_object_update(p, params);
    json_decref(params);
    send_msg(a, json_pack("{s:s, s:I, s:s, s:o}", "jsonrpc", "2.0", "id",
                          (json_int_t)a->next_id++, "method", method, "params", p));
}

/* ---- sessions and paths -------------------------------------------------- */

static struct session *find_session(struct agent *a, const char *id)
{
    for (struct session *s = a->sessions; s; s = s->next)
        if (id && !strcmp(s->id, id))
            return s;
    return NULL;
}

/* The path the client gets: absolute inside the session's cwd, or (fault
 * relative-paths) relative to it. Caller frees. */
static char *client_path(struct agent *a, const struct session *s, const char *path)
{
    struct an_buf b = AN_BUF_INIT;
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    if (fault(a, ACP_FAULT_RELATIVE_PATHS)) {
        size_t cl = strlen(s->cwd);
        if (!strncmp(path, s->cwd, cl) && path[cl] == '/')
            path += cl + 1;
        while (*path == '/')
            path++;
        an_buf_puts(&b, *path ? path : ".");
    } else if (path[0] == '/') {
        an_buf_puts(&b, path);
    } else {
        an_buf_puts(&b, s->cwd);
        if (b.len && b.data[b.len - 1] != '/')
            an_buf_putc(&b, '/');
        an_buf_puts(&b, path);
    }
    return an_buf_detach(&b, NULL);
}

/* Paths in update objects (locations, diffs) are always absolute: the
 * relative-paths fault is about fs requests. */
static void absolutize(struct agent *a, const struct session *s, json_t *obj, const char *key)
{
    const char *p = an_json_str(obj, key);
    if (!p || p[0] == '/')
        return;
    unsigned keep = a->faults;
    a->faults &= ~(1u << ACP_FAULT_RELATIVE_PATHS);
    char *abs = client_path(a, s, p);
    a->faults = keep;
    json_object_set_new(obj, key, json_string(abs));
    free(abs);
}

static void fix_update_paths(struct agent *a, const struct session *s, json_t *u)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(u, "locations"), i, v) absolutize(a, s, v, "path");
    json_array_foreach(json_object_get(u, "content"), i, v)
        if (json_is_object(v) && !strcmp(an_json_str(v, "type") ? an_json_str(v, "type") : "",
                                         "diff"))
            absolutize(a, s, v, "path");
}

static char *new_tool_id(struct agent *a)
{
    char buf[32];
    snprintf(buf, sizeof buf, "call_%u", ++a->ntools);
    free(a->last_tool);
    a->last_tool = an_xstrdup(buf);
    return a->last_tool;
}

static json_t *text_content(const char *text)
{
    return json_pack("[{s:s, s:{s:s, s:o}}]", "type", "content", "content", "type", "text",
                     "text", an_json_lossy(text, strlen(text)));
}

static void tool_update(struct agent *a, struct session *s, const char *id, const char *status,
                        json_t *content, json_t *raw_output)
{
    json_t *u = json_pack("{s:s, s:s, s:s}", "sessionUpdate", "tool_call_update", "toolCallId", id,
                          "status", status);
    if (content)
        json_object_set_new(u, "content", content);
    if (raw_output)
        json_object_set_new(u, "rawOutput", raw_output);
    send_update(a, s, u);
}

/* The error message of a reply, or NULL when it is a result. */
static const char *reply_error(const json_t *reply)
{
    json_t *e = json_object_get(reply, "error");
    if (!e)
        return NULL;
    const char *m = an_json_str(e, "message");
    return m ? m : "error";
}

/* ---- prompt steps -------------------------------------------------------- */

enum turn { TURN_GO, TURN_STOP, TURN_SKIP };

struct turn_end {
    const char *stop; /* stop reason; NULL with an error */
    const struct acp_step *error;
};

static bool can_read(const struct agent *a)
{
    return a->fs_read || fault(a, ACP_FAULT_FS_NO_CAP);
}

static bool can_write(const struct agent *a)
{
    return a->fs_write || fault(a, ACP_FAULT_FS_NO_CAP);
}

static bool can_terminal(const struct agent *a)
{
    return a->terminal || fault(a, ACP_FAULT_TERMINAL_NO_CAP);
}

/* Byte offset of character number `j` (UTF-8) in text[0..len). */
static size_t char_offset(const char *text, size_t len, size_t j)
{
    size_t off = 0, seen = 0;
    for (; off < len; off++) {
        if (((unsigned char)text[off] & 0xC0) == 0x80)
            continue;
        if (seen++ == j)
            return off;
    }
    return len;
}

/* The text as n chunks of about equal length, never inside a character. */
static void chunks(struct agent *a, struct session *s, const char *tag, const char *text,
                   unsigned n, const char *message_id)
{
    size_t len = strlen(text), chars = 0;
    for (size_t i = 0; i < len; i++)
        chars += ((unsigned char)text[i] & 0xC0) != 0x80;
    if (n > chars)
        n = chars ? (unsigned)chars : 1;
    for (unsigned k = 0; k < n && !a->quit; k++) {
        size_t from = char_offset(text, len, chars * k / n);
        size_t to = k + 1 == n ? len : char_offset(text, len, chars * (k + 1) / n);
        send_chunk(a, s, tag, text + from, to - from, message_id);
    }
}

static enum turn step_read(struct agent *a, struct session *s, const char *path, const char *id,
                           long long line, long long limit)
{
    if (!can_read(a)) {
        char msg[512];
        snprintf(msg, sizeof msg,
                 "cannot read %s: the client did not advertise fs.readTextFile", path);
        say(a, s, msg);
        return TURN_GO;
    }
    char *cp = client_path(a, s, path);
    char *abs = NULL;
    {
        unsigned keep = a->faults;
        a->faults &= ~(1u << ACP_FAULT_RELATIVE_PATHS);
        abs = client_path(a, s, path);
        a->faults = keep;
    }
    const char *tid = id ? id : new_tool_id(a);
    char title[512];
    snprintf(title, sizeof title, "Read %s", path);
    send_update(a, s, json_pack("{s:s, s:s, s:s, s:s, s:s, s:[{s:s}], s:{s:s}}", "sessionUpdate",
                                "tool_call", "toolCallId", tid, "title", title, "kind", "read",
                                "status", "in_progress", "locations", "path", abs, "rawInput",
                                "path", abs));
    json_t *params = json_pack("{s:s}", "path", cp);
    if (line)
        json_object_set_new(params, "line", json_integer(line));
    if (limit)
        json_object_set_new(params, "limit", json_integer(limit));
    json_t *reply = call(a, s, "fs/read_text_file", params);
    free(cp);
    free(abs);
    if (!reply)
        return TURN_STOP;
    const char *err = reply_error(reply);
    const char *text = an_json_str(json_object_get(reply, "result"), "content");
    if (err || !text) {
        char msg[1024];
        snprintf(msg, sizeof msg, "cannot read %s: %s", path, err ? err : "no content in reply");
        tool_update(a, s, tid, "failed", text_content(msg), NULL);
    } else {
        tool_update(a, s, tid, "completed", text_content(text), NULL);
    }
    json_decref(reply);
    return TURN_GO;
}

static enum turn step_write(struct agent *a, struct session *s, const char *path,
                            const char *content, const char *id)
{
    if (!can_write(a)) {
        char msg[512];
        snprintf(msg, sizeof msg,
                 "cannot write %s: the client did not advertise fs.writeTextFile", path);
        say(a, s, msg);
        return TURN_GO;
    }
    char *cp = client_path(a, s, path);
    unsigned keep = a->faults;
    a->faults &= ~(1u << ACP_FAULT_RELATIVE_PATHS);
    char *abs = client_path(a, s, path);
    a->faults = keep;
    const char *tid = id ? id : new_tool_id(a);
    char title[512];
    snprintf(title, sizeof title, "Write %s", path);
    send_update(a, s, json_pack("{s:s, s:s, s:s, s:s, s:s, s:[{s:s}], s:{s:s, s:s}}",
                                "sessionUpdate", "tool_call", "toolCallId", tid, "title", title,
                                "kind", "edit", "status", "in_progress", "locations", "path", abs,
                                "rawInput", "path", abs, "content", content));
    json_t *reply = call(a, s, "fs/write_text_file", json_pack("{s:s, s:s}", "path", cp,
                                                               "content", content));
    free(cp);
    if (!reply) {
        free(abs);
        return TURN_STOP;
    }
    const char *err = reply_error(reply);
    if (err) {
        char msg[1024];
        snprintf(msg, sizeof msg, "cannot write %s: %s", path, err);
        tool_update(a, s, tid, "failed", text_content(msg), NULL);
    } else {
        tool_update(a, s, tid, "completed",
                    json_pack("[{s:s, s:s, s:n, s:s}]", "type", "diff", "path", abs, "oldText",
                              "newText", content),
                    NULL);
    }
    free(abs);
    json_decref(reply);
    return TURN_GO;
}

/* create → wait_for_exit → output → release, reported as an execute tool call. */
static enum turn step_terminal(struct agent *a, struct session *s, const json_t *spec,
                               const char *id)
{
    const char *cmd = an_json_str(spec, "command");
    if (!can_terminal(a)) {
        char msg[512];
        snprintf(msg, sizeof msg, "cannot run %s: the client did not advertise terminal", cmd);
        say(a, s, msg);
        return TURN_GO;
    }
    json_t *params = json_deep_copy(spec);
    json_object_del(params, "title");
    json_object_set_new(params, "cwd", json_string(s->cwd));
    json_t *reply = call(a, s, "terminal/create", params);
    if (!reply)
        return TURN_STOP;
    const char *err = reply_error(reply);
    const char *term = an_json_str(json_object_get(reply, "result"), "terminalId");
    const char *tid = id ? id : new_tool_id(a);
    const char *title = an_json_str(spec, "title");
    char dflt[512];
    snprintf(dflt, sizeof dflt, "Run %s", cmd);
    json_t *raw_in = json_pack("{s:s, s:O*}", "command", cmd, "args", json_object_get(spec, "args"));
    if (err || !term) {
        char msg[1024];
        snprintf(msg, sizeof msg, "cannot run %s: %s", cmd, err ? err : "no terminalId in reply");
        send_update(a, s, json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o}", "sessionUpdate",
                                    "tool_call", "toolCallId", tid, "title", title ? title : dflt,
                                    "kind", "execute", "status", "failed", "rawInput", raw_in,
                                    "content", text_content(msg)));
        json_decref(reply);
        return TURN_GO;
    }
    char *term_id = an_xstrdup(term);
    json_decref(reply);
    send_update(a, s, json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:[{s:s, s:s}]}", "sessionUpdate",
                                "tool_call", "toolCallId", tid, "title", title ? title : dflt,
                                "kind", "execute", "status", "in_progress", "rawInput", raw_in,
                                "content", "type", "terminal", "terminalId", term_id));
    enum turn t = TURN_STOP;
    json_t *exit_reply = call(a, s, "terminal/wait_for_exit", json_pack("{s:s}", "terminalId", term_id));
    json_t *out_reply = exit_reply ? call(a, s, "terminal/output",
                                          json_pack("{s:s}", "terminalId", term_id))
                                   : NULL;
    if (out_reply) {
        json_t *res = json_object_get(exit_reply, "result");
        json_t *code = json_object_get(res, "exitCode");
        const char *output = an_json_str(json_object_get(out_reply, "result"), "output");
        bool ok = !reply_error(exit_reply) && !reply_error(out_reply) && output &&
                  json_is_integer(code) && json_integer_value(code) == 0;
        json_t *content = json_pack("[{s:s, s:s}]", "type", "terminal", "terminalId", term_id);
        json_t *text = text_content(output ? output : "");
        json_array_extend(content, text);
        json_decref(text);
        tool_update(a, s, tid, ok ? "completed" : "failed", content,
                    json_pack("{s:s, s:O?}", "output", output ? output : "", "exitCode",
                              json_is_integer(code) ? code : json_null()));
        t = TURN_GO;
    }
    json_decref(exit_reply);
    json_decref(out_reply);
    if (!fault(a, ACP_FAULT_LEAK_TERMINAL)) {
        /* release even after a cancel (the client must not be left with a
         * running terminal), but do not wait for it then */
        json_t *p = json_pack("{s:s}", "terminalId", term_id);
        if (t == TURN_GO) {
            json_t *r = call(a, s, "terminal/release", p);
            if (!r)
                t = TURN_STOP;
            json_decref(r);
        } else if (!a->eof && !a->quit) {
            notify_request(a, s, "terminal/release", p);
        } else {
            json_decref(p);
        }
    }
    free(term_id);
    return t;
}

/* session/request_permission. *skip is set on a reject; TURN_STOP with
 * *denied_stop set when the outcome was cancelled. */
static enum turn step_permission(struct agent *a, struct session *s, const json_t *spec,
                                 bool *skip, bool *outcome_cancelled)
{
    const char *tool = an_json_str(spec, "tool");
    if (!tool)
        tool = a->last_tool ? a->last_tool : new_tool_id(a);
    json_t *tc = json_pack("{s:s}", "toolCallId", tool);
    if (an_json_str(spec, "title"))
        json_object_set_new(tc, "title", json_string(an_json_str(spec, "title")));
    if (an_json_str(spec, "kind"))
        json_object_set_new(tc, "kind", json_string(an_json_str(spec, "kind")));
    json_t *opts = json_object_get(spec, "options");
    opts = opts ? json_incref(opts)
                : json_pack("[{s:s, s:s, s:s}, {s:s, s:s, s:s}]", "optionId", "allow", "name",
                            "Allow", "kind", "allow_once", "optionId", "reject", "name", "Reject",
                            "kind", "reject_once");
    json_t *reply = call(a, s, "session/request_permission",
                         json_pack("{s:o, s:O}", "toolCall", tc, "options", opts));
    if (!reply) {
        json_decref(opts);
        *outcome_cancelled = true;
        return TURN_STOP;
    }
    json_t *outcome = json_object_get(json_object_get(reply, "result"), "outcome");
    const char *what = an_json_str(outcome, "outcome");
    const char *chosen = an_json_str(outcome, "optionId");
    const char *kind = NULL;
    size_t i;
    json_t *o;
    json_array_foreach(opts, i, o) if (chosen && !strcmp(an_json_str(o, "optionId"), chosen))
        kind = an_json_str(o, "kind");
    enum turn t = TURN_GO;
    char msg[512];
    if (what && !strcmp(what, "cancelled")) {
        *outcome_cancelled = true;
        t = TURN_STOP;
    } else if (what && !strcmp(what, "selected") && kind && !strncmp(kind, "allow", 5)) {
        t = TURN_GO;
    } else {
        snprintf(msg, sizeof msg, "Permission for %s was not granted (%s); skipping it.", tool,
                 reply_error(reply) ? reply_error(reply)
                 : chosen           ? chosen
                                    : "no option chosen");
        say(a, s, msg);
        *skip = true;
    }
    json_decref(opts);
    json_decref(reply);
    return t;
}

static enum turn run_step(struct agent *a, struct session *s, const struct acp_step *st,
                          struct turn_end *end, bool *skip)
{
    json_t *u;
    bool oc = false;
    enum turn t;
    switch (st->kind) {
    case ACP_STEP_TEXT:
        chunks(a, s, "agent_message_chunk", st->str, st->chunks, st->id);
        return TURN_GO;
    case ACP_STEP_THOUGHT:
        chunks(a, s, "agent_thought_chunk", st->str, st->chunks, st->id);
        return TURN_GO;
    case ACP_STEP_TOOL_CALL:
    case ACP_STEP_TOOL_UPDATE:
        u = json_deep_copy(st->json);
        if (!json_object_get(u, "toolCallId")) {
            const char *id = st->kind == ACP_STEP_TOOL_CALL || !a->last_tool ? new_tool_id(a)
                                                                             : a->last_tool;
            json_object_set_new(u, "toolCallId", json_string(id));
        } else if (st->kind == ACP_STEP_TOOL_CALL) {
            free(a->last_tool);
            a->last_tool = an_xstrdup(an_json_str(u, "toolCallId"));
        }
        fix_update_paths(a, s, u);
        send_update(a, s, u);
        return TURN_GO;
    case ACP_STEP_PLAN:
        send_update(a, s, json_pack("{s:s, s:O}", "sessionUpdate", "plan", "entries", st->json));
        return TURN_GO;
    case ACP_STEP_UPDATE:
        send_update(a, s, json_deep_copy(st->json));
        return TURN_GO;
    case ACP_STEP_READ_FILE:
        return step_read(a, s, st->str, st->id, st->num, st->limit);
    case ACP_STEP_WRITE_FILE:
        return step_write(a, s, an_json_str(st->json, "path"), an_json_str(st->json, "content"),
                          st->id);
    case ACP_STEP_TERMINAL:
        return step_terminal(a, s, st->json, st->id);
    case ACP_STEP_PERMISSION:
        t = step_permission(a, s, st->json, skip, &oc);
        if (oc && !a->cancelled)
            end->stop = fault(a, ACP_FAULT_IGNORE_CANCEL) ? "end_turn" : "cancelled";
        return t;
    case ACP_STEP_DELAY:
        return nap(a, st->num) ? TURN_GO : TURN_STOP;
    case ACP_STEP_RAW:
        send_raw(a, st->str);
        return TURN_GO;
    case ACP_STEP_STOP:
        end->stop = st->str;
        return TURN_STOP;
    case ACP_STEP_ERROR:
        end->error = st;
        return TURN_STOP;
    case ACP_STEP_EXIT:
        if (a->log)
            fflush(a->log);
        _exit((int)st->num);
    }
    return TURN_GO;
}

/* Let a cancel that already arrived be seen between steps. */
static void drain(struct agent *a)
{
    pump(a, 0);
}

static void run_rule(struct agent *a, struct session *s, const struct acp_rule *r,
                     struct turn_end *end)
{
    bool skip = false;
    for (size_t i = 0; i < r->nsteps; i++) {
        drain(a);
        if (interrupted(a))
            return;
        if (skip) {
            skip = false;
            continue;
        }
        if (run_step(a, s, &r->steps[i], end, &skip) == TURN_STOP)
            return;
    }
}

/* ---- the built-in behaviour ---------------------------------------------- */

static bool word_at(const char *text, const char *p, size_t wl)
{
    return (p == text || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[wl]);
}

/* The first occurrence of `word` (case-insensitive, whole word). */
static const char *find_word(const char *text, const char *word)
{
    size_t wl = strlen(word);
    for (const char *p = text; *p; p++)
        if (!strncasecmp(p, word, wl) && word_at(text, p, wl))
            return p;
    return NULL;
}

/* The token after `p` (spaces skipped), without quotes or trailing
 * punctuation; NULL unless it looks like a file name (has '.' or '/'). */
static char *file_token(const char *p, const char **after)
{
    while (*p == ' ' || *p == '\t')
        p++;
    const char *start = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    *after = p;
    while (start < p && strchr("`'\"", *start))
        start++;
    while (p > start && strchr("`'\".,;:!?)", p[-1]))
        p--;
    if (p == start || (!memchr(start, '.', (size_t)(p - start)) &&
                           !memchr(start, '/', (size_t)(p - start))))
        return NULL;
    return an_xstrndup(start, (size_t)(p - start));
}

/* "run CMD": the text between backticks after "run", or the rest of the
 * line when the prompt starts with "run". */
static json_t *run_command(const char *text)
{
    const char *p = find_word(text, "run");
    if (!p)
        return NULL;
    const char *open = strchr(p, '`'), *close = open ? strchr(open + 1, '`') : NULL;
    const char *start, *end;
    if (close && close > open + 1) {
        start = open + 1;
        end = close;
    } else if (p == text) {
        start = p + 3;
        end = start + strcspn(start, "\n");
    } else {
        return NULL;
    }
    json_t *args = json_array();
    char *cmd = NULL;
    while (start < end) {
        while (start < end && isspace((unsigned char)*start))
            start++;
        const char *w = start;
        while (start < end && !isspace((unsigned char)*start))
            start++;
        if (start == w)
            break;
        if (!cmd)
            cmd = an_xstrndup(w, (size_t)(start - w));
        else
            json_array_append_new(args, json_stringn(w, (size_t)(start - w)));
    }
    if (!cmd) {
        json_decref(args);
        return NULL;
    }
    json_t *spec = json_pack("{s:s, s:o}", "command", cmd, "args", args);
    free(cmd);
    return spec;
}

static void run_default(struct agent *a, struct session *s, const char *text, struct turn_end *end)
{
    if (find_word(text, "slow") || find_word(text, "think")) {
        /* 2 s in 100 ms steps: long enough for any cancel test */
        for (int i = 0; i < 20; i++)
            if (!nap(a, 100))
                return;
    }
    if (find_word(text, "permission")) {
        const char *tid = new_tool_id(a);
        send_update(a, s, json_pack("{s:s, s:s, s:s, s:s, s:s}", "sessionUpdate", "tool_call",
                                    "toolCallId", tid, "title", "Sensitive operation", "kind",
                                    "edit", "status", "pending"));
        json_t *spec = json_pack("{s:s}", "tool", tid);
        bool skip = false, oc = false;
        enum turn t = step_permission(a, s, spec, &skip, &oc);
        json_decref(spec);
        if (t == TURN_STOP) {
            if (oc && !a->cancelled)
                end->stop = fault(a, ACP_FAULT_IGNORE_CANCEL) ? "end_turn" : "cancelled";
            return;
        }
        tool_update(a, s, a->last_tool, skip ? "failed" : "completed", NULL, NULL);
        if (!skip)
            say(a, s, "Permission granted.");
    }
    const char *p, *after;
    if ((p = find_word(text, "read"))) {
        char *file = file_token(p + 4, &after);
        if (file) {
            enum turn t = step_read(a, s, file, NULL, 0, 0);
            free(file);
            if (t == TURN_STOP)
                return;
        }
    }
    if ((p = find_word(text, "write"))) {
        char *file = file_token(p + 5, &after);
        if (file) {
            while (*after == ' ')
                after++;
            char *content = an_xstrndup(after, strcspn(after, "\n"));
            enum turn t = step_write(a, s, file, content, NULL);
            free(content);
            free(file);
            if (t == TURN_STOP)
                return;
        }
    }
    json_t *cmd = run_command(text);
    if (cmd) {
        enum turn t = step_terminal(a, s, cmd, NULL);
        json_decref(cmd);
        if (t == TURN_STOP)
            return;
    }
    drain(a);
    if (!interrupted(a))
        say(a, s, text);
}

/* ---- client → agent methods ---------------------------------------------- */

static void do_initialize(struct agent *a, json_t *id, json_t *params)
{
    json_t *pv = json_object_get(params, "protocolVersion");
    if (!json_is_object(params) || !json_is_integer(pv) || json_integer_value(pv) < 0 ||
        json_integer_value(pv) > 65535) {
        invalid_params(a, id, "protocolVersion", "expected an integer (uint16)");
        return;
    }
    json_t *caps = json_object_get(params, "clientCapabilities");
    json_t *fs = json_object_get(caps, "fs");
    a->fs_read = json_is_true(json_object_get(fs, "readTextFile"));
    a->fs_write = json_is_true(json_object_get(fs, "writeTextFile"));
    a->terminal = json_is_true(json_object_get(caps, "terminal"));
    /* v1 is the only version spoken: echo 1, or offer 1 for anything else */
    json_t *version = fault(a, ACP_FAULT_BAD_VERSION) ? json_string("1") : json_integer(1);
    send_result(a, id, json_pack("{s:o, s:O, s:[], s:{s:s, s:s}}", "protocolVersion", version,
                                 "agentCapabilities", a->sc->capabilities, "authMethods",
                                 "agentInfo", "name", "ananke-mock", "version", ANANKE_VERSION));
    if (fault(a, ACP_FAULT_GARBAGE_LINE))
        send_raw(a, "ananke-mock: this line is not JSON (fault garbage-line)");
}

/* cwd (absolute) and mcpServers (a list), shared by session/new and load. */
static bool session_params_ok(struct agent *a, json_t *id, json_t *params)
{
    if (!json_is_object(params)) {
        invalid_params(a, id, "params", "expected an object with cwd and mcpServers");
        return false;
    }
    const char *cwd = an_json_str(params, "cwd");
    if (!cwd || cwd[0] != '/') {
        invalid_params(a, id, "cwd", "expected an absolute path");
        return false;
    }
    if (!json_is_array(json_object_get(params, "mcpServers"))) {
        invalid_params(a, id, "mcpServers", "expected an array");
        return false;
    }
    return true;
}

static void do_session_new(struct agent *a, json_t *id, json_t *params)
{
    if (!session_params_ok(a, id, params))
        return;
    struct session *s = an_xcalloc(1, sizeof *s);
    char buf[32];
    snprintf(buf, sizeof buf, "sess_%u", ++a->nsessions);
    s->id = an_xstrdup(buf);
    s->cwd = an_xstrdup(an_json_str(params, "cwd"));
    s->history = json_array();
    if (a->sc->modes)
        s->mode = an_xstrdup(an_json_str(a->sc->modes, "currentModeId"));
    s->next = a->sessions;
    a->sessions = s;
    json_t *res = json_object();
    if (!fault(a, ACP_FAULT_NO_SESSION_ID))
        json_object_set_new(res, "sessionId", json_string(s->id));
    if (a->sc->modes)
        json_object_set_new(res, "modes", json_deep_copy(a->sc->modes));
    send_result(a, id, res);
    if (a->sc->commands)
        send_update(a, s, json_pack("{s:s, s:O}", "sessionUpdate", "available_commands_update",
                                    "availableCommands", a->sc->commands));
}

static json_t *modes_now(const struct agent *a, const struct session *s)
{
    json_t *m = json_deep_copy(a->sc->modes);
    json_object_set_new(m, "currentModeId", json_string(s->mode));
    return m;
}

static void do_session_load(struct agent *a, json_t *id, json_t *params)
{
    if (!session_params_ok(a, id, params))
        return;
    struct session *s = find_session(a, an_json_str(params, "sessionId"));
    if (!s) {
        invalid_params(a, id, "sessionId", "no such session");
        return;
    }
    free(s->cwd);
    s->cwd = an_xstrdup(an_json_str(params, "cwd"));
    /* replay without recording again */
    json_t *hist = s->history;
    s->history = json_array();
    size_t i;
    json_t *u;
    json_array_foreach(hist, i, u) send_update(a, s, json_incref(u));
    json_decref(s->history);
    s->history = hist;
    json_t *res = json_object();
    if (s->mode)
        json_object_set_new(res, "modes", modes_now(a, s));
    send_result(a, id, res);
}

static void do_set_mode(struct agent *a, json_t *id, json_t *params)
{
    struct session *s = find_session(a, an_json_str(params, "sessionId"));
    const char *mode = an_json_str(params, "modeId");
    if (!s) {
        invalid_params(a, id, "sessionId", "no such session");
        return;
    }
    bool known = false;
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(a->sc->modes, "availableModes"), i, m)
        known |= mode && !strcmp(an_json_str(m, "id"), mode);
    if (!known) {
        invalid_params(a, id, "modeId", "not an available mode");
        return;
    }
    free(s->mode);
    s->mode = an_xstrdup(mode);
    send_result(a, id, json_object());
    send_update(a, s, json_pack("{s:s, s:s}", "sessionUpdate", "current_mode_update",
                                "currentModeId", mode));
}

/* The text blocks of a prompt joined with '\n'; checks block types against
 * promptCapabilities. NULL after answering -32602. Caller frees. */
static char *prompt_text(struct agent *a, json_t *id, json_t *prompt)
{
    static const struct {
        const char *type, *cap;
    } gated[] = {{"image", "image"}, {"audio", "audio"}, {"resource", "embeddedContext"}};
    json_t *pc = json_object_get(a->sc->capabilities, "promptCapabilities");
    bool lax = fault(a, ACP_FAULT_WRONG_PARAMS);
    struct an_buf b = AN_BUF_INIT;
    if (!json_is_array(prompt) && !lax) {
        invalid_params(a, id, "prompt", "expected an array of content blocks");
        return NULL;
    }
    size_t i;
    json_t *blk;
    json_array_foreach(prompt, i, blk)
    {
        const char *type = an_json_str(blk, "type");
        if (!type && !lax) {
            invalid_params(a, id, "prompt", "every content block needs a string 'type'");
            an_buf_release(&b);
            return NULL;
        }
        for (size_t g = 0; type && !lax && g < sizeof gated / sizeof gated[0]; g++)
            if (!strcmp(type, gated[g].type) && !json_is_true(json_object_get(pc, gated[g].cap))) {
                char why[128];
                snprintf(why, sizeof why, "%s content needs promptCapabilities.%s", type,
                         gated[g].cap);
                invalid_params(a, id, "prompt", why);
                an_buf_release(&b);
                return NULL;
            }
        const char *t = an_json_str(blk, "text");
        if (type && !strcmp(type, "text") && t) {
            if (b.len)
                an_buf_putc(&b, '\n');
            an_buf_puts(&b, t);
        }
    }
    return an_buf_detach(&b, NULL);
}

static void do_prompt(struct agent *a, json_t *id, json_t *params)
{
    struct session *s = find_session(a, an_json_str(params, "sessionId"));
    if (!s) {
        invalid_params(a, id, "sessionId", "no such session");
        return;
    }
    if (a->running) {
        json_array_append_new(a->deferred, json_pack("{s:O, s:O}", "id", id, "params", params));
        return;
    }
    json_t *prompt = json_object_get(params, "prompt");
    char *text = prompt_text(a, id, prompt);
    if (!text)
        return;
    size_t i;
    json_t *blk;
    json_array_foreach(prompt, i, blk) if (json_is_object(blk)) json_array_append_new(
        s->history, json_pack("{s:s, s:O}", "sessionUpdate", "user_message_chunk", "content", blk));

    json_incref(id);
    a->running = s;
    a->cancelled = false;
    a->turn_updates = 0;
    free(a->last_tool);
    a->last_tool = NULL;
    if (fault(a, ACP_FAULT_STDERR_FLOOD)) {
        char line[128];
        int n = snprintf(line, sizeof line,
                         "ananke-mock acp: stderr flood (fault stderr-flood) "
                         "................................\n");
        for (int k = 0; k < 12000 && n > 0; k++)
            fwrite(line, 1, (size_t)n, stderr);
        fflush(stderr);
    }
    struct turn_end end = {NULL, NULL};
    struct acp_rule *r = acp_scenario_pick(a->sc, text, strlen(text));
    if (r)
        run_rule(a, s, r, &end);
    else
        run_default(a, s, text, &end);
    free(text);
    if (fault(a, ACP_FAULT_EXIT_MID_TURN)) { /* a turn that sent no update */
        fputs("ananke-mock acp: exiting mid-turn (fault exit-mid-turn)\n", stderr);
        _exit(1);
    }
    if (!a->quit) {
        if (a->cancelled)
            send_result(a, id, json_pack("{s:s}", "stopReason", "cancelled"));
        else if (end.error)
            send_error(a, id, (int)end.error->num, end.error->str, NULL);
        else
            send_result(a, id, json_pack("{s:s}", "stopReason", end.stop ? end.stop : "end_turn"));
    }
    json_decref(id);
    a->running = NULL;
    a->cancelled = false;
}

static void handle_request(struct agent *a, json_t *id, const char *method, json_t *params)
{
    if (!strcmp(method, "initialize"))
        do_initialize(a, id, params);
    else if (!strcmp(method, "session/new"))
        do_session_new(a, id, params);
    else if (!strcmp(method, "session/load") &&
             json_is_true(json_object_get(a->sc->capabilities, "loadSession")))
        do_session_load(a, id, params);
    else if (!strcmp(method, "session/prompt"))
        do_prompt(a, id, params);
    else if (!strcmp(method, "session/set_mode") && a->sc->modes)
        do_set_mode(a, id, params);
    else if (fault(a, ACP_FAULT_WRONG_UNKNOWN))
        send_result(a, id, json_object());
    else
        send_error(a, id, -32601, "Method not found", json_pack("{s:s}", "method", method));
}

static void handle_notification(struct agent *a, const char *method, json_t *params)
{
    if (!strcmp(method, "session/cancel")) {
        const char *sid = an_json_str(params, "sessionId");
        if (fault(a, ACP_FAULT_IGNORE_CANCEL)) {
            fputs("ananke-mock acp: ignoring session/cancel (fault ignore-cancel)\n", stderr);
            return;
        }
        if (a->running && sid && !strcmp(a->running->id, sid))
            a->cancelled = true;
        return;
    }
    /* unknown notifications are ignored, as the protocol says */
}

static void handle_response(struct agent *a, json_t *msg)
{
    json_t *id = json_object_get(msg, "id");
    if (a->waiting && !a->got_reply && json_is_integer(id) &&
        json_integer_value(id) == a->wait_id) {
        a->reply = json_incref(msg);
        a->got_reply = true;
        return;
    }
    char *s = an_json_compact(id ? id : json_null());
    fprintf(stderr, "ananke-mock acp: ignoring a response to unknown request %s\n", s);
    free(s);
}

static void invalid_request(struct agent *a, const char *why)
{
    send_error(a, NULL, -32600, "Invalid request", json_pack("{s:s}", "details", why));
}

static void handle_line(struct agent *a, const char *line, size_t n)
{
    log_line(a, "C>A", line, n);
    while (n && isspace((unsigned char)line[n - 1]))
        n--;
    while (n && isspace((unsigned char)*line)) {
        line++;
        n--;
    }
    if (!n)
        return;
    char why[256];
    json_t *msg = an_json_parse(line, n, why, sizeof why);
    if (!msg) {
        send_error(a, NULL, -32700, "Parse error", json_pack("{s:s}", "details", why));
        return;
    }
    json_t *id = json_object_get(msg, "id");
    json_t *method = json_object_get(msg, "method");
    if (!json_is_object(msg))
        invalid_request(a, "a message must be a JSON object");
    else if (!an_json_str(msg, "jsonrpc") || strcmp(an_json_str(msg, "jsonrpc"), "2.0"))
        invalid_request(a, "\"jsonrpc\" must be \"2.0\"");
    else if (id && !json_is_integer(id) && !json_is_string(id) && !json_is_null(id))
        invalid_request(a, "\"id\" must be an integer, a string or null");
    else if (method && !json_is_string(method))
        send_error(a, id, -32600, "Invalid request",
                   json_pack("{s:s}", "details", "\"method\" must be a string"));
    else if (method && id)
        handle_request(a, id, json_string_value(method), json_object_get(msg, "params"));
    else if (method)
        handle_notification(a, json_string_value(method), json_object_get(msg, "params"));
    else if (id)
        handle_response(a, msg); /* even without result/error: ignored unless awaited */
    else
        invalid_request(a, "neither a request, a notification nor a response");
    json_decref(msg);
}

/* ---- main loop ----------------------------------------------------------- */

int acp_agent_run(struct acp_scenario *sc, const struct acp_agent_opts *opts)
{
    struct agent a = {.sc = sc, .faults = opts->faults, .log = opts->log};
    an_buf_init(&a.in, 0); /* take_line() enforces ACP_MAX_LINE per line */
    if (fault(&a, ACP_FAULT_SLOW_START))
        an_sleep_ms(500);
    a.deferred = json_array();
    while (!a.quit) {
        if (json_array_size(a.deferred)) {
            json_t *next = json_incref(json_array_get(a.deferred, 0));
            json_array_remove(a.deferred, 0);
            do_prompt(&a, json_object_get(next, "id"), json_object_get(next, "params"));
            json_decref(next);
            continue;
        }
        if (a.eof)
            break;
        pump(&a, -1);
    }
    json_decref(a.deferred);
    an_buf_release(&a.in);
    free(a.last_tool);
    json_decref(a.reply);
    while (a.sessions) {
        struct session *s = a.sessions;
        a.sessions = s->next;
        free(s->id);
        free(s->cwd);
        free(s->mode);
        json_decref(s->history);
        free(s);
    }
    return 0;
}
