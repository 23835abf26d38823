#!/usr/bin/env bash
# End-to-end benchmark: `loupe analyze --trace T --compat tracelens` (raw trace -> perf report
# -> analysis directory -> analyzers -> validated findings) on every real trace of the reference
# pack, against the sum of TraceLens's stage timings recorded in
# ../shared/data/reference/README.md (perf report + orchestrator_prepare + kernel_fusion +
# multi_kernel + convolution scripts, median of 3 runs) on the same machine class.
#
# usage: bench/e2e_vs_tracelens.sh LOUPE_BINARY [SHARED_DIR] [EXTRA_TRACE...]
# Prints a markdown table: run, JSON MB, Loupe wall s (median of 3) and peak RSS MB, TraceLens
# total s, speed-up. EXTRA_TRACEs (e.g. generated large traces) get Loupe's numbers only.
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
loupe=${1:?usage: $0 LOUPE_BINARY [SHARED_DIR] [EXTRA_TRACE...]}
shared=${2:-$(dirname "$0")/../../shared}
shift $(( $# >= 2 ? 2 : 1 ))
readme="$shared/data/reference/README.md"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT


# seconds and peak RSS (MB) of one analyze run
measure() {
  local trace=$1
  rm -rf "$out/dir"
  /usr/bin/time -f '%e %M' -o "$out/time" "$loupe" analyze --trace "$trace" -o "$out/dir" \
    --compat tracelens --platform MI300X -q >/dev/null 2>"$out/err" || {
    echo "loupe failed on $trace:" >&2; cat "$out/err" >&2; exit 1; }
  cat "$out/time"
}


echo "| run | JSON MB | Loupe wall s (median of 3) | Loupe peak RSS MB | TraceLens total s (median of 3) | speed-up |"
echo "|---|---|---|---|---|---|"
# The stage-timing table: "| run | S1 | S2 | S3 | S4 | total (sum S1–S5) |" with "a / b / c" cells.
grep -E '^\| [a-z0-9_]+ \| [0-9.]+ / [0-9.]+ / [0-9.]+ \|' "$readme" | while IFS='|' read -r _ run _ _ _ _ total _; do
  run=$(echo "$run" | xargs)
  trace_rel=$(grep -o "| \`$run\` | \`[^\`]*\`" "$readme" | head -1 | sed 's/.*| `\([^`]*\)`$/\1/')
  trace="$shared/data/traces/$trace_rel"
  [ -f "$trace" ] || continue
  read -r t1 m1 < <(measure "$trace")
  read -r t2 _ < <(measure "$trace")
  read -r t3 _ < <(measure "$trace")
  wall=$(median3 "$t1" "$t2" "$t3")
  read -r a _ b _ c <<<"$(echo "$total" | xargs)"
  tl=$(median3 "$a" "$b" "$c")
  echo "| $run | $(json_mb "$trace") | $wall | $(( m1 / 1024 )) | $tl | $(awk -v l="$wall" -v t="$tl" 'BEGIN { printf "%.0f×", t / (l > 0.005 ? l : 0.005) }') |"
done
for trace in "$@"; do
  read -r t1 m1 < <(measure "$trace")
  read -r t2 _ < <(measure "$trace")
  read -r t3 _ < <(measure "$trace")
  echo "| $(basename "$trace") | $(json_mb "$trace") | $(median3 "$t1" "$t2" "$t3") | $(( m1 / 1024 )) | – | – |"
done
