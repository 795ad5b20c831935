set -e
R=$OUT/results.json
[ "$(jq -r '[.tests[0].transcript.tool_calls[].status] | join(",")' $R)" = "ok,ok,ok,error" ]
