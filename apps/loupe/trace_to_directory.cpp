#include "trace_to_directory.hpp"

#include <chrono>
#include <iostream>
#include <optional>

#include <spdlog/spdlog.h>

#include "cli_common.hpp"
#include "loupe/core/prepare/analysis_dir_writer.hpp"
#include "loupe/core/trace/json_reader.hpp"

namespace loupe::cli {

namespace fs = std::filesystem;

namespace {

// Loads one trace with progress; nullopt (after printing why) when it cannot be used.
std::optional<core::trace::LoadResult> load_for_analysis(const fs::path& path, bool quiet) {
  std::error_code ec;
  const auto file_size = fs::file_size(path, ec);
  if (ec) {
    std::cerr << "loupe analyze: cannot read " << path.string() << ": " << ec.message() << "\n";
    return std::nullopt;
  }
  core::trace::LoadOptions load_options;
  load_options.progress = trace_load_progress("analyze", file_size, quiet);
  const auto start = std::chrono::steady_clock::now();
  core::trace::LoadResult loaded;
  try {
    loaded = core::trace::load_trace(path, load_options);
  } catch (const std::exception& e) {
    std::cerr << "loupe analyze: " << e.what() << "\n";
    return std::nullopt;
  }
  if (loaded.error) {
    std::cerr << "loupe analyze: " << path.string() << ": " << loaded.error->describe();
    if (!loaded.error->unsupported_format) {
      std::cerr << " (" << loaded.model.event_count() << " events read before it)";
    }
    std::cerr << "\n";
    return std::nullopt;
  }
  spdlog::info("loaded {} events from {} in {:.2f} s ({})", loaded.model.event_count(),
               path.string(), seconds_since(start),
               loaded.parallel_blocks > 0
                   ? std::to_string(loaded.parallel_blocks) + " blocks parsed in parallel"
                   : std::string("parsed on one thread"));
  return loaded;
}

}  // namespace

int write_directory_from_trace(const TraceToDirectoryOptions& options, WrittenDirectory& written) {
  const auto start = std::chrono::steady_clock::now();
  auto loaded = load_for_analysis(options.trace, options.quiet);
  if (!loaded) return kExitUsage;
  std::optional<core::trace::LoadResult> loaded2;
  if (options.trace2) {
    loaded2 = load_for_analysis(*options.trace2, options.quiet);
    if (!loaded2) return kExitUsage;
  }

  if (options.on_loaded) {
    try {
      options.on_loaded(loaded->model);
    } catch (const std::exception& e) {
      std::cerr << "loupe analyze: " << e.what() << "\n";
      return kExitUsage;
    }
  }

  core::prepare::PrepareOptions prepare;
  prepare.trace_path = options.trace;
  prepare.output_dir = options.output_dir;
  prepare.compat_tracelens = options.compat_tracelens;
  if (!options.quiet) {
    prepare.progress = [start](std::string_view step) {
      spdlog::info("{} ({:.2f} s)", step, seconds_since(start));
    };
  }
  try {
    prepare.arch = core::prepare::select_arch(options.arch_file, options.platform,
                                              loaded->model.device_names());
  } catch (const std::exception& e) {
    std::cerr << "loupe analyze: " << e.what() << "\n";
    return kExitUsage;
  }
  spdlog::info("using {}", prepare.arch.reason);

  if (!options.quiet) spdlog::info("building the event tree ({:.2f} s)", seconds_since(start));
  const auto tree =
      core::trace::EventTree::build(loaded->model, core::prepare::prepare_tree_options());
  std::optional<core::trace::EventTree> tree2;
  if (loaded2) {
    tree2 = core::trace::EventTree::build(loaded2->model, core::prepare::prepare_tree_options());
  }
  core::prepare::PreparedDirectory prepared;
  try {
    prepared = loaded2 ? core::prepare::prepare_comparative_directory(
                             {loaded->model, tree}, {loaded2->model, *tree2}, prepare)
                       : core::prepare::prepare_analysis_directory(loaded->model, tree, prepare);
  } catch (const core::prepare::PrepareError& e) {
    std::cerr << "loupe analyze: " << options.trace.string();
    if (options.trace2) std::cerr << " vs " << options.trace2->string();
    std::cerr << ": " << e.what() << "\n";
    return kExitUsage;
  }
  for (const auto& note : prepared.notes) spdlog::warn("{}", note);
  try {
    if (options.before_write) options.before_write();
    core::prepare::write_prepared_directory(prepared, options.output_dir);
  } catch (const std::exception& e) {
    std::cerr << "loupe analyze: " << e.what() << "\n";
    return kExitUsage;
  }
  written.views = core::prepare::build_trace_views(loaded->model, tree);
  for (const auto& file : prepared.files) written.files.push_back(file.relative_path);
  spdlog::info("wrote {} files into {} ({:.2f} s since start)", prepared.files.size(),
               options.output_dir.string(), seconds_since(start));
  return kExitOk;
}

}  // namespace loupe::cli
