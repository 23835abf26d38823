#include "conv_test_support.hpp"

namespace fs = std::filesystem;

namespace conv_test {

void make_analysis_dir(const fs::path& from, const fs::path& to) {
  for (const char* sub : {"category_data", "metadata"}) {
    fs::create_directories(to / sub);
    if (fs::exists(from / sub)) loupe::test::copy_tree(from / sub, to / sub);
  }
  fs::remove(to / "category_data" / "conv_fwd_metrics.json");
  loupe::test::write_text(to / "category_data" / "category_manifest.json",
                          "{\"categories\": [{\"name\": \"conv_fwd\"}]}");
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

}  // namespace conv_test
