#!/usr/bin/env bash
# install_test.sh BUILD_DIR SOURCE_DIR CXX
set -euo pipefail
build=$1 src=$2 cxx=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/loupe-install-XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "install test FAILED: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" >/dev/null
for f in bin/loupe include/loupe/abi.h include/loupe/plugin.hpp include/loupe/compute \
         lib/libloupe_compute.a lib/loupe/plugins/loupe_fusion.so lib/loupe/plugins/loupe_conv.so \
         lib/loupe/plugins/loupe_multi_kernel.so lib/cmake/Loupe/LoupeConfig.cmake \
         lib/cmake/Loupe/LoupePlugin.cmake; do
  [ -e "$work/prefix/$f" ] || fail "missing installed file $f"
done

cmake -S "$src/docs/examples/hello_plugin" -B "$work/hello" -G Ninja \
      -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null \
  || fail "configuring the example against the installed SDK"
cmake --build "$work/hello" >/dev/null || fail "building the example"

# The exported entry point is the only visible symbol of the plugin.
exported=$(nm -D --defined-only "$work/hello/hello_idle.so" | awk '$2 == "T" {print $3}')
[ "$exported" = "loupe_plugin_entry" ] || fail "plugin exports: $exported"

out=$("$work/prefix/bin/loupe" plugins --plugin-dir "$work/hello")
echo "$out" | grep -q "hello_idle 1.0.0  \[ABI 1.0, system\]  categories: hello_idle" \
  || fail "hello_idle not listed: $out"

mkdir -p "$work/in/category_data"
cat > "$work/in/category_data/category_manifest.json" <<'JSON'
{"platform": "MI300X", "gpu_utilization": {"total_time_ms": 50.0, "idle_time_percent": 40.0},
 "categories": [{"name": "hello_idle", "tier": "system"}]}
JSON
"$work/prefix/bin/loupe" analyze "$work/in" -o "$work/out" --plugin-dir "$work/hello" -q \
  || fail "analyze exited $?"
grep -q '"idle_time_percent": 40.0' "$work/out/category_data/hello_idle_metrics.json" \
  || fail "metrics"
grep -q '### P1: GPU idle for 40.0% of the trace' "$work/out/system_findings/hello_idle_findings.md" \
  || fail "findings"
"$work/prefix/bin/loupe" validate "$work/out/system_findings/hello_idle_findings.md" --tier system \
  --compat tracelens | grep -q "PASS" || fail "validation"
echo "install test passed: installed SDK, out-of-tree build, load and run"
