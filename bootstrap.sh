#!/usr/bin/env bash
# Loupe bootstrap: installs what is missing (Debian packages), builds, and runs.
#   ./bootstrap.sh demo   build the CLI and the bundled plugins (demo preset: release, no tests,
#                         no bench), then raw bundled trace -> findings
#   ./bootstrap.sh test   build (dev preset) and run the whole test suite
#   ./bootstrap.sh ci     `test`, a short libFuzzer run of every fuzz target, then the test suite
#                         again under ASan + UBSan
#   ./bootstrap.sh fuzz [SECONDS]  build the libFuzzer targets (clang) and run each SECONDS
#   ./bootstrap.sh deps   only install the missing packages
set -euo pipefail
cd "$(dirname "$0")"

# What the CLI and the bundled plugins need (`demo`), and what only the tests, the fuzz targets,
# the packaging checks and --mpi add (the rest). On a fresh Debian 12 the first list is about
# 125 MB of downloads (158 packages), both about 400 MB (370): docs/performance.md, "First run".
DEMO_PACKAGES=(cmake ninja-build g++ libboost-dev libboost-program-options-dev rapidjson-dev
               libspdlog-dev zlib1g-dev libcairo2-dev libisal-dev)
PACKAGES=("${DEMO_PACKAGES[@]}" catch2 dpkg-dev clang libclang-rt-14-dev chromium
          libopenmpi-dev openmpi-bin)

# install_missing [PACKAGE...]: the given packages (default: all of PACKAGES) that are not installed.
install_missing() {
  local missing=()
  local wanted=("$@")
  [ ${#wanted[@]} -eq 0 ] && wanted=("${PACKAGES[@]}")
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "bootstrap: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  cmake --preset "$1" >/dev/null
  cmake --build --preset "$1"
}

run_tests() {
  build "$1"
  ctest --preset "$1"
}

case "${1:-}" in
  deps) install_missing ;;
  demo)
    install_missing "${DEMO_PACKAGES[@]}"
    # Only what the demo runs: the CLI and the bundled plugins (the demo preset configures no tests
    # and no bench), through ccache when installed, with precompiled headers (LOUPE_PCH).
    build demo
    rm -rf out/demo
    status=0
    ./build/demo/bin/loupe analyze --trace \
      tests/data/samples/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz -o out/demo || status=$?
    [ -d out/demo/category_data ] || exit "$status"
    echo
    echo "Prepared from the trace (TraceLens layout):"
    (cd out/demo && find perf_report_csvs category_data metadata -type f ! -name '*_metrics.json' | sort | sed 's/^/  /')
    echo "Analyzer outputs:"
    (cd out/demo && find . -name '*_metrics.json' -o -name '*_findings.md' | sed 's#^\./##' | sort | sed 's/^/  /')
    echo "Report: out/demo/analysis.md, out/demo/report.html (ranked: out/demo/findings.json, out/demo/priority_data.json)"
    echo "Run record: out/demo/loupe_run.json"
    exit "$status"
    ;;
  test)
    install_missing
    run_tests dev
    ;;
  fuzz)
    install_missing
    build fuzz
    fuzz/run.sh "${2:-60}"
    ;;
  ci)
    install_missing
    run_tests dev
    build fuzz
    fuzz/run.sh 15
    run_tests asan
    ;;
  *)
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
