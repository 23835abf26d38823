#include <unistd.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli_common.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"
#include "loupe/core/trace/inspect.hpp"
#include "loupe/core/trace/json_reader.hpp"

namespace loupe::cli {

namespace fs = std::filesystem;
namespace tr = core::trace;

int run_inspect(const std::vector<std::string>& args) {
  po::options_description visible(
      "Usage: loupe inspect TRACE [options]\n\n"
      "Loads a PyTorch profiler trace (.json or .json.gz; gzip is detected by content) natively,\n"
      "builds the TraceLens event tree and prints a summary: size, events by category, devices,\n"
      "GPU busy/idle/computation/communication/memcpy time and the top kernels.\n"
      "Exit codes: 0 success, 2 usage error or a trace that cannot be read (the message names the\n"
      "byte offset in the JSON text and the problem).\n\n"
      "Options");
  visible.add_options()("help,h", "show this help")("json", "print the summary as JSON")(
      "gpu-timeline-csv", po::value<std::string>(),
      "also write TraceLens's gpu_timeline.csv to FILE")(
      "compat", po::value<std::string>(),
      "tracelens: compute times with TraceLens's doubles (gpu_timeline.csv byte-identical); "
      "default: exact integer nanoseconds")(
      "python-functions", "include python_function events in the tree (TraceLens add_python_func)")(
      "top", po::value<std::size_t>()->default_value(10), "number of top kernels to list");
  po::variables_map vm;
  if (const auto stop = parse_trace_command(args, visible, vm, "inspect")) return *stop;
  tr::TimeMode mode = tr::TimeMode::kExact;
  if (vm.count("compat") > 0) {
    if (vm["compat"].as<std::string>() != "tracelens") {
      std::cerr << "loupe inspect: --compat accepts only 'tracelens'\n";
      return kExitUsage;
    }
    mode = tr::TimeMode::kTraceLensCompat;
  }
  const fs::path path = vm["trace"].as<std::string>();
  std::error_code ec;
  const auto file_size = fs::file_size(path, ec);
  if (ec) {
    std::cerr << "loupe inspect: cannot read " << path.string() << ": " << ec.message() << "\n";
    return kExitUsage;
  }

  tr::LoadOptions load_options;
  load_options.progress = trace_load_progress("inspect", file_size, vm.count("quiet") > 0);
  const auto start = std::chrono::steady_clock::now();
  tr::LoadResult loaded;
  try {
    loaded = tr::load_trace(path, load_options);
  } catch (const std::exception& e) {
    std::cerr << "loupe inspect: " << e.what() << "\n";
    return kExitUsage;
  }
  const double load_seconds = seconds_since(start);
  if (loaded.error) {
    std::cerr << "loupe inspect: " << path.string() << ": " << loaded.error->describe();
    if (!loaded.error->unsupported_format) {
      std::cerr << " (" << loaded.model.event_count() << " events read before it)";
    }
    std::cerr << "\n";
    return kExitUsage;
  }
  tr::TreeOptions tree_options;
  tree_options.add_python_func = vm.count("python-functions") > 0;
  tree_options.time_mode = mode;
  const auto tree_start = std::chrono::steady_clock::now();
  const tr::EventTree tree = tr::EventTree::build(loaded.model, tree_options);
  const double tree_seconds = seconds_since(tree_start);

  tr::InspectSummary summary = tr::summarize(loaded, tree, mode, vm["top"].as<std::size_t>());
  summary.path = path.string();
  summary.file_bytes = file_size;
  summary.load_seconds = load_seconds;
  summary.tree_seconds = tree_seconds;

  if (vm.count("gpu-timeline-csv") > 0) {
    const fs::path out = vm["gpu-timeline-csv"].as<std::string>();
    tr::GpuTimelineOptions topt;
    topt.time_mode = mode;
    const auto timeline = tr::compute_gpu_timeline(loaded.model, tree, topt);
    if (!timeline) {
      std::cerr << "loupe inspect: no linked GPU events in the trace; " << out.string()
                << " not written\n";
      return kExitUsage;
    }
    std::ofstream file(out, std::ios::binary | std::ios::trunc);
    file << tr::gpu_timeline_csv(*timeline);
    if (!file) {
      std::cerr << "loupe inspect: cannot write " << out.string() << "\n";
      return kExitUsage;
    }
  }
  std::cout << (vm.count("json") > 0 ? tr::render_json(summary) : tr::render_text(summary));
  return kExitOk;
}

}  // namespace loupe::cli
