#include "trace_to_directory.hpp"

#include <chrono>
#include <iostream>
#include <optional>

#include <spdlog/spdlog.h>

#include "cli_common.hpp"
#include "loupe/core/prepare/analysis_dir_writer.hpp"
#include "loupe/core/trace/capture_attribution.hpp"
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

// Trace 2's platform: --arch2 / --platform2, else (default mode) what its deviceProperties
// show, else trace 1's. Compat mode keeps TraceLens's single platform unless told otherwise.
// nullopt: trace 1's, unrecorded (compat mode's manifest has no trace2_platform).
std::optional<core::prepare::ArchSelection> select_trace2_arch(
    const TraceToDirectoryOptions& options, const core::trace::LoadResult& loaded2,
    const core::prepare::ArchSelection& arch1) {
  if (options.arch_file2 || options.platform2) {
    auto arch = core::prepare::select_arch_for_devices(options.arch_file2, options.platform2, {});
    if (options.arch_file2)
      arch.reason = "arch spec from " + options.arch_file2->string() + " (--arch2)";
    if (options.platform2) arch.reason = "platform " + arch.platform + " (--platform2)";
    return arch;
  }
  if (options.compat_tracelens) return std::nullopt;
  auto own = core::prepare::select_arch_for_devices(std::nullopt, std::nullopt,
                                                    core::prepare::trace_devices(loaded2.model));
  if (own.from_device) return own;
  core::prepare::ArchSelection same = arch1;
  same.reason = "platform " + arch1.platform +
                ", as trace 1 (trace 2 names no bundled device; --platform2 or --arch2 to choose)";
  return same;
}

// The run record's account of the attribution, and the terminal's.
Json capture_record(const core::trace::CaptureAttribution& a, const core::trace::TraceModel& exec) {
  Json j = Json::object();
  Json files = Json::array();
  for (const auto& f : a.files) {
    Json one = Json::object();
    one["path"] = f.path;
    one["capture_windows"] = static_cast<std::int64_t>(f.windows);
    one["matched_replays"] = static_cast<std::int64_t>(f.matched_replays);
    one["status"] = f.matched_replays > 0 ? "used" : "ignored: matches no graph replay";
    files.push_back(std::move(one));
  }
  j["files"] = std::move(files);
  j["graph_replays"] = static_cast<std::int64_t>(a.graph_launches);
  j["attributed_replays"] = static_cast<std::int64_t>(a.matched_launches);
  j["attributed_gpu_ops"] = static_cast<std::int64_t>(a.attributed_gpu_ops);
  j["matched_by_kernel_name_counts"] = static_cast<std::int64_t>(a.aligned_by_name);
  j["python_frames_dropped"] = a.python_frames_dropped;
  Json unmatched = Json::array();
  for (const auto& u : a.unmatched) {
    Json one = Json::object();
    one["graph_launch_uid"] = static_cast<std::int64_t>(u.graph_launch);
    one["graph_launch"] = std::string(exec.name(u.graph_launch));
    one["ts_us"] = u.ts_us;
    one["gpu_ops"] = static_cast<std::int64_t>(u.gpu_ops);
    one["first_kernel"] = u.first_kernel;
    unmatched.push_back(std::move(one));
  }
  j["unmatched_replays"] = std::move(unmatched);
  return j;
}

void log_capture_attribution(const core::trace::CaptureAttribution& a) {
  for (const auto& f : a.files) {
    if (f.matched_replays == 0) {
      spdlog::warn(
          "capture trace {} matches no graph replay of the trace ({} capture windows): "
          "ignored",
          f.path, f.windows);
    }
  }
  spdlog::info("capture traces: {} of {} graph replays attributed ({} GPU ops get their ops)",
               a.matched_launches, a.graph_launches, a.attributed_gpu_ops);
  std::size_t shown = 0;
  for (const auto& u : a.unmatched) {
    if (shown++ == 5) {
      spdlog::warn("... {} more unmatched replays (loupe_run.json capture_traces)",
                   a.unmatched.size() - 5);
      break;
    }
    spdlog::warn("unmatched graph replay at {:.3f} us: {} GPU ops, first {}", u.ts_us, u.gpu_ops,
                 u.first_kernel);
  }
  if (a.python_frames_dropped) {
    spdlog::warn(
        "capture traces: python frames of later replays left out (size budget); their "
        "ops are attributed without call stacks");
  }
}

}  // namespace

int write_directory_from_trace(const TraceToDirectoryOptions& options, WrittenDirectory& written) {
  const auto start = std::chrono::steady_clock::now();
  // Capture traces first: one that cannot be read stops the run before the main trace loads.
  std::vector<core::trace::CaptureTrace> captures;
  for (const auto& path : options.capture_traces) {
    auto one = load_for_analysis(path, options.quiet);
    if (!one) return kExitUsage;
    captures.push_back({path, std::move(one->model)});
  }
  auto loaded = load_for_analysis(options.trace, options.quiet);
  if (!loaded) return kExitUsage;
  core::trace::TreeOptions tree_options = core::prepare::prepare_tree_options();
  if (!captures.empty()) {
    const auto attribution = core::trace::attribute_capture_traces(loaded->model, captures);
    captures.clear();
    log_capture_attribution(attribution);
    written.capture_traces = capture_record(attribution, loaded->model);
    tree_options.gpu_relinks = attribution.links;
  }
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
  prepare.vendor_selectors = options.vendor_selectors;
  if (!options.quiet) {
    prepare.progress = [start](std::string_view step) {
      spdlog::info("{} ({:.2f} s)", step, seconds_since(start));
    };
  }
  try {
    prepare.arch = core::prepare::select_arch_for_devices(
        options.arch_file, options.platform, core::prepare::trace_devices(loaded->model));
    if (loaded2) prepare.arch2 = select_trace2_arch(options, *loaded2, prepare.arch);
  } catch (const std::exception& e) {
    std::cerr << "loupe analyze: " << e.what() << "\n";
    return kExitUsage;
  }
  spdlog::info("using {}{}", loaded2 ? "for trace 1 " : "", prepare.arch.reason);
  if (prepare.arch2) {
    spdlog::info("using for trace 2 {}", prepare.arch2->reason);
  } else if (loaded2) {
    spdlog::info("using for trace 2 the platform of trace 1 (--compat tracelens)");
  }

  if (!options.quiet) spdlog::info("building the event tree ({:.2f} s)", seconds_since(start));
  const auto tree = core::trace::EventTree::build(loaded->model, tree_options);
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
  // The what-if model is for default mode's report (docs/what-if.md); compat needs none.
  core::prepare::TraceViewsOptions views_options;
  views_options.run_graph = !options.compat_tracelens;
  written.views = core::prepare::build_trace_views(loaded->model, tree, views_options);
  if (!options.compat_tracelens) {
    written.views.op_groups = core::prepare::op_groups_table(prepared.op_groups);
  }
  for (const auto& file : prepared.files) written.files.push_back(file.relative_path);
  spdlog::info("wrote {} files into {} ({:.2f} s since start)", prepared.files.size(),
               options.output_dir.string(), seconds_since(start));
  return kExitOk;
}

}  // namespace loupe::cli
