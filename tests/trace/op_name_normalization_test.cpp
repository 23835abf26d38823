// Stable op names (docs/contracts/trace_model.md §2.10): SGLang's per-call-site counters are
// dropped from `sglang_profiler::<op>_<n>` cpu ops at load time, so that every call site shares
// one name and reaches the op's perf model; nothing else is renamed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/trace/op_name_normalization.hpp"
#include "trace_text.hpp"

namespace fs = std::filesystem;
namespace tr = loupe::core::trace;
using loupe::test::trace::wrap_events;

namespace {

std::string event(const std::string& cat, const std::string& name, int ts, int dur,
                  const std::string& args = "{}") {
  return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":1,"tid":1,"ts":)" +
         std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":)" + args + "}";
}

}  // namespace

TEST_CASE("stable_sglang_op_name drops exactly one trailing counter", "[trace][reader]") {
  CHECK(tr::stable_sglang_op_name("sglang_profiler::utils_apply_qk_norm_487") ==
        "sglang_profiler::utils_apply_qk_norm");
  CHECK(tr::stable_sglang_op_name("sglang_profiler::a_1_2") == "sglang_profiler::a_1");
  CHECK(tr::stable_sglang_op_name("sglang_profiler::x_0") == "sglang_profiler::x");
  // No counter, an empty op name, a non-digit suffix, another namespace: unchanged.
  CHECK(tr::stable_sglang_op_name("sglang_profiler::utils_apply_qk_norm").empty());
  CHECK(tr::stable_sglang_op_name("sglang_profiler::_5").empty());
  CHECK(tr::stable_sglang_op_name("sglang_profiler::norm_").empty());
  CHECK(tr::stable_sglang_op_name("sglang_profiler::norm_4a").empty());
  CHECK(tr::stable_sglang_op_name("vllm::norm_4").empty());
  CHECK(tr::stable_sglang_op_name("aten::mm").empty());
}

TEST_CASE("loading a trace renames the cpu ops of suffixed sglang_profiler names",
          "[trace][reader]") {
  const std::string text = wrap_events(
      event("cpu_op", "sglang_profiler::utils_apply_qk_norm_487", 10, 5) + "," +
      event("cpu_op", "sglang_profiler::utils_apply_qk_norm_487", 30, 5) + "," +
      event("cpu_op", "sglang_profiler::utils_apply_qk_norm_12", 50, 5) + "," +
      // The earliest event of this name is a user annotation (not a host tree event) and the
      // earliest host event is a cpu op: the cpu op is renamed, the annotation kept.
      event("user_annotation", "sglang_profiler::step_3", 1, 100) + "," +
      event("cpu_op", "sglang_profiler::step_3", 60, 5) + "," +
      // The earliest host event of this name is a runtime call: TraceLens leaves the name.
      event("cuda_runtime", "sglang_profiler::launch_9", 2, 1) + "," +
      event("cpu_op", "sglang_profiler::launch_9", 70, 5) + "," +
      event("cpu_op", "aten::mm_2", 80, 5));
  const tr::LoadResult r = tr::load_trace_bytes(text);
  REQUIRE_FALSE(r.error);
  const auto& m = r.model;
  REQUIRE(m.event_count() == 8);
  CHECK(m.name(0) == "sglang_profiler::utils_apply_qk_norm");
  CHECK(m.name(1) == "sglang_profiler::utils_apply_qk_norm");
  CHECK(m.name(2) == "sglang_profiler::utils_apply_qk_norm");
  CHECK(m.event(0).name == m.event(2).name);
  CHECK(m.name(3) == "sglang_profiler::step_3");
  CHECK(m.name(4) == "sglang_profiler::step");
  CHECK(m.name(5) == "sglang_profiler::launch_9");
  CHECK(m.name(6) == "sglang_profiler::launch_9");
  CHECK(m.name(7) == "aten::mm_2");
}

