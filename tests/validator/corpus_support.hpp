#pragma once
// Golden findings-file corpus (tests/data/validator_cases, spec §5): loading expected.json
// and laying a case out on disk exactly as the harness contract prescribes.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "loupe/core/validate/validator.hpp"

namespace loupe::test {

struct CorpusCase {
  std::string name;
  std::string tier;
  std::optional<std::string> scope;  // nullopt = argument omitted (Python None)
  bool passed = false;
  std::vector<std::string> errors;
  std::string findings_path;  // relative to the output dir
  std::optional<std::string> metrics_fixture;
  std::string expected_stdout;
};

std::filesystem::path corpus_dir();

// All cases of expected.json, in file order.
std::vector<CorpusCase> load_corpus();

// Removes the directory tree on destruction.
class TempOutputDir {
 public:
  TempOutputDir();
  ~TempOutputDir();
  TempOutputDir(const TempOutputDir&) = delete;
  TempOutputDir& operator=(const TempOutputDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Lays the case out under a fresh temp dir and validates it.
core::ValidationResult run_case(const CorpusCase& corpus_case, core::ValidationMode mode);

core::Scope to_scope(const std::optional<std::string>& scope);

}  // namespace loupe::test
