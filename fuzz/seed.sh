#!/usr/bin/env bash
# Builds the seed corpora and dictionaries of the fuzz targets from the
# repository's own files, so nothing is copied into git:
#
#   bash fuzz/seed.sh OUT      ->  OUT/seed/<target>/ and OUT/dict/<target>.dict
#
# Sources: examples/, tests/e2e/ (configs, test files, JSONL and cases.json
# suites), compliance/ (.jsont), schema/ (JSON Schemas, and the YAML keys
# for the loaders' dictionaries), the AG-UI conformance corpus
# ($ANANKE_AGUI_CORPUS, default ../shared/data/agui-conformance/1.1, used
# when present), plus a few hand-written inputs below for the wire formats
# the test suite only speaks through node peers (A2A, JSON-RPC). Each
# corpus is capped (MAX files) to keep the short runs short. Needs jq.
# The seeds hold ${...} on purpose:
# shellcheck disable=SC2016
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: fuzz/seed.sh OUT}
MAX=${FUZZ_SEED_MAX:-40}
corpus=${ANANKE_AGUI_CORPUS:-$PWD/../shared/data/agui-conformance/1.1}
rm -rf "$out/seed" "$out/dict"
mkdir -p "$out/dict"
for t in sse agui jsonrpc acp a2a yaml yaml_fast config test_yaml jsonl cases_json jsont regex jsonmatch \
    interp jsonschema openai_stream mcp_http json_validate h1; do
  mkdir -p "$out/seed/$t"
done
S=$out/seed

# copy TARGET FILE...: the first MAX of them, named by a counter (names repeat)
copy() {
  local t=$1 i=0; shift
  for f in "$@"; do
    [ -f "$f" ] || continue
    [ "$(stat -c %s "$f")" -le 16384 ] || continue
    i=$((i + 1)); [ "$i" -le "$MAX" ] || break
    cp "$f" "$S/$t/$i-$(basename "$f")"
  done
}
# put TARGET NAME: stdin is one seed
put() { cat >"$S/$1/$2"; }

# ---- HTTP/1.1 answers (proto/h1.h): mode byte, then the bytes ----
printf '\200HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 12\r\n\r\ndata: x\n\nok' | put h1 length
printf '\003HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n0\r\nT: 1\r\n\r\n' |
  put h1 chunked
printf '\201HTTP/1.0 200 OK\nConnection: keep-alive\n\nuntil the close' | put h1 close
printf '\100HTTP/1.1 307 x\r\nLocation: /a\r\nRetry-After: Sun, 06 Nov 1994 08:49:37 GMT\r\nContent-Length: 0\r\n\r\n' |
  put h1 redirect
printf '%s\n' '"HTTP/1.1 "' '"HTTP/1.0 "' '"\x0d\x0a"' '"Content-Length:"' '"Transfer-Encoding:"' \
  '"chunked"' '"identity"' '"Connection:"' '"close"' '"keep-alive"' '"Content-Type:"' '"Location:"' \
  '"Retry-After:"' '"Content-Encoding:"' '"100 Continue"' '"204"' '"304"' '"101"' '"0\x0d\x0a\x0d\x0a"' \
  >"$out/dict/h1.dict"

# ---- loaders and YAML ----
shopt -s nullglob
copy config examples/ananke.config.yaml tests/e2e/*/ananke.config.yaml examples/*/ananke.config.yaml
copy test_yaml examples/suite/*.test.yaml tests/e2e/*/*.test.yaml tests/e2e/*/*/*.test.yaml
copy yaml examples/suite/*.test.yaml examples/ananke.config.yaml examples/mock/scenario.yaml \
  tests/e2e/*/scenario.yaml
copy jsonl tests/e2e/*/*.jsonl
copy cases_json tests/e2e/*/cases.json tests/e2e/*/*.cases.json
copy jsont compliance/*/*.jsont
printf 'a: &x [*x]\n' | put yaml alias-self
printf 'a: &a [1,2]\nb: &b [*a,*a,*a,*a]\nc: [*b,*b,*b,*b]\n' | put yaml alias-fan
printf '%s\n' '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[x]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]' |
  put yaml deep