TEST_CASE("compat mode: every call site of a suffixed SGLang GEMM reaches the GEMM model",
          "[trace][cli]") {
  // Two call sites of SGLang's block-scaled FP8 GEMM, x[32,4096] @ w[8192,4096]^T, one kernel
  // each; TraceLens's GEMM sheet groups them under the op's stable name.
  std::string events;
  const char* args =
      R"({"External id":%d,"Input Dims":[[32,4096],[8192,4096],[32,32],[64,32]],)"
      R"("Input type":["c10::Float8_e4m3fnuz","c10::Float8_e4m3fnuz","float","float"]})";
  for (int i = 0; i < 2; ++i) {
    const int id = i + 1;
    const int ts = 100 * i;
    std::string a(args);
    a.replace(a.find("%d"), 2, std::to_string(id));
    const std::string name =
        std::string("sglang_profiler::fp8_utils_gemm_a8w8_blockscale_") + (i == 0 ? "41" : "7");
    events += event("cpu_op", name, ts, 50, a) + ",";
    events += R"({"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":1,"tid":1,"ts":)" +
              std::to_string(ts + 10) + R"(,"dur":5,"args":{"correlation":)" + std::to_string(id) +
              R"(,"External id":)" + std::to_string(id) + "}},";
    events += R"({"ph":"X","cat":"kernel","name":"gemm_a8w8_blockscale_kernel","pid":0,"tid":7,)"
              R"("ts":)" +
              std::to_string(ts + 20) + R"(,"dur":10,"args":{"correlation":)" + std::to_string(id) +
              R"(,"stream":7,"device":0,"External id":)" + std::to_string(id) + "}},";
    events += R"({"ph":"s","id":)" + std::to_string(id) + R"(,"pid":1,"tid":1,"ts":)" +
              std::to_string(ts + 10) + R"(,"cat":"ac2g","name":"ac2g"},)";
    events += R"({"ph":"f","id":)" + std::to_string(id) + R"(,"pid":0,"tid":7,"ts":)" +
              std::to_string(ts + 20) + R"(,"cat":"ac2g","name":"ac2g","bp":"e"})";
    if (i == 0) events += ",";
  }
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "sglang.json";
  loupe::test::write_text(trace, wrap_events(events));
  const fs::path out = tmp.path() / "out";
  const auto r = loupe::test::run_loupe({"analyze", "--trace", trace.string(), "-o", out.string(),
                                         "--compat", "tracelens", "--platform", "MI300X", "-q"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto gemm =
      loupe::core::parse_csv(loupe::test::read_text(out / "perf_report_csvs/GEMM.csv"));
  const auto name = gemm.find_column("name");
  const auto flops = gemm.find_column("GFLOPS_first");
  REQUIRE(name);
  REQUIRE(flops);
  REQUIRE(gemm.row_count() == 1);
  CHECK(gemm.cell(0, *name).text == "sglang_profiler::fp8_utils_gemm_a8w8_blockscale");
  // 2 * 32 * 8192 * 4096 flops = 2.147483648 GFLOP.
  CHECK(gemm.cell(0, *flops).number == Approx(2.147483648));
  const auto unified = loupe::core::parse_csv(
      loupe::test::read_text(out / "perf_report_csvs/unified_perf_summary.csv"));
  const auto u_name = unified.find_column("name");
  const auto u_count = unified.find_column("operation_count");
  REQUIRE(u_name);
  REQUIRE(u_count);
  REQUIRE(unified.row_count() == 1);
  CHECK(unified.cell(0, *u_name).text == "sglang_profiler::fp8_utils_gemm_a8w8_blockscale");
  CHECK(unified.cell(0, *u_count).number == 2);
  const std::string ops = loupe::test::read_text(out / "perf_report_csvs/ops_summary.csv");
  CHECK_THAT(ops, !Catch::Contains("blockscale_41") && !Catch::Contains("blockscale_7"));
}
