#include "cli_runner.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace loupe::test {

namespace fs = std::filesystem;

fs::path loupe_exe() { return LOUPE_EXE_PATH; }
fs::path bundled_plugin_dir() { return LOUPE_BUNDLED_PLUGIN_DIR; }
fs::path test_plugin_dir() { return LOUPE_TEST_PLUGIN_DIR; }

TempDir::TempDir() {
  std::string pattern = (fs::temp_directory_path() / "loupe-test-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return std::move(s).str();
}

void write_text(const fs::path& path, const std::string& text) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

void copy_tree(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

CliResult run_process(const fs::path& exe, const std::vector<std::string>& args,
                      const std::vector<std::string>& extra_env) {
  TempDir scratch;
  const fs::path out_path = scratch.path() / "stdout";
  const fs::path err_path = scratch.path() / "stderr";

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);

  std::vector<std::string> argv_storage;
  argv_storage.push_back(exe.string());
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::vector<std::string> env_storage;
  // Extra entries replace inherited ones of the same name.
  auto name_of = [](const std::string& entry) { return entry.substr(0, entry.find('=')); };
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    bool overridden = false;
    for (const auto& extra : extra_env) overridden = overridden || name_of(extra) == name_of(entry);
    if (!overridden) env_storage.push_back(entry);
  }
  env_storage.insert(env_storage.end(), extra_env.begin(), extra_env.end());
  std::vector<char*> envp;
  for (auto& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);

  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + exe.string());
  int status = 0;
  ::waitpid(pid, &status, 0);

  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_text(out_path);
  result.err = read_text(err_path);
  return result;
}

CliResult run_loupe(const std::vector<std::string>& args) { return run_process(loupe_exe(), args); }

void write_manifest(const fs::path& dir, const std::vector<std::string>& categories) {
  std::string list;
  for (const auto& c : categories) {
    list += std::string(list.empty() ? "" : ", ") + R"({"name": ")" + c + R"(", "tier": "system"})";
  }
  write_text(
      dir / "category_data" / "category_manifest.json",
      R"({"platform": "MI300X", "comparison_scope": "standalone", "categories": [)" + list + "]}");
}

}  // namespace loupe::test
