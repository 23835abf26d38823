#!/usr/bin/env bash
# vendor_example_test.sh BUILD_DIR SOURCE_DIR CXX
# docs/examples/vendor-plugin against the installed tree: cmake --install into a scratch prefix,
# configure and build the example with find_package(Loupe), run its CTest (both plugins analyze
# a tiny trace with the installed loupe), then package it with CPack and check the .deb's
# contents (the system plugin directory) and its dependency on the plugin ABI that the `loupe`
# package provides. No root needed: the packages are only listed.
set -euo pipefail
build=$1 src=$2 cxx=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/loupe-vendor-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "vendor example test FAILED: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/docs/examples/vendor-plugin" -B "$work/vendor" -G Ninja \
      -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null \
  || fail "configuring the example against the installed SDK"
cmake --build "$work/vendor" >/dev/null || fail "building the example"
for so in acme_gemm acme_kernels; do
  exported=$(nm -D --defined-only "$work/vendor/plugins/$so.so" | awk '$2 == "T" {print $3}')
  [ "$exported" = "loupe_plugin_entry" ] || fail "$so exports: $exported"
done
ctest --test-dir "$work/vendor" --output-on-failure >"$work/ctest.log" 2>&1 \
  || { cat "$work/ctest.log"; fail "the example's tests"; }

# loupe plugins shows both roles.
roles=$("$work/prefix/bin/loupe" plugins --plugin-dir "$work/vendor/plugins")
echo "$roles" | grep -q "  gemm: primary gemm; contributing acme_gemm" \
  || fail "acme_gemm not listed as contributing: $roles"
echo "$roles" | grep -q "  acme_kernels: primary acme_kernels  (vendor category: kernel 'acme_\*|Cijk_\*')" \
  || fail "acme_kernels not listed as a vendor category: $roles"

if command -v cpack >/dev/null && command -v dpkg-deb >/dev/null; then
  (cd "$work/vendor" && cpack >/dev/null) || fail "cpack of the example"
  deb=$(ls "$work/vendor"/acme-loupe-plugins_1.0.0_*.deb 2>/dev/null | head -1)
  [ -n "$deb" ] || fail "no acme-loupe-plugins package"
  config=$(find "$work/prefix" -name LoupeConfig.cmake | head -1)
  plugin_dir=$(sed -n 's/^set(LOUPE_PLUGIN_INSTALL_SUBDIR "\(.*\)")$/\1/p' "$config")
  [ -n "$plugin_dir" ] || fail "LOUPE_PLUGIN_INSTALL_SUBDIR not in $config"
  listing=$(dpkg-deb -c "$deb")
  for so in acme_gemm acme_kernels; do
    echo "$listing" | grep -q "\./usr/$plugin_dir/$so.so$" || fail "$so.so not in /usr/$plugin_dir"
  done
  depends=$(dpkg-deb -f "$deb" Depends)
  echo "$depends" | grep -Eq "^loupe-abi-1 \(>= 1\.[0-9]+\)$" || fail "Depends: $depends"
  # The loupe package provides what it depends on.
  (cd "$build" && cpack --config CPackConfig.cmake -B "$work/pkg" >/dev/null) || fail "cpack"
  provides=$(dpkg-deb -f "$(ls "$work/pkg"/loupe_*.deb)" Provides)
  echo "$provides" | grep -Eq "^loupe-abi-1 \(= 1\.[0-9]+\)$" || fail "loupe Provides: $provides"
  [ "${depends#loupe-abi-1 (>= }" = "${provides#loupe-abi-1 (= }" ] \
    || fail "the example depends on $depends, loupe provides $provides"
fi
echo "vendor example test passed: built, tested and packaged against the installed SDK"
