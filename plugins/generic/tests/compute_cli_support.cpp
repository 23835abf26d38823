#include "compute_cli_support.hpp"

#include <algorithm>
#include <regex>

namespace fs = std::filesystem;

namespace compute_cli_test {

void make_analysis_dir(const fs::path& from, const fs::path& to, const std::string& category,
                       const std::string& skill, const std::string& scope) {
  for (const char* sub : {"category_data", "metadata"}) {
    fs::create_directories(to / sub);
    if (fs::exists(from / sub)) loupe::test::copy_tree(from / sub, to / sub);
  }
  loupe::test::write_text(to / "category_data" / "category_manifest.json",
                          "{\"comparison_scope\": \"" + scope +
                              "\", \"categories\": [{\"name\": \"" + category +
                              "\", \"skill\": \"" + skill + "\", \"tier\": \"compute_kernel\"}]}");
}

loupe::test::CliResult analyze(const fs::path& dir, const fs::path& out,
                               const std::string& category, bool compat,
                               const std::vector<std::string>& extra) {
  std::vector<std::string> args{"analyze", dir.string(), "-o", out.string(), "--only", category};
  if (compat) {
    args.push_back("--compat");
    args.push_back("tracelens");
  }
  args.insert(args.end(), extra.begin(), extra.end());
  return loupe::test::run_loupe(args);
}

loupe::test::CliResult validate(const fs::path& findings, const std::string& scope, bool compat) {
  std::vector<std::string> args{"validate", findings.string(), "--tier",
                                "compute",  "--scope",         scope};
  if (compat) {
    args.push_back("--compat");
    args.push_back("tracelens");
  }
  return loupe::test::run_loupe(args);
}

std::string metrics_with_placeholder(const fs::path& out, const std::string& category,
                                     const fs::path& analysis_dir) {
  std::string text = loupe::test::read_text(out / "category_data" / (category + "_metrics.json"));
  const std::string dir = fs::absolute(analysis_dir).lexically_normal().string();
  for (size_t pos = text.find(dir); pos != std::string::npos; pos = text.find(dir)) {
    text.replace(pos, dir.size(), "<output_dir>");
  }
  return text;
}

std::vector<PackCase> pack_cases_for_skill(const fs::path& shared, const std::string& skill) {
  // The manifests are TraceLens's (flat objects per category); a pattern over each category
  // object is enough to read name and skill without a JSON dependency in the tests.
  const std::regex category_object("\\{[^{}]*\"name\":\\s*\"([^\"]+)\"[^{}]*\\}");
  const std::regex skill_field("\"skill\":\\s*\"([^\"]+)\"");
  const std::regex scope_field("\"comparison_scope\":\\s*\"([^\"]+)\"");
  std::vector<PackCase> out;
  for (const char* root : {"data/reference", "data/reference-inference"}) {
    std::vector<fs::path> runs;
    for (const auto& entry : fs::directory_iterator(shared / root)) {
      if (entry.is_directory()) runs.push_back(entry.path());
    }
    std::sort(runs.begin(), runs.end());
    for (const auto& run : runs) {
      const fs::path manifest = run / "category_data" / "category_manifest.json";
      if (!fs::exists(manifest)) continue;
      const std::string text = loupe::test::read_text(manifest);
      std::smatch scope_match;
      const std::string scope = std::regex_search(text, scope_match, scope_field)
                                    ? scope_match[1].str()
                                    : std::string("standalone");
      for (auto it = std::sregex_iterator(text.begin(), text.end(), category_object);
           it != std::sregex_iterator(); ++it) {
        const std::string object = (*it)[0].str();
        std::smatch skill_match;
        if (!std::regex_search(object, skill_match, skill_field) || skill_match[1] != skill) {
          continue;
        }
        const std::string category = (*it)[1].str();
        if (fs::exists(run / "category_data" / (category + "_metrics.json"))) {
          out.push_back({run, category, scope});
        }
      }
    }
  }
  return out;
}

}  // namespace compute_cli_test
