#!/usr/bin/env bash
# Comparative benchmark: `loupe analyze --trace A --trace2 B -o OUT` (both traces read, both
# perf reports, TraceDiff's alignment and merge, diff_stats.csv, the analyzers) on generated
# pairs of large traces. See docs/performance.md ("Comparative analysis").
#
# usage: bench/trace_diff_bench.sh BUILD_DIR [SHARED_DIR] [WORK_DIR]
#   BUILD_DIR  a Release build with bin/loupe and bin/loupe_trace_gen
#   WORK_DIR   where the generated traces go (default: a temporary directory, removed after)
# Prints a markdown table: pair, JSON MB of each trace, wall s, peak RSS MB (/usr/bin/time -v),
# the TraceDiff step's share (from loupe's step log) and the skipped re-matchings if reported.
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR [SHARED_DIR] [WORK_DIR]}
shared=${2:-$(dirname "$0")/../../shared}
work=${3:-}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
loupe="$build/bin/loupe"
gen="$build/bin/loupe_trace_gen"
traces="$shared/data/traces"

# flat_trace OUT OPS SEED: one cpu_op "model_forward" holding OPS cpu_ops, each launching one
# kernel, named at random from three names (seeded): a wide child list for Wagner-Fischer,
# with each name repeated thousands of times (beyond the re-matching cap).
flat_trace() {
  awk -v n="$2" -v seed="$3" 'BEGIN {
    srand(seed); split("aten::mm aten::add aten::mul", names, " ")
    span = 10 * n + 10
    printf "{\"traceEvents\":[\n{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"model_forward\",\"pid\":1,\"tid\":1,\"ts\":0.0,\"dur\":%d.0,\"args\":{}}", span
    for (k = 0; k < n; k++) {
      name = names[1 + int(rand() * 3)]; ts = 10 * k + 1; kts = span + 10 * k; id = k + 1
      printf ",\n{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"%s\",\"pid\":1,\"tid\":1,\"ts\":%d.0,\"dur\":5.0,\"args\":{\"Input Dims\":[[64,64],[64,64]]}}", name, ts
      printf ",\n{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":%d.0,\"dur\":2.0,\"args\":{\"correlation\":%d}}", ts + 1, id
      printf ",\n{\"ph\":\"s\",\"id\":%d,\"pid\":1,\"tid\":1,\"ts\":%d.0,\"cat\":\"ac2g\",\"name\":\"ac2g\"}", id, ts + 1
      printf ",\n{\"ph\":\"f\",\"id\":%d,\"pid\":0,\"tid\":7,\"ts\":%d.0,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"bp\":\"e\"}", id, kts
      printf ",\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"%s_kernel\",\"pid\":0,\"tid\":7,\"ts\":%d.0,\"dur\":3.0,\"args\":{\"correlation\":%d,\"stream\":7}}", name, kts, id
    }
    printf "\n]}\n"
  }' >"$1"
}

[ -f "$work/owlv2_x4.json" ] || "$gen" "$traces/h100/google_owlv2-large-patch14-ensemble__1016001.json.gz" "$work/owlv2_x4.json" 130 >/dev/null
[ -f "$work/owlv2_x5.json" ] || "$gen" "$traces/h100/google_owlv2-large-patch14-ensemble__1016001.json.gz" "$work/owlv2_x5.json" 160 >/dev/null
[ -f "$work/qwen_h100.json" ] || "$gen" "$traces/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz" "$work/qwen_h100.json" 120 >/dev/null
[ -f "$work/qwen_mi300.json" ] || "$gen" "$traces/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz" "$work/qwen_mi300.json" 120 >/dev/null
[ -f "$work/flat_a.json" ] || flat_trace "$work/flat_a.json" 20000 1
[ -f "$work/flat_b.json" ] || flat_trace "$work/flat_b.json" 20500 2

mb() { wc -c <"$1" | awk '{printf "%.1f", $1 / 1e6}'; }

echo "| pair | trace 1 MB | trace 2 MB | wall s | peak RSS MB | TraceDiff step s | skipped re-matchings |"
echo "|---|---|---|---|---|---|---|"
run() {
  local label=$1 a=$2 b=$3
  rm -rf "$work/out"
  /usr/bin/time -v -o "$work/time" "$loupe" analyze --trace "$a" --trace2 "$b" -o "$work/out" \
    --compat tracelens --platform MI300X -v >/dev/null 2>"$work/err" || {
    echo "loupe failed on $label:" >&2; tail -20 "$work/err" >&2; exit 1; }
  local wall rss step skipped
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + p[k]; printf "%.1f", s }' "$work/time")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%d", $2 / 1024 }' "$work/time")
  # the step log: "loupe: info: <step> (<seconds since start> s)"; the TraceDiff step lasts until
  # the next step starts
  step=$(awk 'match($0, /\(([0-9.]+) s\)$/) {
      t = substr($0, RSTART + 1, RLENGTH - 4) + 0
      if (found) { printf "%.2f", t - t0; exit }
      if (/TraceDiff/) { found = 1; t0 = t } }' "$work/err")
  skipped=$(grep -i -m1 'skipped.*re-match\|re-match.*skipped' "$work/err" || true)
  echo "| $label | $(mb "$a") | $(mb "$b") | $wall | $rss | ${step:-–} | ${skipped:-–} |"
}
run "owlv2 ×4 vs owlv2 ×5 (h100)" "$work/owlv2_x4.json" "$work/owlv2_x5.json"
run "Qwen h100 vs Qwen mi300" "$work/qwen_h100.json" "$work/qwen_mi300.json"
run "flat 20,000 vs 20,500 ops" "$work/flat_a.json" "$work/flat_b.json"
