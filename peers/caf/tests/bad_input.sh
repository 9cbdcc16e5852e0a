#!/bin/sh
# Checks caf-suite's handling of bad input (see docs/benchmarks.md, "Bad input and failures"):
# exit status 2, nothing on stdout, exactly one stderr line that contains the
# given words (the benchmark, the parameter and the bad value).
#
# usage: bad_input.sh CAF_SUITE
set -u
bin=$1
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
failures=0

# expect "WORD WORD ..." "ENV=VALUE ..." ARGS...
expect() {
  words=$1
  envs=$2
  shift 2
  # shellcheck disable=SC2086 # envs is a space-separated assignment list
  timeout 30 env $envs "$bin" "$@" >"$out" 2>"$err"
  status=$?
  problem=
  if [ $status -ne 2 ]; then
    problem="exit status $status, expected 2"
  elif [ -s "$out" ]; then
    problem="stdout not empty"
  elif [ "$(wc -l <"$err")" -ne 1 ]; then
    problem="expected exactly one stderr line"
  else
    for w in $words; do
      grep -qF -- "$w" "$err" || problem="stderr lacks '$w'"
    done
  fi
  if [ -z "$problem" ]; then
    echo "ok   $envs caf-suite $* -> $(cat "$err")"
  else
    failures=$((failures + 1))
    echo "FAIL $envs caf-suite $*: $problem"
    sed 's/^/  stderr: /' "$err"
  fi
}

expect "error: no benchmark threadring counting" ""
expect "error: unknown benchmark 'foo'" "" foo
expect "error: unknown benchmark 'foo'" "" foo n=1
expect "threadring foo=1 actors hops" "" threadring foo=1
expect "threadring hops=abc non-negative" "" threadring hops=abc
expect "threadring hops=-1 non-negative" "" threadring hops=-1
expect "threadring hops= non-negative" "" threadring hops=
expect "threadring 'hops' NAME=VALUE" "" threadring hops
expect "threadring hops=5 twice" "" threadring hops=5 hops=5
expect "fannkuch n=13 range" "" fannkuch n=13
expect "fannkuch n=2 range" "" fannkuch n=2
expect "threadring actors=0 range" "" threadring actors=0
expect "pingpong pings=99999999999999999999999 range" "" pingpong pings=99999999999999999999999
expect "skynet size=1000 div=7" "" skynet size=1000 div=7
expect "skynet size=1000 div=7" "" skynet div=7 size=1000
expect "skynet size=100000 div=4" "" skynet div=4
expect "mixed ring_size=1 range" "" mixed ring_size=1
expect "fjthrput actors=0 range" "" fjthrput actors=0
expect "fjthrput messages=x non-negative" "" fjthrput messages=x
expect "fjcreate actors=0 range" "" fjcreate actors=0
expect "fjcreate workers=3 actors" "" fjcreate workers=3
expect "concdict write_pct=101 range" "" concdict write_pct=101
expect "concdict workers=0 range" "" concdict workers=0
expect "concsll size_pct=101 range" "" concsll size_pct=101
expect "concsll messages=1.5 non-negative" "" concsll messages=1.5
expect "bndbuffer buffer=0 range" "" bndbuffer buffer=0
expect "bndbuffer consumers=0 range" "" bndbuffer consumers=0
expect "bndbuffer items=5 twice" "" bndbuffer items=5 items=5
expect "philosopher philosophers=0 range" "" philosopher philosophers=0
expect "philosopher rounds=100000001 range" "" philosopher rounds=100000001
expect "barber room=0 range" "" barber room=0
expect "barber haircuts=-3 non-negative" "" barber haircuts=-3
expect "cigsmok smokers=0 range" "" cigsmok smokers=0
expect "cigsmok 'rounds' NAME=VALUE" "" cigsmok rounds
expect "logmap rate=36001 range" "" logmap rate=36001
expect "logmap increment=41 range" "" logmap increment=41
expect "logmap series=0 range" "" logmap series=0
expect "banking accounts=1 range" "" banking accounts=1
expect "banking transactions=abc non-negative" "" banking transactions=abc
expect "CAF_THREADS=abc positive" "CAF_THREADS=abc" threadring
expect "CAF_THREADS=0 positive" "CAF_THREADS=0" threadring
expect "CAF_SUITE_TIMEOUT=x positive" "CAF_SUITE_TIMEOUT=x" threadring

echo "$failures failures"
[ "$failures" -eq 0 ]
