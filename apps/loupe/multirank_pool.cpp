#include "multirank_pool.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <spdlog/spdlog.h>

#include "cli_common.hpp"
#include "json_text.hpp"
#include "loupe/core/prepare/analysis_dir_writer.hpp"
#include "loupe/core/prepare/collective_report.hpp"
#include "loupe/core/prepare/vendor_categories.hpp"
#include "loupe/core/report/run_findings.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/util/atomic_file.hpp"
#include "loupe/json_value.hpp"

namespace loupe::cli {

namespace fs = std::filesystem;
namespace lm = loupe::core::multirank;

namespace {

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

// The rank's GPU time split as rows of gpu_timeline.csv, from the table its analysis prepared.
std::string timeline_rows(const core::Model& model) {
  const core::CsvTable* table = model.table("perf_report_csvs/gpu_timeline.csv");
  if (table == nullptr) return {};
  std::string rows;
  for (std::size_t r = 0; r < table->row_count(); ++r) {
    for (std::size_t c = 0; c < table->column_count(); ++c) {
      rows += std::string(c == 0 ? "" : ",") + std::string(table->cell(r, c).text);
    }
    rows += "\n";
  }
  return rows;
}

// One rank's analysis: a Session on its trace into OUT/rank_<r>/; its collective table (taken once
// the trace is loaded), time split, findings.json and list of files go into `handoff`. The exit
// code, as `loupe analyze --trace` would return it.
int analyze_rank(const RankSpec& spec, const fs::path& out, RankRun& handoff) {
  core::SessionOptions options;
  options.analyze = spec.analyze;
  options.analyze.output_dir = out / ("rank_" + std::to_string(handoff.rank));
  options.quiet = !spec.verbose;
  options.on_loaded = [&handoff](const core::trace::TraceModel& model) {
    handoff.collectives = lm::serialize_rank_collectives(lm::extract_rank_collectives(model, 0));
    return std::optional<core::Error>();
  };
  options.vendor_selectors = core::prepare::vendor_selectors(*spec.plugins);
  core::TraceInputs inputs = spec.inputs;
  inputs.trace = handoff.trace;
  auto session = core::Session::from_trace(inputs, std::move(options));
  if (!session) {
    std::cerr << "loupe analyze: rank " << handoff.rank << ": " << session.error().message << "\n";
    return kExitUsage;
  }
  const auto report = session->run(*spec.plugins);
  if (!report) {
    std::cerr << "loupe analyze: rank " << handoff.rank << ": " << report.error().message << "\n";
    return kExitUsage;
  }
  handoff.timeline_csv = timeline_rows(session->model());
  const auto& written = report->report_files;
  if (std::find(written.begin(), written.end(), core::kRunFindingsFile) != written.end()) {
    handoff.findings_json = core::run_findings_text(report->run_findings);
  }
  for (const auto* list : {&report->outputs.prepared, &report->outputs.analysis}) {
    handoff.outputs.insert(handoff.outputs.end(), list->begin(), list->end());
  }
  return report->any_error() ? kExitFindings : kExitOk;
}

// --collectives-only: the rank's collective table and (default mode) its GPU time split, the
// same gpu_timeline.csv numbers the full analysis writes, into `handoff`; nothing in
// OUT/rank_<r>/.
int collect_rank(const RankSpec& spec, RankRun& handoff) {
  core::trace::LoadResult loaded;
  try {
    loaded = core::trace::load_trace(handoff.trace);
  } catch (const std::exception& e) {
    std::cerr << "loupe analyze: rank " << handoff.rank << ": " << e.what() << "\n";
    return kExitUsage;
  }
  if (loaded.error) {
    std::cerr << "loupe analyze: rank " << handoff.rank << ": " << handoff.trace.string() << ": "
              << loaded.error->describe() << "\n";
    return kExitUsage;
  }
  handoff.collectives =
      lm::serialize_rank_collectives(lm::extract_rank_collectives(loaded.model, 0));
  if (spec.analyze.compat == Compat::TraceLens) return kExitOk;
  const auto tree =
      core::trace::EventTree::build(loaded.model, core::prepare::prepare_tree_options());
  core::trace::GpuTimelineOptions options;
  options.include_unlinked = tree.gpu_only();
  const auto split = core::trace::compute_gpu_timeline(loaded.model, tree, options);
  if (split) handoff.timeline_csv = core::trace::gpu_timeline_csv(*split);
  return kExitOk;
}

// The hand-off fields of a RankRun as a JSON object, and back.
Json handoff_json(const RankRun& run) {
  Json j = Json::object();
  j["collectives"] = Json(run.collectives);
  j["timeline_csv"] = Json(run.timeline_csv);
  j["findings_json"] = Json(run.findings_json);
  Json outputs = Json::array();
  for (const auto& f : run.outputs) outputs.as_array().push_back(Json(f));
  j["outputs"] = std::move(outputs);
  return j;
}
bool handoff_from_json(const Json& doc, RankRun& run) {
  const Json* collectives = doc.find("collectives");
  const Json* timeline = doc.find("timeline_csv");
  const Json* findings = doc.find("findings_json");
  const Json* outputs = doc.find("outputs");
  if (collectives == nullptr || !collectives->is_string() || timeline == nullptr ||
      !timeline->is_string() || findings == nullptr || !findings->is_string() ||
      outputs == nullptr || !outputs->is_array()) {
    return false;
  }
  std::vector<std::string> files;
  for (const Json& f : outputs->as_array()) {
    if (!f.is_string()) return false;
    files.push_back(f.as_string());
  }
  run.collectives = collectives->as_string();
  run.timeline_csv = timeline->as_string();
  run.findings_json = findings->as_string();
  run.outputs = std::move(files);
  return true;
}

}  // namespace

std::string read_file_or_empty(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A RankRun as one line of JSON, and back (what an MPI process sends to process 0).
std::string run_to_text(const RankRun& run) {
  Json j = handoff_json(run);
  j["rank"] = Json(run.rank);
  j["exit_code"] = Json(run.exit_code);
  j["peak_kb"] = Json(static_cast<std::int64_t>(run.peak_kb));
  j["seconds"] = Json(run.seconds);
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
  if (code == nullptr || !code->is_int() || peak == nullptr || !peak->is_int() ||
      seconds == nullptr || !seconds->is_number() || !handoff_from_json(*doc, run)) {
    return false;
  }
  run.exit_code = static_cast<int>(code->as_int());
  run.peak_kb = static_cast<std::uint64_t>(peak->as_int());
  run.seconds = seconds->as_double();
  return true;
}

bool ChildPool::start(RankRun& run) {
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
    const int code = run_child(run);
    std::cerr.flush();
    spdlog::default_logger()->flush();
    // Not exit(): the parent's atexit handlers and static objects (MPI's among them) are the
    // parent's.
    ::_exit(code);
  }
  running_[pid] = {&run, std::chrono::steady_clock::now()};
  return true;
}

int ChildPool::run_child(const RankRun& run) const {
  try {
    RankRun handoff;
    handoff.rank = run.rank;
    handoff.trace = run.trace;
    const int code =
        spec_.collectives_only ? collect_rank(spec_, handoff) : analyze_rank(spec_, out_, handoff);
    if (code == kExitOk || code == kExitFindings) {
      core::write_file_atomically(handoff_path(run.rank),
                                  dump_python_json(handoff_json(handoff), -1));
    }
    return code;
  } catch (const std::exception& e) {
    std::cerr << "loupe analyze: rank " << run.rank << ": " << e.what() << "\n";
    return kExitUsage;
  }
}

bool ChildPool::wait_one() {
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

void ChildPool::collect(RankRun& run) const {
  if (run.exit_code != kExitOk && run.exit_code != kExitFindings) return;
  const auto doc = core::prepare::try_parse_json_text(read_file_or_empty(handoff_path(run.rank)));
  if (!doc || !doc->is_object() || !handoff_from_json(*doc, run)) {
    spdlog::warn("rank {}: its child handed back nothing readable", run.rank);
  }
}

fs::path ChildPool::handoff_path(int rank) const {
  return work_dir_ / ("rank_" + std::to_string(rank) + ".json");
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
  for (RankRun* run : share) pool.collect(*run);
  return pool_size;
}

}  // namespace loupe::cli
