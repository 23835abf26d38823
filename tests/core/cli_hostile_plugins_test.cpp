// `loupe analyze` against plugins that misbehave on purpose: at load time (crash, hang, garbage
// descriptor, unsafe names) and at analysis time (writing files, leaving grandchildren, using
// too much memory, emitting documents the host must refuse, printing control characters).
// Every case leaves the host running, a loupe_run.json, the good plugin's outputs as a clean run
// writes them, nothing outside -o, and the bad category ERROR in every file that mentions it.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli_runner.hpp"
#include "loupe/core/model/model.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;
using loupe::test::run_process;
using loupe::test::TempDir;
using loupe::test::write_manifest;

namespace {

// --plugin-timeout 2 keeps the hanging plugins' cases short; a case whose plugins all return
// passes a longer `timeout` (a flood of 64 MiB of errors takes 1.5 s under ASan on an idle 2-core
// VM, and more beside another test).
std::vector<std::string> hostile_args(const fs::path& in, const fs::path& out,
                                      const std::vector<std::string>& cases,
                                      std::vector<std::string> extra = {},
                                      const std::string& timeout = "2") {
  std::vector<std::string> args = {"analyze",    in.string(),        "-o",
                                   out.string(), "--plugin-timeout", timeout};
  for (const auto& c : cases) {
    args.emplace_back("--plugin-dir");
    args.push_back((loupe::test::test_plugin_dir() / c).string());
  }
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

const rapidjson::Value* find_category_record(const rapidjson::Document& run,
                                             const std::string& cat) {
  for (const auto& plugin : run["plugins"].GetArray()) {
    for (const auto& c : plugin["categories"].GetArray()) {
      if (cat == c["category"].GetString()) return &c;
    }
  }
  return nullptr;
}

// The run record's status and message for a category, and both files say the same.
void check_error_everywhere(const fs::path& out, const std::string& category,
                            const std::string& reason,
                            const char* findings_dir = "system_findings") {
  const auto run = loupe::core::parse_json_document(read_text(out / "loupe_run.json"));
  const auto* rec = find_category_record(*run, category);
  REQUIRE(rec != nullptr);
  CHECK(std::string((*rec)["status"].GetString()) == "ERROR");
  CHECK_THAT(std::string((*rec)["message"].GetString()), Catch::Contains(reason));
  const auto metrics = loupe::core::parse_json_document(
      read_text(out / "category_data" / (category + "_metrics.json")));
  CHECK(std::string((*metrics)["status"].GetString()) == "ERROR");
  const std::string md = read_text(out / findings_dir / (category + "_findings.md"));
  CHECK_THAT(md, Catch::Contains("**Status**: ERROR"));
}

std::string clean_good_findings() {
  TempDir in, out;
  write_manifest(in.path(), {"test_good"});
  REQUIRE(run_loupe(hostile_args(in.path(), out.path(), {"good"})).exit_code == 0);
  return read_text(out.path() / "system_findings" / "test_good_findings.md");
}

bool landlock_disabled() { return std::getenv("LOUPE_NO_LANDLOCK") != nullptr; }

// The sandbox levels the test switch forces (docs/reliability.md, "Kernel matrix"); "" is what
// this machine offers.
const std::vector<std::string> kSandboxLevels = {"", "no-namespaces", "landlock-2", "no-landlock"};

std::vector<std::string> level_env(const std::string& level) {
  return {"LOUPE_TEST_SANDBOX_LEVEL=" + level};
}

// Processes named by behaviour 20 of the test plugin that are still alive.
int leftover_processes() {
  int alive = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    std::ifstream comm(entry.path() / "comm");
    std::string name;
    if (std::getline(comm, name) && name == "loupe-leftover") ++alive;
  }
  return alive;
}

}  // namespace

