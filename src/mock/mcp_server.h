/*
 * `ananke-mock mcp`: what the MCP server double answers, apart from the
 * transport. Both transports (stdio in mcp_stdio.c, Streamable HTTP in
 * mcp_http.c) hand each message from the client to mcp_server_answer() and
 * get back the message to send plus the tool whose behaviour they must play:
 * a plain answer for most, or a fault only a transport can commit (a frame
 * that is not JSON, an exit mid-call, a stream that never ends).
 *
 * Speaks MCP 2025-11-25 and negotiates down to 2024-11-05: initialize,
 * ping, tools/list (two pages), tools/call, resources/list, resources/read,
 * resources/templates/list, resources/subscribe and unsubscribe,
 * prompts/list, prompts/get, completion/complete, logging/setLevel;
 * anything else is -32601. It also serves the fixtures of the official
 * conformance kit's server (mcp_kit.c: test_simple_text, test://static-text,
 * test_prompt_with_arguments, ...), so that the kit's scenarios and
 * ananke's tests citing them run on it; each MCP_FAULT_MAP row breaks one
 * rule on purpose (--fault NAME).
 */
#ifndef ANANKE_MOCK_MCP_SERVER_H
#define ANANKE_MOCK_MCP_SERVER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The tools, in tools/list order (the first three are page one). The
 * description is also the --help text. */
#define MCP_TOOL_MAP(X)                                                                            \
    X(MCP_T_ECHO, "echo", "answers 'echo: MESSAGE'")                                               \
    X(MCP_T_ASK, "ask",                                                                            \
      "stdio: pings the client, asks roots/list and sampling, then says "                          \
      "what came back")                                                                            \
    X(MCP_T_RPC_ERROR, "rpc_error", "a JSON-RPC error -32602")                                     \
    X(MCP_T_DIE, "die", "stdio: exits 3 mid-call; HTTP: cuts the stream mid-call")                 \
    X(MCP_T_GARBAGE, "garbage", "a frame that is not JSON, then nothing")                          \
    X(MCP_T_HANG, "hang", "no answer; HTTP: an SSE stream that never answers nor ends")            \
    X(MCP_T_ADD, "add", "answers the sum of a and b")                                              \
    X(MCP_T_IS_ERROR, "is_error", "a tool result with isError true")                               \
    X(MCP_T_WRONG_ID, "wrong_id", "the answer under another id, then nothing")                     \
    X(MCP_T_HUGE, "huge", "an answer over the client's 32 MiB frame cap")                          \
    X(MCP_T_CLOSE_STDOUT, "close_stdout",                                                          \
      "stdio: closes stdout and keeps running; HTTP: cuts the stream")                             \
    X(MCP_T_STDERR_FLOOD, "stderr_flood", "8 MiB on stderr, then the echo answer")                 \
    X(MCP_T_HTTP_500, "http_500", "HTTP: status 500; stdio: a JSON-RPC error -32603")              \
    X(MCP_T_ENDLESS, "endless",                                                                    \
      "HTTP: the answer on an SSE stream that stays open; stdio: "                                 \
      "the echo answer")

/* The kit fixture tools (mcp_kit.c), after the mock's own on page two. */
#define MCP_KIT_TOOL_MAP(X)                                                                        \
    X(MCP_T_KIT_TEXT, "test_simple_text", "kit fixture: one text block")                           \
    X(MCP_T_KIT_IMAGE, "test_image_content", "kit fixture: one PNG image block")                   \
    X(MCP_T_KIT_AUDIO, "test_audio_content", "kit fixture: one WAV audio block")                   \
    X(MCP_T_KIT_EMBEDDED, "test_embedded_resource", "kit fixture: one embedded text resource")     \
    X(MCP_T_KIT_MIXED, "test_multiple_content_types", "kit fixture: text, image and resource")     \
    X(MCP_T_KIT_LOGGING, "test_tool_with_logging", "kit fixture: 3 log notifications, then text")  \
    X(MCP_T_KIT_ERROR, "test_error_handling", "kit fixture: an isError result with a message")     \
    X(MCP_T_KIT_PROGRESS, "test_tool_with_progress",                                               \
      "kit fixture: progress 0, 50, 100 for the call's progressToken, then text")

