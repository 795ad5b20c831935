#!/bin/sh
# A script check: reads {input, output, tool_calls, value, options} on stdin
# and answers {"pass": bool, "message": "..."}.
in=$(cat)
max=$(printf '%s' "$in" | jq '.options.max_amount')
amount=$(printf '%s' "$in" | jq '.tool_calls[] | select(.name == "create_expense") | .arguments.amount')
if [ "$amount" -le "$max" ]; then
  printf '{"pass": true}\n'
else
  printf '{"pass": false, "message": "amount %s is over the limit of %s"}\n' "$amount" "$max"
fi
