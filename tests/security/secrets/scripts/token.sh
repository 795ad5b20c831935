#!/bin/sh
# A login hook: hands the test two secrets (their names say TOKEN).
printf '{"SESSION_TOKEN": "tzwQ62wZxKGgNSyS4P76", "API_TOKEN": "sk-3HH8K5qJY62sZtwxVrT2", "CART": "cart-7"}\n'
