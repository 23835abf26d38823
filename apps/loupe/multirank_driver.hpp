// `loupe analyze --trace-glob GLOB | --trace-pattern PATTERN -o OUT` (docs/multirank.md): every
// rank's trace analyzed exactly as `--trace` does, in child processes run in parallel (the
// pool sized from free memory and the first rank's measured peak), into OUT/rank_<r>/; then
// the ranks' collective tables matched into OUT/collective_report/.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "loupe/core/error.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::cli {

// The multi-rank options shown in `loupe analyze --help`.
void add_multirank_options(po::options_description& visible);
bool is_multirank_request(const po::variables_map& vm);

// Runs the whole multi-rank analysis: every rank a core::Session in a forked child, with analyze's
// own options (docs/multirank.md). Exit codes: 0 every rank and the report complete, 1 a rank or a
// collective was left out or a category ended in ERROR, 2 bad usage or an unusable rank set
// (before any work).
int run_multirank(const po::variables_map& vm);

}  // namespace loupe::cli
