#include "multirank_driver.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include <spdlog/spdlog.h>

#include "analyze_options.hpp"
#include "loupe/core/model/model.hpp"
#include "loupe/core/prepare/collective_report.hpp"
#include "loupe/core/render/renderer.hpp"
#include "loupe/core/report/cross_rank.hpp"
#include "loupe/core/report/rank_set_findings.hpp"
#include "loupe/core/report/run_findings.hpp"
#include "loupe/core/run/run_outputs.hpp"
#include "loupe/core/util/atomic_file.hpp"
#include "loupe/core/util/json_convert.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/core/validate/validator.hpp"
#include "loupe/json_value.hpp"
#include "loupe/layout.hpp"
#include "multirank_files.hpp"
#include "multirank_mpi.hpp"
#include "multirank_pool.hpp"

namespace loupe::cli {

namespace fs = std::filesystem;
namespace lm = loupe::core::multirank;

namespace {

constexpr const char* kReportDir = "collective_report";
constexpr const char* kWorkDir = ".loupe_multirank";
constexpr const char* kFindingsFile = "system_findings/multirank_findings.md";

// The findings document as markdown, checked by the validator; throws when either refuses it.
std::string render_cross_rank_findings(const findings::Document& doc, const fs::path& out) {
  std::string text =
      core::render_findings_json(dump_python_json(findings::to_json(doc), -1, false));
  const auto result =
      core::validate_findings_in_memory(text, out / kFindingsFile, std::nullopt, "system",
                                        Scope::Standalone, core::ValidationMode::Default);
  if (!result.passed) {
    std::string why;
    for (const auto& e : result.errors) why += (why.empty() ? "" : "; ") + e;
    throw std::runtime_error("the validator refused the file: " + why);
  }
  return text;
}

Json problem_json(const lm::InputProblem& p) {
  Json j = Json::object();
  j["rank"] = p.rank ? Json(*p.rank) : Json(nullptr);
  j["collective_id"] = Json(p.collective_id);
  j["excluded"] = Json(p.excluded);
  j["reason"] = Json(p.reason);
  return j;
}

std::string describe(const lm::InputProblem& p) {
  std::string out;
  if (p.rank) out += "rank " + std::to_string(*p.rank);
  if (!p.collective_id.empty())
    out += (out.empty() ? "" : ", ") + ("collective " + p.collective_id);
  return out + ": " + p.reason;
}

}  // namespace

void add_multirank_options(po::options_description& visible) {
  visible.add_options()(
      "trace-glob", po::value<std::string>(),
      "many ranks: analyze every trace matching this glob (`**` crosses directories); each "
      "file's rank is read from its name with --rank-regex")(
      "trace-pattern", po::value<std::string>(),
      "many ranks: trace files named by this path with one `*` standing for the rank")(
      "rank-regex", po::value<std::string>(),
      (std::string("with --trace-glob: where the rank is in a file name (group `rank`, else "
                   "group 1); default ") +
       kDefaultRankRegex)
          .c_str())("world-size", po::value<int>(),
                    "number of ranks (default: highest rank found + 1); every rank below it "
                    "must have exactly one file")(
      "collectives-only",
      "many ranks: only the collective report and the cross-rank findings (stragglers, slow "
      "collectives); each rank's trace is read for its collectives and GPU time split, with no "
      "per-rank analysis and no rank_<r>/")(
      "jobs", po::value<unsigned>(),
      "many ranks: ranks analyzed at once (default: from free memory and the first rank's "
      "measured peak, at most one per core)")(
      "mpi", built_with_mpi()
                 ? "many ranks, under mpirun: the MPI processes share the ranks; process 0 "
                   "writes the report (the same bytes as one process)"
                 : "many ranks, under mpirun (this loupe was built without MPI: refused)");
}

bool is_multirank_request(const po::variables_map& vm) {
  return vm.count("trace-glob") > 0 || vm.count("trace-pattern") > 0;
}

// findings.json of the set: the cross-rank cards and every rank's own findings.json, merged by id
// (docs/findings-schema.md, "Rank-set findings"), each as its child handed it back. A rank
// without a readable findings.json is listed as such.
std::string rank_set_findings(const lm::CrossRankAnalysis& analysis,
                              const findings::Document& cross_rank,
                              const std::vector<RankRun>& runs, int world, const fs::path& out) {
  core::RankSetFindingsInput input;
  input.world_size = world;
  const auto identities = lm::cross_rank_card_identities(analysis);
  for (std::size_t i = 0; i < cross_rank.recommendations.size() && i < identities.size(); ++i) {
    input.cross_rank.push_back({identities[i], cross_rank.recommendations[i]});
  }
  input.median_rank_gpu_ms = lm::median_rank_gpu_ms(analysis);
  input.cross_rank_findings_file = kFindingsFile;
  for (const RankRun& run : runs) {
    core::RankFindings rank{run.rank, Json()};
    const fs::path file = out / ("rank_" + std::to_string(run.rank)) / core::kRunFindingsFile;
    try {
      if (!run.findings_json.empty()) {
        rank.document = core::to_owned_json(*core::parse_json_document(run.findings_json));
      }
    } catch (const std::exception& e) {
      spdlog::warn("{}: {}; rank {} left out of findings.json", file.string(), e.what(), run.rank);
    }
    input.ranks.push_back(std::move(rank));
  }
  return dump_python_json(core::build_rank_set_findings(input), 2) + "\n";
}

namespace {

// The rank set and how to run it, checked before any work.
struct RankSetRequest {
  RankFiles files;
  std::filesystem::path out;
  std::optional<unsigned> jobs;
  bool compat = false;
};

// Usage first, then the rank set, then the output directory; nullopt after saying what is wrong.
std::optional<RankSetRequest> rank_set_request(const po::variables_map& vm) {
  const auto refuse = [](const std::string& why) {
    std::cerr << "loupe analyze: " << why << "\n";
    return std::nullopt;
  };
  if (vm.count("trace-glob") > 0 && vm.count("trace-pattern") > 0) {
    return refuse("give either --trace-glob or --trace-pattern, not both");
  }
  for (const char* single : {"trace", "trace2", "dir"}) {
    if (vm.count(single) > 0) {
      return refuse("--trace-glob / --trace-pattern analyze many ranks; " +
                    (std::string(single) == "dir" ? std::string("an analysis directory")
                                                  : "--" + std::string(single)) +
                    " cannot be given with them");
    }
  }
  if (vm.count("output") == 0) {
    return refuse("many ranks need -o OUT (where rank_<r>/ and collective_report/ are written)");
  }
  if (vm.count("rank-regex") > 0 && vm.count("trace-pattern") > 0) {
    return refuse(
        "--rank-regex applies to --trace-glob (with --trace-pattern the `*` is the rank)");
  }
  RankFileRequest files;
  if (vm.count("trace-glob") > 0) files.glob = vm["trace-glob"].as<std::string>();
  if (vm.count("trace-pattern") > 0) files.pattern = vm["trace-pattern"].as<std::string>();
  if (vm.count("rank-regex") > 0) files.rank_regex = vm["rank-regex"].as<std::string>();
  if (vm.count("world-size") > 0) {
    const int world = vm["world-size"].as<int>();
    if (world < 1 || world > kMaxWorldSize) {
      return refuse("--world-size must be a number of ranks from 1 to " +
                    std::to_string(kMaxWorldSize));
    }
    files.world_size = world;
  }
  RankSetRequest request;
  if (vm.count("jobs") > 0) {
    request.jobs = vm["jobs"].as<unsigned>();
    if (*request.jobs == 0 || *request.jobs > 4096) {
      return refuse("--jobs must be between 1 and 4096");
    }
  }
  request.files = resolve_rank_files(files);
  if (!request.files.error.empty()) return refuse(core::escape_for_terminal(request.files.error));
  for (const fs::path& trace : request.files.by_rank) {
    if (!check_readable_file(trace, "--trace-glob") ||
        !check_trace_format(trace, "--trace-glob", "analyze")) {
      return std::nullopt;
    }
  }
  request.out = vm["output"].as<std::string>();
  if (const std::string why = check_writable_dir(request.out); !why.empty()) {
    return refuse("cannot write into " + request.out.string() + ": " + why);
  }
  request.compat = vm.count("compat") > 0;
  return request;
}

// Process 0 clears the previous run and makes the directories; every process learns whether
// that worked before any rank starts.
bool clear_output(const fs::path& out, const MpiJob& job) {
  int prepared_ok = 1;
  if (job.rank == 0) {
    try {
      if (const auto n = core::remove_previous_run(out, core::PreviousRunScope::Everything)) {
        spdlog::info("removed the {} files of the previous run in {}", n, out.string());
      }
      fs::create_directories(out / kWorkDir);
    } catch (const std::exception& e) {
      std::cerr << "loupe analyze: " << e.what() << "\n";
      prepared_ok = 0;
    }
  }
  return mpi_broadcast(job, prepared_ok) != 0;
}

// Runs this process's share of the ranks (every rank, or with --mpi the ranks r with
// r % size == its rank); under MPI, process 0 gathers the others' results. False on a process
// other than 0 (it has nothing more to do) or when a result is unreadable (`failed` set).
bool run_ranks(std::vector<RankRun>& runs, ChildPool& pool, std::optional<unsigned> jobs,
               const MpiJob& job, unsigned& pool_size, bool& failed) {
  std::vector<RankRun*> share;
  for (RankRun& run : runs) {
    if (run.rank % job.size == job.rank) share.push_back(&run);
  }
  spdlog::info("analyzing {} of {} ranks", share.size(), runs.size());
  pool_size = run_share(share, pool, jobs);
  if (job.size <= 1) return true;
  std::string mine;
  for (const RankRun* run : share) mine += run_to_text(*run) + "\n";
  const std::vector<std::string> all = mpi_gather(job, mine);
  if (job.rank != 0) return false;
  for (const std::string& text : all) {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
      if (!run_from_text(line, runs)) {
        std::cerr << "loupe analyze: --mpi: a process sent an unreadable result\n";
        failed = true;
        return false;
      }
    }
  }
  return true;
}

// The ranks' collective tables, and a problem for each rank that could not be read.
std::vector<lm::RankCollectives> collect_collectives(const std::vector<RankRun>& runs,
                                                     std::vector<lm::InputProblem>& problems) {
  std::vector<lm::RankCollectives> collected;
  for (const RankRun& run : runs) {
    std::optional<lm::RankCollectives> parsed;
    if (run.exit_code == kExitOk || run.exit_code == kExitFindings) {
      parsed = lm::parse_rank_collectives(run.collectives);
    }
    if (!parsed) {
      problems.push_back({run.rank,
                          {},
                          run.trace.string() + " could not be analyzed (exit code " +
                              std::to_string(run.exit_code) +
                              ", reason above); left out of the collective report",
                          true});
      continue;
    }
    parsed->rank = run.rank;
    for (auto& row : parsed->rows) row.rank = run.rank;
    collected.push_back(std::move(*parsed));
  }
  return collected;
}

// The report's problems after the ranks' own: a rank that failed is named once, with its
// reason, not again as "no trace".
std::vector<lm::InputProblem> merge_problems(const std::vector<lm::InputProblem>& rank_problems,
                                             std::vector<lm::InputProblem> report_problems) {
  std::vector<lm::InputProblem> problems = rank_problems;
  for (auto& p : report_problems) {
    const bool duplicate = p.collective_id.empty() && p.rank &&
                           std::any_of(rank_problems.begin(), rank_problems.end(),
                                       [&](const auto& q) { return q.rank == p.rank; });
    if (!duplicate) problems.push_back(std::move(p));
  }
  return problems;
}

// Default mode: the cross-rank findings (rendered and validated like every system-tier file)
// and the set's one ranked findings.json. Each rank's GPU time split is what its child handed
// back (from its analysis, or with --collectives-only from the trace alone).
struct CrossRankOutputs {
  std::string findings_text;
  std::string set_findings_text;
};
CrossRankOutputs cross_rank_outputs(const std::vector<lm::RankCollectives>& kept,
                                    const lm::CollectiveReport& report,
                                    const std::vector<RankRun>& runs, const RankSpec& spec,
                                    const fs::path& out) {
  std::vector<lm::RankTimeline> timelines;
  for (const RankRun& run : runs) {
    if (const auto t = lm::parse_gpu_timeline(run.rank, run.timeline_csv)) timelines.push_back(*t);
  }
  const int world = static_cast<int>(runs.size());
  const auto analysis = lm::analyze_cross_rank(kept, world, report.gpus_per_node, timelines);
  const auto cross_rank = lm::cross_rank_findings(analysis);
  CrossRankOutputs outputs;
  outputs.findings_text = render_cross_rank_findings(cross_rank, out);
  // --collectives-only: no rank has findings of its own; the set's list is the cross-rank one.
  const std::vector<RankRun> no_ranks;
  outputs.set_findings_text =
      rank_set_findings(analysis, cross_rank, spec.collectives_only ? no_ranks : runs, world, out);
  return outputs;
}

// loupe_run.json of the set: every rank's trace, exit code, peak memory and time, how many ran
// at once, the node size, every input problem, and every file written (so that a rerun into the
// same OUT removes them first).
Json run_record(const lm::CollectiveReport& report, const std::vector<RankRun>& runs,
                const CrossRankOutputs& cross, const std::vector<lm::InputProblem>& problems,
                unsigned pool_size, bool collectives_only) {
  Json prepared = Json::array();
  for (const auto& file : report.files) {
    prepared.as_array().push_back(Json(std::string(kReportDir) + "/" + file.name));
  }
  Json ranks_json = Json::array();
  for (const RankRun& run : runs) {
    const std::string dir = "rank_" + std::to_string(run.rank);
    for (const std::string& f : run.outputs) prepared.as_array().push_back(Json(dir + "/" + f));
    Json r = Json::object();
    r["rank"] = Json(run.rank);
    r["trace"] = Json(run.trace.string());
    r["exit_code"] = Json(run.exit_code);
    r["peak_rss_mb"] = Json(static_cast<double>(run.peak_kb) / 1024.0);
    r["seconds"] = Json(run.seconds);
    ranks_json.as_array().push_back(std::move(r));
  }
  Json outputs = Json::object();
  outputs["prepared"] = std::move(prepared);
  Json analysis_files = Json(Json::Array{Json(layout::kRunRecord)});
  if (!cross.findings_text.empty()) analysis_files.as_array().push_back(Json(kFindingsFile));
  if (!cross.set_findings_text.empty()) {
    analysis_files.as_array().push_back(Json(core::kRunFindingsFile));
  }
  outputs["analysis"] = std::move(analysis_files);
  Json multirank = Json::object();
  multirank["world_size"] = Json(static_cast<int>(runs.size()));
  multirank["collectives_only"] = Json(collectives_only);
  multirank["ranks_at_once"] = Json(pool_size);
  multirank["gpus_per_node"] = report.gpus_per_node ? Json(*report.gpus_per_node) : Json(nullptr);
  multirank["matched_by_stream_order"] = Json(report.matched_by_stream_order);
  multirank["ranks"] = std::move(ranks_json);
  Json problems_json = Json::array();
  for (const auto& p : problems) problems_json.as_array().push_back(problem_json(p));
  multirank["problems"] = std::move(problems_json);
  Json record = Json::object();
  record["multirank"] = std::move(multirank);
  record["outputs"] = std::move(outputs);
  return record;
}

// The terminal summary; returns the exit code (1 when a rank failed or a rank or collective was
// left out).
int print_rank_set_summary(const std::vector<RankRun>& runs, const lm::CollectiveReport& report,
                           const CrossRankOutputs& cross,
                           const std::vector<lm::InputProblem>& problems, bool collectives_only,
                           const fs::path& out, std::chrono::steady_clock::time_point start) {
  int exit_code = kExitOk;
  std::cout << "Loupe multi-rank " << (collectives_only ? "collective report" : "analysis") << " ("
            << runs.size() << " ranks) -> " << out.string() << "\n";
  for (const RankRun& run : runs) {
    std::cout << "  rank " << run.rank << "\t"
              << (run.exit_code == kExitOk         ? "OK"
                  : run.exit_code == kExitFindings ? "some category ERROR"
                                                   : "FAILED");
    if (!collectives_only) std::cout << "\trank_" << run.rank << "/";
    std::cout << "\t(" << run.trace.string() << ")\n";
    if (run.exit_code != kExitOk) exit_code = kExitFindings;
  }
  std::cout << "  collective report: " << report.files.size() << " tables in " << kReportDir
            << "/\n";
  if (!cross.findings_text.empty()) std::cout << "  cross-rank findings: " << kFindingsFile << "\n";
  if (!cross.set_findings_text.empty()) {
    std::cout << "  every finding of the set, ranked: " << core::kRunFindingsFile << "\n";
  }
  for (const auto& p : problems) {
    std::cout << "  " << (p.excluded ? "excluded: " : "note: ") << describe(p) << "\n";
    if (p.excluded) exit_code = kExitFindings;
  }
  std::cout << "Run record: " << (out / layout::kRunRecord).string() << " ("
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s)\n";
  return exit_code;
}

