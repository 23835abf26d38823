#!/usr/bin/env bash
# install_test.sh BUILD_DIR SOURCE_DIR CXX LIBDIR
# 1. cmake --install into a scratch prefix; 2. the two Debian packages (CPack), unpacked into a
# scratch root as /usr. For each: build docs/examples/hello_plugin against the installed SDK, and
# check the installed loupe finds its bundled plugins and the out-of-tree one, and runs it.
set -euo pipefail
build=$1 src=$2 cxx=$3 libdir=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/loupe-install-XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "install test FAILED: $*" >&2; exit 1; }

check_prefix() {
  local prefix=$1 what=$2 hello=$3
  for f in bin/loupe include/loupe/abi.h include/loupe/plugin.hpp include/loupe/compute \
           "$libdir/libloupe_compute.a" "$libdir/loupe/plugins/loupe_fusion.so" \
           "$libdir/loupe/plugins/loupe_conv.so" "$libdir/loupe/plugins/loupe_multi_kernel.so" \
           "$libdir/cmake/Loupe/LoupeConfig.cmake" "$libdir/cmake/Loupe/LoupePlugin.cmake"; do
    [ -e "$prefix/$f" ] || fail "$what: missing installed file $f"
  done
  cmake -S "$src/docs/examples/hello_plugin" -B "$hello" -G Ninja \
        -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null \
    || fail "$what: configuring the example against the installed SDK"
  cmake --build "$hello" >/dev/null || fail "$what: building the example"
  # Every bundled plugin exports exactly one dynamic symbol, the entry point.
  for so in "$prefix/$libdir"/loupe/plugins/*.so; do
    local symbols
    symbols=$(nm -D --defined-only "$so" | awk '{print $3}' | sort -u | tr '\n' ' ')
    [ "$symbols" = "loupe_plugin_entry " ] || fail "$what: $(basename "$so") exports: $symbols"
  done
  # The installed loupe finds its bundled plugins with no --plugin-dir.
  local listed
  listed=$("$prefix/bin/loupe" plugins --json)
  for p in conv fusion multi_kernel; do
    echo "$listed" | grep -q "\"name\": \"$p\"" || fail "$what: bundled plugin $p not found"
  done
}

cmake --install "$build" --prefix "$work/prefix" >/dev/null
check_prefix "$work/prefix" "cmake --install" "$work/hello"

# The exported entry point is the only visible symbol of the plugin.
exported=$(nm -D --defined-only "$work/hello/hello_idle.so" | awk '$2 == "T" {print $3}')
[ "$exported" = "loupe_plugin_entry" ] || fail "plugin exports: $exported"

out=$("$work/prefix/bin/loupe" plugins --plugin-dir "$work/hello")
echo "$out" | grep -q "hello_idle 1.0.0  \[ABI 1\.[0-9]*, system\]  categories: hello_idle" \
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
# The Debian packages, unpacked as /usr (a /usr-style prefix without touching the system).
if command -v cpack >/dev/null && command -v dpkg-deb >/dev/null; then
  (cd "$build" && cpack --config CPackConfig.cmake -B "$work/pkg" >/dev/null) || fail "cpack"
  for deb in loupe loupe-dev; do
    f=$(ls "$work/pkg/${deb}"_*.deb 2>/dev/null | head -1)
    [ -n "$f" ] || fail "no ${deb} package"
    dpkg-deb -x "$f" "$work/root"
  done
  dpkg-deb -f "$(ls "$work/pkg"/loupe-dev_*.deb)" Depends | grep -q "^loupe (= " \
    || fail "loupe-dev does not depend on loupe"
  [ -e "$work/root/usr/bin/loupe" ] \
    || fail "package layout"
  dpkg-deb -c "$(ls "$work/pkg"/loupe_*.deb)" | grep -q "include/" && fail "headers in loupe"
  check_prefix "$work/root/usr" "Debian packages" "$work/hello_deb"
  "$work/root/usr/bin/loupe" analyze "$work/in" -o "$work/out_deb" --plugin-dir "$work/hello_deb" -q \
    || fail "packaged analyze exited $?"
  grep -q '### P1: GPU idle for 40.0% of the trace' "$work/out_deb/system_findings/hello_idle_findings.md" \
    || fail "packaged findings"
fi
echo "install test passed: installed SDK, out-of-tree build, load and run (prefix and .deb)"
