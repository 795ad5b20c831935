#include "proto/agui_verify.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/json.h"

#define SHOW 80 /* bytes of an event shown in a finding */

const struct an_agui_rule an_agui_rules[] = {
    {"first-event", AN_AGUI_MUST,
     "the first event is RUN_STARTED or RUN_ERROR"},
    {"nested-run-started", AN_AGUI_MUST,
     "no RUN_STARTED while a run is active"},
    {"after-run-finished", AN_AGUI_MUST,
     "after RUN_FINISHED only RUN_STARTED (a new run) or RUN_ERROR (a late "
     "failure)"},
    {"nothing-after-run-error", AN_AGUI_MUST,
     "after RUN_ERROR only RUN_STARTED (a new run)"},
    {"run-id-echo", AN_AGUI_MUST,
     "RUN_FINISHED names the runId of its RUN_STARTED"},
    {"thread-id-echo", AN_AGUI_MUST,
     "RUN_STARTED and RUN_FINISHED carry the threadId of the request"},
    {"open-before-use", AN_AGUI_MUST,
     "content, args and END of messages, tool calls and reasoning, "
     "STEP_FINISHED and "
     "SUBAGENT_FINISHED/ERROR name something opened and still open"},
    {"already-open", AN_AGUI_MUST,
     "a START does not reopen an id that is still open; a subagent id is not "
     "reused in a run"},
    {"closed-before-finish", AN_AGUI_MUST,
     "every message, tool call, reasoning message or span, step and subagent "
     "is closed before "
     "RUN_FINISHED"},
    {"chunk-first-needs-id", AN_AGUI_MUST,
     "the first chunk of a stream carries its id (and, for TOOL_CALL_CHUNK, "
     "toolCallName)"},
    {"chunk-conflict", AN_AGUI_MUST,
     "a continuation chunk repeats role, name, toolCallName or parentMessageId "
     "only with the "
     "opener's value"},
    {"subagent-attribution", AN_AGUI_MUST,
     "a continuation's subagentRunId is the one its opener carried"},
    {"required-field", AN_AGUI_MUST,
     "every required field of a known event is present"},
    {"field-type", AN_AGUI_MUST,
     "known fields have their types: strings, integer timestamps, object "
     "metadata, known "
     "roles, outcome shapes"},
    {"unknown-event", AN_AGUI_SHOULD,
     "an unknown event type is dropped with a warning"},
    {"unknown-property", AN_AGUI_SHOULD,
     "an unknown property (or content part) is dropped with a warning"},
    {"unknown-outcome", AN_AGUI_SHOULD,
     "an unknown RUN_FINISHED outcome type is dropped with a warning (read as "
     "success)"},
    {"deprecated-event", AN_AGUI_SHOULD,
     "THINKING_* events (0.0.x) are accepted with a warning"},
    {"protocol-version", AN_AGUI_SHOULD,
     "a producer declaring a newer or uninterpretable protocolVersion is "
     "served with a warning"},
};
const size_t an_agui_nrules = sizeof an_agui_rules / sizeof an_agui_rules[0];

const struct an_agui_rule *an_agui_rule_find(const char *id) {
  for (size_t i = 0; i < an_agui_nrules; i++)
    if (!strcmp(an_agui_rules[i].id, id))
      return &an_agui_rules[i];
  return NULL;
}

/* ---- event shapes ---- */

enum fkind {
  F_STR,      /* string */
  F_ANY,      /* any JSON value, null included */
  F_OBJ,      /* object */
  F_ARR,      /* array */
  F_BOOL,     /* boolean */
  F_CODE,     /* string or number (RUN_ERROR.code) */
  F_CONTENT,  /* string or array of content parts */
  F_ROLE,     /* developer, system, assistant, user */
  F_RROLE,    /* "reasoning" */
  F_TROLE,    /* "tool" */
  F_OUTCOME,  /* RUN_FINISHED.outcome */
  F_MESSAGES, /* MESSAGES_SNAPSHOT.messages */
  F_PATCH,    /* RFC 6902 operations (open objects) */
};

struct field {
  const char *name;
  enum fkind kind;
  bool required;
};

/* Open sets, by what a START opens. */
enum kind { K_TEXT, K_TOOL, K_RMSG, K_RSPAN, K_STEP, K_SUB, K_N };

static const char *const kind_name[K_N] = {
    "text message",   "tool call", "reasoning message",
    "reasoning span", "step",      "subagent"};

enum role_in_seq {
  S_NONE, /* no ordering rule beyond being inside a run */
  S_RUN_STARTED,
  S_RUN_FINISHED,
  S_RUN_ERROR,
  S_OPEN,  /* opens `kind` by `id` */
  S_USE,   /* continues `kind` by `id` */
  S_CLOSE, /* closes `kind` by `id` */
  S_CHUNK, /* a chunk of `kind` */
};

