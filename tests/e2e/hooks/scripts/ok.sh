#!/bin/sh
printf '{"CART_ID": "cart_7", "THREAD": 99, "USER_NAME": "Ada"}'