TEST_CASE("plugins that crash, hang or lie while loading are recorded rejections", "[hostile]") {
  TempDir in, out;
  write_manifest(in.path(), {"test_good"});
  const std::vector<std::string> bad = {"entry_segfaults", "constructor_segfaults",
                                        "entry_is_data",   "garbage_descriptor",
                                        "entry_hangs",     "escaping_category"};
  std::vector<std::string> cases = {"good"};
  cases.insert(cases.end(), bad.begin(), bad.end());
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_loupe(hostile_args(in.path(), out.path(), cases));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
  CHECK(read_text(out.path() / "system_findings" / "test_good_findings.md") ==
        clean_good_findings());
  const auto run = loupe::core::parse_json_document(read_text(out.path() / "loupe_run.json"));
  std::size_t rejected = 0;
  for (const auto& f : (*run)["plugin_files"].GetArray()) {
    if (std::string(f["state"].GetString()) == "rejected") {
      ++rejected;
      CHECK(f.HasMember("reason"));
    }
  }
  CHECK(rejected == bad.size());
  CHECK_THAT(r.out, Catch::Contains("plugin files not used: 6 rejected, 0 shadowed"));

  // --strict refuses to start, before writing anything.
  TempDir out2;
  const auto strict = run_loupe(hostile_args(in.path(), out2.path(), cases, {"--strict"}));
  CHECK(strict.exit_code == 2);
  CHECK_THAT(strict.err, Catch::Contains("--strict"));
  CHECK_FALSE(fs::exists(out2.path() / "loupe_run.json"));
}

TEST_CASE("unsafe names never become paths; a missing --plugin-dir is an error", "[hostile]") {
  TempDir in, out;
  write_manifest(in.path(), {"test_good"});
  auto r = run_loupe(hostile_args(in.path(), out.path(), {"good", "escaping_category"},
                                  {"--only", "../../ESCAPED"}));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("'../../ESCAPED' is not a category name") ||
                        Catch::Contains("--only ../../ESCAPED"));
  CHECK_FALSE(fs::exists(out.path().parent_path() / "ESCAPED_metrics.json"));
  CHECK_FALSE(fs::exists(out.path().parent_path().parent_path() / "ESCAPED_findings.md"));

  write_manifest(in.path(), {"../../ESCAPED"});
  r = run_loupe(hostile_args(in.path(), out.path(), {"good"}));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("categories[0] is not an object with a valid \"name\""));

  r = run_loupe({"analyze", in.path().string(), "-o", out.path().string(), "--plugin-dir",
                 (in.path() / "no_such_plugins").string()});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("no_such_plugins does not exist"));
}

TEST_CASE("a plugin child cannot change files: Landlock refuses, the fallback detects",
          "[hostile]") {
  TempDir in, out, elsewhere;
  write_manifest(in.path(), {"test_good", "test_writes"});
  const fs::path outside = elsewhere.path() / "planted.txt";
  auto r = run_process(loupe::test::loupe_exe(),
                       hostile_args(in.path(), out.path(), {"good", "writes_files"}),
                       {"LOUPE_TEST_WRITE_PATH=" + outside.string()});
  INFO(r.out << r.err);
  if (!landlock_disabled()) {
    CHECK(r.exit_code == 0);
    CHECK_FALSE(fs::exists(outside));
    const auto metrics = loupe::core::parse_json_document(
        read_text(out.path() / "category_data" / "test_writes_metrics.json"));
    CHECK_FALSE((*metrics)["write_succeeded"].GetBool());
  }
  // Without Landlock, a write into the output directory is found by comparing the directories.
  TempDir out2;
  const fs::path target = out2.path() / "system_findings" / "test_good_findings.md";
  r = run_process(loupe::test::loupe_exe(),
                  hostile_args(in.path(), out2.path(), {"good", "writes_files"}),
                  {"LOUPE_TEST_WRITE_PATH=" + target.string(), "LOUPE_NO_LANDLOCK=1"});
  CHECK(r.exit_code == 1);
  check_error_everywhere(out2.path(), "test_writes", "changed files it may not write");
  CHECK_THAT(read_text(out2.path() / "loupe_run.json"),
             Catch::Contains("test_good_findings.md (modified)"));
}

