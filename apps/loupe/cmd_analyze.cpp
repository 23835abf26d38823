#include <malloc.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <spdlog/spdlog.h>

#include "cli_common.hpp"
#include "loupe/core/analysis_dir.hpp"
#include "loupe/core/analysis_runner.hpp"
#include "loupe/core/plugin_registry.hpp"
#include "loupe/core/prepare/arch_selection.hpp"
#include "loupe/core/report/analysis_report.hpp"
#include "loupe/core/report/fail_on.hpp"
#include "loupe/core/report/serving_report.hpp"
#include "loupe/core/run_outputs.hpp"
#include "loupe/core/text_escape.hpp"
#include "memory_estimate.hpp"
#include "multirank_driver.hpp"
#include "plugin_preferences.hpp"
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

bool looks_like_trace_file(const fs::path& path) {
  const std::string name = path.filename().string();
  auto ends_with = [&](std::string_view suffix) {
    return name.size() >= suffix.size() &&
           name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends_with(".json") || ends_with(".json.gz") || ends_with(".gz");
}

bool check_analysis_dir(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return true;
  if (fs::is_regular_file(dir, ec) && looks_like_trace_file(dir)) {
    std::cerr << "loupe analyze: " << dir.string()
              << " is a file, not an analysis directory; to analyze a raw trace, run\n"
              << "  loupe analyze --trace " << dir.string() << " -o OUT\n";
    return false;
  }
  std::cerr << "loupe analyze: " << dir.string()
            << (fs::exists(dir, ec) ? ": not a directory" : ": no such directory")
            << " (give an analysis directory, or --trace TRACE -o OUT)\n";
  return false;
}

// Warns about each rejected or shadowed plugin file; false when --strict makes that fatal.
bool report_plugin_problems(const core::PluginSet& plugins, bool strict) {
  bool any = false;
  for (const auto& f : plugins.found) {
    if (f.state == core::PluginState::Loaded) continue;
    any = true;
    if (strict) {
      std::cerr << "loupe analyze: plugin " << f.path.string() << " " << core::to_string(f.state)
                << ": " << f.reason << "\n";
    } else {
      spdlog::warn("plugin {} {}: {}", f.path.string(), core::to_string(f.state), f.reason);
    }
  }
  if (any && strict) {
    std::cerr << "loupe analyze: --strict: stopping before any work (remove or fix the files "
                 "above)\n";
    return false;
  }
  return true;
}

// --max-memory: false (after saying why) when the traces' estimated peak exceeds `limit_mb`.
// Both traces of a comparative run are in memory at once, so their estimates add up.
bool check_memory_limit(std::uint64_t limit_mb, const po::variables_map& vm) {
  std::uint64_t json_total = 0;
  std::string detail;
  for (const char* option : {"trace", "trace2"}) {
    if (vm.count(option) == 0) continue;
    const fs::path path = vm[option].as<std::string>();
    std::string why;
    const auto size = estimate_trace_size(path, why);
    if (!size) {
      std::cerr << "loupe analyze: --" << option << " " << path.string() << ": " << why << "\n";
      return false;
    }
    json_total += size->json_bytes;
    if (!detail.empty()) detail += " + ";
    detail += path.string() + ": " + std::to_string(size->json_bytes >> 20) + " MB of JSON";
    if (size->lower_bound) {
      detail += " (from the gzip trailer's ISIZE, which is the size mod 2^32: a lower bound)";
    }
  }
  const std::uint64_t estimate_mb = estimate_analyze_peak_bytes(json_total) >> 20;
  if (estimate_mb <= limit_mb) return true;
  std::cerr << "loupe analyze: the analysis needs an estimated " << estimate_mb
            << " MB of memory, more than --max-memory " << limit_mb << " MB (" << detail
            << "); stopped before reading the trace or writing anything\n";
  return false;
}

constexpr size_t kTopFindingsShown = 5;

std::string fixed3(double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", value);
  return buf;
}

// The step-checked findings applied together (findings.json `ledger.combined_step_gain_ms`): when
// several findings shorten the run down to one floor, their savings do not add up.
void print_combined_gain(const Json& run_findings) {
  const Json* ledger = run_findings.find("ledger");
  const Json* combined = ledger == nullptr ? nullptr : ledger->find("combined_step_gain_ms");
  const Json* sum = ledger == nullptr ? nullptr : ledger->find("combined_saving_sum_ms");
  if (combined == nullptr || !combined->is_number() || sum == nullptr || !sum->is_number()) return;
  const Json* checked = ledger->find("step_checked");
  const long long n = checked != nullptr && checked->is_int() ? checked->as_int() : 0;
  std::cout << "  The " << n << (n == 1 ? " finding" : " findings")
            << " replayed by the what-if, applied together, would shorten the run by "
            << fixed3(combined->as_double()) << " ms";
  if (sum->as_double() > combined->as_double() + 0.0005) {
    std::cout << ", not the " << fixed3(sum->as_double())
              << " ms their savings sum to: they overlap in run time";
  }
  std::cout << " (docs/what-if.md)\n";
}

void print_summary(const core::AnalyzeReport& report, const fs::path& output_dir) {
  std::cout << "Loupe analysis (" << to_string(report.scope) << ") -> " << output_dir.string()
            << "\n";
  for (const auto& plugin : report.plugins) {
    for (const auto& c : plugin.categories) {
      std::string status = findings::to_string(c.status);
      if (c.status == findings::Status::Ok) {
        status = c.findings_count == 0 ? "OK, nothing to fix"
                                       : "OK, " + std::to_string(c.findings_count) +
                                             (c.findings_count == 1 ? " finding" : " findings");
      }
      std::cout << "  " << status << "\t" << c.category << "\t(" << plugin.plugin->name << ")";
      if (!c.findings_path.empty()) std::cout << "\t" << c.findings_path;
      if (!c.message.empty()) std::cout << "\n      " << core::escape_for_terminal(c.message);
      std::cout << "\n";
    }
  }
  if (report.discovery != nullptr) {
    const auto rejected = report.discovery->count(core::PluginState::Rejected);
    const auto shadowed = report.discovery->count(core::PluginState::Shadowed);
    if (rejected + shadowed > 0) {
      std::cout << "  plugin files not used: " << rejected << " rejected, " << shadowed
                << " shadowed (reasons in loupe_run.json, `loupe plugins`)\n";
    }
  }
  if (const Json* serving = report.run_findings.find("serving")) {
    std::cout << "Serving steps and GPU graphs (analysis.md):\n";
    for (const auto& line : core::serving_summary_lines(*serving)) {
      std::cout << "  " << line << "\n";
    }
  }
  // The ranked answer: what to fix first and what it should buy (findings.json has them all),
  // each figure printed from the value stored there.
  if (const Json* findings = report.run_findings.find("findings");
      findings != nullptr && findings->size() > 0) {
    const Json* run = report.run_findings.find("run");
    const Json* total = run == nullptr ? nullptr : run->find("total_time_ms");
    std::cout << "Top findings";
    if (total != nullptr && total->is_number()) {
      std::cout << " (estimated saving of each, in ms of the run's " << fixed3(total->as_double())
                << " ms; each GPU kernel's time is counted in one finding only)";
    }
    std::cout << ":\n";
    size_t shown = 0;
    size_t no_step_gain = 0;
    for (const auto& f : findings->as_array()) {
      // A kernel finding whose kernels the step does not wait on gains nothing: counted, not shown.
      const Json* what_if = f.find("what_if");
      const Json* step_gain = what_if == nullptr ? nullptr : what_if->find("step_gain_ms");
      if (step_gain != nullptr && step_gain->is_number() && step_gain->as_double() < 0.0005) {
        ++no_step_gain;
        continue;
      }
      if (shown == kTopFindingsShown) continue;
      ++shown;
      const Json* ms = f.find("saving_ms");
      const Json* mid = ms == nullptr ? nullptr : ms->find("mid");
      const Json* pct = f.find("saving_percent_of_e2e") == nullptr
                            ? nullptr
                            : f.find("saving_percent_of_e2e")->find("mid");
      const Json* evidence = f.find("evidence");
      const bool heuristic =
          evidence != nullptr && evidence->is_string() && evidence->as_string() == "heuristic";
      std::string saving = "not quantified";
      if (mid != nullptr && mid->is_number()) {
        const Json* low = ms->find("low");
        const Json* high = ms->find("high");
        // A rule of thumb is shown as the range it is.
        saving =
            heuristic && low != nullptr && high != nullptr && low->is_number() && high->is_number()
                ? fixed3(low->as_double()) + "-" + fixed3(high->as_double()) + " ms"
                : fixed3(mid->as_double()) + " ms";
        if (pct != nullptr && pct->is_number()) {
          char buf[32];
          std::snprintf(buf, sizeof buf, " (%.2f%%)", pct->as_double());
          saving += buf;
        }
      }
      if (evidence != nullptr && evidence->is_string()) saving += " " + evidence->as_string();
      // The findings file that explains it (sources.files: metrics, findings, ops table).
      std::string file;
      if (const Json* sources = f.find("sources"); sources != nullptr) {
        if (const Json* files = sources->find("files"); files != nullptr && files->is_array() &&
                                                        files->size() > 1 &&
                                                        files->as_array()[1].is_string()) {
          file = files->as_array()[1].as_string();
        }
      }
      std::string title = f.find("title")->as_string();
      if (const Json* parts = f.find("parts"); parts != nullptr && parts->size() > 0) {
        title += " (+" + std::to_string(parts->size()) + " merged)";
      }
      std::cout << "  P" << f.find("priority")->as_int() << "  " << saving << "\t"
                << core::escape_for_terminal(f.find("category")->as_string()) << "\t"
                << core::escape_for_terminal(title);
      if (!file.empty()) std::cout << "\t" << core::escape_for_terminal(file);
      std::cout << "\n";
    }
    if (findings->size() > shown + no_step_gain) {
      std::cout << "  ... " << findings->size() - shown - no_step_gain
                << " more in findings.json\n";
    }
    print_combined_gain(report.run_findings);
    if (no_step_gain > 0) {
      std::cout << "  " << no_step_gain << " kernel "
                << (no_step_gain == 1 ? "finding would" : "findings would")
                << " not shorten the run: the GPU does not wait on those kernels (findings.json "
                   "`what_if`, docs/what-if.md)\n";
    }
  }
  if (const Json* capture = report.run_findings.find("capture_findings");
      capture != nullptr && capture->size() > 0) {
    std::cout << "This trace records a GPU-graph capture, not a step: its " << capture->size()
              << (capture->size() == 1 ? " finding is" : " findings are")
              << " not ranked (findings.json `capture_findings`, `recording.trace_kind`)\n";
  }
  if (const Json* coverage = report.run_findings.find("coverage")) {
    const Json* ops = coverage->find("ops");
    const Json* ms = coverage->find("unmodeled_time_ms");
    if (ops != nullptr && ops->size() > 0 && ms != nullptr && ms->is_number()) {
      std::cout << "Not covered by a performance model: " << fixed3(ms->as_double()) << " ms in "
                << ops->size() << (ops->size() == 1 ? " op" : " ops")
                << " (findings.json `coverage`; no saving is claimed for them)\n";
    }
  }
  if (!report.unhandled.empty()) {
    std::cout << "  no plugin for:";
    for (const auto& u : report.unhandled) std::cout << " " << u;
    std::cout << "\n";
  }
  for (const auto& f : report.report_files) {
    if (f == core::kAnalysisReportFile) {
      std::cout << "Report: " << (output_dir / f).string() << "\n";
    }
  }
  bool record_written = true;
  for (const auto& u : report.unwritten) {
    std::cout << "Not written: " << core::escape_for_terminal(u) << "\n";
    if (u.rfind("loupe_run.json:", 0) == 0) record_written = false;
  }
  if (record_written) {
    std::cout << "Run record: " << (output_dir / "loupe_run.json").string() << "\n";
  }
}

// --fail-on: lists what matched; true when anything did.
bool gate(const std::vector<core::FailTerm>& terms, const Json& run_findings,
          bool include_heuristic) {
  if (terms.empty()) return false;
  const auto matches = core::evaluate_fail_on(terms, run_findings, include_heuristic);
  for (const auto& m : matches) {
    std::cout << "FAIL-ON " << m.term << ": " << core::escape_for_terminal(m.what) << "\n";
  }
  if (!matches.empty()) {
    std::cout << "--fail-on matched " << matches.size()
              << (matches.size() == 1 ? " time" : " times") << " (exit 3)\n";
  }
  return !matches.empty();
}

}  // namespace

