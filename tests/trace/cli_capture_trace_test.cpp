// `loupe analyze --trace EXEC --capture-trace CAP` (docs/report.md, "Capture traces"): kernels
// EXEC replays from a GPU graph get the ops CAP captured them from; replays no capture matches
// are named; a capture trace that matches nothing is named and ignored; unusable capture
// files stop the run before any work.
#include <rapidjson/document.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;

namespace {

constexpr const char* kUp = "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu";
constexpr const char* kDown = "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1";

std::string kernel(const std::string& name, int correlation, int ts) {
  return R"({"ph":"X","cat":"kernel","name":")" + name + R"(","pid":0,"tid":7,"ts":)" +
         std::to_string(ts) + R"(,"dur":100,"args":{"correlation":)" + std::to_string(correlation) +
         R"(,"stream":7,"device":0}})";
}

// An eager op, then two graph launches from the engine's Python code (no op above them, as in
// vLLM): the first replays the MoE layer's up and down kernels, the second a kernel no capture
// records.
std::string exec_trace() {
  std::string e;
  e += R"({"ph":"X","cat":"cpu_op","name":"aten::fill_","pid":1,"tid":1,"ts":0,"dur":20,)"
       R"("args":{"External id":1}},)";
  e += R"({"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":1,"tid":1,"ts":5,)"
       R"("dur":5,"args":{"correlation":50,"External id":1}},)";
  e += R"({"ph":"s","id":50,"pid":1,"tid":1,"ts":5,"cat":"ac2g","name":"ac2g"},)";
  e += R"({"ph":"f","id":50,"pid":0,"tid":7,"ts":900,"cat":"ac2g","name":"ac2g","bp":"e"},)";
  e += kernel("fill_kernel", 50, 900) + ",";
  e += R"({"ph":"X","cat":"cuda_runtime","name":"hipGraphLaunch","pid":1,"tid":1,"ts":100,)"
       R"("dur":50,"args":{"correlation":100}},)";
  e += R"({"ph":"X","cat":"cuda_runtime","name":"hipGraphLaunch","pid":1,"tid":1,"ts":500,)"
       R"("dur":50,"args":{"correlation":200}},)";
  e += kernel(kUp, 100, 1000) + "," + kernel(kDown, 100, 1200) + "," +
       kernel("mystery_kernel", 200, 1400);
  return R"({"traceEvents":[)" + e + "]}";
}

// The capture of the first graph: vllm::moe_forward (32 tokens, hidden 3072, 32 experts),
// its TopK (k = 4) and the two enqueued kernels, between begin- and end-capture.
std::string capture_trace(const std::string& up, const std::string& down) {
  std::string e;
  e += R"({"ph":"X","cat":"cuda_runtime","name":"hipStreamBeginCapture","pid":5,"tid":5,)"
       R"("ts":0,"dur":1,"args":{"correlation":1}},)";
  e += R"({"ph":"X","cat":"cpu_op","name":"vllm::moe_forward","pid":5,"tid":5,"ts":10,)"
       R"("dur":300,"args":{"External id":7,"Input Dims":[[32,3072],[32,32],[],[]],)"
       R"("Input type":["c10::BFloat16","c10::BFloat16","",""]}},)";
  e += R"({"ph":"X","cat":"cpu_op","name":"TopK","pid":5,"tid":5,"ts":20,"dur":10,)"
       R"("args":{"External id":8,"Concrete Inputs":["","4","True","1","True","",""]}},)";
  e += R"({"ph":"X","cat":"cuda_runtime","name":"hipModuleLaunchKernel","pid":5,"tid":5,)"
       R"("ts":50,"dur":5,"args":{"External id":7,"correlation":2,"kernel":")" +
       up + R"("}},)";
  e += R"({"ph":"X","cat":"cuda_runtime","name":"hipModuleLaunchKernel","pid":5,"tid":5,)"
       R"("ts":100,"dur":5,"args":{"External id":7,"correlation":3,"kernel":")" +
       down + R"("}},)";
  e += R"({"ph":"X","cat":"cuda_runtime","name":"hipStreamEndCapture","pid":5,"tid":5,)"
       R"("ts":400,"dur":1,"args":{"correlation":4}})";
  return R"({"traceEvents":[)" + e + "]}";
}

rapidjson::Document parse(const fs::path& path) {
  rapidjson::Document d;
  d.Parse(read_text(path).c_str());
  REQUIRE_FALSE(d.HasParseError());
  return d;
}

}  // namespace

