#include "reference_pack.hpp"

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

}  // namespace loupe::test
