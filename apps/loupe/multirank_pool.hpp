// The ranks of a rank set, analyzed in forked children: each child runs one rank's
// core::Session (or, with --collectives-only, only reads its collectives and GPU time split) and
// hands the driver a compact typed table (docs/multirank.md).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/plugin/plugin_registry.hpp"
#include "loupe/core/run/analysis_runner.hpp"
#include "loupe/core/session/session.hpp"

namespace loupe::cli {

struct RankRun {
  int rank = 0;
  std::filesystem::path trace;
  int exit_code = -1;  // -1: not run
  std::uint64_t peak_kb = 0;
  double seconds = 0.0;
  // What the rank's child handed back in memory (docs/multirank.md); all empty when it failed.
  std::string collectives;  // the serialized RankCollectives
  // The rank's GPU time split as gpu_timeline.csv rows (default mode; with --collectives-only,
  // computed by the child alone).
  std::string timeline_csv;
  std::string findings_json;  // the rank's findings.json as written; "" when it wrote none
  // The files the rank's analysis wrote, relative to OUT/rank_<r>/ (its loupe_run.json outputs).
  std::vector<std::string> outputs;
};

// A file's text; "" when it cannot be read.
std::string read_file_or_empty(const std::filesystem::path& path);

// A RankRun as one line of JSON, and back into `runs` (what an MPI process sends to process 0);
// false when the text is not such a line.
std::string run_to_text(const RankRun& run);
bool run_from_text(std::string_view text, std::vector<RankRun>& runs);

// What every rank's child gets: the analysis options and platforms of the command line, and the
// plugins discovered once by the parent (each forked child inherits them).
struct RankSpec {
  core::AnalyzeOptions analyze;
  core::TraceInputs inputs;  // platforms and capture traces; `trace` is set per rank
  const core::PluginSet* plugins = nullptr;
  bool collectives_only = false;  // no per-rank analysis: collectives and GPU time split only
  bool verbose = false;           // -v: the ranks' progress is logged
  bool level_given = false;       // -v or -q: the ranks keep that log level
};

class ChildPool {
 public:
  // Children hand their tables back through `work_dir`; full analyses go to OUT/rank_<r>/.
  ChildPool(const RankSpec& spec, std::filesystem::path out, std::filesystem::path work_dir)
      : spec_(spec), out_(std::move(out)), work_dir_(std::move(work_dir)) {}

  // Starts rank `run`'s child; false (with the reason printed) when it cannot be started.
  bool start(RankRun& run);
  // Waits for one running child; false when none runs.
  bool wait_one();
  std::size_t running() const { return running_.size(); }
  // Reads what a finished rank's child handed back into `run`.
  void collect(RankRun& run) const;

 private:
  // The one typed file a rank's child hands back (RankRun's hand-off fields, as JSON).
  std::filesystem::path handoff_path(int rank) const;
  int run_child(const RankRun& run) const;

  const RankSpec& spec_;
  std::filesystem::path out_;
  std::filesystem::path work_dir_;
  std::map<pid_t, std::pair<RankRun*, std::chrono::steady_clock::time_point>> running_;
};

// Runs `share` (its first rank alone, measured; then as many at once as memory and cores allow,
// or `jobs`) and reads each child's tables. Returns how many ran at once.
unsigned run_share(const std::vector<RankRun*>& share, ChildPool& pool,
                   std::optional<unsigned> jobs);

}  // namespace loupe::cli
