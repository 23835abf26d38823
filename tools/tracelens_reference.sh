#!/usr/bin/env bash
# Runs TraceLens's deterministic pipeline (its perf report, orchestrator preparation and
# system-level scripts, the stages below) on one trace and, with --loupe, Loupe's
# `--compat tracelens` on the same trace, then compares the two directories file by file.
# A development tool: it needs a TraceLens checkout and its Python dependencies (Debian 12:
# python3-pandas python3-matplotlib python3-openpyxl python3-tqdm python3-tabulate
# python3-yaml), which Loupe's build and tests never need.
#
#   tools/tracelens_reference.sh TRACELENS_DIR TRACE OUT [--loupe LOUPE_BINARY] [--platform MI300X]
#
# OUT/tracelens is TraceLens's analysis directory, OUT/loupe Loupe's; the differing files are
# listed and the exit status is 1 when any differs.
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
tl=$(cd "$1" && pwd); trace=$(realpath "$2"); out=$3; shift 3
loupe=""; platform=MI300X
while [ $# -gt 0 ]; do
  case "$1" in
    --loupe) loupe=$(realpath "$2"); shift 2 ;;
    --platform) platform=$2; shift 2 ;;
    *) echo "tracelens_reference.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -d "$tl/TraceLens" ] || { echo "tracelens_reference.sh: $tl has no TraceLens/ package" >&2; exit 2; }
[ -f "$trace" ] || { echo "tracelens_reference.sh: $trace: no such trace" >&2; exit 2; }
py=/usr/bin/python3
"$py" -c "import pandas, matplotlib, openpyxl, tqdm, tabulate, yaml" 2>/dev/null || {
  echo "tracelens_reference.sh: TraceLens's Python dependencies are missing (see the header)" >&2; exit 2; }

rm -rf "$out"; mkdir -p "$out/tracelens"
dir=$(realpath "$out/tracelens")
log="$out/tracelens.log"
export PYTHONPATH="$tl" MPLBACKEND=Agg
(
  cd "$tl"
  "$py" -c "import sys; from TraceLens.Reporting.generate_perf_report_pytorch import main; \
sys.argv[0] = 'TraceLens_generate_perf_report_pytorch'; sys.exit(main())" \
    --profile_json_path "$trace" --gpu_arch_json_path "TraceLens/Agent/Analysis/utils/arch/$platform.json" \
    --enable_pseudo_ops --group_by_num_kernels --include_call_stack \
    --output_xlsx_path "$dir/perf_report.xlsx" --output_csvs_dir "$dir/perf_report_csvs"
  "$py" TraceLens/Agent/Analysis/utils/orchestrator_prepare.py --trace-path "$trace" \
    --platform "$platform" --output-dir "$dir" --comparison-scope standalone
  "$py" TraceLens/Agent/Analysis/category_analyses/kernel_fusion_analysis.py --output-dir "$dir" \
    --comparison-scope standalone
  "$py" TraceLens/Agent/Analysis/category_analyses/multi_kernel_analysis.py --output-dir "$dir"
  for cat in conv_fwd conv_bwd; do
    if [ -f "$dir/category_data/${cat}_ops.csv" ]; then
      "$py" TraceLens/Agent/Analysis/category_analyses/convolution_analysis.py --output-dir "$dir" \
        --category "$cat" --comparison_scope standalone
    fi
  done
) >"$log" 2>&1 || { echo "tracelens_reference.sh: TraceLens failed, see $log" >&2; exit 3; }
rm -f "$dir/perf_report.xlsx"
echo "TraceLens: $dir"
[ -n "$loupe" ] || exit 0

"$loupe" analyze --trace "$trace" --compat tracelens --platform "$platform" -o "$out/loupe" \
  >"$out/loupe.log" 2>&1 || true
mine=$(realpath "$out/loupe")
echo "Loupe: $mine"
# Both write their output directory into the metadata: compare with it replaced.
normalized() { sed -e "s#$2#<output_dir>#g" "$1"; }
status=0 files=0
# TraceLens's orchestrator runs a system-level script only for the categories its manifest names;
# the stages above run both always, so a metrics file of an unnamed category is not compared.
in_manifest() { grep -q "\"name\": \"$1\"" "$dir/category_data/category_manifest.json" 2>/dev/null; }
while IFS= read -r f; do
  rel=${f#"$dir"/}
  case "$rel" in
    category_data/kernel_fusion_metrics.json) in_manifest kernel_fusion || continue ;;
    category_data/multi_kernel_metrics.json) in_manifest multi_kernel || continue ;;
  esac
  files=$((files + 1))
  if [ ! -f "$mine/$rel" ]; then
    echo "only in TraceLens: $rel"; status=1
  elif ! cmp -s <(normalized "$f" "$dir") <(normalized "$mine/$rel" "$mine"); then
    echo "differs: $rel"; status=1
  fi
done < <(find "$dir" -type f \( -name '*.csv' -o -name '*.json' \) | sort)
while IFS= read -r f; do
  rel=${f#"$mine"/}
  [ -f "$dir/$rel" ] || { echo "only in Loupe: $rel"; status=1; }
done < <(find "$mine/perf_report_csvs" "$mine/category_data" "$mine/metadata" -type f \
           \( -name '*.csv' -o -name '*.json' \) ! -name '*_metrics.json' 2>/dev/null | sort)
echo "$files TraceLens files compared"
exit $status
