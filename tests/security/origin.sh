# shellcheck shell=bash disable=SC2317 # sourced by run.sh; functions run through check
# Credentials stay with their origin, and what a server sends instead of an
# answer is named (docs/security.md "Credentials stay with their origin").
#
# origin_srv.py gives two origins on 127.0.0.1 (listeners a and b, two
# ports) and logs every request with its headers. Targets are configured on
# a with a secret header; b must never see it, unless the config says
# trust_card_url: true. Then: compare and replay never follow a symlink
# planted in a recording.

og=$out/origin
mkdir -p "$og"
O_SECRET=origin-5ecret-key-4242
olog=$og/requests.jsonl
: >"$olog"
if spawn_server "$og/ports" 0.05 "$og/srv.stdout" "$og/srv.stderr" \
  python3 "$here/origin_srv.py" "$olog" "$og/ports"; then
  pids+=("$spawned_pid")
  osrv_pid=$spawned_pid
  read -r PA PB <"$og/ports"
  A=http://127.0.0.1:$PA B=http://127.0.0.1:$PB

  # osuite NAME TARGET_YAML: a suite dir $og/NAME with one test of one a2a
  # message (or user turn) against TARGET_YAML (indented two spaces)
  osuite() {
    local d=$og/$1 turn
    mkdir -p "$d"
    printf 'version: "1.0"\ntarget:\n%s\n' "$2" >"$d/ananke.config.yaml"
    if grep -q 'type: a2a' <<<"$2"; then
      turn='  - type: a2a:send
    message: "hello"'
    elif grep -q 'type: mcp' <<<"$2"; then
      turn='  - type: mcp:call
    tool: "echo"
    arguments: {}'
    else
      turn='  - user: "hello"'
    fi
    printf 'version: "1.0"\nname: %s\nturns:\n%s\n' "$1" "$turn" >"$d/a.test.yaml"
  }
  # orun NAME: run the suite, JSON report in $og/NAME/results.json
  orun() {
    (cd "$og/$1" && ORIGIN_SECRET=$O_SECRET timeout -k 5 60 "$ANANKE" run . \
      -r json:"$og/$1/results.json" >"$og/$1/stdout" 2>&1)
  }
  # seen AT PATH: requests to listener AT for PATH (count)
  seen() { jq -c --arg at "$1" --arg p "$2" 'select(.at == $at and .path == $p)' "$olog" | wc -l; }
  # keyed AT PATH: how many of them carried the secret header
  keyed() {
    jq -c --arg at "$1" --arg p "$2" --arg s "$O_SECRET" \
      'select(.at == $at and .path == $p and .headers["x-api-key"] == $s)' "$olog" | wc -l
  }
  # counts AT PATH WANT_SEEN WANT_KEYED
  counts() {
    local s k
    s=$(seen "$1" "$2") k=$(keyed "$1" "$2")
    [ "$s $k" = "$3 $4" ] && return 0
    echo "$1 $2: $s requests, $k with the key; expected $3 and $4"
    jq -c --arg at "$1" --arg p "$2" 'select(.at == $at and .path == $p)' "$olog"
    return 1
  }
  key_hdr="  headers:
    X-Api-Key: \"\${ENV.ORIGIN_SECRET}\""

  # 1. the card moves (302) to the other origin: fetched there without the key
  osuite a2a-moved "  type: a2a
  agentCardUrl: \"$A/moved/.well-known/agent-card.json\"
  timeout_ms: 5000
