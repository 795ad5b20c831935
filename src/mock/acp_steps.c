/* A prompt turn of the ACP mock agent: the scripted steps (text, tool calls,
 * fs read/write, terminal, permission) and the built-in behaviour. */
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
#include "mock_mcp.h"

/* ---- prompt steps -------------------------------------------------------- */

enum turn { TURN_GO, TURN_STOP, TURN_SKIP };

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

/* text / thought: the text (grown to st->bytes when set), st->repeat times. */
static void text_step(struct agent *a, struct session *s, const struct acp_step *st)
{
    const char *tag = st->kind == ACP_STEP_TEXT ? "agent_message_chunk" : "agent_thought_chunk";
    char *big = NULL;
    const char *text = st->str;
    size_t len = strlen(st->str);
    if (st->bytes && len) {
        size_t want = (size_t)st->bytes;
        big = an_xmalloc(want + 1);
        for (size_t i = 0; i < want; i++)
            big[i] = st->str[i % len];
        /* never end inside a character: the byte after the cut must start one */
        while (want && ((unsigned char)st->str[want % len] & 0xC0) == 0x80)
            want--;
        big[want] = '\0';
        text = big;
    }
    for (long long k = 0; k < st->repeat && !a->quit && !interrupted(a); k++) {
        chunks(a, s, tag, text, st->chunks, st->id);
        pump(a, 0); /* a cancel is seen between the repeats */
    }
    free(big);
}

static enum turn step_read(struct agent *a, struct session *s, const char *path, const char *id,
                           long long line, long long limit)
{
    if (!can_read(a)) {
        char msg[512];
        snprintf(msg, sizeof msg, "cannot read %s: the client did not advertise fs.readTextFile",
                 path);
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
    send_update(a, s,
                json_pack("{s:s, s:s, s:s, s:s, s:s, s:[{s:s}], s:{s:s}}", "sessionUpdate",
                          "tool_call", "toolCallId", tid, "title", title, "kind", "read", "status",
                          "in_progress", "locations", "path", abs, "rawInput", "path", abs));
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
        snprintf(msg, sizeof msg, "cannot write %s: the client did not advertise fs.writeTextFile",
                 path);
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
    send_update(a, s,
                json_pack("{s:s, s:s, s:s, s:s, s:s, s:[{s:s}], s:{s:s, s:s}}", "sessionUpdate",
                          "tool_call", "toolCallId", tid, "title", title, "kind", "edit", "status",
                          "in_progress", "locations", "path", abs, "rawInput", "path", abs,
                          "content", content));
    json_t *reply =
        call(a, s, "fs/write_text_file", json_pack("{s:s, s:s}", "path", cp, "content", content));
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
    const char *cwd = an_json_str(spec, "cwd");
    if (cwd) { /* relative: in the session's cwd, as a file path */
        unsigned keep = a->faults;
        a->faults &= ~(1u << ACP_FAULT_RELATIVE_PATHS);
        char *abs = client_path(a, s, cwd);
        a->faults = keep;
        json_object_set_new(params, "cwd", json_string(abs));
        free(abs);
    } else {
        json_object_set_new(params, "cwd", json_string(s->cwd));
    }
    json_t *reply = call(a, s, "terminal/create", params);
    if (!reply)
        return TURN_STOP;
    const char *err = reply_error(reply);
    const char *term = an_json_str(json_object_get(reply, "result"), "terminalId");
    const char *tid = id ? id : new_tool_id(a);
    const char *title = an_json_str(spec, "title");
    char dflt[512];
    snprintf(dflt, sizeof dflt, "Run %s", cmd);
    json_t *raw_in =
        json_pack("{s:s, s:O*}", "command", cmd, "args", json_object_get(spec, "args"));
    if (err || !term) {
        char msg[1024];
        snprintf(msg, sizeof msg, "cannot run %s: %s", cmd, err ? err : "no terminalId in reply");
        send_update(a, s,
                    json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o}", "sessionUpdate", "tool_call",
                              "toolCallId", tid, "title", title ? title : dflt, "kind", "execute",
                              "status", "failed", "rawInput", raw_in, "content",
                              text_content(msg)));
        json_decref(reply);
        return TURN_GO;
    }
    char *term_id = an_xstrdup(term);
    json_decref(reply);
    send_update(a, s,
                json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:[{s:s, s:s}]}", "sessionUpdate",
                          "tool_call", "toolCallId", tid, "title", title ? title : dflt, "kind",
                          "execute", "status", "in_progress", "rawInput", raw_in, "content", "type",
                          "terminal", "terminalId", term_id));
    enum turn t = TURN_STOP;
    json_t *exit_reply =
        call(a, s, "terminal/wait_for_exit", json_pack("{s:s}", "terminalId", term_id));
    json_t *out_reply =
        exit_reply ? call(a, s, "terminal/output", json_pack("{s:s}", "terminalId", term_id))
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
static enum turn step_permission(struct agent *a, struct session *s, const json_t *spec, bool *skip,
                                 bool *outcome_cancelled)
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

