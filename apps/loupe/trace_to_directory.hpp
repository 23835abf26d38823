// `loupe analyze --trace`: load the trace (with progress), prepare the analysis directory and
// write it, reporting problems the way every subcommand does.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "loupe/core/prepare/trace_views.hpp"
#include "loupe/core/prepare/vendor_categories.hpp"
#include "loupe/json_value.hpp"

namespace loupe::cli {

struct TraceToDirectoryOptions {
  std::filesystem::path trace;
  std::optional<std::filesystem::path> trace2;  // comparative scope: the trace compared against
  std::filesystem::path output_dir;
  std::optional<std::string> platform;
  std::optional<std::filesystem::path> arch_file;
  // Trace 2's platform; without them trace 2's own deviceProperties decide (default mode), else
  // trace 1's platform (and always in compat mode, as TraceLens used one platform).
  std::optional<std::string> platform2;
  std::optional<std::filesystem::path> arch_file2;
  bool compat_tracelens = false;
  bool quiet = false;
  // --capture-trace: traces of the GPU-graph captures TRACE replays (capture_attribution.hpp).
  std::vector<std::filesystem::path> capture_traces;
  // Vendor categories to prepare (core/include/loupe/core/prepare/vendor_categories.hpp).
  std::vector<core::prepare::VendorSelector> vendor_selectors;
  // Called once the directory is computed, right before its files are written (the previous
  // run's files are removed there). Throws std::runtime_error to stop.
  std::function<void()> before_write;
  // Called with the loaded trace (TRACE, not TRACE2) before the directory is computed: the
  // multi-rank driver's children take their collective table here (docs/multirank.md).
  std::function<void(const core::trace::TraceModel&)> on_loaded;
};

struct WrittenDirectory {
  core::prepare::TraceViews views;  // what plugins get through the model
  std::vector<std::string> files;   // relative paths written
  // What --capture-trace attributed (loupe_run.json `capture_traces`); null without it.
  Json capture_traces;
};

// Returns kExitOk when the directory was written (and fills `written`), else prints the reason
// and returns the exit code (kExitUsage: unreadable or unusable trace, bad platform/arch,
// unwritable directory).
int write_directory_from_trace(const TraceToDirectoryOptions& options, WrittenDirectory& written);

}  // namespace loupe::cli