TEST_CASE("a plugin child cannot start programs or open network sockets", "[hostile]") {
  TempDir in, out;
  write_manifest(in.path(), {"test_good", "test_exec_and_udp"});
  const auto r = run_loupe(hostile_args(in.path(), out.path(), {"good", "exec_and_udp"}));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  const auto metrics = loupe::core::parse_json_document(
      read_text(out.path() / "category_data" / "test_exec_and_udp_metrics.json"));
  CHECK((*metrics)["exec_refused"].GetBool());
  CHECK((*metrics)["udp_refused"].GetBool());
  CHECK_FALSE((*metrics)["unix_socket_opened"].GetBool());
  CHECK((*metrics)["socketpair_opened"].GetBool());
  // The host itself is not filtered: the same plugin run in-process (--no-isolate, a debugging
  // mode) can do both.
  TempDir out2;
  const auto r2 =
      run_loupe(hostile_args(in.path(), out2.path(), {"good", "exec_and_udp"}, {"--no-isolate"}));
  REQUIRE(r2.exit_code == 0);
  const auto unfiltered = loupe::core::parse_json_document(
      read_text(out2.path() / "category_data" / "test_exec_and_udp_metrics.json"));
  CHECK_FALSE((*unfiltered)["exec_refused"].GetBool());
  CHECK_FALSE((*unfiltered)["udp_refused"].GetBool());
}

TEST_CASE("no grandchild outlives its plugin run", "[hostile]") {
  TempDir in, out, elsewhere;
  write_manifest(in.path(), {"test_grandchild"});
  const fs::path late = elsewhere.path() / "late.txt";
  // Without Landlock, only the host's cleanup stands between the grandchild and the file.
  const auto r =
      run_process(loupe::test::loupe_exe(), hostile_args(in.path(), out.path(), {"grandchild"}),
                  {"LOUPE_TEST_WRITE_PATH=" + late.string(), "LOUPE_NO_LANDLOCK=1"});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(3000));
  CHECK_FALSE(fs::exists(late));
}

TEST_CASE("a plugin over its memory limit ends ERROR saying so", "[hostile]") {
#if defined(__SANITIZE_ADDRESS__)
  WARN("SKIPPED: address-space limits do not apply under AddressSanitizer");
#else
  TempDir in, out;
  write_manifest(in.path(), {"test_good", "test_memory_hog"});
  const auto r = run_loupe(
      hostile_args(in.path(), out.path(), {"good", "memory_hog"}, {"--plugin-memory", "256"}));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  check_error_everywhere(out.path(), "test_memory_hog",
                         "ran out of memory under its limit of 256 MB");
  CHECK(read_text(out.path() / "system_findings" / "test_good_findings.md") ==
        clean_good_findings());
#endif
}

TEST_CASE("documents the host must refuse end ERROR with a message naming the problem",
          "[hostile]") {
  TempDir in, out;
  write_manifest(in.path(), {"test_good", "test_nul_metrics", "test_empty_title",
                             "test_wrong_category", "test_heading_text"});
  const auto r = run_loupe(hostile_args(
      in.path(), out.path(),
      {"good", "nul_metrics", "empty_title", "wrong_category", "heading_text"},
      {"--only",
       "test_good,test_nul_metrics,test_empty_title,test_wrong_category,test_heading_text"}));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  check_error_everywhere(out.path(), "test_nul_metrics", "contains a NUL byte at offset");
  check_error_everywhere(out.path(), "test_empty_title", "empty title");
  check_error_everywhere(out.path(), "test_wrong_category", "for category 'kernel_fusion'");
  check_error_everywhere(out.path(), "test_heading_text", "findings could not be rendered",
                         "category_findings");
  CHECK(read_text(out.path() / "system_findings" / "test_good_findings.md") ==
        clean_good_findings());
  CHECK_FALSE(fs::exists(out.path() / "system_findings" / "kernel_fusion_findings.md"));
}