/* mcp_call: the call made on the tool server (session/new's mcpServers
 * first), reported as a tool_call (title = the tool, rawInput = the
 * arguments) and its tool_call_update (rawOutput = the CallToolResult),
 * unless `report: false`. */
static enum turn step_mcp_call(struct agent *a, struct session *s, const json_t *j)
{
    const char *tool = an_json_str(j, "tool");
    json_t *args = json_object_get(j, "arguments");
    bool report = !json_is_false(json_object_get(j, "report"));
    json_t *in = args ? json_incref(args) : json_object();
    const char *tid = report ? new_tool_id(a) : NULL;
    if (report)
        send_update(a, s,
                    json_pack("{s:s, s:s, s:s, s:s, s:s, s:O}", "sessionUpdate", "tool_call",
                              "toolCallId", tid, "title", tool, "kind", "other", "status",
                              "in_progress", "rawInput", in));
    json_t *res = mock_mcp_call(an_json_str(j, "server"), s->mcp_servers, tool, in, 0);
    if (report)
        send_update(
            a, s,
            json_pack("{s:s, s:s, s:s, s:O}", "sessionUpdate", "tool_call_update", "toolCallId",
                      a->last_tool, "status",
                      json_is_true(json_object_get(res, "isError")) ? "failed" : "completed",
                      "rawOutput", res));
    json_decref(res);
    json_decref(in);
    return TURN_GO;
}

static enum turn run_step(struct agent *a, struct session *s, const struct acp_step *st,
                          struct turn_end *end, bool *skip)
{
    json_t *u;
    bool oc = false;
    enum turn t;
    switch (st->kind) {
    case ACP_STEP_TEXT:
    case ACP_STEP_THOUGHT:
        text_step(a, s, st);
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
    case ACP_STEP_USAGE:
        end->usage = st->json;
        return TURN_GO;
    case ACP_STEP_ERROR:
        end->error = st;
        return TURN_STOP;
    case ACP_STEP_MCP_CALL:
        return step_mcp_call(a, s, st->json);
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

void run_rule(struct agent *a, struct session *s, const struct acp_rule *r, struct turn_end *end)
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
    if (p == start ||
        (!memchr(start, '.', (size_t)(p - start)) && !memchr(start, '/', (size_t)(p - start))))
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

void run_default(struct agent *a, struct session *s, const char *text, struct turn_end *end)
{
    if (find_word(text, "slow") || find_word(text, "think")) {
        /* 2 s in 100 ms steps: long enough for any cancel test */
        for (int i = 0; i < 20; i++)
            if (!nap(a, 100))
                return;
    }
    if (find_word(text, "permission")) {
        const char *tid = new_tool_id(a);
        send_update(a, s,
                    json_pack("{s:s, s:s, s:s, s:s, s:s}", "sessionUpdate", "tool_call",
                              "toolCallId", tid, "title", "Sensitive operation", "kind", "edit",
                              "status", "pending"));
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