/* The kit fixture tools that ask the client in the middle of the call
 * (mcp_ask.c), after the others. */
#define MCP_ASK_TOOL_MAP(X)                                                                        \
    X(MCP_T_KIT_SAMPLING, "test_sampling",                                                         \
      "kit fixture: asks sampling/createMessage, says the answer")                                 \
    X(MCP_T_KIT_ELICIT, "test_elicitation",                                                        \
      "kit fixture: asks elicitation/create, says the answer")                                     \
    X(MCP_T_KIT_ELICIT_DEFAULTS, "test_elicitation_sep1034_defaults",                              \
      "kit fixture: elicitation whose schema has defaults (SEP-1034)")                             \
    X(MCP_T_KIT_ELICIT_ENUMS, "test_elicitation_sep1330_enums",                                    \
      "kit fixture: elicitation with the five enum forms (SEP-1330)")

/* The kit's diagnostic tools of MCP 2026-07-28's server-stateless scenario
 * (mcp_stateless.c), after the others. */
#define MCP_STATELESS_TOOL_MAP(X)                                                                  \
    X(MCP_T_KIT_MISSING_CAP, "test_missing_capability",                                            \
      "2026-07-28: -32021 (HTTP 400) unless the client declared sampling")                         \
    X(MCP_T_KIT_TOOL_CHANGE, "test_trigger_tool_change",                                           \
      "2026-07-28: notifications/tools/list_changed to the listen streams that asked")             \
    X(MCP_T_KIT_PROMPT_CHANGE, "test_trigger_prompt_change",                                       \
      "2026-07-28: notifications/prompts/list_changed to the listen streams that asked")           \
    X(MCP_T_KIT_LOG_LEVEL, "test_logging_tool",                                                    \
      "2026-07-28: a log notification only when _meta names a logLevel, then text")                \
    X(MCP_T_KIT_STREAM_ELICIT, "test_streaming_elicitation",                                       \
      "2026-07-28: an input_required result asking elicitation (never a request)")

/* The rules --fault NAME breaks, one each (docs/mock.md "ananke-mock mcp"):
 * every test of compliance/mcp citing a kit scenario has one it catches;
 * the "HTTP:" ones break Streamable HTTP's session and header rules
 * (mcp_cmd.c) and change nothing on stdio. */