# the fast path's subset and its edges (tests/unit/test_yaml_fast.c has more)
copy yaml_fast examples/suite/*.test.yaml examples/ananke.config.yaml tests/e2e/*/*.test.yaml \
  tests/e2e/*/ananke.config.yaml
printf 'a:\n- x\n-\n- y: 1\n  z: [a, "b", {c: d}]\nb: \x27it\x27\x27s\x27 # c\n' | put yaml_fast indentless
printf -- '---\n- - "\\u00e9\\x41\\n"\n  - caf\xc3\xa9: \n' | put yaml_fast escapes

# ---- JSON Schema: every schema of schema/ against a few instances ----
i=0
for f in schema/*.json; do
  i=$((i + 1))
  jq -c '[., {}]' "$f" | put jsonschema "$i-empty"
  jq -c '[., {"version": "1.0", "target": {"type": "agui", "endpoint": "http://x"}}]' "$f" |
    put jsonschema "$i-config"
done
put jsonschema ref-loop <<<'[{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"},1]'
put jsonschema mixed <<<'[{"type":"object","properties":{"n":{"type":"integer","minimum":1,"multipleOf":0.5}},"required":["n"],"additionalProperties":false,"patternProperties":{"^x":{"type":"string","pattern":"^a+$","maxLength":3}}},{"n":1.0,"xa":"aa"}]'
put jsonschema combinators <<<'[{"anyOf":[{"type":"string"},{"type":"array","items":{"const":1},"uniqueItems":true,"contains":{"enum":[1]}}],"not":{"oneOf":[{"maxItems":0},{"minItems":5}]}},[1]]'
put jsonschema items <<<'[{"prefixItems":[{"type":"number"}],"items":false,"minProperties":0,"exclusiveMinimum":0},[1]]'

# ---- AG-UI: one event per line, from the conformance corpus ----
if [ -d "$corpus/streams" ]; then
  i=0
  for f in "$corpus"/streams/*.json; do
    i=$((i + 1)); [ "$i" -le "$MAX" ] || break
    n=$(basename "$f" .json)
    jq -c '.stream[]?' "$f" >"$S/agui/$n" 2>/dev/null || rm -f "$S/agui/$n"
    # the same events as an SSE body for the framer, in 5-byte reads
    { printf '\005'; jq -r '.stream[]? | "data: " + tojson + "\n"' "$f" 2>/dev/null; } >"$S/sse/$n"
  done
  # the event type names and member names the corpus uses
  jq -r '.. | objects | keys[]' "$corpus"/streams/*.json 2>/dev/null | sort -u |
    sed 's/.*/"\\"&\\""/' >>"$out/dict/agui.dict"