int run_analyze(const std::vector<std::string>& args) {
  po::options_description visible(
      "Usage: loupe analyze DIR [options]\n"
      "       loupe analyze --trace TRACE [--trace2 TRACE2 | --capture-trace CAP ...] -o OUT\n"
      "                     [--platform NAME | --arch FILE]\n"
      "                     [options]\n"
      "       loupe analyze --trace-glob GLOB | --trace-pattern PATTERN [--world-size N] -o OUT\n"
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
      "trace/op_kernels.csv. Default mode adds the per-step table (ProfilerStep annotations or\n"
      "serving step labels) and the allocator's memory timeline to findings.json, analysis.md\n"
      "and report.html, and writes perf_report_csvs/memory_timeline.csv when the trace has\n"
      "allocator events (profile_memory=True). The platform's peaks come from --arch FILE,\n"
      "--platform NAME, the trace's deviceProperties (device name, else compute units and\n"
      "memory), or MI300X, in that order; with --trace2, trace 2 gets its own platform the\n"
      "same way (--platform2, --arch2, its deviceProperties, else trace 1's; --compat\n"
      "tracelens: trace 1's).\n\n"
      "With --trace2, the analysis is comparative (TRACE is trace 1, TRACE2 trace 2): the two\n"
      "call trees are aligned, perf_report_trace1_csvs/ gets diff_stats.csv and the comparison\n"
      "columns, perf_report_trace2_csvs/ holds trace 2's report, fusion candidates are modules\n"
      "that run more kernels in trace 1 than in trace 2, and the manifest carries trace 2's\n"
      "utilization and per-category time.\n\n"
      "With --capture-trace CAP (repeatable; default mode), the kernels TRACE replays from GPU\n"
      "graphs are matched to a trace of the graphs' capture (e.g. vLLM's capture_traces/): each\n"
      "replay's kernel sequence against the enqueue calls of each capture window; a matched\n"
      "replay's kernels get the captured ops, shapes and perf models like eager kernels.\n"
      "Unmatched replays, and capture traces that match no replay (ignored), are named on the\n"
      "terminal and in loupe_run.json (capture_traces).\n\n"
      "With --trace-glob or --trace-pattern (one trace per rank of a distributed run), every\n"
      "rank is analyzed as --trace does into OUT/rank_<r>/, several at once, and the ranks'\n"
      "collectives are matched into OUT/collective_report/ (TraceLens's nccl_*.csv and\n"
      "straggler_summary.csv; docs/multirank.md).\n\n"
      "Exit codes: 0 all categories OK/NO_DATA, 1 some category ERROR, 2 usage or unreadable "
      "input,\n3 a --fail-on condition matched (and no category ended in ERROR).\n\n"
      "Options");
  std::vector<std::string> only;
  std::vector<std::string> plugin_dirs;
  std::vector<std::string> capture_traces;
  visible.add_options()("help,h", "show this help")("output,o", po::value<std::string>(),
                                                    "write outputs here instead of into DIR")(
      "scope", po::value<std::string>(),
      "standalone | comparative (default: the manifest's comparison_scope)")(
      "only", po::value<std::vector<std::string>>(&only)->composing(),
      "analyze only these categories (comma-separated, repeatable), even if the manifest does not "
      "list them")(
      "plugin-dir", po::value<std::vector<std::string>>(&plugin_dirs)->composing(),
      "also search this directory for plugins (repeatable): after the bundled plugins, before "
      "the configuration file's plugin_dirs and $LOUPE_PLUGIN_PATH; the first plugin found for a "
      "name or category keeps it unless --prefer says otherwise")(
      "compat", po::value<std::string>(),
      "tracelens: reproduce TraceLens's numbers and quirks exactly")(
      "workload", po::value<std::string>(),
      "training | inference (when the manifest does not say)")(
      "no-isolate",
      "run plugins inside this process, with NO protection at all: no sandbox, no namespaces, no "
      "limits, no timeout; a plugin can do anything loupe can, and a crash stops loupe (debugging "
      "your own plugin only)")("trace", po::value<std::string>(),
                               "read this raw trace and write the analysis directory")(
      "trace2", po::value<std::string>(),
      "with --trace: compare against this second trace (comparative scope)")(
      "capture-trace", po::value<std::vector<std::string>>(&capture_traces)->composing(),
      "with --trace (default mode): a trace of the GPU-graph captures TRACE replays "
      "(repeatable); replayed kernels get the captured ops, shapes and perf models")(
      "platform", po::value<std::string>(),
      "with --trace: a bundled platform, any case (B200, H100, H200, MI300X, MI325X, MI355X)")(
      "arch", po::value<std::string>(),
      "with --trace: a platform spec JSON (name, mem_bw_gbps, memory_gb, max_achievable_tflops; "
      "optional host_link_gbps)")(
      "platform2", po::value<std::string>(),
      "with --trace2: trace 2's bundled platform (default: trace 2's own deviceProperties, "
      "else trace 1's platform)")("arch2", po::value<std::string>(),
                                  "with --trace2: trace 2's platform spec JSON")(
      "plugin-timeout", po::value<double>()->default_value(300.0),
      "seconds one plugin category may take (also its CPU-time limit)")(
      "plugin-memory", po::value<std::uint64_t>()->default_value(4096),
      "MB of memory one plugin child may allocate beyond what it inherits; 0: no limit")(
      "strict", "exit 2 before any work when a plugin file is rejected or shadowed")(
      "max-memory", po::value<std::uint64_t>(),
      "with --trace: refuse (exit 2, nothing written) when the run's peak memory, estimated "
      "from the trace files' sizes (a .json.gz's from its gzip trailer), exceeds this many MB")(
      "fail-on", po::value<std::string>(),
      "exit 3 when a finding or run fact matches, for CI (comma-separated, any matches): "
      "savings>5%, savings>2ms, idle>30%, comm>10%, total>100ms, findings>0, category=gemm, "
      "tier=system; numeric terms take > >= < <=, category/tier = or !=; savings terms read "
      "measured and modeled savings only")(
      "fail-on-heuristic", "with --fail-on: savings terms also read heuristic savings");
  add_preference_options(visible);
  add_verbosity_options(visible);
  po::options_description hidden;
  hidden.add_options()("dir", po::value<std::string>(), "analysis directory");
  add_multirank_options(visible, hidden);
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
  std::vector<core::FailTerm> fail_on;
  if (vm.count("fail-on") > 0) {
    try {
      fail_on = core::parse_fail_on(vm["fail-on"].as<std::string>());
    } catch (const core::FailOnError& e) {
      std::cerr << "loupe analyze: " << e.what() << "\n";
      return kExitUsage;
    }
  }
  if (is_multirank_request(vm)) {
    if (!fail_on.empty()) {
      std::cerr << "loupe analyze: --fail-on gates one run's findings.json; with --trace-glob /"
                   " --trace-pattern gate each OUT/rank_<r>/findings.json with diff-findings or a"
                   " per-rank run\n";
      return kExitUsage;
    }
    if (vm.count("max-memory") > 0) {
      std::cerr << "loupe analyze: --max-memory applies to --trace (one trace, or two with "
                   "--trace2)\n";
      return kExitUsage;
    }
    return run_multirank(args, vm);
  }
  for (const char* option : {"world-size", "rank-regex", "jobs", "mpi"}) {
    if (vm.count(option) > 0) {
      std::cerr << "loupe analyze: --" << option << " applies to --trace-glob / --trace-pattern\n";
      return kExitUsage;
    }
  }
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
  if (!from_trace && (vm.count("platform") > 0 || vm.count("arch") > 0 || vm.count("trace2") > 0 ||
                      vm.count("max-memory") > 0)) {
    std::cerr << "loupe analyze: --trace2, --platform, --arch and --max-memory apply to --trace "
                 "only\n";
    return kExitUsage;
  }
  if (!capture_traces.empty() && !from_trace) {
    std::cerr << "loupe analyze: --capture-trace applies to --trace only\n";
    return kExitUsage;
  }
  if (!capture_traces.empty() && vm.count("trace2") > 0) {
    std::cerr << "loupe analyze: --capture-trace works on one trace; it cannot be combined with "
                 "--trace2\n";
    return kExitUsage;
  }
  if (!capture_traces.empty() && vm.count("compat") > 0) {
    std::cerr << "loupe analyze: --capture-trace is a default-mode feature; --compat tracelens "
                 "reproduces TraceLens's report without it\n";
    return kExitUsage;
  }
  if (vm.count("platform") > 0 && vm.count("arch") > 0) {
    std::cerr << "loupe analyze: give either --platform or --arch, not both\n";
    return kExitUsage;
  }
  if ((vm.count("platform2") > 0 || vm.count("arch2") > 0) && vm.count("trace2") == 0) {
    std::cerr << "loupe analyze: --platform2 and --arch2 apply to --trace2 only\n";
    return kExitUsage;
  }
  if (vm.count("platform2") > 0 && vm.count("arch2") > 0) {
    std::cerr << "loupe analyze: give either --platform2 or --arch2, not both\n";
    return kExitUsage;
  }
  const fs::path dir =
      from_trace ? fs::path(vm["output"].as<std::string>()) : fs::path(vm["dir"].as<std::string>());

  core::AnalyzeOptions options;
  options.output_dir = vm.count("output") > 0 ? fs::path(vm["output"].as<std::string>()) : dir;
  if (vm.count("scope") > 0) {
    options.scope = scope_from_string(vm["scope"].as<std::string>());
    if (!options.scope) {
      std::cerr << "loupe analyze: --scope must be standalone or comparative\n";
      return kExitUsage;
    }
  }
  if (vm.count("compat") > 0) {
    if (vm["compat"].as<std::string>() != "tracelens") {
      std::cerr << "loupe analyze: --compat accepts only 'tracelens'\n";
      return kExitUsage;
    }
    options.compat = Compat::TraceLens;
  }
  if (vm.count("workload") > 0) {
    const std::string workload = vm["workload"].as<std::string>();
    if (workload == "training") options.workload = Workload::Training;
    if (workload == "inference") options.workload = Workload::Inference;
    if (!options.workload) {
      std::cerr << "loupe analyze: --workload must be training or inference\n";
      return kExitUsage;
    }
  }
  options.only = split_categories(only);
  options.isolate = vm.count("no-isolate") == 0;
  const double timeout_s = vm["plugin-timeout"].as<double>();
  if (!(timeout_s > 0) || timeout_s > 86400.0) {
    std::cerr << "loupe analyze: --plugin-timeout must be between 0 and 86400 seconds\n";
    return kExitUsage;
  }
  options.timeout = std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000.0));
  options.memory_mb = vm["plugin-memory"].as<std::uint64_t>();
  if (options.memory_mb > (std::uint64_t{1} << 24)) {
    std::cerr << "loupe analyze: --plugin-memory is in MB; " << options.memory_mb
              << " is more than any machine has\n";
    return kExitUsage;
  }

  // Every input and the output directory are checked before any work starts.
  if (from_trace) {
    if (!check_readable_file(vm["trace"].as<std::string>(), "--trace")) return kExitUsage;
    if (vm.count("trace2") > 0 &&
        !check_readable_file(vm["trace2"].as<std::string>(), "--trace2")) {
      return kExitUsage;
    }
    if (!check_trace_format(vm["trace"].as<std::string>(), "--trace", "analyze")) {
      return kExitUsage;
    }
    for (const auto& capture : capture_traces) {
      if (!check_readable_file(capture, "--capture-trace") ||
          !check_trace_format(capture, "--capture-trace", "analyze")) {
        return kExitUsage;
      }
    }
    if (vm.count("trace2") > 0 &&
        !check_trace_format(vm["trace2"].as<std::string>(), "--trace2", "analyze")) {
      return kExitUsage;
    }
    for (const char* option : {"arch", "arch2"}) {
      if (vm.count(option) > 0 && !check_readable_file(vm[option].as<std::string>(),
                                                       option[4] == '2' ? "--arch2" : "--arch")) {
        return kExitUsage;
      }
    }
    if (vm.count("max-memory") > 0 &&
        !check_memory_limit(vm["max-memory"].as<std::uint64_t>(), vm)) {
      return kExitUsage;
    }
    for (const auto& [platform, arch] : {std::pair{"platform", "arch"}, {"platform2", "arch2"}}) {
      if (vm.count(platform) == 0 && vm.count(arch) == 0) continue;
      try {
        core::prepare::select_arch(
            vm.count(arch) > 0 ? std::optional<fs::path>(vm[arch].as<std::string>()) : std::nullopt,
            vm.count(platform) > 0 ? std::optional<std::string>(vm[platform].as<std::string>())
                                   : std::nullopt,
            {});
      } catch (const std::exception& e) {
        std::cerr << "loupe analyze: "
                  << (vm.count(platform) > 0 ? "--" + std::string(platform) + ": " : std::string())
                  << e.what() << "\n";
        return kExitUsage;
      }
    }
  } else if (!check_analysis_dir(dir)) {
    return kExitUsage;
  }
  if (const std::string why = check_writable_dir(options.output_dir); !why.empty()) {
    std::cerr << "loupe analyze: cannot write into " << options.output_dir.string() << ": " << why
              << "\n";
    return kExitUsage;
  }

  PluginConfig config;
  if (const std::string why = load_plugin_config(vm, config); !why.empty()) {
    std::cerr << "loupe analyze: " << why << "\n";
    return kExitUsage;
  }
  std::vector<fs::path> explicit_dirs(plugin_dirs.begin(), plugin_dirs.end());
  explicit_dirs.insert(explicit_dirs.end(), config.plugin_dirs.begin(), config.plugin_dirs.end());
  core::DiscoveryOptions discovery;
  discovery.isolate = options.isolate;
  discovery.timeout = std::min(options.timeout, discovery.timeout);
  discovery.preferences = config.preferences;
  discovery.displaced_contribute = config.displaced_contribute;
  const auto plugins = core::discover_plugins(core::plugin_search_path(explicit_dirs), discovery);
  if (!plugins.missing_dirs.empty()) {
    for (const auto& d : plugins.missing_dirs) {
      std::cerr << "loupe analyze: plugin directory " << d.string() << " does not exist\n";
    }
    return kExitUsage;
  }
  if (!plugins.preference_errors.empty() || !plugins.selector_errors.empty()) {
    for (const auto& e : plugins.preference_errors) std::cerr << "loupe analyze: " << e << "\n";
    for (const auto& e : plugins.selector_errors) std::cerr << "loupe analyze: " << e << "\n";
    std::cerr << "loupe analyze: stopped before any work\n";
    return kExitUsage;
  }
  for (const auto& d : plugins.displaced) {
    spdlog::info("{}: analyzed by plugin '{}' instead of '{}' ({})", d.category, d.preferred,
                 d.plugin, d.source);
  }
  if (!report_plugin_problems(plugins, vm.count("strict") > 0)) return kExitUsage;
  if (plugins.plugins.empty()) {
    std::cerr << "loupe analyze: no plugins found (see `loupe plugins`)\n";
    return kExitUsage;
  }
  // Early check before any work; routing by the manifest's skill is decided once the inputs
  // are loaded (plan_runs), so with a fallback plugin every name may still find its analyzer.
  const bool has_fallback =
      plugins.fallback(Tier::Compute) != nullptr || plugins.fallback(Tier::System) != nullptr;
  for (const auto& name : options.only) {
    if (plugins.find_by_category(name) == nullptr && !has_fallback) {
      std::cerr << "loupe analyze: --only " << name
                << ": no loaded plugin handles this category (see `loupe plugins`)\n";
      return kExitUsage;
    }
  }

  core::prepare::TraceViews trace_views;
  if (from_trace) {
    TraceToDirectoryOptions trace_options;
    trace_options.trace = vm["trace"].as<std::string>();
    if (vm.count("trace2") > 0) trace_options.trace2 = fs::path(vm["trace2"].as<std::string>());
    trace_options.output_dir = dir;
    if (vm.count("platform") > 0) trace_options.platform = vm["platform"].as<std::string>();
    if (vm.count("arch") > 0) trace_options.arch_file = fs::path(vm["arch"].as<std::string>());
    if (vm.count("platform2") > 0) trace_options.platform2 = vm["platform2"].as<std::string>();
    if (vm.count("arch2") > 0) trace_options.arch_file2 = fs::path(vm["arch2"].as<std::string>());
    trace_options.compat_tracelens = options.compat == Compat::TraceLens;
    trace_options.quiet = vm.count("quiet") > 0;
    trace_options.vendor_selectors = core::prepare::vendor_selectors(plugins);
    for (const auto& capture : capture_traces) trace_options.capture_traces.emplace_back(capture);
    if (vm.count("collectives-out") > 0) {
      trace_options.on_loaded = collectives_writer(vm["collectives-out"].as<std::string>());
    }
    trace_options.before_write = [&dir] {
      if (const auto n = core::remove_previous_run(dir, core::PreviousRunScope::Everything)) {
        spdlog::info("removed the {} files of the previous run in {}", n, dir.string());
      }
    };
    WrittenDirectory written;
    if (const int rc = write_directory_from_trace(trace_options, written); rc != kExitOk) {
      return rc;
    }
    trace_views = std::move(written.views);
    options.run_graph = trace_views.run_graph;
    options.prepared_files = std::move(written.files);
    options.capture_traces = std::move(written.capture_traces);
    // The trace model and tree are gone: hand their pages back, so each forked plugin child
    // maps a small heap (fewer pages to share, fewer copy-on-write faults).
    ::malloc_trim(0);
  } else {
    // Plan on the directory's outline first: a request that cannot run (an --only name no
    // plugin takes, a manifest of the wrong shape) stops before any file is touched.
    try {
      std::vector<std::string> unhandled;
      (void)core::plan_runs(core::outline_analysis_directory(dir), plugins, options.only,
                            unhandled);
    } catch (const core::PlanError& e) {
      std::cerr << "loupe analyze: " << dir.string() << ": " << e.what() << "\n";
      return kExitUsage;
    }
    // Re-analyzing: the previous run's analyzer outputs go first, so no plugin reads them as
    // inputs and no stale file stays beside the new ones.
    std::error_code ec;
    const bool in_place = fs::equivalent(dir, options.output_dir, ec);
    try {
      const auto n = core::remove_previous_run(
          options.output_dir,
          in_place ? core::PreviousRunScope::AnalysisOnly : core::PreviousRunScope::Everything);
      if (n > 0) {
        spdlog::info("removed the {} files of the previous run in {}", n,
                     options.output_dir.string());
      }
    } catch (const std::exception& e) {
      std::cerr << "loupe analyze: " << e.what() << "\n";
      return kExitUsage;
    }
  }

  core::Model model;
  try {
    model = core::load_analysis_directory(
        dir, options.compat == Compat::TraceLens ? core::ArchSet::kTraceLens : core::ArchSet::kAll);
  } catch (const core::InputError& e) {
    std::cerr << "loupe analyze: " << e.what() << "\n";
    return kExitUsage;
  }
  for (const auto& [name, why] : model.load_errors()) spdlog::warn("cannot load {}", why);
  if (from_trace) core::prepare::install_trace_views(model, trace_views);

  try {
    std::error_code ec;
    fs::create_directories(options.output_dir, ec);
    if (ec) {
      std::cerr << "loupe analyze: cannot create " << options.output_dir.string() << ": "
                << ec.message() << "\n";
      return kExitUsage;
    }
    const auto report = core::run_analysis(model, plugins, options);
    if (vm.count("quiet") == 0) print_summary(report, options.output_dir);
    if (report.any_error()) return kExitFindings;
    return gate(fail_on, report.run_findings, vm.count("fail-on-heuristic") > 0) ? kExitGate
                                                                                 : kExitOk;
  } catch (const core::PlanError& e) {
    std::cerr << "loupe analyze: " << dir.string() << ": " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace loupe::cli
