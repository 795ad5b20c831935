# shellcheck shell=bash
# Sourced by tests/mock/mcp.sh (uses its MOCK, TMP, INIT, call, answer,
# post, status, header, same, mock_start, mock_stop): the kit tools that ask
# the client in the middle of a call (src/mock/mcp_ask.c), over stdio and
# over Streamable HTTP, where the request rides the call's SSE stream and
# the answer comes in a POST of its own.

# ---- stdio: a line each way --------------------------------------------------------------
mkfifo "$TMP/kask.in"
"$MOCK" mcp <"$TMP/kask.in" >"$TMP/out" 2>"$TMP/err" &
PID=$!
exec 3>"$TMP/kask.in"
printf '%s\n' "$INIT" "$(call 2 test_sampling '{"prompt":"say hi"}')" >&3
for _ in $(seq 50); do [ "$(wc -l <"$TMP/out")" -ge 2 ] && break; sleep 0.05; done
same "kit ask (stdio): sampling/createMessage with the prompt and maxTokens" \
    '{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"say hi"}}],"maxTokens":100}}' \
    "$(jq -c 'select(.method) | {method, params}' "$TMP/out")"
ID=$(jq -c 'select(.method) | .id' "$TMP/out")
printf '%s\n' "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"hi!\"},\"model\":\"m\"}}" \
    "$(call 3 test_elicitation '{"message":"who?"}')" >&3
for _ in $(seq 50); do [ "$(wc -l <"$TMP/out")" -ge 4 ] && break; sleep 0.05; done
same "kit ask (stdio): the result quotes the sampled text" '"LLM response: hi!"' "$(answer 2 '.result.content[0].text')"
ID=$(jq -c 'select(.method == "elicitation/create") | .id' "$TMP/out")
printf '%s\n' "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"error\":{\"code\":-32601,\"message\":\"no\"}}" >&3
exec 3>&-
wait "$PID"
PID=
same "kit ask (stdio): an error answer is an isError result that quotes it" \
    'true "test_elicitation failed: the client answered {\"code\":-32601,\"message\":\"no\"}"' \
    "$(answer 3 '.result.isError, .result.content[0].text' | tr '\n' ' ' | sed 's/ $//')"

# ---- Streamable HTTP: the request on the call's stream, the answer a POST -----------------
mock_start kask mcp --http
post "$INIT" >/dev/null
S=(-H "Mcp-Session-Id: $(header mcp-session-id)" -H 'MCP-Protocol-Version: 2025-11-25')
: >"$TMP/kask.sse"
post "$(call 2 test_elicitation_sep1034_defaults)" "${S[@]}" >"$TMP/kask.sse" &
CURL=$!
for _ in $(seq 50); do grep -q '^data: .*elicitation/create' "$TMP/kask.sse" && break; sleep 0.05; done
REQ=$(sed -n 's/^data: //p' "$TMP/kask.sse" | jq -c 'select(.method)')
same "kit ask (http): elicitation/create on the call's stream, with SEP-1034 defaults" \
    '["John Doe",30,95.5,"active",true]' \
    "$(jq -c '.params.requestedSchema.properties | [.name, .age, .score, .status, .verified] | map(.default)' <<<"$REQ")"
same "kit ask (http): the stream waits for the answer" 1 "$(kill -0 "$CURL" 2>/dev/null && echo 1)"
post "{\"jsonrpc\":\"2.0\",\"id\":$(jq -c .id <<<"$REQ"),\"result\":{\"action\":\"decline\"}}" "${S[@]}" >/dev/null
same "kit ask (http): the answer is taken with 202" 202 "$(status)"
wait "$CURL"
same "kit ask (http): then the result ends the stream" '"Elicitation completed: action=decline, content={}"' \
    "$(sed -n 's/^data: //p' "$TMP/kask.sse" | jq 'select(.id == 2) | .result.content[0].text')"
mock_stop kask "$PID"
