/*
 * The official MCP kit's input-required fixtures in 2026-07-28
 * (mcp_mrtr.h): a table of fixtures, each a list of rounds of inputs, and
 * one function that plays a request against it.
 */
#include "mcp_mrtr.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"

#define META_CAPS "io.modelcontextprotocol/clientCapabilities"
#define MRTR_ROUNDS 2
#define MRTR_ASKS 3

enum ask_kind { ASK_ELICIT, ASK_SAMPLE, ASK_ROOTS };

/* One input a round asks: under `key`, of `kind`; an elicitation asks
 * `field` (of JSON type `type`) with `text`, a sampling request `text`. */
struct ask {
    const char *key;
    enum ask_kind kind;
    const char *text, *field, *type;
};

struct fixture {
    const char *method, *name;
    bool state;                                /* a signed requestState goes with each ask */
    enum mcp_fault ignored;                    /* answers every retry input_required again */
    const char *done;                          /* the complete answer's text */
    struct ask rounds[MRTR_ROUNDS][MRTR_ASKS]; /* round r asks rounds[r] (key NULL ends) */
};

/* clang-format off */
#define ELICIT_NAME {"user_name", ASK_ELICIT, "What is your name?", "name", "string"}
#define CONFIRM {"confirm", ASK_ELICIT, "Please confirm", "ok", "boolean"}
#define GREETING {"greeting", ASK_SAMPLE, "Generate a greeting", NULL, NULL}
#define ROOTS {"client_roots", ASK_ROOTS, NULL, NULL, NULL}
#define T_ "test_input_required_result_"

static const struct fixture fixtures[] = {
    {"tools/call", T_ "elicitation", false, MCP_F_INPUT_IGNORED, "Hello, %s!", {{ELICIT_NAME}}},
    {"tools/call", T_ "sampling", false, MCP_F_SAMPLING_IGNORED, "The model answered the question",
     {{{"capital_question", ASK_SAMPLE, "What is the capital of France?", NULL, NULL}}}},
    {"tools/call", T_ "list_roots", false, MCP_F_ROOTS_IGNORED, "The client's roots came", {{ROOTS}}},
    {"tools/call", T_ "request_state", true, MCP_F_STATE_IGNORED, "state-ok: confirmed", {{CONFIRM}}},
    {"tools/call", T_ "multiple_inputs", true, MCP_F_INPUTS_IGNORED, "Hello, %s! Every input came",
     {{ELICIT_NAME, GREETING, ROOTS}}},
    {"tools/call", T_ "multi_round", true, MCP_F_NONE, "Both rounds answered",
     {{{"step1", ASK_ELICIT, "Step 1: What is your name?", "name", "string"}},
      {{"step2", ASK_ELICIT, "Step 2: What is your favorite color?", "color", "string"}}}},
    {"tools/call", T_ "tampered_state", true, MCP_F_NONE, "state-ok: confirmed", {{CONFIRM}}},
    {"tools/call", T_ "capabilities", false, MCP_F_NONE, "Asked only what the client declared",
     {{ELICIT_NAME, GREETING, ROOTS}}},
    {"prompts/get", T_ "prompt", false, MCP_F_PROMPT_INPUT_IGNORED, "Use this context: %s",
     {{{"user_context", ASK_ELICIT, "What context should the prompt use?", "context", "string"}}}},
};
/* clang-format on */

/* The requestState of round r of fixture f: "rN." and a keyed FNV-1a of
 * the fixture and the round, which a tampered state does not match. */
static void state_of(const struct fixture *f, unsigned r, struct an_buf *b)
{
    static const char key[] = "ananke-mock mrtr state key";
    uint64_t h = 0xcbf29ce484222325u;
    struct an_buf in = AN_BUF_INIT;
    an_buf_printf(&in, "%s|%s|%u", key, f->name, r);
    for (size_t i = 0; i < in.len; i++)
        h = (h ^ (unsigned char)in.data[i]) * 0x100000001b3u;
    an_buf_release(&in);
    an_buf_printf(b, "r%u.%016llx", r, (unsigned long long)h);
}