TEST_CASE("plugin output reaches the terminal escaped", "[hostile]") {
  TempDir in, out;
  write_manifest(in.path(), {"test_noisy"});
  const auto r = run_loupe({"analyze", in.path().string(), "-o", out.path().string(),
                            "--plugin-dir", (loupe::test::test_plugin_dir() / "noisy").string()});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("[test_noisy output] raw \\x1b[31mred\\x1b[0m output"));
  CHECK(r.err.find('\x1b') == std::string::npos);
  CHECK(r.out.find('\x1b') == std::string::npos);
}

TEST_CASE("at every sandbox level a plugin can neither reach the host nor change the system",
          "[hostile]") {
  TempDir in, elsewhere;
  write_manifest(in.path(), {"test_good", "test_attacks_host"});
  const fs::path target = elsewhere.path() / "input_like.txt";
  { std::ofstream(target) << "left alone\n"; }
  // A descriptor the caller left open (a CI log): the plugin must not find it.
  const fs::path log = elsewhere.path() / "ci.log";
  const int inherited = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  REQUIRE(inherited >= 0);
  struct stat before {};
  REQUIRE(::stat(target.c_str(), &before) == 0);
  const std::string clean = clean_good_findings();
  std::size_t levels = 0;
  for (const auto& level : kSandboxLevels) {
    DYNAMIC_SECTION("level '" << level << "'") {
      TempDir out;
      auto env = level_env(level);
      env.push_back("LOUPE_TEST_TARGET=" + target.string());
      const auto r =
          run_process(loupe::test::loupe_exe(),
                      hostile_args(in.path(), out.path(), {"good", "attacks_host"}), env);
      INFO(r.out << r.err);
      REQUIRE(r.exit_code == 0);
      ++levels;
      CHECK(read_text(out.path() / "system_findings" / "test_good_findings.md") == clean);
      const auto run = loupe::core::parse_json_document(read_text(out.path() / "loupe_run.json"));
      const auto& sandbox = (*run)["sandbox"];
      CHECK(sandbox["seccomp"].GetBool());
      CHECK(std::string(sandbox["capabilities"].GetString()) == "none");
      if (!level.empty()) CHECK_FALSE(sandbox["namespaces"].GetBool());
      if (level == "landlock-2") CHECK(sandbox["landlock_abi"].GetInt() <= 2);
      if (level == "no-landlock") CHECK(sandbox["landlock_abi"].GetInt() == 0);
      if (level == "landlock-2" || level == "no-landlock") {
        CHECK(sandbox["writes_only_detected"].GetBool());
      }
      const auto metrics = loupe::core::parse_json_document(
          read_text(out.path() / "category_data" / "test_attacks_host_metrics.json"));
      const auto& a = (*metrics)["attacks"];
      std::size_t refused = 0;
      for (const char* key :
           {"shmget_refused", "msgget_refused", "semget_refused", "perf_event_open_refused",
            "bpf_refused", "keyctl_refused", "socket_refused", "chmod_refused", "chown_refused",
            "utimensat_refused", "setxattr_refused", "truncate_refused", "fchmod_refused",
            "set_immutable_refused", "capabilities_none", "no_new_privs", "unshare_refused"}) {
        INFO(key);
        CHECK(a[key].GetBool());
        ++refused;
      }
      CHECK(refused == 17);
      CHECK(a["socketpair_opened"].GetBool());
      CHECK(a["open_fds_above_3"].GetInt() == 0);
      // Without a PID namespace the plugin's parent is the host: every attempt on it fails.
      // In one, its parent is the namespace's first process and the host is out of sight.
      if (!sandbox["namespaces"].GetBool()) {
        for (const char* key :
             {"prlimit_parent_refused", "setpriority_parent_refused", "affinity_parent_refused",
              "signal_parent_refused", "join_parent_group_refused", "signal_everyone_refused"}) {
          INFO(key);
          CHECK(a[key].GetBool());
        }
      }
    }
  }
  ::close(inherited);
  struct stat after {};
  REQUIRE(::stat(target.c_str(), &after) == 0);
  CHECK(after.st_mode == before.st_mode);
  CHECK(after.st_mtim.tv_sec == before.st_mtim.tv_sec);
  CHECK(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
  CHECK(after.st_ctim.tv_nsec == before.st_ctim.tv_nsec);
  CHECK(read_text(target) == "left alone\n");
  CHECK(fs::file_size(log) == 0);
  CHECK(levels >= 1);
}

TEST_CASE("a plugin that closes its pipes and hangs is still killed at its timeout", "[hostile]") {
  TempDir in;
  write_manifest(in.path(), {"test_good", "test_closes_pipes"});
  for (const auto& level : {std::string(), std::string("no-namespaces")}) {
    DYNAMIC_SECTION("level '" << level << "'") {
      TempDir out;
      const auto r = run_process(loupe::test::loupe_exe(),
                                 hostile_args(in.path(), out.path(), {"good", "closes_pipes"}),
                                 level_env(level));
      INFO(r.out << r.err);
      CHECK(r.exit_code == 1);
      check_error_everywhere(out.path(), "test_closes_pipes", "timed out after 2.");
    }
  }
}

TEST_CASE("a plugin tree that leaves its session is killed whole, and the timeout holds",
          "[hostile]") {
  TempDir in;
  write_manifest(in.path(), {"test_good", "test_escapes_tree"});
  std::size_t levels = 0;
  for (const auto& level : kSandboxLevels) {
    DYNAMIC_SECTION("level '" << level << "'") {
      TempDir out;
      const auto start = std::chrono::steady_clock::now();
      const auto r = run_process(loupe::test::loupe_exe(),
                                 hostile_args(in.path(), out.path(), {"good", "escapes_tree"}),
                                 level_env(level));
      const auto took = std::chrono::steady_clock::now() - start;
      INFO(r.out << r.err);
      CHECK(r.exit_code == 1);
      ++levels;
      // --plugin-timeout 2: the host gives up at 2 s and says when it did, not minutes later.
      CHECK(took < std::chrono::seconds(30));
      check_error_everywhere(out.path(), "test_escapes_tree", "timed out after 2.");
      check_error_everywhere(out.path(), "test_escapes_tree", "and was killed (its limit: 2.0 s)");
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      CHECK(leftover_processes() == 0);
    }
  }
  CHECK(levels >= 1);
}

TEST_CASE(
    "forged records, floods of errors and escapes in descriptors are refused, capped, "
    "escaped",
    "[hostile]") {
  TempDir in, out;
  write_manifest(in.path(),
                 {"test_good", "test_forges_records", "test_floods_errors", "test_claims_impact"});
  const auto r = run_loupe(hostile_args(in.path(), out.path(),
                                        {"good", "forges_records", "floods_errors", "forged_probe",
                                         "escaping_descriptor", "claims_impact"},
                                        {}, "30"));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(read_text(out.path() / "system_findings" / "test_good_findings.md") ==
        clean_good_findings());
  // Metrics with NaN written straight onto the pipe: refused as if emitted.
  check_error_everywhere(out.path(), "test_forges_records",
                         "handed back a document the host refuses: the metrics document");
  // A saving of 9.1e12 % of the run is no finding.
  check_error_everywhere(out.path(), "test_claims_impact",
                         "claims an impact (mid) of 9100000000000 % of the end-to-end time",
                         "category_findings");
  // 1,024 errors of 64 KiB: 16 kept, each cut; the cut is recorded.
  check_error_everywhere(out.path(), "test_floods_errors", "first error");
  const auto run = loupe::core::parse_json_document(read_text(out.path() / "loupe_run.json"));
  const auto* flood = find_category_record(*run, "test_floods_errors");
  REQUIRE(flood != nullptr);
  REQUIRE(flood->HasMember("truncated"));
  CHECK_THAT(std::string((*flood)["truncated"].GetString()),
             Catch::Contains("1008 error messages dropped"));
  CHECK(std::string((*flood)["message"].GetString()).size() < 40000);
  // A probe record forged by a constructor: rejected, and its name never printed.
  bool forged_rejected = false;
  for (const auto& f : (*run)["plugin_files"].GetArray()) {
    if (std::string(f["path"].GetString()).find("forged_probe") == std::string::npos) continue;
    CHECK(std::string(f["state"].GetString()) == "rejected");
    CHECK_THAT(std::string(f["reason"].GetString()), Catch::Contains("forged records"));
    forged_rejected = true;
  }
  CHECK(forged_rejected);
  CHECK_FALSE(fs::exists(out.path() / "category_data" / "c0_metrics.json"));
  // Nothing a plugin wrote reaches the terminal raw.
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.err.find('\x1b') == std::string::npos);
  CHECK(r.out.find('\x07') == std::string::npos);
  CHECK_THAT(r.out, Catch::Contains("\\x1b]0;owned"));

  const auto listing =
      run_loupe({"plugins", "--plugin-dir",
                 (loupe::test::test_plugin_dir() / "escaping_descriptor").string()});
  INFO(listing.out << listing.err);
  CHECK(listing.exit_code == 0);
  CHECK_THAT(listing.out, Catch::Contains("test_raw_escapes"));
  CHECK_THAT(listing.out, Catch::Contains("\\x1b[31mred"));
  CHECK_THAT(listing.out, Catch::Contains("Sandbox: "));
  const auto json_listing = run_loupe({"plugins", "--json"});
  REQUIRE(json_listing.exit_code == 0);
  const auto listed = loupe::core::parse_json_document(json_listing.out);
  REQUIRE(listed->HasMember("sandbox"));
  CHECK((*listed)["sandbox"]["seccomp"].GetBool());
  CHECK((*listed)["sandbox"]["landlock_abi"].IsInt());
  CHECK(listing.out.find('\x1b') == std::string::npos);
  CHECK(listing.out.find('\x07') == std::string::npos);
}

