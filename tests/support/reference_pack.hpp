#pragma once
// The runs of the reference pack (shared/data/reference/README.md's run table).
#include <filesystem>
#include <string>
#include <vector>

namespace loupe::test {

struct ReferenceRun {
  std::string name;                 // folder under data/reference
  std::filesystem::path trace;      // absolute path of its trace (exists)
  std::filesystem::path directory;  // absolute path of data/reference/<name>
};

// Every run of the table whose trace file exists, in table order.
std::vector<ReferenceRun> reference_runs(const std::filesystem::path& shared);

}  // namespace loupe::test
