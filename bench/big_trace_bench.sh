#!/usr/bin/env bash
# Big-trace benchmark (docs/performance.md, "Big traces"): generates the h100 owlv2
# trace replicated 8x (.json and .json.gz) and 30x (~1 GB .json) with loupe_trace_gen, and
# optionally ~4 GB (--4g), then prints two markdown tables:
#   * ingest: loupe_trace_bench (load alone, in a child, malloc on huge pages as loupe runs) on
#     the 8x .json and .json.gz, median of 3, with `zcat FILE > /dev/null` on the same .json.gz;
#   * end to end: `loupe analyze --trace T -o OUT --compat tracelens --platform MI300X`, wall time
#     median of 3 (the 4 GB trace: one run) and peak RSS (/usr/bin/time: the largest process).
# TraceLens's figure: with TRACELENS_DIR set (a TraceLens checkout with its Python dependencies,
# tools/tracelens_reference.sh), its deterministic pipeline (perf report, preparation, the
# system-level scripts) is timed once on the 8x .json right before Loupe's runs, in the same
# window; without it, the recorded figure of this machine class (130 s, 3.5 GB peak RSS, "Big
# traces" in docs/performance.md) is used and the table says so.
#
# usage: bench/big_trace_bench.sh BUILD_DIR [SHARED_DIR] [WORK_DIR] [--4g]
#   BUILD_DIR  a Release build with bin/loupe, bin/loupe_trace_gen, bin/loupe_trace_bench and the
#              plugins (cmake --build BUILD_DIR --target loupe loupe_all_plugins loupe_trace_gen
#              loupe_trace_bench)
#   WORK_DIR   where the traces and outputs go (default: a temporary directory, removed after)
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"
build=${1:?usage: $0 BUILD_DIR [SHARED_DIR] [WORK_DIR] [--4g]}
shared=${2:-$(dirname "$0")/../../shared}
work=${3:-}
four_g=${4:-}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
loupe="$build/bin/loupe"
source_trace="$shared/data/traces/h100/google_owlv2-large-patch14-ensemble__1016001.json.gz"
tracelens_s=130 tracelens_rss_mb=3500 tracelens_source="recorded"  # for the 8x trace (docs/performance.md)

gen() {  # gen OUT TARGET_MB: the owlv2 trace replicated until TARGET_MB of JSON
  [ -f "$1" ] || "$build/bin/loupe_trace_gen" "$source_trace" "$1" "$2" >&2
}
gen "$work/owlv2_x8.json" 240         # 8 copies
gen "$work/owlv2_x8.json.gz" 240      # the same 8 copies, gzip level 6
gen "$work/owlv2_x30.json" 1000       # 30 copies, ~1 GB
[ "$four_g" = "--4g" ] && gen "$work/owlv2_x121.json" 4000   # 121 copies, ~4 GB
sync


echo "Machine: $(nproc) cores; load at start: $(uptime | sed 's/.*load average: //')"
echo
echo "| ingest (load alone, median of 3) | JSON MB | load MB/s | peak RSS MB | RSS / JSON | zcat MB/s | load / zcat |"
echo "|---|---|---|---|---|---|---|"
for f in "$work/owlv2_x8.json" "$work/owlv2_x8.json.gz"; do
  rows=()
  for _ in 1 2 3; do
    # With malloc on transparent huge pages, as `loupe analyze --trace` and `inspect` run
    # (apps/loupe/huge_pages.cpp).
    rows+=("$(GLIBC_TUNABLES=glibc.malloc.hugetlb=1 "$build/bin/loupe_trace_bench" "$f" | tail -1)")
  done
  col() { for r in "${rows[@]}"; do echo "$r" | awk -v c="$1" '{print $c}'; done; }
  # shellcheck disable=SC2046
  load=$(median3 $(col 4))
  rss=$(median3 $(col 7))
  ratio=$(median3 $(col 8))
  mb=$(echo "${rows[0]}" | awk '{print $2}')
  if [[ "$f" == *.gz ]]; then
    # shellcheck disable=SC2046
    zcat_mbs=$(median3 $(col 9))
    vs=$(awk -v l="$load" -v z="$zcat_mbs" 'BEGIN { printf "%.2f×", l / z }')
  else
    zcat_mbs="–"
    vs="–"
  fi
  echo "| $(basename "$f") | $mb | $load | $rss | $ratio | $zcat_mbs | $vs |"
done

if [ -n "${TRACELENS_DIR:-}" ]; then
  /usr/bin/time -f '%e %M' -o "$work/tracelens_time" "$(dirname "$0")/../tools/tracelens_reference.sh" \
    "$TRACELENS_DIR" "$work/owlv2_x8.json" "$work/tracelens_x8" >/dev/null 2>"$work/tracelens_err" || {
    echo "TraceLens failed on the 8x trace:" >&2
    cat "$work/tracelens_err" >&2
    exit 1
  }
  read -r tracelens_s tracelens_kb <"$work/tracelens_time"
  tracelens_rss_mb=$((tracelens_kb / 1024))
  tracelens_source="measured now"
  rm -rf "$work/tracelens_x8"
fi

measure() {  # measure TRACE: "seconds peak_rss_kb" of one analyze run
  rm -rf "$work/out"
  /usr/bin/time -f '%e %M' -o "$work/time" "$loupe" analyze --trace "$1" -o "$work/out" \
    --compat tracelens --platform MI300X -q >/dev/null 2>"$work/err" || {
    echo "loupe failed on $1:" >&2
    cat "$work/err" >&2
    exit 1
  }
  cat "$work/time"
}

echo
echo "| analyze --trace (end to end) | JSON MB | runs | wall s | MB/s | peak RSS MB | RSS / JSON | vs TraceLens time | vs TraceLens RSS |"
echo "|---|---|---|---|---|---|---|---|---|"
traces=("$work/owlv2_x8.json" "$work/owlv2_x8.json.gz" "$work/owlv2_x30.json")
[ "$four_g" = "--4g" ] && traces+=("$work/owlv2_x121.json")
for t in "${traces[@]}"; do
  mb=$(json_mb "$t")
  if [[ "$t" == *x121* ]]; then
    read -r wall rss_kb < <(measure "$t")
    runs=1
  else
    read -r t1 m1 < <(measure "$t")
    read -r t2 m2 < <(measure "$t")
    read -r t3 m3 < <(measure "$t")
    wall=$(median3 "$t1" "$t2" "$t3")
    rss_kb=$(printf '%s\n' "$m1" "$m2" "$m3" | sort -g | tail -1)  # the largest of the three
    runs=3
  fi
  rss_mb=$((rss_kb / 1024))
  vs_time="–"
  vs_rss="–"
  if [[ "$t" == *x8.json* ]]; then
    vs_time=$(awk -v l="$wall" -v t="$tracelens_s" 'BEGIN { printf "%.0f× faster", t / l }')
    vs_rss=$(awk -v l="$rss_mb" -v t="$tracelens_rss_mb" 'BEGIN { printf "%.1f× less", t / l }')
  fi
  echo "| $(basename "$t") | $mb | $runs | $wall | $(awk -v m="$mb" -v w="$wall" 'BEGIN { printf "%.0f", m / w }') | $rss_mb | $(awk -v r="$rss_mb" -v m="$mb" 'BEGIN { printf "%.2f", r * 1.048576 / m }') | $vs_time | $vs_rss |"
done
echo
echo "TraceLens on the 8x trace ($tracelens_source): $tracelens_s s, $tracelens_rss_mb MB peak RSS"
echo "Load at end: $(uptime | sed 's/.*load average: //')"