#define MCP_FAULT_MAP(X)                                                                           \
    X(MCP_F_TEXT_EMPTY, "text-empty", "test_simple_text answers an empty content array")           \
    X(MCP_F_IMAGE_NO_MIME, "image-no-mime", "the image block has no mimeType")                     \
    X(MCP_F_AUDIO_NO_DATA, "audio-no-data", "the audio block has no data")                         \
    X(MCP_F_EMBEDDED_NO_RESOURCE, "embedded-no-resource", "the resource block has no resource")    \
    X(MCP_F_MIXED_TEXT_ONLY, "mixed-text-only", "test_multiple_content_types answers text only")   \
    X(MCP_F_NO_LOG, "no-log", "test_tool_with_logging sends no log notification")                  \
    X(MCP_F_ERROR_NOT_FLAGGED, "error-not-flagged", "test_error_handling's result lacks isError")  \
    X(MCP_F_NO_PROGRESS, "no-progress", "test_tool_with_progress sends one progress notification") \
    X(MCP_F_COMPLETION_NO_VALUES, "completion-no-values", "completion/complete has no values")     \
    X(MCP_F_TEXT_NO_MIME, "text-no-mime", "test://static-text is read without its mimeType")       \
    X(MCP_F_BINARY_AS_TEXT, "binary-as-text", "test://static-binary is read as text, no blob")     \
    X(MCP_F_TEMPLATE_LITERAL, "template-literal", "a template read ignores the uri's {id}")        \
    X(MCP_F_SUBSCRIBE_REFUSED, "subscribe-refused", "resources/subscribe is -32601")               \
    X(MCP_F_UNSUBSCRIBE_REFUSED, "unsubscribe-refused", "resources/unsubscribe is -32601")         \
    X(MCP_F_PROMPT_NO_ROLE, "prompt-no-role", "test_simple_prompt's message has no role")          \
    X(MCP_F_PROMPT_ARGS_IGNORED, "prompt-args-ignored", "prompt arguments are not substituted")    \
    X(MCP_F_PROMPT_NO_RESOURCE, "prompt-no-resource",                                              \
      "test_prompt_with_embedded_resource embeds no resource")                                     \
    X(MCP_F_PROMPT_NO_IMAGE, "prompt-no-image", "test_prompt_with_image's image has no data")      \
    X(MCP_F_LOG_LEVEL_REFUSED, "log-level-refused", "logging/setLevel is -32601")                  \
    X(MCP_F_PING_NOT_EMPTY, "ping-not-empty", "ping answers {\"pong\": true}")                     \
    X(MCP_F_SESSION_ID_INVALID, "session-id-invalid", "HTTP: the session id minted holds a space") \
    X(MCP_F_SESSION_NOT_REQUIRED, "session-not-required",                                          \
      "HTTP: a request without Mcp-Session-Id is taken")                                           \
    X(MCP_F_DELETE_IGNORED, "delete-ignored", "HTTP: DELETE answers 200, the session lives on")    \
    X(MCP_F_SESSION_GONE_400, "session-gone-400", "HTTP: an unknown or ended session gets 400")    \
    X(MCP_F_VERSION_HEADER_IGNORED, "version-ignored", "HTTP: any MCP-Protocol-Version is taken")  \
    X(MCP_F_GET_JSON, "get-json", "HTTP: GET answers 200 application/json, not a stream or 405")   \
    X(MCP_F_ORIGIN_IGNORED, "origin-ignored", "HTTP: a request with a foreign Origin is taken")    \
    X(MCP_F_NOTIFICATION_200, "notification-200",                                                  \
      "HTTP: a notification or response gets 200 and a body, not 202")                             \
    X(MCP_F_ONE_STREAM, "one-stream",                                                              \
      "HTTP: a POST while another is answered (each held 300 ms) is refused 409")                  \
    X(MCP_F_DISCOVER_NO_VERSIONS, "discover-no-versions",                                          \
      "2026-07-28: server/discover's result has no supportedVersions")                             \
    X(MCP_F_META_NOT_REQUIRED, "meta-not-required",                                                \
      "2026-07-28: a request without _meta (or its clientCapabilities) is served")                 \
    X(MCP_F_VERSION_ANY, "version-any",                                                            \
      "2026-07-28: any _meta protocolVersion is served, none refused -32022")                      \
    X(MCP_F_HEADERS_UNCHECKED, "headers-unchecked",                                                \
      "2026-07-28: MCP-Protocol-Version, Mcp-Method and Mcp-Name are not checked")                 \
    X(MCP_F_CLIENT_INFO_REQUIRED, "client-info-required",                                          \
      "2026-07-28: a request whose _meta has no clientInfo is refused -32602")                     \
    X(MCP_F_NO_SERVER_INFO, "no-server-info",                                                      \
      "2026-07-28: server/discover's result has no _meta serverInfo")                              \
    X(MCP_F_REMOVED_SERVED, "removed-served",                                                      \
      "2026-07-28: ping, initialize, logging/setLevel... are still answered")                      \
    X(MCP_F_NO_RESULT_TYPE, "no-result-type", "2026-07-28: results carry no resultType")           \
    X(MCP_F_NO_CACHE_HINTS, "no-cache-hints",                                                      \
      "2026-07-28: lists and reads carry no ttlMs nor cacheScope")                                 \
    X(MCP_F_UNKNOWN_RESOURCE_EMPTY, "unknown-resource-empty",                                      \
      "2026-07-28: an unknown resource is read as empty contents")                            \
    X(MCP_F_UNKNOWN_METHOD_ANSWERED, "unknown-method-answered",                                    \
      "2026-07-28: a method nobody defines gets an empty result")                                  \
    X(MCP_F_UNKNOWN_TOOL_ANSWERED, "unknown-tool-answered",                                        \
      "2026-07-28: a call of an unknown tool gets a plain text result")                            \
    X(MCP_F_UNKNOWN_PROMPT_ANSWERED, "unknown-prompt-answered",                                    \
      "2026-07-28: prompts/get of an unknown prompt gets empty messages")                          \
    X(MCP_F_RESOURCE_NO_NAME, "resource-no-name", "2026-07-28: resources/list's resources lack name") \
    X(MCP_F_PROMPT_NO_NAME, "prompt-no-name", "2026-07-28: prompts/list's prompts lack name")     \
    X(MCP_F_INPUT_IGNORED, "input-ignored",                                                        \
      "2026-07-28: a retry with inputResponses is answered input_required again")                  \
    X(MCP_F_SAMPLING_NO_MAX_TOKENS, "sampling-no-max-tokens",                                      \
      "test_sampling's sampling/createMessage has no maxTokens")                                   \
    X(MCP_F_ELICIT_NO_SCHEMA, "elicit-no-schema",                                                  \
      "test_elicitation's elicitation/create has no requestedSchema")                              \
    X(MCP_F_ELICIT_NO_DEFAULTS, "elicit-no-defaults",                                              \
      "test_elicitation_sep1034_defaults's schema has no defaults")                                \
    X(MCP_F_ELICIT_ENUM_UNTITLED, "elicit-enum-untitled",                                          \
      "test_elicitation_sep1330_enums's titled enums are plain enum arrays") \
    X(MCP_F_SAMPLING_IGNORED, "sampling-ignored",                                                  \
      "2026-07-28: test_input_required_result_sampling's retry is answered input_required again")  \
    X(MCP_F_ROOTS_IGNORED, "roots-ignored",                                                        \
      "2026-07-28: test_input_required_result_list_roots' retry is answered input_required again") \
    X(MCP_F_STATE_IGNORED, "state-ignored",                                                        \
      "2026-07-28: a retry with its requestState (test_input_required_result_request_state) is "   \
      "answered input_required again")                                                             \
    X(MCP_F_INPUTS_IGNORED, "inputs-ignored",                                                      \
      "2026-07-28: test_input_required_result_multiple_inputs' retry is answered input_required "  \
      "again")                                                                                     \
    X(MCP_F_ROUND_STATE_KEPT, "round-state-kept",                                                  \
      "2026-07-28: test_input_required_result_multi_round's second round keeps the first "         \
      "round's requestState")                                                                      \
    X(MCP_F_PROMPT_INPUT_IGNORED, "prompt-input-ignored",                                          \
      "2026-07-28: prompts/get test_input_required_result_prompt's retry is answered "             \
      "input_required again")                                                                      \
    X(MCP_F_STATE_UNCHECKED, "state-unchecked",                                                    \
      "2026-07-28: a tampered requestState is taken, not refused -32602")                          \
    X(MCP_F_CAPABILITIES_IGNORED, "capabilities-ignored",                                          \
      "2026-07-28: test_input_required_result_capabilities asks elicitation of a client that "     \
      "declared none")                                                                             \
    X(MCP_F_LIST_INPUT_REQUIRED, "list-input-required",                                            \
      "2026-07-28: tools/list and prompts/list are answered input_required")                      \
    X(MCP_F_MISSING_INPUT_ERROR, "missing-input-error",                                            \
      "2026-07-28: a retry lacking an asked input is refused -32602, not asked again")             \
    X(MCP_F_EXTRA_INPUT_REFUSED, "extra-input-refused",                                            \
      "2026-07-28: a retry with inputResponses nothing asked is refused -32602")                   \
    X(MCP_F_INPUT_UNVALIDATED, "input-unvalidated",                                                \
      "2026-07-28: inputResponses that are not objects (null, a number) are taken: the call "      \
      "completes")                                                                                 \
    X(MCP_F_CAPABILITY_UNCHECKED, "capability-unchecked",                                          \
      "2026-07-28: test_missing_capability runs for a client that did not declare sampling")       \
    X(MCP_F_LISTEN_REFUSED, "listen-refused",                                                      \
      "2026-07-28: subscriptions/listen is -32601 though discover declares listChanged")           \
    X(MCP_F_LISTEN_NO_ACK, "listen-no-ack",                                                        \
      "2026-07-28: a subscriptions/listen stream starts without its acknowledgement")              \
    X(MCP_F_LISTEN_UNTAGGED, "listen-untagged",                                                    \
      "2026-07-28: listen-stream notifications carry no subscriptionId")                           \
    X(MCP_F_LISTEN_UNFILTERED, "listen-unfiltered",                                                \
      "2026-07-28: every listen stream gets every list change, asked for or not")                  \
    X(MCP_F_LIST_CHANGED_SILENT, "list-changed-silent",                                            \
      "2026-07-28: the trigger tools change the lists but notify no listen stream")                \
    X(MCP_F_LOG_WITHOUT_LEVEL, "log-without-level",                                                \
      "2026-07-28: test_logging_tool logs to a request whose _meta names no logLevel")             \
    X(MCP_F_DISCOVER_CAPS_MISSING, "discover-caps-missing",                                        \
      "2026-07-28: server/discover declares neither tools nor prompts, both served")               \
    X(MCP_F_REQUEST_ON_STREAM, "request-on-stream",                                                \
      "2026-07-28: test_streaming_elicitation sends elicitation/create on the call's stream")      \
    X(MCP_F_ERROR_ID_NULL, "error-id-null",                                                        \
      "2026-07-28: the -32021 error answers under id null, not the request's")

