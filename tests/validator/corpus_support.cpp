#include "corpus_support.hpp"

#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>

#include <rapidjson/document.h>

#include "test_paths.hpp"

namespace loupe::test {
namespace {

std::string read_all(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) {
    throw std::runtime_error("cannot open " + path.string());
  }
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

std::string string_member(const rapidjson::Value& object, const char* key) {
  const rapidjson::Value& value = object[key];
  return {value.GetString(), value.GetStringLength()};
}

std::optional<std::string> optional_string_member(const rapidjson::Value& object, const char* key) {
  const rapidjson::Value& value = object[key];
  if (value.IsNull()) {
    return std::nullopt;
  }
  return std::string(value.GetString(), value.GetStringLength());
}

}  // namespace

std::filesystem::path corpus_dir() { return bundled_data_dir() / "validator_cases"; }

std::vector<CorpusCase> load_corpus() {
  const std::string json = read_all(corpus_dir() / "expected.json");
  rapidjson::Document document;
  document.Parse(json.data(), json.size());
  if (document.HasParseError() || !document.IsObject()) {
    throw std::runtime_error("expected.json does not parse");
  }
  std::vector<CorpusCase> cases;
  for (const auto& member : document.GetObject()) {
    const rapidjson::Value& entry = member.value;
    CorpusCase corpus_case;
    corpus_case.name.assign(member.name.GetString(), member.name.GetStringLength());
    corpus_case.tier = string_member(entry, "tier");
    corpus_case.scope = optional_string_member(entry, "scope");
    corpus_case.passed = entry["passed"].GetBool();
    for (const auto& error : entry["errors"].GetArray()) {
      corpus_case.errors.emplace_back(error.GetString(), error.GetStringLength());
    }
    corpus_case.findings_path = string_member(entry, "findings_path");
    corpus_case.metrics_fixture = optional_string_member(entry, "metrics_fixture");
    corpus_case.expected_stdout = string_member(entry, "stdout");
    cases.push_back(std::move(corpus_case));
  }
  return cases;
}

TempOutputDir::TempOutputDir() {
  std::random_device random;
  const auto base = std::filesystem::temp_directory_path();
  for (int attempt = 0; attempt < 100; ++attempt) {
    const auto candidate = base / ("loupe-validator-" + std::to_string(random()));
    if (std::filesystem::create_directory(candidate)) {
      path_ = candidate;
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary directory");
}

TempOutputDir::~TempOutputDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

core::Scope to_scope(const std::optional<std::string>& scope) {
  return scope == "comparative" ? core::Scope::Comparative
                                : core::Scope::Standalone;
}

core::ValidationResult run_case(const CorpusCase& corpus_case, core::ValidationMode mode) {
  const TempOutputDir output_dir;
  const std::filesystem::path findings = output_dir.path() / corpus_case.findings_path;
  std::filesystem::create_directories(findings.parent_path());
  std::filesystem::copy_file(corpus_dir() / (corpus_case.name + ".md"), findings);
  if (corpus_case.metrics_fixture) {
    std::string stem = findings.filename().string();
    stem.erase(stem.size() - std::string_view("_findings.md").size());
    const auto metrics_dir = output_dir.path() / "category_data";
    std::filesystem::create_directories(metrics_dir);
    std::filesystem::copy_file(corpus_dir() / *corpus_case.metrics_fixture,
                               metrics_dir / (stem + "_metrics.json"));
  }
  return core::validate_findings_file(findings, corpus_case.tier, to_scope(corpus_case.scope),
                                      mode);
}

}  // namespace loupe::test
