#include <malloc.h>

#include <filesystem>
#include <iostream>
#include <sstream>

#include <spdlog/spdlog.h>

#include "cli_common.hpp"
#include "loupe/core/analysis_dir.hpp"
#include "loupe/core/analysis_runner.hpp"
#include "loupe/core/plugin_registry.hpp"
#include "trace_to_directory.hpp"

namespace loupe::cli {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> split_categories(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& value : values) {
    std::stringstream stream(value);
    std::string item;
    while (std::getline(stream, item, ',')) {
      if (!item.empty()) out.push_back(item);
    }
  }
  return out;
}

void print_summary(const core::AnalyzeReport& report, const fs::path& output_dir) {
  std::cout << "Loupe analysis (" << report.scope << ") -> " << output_dir.string() << "\n";
  for (const auto& plugin : report.plugins) {
    for (const auto& c : plugin.categories) {
      std::cout << "  " << c.status << "\t" << c.category << "\t(" << plugin.plugin->name << ")";
      if (!c.findings_path.empty()) std::cout << "\t" << c.findings_path;
      if (!c.message.empty()) std::cout << "\n      " << c.message;
      std::cout << "\n";
    }
  }
  if (!report.unhandled.empty()) {
    std::cout << "  no plugin for:";
    for (const auto& u : report.unhandled) std::cout << " " << u;
    std::cout << "\n";
  }
  std::cout << "Run record: " << (output_dir / "loupe_run.json").string() << "\n";
}

}  // namespace