enum mcp_fault {
    MCP_F_NONE = 0,
#define MCP_X(e, name, desc) e,
    MCP_FAULT_MAP(MCP_X)
#undef MCP_X
        MCP_F_COUNT
};

enum mcp_tool {
#define MCP_X(e, name, desc) e,
    MCP_TOOL_MAP(MCP_X) MCP_KIT_TOOL_MAP(MCP_X) MCP_ASK_TOOL_MAP(MCP_X)
        MCP_STATELESS_TOOL_MAP(MCP_X)
#undef MCP_X
        MCP_T_COUNT,
    MCP_T_NONE = MCP_T_COUNT /* not a tool call: send the reply as it is */
};

struct mcp_server_opts {
    const char *version;  /* answer initialize with this version; NULL = negotiate */
    enum mcp_tool forced; /* every tools/call behaves as this tool; MCP_T_NONE = as named */
    bool http;            /* tools that need stdio say so in an isError result */
    enum mcp_fault fault; /* the rule broken on purpose; MCP_F_NONE = none */
    bool modern_only;     /* speak 2026-07-28 only: initialize is refused as removed */
    struct mcp_hub *hub;  /* where list changes go (mcp_listen.h); NULL: nowhere */
};
/* clang-format off */
#define MCP_SERVER_OPTS_INIT                                                                       \
    {                                                                                              \
        .forced = MCP_T_NONE                                                                       \
    }