#define MAXF 8

static const struct shape {
  const char *type;
  enum role_in_seq seq;
  enum kind kind;
  const char *id;   /* the field naming what is opened/used/closed */
  bool keeps_chunk; /* does not close a pending chunk stream (agui.md 4.3) */
  bool no_subagent; /* subagentRunId is not a property of this event */
  bool legacy;      /* THINKING_*: deprecated 0.0.x shapes */
  struct field f[MAXF];
} shapes[] = {
    {"RUN_STARTED",
     S_RUN_STARTED,
     0,
     NULL,
     false,
     true,
     false,
     {{"threadId", F_STR, true},
      {"runId", F_STR, true},
      {"parentRunId", F_STR, false},
      {"input", F_OBJ, false},
      {"protocolVersion", F_STR, false}}},
    {"RUN_FINISHED",
     S_RUN_FINISHED,
     0,
     NULL,
     false,
     true,
     false,
     {{"threadId", F_STR, true},
      {"runId", F_STR, true},
      {"result", F_ANY, false},
      {"outcome", F_OUTCOME, false},
      {"usage", F_ARR, false}}},
    {"RUN_ERROR",
     S_RUN_ERROR,
     0,
     NULL,
     false,
     true,
     false,
     {{"message", F_STR, true},
      {"code", F_CODE, false},
      {"usage", F_ARR, false}}},
    {"STEP_STARTED",
     S_OPEN,
     K_STEP,
     "stepName",
     false,
     false,
     false,
     {{"stepName", F_STR, true}}},
    {"STEP_FINISHED",
     S_CLOSE,
     K_STEP,
     "stepName",
     false,
     false,
     false,
     {{"stepName", F_STR, true}}},
    {"TEXT_MESSAGE_START",
     S_OPEN,
     K_TEXT,
     "messageId",
     false,
     false,
     false,
     {{"messageId", F_STR, true},
      {"role", F_ROLE, false},
      {"name", F_STR, false}}},
    {"TEXT_MESSAGE_CONTENT",
     S_USE,
     K_TEXT,
     "messageId",
     false,
     false,
     false,
     {{"messageId", F_STR, true}, {"delta", F_STR, true}}},
    {"TEXT_MESSAGE_END",
     S_CLOSE,
     K_TEXT,
     "messageId",
     false,
     false,
     false,
     {{"messageId", F_STR, true}}},
    {"TEXT_MESSAGE_CHUNK",
     S_CHUNK,
     K_TEXT,
     "messageId",
     true,
     false,
     false,
     {{"messageId", F_STR, false},
      {"role", F_ROLE, false},
      {"delta", F_STR, false},
      {"name", F_STR, false}}},
    {"TOOL_CALL_START",
     S_OPEN,
     K_TOOL,
     "toolCallId",
     false,
     false,
     false,
     {{"toolCallId", F_STR, true},
      {"toolCallName", F_STR, true},
      {"parentMessageId", F_STR, false}}},
    {"TOOL_CALL_ARGS",
     S_USE,
     K_TOOL,
     "toolCallId",
     false,
     false,
     false,
     {{"toolCallId", F_STR, true}, {"delta", F_STR, true}}},
    {"TOOL_CALL_END",
     S_CLOSE,
     K_TOOL,
     "toolCallId",
     false,
     false,
     false,
     {{"toolCallId", F_STR, true}}},
    {"TOOL_CALL_CHUNK",
     S_CHUNK,
     K_TOOL,
     "toolCallId",
     true,
     false,
     false,
     {{"toolCallId", F_STR, false},
      {"toolCallName", F_STR, false},
      {"parentMessageId", F_STR, false},
      {"delta", F_STR, false}}},
    {"TOOL_CALL_RESULT",
     S_NONE,
     0,
     NULL,
     false,
     false,
     false,
     {{"messageId", F_STR, true},
      {"toolCallId", F_STR, true},
      {"content", F_CONTENT, true},
      {"role", F_TROLE, false},
      {"error", F_STR, false}}},
    {"STATE_SNAPSHOT",
     S_NONE,
     0,
     NULL,
     false,
     false,
     false,
     {{"snapshot", F_ANY, true}}},
    {"STATE_DELTA",
     S_NONE,
     0,
     NULL,
     false,
     false,
     false,
     {{"delta", F_PATCH, true}}},
    {"MESSAGES_SNAPSHOT",
     S_NONE,
     0,
     NULL,
     false,
     true,
     false,
     {{"messages", F_MESSAGES, true}}},
    {"ACTIVITY_SNAPSHOT",
     S_NONE,
     0,
     NULL,
     true,
     false,
     false,
     {{"messageId", F_STR, true},
      {"activityType", F_STR, true},
      {"content", F_OBJ, true},
      {"replace", F_BOOL, false}}},
    {"ACTIVITY_DELTA",
     S_NONE,
     0,
     NULL,
     true,
     false,
     false,
     {{"messageId", F_STR, true},
      {"activityType", F_STR, true},
      {"patch", F_PATCH, true}}},
    {"REASONING_START",
     S_OPEN,
     K_RSPAN,
     "messageId",
     false,
     false,
     false,
     {{"messageId", F_STR, true},
      {"encryptedValue", F_STR, false},
      {"encryptedValueType", F_STR, false}}},
    {"REASONING_END",
     S_CLOSE,
     K_RSPAN,
     "messageId",
     false,
     false,
     false,
     {{"messageId", F_STR, true}}},
    {"REASONING_MESSAGE_START",
     S_OPEN,
     K_RMSG,
     "messageId",
     false,
     false,
     false,
     {{"messageId", F_STR, true}, {"role", F_RROLE, true}}},
    {"REASONING_MESSAGE_CONTENT",
     S_USE,
     K_RMSG,
     "messageId",
     false,
     false,
     false,
     {{"messageId", F_STR, true}, {"delta", F_STR, true}}},
    {"REASONING_MESSAGE_END",
     S_CLOSE,
     K_RMSG,
     "messageId",
     false,
     false,
     false,
     {{"messageId", F_STR, true}}},
    {"REASONING_MESSAGE_CHUNK",
     S_CHUNK,
     K_RMSG,
     "messageId",
     true,
     false,
     false,
     {{"messageId", F_STR, false}, {"delta", F_STR, false}}},
    {"REASONING_ENCRYPTED_VALUE",
     S_NONE,
     0,
     NULL,
     true,
     false,
     false,
     {{"subtype", F_STR, true},
      {"entityId", F_STR, true},
      {"encryptedValue", F_STR, true},
      {"encryptedValueType", F_STR, false}}},
    {"SUBAGENT_STARTED",
     S_OPEN,
     K_SUB,
     "subagentRunId",
     true,
     false,
     false,
     {{"subagentRunId", F_STR, true},
      {"name", F_STR, true},
      {"description", F_STR, false},
      {"parentSubagentRunId", F_STR, false},
      {"parentToolCallId", F_STR, false},
      {"parentMessageId", F_STR, false}}},
    {"SUBAGENT_FINISHED",
     S_CLOSE,
     K_SUB,
     "subagentRunId",
     false,
     false,
     false,
     {{"subagentRunId", F_STR, true},
      {"result", F_ANY, false},
      {"outcome", F_OBJ, false}}},
    {"SUBAGENT_ERROR",
     S_CLOSE,
     K_SUB,
     "subagentRunId",
     false,
     false,
     false,
     {{"subagentRunId", F_STR, true},
      {"message", F_STR, true},
      {"code", F_CODE, false}}},
    {"RAW",
     S_NONE,
     0,
     NULL,
     true,
     false,
     false,
     {{"event", F_ANY, true}, {"source", F_STR, false}}},
    {"CUSTOM",
     S_NONE,
     0,
     NULL,
     false,
     false,
     false,
     {{"name", F_STR, true}, {"value", F_ANY, true}}},
    {"THINKING_START",
     S_NONE,
     0,
     NULL,
     false,
     false,
     true,
     {{"title", F_STR, false}}},
    {"THINKING_END", S_NONE, 0, NULL, false, false, true, {{NULL, 0, false}}},
    {"THINKING_TEXT_MESSAGE_START",
     S_NONE,
     0,
     NULL,
     false,
     false,
     true,
     {{NULL, 0, false}}},
    {"THINKING_TEXT_MESSAGE_CONTENT",
     S_NONE,
     0,
     NULL,
     false,
     false,
     true,
     {{"delta", F_STR, true}}},
    {"THINKING_TEXT_MESSAGE_END",
     S_NONE,
     0,
     NULL,
     false,
     false,
     true,
     {{NULL, 0, false}}},
};

