#!/bin/sh
echo "this is not json"
