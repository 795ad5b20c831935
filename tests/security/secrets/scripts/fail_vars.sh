#!/bin/sh
# A hook that prints its variables, then fails: its error quotes them.
printf '{"FAIL_TOKEN": "P4v3sxGmt6yrKp7QmPNn", "CART": "cart-9"}\n'
exit 3