TEST_CASE("--capture-trace attributes matched graph replays and names the rest",
          "[trace][cli][capture]") {
  loupe::test::TempDir tmp;
  const fs::path exec = tmp.path() / "exec.json";
  const fs::path cap = tmp.path() / "capture.json";
  const fs::path other = tmp.path() / "other_capture.json";
  loupe::test::write_text(exec, exec_trace());
  loupe::test::write_text(cap, capture_trace(kUp, kDown));
  loupe::test::write_text(other, capture_trace("some_kernel", "another_kernel"));

  const fs::path out = tmp.path() / "out";
  const auto r =
      run_loupe({"analyze", "--trace", exec.string(), "--capture-trace", cap.string(),
                 "--capture-trace", other.string(), "-o", out.string(), "--platform", "MI300X"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err,
             Catch::Contains("capture trace " + other.string() + " matches no graph replay") &&
                 Catch::Contains("ignored"));
  CHECK_THAT(r.err, Catch::Contains("1 of 2 graph replays attributed (2 GPU ops"));
  CHECK_THAT(r.err,
             Catch::Contains("unmatched graph replay") && Catch::Contains("first mystery_kernel"));

  // The replayed MoE kernels are the captured vllm::moe_forward's: modeled from its shapes.
  const auto table =
      loupe::core::parse_csv(read_text(out / "perf_report_csvs/unified_perf_summary.csv"));
  const auto name = table.find_column("name");
  const auto category = table.find_column("op category");
  const auto params = table.find_column("perf_params");
  const auto gflops = table.find_column("GFLOPS");
  REQUIRE(name);
  REQUIRE(category);
  REQUIRE(params);
  REQUIRE(gflops);
  bool moe = false;
  for (std::size_t i = 0; i < table.row_count(); ++i) {
    const std::string_view n = table.cell(i, *name).text;
    CHECK(n.find("_matmul_ogs_") == std::string_view::npos);  // no replay row left for them
    if (n != "vllm::moe_forward") continue;
    moe = true;
    CHECK(table.cell(i, *category).text == "MoE_unfused");
    CHECK_THAT(std::string(table.cell(i, *params).text),
               Catch::Contains("'evidence': 'modeled'") && Catch::Contains("'num_tokens': 32"));
    CHECK(table.cell(i, *gflops).number == Approx(7.247757312));
  }
  CHECK(moe);

  const auto record = parse(out / "loupe_run.json");
  REQUIRE(record.HasMember("capture_traces"));
  const auto& c = record["capture_traces"];
  CHECK(c["graph_replays"].GetInt() == 2);
  CHECK(c["attributed_replays"].GetInt() == 1);
  CHECK(c["attributed_gpu_ops"].GetInt() == 2);
  REQUIRE(c["unmatched_replays"].Size() == 1);
  CHECK(std::string(c["unmatched_replays"][0]["first_kernel"].GetString()) == "mystery_kernel");
  CHECK(c["unmatched_replays"][0]["gpu_ops"].GetInt() == 1);
  REQUIRE(c["files"].Size() == 2);
  CHECK(c["files"][0]["matched_replays"].GetInt() == 1);
  CHECK(std::string(c["files"][0]["status"].GetString()) == "used");
  CHECK(c["files"][1]["matched_replays"].GetInt() == 0);
  CHECK_THAT(std::string(c["files"][1]["status"].GetString()), Catch::StartsWith("ignored"));

  // Without --capture-trace the same kernels stay replay rows with the heuristic model.
  const fs::path plain = tmp.path() / "plain";
  REQUIRE(run_loupe({"analyze", "--trace", exec.string(), "-o", plain.string(), "--platform",
                     "MI300X", "-q"})
              .exit_code == 0);
  CHECK_THAT(read_text(plain / "perf_report_csvs/unified_perf_summary.csv"),
             Catch::Contains("hipGraphLaunch->" + std::string(kUp)) &&
                 Catch::Contains("'evidence': 'heuristic'"));
  CHECK_FALSE(parse(plain / "loupe_run.json").HasMember("capture_traces"));
}

TEST_CASE("--capture-trace: unusable capture files and option misuse exit 2 before any work",
          "[trace][cli][capture]") {
  loupe::test::TempDir tmp;
  const fs::path exec = tmp.path() / "exec.json";
  loupe::test::write_text(exec, exec_trace());
  const fs::path out = tmp.path() / "out";
  const fs::path missing = tmp.path() / "missing.json";

  auto r = run_loupe({"analyze", "--trace", exec.string(), "--capture-trace", missing.string(),
                      "-o", out.string()});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("--capture-trace " + missing.string() + ": no such file"));
  CHECK_FALSE(fs::exists(out / "perf_report_csvs"));

  const fs::path broken = tmp.path() / "broken.json";
  loupe::test::write_text(broken, R"({"traceEvents":[{"ph":"X",)");
  r = run_loupe({"analyze", "--trace", exec.string(), "--capture-trace", broken.string(), "-o",
                 out.string()});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains(broken.string()));
  CHECK_FALSE(fs::exists(out / "perf_report_csvs"));

  const fs::path cap = tmp.path() / "capture.json";
  loupe::test::write_text(cap, capture_trace(kUp, kDown));
  r = run_loupe({"analyze", "--trace", exec.string(), "--capture-trace", cap.string(), "-o",
                 out.string(), "--compat", "tracelens"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("--capture-trace is a default-mode feature"));
  r = run_loupe({"analyze", "--trace", exec.string(), "--trace2", exec.string(), "--capture-trace",
                 cap.string(), "-o", out.string()});
  CHECK(r.exit_code == 2);
  r = run_loupe({"analyze", tmp.path().string(), "--capture-trace", cap.string()});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("--capture-trace applies to --trace only"));
  CHECK_FALSE(fs::exists(out / "perf_report_csvs"));
}

