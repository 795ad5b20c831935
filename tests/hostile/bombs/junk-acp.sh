#!/bin/sh
# An ACP agent for bombs.sh that writes 300000 lines that are not JSON-RPC
# messages to stdout, then exits.
yes 'not a JSON-RPC message' | head -n 300000
