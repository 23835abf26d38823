// What a Loupe run wrote into its output directory, as loupe_run.json records it ("outputs"), and
// removing an earlier run's files before a new run writes there, so two runs never mix
// (docs/architecture.md, "Output directories"). Only files the record lists are removed, and only
// when they lie inside the directory and are regular files; anything else is left alone.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace loupe::core {

struct RecordedOutputs {
  std::vector<std::string> prepared;  // written from the trace (perf_report_csvs/, ...)
  std::vector<std::string> analysis;  // analyzer outputs and loupe_run.json
};

enum class PreviousRunScope {
  Everything,    // a new --trace run, or a run writing to another directory than its input
  AnalysisOnly,  // re-analyzing a directory in place: its prepared inputs stay
};

// The outputs recorded in <dir>/loupe_run.json; empty when there is none or it cannot be read.
RecordedOutputs recorded_outputs(const std::filesystem::path& dir);

// Removes the recorded files of the previous run in `dir` (then the folders that became empty),
// and the temporary files "<name>.tmp.XXXXXX" a killed run left in the folders Loupe writes.
// Returns how many files were removed. Throws std::runtime_error naming a file it cannot remove.
std::size_t remove_previous_run(const std::filesystem::path& dir, PreviousRunScope scope);

}  // namespace loupe::core
