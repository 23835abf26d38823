#!/usr/bin/env bash
# fuzz/run.sh SECONDS [TARGET...]: runs each fuzz target (all by default) for SECONDS under
# ASan + UBSan, seeded from tests/data, with the corpus kept in build/fuzz/corpus/<target>.
# Prints one line per target: executions, corpus size, and whether it found a crash (the crashing
# input is kept as build/fuzz/crash-<target>-*). Exit 1 when any target crashed. LOUPE_FUZZ_BUILD
# names another build directory of the fuzz preset (a copy, so a long campaign survives rebuilds).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
build=${LOUPE_FUZZ_BUILD:-build/fuzz}  # a copy of the fuzz build, for long campaigns
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_trace_loader fuzz_csv_table fuzz_analysis_json
                                     fuzz_py_literal fuzz_findings_validator fuzz_findings_renderer
                                     fuzz_findings_diff)
seeds() {
  case "$1" in
    fuzz_trace_loader) find tests/data -name '*.json' -size -200k | grep -v metrics ;;
    fuzz_csv_table) find tests/data -name '*.csv' -size -200k ;;
    fuzz_analysis_json) find tests/data -name '*.json' -size -200k ;;
    fuzz_py_literal) printf '%s\n' "((1, 2), (3,))" "[[1,2],[]]" "('bf16', None)" "{'a': 1.5e3}" ;;
    fuzz_findings_validator) find tests/data -name '*.md' -size -200k ;;
    fuzz_findings_renderer) find tests/data -name '*findings*.json' -size -200k ;;
    fuzz_findings_diff) find tests/data -name 'findings.json' -size -200k ;;
  esac
}
status=0
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  mkdir -p "$corpus"
  if [ "$t" = fuzz_py_literal ]; then
    i=0; while IFS= read -r line; do printf '%s' "$line" > "$corpus/seed$i"; i=$((i+1)); done < <(seeds "$t")
  else
    # The seed list is written out first: `find | head` would end find with SIGPIPE once the
    # tree holds more than 200 seeds, and pipefail would then stop the whole run.
    # The recorded inputs of tests/data/fuzz/<target>/ first (regressions, gzip seeds).
    { find "tests/data/fuzz/$t" -type f 2>/dev/null; seeds "$t"; } > "$build/$t.seeds"
    head -200 "$build/$t.seeds" | while read -r f; do cp "$f" "$corpus/" 2>/dev/null || true; done
  fi
  log=$build/$t.log
  rc=0
  ASAN_OPTIONS=detect_leaks=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:suppressions=$PWD/fuzz/ubsan.supp \
    "$build/fuzz/$t" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=20 \
    -artifact_prefix="$build/crash-$t-" "$corpus" > "$log" 2>&1 || rc=$?
  execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || true)
  [ -z "$execs" ] && execs=$(grep -Eo '#[0-9]+' "$log" | tail -1 | tr -d '#')
  files=$(ls "$corpus" | wc -l)
  if [ $rc -ne 0 ]; then
    echo "$t: CRASH after ${execs:-?} executions (see $log)"
    status=1
  else
    echo "$t: ${execs:-?} executions in ${seconds} s, corpus $files inputs, no crash"
  fi
done
exit $status