fi
put agui basic <<'X'
{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}
{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hi"}
{"type":"TEXT_MESSAGE_END","messageId":"m1"}
{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search","parentMessageId":"m1"}
{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"q\":1}"}
{"type":"TOOL_CALL_END","toolCallId":"c1"}
{"type":"TOOL_CALL_RESULT","messageId":"r1","toolCallId":"c1","content":"ok"}
{"type":"STATE_SNAPSHOT","snapshot":{"a":[1]}}
{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a/-","value":2},{"op":"move","from":"/a","path":"/b"}]}
{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"m1","role":"assistant","content":"hi"}]}
{"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1"}
X
{ echo '#mode 1'; cat "$S/agui/basic"; } | put agui warn-mode
{ echo '#mode 2'; cat "$S/agui/basic"; } | put agui off-mode
grep -rhoE '"(RUN|TEXT|TOOL|STATE|MESSAGES|STEP|RAW|CUSTOM|THINKING|REASONING|ACTIVITY)_[A-Z_]+"' \
  src/lib/proto/agui*.c | sort -u >>"$out/dict/agui.dict"
sort -u -o "$out/dict/agui.dict" "$out/dict/agui.dict"

# ---- SSE framer: the first byte is the read size and cap (fuzz_sse.c) ----
printf '\000\357\273\277: comment\r\nevent: x\r\nid: 1\r\nretry: 50\r\ndata: a\r\ndata:b\r\n\r\ndata\n\n' |
  put sse bom-crlf
printf '\001data: one\rdata: two\r\rid\nretry: x\nfoo: bar\ndata: last' | put sse cr-unterminated
printf '\101data: %s\n\n' "$(head -c 100 /dev/zero | tr '\0' x)" | put sse over-cap
printf 'data: \ndata: \n\n' >"$out/dict/sse.dict.tmp"
printf '"data:"\n"event:"\n"id:"\n"retry:"\n"\\x0d\\x0a"\n"\\xef\\xbb\\xbf"\n' >"$out/dict/sse.dict"
rm -f "$out/dict/sse.dict.tmp"

# ---- JSON-RPC frames (ACP agent / MCP server stdout); first byte: cap ----
put jsonrpc acp <<'X'
0{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}
{"jsonrpc":"2.0","id":"r1","method":"fs/read_text_file","params":{"sessionId":"s","path":"/tmp/x"}}
{"jsonrpc":"2.0","id":7,"method":"fail","params":[1]}
  {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}  

not json
[{"jsonrpc":"2.0","id":1,"result":{}}]
X
put jsonrpc mcp <<'X'
1{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}
{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a"},{"type":"image","data":"AA=="}],"isError":true}}
{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}
{"jsonrpc":"2.0","id":2,"method":"roots/list"}
X
printf '0{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"1999-01-01"}}' | put jsonrpc mcp-old
printf '"jsonrpc"\n"method"\n"params"\n"result"\n"error"\n"id"\n"2.0"\n"session/update"\n"protocolVersion"\n"isError"\n"content"\n' \
  >"$out/dict/jsonrpc.dict"

# ---- an ACP agent's stdout for a whole turn (fuzz_acp.c): our ids are
# initialize 0, session/new 1, session/prompt 2 ----
put acp turn <<'X'
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":false},"authMethods":[]}}
{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s-1"}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s-1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s-1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"read","kind":"read","status":"pending","rawInput":{"path":"/x"}}}}
{"jsonrpc":"2.0","id":"p1","method":"session/request_permission","params":{"sessionId":"s-1","toolCall":{"toolCallId":"c1"},"options":[{"optionId":"allow","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"No","kind":"reject_once"}]}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s-1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","rawOutput":{"ok":true},"content":[{"type":"content","content":{"type":"text","text":"done"}}]}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s-1","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"}]}}}
{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s-1","update":{"sessionUpdate":"usage_update","cost":{"amount":0.5,"currency":"USD"}}}}
{"jsonrpc":"2.0","id":"f1","method":"fs/read_text_file","params":{"sessionId":"s-1","path":"/etc/hostname"}}
{"jsonrpc":"2.0","id":"t1","method":"terminal/create","params":{"sessionId":"s-1","command":"true"}}
{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}
X
put acp errors <<'X'
{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":99}}
{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"auth required"}}
{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"boom","data":{"x":1}}}
X
printf '"sessionUpdate"\n"agent_message_chunk"\n"tool_call"\n"tool_call_update"\n"toolCallId"\n"rawInput"\n"rawOutput"\n"status"\n"completed"\n"failed"\n"stopReason"\n"end_turn"\n"session/update"\n"session/request_permission"\n"sessionId"\n"usage_update"\n' \
  >"$out/dict/acp.dict"

# ---- A2A streamed answers (SSE of JSON-RPC answers) and cards ----
put a2a v10-stream <<'X'
data: {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t3","contextId":"c3","status":{"state":"TASK_STATE_SUBMITTED"},"history":[{"messageId":"u","role":"ROLE_USER","parts":[{"text":"q"}]}]}}}

data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t3","contextId":"c3","status":{"state":"TASK_STATE_WORKING","message":{"messageId":"w","role":"ROLE_AGENT","parts":[{"text":"working"}]}}}}}

data: {"jsonrpc":"2.0","id":1,"result":{"artifactUpdate":{"taskId":"t3","contextId":"c3","artifact":{"artifactId":"a3","name":"result","parts":[{"data":{"echo":"q"}},{"url":"http://h/f","mediaType":"text/csv","filename":"f"}]},"append":true,"lastChunk":true}}}

data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t3","contextId":"c3","status":{"state":"TASK_STATE_INPUT_REQUIRED"}}}}

X
put a2a v03-stream <<'X'
data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t4","contextId":"c4","status":{"state":"submitted"}}}

data: {"jsonrpc":"2.0","id":1,"result":{"kind":"artifact-update","taskId":"t4","contextId":"c4","artifact":{"artifactId":"a4","name":"story","parts":[{"kind":"text","text":"Once "}]},"append":false}}

data: {"jsonrpc":"2.0","id":1,"result":{"kind":"artifact-update","taskId":"t4","contextId":"c4","artifact":{"artifactId":"a4","parts":[{"kind":"text","text":"upon"},{"kind":"file","file":{"uri":"http://h/r.csv","mimeType":"text/csv","name":"r.csv"}}]},"append":true}}

data: {"jsonrpc":"2.0","id":1,"result":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"data","data":{}}]}}

data: {"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t4","contextId":"c4","status":{"state":"completed"},"final":true}}

X
put a2a card-v10 <<<'{"name":"a","supportedInterfaces":[{"url":"http://h:1/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":"t"}],"capabilities":{"streaming":true},"securitySchemes":{"k":{"apiKeySecurityScheme":{"location":"header","name":"X-Key"}}}}'
put a2a card-v03 <<<'{"name":"a","url":"http://h:1/","preferredTransport":"JSONRPC","protocolVersion":"0.3.0","additionalInterfaces":[{"url":"https://h/x","transport":"JSONRPC"}],"securitySchemes":{"k":{"type":"apiKey","in":"header","name":"X-Key"}}}'
printf '"TASK_STATE_COMPLETED"\n"TASK_STATE_WORKING"\n"statusUpdate"\n"artifactUpdate"\n"artifactId"\n"kind"\n"status-update"\n"artifact-update"\n"append"\n"lastChunk"\n"messageId"\n"parts"\n"supportedInterfaces"\n"protocolVersion"\n"JSONRPC"\n' \
  >"$out/dict/a2a.dict"

# ---- OpenAI chat completions answers (fuzz_openai_stream.c); first byte:
# read size and a small event cap. The stream ananke-mock openai writes, as
# docs/mock.md shows it, then hand-written tool calls, usage and errors ----
{ printf '\000'; sed -n '/^data: {"id":"chatcmpl-mock/p; /^data: \[DONE\]/p' docs/mock.md |
    sed 's/$/\n/'; } | put openai_stream mock-doc
{ printf '\005'; sed -n '/^data: {"id":"chatcmpl-mock/p; /^data: \[DONE\]/p' docs/mock.md |
    sed 's/$/\r\n/'; } | put openai_stream mock-doc-crlf
put openai_stream tools <<'X'
data: {"id":"c1","model":"m","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]}}]}

data: {"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]}}]}

data: {"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_2","function":{"name":"b","arguments":"{}"}},{"index":0,"function":{"arguments":"\"Paris\"}"}}]}}]}