TEST_CASE("--capture-trace attributes the pack's vLLM graph replays",
          "[trace][cli][capture][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  struct Run {
    const char* dir;
    const char* capture;
    int replays;
    int min_gpu_ops;
  };
  for (const Run run :
       {Run{"vllm_decode_full", "graph_capture_rank_0.1773709742341309550.pt.trace.json.gz", 1,
            400},
        Run{"vllm_prefilldecode_piecewise",
            "graph_capture_rank_0.1773709679453551615.pt.trace.json.gz", 25, 300}}) {
    INFO(run.dir);
    const fs::path base = shared / "data/traces/inference" / run.dir;
    loupe::test::TempDir tmp;
    const auto r = run_loupe({"analyze", "--trace", (base / "graph_execution.json.gz").string(),
                              "--capture-trace", (base / "capture_traces" / run.capture).string(),
                              "-o", tmp.path().string(), "--platform", "MI300X", "-q"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto record = parse(tmp.path() / "loupe_run.json");
    REQUIRE(record.HasMember("capture_traces"));
    const auto& c = record["capture_traces"];
    CHECK(c["graph_replays"].GetInt() == run.replays);
    CHECK(c["attributed_replays"].GetInt() == run.replays);
    CHECK(c["attributed_gpu_ops"].GetInt() >= run.min_gpu_ops);
    CHECK(c["unmatched_replays"].Size() == 0);
    // The attributed kernels are still graph replays for the serving report (not eager launches).
    const auto findings = parse(tmp.path() / "findings.json");
    REQUIRE(findings.HasMember("serving"));
    CHECK(findings["serving"]["graphs"]["launches"].GetInt() == run.replays);
    for (const auto& f : findings["serving"]["findings"].GetArray()) {
      CHECK(std::string(f["rule"].GetString()) != "eager_decode");
    }
    // The MXFP4 MoE matmuls now have the captured layer's shapes: modeled, with numbers.
    const auto table =
        loupe::core::parse_csv(read_text(tmp.path() / "perf_report_csvs/unified_perf_summary.csv"));
    const auto params = table.find_column("perf_params");
    const auto category = table.find_column("op category");
    const auto gflops = table.find_column("GFLOPS");
    REQUIRE(params);
    REQUIRE(category);
    REQUIRE(gflops);
    int modeled = 0;
    for (std::size_t i = 0; i < table.row_count(); ++i) {
      const std::string p(table.cell(i, *params).text);
      if (p.find("'evidence': 'modeled'") == std::string::npos) continue;
      ++modeled;
      CHECK(table.cell(i, *category).text == "MoE_unfused");
      CHECK(table.cell(i, *gflops).number > 0);
      // GPT-OSS's intermediate size (2880 padded to 2944) is read from the expert weights the
      // captured matmul_ogs calls view, not assumed equal to the hidden size (3072).
      CHECK(p.find("'inter_dim': 2944, 'inter_dim_source': 'expert weights'") != std::string::npos);
    }
    CHECK(modeled >= 1);
  }
}
