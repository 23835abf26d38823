#include "multirank_driver.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include <spdlog/spdlog.h>

#include "analyze_options.hpp"
#include "json_text.hpp"
#include "loupe/core/atomic_file.hpp"
#include "loupe/core/json_convert.hpp"
#include "loupe/core/model.hpp"
#include "loupe/core/multirank/collective_report.hpp"
#include "loupe/core/multirank/cross_rank.hpp"
#include "loupe/core/renderer.hpp"
#include "loupe/core/report/rank_set_findings.hpp"
#include "loupe/core/report/run_findings.hpp"
#include "loupe/core/run_outputs.hpp"
#include "loupe/core/session/session.hpp"
#include "loupe/core/text_escape.hpp"
#include "loupe/core/validator.hpp"
#include "loupe/json_value.hpp"
#include "multirank_files.hpp"
#include "multirank_mpi.hpp"

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
  const auto result = core::validate_findings_text(
      text, out / kFindingsFile, "system", Scope::Standalone, core::ValidationMode::Default);
  if (!result.passed) {
    std::string why;
    for (const auto& e : result.errors) why += (why.empty() ? "" : "; ") + e;
    throw std::runtime_error("the validator refused the file: " + why);
  }
  return text;
}

std::uint64_t available_memory_kb() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t value = 0;
  std::string unit;
  while (meminfo >> key >> value >> unit) {
    if (key == "MemAvailable:") return value;
  }
  return 0;
}

struct RankRun {
  int rank = 0;
  fs::path trace;
  int exit_code = -1;  // -1: not run
  std::uint64_t peak_kb = 0;
  double seconds = 0.0;
  std::string collectives;  // the child's serialized RankCollectives; empty when it failed
};

// A RankRun as one line of JSON, and back (what an MPI process sends to process 0).
std::string run_to_text(const RankRun& run) {
  Json j = Json::object();
  j["rank"] = Json(run.rank);
  j["exit_code"] = Json(run.exit_code);
  j["peak_kb"] = Json(static_cast<std::int64_t>(run.peak_kb));
  j["seconds"] = Json(run.seconds);
  j["collectives"] = Json(run.collectives);
  return dump_python_json(j, -1);
}
bool run_from_text(std::string_view text, std::vector<RankRun>& runs) {
  const auto doc = core::prepare::try_parse_json_text(text);
  if (!doc || !doc->is_object()) return false;
  const Json* rank = doc->find("rank");
  if (rank == nullptr || !rank->is_int() || rank->as_int() < 0 ||
      rank->as_int() >= static_cast<std::int64_t>(runs.size())) {
    return false;
  }
  RankRun& run = runs[static_cast<std::size_t>(rank->as_int())];
  const Json* code = doc->find("exit_code");
  const Json* peak = doc->find("peak_kb");
  const Json* seconds = doc->find("seconds");
  const Json* collectives = doc->find("collectives");
  if (code == nullptr || !code->is_int() || peak == nullptr || !peak->is_int() ||
      seconds == nullptr || !seconds->is_number() || collectives == nullptr ||
      !collectives->is_string()) {
    return false;
  }
  run.exit_code = static_cast<int>(code->as_int());
  run.peak_kb = static_cast<std::uint64_t>(peak->as_int());
  run.seconds = seconds->as_double();
  run.collectives = collectives->as_string();
  return true;
}

// What every rank's Session gets: the analysis options and platforms of the command line, and
// the plugins discovered once by the parent (each forked child inherits them).
struct RankSpec {
  core::AnalyzeOptions analyze;
  core::TraceInputs inputs;  // platforms and capture traces; `trace` is set per rank
  const core::PluginSet* plugins = nullptr;
  bool verbose = false;      // -v: the ranks' progress is logged
  bool level_given = false;  // -v or -q: the ranks keep that log level
};

