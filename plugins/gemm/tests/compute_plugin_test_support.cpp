#include "compute_plugin_test_support.hpp"

#include <fstream>
#include <regex>

namespace fs = std::filesystem;

namespace compute_test {

void make_analysis_dir(const fs::path& from, const fs::path& to, const std::string& category,
                       const std::string& scope) {
  for (const char* sub : {"category_data", "metadata"}) {
    fs::create_directories(to / sub);
    if (fs::exists(from / sub)) loupe::test::copy_tree(from / sub, to / sub);
  }
  fs::remove(to / "category_data" / (category + "_metrics.json"));
  loupe::test::write_text(to / "category_data" / "category_manifest.json",
                          "{\"comparison_scope\": \"" + scope +
                              "\", \"categories\": [{\"name\": \"" + category + "\"}]}");
}

std::string manifest_scope(const fs::path& analysis_dir) {
  const std::string manifest =
      loupe::test::read_text(analysis_dir / "category_data" / "category_manifest.json");
  return manifest.find("\"comparison_scope\": \"comparative\"") != std::string::npos ? "comparative"
                                                                                     : "standalone";
}

std::vector<std::string> cards(const std::string& md) {
  std::vector<std::string> out;
  const std::regex heading(R"(\n### P\d+: )");
  for (std::sregex_iterator it(md.begin(), md.end(), heading), end; it != end; ++it) {
    const size_t start = static_cast<size_t>(it->position()) + 1;
    size_t stop = md.find("\n#", start + 4);
    if (stop == std::string::npos) stop = md.size();
    out.push_back(md.substr(start, stop - start));
  }
  return out;
}

std::string missing_card_facts(const std::string& card) {
  std::string missing;
  if (!std::regex_search(card, std::regex(R"(\*\*Action\*\*: \S)"))) missing += " action";
  if (!std::regex_search(card, std::regex(R"(\d+\.\d{3} ms of measured kernel time)"))) {
    missing += " measured-time";
  }
  if (!std::regex_search(card, std::regex(R"(estimated saving \d+\.\d{3} ms \(low \d+\.\d{3} ms, )"
                                          R"(high \d+\.\d{3} ms\) of \d+\.\d{3} ms measured)"))) {
    missing += " savings";
  }
  return missing;
}

FixtureRun run_fixture(const fs::path& fixture, const std::string& category, bool compat,
                       const fs::path& work_dir) {
  FixtureRun run;
  const std::string scope_text = loupe::test::read_text(fixture / "scope");
  const std::string scope = scope_text.rfind("comparative", 0) == 0 ? "comparative" : "standalone";
  const std::string tag = fixture.filename().string() + (compat ? "_compat" : "_default");
  const fs::path dir = work_dir / ("in_" + tag);
  const fs::path out = work_dir / ("out_" + tag);
  make_analysis_dir(fixture, dir, category, scope);
  const auto result = analyze(dir, out, category, compat);
  run.exit_code = result.exit_code;
  run.log = result.out + result.err;
  run.expected = loupe::test::read_text(fixture / ("expected_" + category + "_metrics.json"));
  if (result.exit_code != 0) return run;
  run.metrics = metrics_with_placeholder(out, category, dir);
  const fs::path md = out / "category_findings" / (category + "_findings.md");
  run.findings = loupe::test::read_text(md);
  for (const bool strict : {false, true}) {
    const auto check = validate(md, scope, strict);
    if (check.exit_code != 0) {
      ++run.validator_failures;
      run.log += check.out + check.err;
    }
  }
  return run;
}

}  // namespace compute_test