/* The round a requestState names, or -1 when it fails the check. */
static int state_round(const struct fixture *f, const json_t *st)
{
    const char *s = json_string_value(st);
    for (unsigned r = 0; s && r < MRTR_ROUNDS; r++) {
        struct an_buf b = AN_BUF_INIT;
        state_of(f, r, &b);
        bool same = !strcmp(s, an_buf_cstr(&b));
        an_buf_release(&b);
        if (same)
            return (int)r;
    }
    return -1;
}

static bool declared(const json_t *caps, enum ask_kind k)
{
    static const char *const cap[] = {"elicitation", "sampling", "roots"};
    return json_object_get(caps, cap[k]) != NULL;
}

/* Whether fixture f asks `a` of this client: the capabilities fixture asks
 * only what the request's clientCapabilities declare. */
static bool asks(const struct mcp_server_opts *o, const struct fixture *f, const struct ask *a,
                 const json_t *params)
{
    if (strcmp(f->name, T_ "capabilities") || o->fault == MCP_F_CAPABILITIES_IGNORED)
        return true;
    return declared(json_object_get(json_object_get(params, "_meta"), META_CAPS), a->kind);
}

static json_t *input_request(const struct ask *a)
{
    if (a->kind == ASK_ROOTS)
        return json_pack("{s:s,s:{}}", "method", "roots/list", "params");
    if (a->kind == ASK_SAMPLE)
        return json_pack("{s:s,s:{s:[{s:s,s:{s:s,s:s}}],s:i}}", "method", "sampling/createMessage",
                         "params", "messages", "role", "user", "content", "type", "text", "text",
                         a->text, "maxTokens", 50);
    return json_pack("{s:s,s:{s:s,s:{s:s,s:{s:{s:s}},s:[s]}}}", "method", "elicitation/create",
                     "params", "message", a->text, "requestedSchema", "type", "object",
                     "properties", a->field, "type", a->type, "required", a->field);
}

static json_t *complete(const struct fixture *f, const json_t *resp);

/* input_required asking round r (its signed state for a stateful fixture;
 * round-state-kept: the state of the round before); the complete answer
 * when the client can give none of its inputs. */
static json_t *ask_round(const struct mcp_server_opts *o, const struct fixture *f, unsigned r,
                         const json_t *params)
{
    json_t *reqs = json_object();
    for (const struct ask *a = f->rounds[r]; a < f->rounds[r] + MRTR_ASKS && a->key; a++)
        if (asks(o, f, a, params))
            json_object_set_new(reqs, a->key, input_request(a));
    if (!json_object_size(reqs)) {
        json_decref(reqs);
        return complete(f, NULL);
    }
    json_t *res = json_pack("{s:s,s:o}", "resultType", "input_required", "inputRequests", reqs);
    if (f->state) {
        struct an_buf b = AN_BUF_INIT;
        state_of(f, r && o->fault == MCP_F_ROUND_STATE_KEPT ? r - 1 : r, &b);
        json_object_set_new(res, "requestState", json_string(an_buf_cstr(&b)));
        an_buf_release(&b);
    }
    return res;
}

/* The complete answer: a tool's text, or a prompt's message; "%s" in the
 * text is the first elicited string. */
static json_t *complete(const struct fixture *f, const json_t *resp)
{
    const char *given = NULL;
    for (const struct ask *a = f->rounds[0]; a < f->rounds[0] + MRTR_ASKS && a->key; a++)
        if (a->kind == ASK_ELICIT && !given)
            given =
                an_json_str(json_object_get(json_object_get(resp, a->key), "content"), a->field);
    struct an_buf b = AN_BUF_INIT;
    if (strstr(f->done, "%s")) {
        const char *cut = strstr(f->done, "%s");
        an_buf_printf(&b, "%.*s%s%s", (int)(cut - f->done), f->done, given ? given : "stranger",
                      cut + 2);
    } else {
        an_buf_printf(&b, "%s", f->done);
    }
    json_t *text = json_pack("{s:s,s:s}", "type", "text", "text", an_buf_cstr(&b));
    an_buf_release(&b);
    if (!strcmp(f->method, "prompts/get"))
        return json_pack("{s:[{s:s,s:o}],s:s}", "messages", "role", "user", "content", text,
                         "resultType", "complete");
    return json_pack("{s:[o],s:s}", "content", text, "resultType", "complete");
}

