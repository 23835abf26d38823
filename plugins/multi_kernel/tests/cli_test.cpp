// End-to-end tests through the real `loupe` executable and the bundled plugin:
// compat parity (bundled fixtures always; the reference pack when ../shared is present),
// findings validation, the corrected default mode, and bad-input ERROR handling.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;
using loupe::test::TempDir;
using loupe::test::write_text;

namespace {

fs::path fixtures() { return loupe::test::bundled_data_dir() / "multi_kernel"; }

struct Run {
  int exit_code = -1;
  std::string metrics;   // category_data/multi_kernel_metrics.json, "" when absent
  std::string findings;  // system_findings/multi_kernel_findings.md, "" when absent
  fs::path findings_path;
  std::string err;
};

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

Run analyze(const fs::path& dir, const fs::path& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"analyze",    dir.string(), "-o",
                                   out.string(), "--only",     "multi_kernel"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto result = run_loupe(args);
  Run run;
  run.exit_code = result.exit_code;
  run.err = result.err;
  const fs::path metrics = out / "category_data" / "multi_kernel_metrics.json";
  run.findings_path = out / "system_findings" / "multi_kernel_findings.md";
  if (fs::exists(metrics))
    run.metrics = replace_all(read_text(metrics), out.string(), "<output_dir>");
  if (fs::exists(run.findings_path)) run.findings = read_text(run.findings_path);
  return run;
}

bool validates(const fs::path& findings, bool compat) {
  std::vector<std::string> args = {"validate", findings.string(), "--tier", "system"};
  if (compat) args.insert(args.end(), {"--compat", "tracelens"});
  return run_loupe(args).exit_code == 0;
}

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// Lays out a flat golden case (gpu_timeline.csv, multi_kernel_data.json, manifest) as an
// analysis directory.
void layout_flat_case(const fs::path& from, const fs::path& to) {
  fs::create_directories(to / "category_data");
  fs::create_directories(to / "perf_report_csvs");
  for (const char* f : {"multi_kernel_data.json", "category_manifest.json"}) {
    if (fs::exists(from / f)) fs::copy_file(from / f, to / "category_data" / f);
  }
  fs::copy_file(from / "gpu_timeline.csv", to / "perf_report_csvs" / "gpu_timeline.csv");
}

}  // namespace

TEST_CASE("multi_kernel compat metrics equal TraceLens on the bundled fixtures",
          "[multi_kernel][cli]") {
  for (const char* name : {"tc10_custom_ar_memcpy_partial", "tc02_comm_hidden", "h100_owlv2",
                           "e02_no_timeline", "e04_no_total_row", "int_timeline"}) {
    INFO(name);
    TempDir out;
    const Run run = analyze(fixtures() / name, out.path(), {"--compat", "tracelens"});
    CHECK(run.exit_code == 0);
    CHECK(run.metrics == read_text(fixtures() / name / "expected" / "multi_kernel_metrics.json"));
    REQUIRE_FALSE(run.findings.empty());
    CHECK(validates(run.findings_path, false));
    if (contains(run.findings, "kind=p_item")) CHECK(validates(run.findings_path, true));
  }
}

TEST_CASE("multi_kernel findings: TC10 cards, workload and gates", "[multi_kernel][cli]") {
  TempDir out;
  const Run run = analyze(fixtures() / "tc10_custom_ar_memcpy_partial", out.path(),
                          {"--compat", "tracelens", "--workload", "inference"});
  REQUIRE(run.exit_code == 0);
  const std::string& md = run.findings;
  const size_t p1 = md.find("### P1: Host-to-device staging copies");
  const size_t p2 = md.find("### P2: Tensor-parallel collectives stall decode compute");
  CHECK(p1 != std::string::npos);
  CHECK(p2 != std::string::npos);
  CHECK(p1 < p2);
  CHECK(contains(md, "**Workload**: inference, taken from the --workload option."));
  CHECK(contains(md, "| H2D Transfers | 1 (0.120 ms) | true |"));
  CHECK(contains(md, "| Exposed Communication | 38.10% of total | true |"));
  CHECK(contains(md, "<!-- reasoning-candidate tier=system rank=2 -->"));
  for (const char* vendor : {"CUDA", "HIP", "NCCL", "RCCL"}) CHECK_FALSE(contains(md, vendor));
  CHECK(validates(run.findings_path, true));
}

TEST_CASE("multi_kernel no issues: honest findings without cards", "[multi_kernel][cli]") {
  TempDir out;
  const Run run = analyze(fixtures() / "tc02_comm_hidden", out.path());
  REQUIRE(run.exit_code == 0);
  CHECK_FALSE(contains(run.findings, "### P1"));
  CHECK(contains(run.findings, "No multi-kernel issue crossed a threshold: 0 memory copies"));
  CHECK(contains(run.findings, "compute/communication overlap at 100.00%"));
  CHECK(validates(run.findings_path, false));
}

TEST_CASE("multi_kernel default mode: one denominator, negligible-time rule",
          "[multi_kernel][cli]") {
  TempDir out;
  const Run run = analyze(fixtures() / "h100_owlv2", out.path());
  REQUIRE(run.exit_code == 0);
  // TraceLens flags H2D for 25 copies at 0.15 %; the corrected count rule needs > 1 %.
  CHECK(contains(run.metrics, "\"population\": \"all_gpu_events\""));
  CHECK(contains(run.metrics,
                 "\"description\": \"D2H memcpy: 55 transfers, 12.903ms (1.20% of total)\""));
  CHECK_FALSE(contains(run.metrics, "high_h2d_memcpy"));
  CHECK(contains(run.findings, "### P1: Frequent device-to-host copies"));
  CHECK_FALSE(contains(run.findings, "### P2"));
  CHECK(contains(run.findings,
                 "The transfer count of 25 exceeds 10, but the time share of 0.15% "
                 "is at most 1%, so the direction is not flagged."));
  CHECK(validates(run.findings_path, true));

  TempDir compat_out;
  const Run compat =
      analyze(fixtures() / "h100_owlv2", compat_out.path(), {"--compat", "tracelens"});
  CHECK(contains(compat.metrics, "high_h2d_memcpy"));
  CHECK(contains(compat.findings, "### P2: Host-to-device staging copies"));
}

