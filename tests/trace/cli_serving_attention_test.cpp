// `loupe analyze --trace` on a serving engine's attention op other than vLLM's
// (docs/deviations.md, "Serving-engine ops"): default mode gives it the step annotation that
// encloses it, so its model counts the step's tokens; compat mode annotates only vLLM's
// attention op, as TraceLens's perf report does, and the row keeps no metrics.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;

namespace {

// One step of 4 prefill tokens over 6 and one decode token over 10, around AITER's paged
// batch-prefill attention (Q [5, 8, 64], K [5, 2, 64], V [5, 2, 128]) and its kernel.
std::string step_trace() {
  std::string e;
  e += R"({"ph":"X","cat":"user_annotation","name":)"
       R"x("execute_5_context_1(sq4sk6sqsq16sqsk24)_generation_1(sq1sk10sqsq1sqsk10)",)x"
       R"("pid":1,"tid":1,"ts":0,"dur":1000,"args":{"External id":1}},)";
  e += R"({"ph":"X","cat":"cpu_op","name":"aiter::mha_batch_prefill","pid":1,"tid":1,"ts":100,)"
       R"("dur":200,"args":{"External id":2,"Input Dims":[[5,8,64],[5,2,64],[5,2,128]],)"
       R"("Input type":["c10::BFloat16","c10::BFloat16","c10::BFloat16"],)"
       R"("Input Strides":[[512,64,1],[128,64,1],[256,128,1]],)"
       R"("Concrete Inputs":["","",""]}},)";
  e += R"({"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":1,"tid":1,"ts":150,)"
       R"("dur":5,"args":{"correlation":10,"External id":2}},)";
  e += R"({"ph":"X","cat":"kernel","name":"FmhaBatchPrefillWithPagedKVCacheKernel","pid":0,)"
       R"("tid":7,"ts":2000,"dur":50,"args":{"correlation":10,"stream":7,"device":0}},)";
  e += R"({"ph":"s","id":10,"pid":1,"tid":1,"ts":150,"cat":"ac2g","name":"ac2g"},)";
  e += R"({"ph":"f","id":10,"pid":0,"tid":7,"ts":2000,"cat":"ac2g","name":"ac2g","bp":"e"})";
  return R"({"traceEvents":[)" + e + "]}";
}

struct AttentionRow {
  std::string params;
  double gflops = std::nan("");
  bool found = false;
};

AttentionRow attention_row(const fs::path& csv) {
  const auto table = loupe::core::parse_csv(read_text(csv));
  const auto n = table.find_column("name");
  const auto p = table.find_column("perf_params");
  const auto g = table.find_column("GFLOPS");
  REQUIRE(n);
  REQUIRE(p);
  AttentionRow out;
  for (std::size_t r = 0; r < table.row_count(); ++r) {
    if (table.cell(r, *n).text != "aiter::mha_batch_prefill") continue;
    out.found = true;
    out.params = std::string(table.cell(r, *p).text);
    // No GFLOPS column at all when no row has metrics (compat on this trace).
    if (g && table.cell(r, *g).kind == loupe::core::CsvCell::Kind::Number)
      out.gflops = table.cell(r, *g).number;
  }
  return out;
}

}  // namespace

TEST_CASE("default mode counts the step's tokens for AITER's paged batch prefill",
          "[trace][cli][serving]") {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "step.json";
  loupe::test::write_text(trace, step_trace());

  const fs::path out = tmp.path() / "default";
  auto r = run_loupe(
      {"analyze", "--trace", trace.string(), "-o", out.string(), "--platform", "MI300X", "-q"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const AttentionRow row = attention_row(out / "perf_report_csvs/unified_perf_summary.csv");
  REQUIRE(row.found);
  // 8 * (2*24 - 16) * 192 + 8 * 2*10 * 192 flops
  // (tests/prepare/perf_model/serving_attention_quant_test.cpp).
  CHECK(row.gflops == Approx(79872e-9));
  CHECK_THAT(row.params, Catch::Contains("'c_sqsk': 24") && Catch::Contains("'d_h_v': 128"));

  const fs::path compat = tmp.path() / "compat";
  r = run_loupe({"analyze", "--trace", trace.string(), "-o", compat.string(), "--platform",
                 "MI300X", "--compat", "tracelens", "-q"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const AttentionRow kept = attention_row(compat / "perf_report_csvs/unified_perf_summary.csv");
  REQUIRE(kept.found);
  CHECK(std::isnan(kept.gflops));
  CHECK(kept.params.find("c_sqsk") == std::string::npos);
}
