#!/usr/bin/env bash
# Multi-rank benchmark (docs/performance.md, "Many ranks"): a generated N-rank set (the pack's
# tools/make-multirank.py on the mi300 Qwen trace) through `loupe analyze --trace-glob`, in one
# process, with --collectives-only (no per-rank analyses) and under `mpirun -np 2 ... --mpi`;
# wall time, the largest process's peak RSS (/usr/bin/time -v), the ranks run at once and the
# per-rank times from loupe_run.json.
#
# usage: bench/multirank_bench.sh BUILD_DIR [SHARED_DIR] [WORK_DIR] [RANKS]
#   BUILD_DIR  a Release build with bin/loupe and lib/loupe/plugins (MPI found for the mpirun row)
#   WORK_DIR   where the set and the outputs go (default: a temporary directory, removed after)
#   RANKS      default 64 (8 per node, seed 7, stragglers RANKS/5+1 and RANKS*5/8: 13 and 40)
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR [SHARED_DIR] [WORK_DIR] [RANKS]}
shared=${2:-$(dirname "$0")/../../shared}
work=${3:-}
ranks=${4:-64}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
loupe="$build/bin/loupe"
plugins="$build/lib/loupe/plugins"
set_dir="$work/set_${ranks}r"
if [ ! -f "$set_dir/rank$((ranks - 1))_trace.json" ]; then
  python3 "$shared/tools/make-multirank.py" \
    "$shared/data/traces/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz" "$set_dir" \
    --ranks "$ranks" --per-node 8 --stragglers "$((ranks / 5 + 1)),$((ranks * 5 / 8))" --seed 7 >&2
fi
json_mb=$(du -cm "$set_dir"/rank*_trace.json | tail -1 | cut -f1)

# run LABEL CMD...: one timed run; prints a table row.
run() {
  local label=$1 out=$2
  shift 2
  rm -rf "$out"
  /usr/bin/time -v -o "$work/time.txt" "$@" > "$work/stdout.txt" 2> "$work/stderr.txt" || {
    cat "$work/stderr.txt" >&2
    return 1
  }
  local wall rss at_once per_rank
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0;
    for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.1f", s}' "$work/time.txt")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$work/time.txt")
  at_once=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['multirank']['ranks_at_once'])" "$out/loupe_run.json")
  per_rank=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['multirank']['ranks']; t=sorted(x['seconds'] for x in r); m=max(x['peak_rss_mb'] for x in r); print('%.2f / %.2f / %.0f' % (t[len(t)//2], t[-1], m))" "$out/loupe_run.json")
  echo "| $label | $ranks | $json_mb | $wall | $rss | $at_once | $per_rank |"
}

echo "| run | ranks | JSON MB | wall s | largest process peak RSS MB | ranks at once (per process) | per rank s median / max, peak RSS MB |"
echo "|---|---|---|---|---|---|---|"
run "one process" "$work/out_single" "$loupe" analyze -q --trace-glob "$set_dir/rank*_trace.json" \
  -o "$work/out_single" --plugin-dir "$plugins"
run "--collectives-only" "$work/out_coll" "$loupe" analyze -q --collectives-only \
  --trace-glob "$set_dir/rank*_trace.json" -o "$work/out_coll"
for f in "$work"/out_single/collective_report/*.csv "$work"/out_single/system_findings/multirank_findings.md; do
  cmp -s "$f" "$work/out_coll/${f#"$work"/out_single/}" || echo "DIFFERENT (collectives-only): ${f#"$work"/out_single/}" >&2
done
if "$loupe" analyze --help | grep -q "this loupe was built without MPI"; then
  echo "(no mpirun row: $loupe was built without MPI)" >&2
else
  run "mpirun -np 2 --mpi" "$work/out_mpi" mpirun --allow-run-as-root --oversubscribe -np 2 \
    "$loupe" analyze -q --mpi --trace-glob "$set_dir/rank*_trace.json" -o "$work/out_mpi" \
    --plugin-dir "$plugins"
  for f in "$work"/out_single/collective_report/*.csv "$work"/out_single/system_findings/multirank_findings.md; do
    cmp -s "$f" "$work/out_mpi/${f#"$work"/out_single/}" || echo "DIFFERENT: ${f#"$work"/out_single/}" >&2
  done
fi