static const struct shape *find_shape(const char *type) {
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    if (!strcmp(shapes[i].type, type))
      return &shapes[i];
  return NULL;
}

/* ---- state ---- */

enum vrun { V_NONE, V_ACTIVE, V_FINISHED, V_ERRORED };

struct an_agui_verify {
  char *thread_id;
  int mode;
  enum vrun run;
  char *run_id;
  json_t
      *open[K_N]; /* id -> {"sub": opener's subagentRunId, ...opener fields} */
  json_t *used_subs; /* subagent ids seen in this run */
  enum kind chunk;   /* meaningful when chunk_id != NULL */
  char *chunk_id;
  /* the event being judged */
  struct an_turn_rec *r;
  uint64_t n;
  const char *type;
  const char *data;
  size_t len;
  int fatal;
};

void an_agui_verify_new(struct an_agui_verify **out, const char *thread_id,
                        int mode) {
  struct an_agui_verify *v = an_xcalloc(1, sizeof *v);
  v->thread_id = thread_id ? an_xstrdup(thread_id) : NULL;
  v->mode = mode;
  for (int k = 0; k < K_N; k++)
    v->open[k] = json_object();
  v->used_subs = json_object();
  *out = v;
}

void an_agui_verify_free(struct an_agui_verify *v) {
  if (!v)
    return;
  free(v->thread_id);
  free(v->run_id);
  free(v->chunk_id);
  for (int k = 0; k < K_N; k++)
    json_decref(v->open[k]);
  json_decref(v->used_subs);
  free(v);
}

