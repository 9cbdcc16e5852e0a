#!/bin/sh
# Builds the Erlang/OTP suite into peers/erlang/ebin (run from anywhere).
set -e
cd "$(dirname "$0")/../.."
mkdir -p peers/erlang/ebin
erlc -o peers/erlang/ebin peers/erlang/src/*.erl
