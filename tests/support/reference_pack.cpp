#include "reference_pack.hpp"

#include <algorithm>
#include <regex>

#include "cli_runner.hpp"

namespace loupe::test {

std::vector<ReferenceRun> reference_runs(const std::filesystem::path& shared,
                                         const std::string& folder) {
  const std::string readme = read_text(shared / "data" / folder / "README.md");
  static const std::regex row(R"(\| `([^`]+)` \| `([^`]+)` \|)");
  std::vector<ReferenceRun> runs;
  for (std::sregex_iterator it(readme.begin(), readme.end(), row), end; it != end; ++it) {
    ReferenceRun run;
    run.name = (*it)[1].str();
    run.trace = shared / "data" / "traces" / (*it)[2].str();
    run.directory = shared / "data" / folder / run.name;
    if (std::filesystem::is_regular_file(run.trace)) runs.push_back(std::move(run));
  }
  return runs;
}

std::vector<ReferenceRun> all_reference_runs(const std::filesystem::path& shared) {
  std::vector<ReferenceRun> runs = reference_runs(shared);
  for (auto& run : reference_runs(shared, "reference-inference")) runs.push_back(std::move(run));
  return runs;
}

std::vector<std::filesystem::path> pack_trace_files(const std::filesystem::path& shared) {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(shared / "data/traces")) {
    if (!entry.is_regular_file()) continue;
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(".json") && !name.ends_with(".json.gz")) continue;
    if (name == "execution_details.json") continue;
    out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace loupe::test