data: {"id":"c1","choices":[{"index":0,"delta":{"refusal":"no"},"finish_reason":"tool_calls"}],"usage":null}

data: {"id":"c1","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}

data: [DONE]

data: {"late":true}

X
printf '\101data: {"error":{"message":"rate limited","type":"requests","code":429}}\n\n' |
  put openai_stream api-error
printf '\000{"id":"c2","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi","tool_calls":[{"id":"t","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"stop"}],"usage":{"total_tokens":1}}' |
  put openai_stream body
printf '\000{"detail":"Not Found: model \\"x\\" does not exist"}' | put openai_stream detail
printf '"choices"\n"delta"\n"content"\n"tool_calls"\n"function"\n"arguments"\n"finish_reason"\n"index"\n"usage"\n"refusal"\n"[DONE]"\n"data: "\n"error"\n"message"\n' \
  >"$out/dict/openai_stream.dict"

# ---- MCP Streamable HTTP answers (fuzz_mcp_http.c); byte 0: Content-Type
# (0 SSE, 1 JSON), 0x08 initialize sent first, 0x10 a 64-byte cap, 0xC0
# the whole body at once. Our ids: initialize 0, tools/call 1 (without
# 0x08: tools/call 0). The SSE stream of docs/mock.md, the stdio answers
# ananke-mock mcp gives there as bodies, and batches ----
{ printf '\310'; sed -n '/^data: {"jsonrpc":"2.0","method":"notifications\/message"/p' docs/mock.md |
    sed 's/$/\n/'; printf 'id: 1\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"echo: hi"}]}}\n\n'; } |
  put mcp_http sse-doc
grep -m1 '^{"jsonrpc":"2.0","id":2,"result":{"content"' docs/mock.md | sed 's/"id":2/"id":0/' |
  { printf '\301'; cat; } | put mcp_http json-doc
printf '\311[{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}},{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}]' |
  put mcp_http batch-init
printf '\100: priming\nid: 0\ndata:\n\nevent: message\ndata: {"jsonrpc":"2.0","id":"s1","method":"ping"}\n\ndata: {"jsonrpc":"2.0","id":"s2","method":"roots/list"}\n\ndata: {"jsonrpc":"2.0","id":"s3","method":"sampling/createMessage","params":{}}\n\ndata: {"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Invalid params"}}\n\n' |
  put mcp_http sse-requests
printf '\321{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"over the sixty-four byte cap of this mode"}]}}' |
  put mcp_http over-cap
printf '\302{"jsonrpc":"2.0","id":0,"result":{not json' | put mcp_http garbage
printf '"jsonrpc"\n"result"\n"error"\n"method"\n"id"\n"protocolVersion"\n"capabilities"\n"content"\n"isError"\n"data: "\n"event: message"\n"roots/list"\n"ping"\n' \
  >"$out/dict/mcp_http.dict"

# ---- regex: pattern line, subject rest ----
i=0
grep -rhoE '(must_match|must_not_match|match|pattern): *"?/[^"]+/[a-z]*"?' examples tests/e2e \
  --include='*.yaml' 2>/dev/null | sed -E 's/^[a-z_]+: *"?//; s/"$//' | sort -u | head -n "$MAX" |
  while IFS= read -r p; do
    i=$((i + 1)); printf '%s\nsome subject text 123\n' "$p" >"$S/regex/e2e-$i"
  done
printf '/^a+$/i\nAAAA' | put regex slash-flags
printf '(a+)+$\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' | put regex backtrack
printf '/\\p{L}+/u\n\303\274\377' | put regex utf
printf '/v1/ui\nv1' | put regex not-slash
printf 'x{2,}(?=y)\\Q.*\\E\nxxy.*' | put regex quoted

# ---- json_validate: JSON texts, as a tool call's arguments arrive ----
copy json_validate schema/*.json tests/e2e/*/cases.json
put json_validate args <<<'{"query": "weather in \"Paris\" caf\u00e9 \ud83d\ude00", "limit": 20, "filters": {"lang": "en", "safe": true, "tags": [null, false, -0, 123456789012345678]}}'
put json_validate real <<<'{"t": 0.5e-3, "big": 1234567890123456789}'
put json_validate nul <<<'["a\u0000b"]'
put json_validate deep <<<'[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{}]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]'
put json_validate blank <<<'   '
put json_validate trailing <<<'{"a": 1} x'

# ---- jsonmatch: [expected, actual] ----
put jsonmatch envelope <<<'[{"result":{"stopReason":"^end_turn$","n":0},"params":{"update":{"content":[{"type":"^image$"}]}}},{"result":{"stopReason":"end_turn","n":"0"},"params":{"update":{"content":[{"type":"text"},{"type":"image"}]}}}]'
put jsonmatch arrays <<<'[[1,"a",[null],{"x":true}],[{"x":"true"},[null],"ba",1.0,2]]'
put jsonmatch bad-regex <<<'["(", "("]'

# ---- interpolation ----
printf 'a ${A} b ${B} $${ ${ENV.FUZZ_ENV} ${sessionId}' | put interp refs
printf '${' | put interp open
printf '${ENV.NOPE_UNSET} ${1bad} ${A' | put interp bad
printf '"${"\n"$${"\n"ENV."\n"}"\n' >"$out/dict/interp.dict"

# ---- keys of the YAML formats, from the schemas ----
jq -r '[paths(type == "object") as $p | getpath($p) | .properties? // {} | keys[]] | unique[]' \
  schema/ananke.config.schema.json schema/ananke.test.schema.json 2>/dev/null |
  sort -u | sed 's/.*/"&:"/' >"$out/dict/yaml_keys.dict"
for t in config test_yaml; do cp "$out/dict/yaml_keys.dict" "$out/dict/$t.dict"; done
jq -r '[paths(type == "object") as $p | getpath($p) | .properties? // {} | keys[]] | unique[]' \
  schema/ananke.test.schema.json 2>/dev/null | sed 's/.*/"\\"&\\""/' >"$out/dict/jsonl.dict"
cp "$out/dict/jsonl.dict" "$out/dict/cases_json.dict"
rm -f "$out/dict/yaml_keys.dict"
printf '"type"\n"properties"\n"required"\n"additionalProperties"\n"patternProperties"\n"items"\n"prefixItems"\n"additionalItems"\n"contains"\n"enum"\n"const"\n"pattern"\n"minLength"\n"maxLength"\n"minimum"\n"maximum"\n"exclusiveMinimum"\n"exclusiveMaximum"\n"multipleOf"\n"minItems"\n"maxItems"\n"uniqueItems"\n"minProperties"\n"maxProperties"\n"allOf"\n"anyOf"\n"oneOf"\n"not"\n"$ref"\n"#/$defs/"\n"definitions"\n"integer"\n"number"\n' \
  >"$out/dict/jsonschema.dict"
printf '"newSession"\n"send"\n"expect"\n"forbid"\n"delayMs"\n"run"\n"http"\n"capture"\n"anyOf"\n"${protocolVersionDefault}"\n"${clientCapabilitiesDefault}"\n"${sessionId}"\n"${sandbox}"\n"steps"\n"init"\n"clientCapabilities"\n"preconditions"\n"files"\n' \
  >"$out/dict/jsont.dict"

for t in "$S"/*; do
  [ -n "$(ls -A "$t")" ] || echo "seed: no seed for $(basename "$t")" >&2
done