void an_agui_show(char *out, size_t cap, const char *data, size_t len) {
  size_t n = len < SHOW ? len : SHOW;
  char *s = an_utf8_lossy(data, n);
  for (char *p = s; *p; p++)
    if ((unsigned char)*p < 0x20)
      *p = ' ';
  snprintf(out, cap, "%s%s", s, len > SHOW ? "..." : "");
  free(s);
}

/* A finding of `rule` on the current event. Returns nonzero when it ends
 * the turn (a MUST rule in strict mode): the caller stops judging. */
static int finding(struct an_agui_verify *v, const char *rule, const char *fmt,
                   ...) __attribute__((format(printf, 3, 4)));
static int finding(struct an_agui_verify *v, const char *rule, const char *fmt,
                   ...) {
  char what[600], head[SHOW * 3 + 8];
  const struct an_agui_rule *ru = an_agui_rule_find(rule);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  an_agui_show(head, sizeof head, v->data, v->len);
  bool must = !ru || ru->level == AN_AGUI_MUST;
  const char *label = must ? "violation" : "warning";
  if (must && v->mode == AN_PROTOCOL_STRICT) {
    if (v->r->status ==
        AN_TURN_ERROR) /* an earlier cause (RUN_ERROR) keeps the error */
      an_turn_warn(v->r,
                   "protocol %s [%s] at event #%llu (%s): %s \xE2\x80\x94 %s",
                   label, rule, (unsigned long long)v->n, v->type, what, head);
    else
      an_turn_fail(v->r, AN_EPROTO,
                   "protocol %s [%s] at event #%llu (%s): %s \xE2\x80\x94 %s",
                   label, rule, (unsigned long long)v->n, v->type, what, head);
    v->fatal = AN_EPROTO;
    return 1;
  }
  an_turn_warn(v->r, "protocol %s [%s] at event #%llu (%s): %s \xE2\x80\x94 %s",
               label, rule, (unsigned long long)v->n, v->type, what, head);
  return 0;
}

static const char *json_type_name(const json_t *j) {
  switch (json_typeof(j)) {
  case JSON_OBJECT:
    return "object";
  case JSON_ARRAY:
    return "array";
  case JSON_STRING:
    return "string";
  case JSON_INTEGER:
  case JSON_REAL:
    return "number";
  case JSON_TRUE:
  case JSON_FALSE:
    return "boolean";
  default:
    return "null";
  }
}

/* ---- field checks ---- */

static bool known_part(const char *t) {
  static const char *const parts[] = {"text",     "image",  "audio", "video",
                                      "document", "binary", NULL};
  for (size_t i = 0; t && parts[i]; i++)
    if (!strcmp(t, parts[i]))
      return true;
  return false;
}

/* Unknown content parts inside the snapshot's messages are dropped, the
 * list kept (agui.md 6.12). */
static int check_messages(struct an_agui_verify *v, json_t *msgs) {
  size_t i;
  json_t *m;
  json_array_foreach(msgs, i, m) {
    if (!json_is_object(m) || !json_is_string(json_object_get(m, "role")))
      return finding(v, "field-type",
                     "'messages/%zu' is not a message with a string role", i);
    json_t *content = json_object_get(m, "content");
    if (!json_is_array(content))
      continue;
    for (size_t k = 0; k < json_array_size(content);) {
      json_t *part = json_array_get(content, k);
      if (known_part(an_json_str(part, "type"))) {
        k++;
        continue;
      }
      const char *pt = an_json_str(part, "type");
      if (finding(v, "unknown-property",
                  "unknown content part '%.60s' at /messages/%zu/content/%zu "
                  "dropped",
                  pt ? pt : "?", i, k))
        return 1;
      json_array_remove(content, k);
    }
  }
  return 0;
}