$key_hdr"
  : >"$olog"
  orun a2a-moved
  check "origin: a2a card redirected to another origin: the key went to the configured origin" \
    counts a /moved/.well-known/agent-card.json 1 1
  check "origin: a2a card redirected to another origin: fetched there without the key" \
    counts b /card/.well-known/agent-card.json 1 0
  check "origin: a2a card redirected: the card's url (the other origin) got no key" \
    counts b /rpc 1 0
  check "origin: a2a card redirected: a warning names the other origin" \
    jq_true "$og/a2a-moved/results.json" \
    '[.tests[0].transcript.turns[0].warnings[]? | select(contains("redirects to '"'"'" + $b))] | length == 1' \
    --arg b "$B"

  # 2. the card names another origin: spoken to without the key
  osuite a2a-cross "  type: a2a
  agentCardUrl: \"$A/cross/.well-known/agent-card.json\"
  timeout_ms: 5000
$key_hdr"
  : >"$olog"
  orun a2a-cross
  check "origin: a2a card naming another origin: the card GET carried the key" \
    counts a /cross/.well-known/agent-card.json 1 1
  check "origin: a2a card naming another origin: its url got the message without the key" \
    counts b /rpc 1 0
  check "origin: a2a card naming another origin: a warning says so" \
    jq_true "$og/a2a-cross/results.json" \
    '[.tests[0].transcript.turns[0].warnings[]? | select(contains("trust_card_url"))] | length == 1'

  # 3. the same with trust_card_url: true: the card's url gets the key
  osuite a2a-trust "  type: a2a
  agentCardUrl: \"$A/cross/.well-known/agent-card.json\"
  trust_card_url: true
  timeout_ms: 5000
$key_hdr"
  : >"$olog"
  orun a2a-trust
  check "origin: a2a with trust_card_url: true: the card's url got the key" \
    counts b /rpc 1 1
  check "origin: a2a with trust_card_url: true: the test passed, no warning" \
    jq_true "$og/a2a-trust/results.json" \
    '.tests[0].status == "pass" and ([.tests[0].transcript.turns[0].warnings[]?] | length == 0)'

  # 4. the card on the configured origin: the key goes with every request
  osuite a2a-same "  type: a2a
  agentCardUrl: \"$A/card/.well-known/agent-card.json\"
  timeout_ms: 5000
$key_hdr"
  : >"$olog"
  orun a2a-same
  check "origin: a2a card on the configured origin: the card GET carried the key" \
    counts a /card/.well-known/agent-card.json 1 1
  check "origin: a2a card on the configured origin: the message carried the key" \
    counts a /rpc 1 1

  # 5. every other HTTP target: a redirect is an error naming it, never followed
  : >"$olog"
  osuite agui-redirect "  type: agui
  endpoint: \"$A/redirect/agui\"
  agentId: a
  timeout_ms: 5000
$key_hdr"
  osuite openai-redirect "  type: openai
  endpoint: \"$A/redirect/v1\"
  model: m
  timeout_ms: 5000
$key_hdr"
  osuite mcp-redirect "  type: mcp
  transport: http
  endpoint: \"$A/redirect/mcp\"
  timeout_ms: 5000
$key_hdr"
  osuite http-redirect "  type: http
  endpoint: \"$A/redirect\"
  timeout_ms: 5000
