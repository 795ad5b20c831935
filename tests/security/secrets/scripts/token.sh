#!/bin/sh
# A login hook: hands the test two secrets (their names say TOKEN).
printf '{"SESSION_TOKEN": "hook-5ecret-header-8086", "API_TOKEN": "sk-planted-echo-2718281828", "CART": "cart-7"}\n'
