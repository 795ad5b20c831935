#!/usr/bin/env bash
# A preflight hook: prepares data and prints variables as a JSON object.
# Real projects call their API here (create a cart, log in, ...).
set -euo pipefail
printf '{"CART_ID": "cart_42", "CUSTOMER": "Ada"}\n'