// One rank's analysis in a forked child: a Session on its trace into OUT/rank_<r>/, its
// collective table written to `collectives` once the trace is loaded. The exit code, as
// `loupe analyze --trace` would return it.
int analyze_rank(const RankSpec& spec, const RankRun& run, const fs::path& out,
                 const fs::path& collectives) {
  core::SessionOptions options;
  options.analyze = spec.analyze;
  options.analyze.output_dir = out / ("rank_" + std::to_string(run.rank));
  options.quiet = !spec.verbose;
  options.on_loaded = collectives_writer(collectives);
  core::TraceInputs inputs = spec.inputs;
  inputs.trace = run.trace;
  auto session = core::Session::from_trace(inputs, std::move(options));
  if (!session) {
    std::cerr << "loupe analyze: rank " << run.rank << ": " << session.error().message << "\n";
    return kExitUsage;
  }
  const auto report = session->run(*spec.plugins);
  if (!report) {
    std::cerr << "loupe analyze: rank " << run.rank << ": " << report.error().message << "\n";
    return kExitUsage;
  }
  return report->any_error() ? kExitFindings : kExitOk;
}

class ChildPool {
 public:
  ChildPool(const RankSpec& spec, fs::path out) : spec_(spec), out_(std::move(out)) {}

  // Starts rank `run`'s child; false (with the reason printed) when it cannot be started.
  bool start(RankRun& run) {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    spdlog::default_logger()->flush();
    const pid_t pid = ::fork();
    if (pid < 0) {
      std::cerr << "loupe analyze: cannot start rank " << run.rank << ": fork failed\n";
      return false;
    }
    if (pid == 0) {
      // The child's summary goes nowhere; its warnings and errors reach the terminal.
      const int null_fd = ::open("/dev/null", O_WRONLY);
      if (null_fd >= 0) ::dup2(null_fd, STDOUT_FILENO);
      if (!spec_.level_given) spdlog::set_level(spdlog::level::warn);
      int code = kExitUsage;
      try {
        code = analyze_rank(spec_, run, out_, collectives_path(run.rank));
      } catch (const std::exception& e) {
        std::cerr << "loupe analyze: rank " << run.rank << ": " << e.what() << "\n";
      }
      std::cerr.flush();
      spdlog::default_logger()->flush();
      // Not exit(): the parent's atexit handlers and static objects (MPI's among them) are the
      // parent's.
      ::_exit(code);
    }
    running_[pid] = {&run, std::chrono::steady_clock::now()};
    return true;
  }

  // Waits for one running child; false when none runs.
  bool wait_one() {
    if (running_.empty()) return false;
    int status = 0;
    struct rusage usage {};
    const pid_t pid = ::wait4(-1, &status, 0, &usage);
    if (pid < 0) return false;
    const auto it = running_.find(pid);
    if (it == running_.end()) return true;
    RankRun& run = *it->second.first;
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    run.peak_kb = static_cast<std::uint64_t>(usage.ru_maxrss);
    run.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - it->second.second).count();
    running_.erase(it);
    return true;
  }

  std::size_t running() const { return running_.size(); }
  fs::path collectives_path(int rank) const {
    return out_ / kWorkDir / ("rank_" + std::to_string(rank) + ".json");
  }

 private:
  const RankSpec& spec_;
  fs::path out_;
  std::map<pid_t, std::pair<RankRun*, std::chrono::steady_clock::time_point>> running_;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
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

// Runs `share` (its first rank alone, measured; then as many at once as memory and cores allow,
// or `jobs`) and reads each child's collective table. Returns how many ran at once.
unsigned run_share(const std::vector<RankRun*>& share, ChildPool& pool,
                   std::optional<unsigned> jobs) {
  if (share.empty()) return 0;
  const auto finish = [&] {
    while (pool.running() > 0 && pool.wait_one()) {
    }
  };
  if (pool.start(*share[0])) {
    finish();
  } else {
    share[0]->exit_code = kExitUsage;
  }
  unsigned pool_size = 1;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (jobs) {
    pool_size = *jobs;
  } else {
    const std::uint64_t available = available_memory_kb();
    const std::uint64_t peak = std::max<std::uint64_t>(share[0]->peak_kb, 1);
    const auto fit =
        static_cast<unsigned>(std::min<std::uint64_t>(available * 8 / 10 / peak, cores));
    pool_size = std::max(1u, std::min(fit, cores));
  }
  spdlog::info("rank {}: {:.2f} s, peak {} MB; running {} rank(s) at once", share[0]->rank,
               share[0]->seconds, share[0]->peak_kb / 1024, pool_size);
  std::size_t next = 1;
  while (next < share.size() || pool.running() > 0) {
    while (next < share.size() && pool.running() < pool_size) {
      if (!pool.start(*share[next])) share[next]->exit_code = kExitUsage;
      ++next;
    }
    if (!pool.wait_one()) break;
  }
  for (RankRun* run : share) {
    if (run->exit_code == kExitOk || run->exit_code == kExitFindings) {
      run->collectives = read_file(pool.collectives_path(run->rank));
    }
  }
  return pool_size;
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
// (docs/findings-schema.md, "Rank-set findings"). A rank without a readable findings.json is
// listed as such.
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
      const std::string text = read_file(file);
      if (!text.empty()) rank.document = core::to_owned_json(*core::parse_json_document(text));
    } catch (const std::exception& e) {
      spdlog::warn("{}: {}; rank {} left out of findings.json", file.string(), e.what(), run.rank);
    }
    input.ranks.push_back(std::move(rank));
  }
  return dump_python_json(core::build_rank_set_findings(input), 2) + "\n";
}

