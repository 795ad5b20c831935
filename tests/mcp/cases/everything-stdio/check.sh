set -e
R=$OUT/results.json
t='.tests[] | select(.name == "tools are called and their results asserted") | .transcript'
# one tool call per mcp:call turn, with its status: ok, or error for isError
[ "$(jq -r "$t | [.tool_calls[].status] | join(\",\")" $R)" = "ok,ok,ok,error" ]
jq -e "$t | .tool_calls[0].result.content[0].text == \"Echo: hello\"" $R >/dev/null
jq -e "$t | .turns[0].kind == \"mcp:call\"" $R >/dev/null
# the turn's input is the request it sent
jq -e "$t | .turns[1].input | fromjson | .params.arguments.b == 3" $R >/dev/null
# the failing test stopped at its first turn
jq -e '.tests[] | select(.status == "fail") | .transcript.turns[1].status == "not_run"' $R >/dev/null
# mcp:prompt sent prompts/get with the prompt's name and its arguments
l='.tests[] | select(.name == "tools, resources, prompts and templates are listed and read") | .transcript'
jq -e "$l | .turns[5].kind == \"mcp:prompt\" and (.turns[5].input | fromjson) ==
  {method: \"prompts/get\", params: {name: \"args-prompt\", arguments: {city: \"Paris\", state: \"Île-de-France\"}}}" $R >/dev/null
