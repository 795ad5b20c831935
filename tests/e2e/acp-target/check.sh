set -e
R=out/results.json
# the agent's own requests are tool calls named by their method, with what we answered
jq -e '[.tests[0].transcript.tool_calls[].name] | index("fs/read_text_file") != null' $R >/dev/null
jq -e '.tests[0].transcript.tool_calls[] | select(.name == "fs/read_text_file") | .result.content == "hello from the sandbox"' $R >/dev/null
# the sandbox is removed after the test, and no process is left in it
box=$(jq -r '.tests[0].transcript.tool_calls[] | select(.name == "fs/read_text_file") | .args.path' $R | xargs dirname)
case "$box" in */ananke-sandbox-*) ;; *) echo "unexpected sandbox $box"; exit 1 ;; esac
[ ! -e "$box" ]
! ls -l /proc/[0-9]*/cwd 2>/dev/null | grep -qF "$box"
