#!/bin/sh
# Runs every line of the contract's test vectors against caf-suite with
# CAF_THREADS=<threads> and checks the single result line.
#
# usage: vectors.sh CAF_SUITE THREADS
# The vectors file is $VECTORS, default docs/vectors.tsv (relative to
# the working directory, which CTest sets to the repository root). Each run
# must exit 0 within PER_RUN_TIMEOUT seconds (default 120) and print exactly
# one stdout line `result bench=B check=C seconds=S` (chameneos: with
# ` counts=...` before seconds, one count per creature, summing to C), where S,
# the work time, is a positive decimal number.
set -u
bin=$1
threads=$2
vectors=${VECTORS:-docs/vectors.tsv}
limit=${PER_RUN_TIMEOUT:-120}
if [ ! -r "$vectors" ]; then
  echo "vectors file not found: $vectors (set VECTORS)" >&2
  exit 1
fi
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
failures=0
runs=0
tab=$(printf '\t')
while IFS="$tab" read -r bench params check; do
  case $bench in '' | '#'*) continue ;; esac
  runs=$((runs + 1))
  # shellcheck disable=SC2086 # params is a space-separated argument list
  CAF_THREADS=$threads timeout "$limit" "$bin" "$bench" $params >"$out" 2>"$err"
  status=$?
  line=$(cat "$out")
  # The work time: a decimal number at the end of the line, which must be > 0.
  seconds=$(echo "$line" | sed -n 's/.* seconds=\([0-9][0-9]*\(\.[0-9][0-9]*\)\{0,1\}\)$/\1/p')
  fields=${line% seconds=*}
  ok=yes
  if [ $status -ne 0 ]; then
    ok="exit status $status"
  elif [ "$(wc -l <"$out")" -ne 1 ]; then
    ok="expected exactly one stdout line"
  elif [ -z "$seconds" ] || ! awk -v s="$seconds" 'BEGIN { exit !(s > 0) }'; then
    ok="expected a positive seconds=S at the end of the line"
  elif [ "$bench" = chameneos ]; then
    creatures=$(echo "$params" | tr ' ' '\n' | sed -n 's/^creatures=//p')
    counts=$(echo "$fields" | sed -n "s/^result bench=chameneos check=$check counts=\([0-9,]*\)\$/\1/p")
    if [ -z "$counts" ]; then
      ok="expected 'result bench=chameneos check=$check counts=... seconds=S'"
    else
      n=$(echo "$counts" | tr ',' '\n' | wc -l)
      sum=$(echo "$counts" | tr ',' '\n' | awk '{ s += $1 } END { print s }')
      if [ "$n" -ne "$creatures" ] || [ "$sum" != "$check" ]; then
        ok="counts: $n entries summing to $sum"
      fi
    fi
  elif [ "$fields" != "result bench=$bench check=$check" ]; then
    ok="expected 'result bench=$bench check=$check seconds=S'"
  fi
  if [ "$ok" = yes ]; then
    echo "ok   threads=$threads $bench $params -> $line ($(tail -n 1 "$err"))"
  else
    failures=$((failures + 1))
    echo "FAIL threads=$threads $bench $params: $ok"
    echo "  stdout: $line"
    sed 's/^/  stderr: /' "$err"
  fi
done <"$vectors"
echo "$runs runs, $failures failures"
[ "$runs" -gt 0 ] && [ "$failures" -eq 0 ]
