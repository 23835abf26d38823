#pragma once
// Running the real `loupe` executable from tests, and scratch directories.
#include <filesystem>
#include <string>
#include <vector>

namespace loupe::test {

struct CliResult {
  int exit_code = -1;  // the process's exit code; 128+N when killed by signal N
  std::string out;
  std::string err;
};

// Runs <build>/bin/loupe with the arguments (no shell involved).
CliResult run_loupe(const std::vector<std::string>& args);

// Runs any executable with arguments and extra environment entries ("NAME=value").
CliResult run_process(const std::filesystem::path& exe, const std::vector<std::string>& args,
                      const std::vector<std::string>& extra_env = {});

std::filesystem::path loupe_exe();
std::filesystem::path bundled_plugin_dir();  // <build>/lib/loupe/plugins
std::filesystem::path test_plugin_dir();     // <build>/tests/plugins (purpose-built plugins)

// A fresh directory under the system temp dir, removed with its content on destruction.
class TempDir {
 public:
  TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::string read_text(const std::filesystem::path& path);
void write_text(const std::filesystem::path& path, const std::string& text);

// A minimal analysis directory: category_data/category_manifest.json listing these categories
// (platform MI300X, standalone scope, system tier).
void write_manifest(const std::filesystem::path& dir, const std::vector<std::string>& categories);
// Copies a directory tree (e.g. a fixture analysis directory) to a destination.
void copy_tree(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace loupe::test
