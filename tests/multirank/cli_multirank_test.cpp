// `loupe analyze --trace-glob / --trace-pattern`: rank sets refused before any work, the full
// per-rank analyses plus the collective report (compat: TraceLens's bytes), the cross-rank
// findings naming the injected straggler, reruns replacing the previous outputs, and an
// unreadable rank reported while the rest completes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "file_events.hpp"
#include "loupe/core/model/model.hpp"
#include "schema_check.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;
using loupe::test::TempDir;
using loupe::test::write_text;

namespace {

const fs::path bundled_set() { return loupe::test::bundled_data_dir() / "multirank/bert_4r"; }

// A copy of the bundled traces under `dir`, as rank<r>_trace.json.gz.
void copy_traces(const fs::path& dir) {
  fs::create_directories(dir);
  for (int r = 0; r < 4; ++r) {
    const std::string name = "rank" + std::to_string(r) + "_trace.json.gz";
    fs::copy_file(bundled_set() / "traces" / name, dir / name);
  }
}

std::vector<std::string> with_plugins(std::vector<std::string> args) {
  args.push_back("--plugin-dir");
  args.push_back(loupe::test::bundled_plugin_dir().string());
  return args;
}

}  // namespace

TEST_CASE("rank sets with a missing, duplicate or out-of-range rank are refused before work",
          "[multirank][cli]") {
  TempDir tmp;
  const fs::path traces = tmp.path() / "traces";
  copy_traces(traces);
  const fs::path out = tmp.path() / "out";
  const std::string glob = (traces / "rank*_trace.json.gz").string();

  fs::remove(traces / "rank2_trace.json.gz");
  auto r = run_loupe({"analyze", "--trace-glob", glob, "-o", out.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no trace for rank(s) 2 of world size 4") != std::string::npos);
  CHECK_FALSE(fs::exists(out));

  fs::copy_file(traces / "rank1_trace.json.gz", traces / "rank2_trace.json.gz");
  fs::copy_file(traces / "rank1_trace.json.gz", traces / "rank_1_copy.json.gz");
  r = run_loupe({"analyze", "--trace-glob", (traces / "*.json.gz").string(), "-o", out.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("rank 1 has 2 files") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  fs::remove(traces / "rank_1_copy.json.gz");

  r = run_loupe({"analyze", "--trace-glob", glob, "--world-size", "3", "-o", out.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("rank(s) 3") != std::string::npos);
  CHECK(r.err.find("outside --world-size 3") != std::string::npos);

  // `**` crosses directories; a custom regex with one group names the rank.
  r = run_loupe({"analyze", "--trace-glob", (tmp.path() / "**" / "*.gz").string(), "--rank-regex",
                 "rank(\\d+)_trace", "--world-size", "3", "-o", out.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("rank3_trace.json.gz) outside --world-size 3") != std::string::npos);

  r = run_loupe(
      {"analyze", "--trace-pattern", (traces / "rank_trace.json.gz").string(), "-o", out.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("exactly one '*'") != std::string::npos);

  r = run_loupe({"analyze", "--trace-glob", glob, "--trace", "x.json", "-o", out.string()});
  CHECK(r.exit_code == 2);
  r = run_loupe({"analyze", "--world-size", "4", "--trace", "x.json", "-o", out.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--world-size applies to --trace-glob") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("rank numbers: one bounded rule, huge ranks refused naming the file, short messages",
          "[multirank][cli]") {
  // Empty files: the rank set is refused before any file is read.
  TempDir tmp;
  const fs::path traces = tmp.path() / "traces";
  fs::create_directories(traces);
  const fs::path out = tmp.path() / "out";
  const auto touch = [&](const std::string& rank) {
    write_text(traces / ("rank" + rank + "_trace.json"), "");
  };
  const auto analyze = [&](std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"analyze", "--trace-glob",
                                     (traces / "rank*_trace.json").string(), "-o", out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_loupe(args);
  };
  touch("0");
  // Near INT_MAX (once a 2^31-entry vector of missing ranks, or a signed overflow of the world
  // size), 10^7 (once an 89 MB message), 2^32 (once dropped silently, exit 0), 60 digits.
  for (const std::string& rank : std::vector<std::string>{
           "2147483647", "2147483646", "10000000", "4294967296", "1000000", std::string(60, '9')}) {
    INFO(rank);
    touch(rank);
    const auto r = analyze();
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("rank" + rank.substr(0, 20)));  // names the file
    CHECK_THAT(r.err, Catch::Contains("is too large: ranks must be below 1000000"));
    CHECK(r.err.size() < 600);
    CHECK_FALSE(fs::exists(out));
    fs::remove(traces / ("rank" + rank + "_trace.json"));
  }
  // The largest rank accepted: one missing range, named as a range.
  touch("999999");
  auto r = analyze();
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("no trace for rank(s) 1-999998 of world size 1000000"));
  CHECK(r.err.size() < 600);
  // Many gaps: the first ten ranges, then the totals.
  for (int rank = 2; rank <= 40; rank += 2) touch(std::to_string(rank));
  r = analyze();
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("no trace for rank(s) 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, "
                                    "... (999978 ranks missing in all, in 21 ranges)"));
  CHECK(r.err.size() < 600);
  fs::remove(traces / "rank999999_trace.json");
  r = analyze({"--world-size", "7"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("rank(s) 8, 10, 12, 14, 16, 18, 20, 22, 24, 26 and 7 more"));
  CHECK(r.err.size() < 600);
  // --world-size out of its range, or not an int.
  for (const std::string& world :
       std::vector<std::string>{"-2147483648", "0", "1000001", "2147483648", "4294967296"}) {
    INFO(world);
    r = analyze({"--world-size", world});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("world-size"));
  }
  // A --rank-regex group that matched text other than digits is refused, not read as its prefix.
  for (int rank = 2; rank <= 40; rank += 2)
    fs::remove(traces / ("rank" + std::to_string(rank) + "_trace.json"));
  write_text(traces / "rank1x_trace.json", "");
  r = analyze({"--rank-regex", "rank(.+)_trace"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("rank1x_trace.json: the rank in the file name, '1x', is not a "
                                    "decimal number"));
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("compat: every rank analyzed and the collective report equals TraceLens's",
          "[multirank][cli]") {
  TempDir tmp;
  const fs::path out = tmp.path() / "out";
  const std::string pattern = (bundled_set() / "traces/rank*_trace.json.gz").string();
  const auto r = run_loupe(with_plugins(
      {"analyze", "--trace-pattern", pattern, "--compat", "tracelens", "-o", out.string()}));
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  for (int rank = 0; rank < 4; ++rank) {
    const fs::path dir = out / ("rank_" + std::to_string(rank));
    CHECK(fs::exists(dir / "perf_report_csvs/gpu_timeline.csv"));
    CHECK(fs::exists(dir / "loupe_run.json"));
  }
  std::size_t identical = 0;
  for (const auto& entry : fs::directory_iterator(bundled_set() / "reference")) {
    const fs::path ours = out / "collective_report" / entry.path().filename();
    INFO(ours);
    REQUIRE(fs::exists(ours));
    if (read_text(ours) == read_text(entry.path())) ++identical;
  }
  CHECK(identical == 7);
  CHECK_FALSE(fs::exists(out / "system_findings/multirank_findings.md"));  // default mode only
  CHECK_FALSE(fs::exists(out / "findings.json"));
  CHECK_FALSE(fs::exists(out / ".loupe_multirank"));
}

namespace {

// OUT/findings.json against the ranks' own findings.json: every per-rank finding id appears once,
// with exactly the ranks that report it and the median of their mid savings; the straggler's
// cross-rank card is there; priorities follow the mid saving.
void check_rank_set_findings(const fs::path& out, int world) {
  const auto set = loupe::core::parse_json_document(read_text(out / "findings.json"));
  CHECK(std::string((*set)["schema"].GetString()) == "loupe.rank_set_findings/2");
  // The document conforms to the shipped schema (docs/schemas/rank_set_findings.schema.json).
  const auto schema = loupe::core::parse_json_document(
      read_text(loupe::test::bundled_data_dir().parent_path().parent_path() /
                "docs/schemas/rank_set_findings.schema.json"));
  const auto problems = loupe::test::schema_problems(*schema, *set);
  INFO(problems.size() << " problems, first: " << (problems.empty() ? "" : problems.front()));
  CHECK(problems.empty());
  CHECK((*set)["run"]["world_size"].GetInt() == world);
  CHECK(static_cast<int>((*set)["run"]["ranks_with_findings"].Size()) == world);
  std::map<std::string, std::map<int, double>> mids;  // id -> rank -> mid saving
  std::map<std::string, std::set<int>> seen;
  for (int r = 0; r < world; ++r) {
    const auto rank = loupe::core::parse_json_document(
        read_text(out / ("rank_" + std::to_string(r)) / "findings.json"));
    for (const auto& f : (*rank)["findings"].GetArray()) {
      seen[f["id"].GetString()].insert(r);
      if (f["saving_ms"]["mid"].IsNumber()) {
        mids[f["id"].GetString()][r] = f["saving_ms"]["mid"].GetDouble();
      }
    }
  }
  std::set<std::string> ids;
  bool straggler = false;
  double previous = 1e300;
  std::size_t per_rank = 0;
  for (const auto& f : (*set)["findings"].GetArray()) {
    const std::string id = f["id"].GetString();
    INFO(id << " " << f["title"].GetString());
    CHECK(ids.insert(id).second);
    if (f["saving_ms"]["mid"].IsNumber()) {
      CHECK(f["saving_ms"]["mid"].GetDouble() <= previous);
      previous = f["saving_ms"]["mid"].GetDouble();
    }
    if (std::string(f["scope"].GetString()) == "cross_rank") {
      straggler =
          straggler || std::string(f["title"].GetString()).rfind("Rank 2 is a straggler", 0) == 0;
      continue;
    }
    ++per_rank;
    REQUIRE(seen.count(id) == 1);
    std::set<int> ranks;
    for (const auto& r : f["ranks"].GetArray()) ranks.insert(r.GetInt());
    CHECK(ranks == seen[id]);
    if (mids.count(id) == 1) {
      std::vector<double> values;
      for (const auto& [rank, mid] : mids[id]) values.push_back(mid);
      std::sort(values.begin(), values.end());
      CHECK(f["saving_ms"]["mid"].GetDouble() == Approx(values[(values.size() - 1) / 2]));
      CHECK(f["saving_ms_range"]["min"].GetDouble() == Approx(values.front()));
      CHECK(f["saving_ms_range"]["max"].GetDouble() == Approx(values.back()));
    }
  }
  CHECK(straggler);
  CHECK(per_rank == seen.size());  // every per-rank finding, merged once
  CHECK(per_rank >= 5);
}

}  // namespace

TEST_CASE("default mode: the cross-rank findings name the straggler; a rerun replaces the run",
          "[multirank][cli]") {
  TempDir tmp;
  const fs::path traces = tmp.path() / "traces";
  copy_traces(traces);
  const fs::path out = tmp.path() / "out";
  const std::string glob = (traces / "rank*_trace.json.gz").string();
  auto r = run_loupe(with_plugins({"analyze", "--trace-glob", glob, "-o", out.string()}));
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(fs::exists(out / "rank_0/system_findings/cpu_idle_findings.md"));  // plugins ran per rank
  const std::string findings = read_text(out / "system_findings/multirank_findings.md");
  CHECK(findings.find("Rank 2 is a straggler") != std::string::npos);
  // truth.json: rank 2 runs 15 % slower (speed factor 1.150 against 0.986-1.012).
  CHECK(findings.find("Its GPU computes 1") != std::string::npos);
  CHECK(findings.find("Node 1's clock reads 29.25 µs behind node 0") != std::string::npos);
  const auto validated = run_loupe(
      {"validate", (out / "system_findings/multirank_findings.md").string(), "--tier", "system"});
  CHECK(validated.exit_code == 0);
  check_rank_set_findings(out, 4);
  const std::string record = read_text(out / "loupe_run.json");
  CHECK(record.find("\"findings.json\"") != std::string::npos);
  CHECK(record.find("\"rank_3/perf_report_csvs/gpu_timeline.csv\"") != std::string::npos);
  CHECK(record.find("\"collective_report/nccl_long.csv\"") != std::string::npos);

  // Rerun with three ranks: rank_3/ of the first run must not survive.
  fs::remove(traces / "rank3_trace.json.gz");
  // Per-rank options pass through (--only): fewer analyzers keep the test short.
  r = run_loupe(
      with_plugins({"analyze", "--trace-glob", glob, "--only", "cpu_idle", "-o", out.string()}));
  REQUIRE(r.exit_code == 0);
  CHECK_FALSE(fs::exists(out / "rank_3/perf_report_csvs/gpu_timeline.csv"));
  CHECK(fs::exists(out / "rank_2/perf_report_csvs/gpu_timeline.csv"));
}

TEST_CASE("an unreadable rank is named and left out; the other ranks complete",
          "[multirank][cli]") {
  TempDir tmp;
  const fs::path traces = tmp.path() / "traces";
  copy_traces(traces);
  // Rank 1's file becomes a truncated gzip stream.
  const std::string bytes = read_text(traces / "rank1_trace.json.gz");
  loupe::test::write_text(traces / "rank1_trace.json.gz", bytes.substr(0, bytes.size() / 3));
  const fs::path out = tmp.path() / "out";
  const auto r = run_loupe(with_plugins(
      {"analyze", "--trace-glob", (traces / "rank*_trace.json.gz").string(), "-o", out.string()}));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("excluded: rank 1: ") != std::string::npos);
  CHECK(r.out.find("rank1_trace.json.gz could not be analyzed") != std::string::npos);
  CHECK(fs::exists(out / "rank_0/perf_report_csvs/gpu_timeline.csv"));
  CHECK(fs::exists(out / "rank_3/perf_report_csvs/gpu_timeline.csv"));
  const std::string long_table = read_text(out / "collective_report/nccl_long.csv");
  CHECK(long_table.find("\n1_0,0,0,") != std::string::npos);  // rank 0's rows are there
  CHECK(long_table.find(",0,1,1,") == std::string::npos);     // no row of rank 1
  const std::string record = read_text(out / "loupe_run.json");
  CHECK(record.find("\"excluded\": true") != std::string::npos);
}

TEST_CASE("--collectives-only: the same collective report and cross-rank findings, no rank runs",
          "[multirank][cli]") {
  TempDir tmp;
  const fs::path traces = tmp.path() / "traces";
  copy_traces(traces);
  const std::string glob = (traces / "rank*_trace.json.gz").string();
  const fs::path full = tmp.path() / "full";
  const fs::path only = tmp.path() / "only";
  auto r = run_loupe(with_plugins({"analyze", "--trace-glob", glob, "-o", full.string()}));
  REQUIRE(r.exit_code == 0);
  r = run_loupe({"analyze", "--trace-glob", glob, "--collectives-only", "-o", only.string()});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Loupe multi-rank collective report (4 ranks)") != std::string::npos);
  size_t tables = 0;
  for (const auto& entry : fs::directory_iterator(full / "collective_report")) {
    INFO(entry.path().filename().string());
    CHECK(read_text(entry.path()) ==
          read_text(only / "collective_report" / entry.path().filename()));
    ++tables;
  }
  CHECK(tables >= 7);
  // The cross-rank cards use each rank's GPU time split: computed by the children, the same
  // numbers as the full analyses' gpu_timeline.csv.
  const std::string findings = read_text(only / "system_findings/multirank_findings.md");
  CHECK(findings == read_text(full / "system_findings/multirank_findings.md"));
  CHECK(findings.find("Rank 2 is a straggler") != std::string::npos);
  for (int rank = 0; rank < 4; ++rank) {
    CHECK_FALSE(fs::exists(only / ("rank_" + std::to_string(rank))));
  }
  const std::string record = read_text(only / "loupe_run.json");
  CHECK(record.find("\"collectives_only\": true") != std::string::npos);
  const std::string set = read_text(only / "findings.json");
  CHECK(set.find("Rank 2 is a straggler") != std::string::npos);

  // A collectives-only run into the full run's OUT leaves none of its rank directories.
  r = run_loupe({"analyze", "--trace-glob", glob, "--collectives-only", "-o", full.string()});
  REQUIRE(r.exit_code == 0);
  CHECK_FALSE(fs::exists(full / "rank_0"));
  CHECK(fs::exists(full / "collective_report/nccl_long.csv"));

  // Compat: TraceLens's collective report alone, the bytes of the full compat run.
  const fs::path compat = tmp.path() / "compat";
  r = run_loupe({"analyze", "--trace-glob", glob, "--collectives-only", "--compat", "tracelens",
                 "-o", compat.string()});
  REQUIRE(r.exit_code == 0);
  CHECK(read_text(compat / "collective_report/nccl_long.csv") ==
        read_text(bundled_set() / "reference/nccl_long.csv"));
  CHECK_FALSE(fs::exists(compat / "system_findings"));

  // One trace is not a rank set.
  const auto single = run_loupe({"analyze", "--trace", (traces / "rank0_trace.json.gz").string(),
                                 "--collectives-only", "-o", (tmp.path() / "x").string()});
  CHECK(single.exit_code == 2);
  CHECK(single.err.find("--collectives-only applies to --trace-glob / --trace-pattern") !=
        std::string::npos);
}

TEST_CASE("--prefer reaches every rank of a rank set: each rank's GEMMs go to the vendor plugin",
          "[multirank][cli][prefer]") {
  TempDir tmp;
  const fs::path traces = tmp.path() / "traces";
  copy_traces(traces);
  const fs::path out = tmp.path() / "out";
  const std::string glob = (traces / "rank*_trace.json.gz").string();
  const std::string vendor = (loupe::test::test_plugin_dir() / "vendor_primary").string();
  const auto r = run_loupe(
      with_plugins({"analyze", "--trace-glob", glob, "-o", out.string(), "--only", "gemm",
                    "--plugin-dir", vendor, "--prefer", "vendor_gemm_primary", "--strict"}));
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  for (int rank = 0; rank < 4; ++rank) {
    INFO("rank " << rank);
    const fs::path dir = out / ("rank_" + std::to_string(rank));
    const std::string record = read_text(dir / "loupe_run.json");
    // The vendor plugin analyzed gemm; the bundled gemm is recorded as displaced by --prefer.
    CHECK(record.find("\"name\": \"vendor_gemm_primary\"") != std::string::npos);
    CHECK(record.find("\"preferred\": \"vendor_gemm_primary\"") != std::string::npos);
    CHECK(record.find("\"source\": \"--prefer\"") != std::string::npos);
    CHECK(read_text(dir / "category_findings/gemm_findings.md").find("Slow op") !=
          std::string::npos);
  }
  // A preference naming a plugin that is not there stops the whole set before any work.
  const fs::path out2 = tmp.path() / "out2";
  const auto missing = run_loupe(with_plugins(
      {"analyze", "--trace-glob", glob, "-o", out2.string(), "--prefer", "no_such_plugin"}));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("prefers plugin 'no_such_plugin'") != std::string::npos);
  CHECK_FALSE(fs::exists(out2 / "rank_0/perf_report_csvs"));
}

TEST_CASE("the driver reads back none of the files the ranks wrote", "[multirank][cli]") {
  TempDir tmp;
  const fs::path out = tmp.path() / "out";
  // Every folder a rank set writes into, made first so that each is watched from its first file.
  loupe::test::FileEvents events;
  REQUIRE(events.ok());
  std::vector<fs::path> dirs{out, out / "collective_report", out / "system_findings"};
  for (int rank = 0; rank < 4; ++rank) {
    const fs::path dir = out / ("rank_" + std::to_string(rank));
    for (const char* sub : {"category_data", "category_findings", "system_findings", "metadata",
                            "perf_report_csvs"}) {
      dirs.push_back(dir / sub);
    }
    dirs.push_back(dir);
  }
  for (const auto& dir : dirs) {
    fs::create_directories(dir);
    REQUIRE(events.watch(dir));
  }
  const std::string pattern = (bundled_set() / "traces/rank*_trace.json.gz").string();
  const auto r =
      run_loupe(with_plugins({"analyze", "--trace-pattern", pattern, "-o", out.string()}));
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto reread = events.reread_after_write(out);
  REQUIRE_FALSE(events.overflowed());
  INFO("opened for reading after they were written: " << loupe::test::listed(reread));
  CHECK(reread.empty());
  CHECK(events.written() >= 4 * 40);
  CHECK(events.unwatched_file(out).empty());
  // The watch sees a read-back.
  read_text(out / "rank_0/findings.json");
  CHECK(events.reread_after_write(out) == std::set<std::string>{"rank_0/findings.json"});
  // The set's findings.json still merges the ranks' own findings (each lists its ranks).
  CHECK(read_text(out / "findings.json").find("\"ranks\": [") != std::string::npos);
}
