// `loupe analyze`'s options as typed values: what one run (and each rank of a rank set) is
// given. Each function says what is wrong on stderr and returns nothing when an option cannot
// be used.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "loupe/core/plugin/plugin_registry.hpp"
#include "loupe/core/run/analysis_runner.hpp"
#include "loupe/core/session/session.hpp"

namespace loupe::cli {

// The analysis options (--scope, --compat, --workload, --only, --no-isolate, --plugin-timeout,
// --plugin-memory, -o); nullopt after saying what is wrong.
std::optional<core::AnalyzeOptions> analyze_options(const po::variables_map& vm);

// --platform/--arch and --platform2/--arch2 name a usable platform; false after saying why.
bool check_platform_options(const po::variables_map& vm);

// The plugins for a run: discovered (--plugin-dir, the configuration file, --prefer), problems
// reported (--strict makes them fatal), --only names checked; nullopt after saying why the run
// cannot start.
std::optional<core::PluginSet> discover(const po::variables_map& vm,
                                        const core::AnalyzeOptions& options);

// --trace (when given), --trace2, --capture-trace and the platforms.
core::TraceInputs trace_inputs(const po::variables_map& vm);

// The session's options: the analysis options, -q and the trace-load progress.
core::SessionOptions session_options(const po::variables_map& vm, core::AnalyzeOptions analyze);

}  // namespace loupe::cli