TEST_CASE("multi_kernel bad input: ERROR metrics and findings, exit 1", "[multi_kernel][cli]") {
  const auto make_case = [](const fs::path& root, const std::string& data, const std::string& csv) {
    fs::create_directories(root / "category_data");
    fs::create_directories(root / "perf_report_csvs");
    if (!data.empty()) write_text(root / "category_data" / "multi_kernel_data.json", data);
    write_text(root / "perf_report_csvs" / "gpu_timeline.csv", csv);
  };
  const std::string good_csv = "type,time ms,percent\ntotal_time,0.4,100.0\n";
  struct Case {
    const char* name;
    std::string data;
    std::string csv;
    std::vector<std::string> expected;  // substrings of the metrics "error"
  };
  const std::vector<Case> cases = {
      {"invalid json",
       "{not json",
       good_csv,
       {"category_data/multi_kernel_data.json: invalid JSON at byte 1"}},
      {"empty list", "[]", good_csv, {"the document is an empty list, expected an object"}},
      {"wrong type",
       R"({"nccl_summary": {"total_count": "3"}})",
       good_csv,
       {"nccl_summary.total_count is a string"}},
      {"NaN value",
       R"({"overlap_analysis": {"total_comm_time_us": NaN}})",
       good_csv,
       {"overlap_analysis.total_comm_time_us is NaN"}},
      {"NaN total row",
       "{}",
       "type,time ms,percent\ntotal_time,,100.0\n",
       {"perf_report_csvs/gpu_timeline.csv", "'total_time' row is empty (NaN)"}},
      {"text in time ms",
       "{}",
       "type,time ms,percent\ntotal_time,abc,100.0\n",
       {"perf_report_csvs/gpu_timeline.csv: 'time ms' on data row 1 is 'abc'"}},
      {"missing data file",
       "",
       good_csv,
       {"category_data/multi_kernel_data.json is missing from the analysis directory"}},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    TempDir in;
    make_case(in.path(), c.data, c.csv);
    TempDir out;
    const Run run = analyze(in.path(), out.path());
    CHECK(run.exit_code == 1);
    CHECK(contains(run.metrics, "\"status\": \"ERROR\""));
    for (const auto& s : c.expected) CHECK(contains(run.metrics, s));
    CHECK(contains(run.findings, "**Status**: ERROR"));
    CHECK(contains(run.findings, "\nStatus: ERROR\n"));
  }
}

TEST_CASE("multi_kernel compat parity on every reference directory",
          "[multi_kernel][cli][shared][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  int exact = 0;
  int dirs = 0;
  for (const auto& entry : fs::directory_iterator(shared / "data" / "reference")) {
    const fs::path expected = entry.path() / "category_data" / "multi_kernel_metrics.json";
    if (!fs::exists(expected)) continue;
    ++dirs;
    INFO(entry.path().filename().string());
    TempDir out;
    const Run run = analyze(entry.path(), out.path(), {"--compat", "tracelens"});
    const bool has_data = fs::exists(entry.path() / "category_data" / "multi_kernel_data.json");
    CHECK(run.exit_code == (has_data ? 0 : 1));
    CHECK(run.metrics == read_text(expected));
    exact += run.metrics == read_text(expected) ? 1 : 0;
    if (contains(run.findings, "kind=p_item")) CHECK(validates(run.findings_path, true));
    if (has_data) CHECK(validates(run.findings_path, false));
  }
  CHECK(dirs == 42);
  CHECK(exact == dirs);
}

TEST_CASE("multi_kernel compat parity on the spec's E, TC and R cases",
          "[multi_kernel][cli][shared][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const fs::path golden = shared / "data" / "golden" / "multi_kernel" / "expected";
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(golden / "analysis_only")) {
    const fs::path expected = entry.path() / "category_data" / "multi_kernel_metrics.json";
    INFO(entry.path().filename().string());
    TempDir out;
    const Run run = analyze(entry.path(), out.path(), {"--compat", "tracelens"});
    if (fs::exists(expected)) {
      CHECK(run.metrics == read_text(expected));
      ++checked;
    } else {
      // E01b / E08: TraceLens crashes without a file; Loupe writes an ERROR document.
      CHECK(run.exit_code == 1);
      CHECK(contains(run.metrics, "\"status\": \"ERROR\""));
    }
  }
  for (const auto& entry : fs::directory_iterator(golden)) {
    if (!entry.is_directory() || !fs::exists(entry.path() / "multi_kernel_metrics.json")) continue;
    INFO(entry.path().filename().string());
    TempDir in;
    layout_flat_case(entry.path(), in.path());
    for (const bool compat : {true, false}) {
      TempDir out;
      const Run run = analyze(
          in.path(), out.path(),
          compat ? std::vector<std::string>{"--compat", "tracelens"} : std::vector<std::string>{});
      CHECK(run.exit_code == 0);
      if (compat) {
        CHECK(run.metrics == read_text(entry.path() / "multi_kernel_metrics.json"));
        ++checked;
      }
      if (contains(run.findings, "kind=p_item")) CHECK(validates(run.findings_path, true));
      CHECK(validates(run.findings_path, false));
    }
  }
  CHECK(checked == 10 + 21);  // E02–E10 (10 dirs with outputs) + TC01–TC13 + R1–R8
}
