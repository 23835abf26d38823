#include "category_cli.hpp"

namespace fs = std::filesystem;

namespace loupe::test {

CliResult analyze(const fs::path& dir, const fs::path& out, const std::string& category,
                  bool compat, const std::vector<std::string>& extra) {
  std::vector<std::string> args{"analyze", dir.string(), "-o", out.string(), "--only", category};
  if (compat) {
    args.push_back("--compat");
    args.push_back("tracelens");
  }
  args.insert(args.end(), extra.begin(), extra.end());
  return run_loupe(args);
}

CliResult validate(const fs::path& findings, const std::string& scope, bool compat) {
  std::vector<std::string> args{"validate", findings.string(), "--tier",
                                "compute",  "--scope",         scope};
  if (compat) {
    args.push_back("--compat");
    args.push_back("tracelens");
  }
  return run_loupe(args);
}

std::string metrics_with_placeholder(const fs::path& out, const std::string& category,
                                     const fs::path& analysis_dir) {
  std::string text = read_text(out / "category_data" / (category + "_metrics.json"));
  const std::string dir = fs::absolute(analysis_dir).lexically_normal().string();
  for (size_t pos = text.find(dir); pos != std::string::npos; pos = text.find(dir)) {
    text.replace(pos, dir.size(), "<output_dir>");
  }
  return text;
}

}  // namespace loupe::test
