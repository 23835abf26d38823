#pragma once
// The runs of the reference pack: the run table of data/<folder>/README.md ("reference" for the
// training-style traces, "reference-inference" for the serving-engine traces).
#include <filesystem>
#include <string>
#include <vector>

namespace loupe::test {

struct ReferenceRun {
  std::string name;                 // folder under data/<folder>
  std::filesystem::path trace;      // absolute path of its trace (exists)
  std::filesystem::path directory;  // absolute path of data/<folder>/<name>
};

// Every run of the table whose trace file exists, in table order.
std::vector<ReferenceRun> reference_runs(const std::filesystem::path& shared,
                                         const std::string& folder = "reference");
// The runs of data/reference, then those of data/reference-inference.
std::vector<ReferenceRun> all_reference_runs(const std::filesystem::path& shared);

// Every profiler trace under data/traces (`.json`, `.json.gz`), sorted: one list for the pack-wide
// sweeps. The capture folders' `execution_details.json` (the engine's graph/node table beside a
// capture trace, not a profiler trace) is left out.
std::vector<std::filesystem::path> pack_trace_files(const std::filesystem::path& shared);

}  // namespace loupe::test