/* clang-format on */

/* The name of tool i, or NULL past the last; its description. */
const char *mcp_tool_name(unsigned i);
const char *mcp_tool_desc(unsigned i);

/* The name of fault f (1 .. MCP_F_COUNT-1), or NULL; its description;
 * the fault named `name`, or MCP_F_NONE. */
const char *mcp_fault_name(unsigned f);
const char *mcp_fault_desc(unsigned f);
enum mcp_fault mcp_fault_parse(const char *name);

/* Answer one message. *reply is the JSON-RPC message to send (the caller
 * decrefs it), or NULL for a notification or a response. `notes` (a JSON
 * array the caller owns) gets the notifications to send before *reply
 * (progress, log messages). Returns the tool whose behaviour the transport
 * plays (MCP_T_NONE: just send *reply); for a fault tool *reply is the
 * answer a well-behaved server would have given. */
enum mcp_tool mcp_server_answer(const struct mcp_server_opts *o, const json_t *msg, json_t *notes,
                                json_t **reply);

/* ---- the kit's fixtures (mcp_kit.c) ---- */

/* The result of kit fixture tool t (MCP_T_KIT_*), appending its
 * notifications to notes; `params` are the tools/call params. */
json_t *mcp_kit_tool(const struct mcp_server_opts *o, enum mcp_tool t, const json_t *params,
                     json_t *notes);
