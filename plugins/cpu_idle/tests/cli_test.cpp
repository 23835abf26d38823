// End-to-end through the loupe executable and the bundled cpu_idle plugin, on the reference
// pack: compat metrics byte-identical to TraceLens's cpu_idle_metrics.json on every reference
// run that has one, findings valid for both validators, and the raw-trace idle breakdown on
// the SGLang decode and two H100 traces.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "cli_runner.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;
using loupe::test::TempDir;

namespace {

struct Run {
  int exit_code = -1;
  std::string metrics;
  fs::path findings_path;
  std::string findings;
  std::string err;
};

Run analyze(std::vector<std::string> input, const fs::path& out, bool compat) {
  std::vector<std::string> args = {"analyze"};
  args.insert(args.end(), input.begin(), input.end());
  args.insert(args.end(), {"-o", out.string(), "--only", "cpu_idle", "-q"});
  if (compat) args.insert(args.end(), {"--compat", "tracelens"});
  const auto r = run_loupe(args);
  Run run;
  run.exit_code = r.exit_code;
  run.err = r.out + r.err;
  const fs::path metrics = out / "category_data" / "cpu_idle_metrics.json";
  run.findings_path = out / "system_findings" / "cpu_idle_findings.md";
  if (fs::exists(metrics)) run.metrics = read_text(metrics);
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

rapidjson::Document parse(const std::string& text) {
  rapidjson::Document d;
  d.Parse(text.c_str());
  REQUIRE_FALSE(d.HasParseError());
  return d;
}

double member_ms(const rapidjson::Value& v, const char* key) {
  REQUIRE(v.HasMember(key));
  return v[key].GetDouble();
}

// A minimal analysis directory: the manifest and gpu_timeline.csv (`timeline` rows).
fs::path write_run(const fs::path& root, const std::string& timeline) {
  fs::create_directories(root / "category_data");
  fs::create_directories(root / "perf_report_csvs");
  loupe::test::write_text(
      root / "category_data" / "category_manifest.json",
      R"({"comparison_scope": "standalone", "categories": [{"name": "cpu_idle", )"
      R"("skill": "cpu-idle-analyzer", "tier": "system"}]})");
  if (!timeline.empty()) {
    loupe::test::write_text(root / "perf_report_csvs" / "gpu_timeline.csv",
                            "type,time ms,percent\n" + timeline);
  }
  return root;
}

}  // namespace

TEST_CASE("cpu_idle reproduces TraceLens's number types and flags on a small run",
          "[cpu_idle][cli]") {
  TempDir tmp;
  // Integer time column (pandas int64: stays int); percents round on the binary value
  // (19.995 is 19.99500000000000099 -> 20.0, 80.005 is 80.00499999999999545 -> 80.0).
  const fs::path dir = write_run(tmp.path() / "run",
                                 "computation_time,2,19.995\nidle_time,8,80.005\n"
                                 "total_time,10,100.0\n");
  const Run compat = analyze({dir.string()}, tmp.path() / "compat", true);
  INFO(compat.err);
  REQUIRE(compat.exit_code == 0);
  CHECK(compat.metrics ==
        "{\n  \"status\": \"OK\",\n  \"idle_flagged\": true,\n  \"gpu_utilization\": {\n"
        "    \"total_time_ms\": 10,\n    \"idle_time_ms\": 8,\n    \"idle_time_percent\": 80.0,\n"
        "    \"computation_percent\": 20.0,\n    \"communication_percent\": 0,\n"
        "    \"memcpy_percent\": 0\n  },\n  \"kernel_analysis\": {\n"
        "    \"short_kernel_count\": 0,\n    \"total_kernel_count\": 0,\n"
        "    \"avg_kernel_time_us\": 0,\n    \"kernel_count_by_category\": {}\n  },\n"
        "  \"impact_estimates\": []\n}");
  CHECK(validates(compat.findings_path, true));
  CHECK(contains(compat.findings, "P1: GPU idle for 80.00% of the timeline"));

  const Run fixed = analyze({dir.string()}, tmp.path() / "default", false);
  REQUIRE(fixed.exit_code == 0);
  CHECK(validates(fixed.findings_path, false));
  CHECK_FALSE(contains(fixed.findings, "### P1"));  // no card without the breakdown
  CHECK(contains(fixed.findings, "needs the raw trace: rerun with `loupe analyze --trace"));
  CHECK(contains(fixed.metrics, "\"evaluated\": false"));
}

TEST_CASE("cpu_idle bad input is an ERROR naming the file", "[cpu_idle][cli]") {
  TempDir tmp;
  SECTION("no gpu_timeline.csv") {
    const fs::path dir = write_run(tmp.path() / "run", "");
    for (const bool compat : {true, false}) {
      const Run run = analyze({dir.string()}, tmp.path() / (compat ? "c" : "d"), compat);
      CHECK(run.exit_code == 1);
      CHECK(contains(run.metrics, "\"status\": \"ERROR\""));
      CHECK(contains(run.metrics, "GPU timeline not found: perf_report_csvs/gpu_timeline.csv"));
      CHECK(contains(run.findings, "Status: ERROR"));
    }
  }
  SECTION("an empty idle cell: NaN in compat (as TraceLens), ERROR in the default mode") {
    const fs::path dir = write_run(
        tmp.path() / "run", "computation_time,1.0,50.0\nidle_time,,50.0\ntotal_time,2.0,100.0\n");
    const Run compat = analyze({dir.string()}, tmp.path() / "c", true);
    CHECK(compat.exit_code == 0);
    CHECK(contains(compat.metrics, "\"idle_time_ms\": NaN"));
    const Run fixed = analyze({dir.string()}, tmp.path() / "d", false);
    CHECK(fixed.exit_code == 1);
    CHECK(contains(fixed.metrics,
                   "perf_report_csvs/gpu_timeline.csv: 'time ms' of row 'idle_time' is empty"));
  }
  SECTION("a text cell") {
    const fs::path dir =
        write_run(tmp.path() / "run", "idle_time,abc,50.0\ntotal_time,2.0,100.0\n");
    const Run run = analyze({dir.string()}, tmp.path() / "d", false);
    CHECK(run.exit_code == 1);
    CHECK(contains(run.metrics,
                   "perf_report_csvs/gpu_timeline.csv: a 'time ms' cell is not a number"));
  }
}

TEST_CASE("cpu_idle compat metrics equal TraceLens on every reference run",
          "[cpu_idle][cli][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  int compared = 0;
  for (const char* pack : {"reference", "reference-inference"}) {
    for (const auto& entry : fs::directory_iterator(shared / "data" / pack)) {
      const fs::path expected = entry.path() / "category_data" / "cpu_idle_metrics.json";
      if (!fs::exists(expected)) continue;
      INFO(entry.path().filename().string());
      TempDir tmp;
      const Run compat = analyze({entry.path().string()}, tmp.path() / "compat", true);
      INFO(compat.err);
      REQUIRE(compat.exit_code == 0);
      CHECK(compat.metrics == read_text(expected));
      CHECK(validates(compat.findings_path, true));
      CHECK(validates(compat.findings_path, false));

      const Run fixed = analyze({entry.path().string()}, tmp.path() / "default", false);
      REQUIRE(fixed.exit_code == 0);
      CHECK(validates(fixed.findings_path, false));
      CHECK_FALSE(contains(fixed.metrics, "NaN"));
      CHECK(contains(fixed.findings, "needs the raw trace"));
      ++compared;
    }
  }
  CHECK(compared == 45);
}

TEST_CASE("cpu_idle explains the idle SGLang decode trace", "[cpu_idle][cli][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const fs::path trace =
      shared / "data" / "traces" / "inference" / "sglang_decode" / "sglang_Qwen3-8B_decode.json.gz";
  TempDir tmp;
  const Run run = analyze({"--trace", trace.string()}, tmp.path() / "out", false);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(validates(run.findings_path, false));
  CHECK_FALSE(contains(run.metrics, "NaN"));
  const auto m = parse(run.metrics);
  const auto& b = m["idle_breakdown"];
  REQUIRE(b["evaluated"].GetBool());
  const auto& causes = b["by_cause"];
  CHECK(member_ms(b, "gpu_idle_ms") == Approx(463.977).margin(0.001));
  // 463.232 ms of the 463.977 ms idle is queued wait: the op that ends the 463.295 ms gap was
  // launched 0.1 ms into the trace, before the host entered its synchronous copy
  // (hipMemcpyWithStream from cuda_graph_runner.py(276): populate_from_forward_batch), and did
  // not start: its stream waited on an event (hipStreamWaitEvent), so the copy is not what idled
  // the GPU. The graph replay's launch gaps are 0.716 ms.
  CHECK(member_ms(causes, "synchronization_ms") == Approx(0.020).margin(0.0005));
  CHECK(member_ms(causes, "launch_bound_ms") == Approx(0.716).margin(0.0005));
  CHECK(member_ms(causes, "other_ms") == Approx(463.241).margin(0.0005));
  CHECK(member_ms(causes["other_by_reason"], "queued_wait_ms") == Approx(463.232).margin(0.0005));
  CHECK(b["graph_launched_ops"].GetInt() == 544);
  CHECK(std::string(b["top_gaps"][0]["dominant_mechanism"].GetString()) == "queued_wait");
  // The wait that holds it: SGLang's scheduler waits on an event just before the launch.
  CHECK(std::string(b["top_gaps"][0]["stream_wait_call"].GetString()) == "hipStreamWaitEvent");
  CHECK(contains(run.findings,
                 "Its next op was launched 21.2 us after a `hipStreamWaitEvent` on "
                 "the same host thread (scheduler.py(2919): _run_batch_inner"));
  CHECK(contains(run.findings, "P1: Queued GPU work waits on a device-side dependency"));
  CHECK_FALSE(contains(run.findings, "Blocking host synchronization"));
  // The saving never exceeds the measured idle time.
  REQUIRE(m["impact_estimates"].Size() == 1);
  CHECK(member_ms(m["impact_estimates"][0], "estimated_savings_ms_high") ==
        Approx(463.232).margin(0.0005));
}

TEST_CASE("cpu_idle breakdown of two H100 traces", "[cpu_idle][cli][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const fs::path h100 = shared / "data" / "traces" / "h100";
  TempDir tmp;
  SECTION("BERT: eager launches, almost all idle is launch-bound") {
    const Run run =
        analyze({"--trace", (h100 / "gaunernst_bert-small-uncased__1016001.json.gz").string()},
                tmp.path() / "bert", false);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(validates(run.findings_path, false));
    const auto m = parse(run.metrics);
    const auto& causes = m["idle_breakdown"]["by_cause"];
    CHECK(member_ms(m["idle_breakdown"], "gpu_idle_ms") == Approx(3.598).margin(0.0005));
    CHECK(member_ms(causes, "launch_bound_ms") == Approx(3.578).margin(0.0005));
    CHECK(member_ms(causes, "synchronization_ms") == Approx(0.020).margin(0.0005));
    CHECK(contains(run.findings, "P1: Kernel launch overhead leaves the GPU idle between kernels"));
    CHECK(contains(run.findings, "mode=\"reduce-overhead\""));
  }
  SECTION("OWLv2: the gaps after the D2H copies are DataLoader time") {
    const Run run = analyze(
        {"--trace", (h100 / "google_owlv2-large-patch14-ensemble__1016001.json.gz").string()},
        tmp.path() / "owlv2", false);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(validates(run.findings_path, false));
    const auto m = parse(run.metrics);
    const auto& causes = m["idle_breakdown"]["by_cause"];
    CHECK(member_ms(m["idle_breakdown"], "gpu_idle_ms") == Approx(511.529).margin(0.0005));
    CHECK(member_ms(causes["other_by_reason"], "data_loading_ms") ==
          Approx(491.158).margin(0.0005));
    CHECK(member_ms(causes, "launch_bound_ms") == Approx(12.026).margin(0.0005));
    // Blocking calls that began after the next op was already issued are not synchronization:
    // 4.962 ms of such time sits in gaps of at most 10 us between queued ops (device switch).
    CHECK(member_ms(causes, "synchronization_ms") == Approx(0.283).margin(0.0005));
    CHECK(member_ms(causes["other_by_reason"], "device_switch_ms") == Approx(6.682).margin(0.0005));
    CHECK(contains(run.findings, "P1: Data loading between steps leaves the GPU idle"));
    CHECK(contains(run.findings, "P2: Kernel launch overhead leaves the GPU idle between kernels"));
  }
}

TEST_CASE("cpu_idle: GPU work launched before recording is outside the window",
          "[cpu_idle][cli][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  TempDir tmp;
  // Qwen on H100: 509 GPU ops (the first 14.76 ms) were launched before the profiler recorded
  // the host (their correlation ids precede the first recorded launch) while the host sat in a
  // cudaDeviceSynchronize; their 508 back-to-back gaps used to be called synchronization.
  const Run run = analyze(
      {"--trace", (shared / "data/traces/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz").string()},
      tmp.path() / "qwen", false);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(validates(run.findings_path, false));
  const auto m = parse(run.metrics);
  const auto& b = m["idle_breakdown"];
  // One window: the breakdown's span and idle are gpu_timeline.csv's (TraceLens's utilization).
  CHECK(member_ms(b, "gpu_span_ms") == Approx(member_ms(m["gpu_utilization"], "total_time_ms")));
  CHECK(member_ms(b, "gpu_idle_ms") == Approx(member_ms(m["gpu_utilization"], "idle_time_ms")));
  CHECK(member_ms(b, "gpu_span_ms") == Approx(34.892).margin(0.0005));
  CHECK(member_ms(b["by_cause"], "synchronization_ms") == Approx(0.027).margin(0.0005));
  const auto& outside = b["outside_window"];
  CHECK(outside["before"]["ops"].GetInt64() == 509);
  CHECK(outside["before"]["launched_while_host_unrecorded"].GetInt64() == 509);
  CHECK(member_ms(outside["before"], "span_ms") == Approx(14.76).margin(0.0005));
  CHECK(outside["after"]["ops"].GetInt64() == 0);
  CHECK_FALSE(contains(run.findings, "synchronize"));  // no synchronization card
  CHECK(contains(run.findings, "509 GPU ops (13.742 ms busy) ran before the window"));
}

TEST_CASE("cpu_idle from the raw traces of the reference runs", "[cpu_idle][cli][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  int runs = 0, identical = 0;
  for (const auto& run : loupe::test::reference_runs(shared)) {
    const fs::path expected = run.directory / "category_data" / "cpu_idle_metrics.json";
    if (!fs::exists(expected)) continue;
    INFO(run.name);
    TempDir tmp;
    const Run compat = analyze({"--trace", run.trace.string()}, tmp.path() / "compat", true);
    INFO(compat.err);
    REQUIRE(compat.exit_code == 0);
    CHECK(validates(compat.findings_path, true));
    if (compat.metrics == read_text(expected)) {
      ++identical;
    } else {
      WARN("compat metrics from the trace differ from TraceLens's: " << run.name);
    }
    const Run fixed = analyze({"--trace", run.trace.string()}, tmp.path() / "default", false);
    REQUIRE(fixed.exit_code == 0);
    CHECK(validates(fixed.findings_path, false));
    CHECK_FALSE(contains(fixed.metrics, "NaN"));
    const auto m = parse(fixed.metrics);
    const auto& b = m["idle_breakdown"];
    REQUIRE(b["evaluated"].GetBool());
    // The causes add up to the measured idle time (each rounded to 3 decimals).
    const auto& c = b["by_cause"];
    CHECK(member_ms(c, "launch_bound_ms") + member_ms(c, "synchronization_ms") +
              member_ms(c, "other_ms") ==
          Approx(member_ms(b, "gpu_idle_ms")).margin(0.002));
    for (const auto& e : m["impact_estimates"].GetArray()) {
      CHECK(member_ms(e, "estimated_savings_ms_high") <= member_ms(b, "gpu_idle_ms"));
    }
    ++runs;
  }
  CHECK(runs == 38);
  CHECK(identical == 38);  // compat metrics from the native prepare equal TraceLens too
}