// Every rank's options and plugins, checked once before any work; nullopt after saying why.
std::optional<RankSpec> rank_spec(const po::variables_map& vm,
                                  std::optional<core::PluginSet>& plugins) {
  RankSpec spec;
  spec.collectives_only = vm.count("collectives-only") > 0;
  auto analyze = analyze_options(vm);
  if (!analyze || !check_platform_options(vm)) return std::nullopt;
  if (!spec.collectives_only) {
    plugins = discover(vm, *analyze);
    if (!plugins) return std::nullopt;
    spec.plugins = &*plugins;
  }
  spec.analyze = std::move(*analyze);
  spec.inputs = trace_inputs(vm);
  spec.verbose = vm.count("verbose") > 0;
  spec.level_given = spec.verbose || vm.count("quiet") > 0;
  return spec;
}

int run_multirank_job(const po::variables_map& vm, const MpiJob& job) {
  const auto start = std::chrono::steady_clock::now();
  const auto request = rank_set_request(vm);
  if (!request) return kExitUsage;
  std::optional<core::PluginSet> plugins;
  const auto spec = rank_spec(vm, plugins);
  if (!spec) return kExitUsage;
  const fs::path& out = request->out;
  if (!clear_output(out, job)) return kExitUsage;

  std::vector<RankRun> runs(request->files.by_rank.size());
  for (std::size_t r = 0; r < runs.size(); ++r) {
    runs[r].rank = static_cast<int>(r);
    runs[r].trace = request->files.by_rank[r];
  }
  ChildPool pool(*spec, out, out / kWorkDir);
  unsigned pool_size = 0;
  bool failed = false;
  if (!run_ranks(runs, pool, request->jobs, job, pool_size, failed)) {
    return failed ? kExitUsage : kExitOk;
  }
  std::error_code ec;
  fs::remove_all(out / kWorkDir, ec);
  if (std::all_of(runs.begin(), runs.end(),
                  [](const RankRun& r) { return r.exit_code == kExitUsage; })) {
    std::cerr << "loupe analyze: no rank could be analyzed (every rank stopped with the error "
                 "above); nothing written\n";
    return kExitUsage;
  }

  std::vector<lm::InputProblem> rank_problems;
  std::vector<lm::RankCollectives> collected = collect_collectives(runs, rank_problems);
  lm::ReportOptions report_options;
  report_options.world_size = static_cast<int>(runs.size());
  const std::vector<lm::RankCollectives> kept = collected;
  lm::CollectiveReport report = lm::build_collective_report(std::move(collected), report_options);
  const auto problems = merge_problems(rank_problems, std::move(report.problems));

  CrossRankOutputs cross;
  if (!request->compat) {
    try {
      cross = cross_rank_outputs(kept, report, runs, *spec, out);
    } catch (const std::exception& e) {
      std::cerr << "loupe analyze: cross-rank findings: " << e.what() << "\n";
      return kExitFindings;
    }
  }
  std::vector<std::pair<fs::path, std::string_view>> writes;
  for (const auto& file : report.files)
    writes.emplace_back(out / kReportDir / file.name, file.text);
  if (!cross.findings_text.empty()) writes.emplace_back(out / kFindingsFile, cross.findings_text);
  if (!cross.set_findings_text.empty()) {
    writes.emplace_back(out / core::kRunFindingsFile, cross.set_findings_text);
  }
  try {
    fs::create_directories(out / kReportDir);
    if (!cross.findings_text.empty()) fs::create_directories((out / kFindingsFile).parent_path());
    core::write_files_atomically(writes);
    const Json record =
        run_record(report, runs, cross, problems, pool_size, spec->collectives_only);
    core::write_file_atomically(out / layout::kRunRecord, dump_python_json(record, 2) + "\n");
  } catch (const std::exception& e) {
    std::cerr << "loupe analyze: " << e.what() << "\n";
    return kExitUsage;
  }
  return print_rank_set_summary(runs, report, cross, problems, spec->collectives_only, out, start);
}

}  // namespace

int run_multirank(const po::variables_map& vm) {
  if (vm.count("mpi") == 0) return run_multirank_job(vm, MpiJob{});
  if (!built_with_mpi()) {
    std::cerr << "loupe analyze: --mpi: this loupe was built without MPI (install OpenMPI, "
                 "libopenmpi-dev, and rebuild); run without --mpi to use this machine's cores\n";
    return kExitUsage;
  }
  MpiSession session;
  const MpiJob job = session.job();
  if (job.rank != 0) {
    // Only process 0 reports; the others' children still print their own errors.
    std::cout.setstate(std::ios::failbit);
    std::cerr.setstate(std::ios::failbit);
    spdlog::set_level(spdlog::level::off);
  }
  return mpi_broadcast(job, run_multirank_job(vm, job));
}

}  // namespace loupe::cli
