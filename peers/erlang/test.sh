#!/bin/sh
# Builds the suite and its EUnit tests, then runs them from the repository
# root (VECTORS overrides the default docs/vectors.tsv).
# Needs Debian's erlang-base, erlang-dev and erlang-eunit.
set -e
cd "$(dirname "$0")/../.."
peers/erlang/build.sh
erlc -o peers/erlang/ebin peers/erlang/test/*.erl
exec erl -noshell -noinput -pa peers/erlang/ebin \
    -eval 'case eunit:test(suite_tests, [verbose]) of ok -> halt(0); _ -> halt(1) end.'