TEST_CASE(
    "a plugin that makes outputs unwritable fails its own category; the host writes the rest "
    "and says what it could not",
    "[hostile]") {
  TempDir in;
  write_manifest(in.path(), {"test_good", "test_sabotages_output"});
  const std::string clean = clean_good_findings();
  // With Landlock the directories cannot be made: a clean run.
  {
    TempDir out;
    const auto r = run_process(loupe::test::loupe_exe(),
                               hostile_args(in.path(), out.path(), {"good", "sabotages_output"}),
                               {"LOUPE_TEST_SABOTAGE=" + (out.path() / "loupe_run.json").string()});
    INFO(r.out << r.err);
    if (!landlock_disabled()) {
      CHECK(r.exit_code == 0);
      CHECK(fs::is_regular_file(out.path() / "loupe_run.json"));
    }
  }
  // Without Landlock they can: loupe_run.json and findings.json cannot be written.
  TempDir out;
  const auto r = run_process(loupe::test::loupe_exe(),
                             hostile_args(in.path(), out.path(), {"good", "sabotages_output"}),
                             {"LOUPE_TEST_SANDBOX_LEVEL=no-landlock",
                              "LOUPE_TEST_SABOTAGE=" + (out.path() / "loupe_run.json").string() +
                                  ":" + (out.path() / "findings.json").string()});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("Not written: loupe_run.json:"));
  CHECK_THAT(r.out, Catch::Contains("Not written: findings.json:"));
  CHECK_FALSE(r.out.find("Run record:") != std::string::npos);
  CHECK_THAT(r.out, Catch::Contains("ERROR\ttest_sabotages_output"));
  CHECK_THAT(r.out, Catch::Contains("changed files it may not write"));
  CHECK(read_text(out.path() / "system_findings" / "test_good_findings.md") == clean);
  CHECK(fs::is_regular_file(out.path() / "priority_data.json"));
}
