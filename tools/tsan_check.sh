#!/usr/bin/env bash
# ThreadSanitizer check of the threads `loupe analyze` starts (the parallel load, the event tree's
# and the preparation's helper threads: docs/architecture.md, "One run of loupe analyze --trace"):
# builds the tsan preset (the CLI and the bundled plugins) unless BUILD_DIR is given, runs it on
# the bundled traces in default and compat mode, a comparative pair and a rank set, and on every
# trace of the reference pack when SHARED_DIR holds one; fails on any ThreadSanitizer report.
#
# usage: tools/tsan_check.sh [BUILD_DIR] [SHARED_DIR]     (about 6 minutes to build on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-}
shared=${2:-../shared}
if [ -z "$build" ]; then
  cmake --preset tsan >/dev/null
  cmake --build --preset tsan
  build=build/tsan
fi
loupe="$build/bin/loupe"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TSAN_OPTIONS="halt_on_error=0 exitcode=66"

runs=0
reports=0
check() {  # check LABEL ARGS...: one run of `loupe analyze ARGS -o OUT`
  local label=$1
  shift
  rm -rf "$work/out"
  local status=0
  "$loupe" analyze -q "$@" -o "$work/out" >"$work/log" 2>&1 || status=$?
  local found
  found=$(grep -c "WARNING: ThreadSanitizer" "$work/log" || true)
  runs=$((runs + 1))
  reports=$((reports + found))
  if [ "$found" -gt 0 ]; then
    echo "tsan_check: $label: $found ThreadSanitizer report(s):" >&2
    grep -A20 "WARNING: ThreadSanitizer" "$work/log" | head -60 >&2
  elif [ "$status" -ge 2 ]; then
    echo "tsan_check: $label: loupe exited with $status:" >&2
    tail -5 "$work/log" >&2
    exit 1
  fi
}

sample=tests/data/samples/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
check "sample, default mode" --trace "$sample"
check "sample, compat mode" --trace "$sample" --compat tracelens --platform MI300X
check "serving sample" --trace tests/data/serving/sglang_Qwen3-8B_decode.json.gz
check "comparative pair" --trace "$sample" --trace2 tests/data/serving/sglang_Qwen3-8B_decode.json.gz
check "rank set" --trace-glob "tests/data/multirank/bert_4r/traces/rank*_trace.json.gz"
if [ -d "$shared/data/traces" ]; then
  while IFS= read -r trace; do
    check "$trace" --trace "$trace"
    check "$trace (compat)" --trace "$trace" --compat tracelens --platform MI300X
  done < <(find "$shared/data/traces" -name '*.json.gz' ! -path '*capture_traces*' | sort)
else
  echo "tsan_check: no reference pack at $shared: the bundled traces only" >&2
fi
echo "tsan_check: $runs runs, $reports ThreadSanitizer reports"
[ "$reports" -eq 0 ]