int run_analyze(const std::vector<std::string>& args) {
  po::options_description visible(
      "Usage: loupe analyze DIR [options]\n"
      "       loupe analyze --trace TRACE [--trace2 TRACE2] -o OUT [--platform NAME | --arch "
      "FILE]\n"
      "                     [options]\n\n"
      "Runs the analyzer plugins over the TraceLens-style analysis directory DIR, in dependency\n"
      "order, each in its own process. Writes category_data/<cat>_metrics.json,\n"
      "system_findings/<name>_findings.md, category_findings/<cat>_findings.md and\n"
      "loupe_run.json into the output directory; every findings file is validated first.\n\n"
      "With --trace, first reads the PyTorch profiler trace (.json or .json.gz) natively and\n"
      "writes the TraceLens analysis directory into OUT: perf_report_csvs/ (gpu_timeline,\n"
      "ops_summary, ops_unique_args, unified_perf_summary and the per-family sheets),\n"
      "category_data/ (category_manifest.json, <category>_ops.csv, multi_kernel_data.json,\n"
      "fusion_candidates.json) and metadata/; with --compat tracelens these files equal\n"
      "TraceLens's. Then it analyzes OUT; plugins also see the tables trace/gpu_events.csv and\n"
      "trace/op_kernels.csv. The platform's peaks come from --arch FILE, --platform NAME, the\n"
      "trace's device name, or MI300X, in that order.\n\n"
      "With --trace2, the analysis is comparative (TRACE is trace 1, TRACE2 trace 2): the two\n"
      "call trees are aligned, perf_report_trace1_csvs/ gets diff_stats.csv and the comparison\n"
      "columns, perf_report_trace2_csvs/ holds trace 2's report, fusion candidates are modules\n"
      "that run more kernels in trace 1 than in trace 2, and the manifest carries trace 2's\n"
      "utilization and per-category time.\n\n"
      "Exit codes: 0 all categories OK/NO_DATA, 1 some category ERROR, 2 usage or unreadable "
      "input.\n\n"
      "Options");
  std::vector<std::string> only;
  std::vector<std::string> plugin_dirs;
  visible.add_options()("help,h", "show this help")("output,o", po::value<std::string>(),
                                                    "write outputs here instead of into DIR")(
      "scope", po::value<std::string>(),
      "standalone | comparative (default: the manifest's comparison_scope)")(
      "only", po::value<std::vector<std::string>>(&only)->composing(),
      "analyze only these categories (comma-separated, repeatable), even if the manifest does not "
      "list them")("plugin-dir", po::value<std::vector<std::string>>(&plugin_dirs)->composing(),
                   "search this directory for plugins first (repeatable)")(
      "compat", po::value<std::string>(),
      "tracelens: reproduce TraceLens's numbers and quirks exactly")(
      "workload", po::value<std::string>(),
      "training | inference (when the manifest does not say)")(
      "no-isolate", "run plugins inside this process (debugging; a crash stops loupe)")(
      "trace", po::value<std::string>(), "read this raw trace and write the analysis directory")(
      "trace2", po::value<std::string>(),
      "with --trace: compare against this second trace (comparative scope)")(
      "platform", po::value<std::string>(),
      "with --trace: a bundled platform (B200, H100, H200, MI300X, MI325X, MI355X)")(
      "arch", po::value<std::string>(),
      "with --trace: a platform spec JSON (name, mem_bw_gbps, memory_gb, max_achievable_tflops)")(
      "plugin-timeout", po::value<double>()->default_value(300.0),
      "seconds one plugin category may take");
  add_verbosity_options(visible);
  po::options_description hidden;
  hidden.add_options()("dir", po::value<std::string>(), "analysis directory");
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("dir", 1);

  po::variables_map vm;
  if (!parse_arguments(args, all, positional, vm, "analyze")) return kExitUsage;
  if (vm.count("help") > 0) {
    std::cout << visible << "\n";
    return kExitOk;
  }
  apply_verbosity(vm);
  const bool from_trace = vm.count("trace") > 0;
  if (from_trace && vm.count("dir") > 0) {
    std::cerr << "loupe analyze: give either DIR or --trace TRACE, not both\n";
    return kExitUsage;
  }
  if (!from_trace && vm.count("dir") == 0) {
    std::cerr << "loupe analyze: missing DIR (the analysis directory) or --trace TRACE\n";
    return kExitUsage;
  }
  if (from_trace && vm.count("output") == 0) {
    std::cerr << "loupe analyze: --trace needs -o OUT (where to write the analysis directory)\n";
    return kExitUsage;
  }
  if (!from_trace && (vm.count("platform") > 0 || vm.count("arch") > 0 || vm.count("trace2") > 0)) {
    std::cerr << "loupe analyze: --trace2, --platform and --arch apply to --trace only\n";
    return kExitUsage;
  }
  if (vm.count("platform") > 0 && vm.count("arch") > 0) {
    std::cerr << "loupe analyze: give either --platform or --arch, not both\n";
    return kExitUsage;
  }
  const fs::path dir =
      from_trace ? fs::path(vm["output"].as<std::string>()) : fs::path(vm["dir"].as<std::string>());

  core::AnalyzeOptions options;
  options.output_dir = vm.count("output") > 0 ? fs::path(vm["output"].as<std::string>()) : dir;
  if (vm.count("scope") > 0) {
    options.scope = vm["scope"].as<std::string>();
    if (options.scope != "standalone" && options.scope != "comparative") {
      std::cerr << "loupe analyze: --scope must be standalone or comparative\n";
      return kExitUsage;
    }
  }
  if (vm.count("compat") > 0) {
    if (vm["compat"].as<std::string>() != "tracelens") {
      std::cerr << "loupe analyze: --compat accepts only 'tracelens'\n";
      return kExitUsage;
    }
    options.compat_tracelens = true;
  }
  if (vm.count("workload") > 0) {
    options.workload = vm["workload"].as<std::string>();
    if (options.workload != "training" && options.workload != "inference") {
      std::cerr << "loupe analyze: --workload must be training or inference\n";
      return kExitUsage;
    }
  }
  options.only = split_categories(only);
  options.isolate = vm.count("no-isolate") == 0;
  const double timeout_s = vm["plugin-timeout"].as<double>();
  if (!(timeout_s > 0)) {
    std::cerr << "loupe analyze: --plugin-timeout must be positive\n";
    return kExitUsage;
  }
  options.timeout = std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000.0));

  core::prepare::TraceViews trace_views;
  if (from_trace) {
    TraceToDirectoryOptions trace_options;
    trace_options.trace = vm["trace"].as<std::string>();
    if (vm.count("trace2") > 0) trace_options.trace2 = fs::path(vm["trace2"].as<std::string>());
    trace_options.output_dir = dir;
    if (vm.count("platform") > 0) trace_options.platform = vm["platform"].as<std::string>();
    if (vm.count("arch") > 0) trace_options.arch_file = fs::path(vm["arch"].as<std::string>());
    trace_options.compat_tracelens = options.compat_tracelens;
    trace_options.quiet = vm.count("quiet") > 0;
    if (const int rc = write_directory_from_trace(trace_options, trace_views); rc != kExitOk) {
      return rc;
    }
    // The trace model and tree are gone: hand their pages back, so each forked plugin child
    // maps a small heap (fewer pages to share, fewer copy-on-write faults).
    ::malloc_trim(0);
  }

  core::Model model;
  try {
    model = core::load_analysis_directory(
        dir, options.compat_tracelens ? core::ArchSet::kTraceLens : core::ArchSet::kAll);
  } catch (const core::InputError& e) {
    std::cerr << "loupe analyze: " << e.what() << "\n";
    return kExitUsage;
  }
  for (const auto& [name, why] : model.load_errors()) spdlog::warn("cannot load {}", why);
  if (from_trace) core::prepare::install_trace_views(model, trace_views);

  std::vector<fs::path> explicit_dirs(plugin_dirs.begin(), plugin_dirs.end());
  const auto plugins = core::discover_plugins(core::plugin_search_path(explicit_dirs));
  for (const auto& r : plugins.rejected) {
    spdlog::warn("plugin {} rejected: {}", r.path.string(), r.reason);
  }
  if (plugins.plugins.empty()) {
    std::cerr << "loupe analyze: no plugins found (see `loupe plugins`)\n";
    return kExitUsage;
  }

  try {
    std::error_code ec;
    fs::create_directories(options.output_dir, ec);
    if (ec) {
      std::cerr << "loupe analyze: cannot create " << options.output_dir.string() << ": "
                << ec.message() << "\n";
      return kExitUsage;
    }
    const auto report = core::run_analysis(model, plugins, options);
    print_summary(report, options.output_dir);
    return report.any_error() ? kExitFindings : kExitOk;
  } catch (const core::PlanError& e) {
    std::cerr << "loupe analyze: " << dir.string() << ": " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace loupe::cli
