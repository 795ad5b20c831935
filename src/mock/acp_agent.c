#include "acp_agent_int.h"

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
void send_raw(struct agent *a, const char *s)
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
    send_msg(
        a, json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(), "error", e));
}

static void invalid_params(struct agent *a, json_t *id, const char *field, const char *why)
{
    send_error(a, id, -32602, "Invalid params", json_pack("{s:s}", field, why));
}

/* A session/update (update stolen), recorded for session/load. */
void send_update(struct agent *a, struct session *s, json_t *update)
{
    if (json_array_size(s->history) < ACP_MAX_HISTORY)
        json_array_append(s->history, update);
    send_msg(a, json_pack("{s:s, s:s, s:{s:s, s:o}}", "jsonrpc", "2.0", "method", "session/update",
                          "params", "sessionId", s->id, "update", update));
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

void send_chunk(struct agent *a, struct session *s, const char *tag, const char *text, size_t len,
                const char *message_id)
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

void say(struct agent *a, struct session *s, const char *text)
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
void pump(struct agent *a, int timeout_ms)
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
    /* what was buffered before holds no newline (every line was taken):
     * only the new bytes can end one, so a long line costs one scan, not
     * one per read */
    if (!memchr(chunk, '\n', (size_t)got) && !a->discarding && a->in.len <= ACP_MAX_LINE)
        return;
    while (!a->quit && take_line(a))
        ;
}

/* Whether the running turn must stop. Not stdin's end: a client that
 * writes its requests and closes stdin still gets every answer that needs
 * nothing more from it. */
bool interrupted(const struct agent *a)
{
    return a->quit || a->cancelled;
}

/* Sleep ms, handling input meanwhile; false when interrupted. */
bool nap(struct agent *a, long long ms)
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
json_t *call(struct agent *a, struct session *s, const char *method, json_t *params)
{
    long long id = a->next_id++;
    json_t *p = json_pack("{s:s}", "sessionId", s->id);
    json_object_update(p, params);
    json_decref(params);
    send_msg(a, json_pack("{s:s, s:I, s:s, s:o}", "jsonrpc", "2.0", "id", (json_int_t)id, "method",
                          method, "params", p));
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
void notify_request(struct agent *a, struct session *s, const char *method, json_t *params)
{
    json_t *p = json_pack("{s:s}", "sessionId", s->id);
    json_object_update(p, params);
    json_decref(params);
    send_msg(a, json_pack("{s:s, s:I, s:s, s:o}", "jsonrpc", "2.0", "id", (json_int_t)a->next_id++,
                          "method", method, "params", p));
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
char *client_path(struct agent *a, const struct session *s, const char *path)
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

void fix_update_paths(struct agent *a, const struct session *s, json_t *u)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(u, "locations"), i, v) absolutize(a, s, v, "path");
    json_array_foreach(json_object_get(u, "content"), i,
                       v) if (json_is_object(v) &&
                              !strcmp(an_json_str(v, "type") ? an_json_str(v, "type") : "", "diff"))
        absolutize(a, s, v, "path");
}

char *new_tool_id(struct agent *a)
{
    char buf[32];
    snprintf(buf, sizeof buf, "call_%u", ++a->ntools);
    free(a->last_tool);
    a->last_tool = an_xstrdup(buf);
    return a->last_tool;
}

json_t *text_content(const char *text)
{
    return json_pack("[{s:s, s:{s:s, s:o}}]", "type", "content", "content", "type", "text", "text",
                     an_json_lossy(text, strlen(text)));
}

void tool_update(struct agent *a, struct session *s, const char *id, const char *status,
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
const char *reply_error(const json_t *reply)
{
    json_t *e = json_object_get(reply, "error");
    if (!e)
        return NULL;
    const char *m = an_json_str(e, "message");
    return m ? m : "error";
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
    send_result(a, id,
                json_pack("{s:o, s:O, s:[], s:{s:s, s:s}}", "protocolVersion", version,
                          "agentCapabilities", a->sc->capabilities, "authMethods", "agentInfo",
                          "name", "ananke-mock", "version", ANANKE_VERSION));
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
    s->mcp_servers = json_deep_copy(json_object_get(params, "mcpServers"));
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
        send_update(a, s,
                    json_pack("{s:s, s:O}", "sessionUpdate", "available_commands_update",
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
    json_decref(s->mcp_servers);
    s->mcp_servers = json_deep_copy(json_object_get(params, "mcpServers"));
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
    send_update(
        a, s,
        json_pack("{s:s, s:s}", "sessionUpdate", "current_mode_update", "currentModeId", mode));
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
    struct turn_end end = {NULL, NULL, NULL};
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
        else {
            json_t *res = json_pack("{s:s}", "stopReason", end.stop ? end.stop : "end_turn");
            if (end.usage)
                json_object_set(res, "usage", (json_t *)end.usage);
            send_result(a, id, res);
        }
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
        json_decref(s->mcp_servers);
        free(s);
    }
    return 0;
}
