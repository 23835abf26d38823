// SIGKILL at random points of `loupe analyze --trace`: every output file is then either absent or
// byte-identical to a complete run's, the input is unchanged, and a rerun into the same directory
// succeeds with exactly the complete run's files.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <thread>

#include "cli_runner.hpp"
#include "test_paths.hpp"

extern char** environ;

namespace fs = std::filesystem;
using loupe::test::read_text;

namespace {

// Every regular file below `dir`, relative path -> bytes; loupe_run.json (which holds wall
// times) is left out.
std::map<std::string, std::string> files_below(const fs::path& dir) {
  std::map<std::string, std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = fs::relative(e.path(), dir).string();
    if (rel == "loupe_run.json") continue;
    out[rel] = read_text(e.path());
  }
  return out;
}

// Starts loupe with the arguments, kills it with SIGKILL after `delay`, waits for it.
void run_and_kill(const std::vector<std::string>& args, std::chrono::microseconds delay) {
  std::vector<std::string> all = {loupe::test::loupe_exe().string()};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  REQUIRE(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&actions);
  std::this_thread::sleep_for(delay);
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

}  // namespace

TEST_CASE("SIGKILL at random points leaves complete or absent files; a rerun succeeds",
          "[trace][cli][crash]") {
  const fs::path trace =
      loupe::test::bundled_data_dir() / "samples/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
  const std::string trace_bytes = read_text(trace);
  loupe::test::TempDir tmp;
  const fs::path out = tmp.path() / "out";
  const std::vector<std::string> args = {"analyze", "--trace",    trace.string(),
                                         "-o",      out.string(), "-q"};

  const auto start = std::chrono::steady_clock::now();
  REQUIRE(loupe::test::run_loupe(args).exit_code == 0);
  const auto full_run = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - start);
  const auto complete = files_below(out);
  REQUIRE(complete.size() >= 20);
  fs::remove_all(out);

  std::mt19937 random(20261201);  // fixed seed: the same kill points on every run
  // Loading and preparing take most of a run and write nothing; the outputs appear in its last
  // part. Kill points cover the whole run, denser towards its end.
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto delay_us = [&](std::mt19937& r) {
    return static_cast<long long>(static_cast<double>(full_run.count()) *
                                  (1.0 - std::pow(unit(r), 2.0)) * 1.05);
  };
  constexpr int kKills = 12;
  int partial_runs = 0;  // kills that left some, but not all, files
  for (int i = 0; i < kKills; ++i) {
    const auto delay = std::chrono::microseconds(delay_us(random));
    INFO("kill " << i << " after " << delay.count() << " us of " << full_run.count());
    run_and_kill(args, delay);
    std::size_t present = 0;
    for (const auto& [rel, bytes] : files_below(out)) {
      if (rel.find(".tmp.") != std::string::npos) continue;  // a temporary, never a target name
      INFO(rel);
      REQUIRE(complete.count(rel) == 1);
      CHECK(bytes == complete.at(rel));
      ++present;
    }
    if (present > 0 && present < complete.size()) ++partial_runs;
    // A rerun into the same directory completes and leaves exactly the complete run's files.
    if (i % 3 == 2) {
      REQUIRE(loupe::test::run_loupe(args).exit_code == 0);
      CHECK(files_below(out) == complete);
      fs::remove_all(out);
    }
  }
  CHECK(read_text(trace) == trace_bytes);  // the input is never modified
  REQUIRE(loupe::test::run_loupe(args).exit_code == 0);
  CHECK(files_below(out) == complete);
  WARN(partial_runs << " of " << kKills << " kills landed while outputs were being written");
}