static bool in_set(const char *s, const char *const *set) {
  for (size_t i = 0; set[i]; i++)
    if (!strcmp(s, set[i]))
      return true;
  return false;
}

/* An operation with an op JSON Patch does not define is dropped, the rest
 * applied: the patch is an open list of open objects (agui.md 6.14). */
static int check_patch(struct an_agui_verify *v, const char *field,
                       json_t *ops) {
  static const char *const known[] = {"add",  "remove", "replace", "move",
                                      "copy", "test",   NULL};
  size_t orig = 0;
  for (size_t k = 0; k < json_array_size(ops); orig++) {
    json_t *o = json_array_get(ops, k);
    const char *op = an_json_str(o, "op");
    if (!json_is_object(o) || !an_json_str(o, "path") || !op)
      return finding(v, "field-type",
                     "'%s/%zu' is not an operation with string 'op' and 'path'",
                     field, orig);
    if (in_set(op, known)) {
      k++;
      continue;
    }
    if (finding(v, "unknown-property",
                "unknown patch op '%.40s' at /%s/%zu dropped", op, field, orig))
      return 1;
    json_array_remove(ops, k);
  }
  return 0;
}

static int check_outcome(struct an_agui_verify *v, json_t *ev, json_t *o) {
  if (!json_is_object(o))
    return finding(v, "field-type", "'outcome': expected object, received %s",
                   json_type_name(o));
  const char *t = an_json_str(o, "type");
  if (!t)
    return finding(v, "required-field", "'outcome' has no string 'type'");
  if (!strcmp(t, "success") || !strcmp(t, "cancelled")) {
    json_t *p = json_object_get(o, "pendingToolCallIds");
    if (p && !json_is_array(p))
      return finding(
          v, "field-type",
          "'outcome.pendingToolCallIds': expected array, received %s",
          json_type_name(p));
    return 0;
  }
  if (!strcmp(t, "interrupt")) {
    json_t *is = json_object_get(o, "interrupts");
    if (!json_is_array(is))
      return finding(v, "field-type",
                     "'outcome.interrupts': expected array, received %s",
                     is ? json_type_name(is) : "nothing");
    size_t i;
    json_t *it;
    json_array_foreach(is, i, it) {
      if (!an_json_str(it, "id") || !an_json_str(it, "reason"))
        return finding(
            v, "field-type",
            "'outcome.interrupts/%zu' needs string 'id' and 'reason'", i);
    }
    return 0;
  }
  if (finding(v, "unknown-outcome",
              "unknown outcome type '%.60s' at /outcome dropped", t))
    return 1;
  json_object_del(ev, "outcome");
  return 0;
}

static int check_field(struct an_agui_verify *v, json_t *ev,
                       const struct field *f, json_t *x) {
  static const char *const roles[] = {"developer", "system", "assistant",
                                      "user", NULL};
  const char *want = NULL;
  switch (f->kind) {
  case F_ANY:
    return 0;
  case F_STR:
    want = json_is_string(x) ? NULL : "string";
    break;
  case F_OBJ:
    want = json_is_object(x) ? NULL : "object";
    break;
  case F_ARR:
    want = json_is_array(x) ? NULL : "array";
    break;
  case F_BOOL:
    want = json_is_boolean(x) ? NULL : "boolean";
    break;
  case F_CODE:
    want = json_is_string(x) || json_is_number(x) ? NULL : "string";
    break;
  case F_CONTENT:
    want = json_is_string(x) || json_is_array(x) ? NULL : "string or array";
    break;
  case F_MESSAGES:
    if (!json_is_array(x))
      want = "array";
    else
      return check_messages(v, x);
    break;
  case F_OUTCOME:
    return check_outcome(v, ev, x);
  case F_PATCH:
    if (!json_is_array(x))
      want = "array";
    else
      return check_patch(v, f->name, x);
    break;
  case F_ROLE:
    if (!json_is_string(x))
      want = "string";
    else if (!in_set(json_string_value(x), roles))
      return finding(
          v, "field-type",
          "'role' is \"%.60s\", expected one of \"developer\", \"system\", "
          "\"assistant\", \"user\"",
          json_string_value(x));
    break;
  case F_RROLE:
  case F_TROLE: {
    const char *lit = f->kind == F_RROLE ? "reasoning" : "tool";
    if (!json_is_string(x) || strcmp(json_string_value(x), lit))
      return finding(v, "field-type", "'role' is %s%.60s%s, expected \"%s\"",
                     json_is_string(x) ? "\"" : "",
                     json_is_string(x) ? json_string_value(x)
                                       : json_type_name(x),
                     json_is_string(x) ? "\"" : "", lit);
    break;
  }
  }
  if (want)
    return finding(v, "field-type", "'%s': expected %s, received %s", f->name,
                   want, json_type_name(x));
  return 0;
}