std::function<std::optional<core::Error>(const core::trace::TraceModel&)> collectives_writer(
    fs::path path) {
  return
      [path = std::move(path)](const core::trace::TraceModel& model) -> std::optional<core::Error> {
        try {
          core::write_file_atomically(
              path, lm::serialize_rank_collectives(lm::extract_rank_collectives(model, 0)));
        } catch (const std::exception& e) {
          return core::Error{core::ErrorKind::Output, e.what()};
        }
        return std::nullopt;
      };
}

namespace {

int run_multirank_job(const po::variables_map& vm, const MpiJob& job) {
  const auto start = std::chrono::steady_clock::now();
  // Usage first, then the rank set, then the output directory: all before any work.
  if (vm.count("trace-glob") > 0 && vm.count("trace-pattern") > 0) {
    std::cerr << "loupe analyze: give either --trace-glob or --trace-pattern, not both\n";
    return kExitUsage;
  }
  for (const char* single : {"trace", "trace2", "dir"}) {
    if (vm.count(single) > 0) {
      std::cerr << "loupe analyze: --trace-glob / --trace-pattern analyze many ranks; "
                << (std::string(single) == "dir" ? std::string("an analysis directory")
                                                 : "--" + std::string(single))
                << " cannot be given with them\n";
      return kExitUsage;
    }
  }
  if (vm.count("output") == 0) {
    std::cerr << "loupe analyze: many ranks need -o OUT (where rank_<r>/ and "
                 "collective_report/ are written)\n";
    return kExitUsage;
  }
  if (vm.count("rank-regex") > 0 && vm.count("trace-pattern") > 0) {
    std::cerr << "loupe analyze: --rank-regex applies to --trace-glob (with --trace-pattern the "
                 "`*` is the rank)\n";
    return kExitUsage;
  }
  RankFileRequest request;
  if (vm.count("trace-glob") > 0) request.glob = vm["trace-glob"].as<std::string>();
  if (vm.count("trace-pattern") > 0) request.pattern = vm["trace-pattern"].as<std::string>();
  if (vm.count("rank-regex") > 0) request.rank_regex = vm["rank-regex"].as<std::string>();
  if (vm.count("world-size") > 0) {
    const int world = vm["world-size"].as<int>();
    if (world < 1 || world > kMaxWorldSize) {
      std::cerr << "loupe analyze: --world-size must be a number of ranks from 1 to "
                << kMaxWorldSize << "\n";
      return kExitUsage;
    }
    request.world_size = world;
  }
  std::optional<unsigned> jobs;
  if (vm.count("jobs") > 0) {
    jobs = vm["jobs"].as<unsigned>();
    if (*jobs == 0 || *jobs > 4096) {
      std::cerr << "loupe analyze: --jobs must be between 1 and 4096\n";
      return kExitUsage;
    }
  }
  const RankFiles files = resolve_rank_files(request);
  if (!files.error.empty()) {
    std::cerr << "loupe analyze: " << core::escape_for_terminal(files.error) << "\n";
    return kExitUsage;
  }
  for (const fs::path& trace : files.by_rank) {
    if (!check_readable_file(trace, "--trace-glob")) return kExitUsage;
    if (!check_trace_format(trace, "--trace-glob", "analyze")) return kExitUsage;
  }
  const fs::path out(vm["output"].as<std::string>());
  if (const std::string why = check_writable_dir(out); !why.empty()) {
    std::cerr << "loupe analyze: cannot write into " << out.string() << ": " << why << "\n";
    return kExitUsage;
  }
  // Every rank's analysis options and plugins, checked once before any work.
  RankSpec spec;
  auto analyze = analyze_options(vm);
  if (!analyze || !check_platform_options(vm)) return kExitUsage;
  const auto plugins = discover(vm, *analyze);
  if (!plugins) return kExitUsage;
  spec.analyze = std::move(*analyze);
  spec.inputs = trace_inputs(vm);
  spec.plugins = &*plugins;
  spec.verbose = vm.count("verbose") > 0;
  spec.level_given = spec.verbose || vm.count("quiet") > 0;
  std::error_code ec;
  // Process 0 clears the previous run and makes the directories; every process learns whether
  // that worked before any rank starts.
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
  if (mpi_broadcast(job, prepared_ok) == 0) return kExitUsage;

  const int world = static_cast<int>(files.by_rank.size());
  std::vector<RankRun> runs(files.by_rank.size());
  for (int r = 0; r < world; ++r) {
    runs[r].rank = r;
    runs[r].trace = files.by_rank[r];
  }
  ChildPool pool(spec, out);

  // This process's share: every rank, or with --mpi the ranks r with r % size == its rank.
  std::vector<RankRun*> share;
  for (RankRun& run : runs) {
    if (run.rank % job.size == job.rank) share.push_back(&run);
  }
  spdlog::info("analyzing {} of {} ranks into {}", share.size(), world, out.string());
  const unsigned pool_size = run_share(share, pool, jobs);
  if (job.size > 1) {
    std::string mine;
    for (const RankRun* run : share) mine += run_to_text(*run) + "\n";
    const std::vector<std::string> all = mpi_gather(job, mine);
    if (job.rank != 0) return kExitOk;
    for (const std::string& text : all) {
      std::istringstream lines(text);
      std::string line;
      while (std::getline(lines, line)) {
        if (!run_from_text(line, runs)) {
          std::cerr << "loupe analyze: --mpi: a process sent an unreadable result\n";
          return kExitUsage;
        }
      }
    }
  }
  fs::remove_all(out / kWorkDir, ec);

  if (std::all_of(runs.begin(), runs.end(),
                  [](const RankRun& r) { return r.exit_code == kExitUsage; })) {
    std::cerr << "loupe analyze: no rank could be analyzed (every rank stopped with the error "
                 "above); nothing written\n";
    return kExitUsage;
  }

  // The compact per-rank tables, then the report.
  std::vector<lm::RankCollectives> collected;
  std::vector<lm::InputProblem> rank_problems;
  for (const RankRun& run : runs) {
    std::optional<lm::RankCollectives> parsed;
    if (run.exit_code == kExitOk || run.exit_code == kExitFindings) {
      parsed = lm::parse_rank_collectives(run.collectives);
    }
    if (!parsed) {
      rank_problems.push_back({run.rank,
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
  lm::ReportOptions report_options;
  report_options.world_size = world;
  const std::vector<lm::RankCollectives> kept = collected;
  lm::CollectiveReport report = lm::build_collective_report(std::move(collected), report_options);
  // A rank that failed is named once, with its reason, not again as "no trace".
  std::vector<lm::InputProblem> problems = rank_problems;
  for (auto& p : report.problems) {
    const bool duplicate = p.collective_id.empty() && p.rank &&
                           std::any_of(rank_problems.begin(), rank_problems.end(),
                                       [&](const auto& q) { return q.rank == p.rank; });
    if (!duplicate) problems.push_back(std::move(p));
  }

  std::vector<std::pair<fs::path, std::string_view>> writes;
  for (const auto& file : report.files)
    writes.emplace_back(out / kReportDir / file.name, file.text);
  // Cross-rank findings (default mode): rendered and validated like every system-tier file, and
  // with every rank's findings in one ranked findings.json.
  std::string findings_text;
  std::string set_findings_text;
  const bool compat = vm.count("compat") > 0;
  if (!compat) {
    std::vector<lm::RankTimeline> timelines;
    for (const RankRun& run : runs) {
      const fs::path csv =
          out / ("rank_" + std::to_string(run.rank)) / "perf_report_csvs/gpu_timeline.csv";
      if (const auto t = lm::parse_gpu_timeline(run.rank, read_file(csv))) timelines.push_back(*t);
    }
    const auto analysis = lm::analyze_cross_rank(kept, world, report.gpus_per_node, timelines);
    const auto cross_rank = lm::cross_rank_findings(analysis);
    try {
      findings_text = render_cross_rank_findings(cross_rank, out);
      writes.emplace_back(out / kFindingsFile, findings_text);
    } catch (const std::exception& e) {
      std::cerr << "loupe analyze: cross-rank findings: " << e.what() << "\n";
      return kExitFindings;
    }
    set_findings_text = rank_set_findings(analysis, cross_rank, runs, world, out);
    writes.emplace_back(out / core::kRunFindingsFile, set_findings_text);
  }
  Json record = Json::object();
  Json outputs = Json::object();
  Json prepared = Json::array();
  try {
    fs::create_directories(out / kReportDir);
    if (!findings_text.empty()) fs::create_directories((out / kFindingsFile).parent_path());
    core::write_files_atomically(writes);
  } catch (const std::exception& e) {
    std::cerr << "loupe analyze: " << e.what() << "\n";
    return kExitUsage;
  }
  for (const auto& file : report.files) {
    prepared.as_array().push_back(Json(std::string(kReportDir) + "/" + file.name));
  }
  Json ranks_json = Json::array();
  for (const RankRun& run : runs) {
    const std::string dir = "rank_" + std::to_string(run.rank);
    const auto recorded = core::recorded_outputs(out / dir);
    for (const auto* list : {&recorded.prepared, &recorded.analysis}) {
      for (const std::string& f : *list) prepared.as_array().push_back(Json(dir + "/" + f));
    }
    Json r = Json::object();
    r["rank"] = Json(run.rank);
    r["trace"] = Json(run.trace.string());
    r["exit_code"] = Json(run.exit_code);
    r["peak_rss_mb"] = Json(static_cast<double>(run.peak_kb) / 1024.0);
    r["seconds"] = Json(run.seconds);
    ranks_json.as_array().push_back(std::move(r));
  }
  outputs["prepared"] = std::move(prepared);
  Json analysis_files = Json(Json::Array{Json("loupe_run.json")});
  if (!findings_text.empty()) analysis_files.as_array().push_back(Json(kFindingsFile));
  if (!set_findings_text.empty()) {
    analysis_files.as_array().push_back(Json(core::kRunFindingsFile));
  }
  outputs["analysis"] = std::move(analysis_files);
  Json multirank = Json::object();
  multirank["world_size"] = Json(world);
  multirank["ranks_at_once"] = Json(pool_size);
  multirank["gpus_per_node"] = report.gpus_per_node ? Json(*report.gpus_per_node) : Json(nullptr);
  multirank["matched_by_stream_order"] = Json(report.matched_by_stream_order);
  multirank["ranks"] = std::move(ranks_json);
  Json problems_json = Json::array();
  for (const auto& p : problems) problems_json.as_array().push_back(problem_json(p));
  multirank["problems"] = std::move(problems_json);
  record["multirank"] = std::move(multirank);
  record["outputs"] = std::move(outputs);
  try {
    core::write_file_atomically(out / "loupe_run.json", dump_python_json(record, 2) + "\n");
  } catch (const std::exception& e) {
    std::cerr << "loupe analyze: " << e.what() << "\n";
    return kExitUsage;
  }

  // The summary.
  int exit_code = kExitOk;
  std::cout << "Loupe multi-rank analysis (" << world << " ranks) -> " << out.string() << "\n";
  for (const RankRun& run : runs) {
    std::cout << "  rank " << run.rank << "\t"
              << (run.exit_code == kExitOk         ? "OK"
                  : run.exit_code == kExitFindings ? "some category ERROR"
                                                   : "FAILED")
              << "\trank_" << run.rank << "/\t(" << run.trace.string() << ")\n";
    if (run.exit_code != kExitOk) exit_code = kExitFindings;
  }
  std::cout << "  collective report: " << report.files.size() << " tables in " << kReportDir
            << "/\n";
  if (!findings_text.empty()) std::cout << "  cross-rank findings: " << kFindingsFile << "\n";
  if (!set_findings_text.empty()) {
    std::cout << "  every finding of the set, ranked: " << core::kRunFindingsFile << "\n";
  }
  for (const auto& p : problems) {
    std::cout << "  " << (p.excluded ? "excluded: " : "note: ") << describe(p) << "\n";
    if (p.excluded) exit_code = kExitFindings;
  }
  std::cout << "Run record: " << (out / "loupe_run.json").string() << " ("
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s)\n";
  return exit_code;
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