/* resources/read of a kit uri (test://...): the result, or NULL when the
 * uri is not one of the kit's. */
json_t *mcp_kit_read(const struct mcp_server_opts *o, const char *uri);
/* prompts/get of a kit prompt: the result, or NULL when it is not one. */
json_t *mcp_kit_prompt(const struct mcp_server_opts *o, const char *name, const json_t *args);
/* The kit's resources, templates and prompts, appended to the lists. */
void mcp_kit_list(json_t *resources, json_t *templates, json_t *prompts);

/* ---- the kit's tools that ask the client (mcp_ask.c) ---- */

/* True for MCP_T_KIT_SAMPLING ... MCP_T_KIT_ELICIT_ENUMS: the transport
 * sends the request of mcp_ask_request(), waits for the client's answer,
 * then sends the result mcp_ask_result() builds from it. */
bool mcp_ask_is(enum mcp_tool t);
/* The request (sampling/createMessage or elicitation/create, with `id`)
 * that ask tool t sends for a call with these tools/call `params`. */
json_t *mcp_ask_request(const struct mcp_server_opts *o, enum mcp_tool t, const json_t *params,
                        const char *id);
/* The tools/call result of ask tool t given the client's `response` (a
 * JSON-RPC response: what it says goes into the text; an error makes an
 * isError result). */
json_t *mcp_ask_result(enum mcp_tool t, const json_t *response);

/* ---- the kit's 2026-07-28 diagnostic tools (mcp_stateless.c) ---- */

/* True for MCP_T_KIT_MISSING_CAP ... MCP_T_KIT_STREAM_ELICIT. */
bool mcp_stateless_is(enum mcp_tool t);
/* The answer (a JSON-RPC message for `id`) of stateless tool t called with
 * these tools/call `params`, its notifications appended to notes. */
json_t *mcp_stateless_call(const struct mcp_server_opts *o, enum mcp_tool t, const json_t *id,
                           const json_t *params, json_t *notes);

/* A JSON-RPC success for `id` whose text content is `size` bytes of 'x'
 * (malloc'd, *len its length): a frame over any cap the caller picks. */
char *mcp_huge_frame(const json_t *id, size_t size, size_t *len);
/* The start of an answer for `id`, cut where its result begins: not JSON. */
char *mcp_garbage_frame(const json_t *id);
/* Write `total` bytes of log lines on stderr (the stderr_flood tool, with
 * MCP_FLOOD_BYTES: far more than a pipe holds, so a client that does not
 * drain the server's stderr blocks it). */
#define MCP_FLOOD_BYTES (8u * 1024u * 1024u)
void mcp_stderr_flood(size_t total);

#endif