$key_hdr"
  for t in agui openai mcp http; do
    orun "$t-redirect"
    check "origin: a $t target redirected to another origin: an error naming the redirect" \
      grep -qF "redirect to '$B/" "$og/$t-redirect/stdout"
  done
  check "origin: no redirect of agui, openai, mcp, http was followed (the other origin saw nothing)" \
    bash -c '[ "$(jq -c "select(.at == \"b\")" "'"$olog"'" | wc -l)" = 0 ]'

  # 6. what came instead of an event stream is named, not "no event received"
  for c in "html|the response was text/html; charset=utf-8 (status 200), not an event stream: <!DOCTYPE html><html><head><title>Login</title>" \
    "nocontent|status 204 No Content: no body" \
    "gzip|the response is gzip-encoded though no encoding was requested (Content-Encoding: gzip): not read" \
    "json|the response was application/json (status 200), not an event stream: {\"ok\": true}"; do
    p=${c%%|*} want=${c#*|}
    osuite "agui-$p" "  type: agui
  endpoint: \"$A/$p\"
  agentId: a
  timeout_ms: 5000"
    orun "agui-$p"
    check "origin: an AG-UI answer '$p' is named: $want" \
      jq_true "$og/agui-$p/results.json" \
      '.tests[0].status == "error" and (.tests[0].transcript.turns[0].error | contains($w)) and (.tests[0].transcript.turns[0].error | contains("no event received") | not)' \
      --arg w "$want"
  done
  for c in "html|the response was text/html; charset=utf-8 (status 200), not " \
    "nocontent|status 204 No Content: no body" \
    "gzip|the response is gzip-encoded though no encoding was requested"; do
    p=${c%%|*} want=${c#*|}
    osuite "a2a-$p" "  type: a2a
  endpoint: \"$A/$p\"
  version: \"0.3\"
  stream: true
  timeout_ms: 5000"
    orun "a2a-$p"
    check "origin: an A2A stream answered '$p' is named: $want" \
      jq_true "$og/a2a-$p/results.json" \
      '.tests[0].status == "error" and (.tests[0].transcript.turns[0].error | contains($w))' \
      --arg w "$want"
    osuite "openai-$p" "  type: openai
  endpoint: \"$A/$p\"
  model: m
  timeout_ms: 5000"
    orun "openai-$p"
    check "origin: an OpenAI answer '$p' is named: $want" \
      grep -qF -- "$want" "$og/openai-$p/stdout"
    osuite "mcp-$p" "  type: mcp
  transport: http
  endpoint: \"$A/$p\"
  timeout_ms: 5000"
    orun "mcp-$p"
    check "origin: an MCP over HTTP answer '$p' is named: $want" \
      grep -qF -- "$want" "$og/mcp-$p/stdout"
  done
  stop_pids "$osrv_pid"
else
  pids+=("$spawned_pid")
  bad "origin: origin_srv.py did not start"; sed 's/^/    /' "$og/srv.stderr" | head -n 5
fi

# ---- recordings are read without following links
# a recording whose tests/linked/vars.json is a link to a file outside
# (the canary), whose tests/plain is a link to a directory outside, and a
# results.json given to merge through a link
orec=$here/origin
O_CANARY=origin-canary-outside-5150
if start origin-agui agui --scenario "$orec/agui.yaml"; then
  for side in a b; do
    (cd "$orec" && ANANKE_MOCK_URL="$url/agent" timeout -k 5 60 "$ANANKE" run . \
      --record "$og/rec-$side" -r json:"$og/rec-$side.json" >"$og/rec-$side.out" 2>&1)
  done
  stop_pids "$spawned_pid"
  mkdir -p "$og/outside/plain"
  printf '{"secret": "%s"}\n' "$O_CANARY" >"$og/outside/vars.json"
  printf '{"secret": "%s"}\n' "$O_CANARY" >"$og/outside/plain/vars.json"
  cp "$og/rec-b"/tests/plain/* "$og/outside/plain/"
  printf '{"secret": "%s"}\n' "$O_CANARY" >"$og/outside/plain/vars.json"
  rm -f "$og/rec-b/tests/linked/vars.json"
  ln -s "$og/outside/vars.json" "$og/rec-b/tests/linked/vars.json"
  rm -rf "$og/rec-b/tests/plain"
  ln -s "$og/outside/plain" "$og/rec-b/tests/plain"
  timeout -k 5 60 "$ANANKE" compare "$og/rec-a" "$og/rec-b" -o "$og/pack" \
    >"$og/compare.out" 2>&1
  check "origin: compare with links in a recording ran (exit 0 or 1)" \
    test -s "$og/pack/compare-report.json"
  check "origin: compare copied nothing a link points to (no canary in the pack)" \
    absent "$O_CANARY" "$og/pack" "$og/compare.out"
  check "origin: compare names the linked file and reports the case's data missing" \
    present "tests/linked/vars.json is (or goes through) a symbolic link: not followed" \
    "$og/compare.out" "$og/pack/compare-report.json"
  check "origin: compare reports a linked test directory missing too" \
    present "tests/plain/result.json is (or goes through) a symbolic link: not followed" \
    "$og/compare.out" "$og/pack/compare-report.json"
  check "origin: both cases are missing on the new side" \
    jq_true "$og/pack/compare-report.json" \
    '[.. | objects | select(.reason_code? == "missing_file")] | length >= 2'
  # run.json and results.json through a link: refused by compare and replay
  cp -r "$og/rec-a" "$og/rec-c"
  mv "$og/rec-c/results.json" "$og/outside/results.json"
  ln -s "$og/outside/results.json" "$og/rec-c/results.json"
  timeout -k 5 60 "$ANANKE" compare "$og/rec-a" "$og/rec-c" -o "$og/pack-c" \
    >"$og/compare-c.out" 2>&1
  check "origin: compare refuses a results.json that is a link" \
    present "rec-c/results.json' is (or goes through) a symbolic link: not followed" "$og/compare-c.out"
  (cd "$orec" && timeout -k 5 60 "$ANANKE" replay "$og/rec-c" >"$og/replay-c.out" 2>&1)
  check "origin: replay refuses a results.json that is a link" \
    present "rec-c/results.json' is (or goes through) a symbolic link: not followed" "$og/replay-c.out"
  ln -s "$og/rec-a.json" "$og/linked-results.json"
  timeout -k 5 60 "$ANANKE" merge "$og/rec-b.json" "$og/linked-results.json" \
    >"$og/merge.out" 2>&1
  check "origin: merge refuses a results file that is a link (exit 2, names it)" \
    bash -c '[ "$1" = 2 ] && grep -qF "linked-results.json'"'"' is (or goes through) a symbolic link" "$2"' \
    _ "$?" "$og/merge.out"
fi

# ---- a NUL in what the agent sends: kept, written \u0000, never a cut
onul=$here/origin-nul
rm -f "$og/nul.port"
if spawn_server "$og/nul.port" 0.05 "$og/nul-srv.stdout" "$og/nul-srv.stderr" \
  python3 "$here/sse_raw.py" "$onul/frames.sse" "$og/nul.port"; then
  pids+=("$spawned_pid")
  (cd "$onul" && ANANKE_MOCK_URL="http://127.0.0.1:$(cat "$og/nul.port")/" timeout -k 5 60 \
    "$ANANKE" run . -r json:"$og/nul.json" >"$og/nul.out" 2>&1)
  stop_pids "$spawned_pid"
  check "origin: a tool named 'search<NUL>rm -rf' is not read as 'search' (forbid: [search] passes)" \
    jq_true "$og/nul.json" '.tests[0].status == "pass"'
  check "origin: the tool name, its id and the text keep the NUL, written \\u0000" \
    jq_true "$og/nul.json" '.tests[0].transcript.tool_calls[0].name == "search\\u0000rm -rf" and .tests[0].transcript.tool_calls[0].id == "c1\\u0000x" and .tests[0].transcript.turns[0].text == "hello\\u0000 hidden"'
else
  pids+=("$spawned_pid")
  bad "origin: sse_raw.py did not start"
fi
(cd "$here/origin-nul-acp" && ACP_SCENARIO="$here/origin-nul-acp/scenario.yaml" timeout -k 5 60 \
  "$ANANKE" run . -r json:"$og/nul-acp.json" >"$og/nul-acp.out" 2>&1)
check "origin: an ACP tool titled 'search<NUL>rm -rf' is not read as 'search', its id keeps the NUL" \
  jq_true "$og/nul-acp.json" '.tests[0].status == "pass" and .tests[0].transcript.tool_calls[0].name == "search\\u0000rm -rf" and .tests[0].transcript.tool_calls[0].id == "t1\\u0000x"'
