#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <spdlog/spdlog.h>

#include "analyze_options.hpp"
#include "cli_common.hpp"
#include "loupe/core/model/analysis_dir.hpp"
#include "loupe/core/plugin/plugin_registry.hpp"
#include "loupe/core/prepare/arch_selection.hpp"
#include "loupe/core/report/analysis_report.hpp"
#include "loupe/core/report/fail_on.hpp"
#include "loupe/core/report/run_finding.hpp"
#include "loupe/core/report/serving_report.hpp"
#include "loupe/core/run/analysis_runner.hpp"
#include "loupe/core/run/run_outputs.hpp"
#include "loupe/core/session/session.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/layout.hpp"
#include "loupe/python_format.hpp"
#include "memory_estimate.hpp"
#include "multirank_driver.hpp"
#include "plugin_preferences.hpp"

namespace loupe::cli {

namespace fs = std::filesystem;

namespace {

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

std::string fixed3(double value) { return loupe::py::fixed(value, 3); }

// The step-checked findings applied together (findings.json `ledger.combined_step_gain_ms`): when
// several findings shorten the run down to one floor, their savings do not add up.
void print_combined_gain(const core::RunFindings& doc) {
  if (!doc.combined_step_gain_ms || !doc.combined_saving_sum_ms) return;
  const long long n = doc.step_checked;
  std::cout << "  The " << n << (n == 1 ? " finding" : " findings")
            << " replayed by the what-if, applied together, would shorten the run by "
            << fixed3(*doc.combined_step_gain_ms) << " ms";
  if (*doc.combined_saving_sum_ms > *doc.combined_step_gain_ms + 0.0005) {
    std::cout << ", not the " << fixed3(*doc.combined_saving_sum_ms)
              << " ms their savings sum to: they overlap in run time";
  }
  std::cout << " (docs/what-if.md)\n";
}

// Each category's status, and the plugin files not used.
void print_categories(const core::AnalyzeReport& report) {
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
}

// One finding's line: P-number, saving (a rule of thumb as the range it is), evidence, category,
// title, and the findings file that explains it.
void print_finding(const core::RunFinding& f) {
  const bool heuristic = f.evidence == findings::Evidence::Heuristic;
  std::string saving = "not quantified";
  if (f.saving_ms) {
    saving = heuristic ? fixed3(f.saving_ms->low) + "-" + fixed3(f.saving_ms->high) + " ms"
                       : fixed3(f.saving_ms->mid) + " ms";
    if (f.saving_percent_mid()) {
      char buf[32];
      std::snprintf(buf, sizeof buf, " (%.2f%%)", *f.saving_percent_mid());
      saving += buf;
    }
  }
  if (f.evidence) saving += std::string(" ") + findings::to_string(*f.evidence);
  std::string title = f.title;
  if (f.parts.size() > 0) title += " (+" + std::to_string(f.parts.size()) + " merged)";
  std::cout << "  P" << f.priority << "  " << saving << "\t"
            << core::escape_for_terminal(f.category) << "\t" << core::escape_for_terminal(title);
  if (!f.findings_file().empty()) std::cout << "\t" << core::escape_for_terminal(f.findings_file());
  std::cout << "\n";
}

// The ranked answer: what to fix first and what it should buy (findings.json has them all),
// each figure printed from the value stored there.
void print_top_findings(const core::RunFindings& doc) {
  if (doc.findings.empty()) return;
  std::cout << "Top findings";
  if (doc.total_time_ms) {
    std::cout << " (estimated saving of each, in ms of the run's " << fixed3(*doc.total_time_ms)
              << " ms; each GPU kernel's time is counted in one finding only)";
  }
  std::cout << ":\n";
  size_t shown = 0;
  size_t no_step_gain = 0;
  for (const auto& f : doc.findings) {
    // A kernel finding whose kernels the step does not wait on gains nothing: counted, not shown.
    if (f.step_gain_ms() && *f.step_gain_ms() < 0.0005) {
      ++no_step_gain;
      continue;
    }
    if (shown == kTopFindingsShown) continue;
    ++shown;
    print_finding(f);
  }
  if (doc.findings.size() > shown + no_step_gain) {
    std::cout << "  ... " << doc.findings.size() - shown - no_step_gain
              << " more in findings.json\n";
  }
  print_combined_gain(doc);
  if (no_step_gain > 0) {
    std::cout << "  " << no_step_gain << " kernel "
              << (no_step_gain == 1 ? "finding would" : "findings would")
              << " not shorten the run: the GPU does not wait on those kernels (findings.json "
                 "`what_if`, docs/what-if.md)\n";
  }
}

void print_summary(const core::AnalyzeReport& report, const fs::path& output_dir) {
  std::cout << "Loupe analysis (" << to_string(report.scope) << ") -> " << output_dir.string()
            << "\n";
  print_categories(report);
  if (const Json* serving = report.run_findings.find("serving")) {
    std::cout << "Serving steps and GPU graphs (analysis.md):\n";
    for (const auto& line : core::serving_summary_lines(*serving)) {
      std::cout << "  " << line << "\n";
    }
  }
  const core::RunFindings& doc = report.findings;
  print_top_findings(doc);
  if (doc.capture_findings > 0) {
    std::cout << "This trace records a GPU-graph capture, not a step: its " << doc.capture_findings
              << (doc.capture_findings == 1 ? " finding is" : " findings are")
              << " not ranked (findings.json `capture_findings`, `recording.trace_kind`)\n";
  }
  if (doc.unmodeled_ops > 0 && doc.unmodeled_time_ms) {
    std::cout << "Not covered by a performance model: " << fixed3(*doc.unmodeled_time_ms)
              << " ms in " << doc.unmodeled_ops << (doc.unmodeled_ops == 1 ? " op" : " ops")
              << " (findings.json `coverage`; no saving is claimed for them)\n";
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
    std::cout << "Run record: " << (output_dir / layout::kRunRecord).string() << "\n";
  }
}

// --fail-on: lists what matched; true when anything did.
bool gate(const std::vector<core::FailTerm>& terms, const core::RunFindings& run_findings,
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

std::string analyze_usage() {
  return "Usage: loupe analyze DIR [options]\n"
         "       loupe analyze --trace TRACE [--trace2 TRACE2 | --capture-trace CAP ...] -o OUT\n"
         "                     [--platform NAME | --arch FILE]\n"
         "                     [options]\n"
         "       loupe analyze --trace-glob GLOB | --trace-pattern PATTERN [--world-size N] -o "
         "OUT\n"
         "                     [options]\n\n"
         "Runs the analyzer plugins over the TraceLens-style analysis directory DIR, in "
         "dependency\n"
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
         "graphs are matched to a trace of the graphs' capture (e.g. vLLM's capture_traces/): "
         "each\n"
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
         "Options";
}

void add_analyze_options(po::options_description& visible) {
  visible.add_options()("help,h", "show this help")("output,o", po::value<std::string>(),
                                                    "write outputs here instead of into DIR")(
      "scope", po::value<std::string>(),
      "standalone | comparative (default: the manifest's comparison_scope)")(
      "only", po::value<std::vector<std::string>>()->composing(),
      "analyze only these categories (comma-separated, repeatable), even if the manifest does not "
      "list them")(
      "plugin-dir", po::value<std::vector<std::string>>()->composing(),
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
      "capture-trace", po::value<std::vector<std::string>>()->composing(),
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
}

// Options that do not go together, or apply to another mode: false after saying why.
bool check_single_run_options(const po::variables_map& vm) {
  for (const char* option : {"world-size", "rank-regex", "jobs", "mpi", "collectives-only"}) {
    if (vm.count(option) > 0) {
      std::cerr << "loupe analyze: --" << option << " applies to --trace-glob / --trace-pattern\n";
      return false;
    }
  }
  const bool from_trace = vm.count("trace") > 0;
  const char* problem = nullptr;
  if (from_trace && vm.count("dir") > 0) {
    problem = "give either DIR or --trace TRACE, not both";
  } else if (!from_trace && vm.count("dir") == 0) {
    problem = "missing DIR (the analysis directory) or --trace TRACE";
  } else if (from_trace && vm.count("output") == 0) {
    problem = "--trace needs -o OUT (where to write the analysis directory)";
  } else if (!from_trace && (vm.count("platform") > 0 || vm.count("arch") > 0 ||
                             vm.count("trace2") > 0 || vm.count("max-memory") > 0)) {
    problem = "--trace2, --platform, --arch and --max-memory apply to --trace only";
  } else if (vm.count("capture-trace") > 0 && !from_trace) {
    problem = "--capture-trace applies to --trace only";
  } else if (vm.count("capture-trace") > 0 && vm.count("trace2") > 0) {
    problem = "--capture-trace works on one trace; it cannot be combined with --trace2";
  } else if (vm.count("capture-trace") > 0 && vm.count("compat") > 0) {
    problem =
        "--capture-trace is a default-mode feature; --compat tracelens reproduces TraceLens's "
        "report without it";
  } else if (vm.count("platform") > 0 && vm.count("arch") > 0) {
    problem = "give either --platform or --arch, not both";
  } else if ((vm.count("platform2") > 0 || vm.count("arch2") > 0) && vm.count("trace2") == 0) {
    problem = "--platform2 and --arch2 apply to --trace2 only";
  } else if (vm.count("platform2") > 0 && vm.count("arch2") > 0) {
    problem = "give either --platform2 or --arch2, not both";
  }
  if (problem == nullptr) return true;
  std::cerr << "loupe analyze: " << problem << "\n";
  return false;
}

// Every --trace input checked before any work: readable, a PyTorch trace, a usable platform,
// within --max-memory. False after saying why.
bool check_trace_inputs(const po::variables_map& vm) {
  std::vector<std::pair<std::string, const char*>> traces{
      {vm["trace"].as<std::string>(), "--trace"}};
  if (vm.count("trace2") > 0) traces.emplace_back(vm["trace2"].as<std::string>(), "--trace2");
  if (vm.count("capture-trace") > 0) {
    for (const auto& capture : vm["capture-trace"].as<std::vector<std::string>>()) {
      traces.emplace_back(capture, "--capture-trace");
    }
  }
  for (const auto& [path, option] : traces) {
    if (!check_readable_file(path, option) || !check_trace_format(path, option, "analyze")) {
      return false;
    }
  }
  for (const char* option : {"arch", "arch2"}) {
    if (vm.count(option) > 0 && !check_readable_file(vm[option].as<std::string>(),
                                                     option[4] == '2' ? "--arch2" : "--arch")) {
      return false;
    }
  }
  if (vm.count("max-memory") > 0 && !check_memory_limit(vm["max-memory"].as<std::uint64_t>(), vm)) {
    return false;
  }
  return check_platform_options(vm);
}

// One run (a trace or an analysis directory) through a core::Session; the exit code.
int run_session(const po::variables_map& vm, core::AnalyzeOptions analyze,
                const std::vector<core::FailTerm>& fail_on) {
  const auto plugins = discover(vm, analyze);
  if (!plugins) return kExitUsage;
  const fs::path output_dir = analyze.output_dir;
  core::SessionOptions options = session_options(vm, std::move(analyze));
  options.vendor_selectors = core::prepare::vendor_selectors(*plugins);
  auto session =
      vm.count("trace") > 0
          ? core::Session::from_trace(trace_inputs(vm), std::move(options))
          : core::Session::from_directory(vm["dir"].as<std::string>(), std::move(options));
  if (!session) {
    std::cerr << "loupe analyze: " << session.error().message << "\n";
    return kExitUsage;
  }
  const auto report = session->run(*plugins);
  if (!report) {
    std::cerr << "loupe analyze: " << report.error().message << "\n";
    return kExitUsage;
  }
  if (vm.count("quiet") == 0) print_summary(*report, output_dir);
  if (report->any_error()) return kExitFindings;
  return gate(fail_on, report->findings, vm.count("fail-on-heuristic") > 0) ? kExitGate : kExitOk;
}

}  // namespace

int run_analyze(const std::vector<std::string>& args) {
  po::options_description visible(analyze_usage());
  add_analyze_options(visible);
  add_preference_options(visible);
  add_verbosity_options(visible);
  po::options_description hidden;
  hidden.add_options()("dir", po::value<std::string>(), "analysis directory");
  add_multirank_options(visible);
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
    return run_multirank(vm);
  }
  if (!check_single_run_options(vm)) return kExitUsage;
  auto options = analyze_options(vm);
  if (!options) return kExitUsage;
  // Every input and the output directory are checked before any work starts.
  if (vm.count("trace") > 0 ? !check_trace_inputs(vm)
                            : !check_analysis_dir(vm["dir"].as<std::string>())) {
    return kExitUsage;
  }
  if (const std::string why = check_writable_dir(options->output_dir); !why.empty()) {
    std::cerr << "loupe analyze: cannot write into " << options->output_dir.string() << ": " << why
              << "\n";
    return kExitUsage;
  }
  return run_session(vm, std::move(*options), fail_on);
}

}  // namespace loupe::cli