/* Required fields, types, unknown properties (removed). Absent and null are
 * the same for optional fields ("absent means absent"; Python and .NET
 * producers send null), except metadata, where null is invalid. */
static int check_fields(struct an_agui_verify *v, const struct shape *sh,
                        json_t *ev) {
  for (const struct field *f = sh->f; f < sh->f + MAXF && f->name; f++) {
    json_t *x = json_object_get(ev, f->name);
    if (!x || (json_is_null(x) && f->kind != F_ANY)) {
      if (f->required && finding(v, "required-field", "missing '%s'", f->name))
        return 1;
      continue;
    }
    if (check_field(v, ev, f, x))
      return 1;
  }
  json_t *ts = json_object_get(ev, "timestamp");
  if (ts && !json_is_null(ts)) {
    const json_int_t max = ((json_int_t)1 << 53) - 1;
    if (!json_is_integer(ts) || json_integer_value(ts) > max ||
        json_integer_value(ts) < -max)
      return finding(
          v, "field-type", "'timestamp': expected integer (ms), received %s%s",
          json_type_name(ts), json_is_integer(ts) ? " out of range" : "");
  }
  json_t *md = json_object_get(ev, "metadata");
  if (md && !json_is_object(md))
    return finding(v, "field-type", "'metadata': expected object, received %s",
                   json_type_name(md));
  json_t *sub = json_object_get(ev, "subagentRunId");
  if (!sh->no_subagent && sub && !json_is_null(sub) && !json_is_string(sub))
    return finding(v, "field-type",
                   "'subagentRunId': expected string, received %s",
                   json_type_name(sub));

  /* unknown properties: collected first, deleting while iterating is not safe
   */
  const char *drop[16];
  size_t ndrop = 0;
  const char *key;
  json_t *x;
  json_object_foreach(ev, key, x) {
    bool known = !strcmp(key, "type") || !strcmp(key, "timestamp") ||
                 !strcmp(key, "rawEvent") || !strcmp(key, "metadata") ||
                 (!sh->no_subagent && !strcmp(key, "subagentRunId"));
    for (const struct field *f = sh->f; !known && f < sh->f + MAXF && f->name;
         f++)
      known = !strcmp(key, f->name);
    if (!known && ndrop < sizeof drop / sizeof drop[0])
      drop[ndrop++] = key;
  }
  for (size_t i = 0; i < ndrop; i++)
    if (finding(v, "unknown-property", "unknown property '/%.60s' dropped",
                drop[i]))
      return 1;
  for (size_t i = 0; i < ndrop; i++) {
    char k[128];
    snprintf(k, sizeof k, "%s", drop[i]); /* drop[i] dies with the member */
    json_object_del(ev, k);
  }
  return 0;
}

/* ---- ordering ---- */

static void clear_run(struct an_agui_verify *v) {
  for (int k = 0; k < K_N; k++)
    json_object_clear(v->open[k]);
  json_object_clear(v->used_subs);
  free(v->chunk_id);
  v->chunk_id = NULL;
}

static const char *str_or(const json_t *ev, const char *key, const char *dflt) {
  const char *s = an_json_str(ev, key);
  return s ? s : dflt;
}

/* An opener's attributes, compared with its continuations. */
static void open_item(struct an_agui_verify *v, enum kind k, const char *id,
                      const json_t *ev) {
  json_t *o = json_object();
  static const char *const keep[] = {
      "subagentRunId", "role", "name", "toolCallName", "parentMessageId", NULL};
  for (size_t i = 0; keep[i]; i++) {
    const char *s = an_json_str(ev, keep[i]);
    if (s)
      json_object_set_new(o, keep[i], json_string(s));
  }
  json_object_set_new(v->open[k], id, o);
}

/* The continuation's subagentRunId, when it has one, is its opener's. */
static int check_attribution(struct an_agui_verify *v, enum kind k,
                             const char *id, const json_t *ev) {
  const char *sub = an_json_str(ev, "subagentRunId");
  const char *was =
      str_or(json_object_get(v->open[k], id), "subagentRunId", NULL);
  if (!sub || (was && !strcmp(sub, was)))
    return 0;
  return finding(v, "subagent-attribution",
                 "subagentRunId '%.100s' does not match the %s '%.100s' "
                 "opener's %s%.100s%s",
                 sub, kind_name[k], id, was ? "'" : "(none)", was ? was : "",
                 was ? "'" : "");
}

