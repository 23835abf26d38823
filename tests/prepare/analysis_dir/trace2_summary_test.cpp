// The manifest's trace2_ops_summary_by_category: trace 2's kernel time per category key, as
// pandas groups, sorts and serializes it (10 decimals through DataFrame.to_json).
#include <catch2/catch.hpp>

#include "loupe/core/model/csv_table.hpp"
#include "loupe/json_value.hpp"
#include "trace2_summary.hpp"

namespace ad = loupe::core::prepare::analysis_dir;

TEST_CASE("pandas to_json keeps 10 decimals", "[prepare][analysis_dir]") {
  CHECK(ad::pandas_to_json_float(66.66666666666667) == 66.6666666667);
  CHECK(ad::pandas_to_json_float(99.99999999999999) == 100.0);
  CHECK(ad::pandas_to_json_float(0.8) == 0.8);
  CHECK(ad::pandas_to_json_float(1.23456789012345e-7) == 1.235e-7);
}

TEST_CASE("trace 2's time per category key, by descending time", "[prepare][analysis_dir]") {
  // GEMM and gemm share the key "gemm"; an empty category is "other"; times are µs.
  const auto unified = loupe::core::parse_csv(
      "name,op category,operation_count,Kernel Time (µs)_sum\n"
      "aten::mm,GEMM,2,30.0\n"
      "aten::add,elementwise,3,50.0\n"
      "aten::bmm,gemm,1,40.0\n"
      "aten::cat,,1,20.0\n");
  const loupe::Json summary = ad::trace2_ops_summary_by_category(unified);
  CHECK(loupe::dump_python_json(summary, -1) ==
        R"j([{"op category": "gemm", "Count": 3, "total_direct_kernel_time_ms": 0.07, )j"
        R"j("Percentage (%)": 50.0, "Cumulative Percentage (%)": 50.0}, )j"
        R"j({"op category": "elementwise", "Count": 3, "total_direct_kernel_time_ms": 0.05, )j"
        R"j("Percentage (%)": 35.7142857143, "Cumulative Percentage (%)": 85.7142857143}, )j"
        R"j({"op category": "other", "Count": 1, "total_direct_kernel_time_ms": 0.02, )j"
        R"j("Percentage (%)": 14.2857142857, "Cumulative Percentage (%)": 100.0}])j");
}

TEST_CASE("without kernel time the percentages are the int 0", "[prepare][analysis_dir]") {
  const auto unified = loupe::core::parse_csv(
      "name,op category,operation_count,Kernel Time (µs)_sum\naten::mm,GEMM,2,0.0\n");
  CHECK(loupe::dump_python_json(ad::trace2_ops_summary_by_category(unified), -1) ==
        R"j([{"op category": "gemm", "Count": 2, "total_direct_kernel_time_ms": 0.0, )j"
        R"j("Percentage (%)": 0, "Cumulative Percentage (%)": 0}])j");
}