static json_t *invalid(const char *what, const char *key)
{
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "Invalid params: %s%s", what, key ? key : "");
    json_t *e = json_pack("{s:i,s:s}", "code", -32602, "message", an_buf_cstr(&b));
    an_buf_release(&b);
    return e;
}

/* Whether round r of f asks `key` of this client. */
static bool asked(const struct mcp_server_opts *o, const struct fixture *f, unsigned r,
                  const char *key, const json_t *params)
{
    for (const struct ask *a = f->rounds[r]; a < f->rounds[r] + MRTR_ASKS && a->key; a++)
        if (!strcmp(a->key, key) && asks(o, f, a, params))
            return true;
    return false;
}

/* Round r's inputs in resp: NULL when all came, else *err (a -32602) or
 * *again (ask round r again). */
static void check_inputs(const struct mcp_server_opts *o, const struct fixture *f, unsigned r,
                         const json_t *params, json_t **err, bool *again)
{
    const json_t *resp = json_object_get(params, "inputResponses");
    for (const struct ask *a = f->rounds[r]; a < f->rounds[r] + MRTR_ASKS && a->key; a++) {
        const json_t *v = json_object_get(resp, a->key);
        if (!asks(o, f, a, params))
            continue;
        if (!v && o->fault == MCP_F_MISSING_INPUT_ERROR)
            *err = invalid("inputResponses lacks ", a->key);
        else if (!v)
            *again = true;
        else if (!json_is_object(v) && o->fault != MCP_F_INPUT_UNVALIDATED)
            *err = invalid("an input response is not an object: ", a->key);
        if (*err)
            return;
    }
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)resp, k, v)
    {
        if (o->fault == MCP_F_EXTRA_INPUT_REFUSED && !asked(o, f, r, k, params)) {
            *err = invalid("inputResponses has a key nothing asked: ", k);
            return;
        }
    }
}

/* The result (or the error, *err) of a request of fixture f. */
static json_t *play(const struct mcp_server_opts *o, const struct fixture *f, const json_t *params,
                    json_t **err)
{
    const json_t *resp = json_object_get(params, "inputResponses");
    const json_t *st = json_object_get(params, "requestState");
    if (resp && !json_is_object(resp)) {
        if (o->fault == MCP_F_INPUT_UNVALIDATED)
            return complete(f, NULL);
        *err = invalid("inputResponses is not an object", NULL);
        return NULL;
    }
    int r = 0;
    if (f->state && st) {
        r = state_round(f, st);
        if (r < 0 && o->fault != MCP_F_STATE_UNCHECKED) {
            *err = invalid("requestState fails its integrity check", NULL);
            return NULL;
        }
        r = r < 0 ? 0 : r;
    }
    if (!resp || (f->ignored != MCP_F_NONE && o->fault == f->ignored))
        return ask_round(o, f, (unsigned)r, params);
    bool again = false;
    check_inputs(o, f, (unsigned)r, params, err, &again);
    if (*err)
        return NULL;
    if (again)
        return ask_round(o, f, (unsigned)r, params);
    if (r + 1 < MRTR_ROUNDS && f->rounds[r + 1][0].key)
        return ask_round(o, f, (unsigned)r + 1, params);
    return complete(f, resp);
}

json_t *mcp_mrtr_answer(const struct mcp_server_opts *o, const json_t *body, const char *method)
{
    const json_t *params = json_object_get(body, "params");
    const char *name = an_json_str(params, "name");
    const struct fixture *f = NULL;
    for (size_t i = 0; name && i < sizeof fixtures / sizeof fixtures[0]; i++)
        if (!strcmp(fixtures[i].method, method) && !strcmp(fixtures[i].name, name))
            f = &fixtures[i];
    if (!f)
        return NULL;
    json_t *err = NULL, *res = play(o, f, params, &err);
    if (res && o->fault == MCP_F_NO_RESULT_TYPE)
        json_object_del(res, "resultType");
    const json_t *id = json_object_get(body, "id");
    return res ? json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result", res)
               : json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "error", err);
}