static void chunk_close(struct an_agui_verify *v) {
  if (!v->chunk_id)
    return;
  json_object_del(v->open[v->chunk], v->chunk_id);
  free(v->chunk_id);
  v->chunk_id = NULL;
}

static int check_chunk(struct an_agui_verify *v, const struct shape *sh,
                       const json_t *ev) {
  const char *id = an_json_str(ev, sh->id);
  if (v->chunk_id && v->chunk == sh->kind &&
      (!id || !strcmp(id, v->chunk_id))) {
    /* a continuation */
    json_t *op = json_object_get(v->open[sh->kind], v->chunk_id);
    static const char *const attrs[] = {"role", "name", "toolCallName",
                                        "parentMessageId", NULL};
    for (size_t i = 0; attrs[i]; i++) {
      const char *now = an_json_str(ev, attrs[i]);
      const char *was = an_json_str(op, attrs[i]);
      if (!was && !strcmp(attrs[i], "role") && sh->kind == K_TEXT)
        was = "assistant";
      if (now && was && strcmp(now, was) &&
          finding(v, "chunk-conflict",
                  "%s '%.100s' does not match the open stream's %s '%.100s' "
                  "(%.100s)",
                  attrs[i], now, attrs[i], was, v->chunk_id))
        return 1;
    }
    return check_attribution(v, sh->kind, v->chunk_id, ev);
  }
  chunk_close(v);
  const char *name = an_json_str(ev, "toolCallName");
  if (!id)
    return finding(v, "chunk-first-needs-id", "first %s must have a %s",
                   sh->type, sh->id);
  if (sh->kind == K_TOOL && !name)
    return finding(v, "chunk-first-needs-id",
                   "first %s must have a toolCallName", sh->type);
  if (json_object_get(v->open[sh->kind], id) &&
      finding(v, "already-open", "%s '%.100s' is already open",
              kind_name[sh->kind], id))
    return 1;
  open_item(v, sh->kind, id, ev);
  v->chunk = sh->kind;
  v->chunk_id = an_xstrdup(id);
  return 0;
}

/* The names still open, for a RUN_FINISHED finding. */
static int check_all_closed(struct an_agui_verify *v) {
  for (int k = 0; k < K_N; k++) {
    if (!json_object_size(v->open[k]))
      continue;
    const char *id;
    json_t *x;
    json_object_foreach(v->open[k], id, x) {
      if (finding(v, "closed-before-finish", "%s '%.100s' is still open",
                  kind_name[k], id))
        return 1;
      break; /* one finding per kind is enough to read */
    }
  }
  return 0;
}

static bool version_newer(const char *pv, bool *readable) {
  unsigned long maj, min, mymaj = 1, mymin = 1;
  char *end;
  *readable = false;
  if (!pv[0] || pv[0] < '0' || pv[0] > '9')
    return false;
  maj = strtoul(pv, &end, 10);
  if (*end != '.' || end[1] < '0' || end[1] > '9')
    return false;
  min = strtoul(end + 1, &end, 10);
  if (*end && *end != '.')
    return false;
  *readable = true;
  return maj > mymaj || (maj == mymaj && min > mymin);
}

static int check_run_started(struct an_agui_verify *v, const json_t *ev) {
  const char *tid = an_json_str(ev, "threadId");
  if (v->run == V_ACTIVE &&
      finding(v, "nested-run-started",
              "RUN_STARTED while run '%.100s' is still active",
              v->run_id ? v->run_id : ""))
    return 1;
  clear_run(v);
  free(v->run_id);
  v->run_id = an_xstrdup(str_or(ev, "runId", ""));
  v->run = V_ACTIVE;
  if (v->thread_id && tid && strcmp(tid, v->thread_id) &&
      finding(v, "thread-id-echo",
              "threadId '%.100s' is not the request's '%.100s'", tid,
              v->thread_id))
    return 1;
  const char *pv = an_json_str(ev, "protocolVersion");
  bool readable;
  if (pv && version_newer(pv, &readable))
    return finding(v, "protocol-version",
                   "producer declares protocol version '%.40s', newer than "
                   "the " AN_AGUI_PROTOCOL_VERSION
                   " this client implements; served anyway",
                   pv);
  if (pv && !readable)
    return finding(v, "protocol-version",
                   "cannot interpret protocolVersion '%.40s' (not "
                   "MAJOR.MINOR); served anyway",
                   pv);
  return 0;
}

