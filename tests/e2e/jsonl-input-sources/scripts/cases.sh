#!/bin/sh
echo '{"id": "from-script", "input": "refund please", "assertions": [{"type": "contains", "value": "approved"}]}'