static int check_run_finished(struct an_agui_verify *v, const json_t *ev) {
  const char *rid = an_json_str(ev, "runId"),
             *tid = an_json_str(ev, "threadId");
  if (rid && v->run_id && strcmp(rid, v->run_id) &&
      finding(v, "run-id-echo",
              "runId '%.100s' is not its RUN_STARTED's '%.100s'", rid,
              v->run_id))
    return 1;
  if (v->thread_id && tid && strcmp(tid, v->thread_id) &&
      finding(v, "thread-id-echo",
              "threadId '%.100s' is not the request's '%.100s'", tid,
              v->thread_id))
    return 1;
  if (check_all_closed(v))
    return 1;
  clear_run(v);
  v->run = V_FINISHED;
  return 0;
}

static int check_sequence(struct an_agui_verify *v, const struct shape *sh,
                          const json_t *ev) {
  /* where the event may stand at all */
  if (v->run == V_NONE && sh->seq != S_RUN_STARTED && sh->seq != S_RUN_ERROR) {
    if (finding(v, "first-event",
                "first event must be RUN_STARTED or RUN_ERROR, not %s",
                sh->type))
      return 1;
    v->run = V_ACTIVE; /* judged as if a run had started */
  } else if (v->run == V_FINISHED && sh->seq != S_RUN_STARTED &&
             sh->seq != S_RUN_ERROR) {
    return finding(
        v, "after-run-finished",
        "the run has already finished with RUN_FINISHED; only RUN_STARTED or "
        "RUN_ERROR may follow");
  } else if (v->run == V_ERRORED && sh->seq != S_RUN_STARTED) {
    return finding(v, "nothing-after-run-error",
                   "the run has already errored with RUN_ERROR; only "
                   "RUN_STARTED may follow");
  }

  if (!sh->keeps_chunk ||
      (sh->seq == S_CHUNK && v->chunk_id && v->chunk != sh->kind))
    chunk_close(v);

  const char *id = sh->id ? an_json_str(ev, sh->id) : NULL;
  switch (sh->seq) {
  case S_RUN_STARTED:
    return check_run_started(v, ev);
  case S_RUN_FINISHED:
    return check_run_finished(v, ev);
  case S_RUN_ERROR:
    clear_run(v);
    v->run = V_ERRORED;
    return 0;
  case S_CHUNK:
    return check_chunk(v, sh, ev);
  case S_OPEN:
    if (!id)
      return 0;
    if (json_object_get(v->open[sh->kind], id))
      return finding(v, "already-open", "%s '%.100s' is already open",
                     kind_name[sh->kind], id);
    if (sh->kind == K_SUB && json_object_get(v->used_subs, id))
      return finding(v, "already-open",
                     "subagent '%.100s' was already used in this run", id);
    if (sh->kind == K_SUB)
      json_object_set_new(v->used_subs, id, json_true());
    open_item(v, sh->kind, id, ev);
    return 0;
  case S_USE:
  case S_CLOSE:
    if (!id)
      return 0;
    if (!json_object_get(v->open[sh->kind], id))
      return finding(
          v, "open-before-use",
          "no active %s found with ID '%.100s' (%s that was not started or is "
          "already closed)",
          kind_name[sh->kind], id, sh->type);
    if (sh->kind != K_SUB && check_attribution(v, sh->kind, id, ev))
      return 1;
    if (sh->seq == S_CLOSE) {
      if (v->chunk_id && v->chunk == sh->kind && !strcmp(v->chunk_id, id)) {
        free(v->chunk_id);
        v->chunk_id = NULL;
      }
      json_object_del(v->open[sh->kind], id);
    }
    return 0;
  case S_NONE:
    return 0;
  }
  return 0;
}

int an_agui_verify_event(struct an_agui_verify *v, struct an_turn_rec *r,
                         json_t *ev, uint64_t n, const char *data, size_t len,
                         bool *drop) {
  const char *type = an_json_str(ev, "type");
  const struct shape *sh = type ? find_shape(type) : NULL;
  *drop = !sh;
  if (v->mode == AN_PROTOCOL_OFF)
    return 0;
  v->r = r;
  v->n = n;
  v->type = type ? type : "?";
  v->data = data;
  v->len = len;
  v->fatal = 0;
  if (!sh) {
    /* Judged against nothing: a newer producer's event is not a fault. */
    finding(v, "unknown-event", "unknown event type '%.100s' dropped", v->type);
    return v->fatal;
  }
  if (sh->legacy &&
      finding(v, "deprecated-event",
              "%s is a deprecated 0.0.x event (REASONING_* replaces it)", type))
    return v->fatal;
  if (check_fields(v, sh, ev) || check_sequence(v, sh, ev))
    return v->fatal;
  return 0;
}
