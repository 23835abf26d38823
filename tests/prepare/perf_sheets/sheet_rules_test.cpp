// Rules of TraceLens's per-family sheets that the reference pack only shows indirectly.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sheet_naming.hpp"
#include "sheet_summary.hpp"
#include "sheet_table.hpp"

namespace sh = loupe::core::prepare::sheets;

TEST_CASE("sheet naming follows TraceLens's families", "[prepare][perf_sheets]") {
  CHECK(sh::is_single_table_family("GEMM"));
  CHECK(sh::is_single_table_family("Normalization"));
  CHECK_FALSE(sh::is_single_table_family("CONV"));
  CHECK_FALSE(sh::is_single_table_family("Reduce"));
  CHECK(sh::sheet_file_name("CONV", "_bwd") == "CONV_bwd.csv");
  CHECK(sh::sheet_file_name("GEMM", "") == "GEMM.csv");
  CHECK(sh::moves_to_backward_table("aten::convolution_backward"));
  CHECK_FALSE(sh::moves_to_backward_table("aten::convolution"));
  CHECK(sh::dropped_from_backward_table("aten::convolution"));
  CHECK_FALSE(sh::dropped_from_backward_table("aten::mean"));
}

TEST_CASE("concatenated sheets unite columns and turn int columns meeting floats into floats",
          "[prepare][perf_sheets]") {
  sh::SheetTable a{{"name", "x", "n"},
                   {{sh::Cell::text("aten::mean"), sh::Cell::integer(3), sh::Cell::integer(1)}}};
  sh::SheetTable b{
      {"name", "x", "extra"},
      {{sh::Cell::text("aten::convolution_backward"), sh::Cell::real(2.5), sh::Cell::text("e")}}};
  auto joined = sh::concat(a, b);
  REQUIRE(joined.columns == std::vector<std::string>{"name", "x", "n", "extra"});
  // pandas keeps the float64 dtype of a united column even when the float rows are filtered.
  sh::filter_rows_by_name(joined, [](std::string_view n) { return n == "aten::mean"; });
  CHECK(sh::to_csv(joined) == "name,x,n,extra\naten::mean,3.0,1.0,\n");
  CHECK(sh::to_csv(a) == "name,x,n\naten::mean,3,1\n");
}

namespace {

using loupe::compute::PyValue;
namespace perf = loupe::core::prepare::perf;

sh::SheetRow row(loupe::core::trace::Uid uid, std::string name, perf::Params params,
                 double kernel_time, bool int_time) {
  sh::SheetRow r;
  r.uid = uid;
  r.name = std::move(name);
  r.params = std::move(params);
  r.args[0] = "[[8, 4], [4, 2]]";
  r.kernel_time_us = {kernel_time, int_time};
  if (kernel_time > 0) r.kernel_details.push_back({"gemm_kernel", {kernel_time, int_time}, "0"});
  r.metrics.gflops = 1e-9;
  r.metrics.data_moved_mb = 1.0;
  r.metrics.flops_per_byte = 0.5;
  r.metrics.tflops_per_s = kernel_time > 0 ? 1.0 / kernel_time : std::nan("");
  r.metrics.tb_per_s = kernel_time > 0 ? 2.0 / kernel_time : std::nan("");
  r.metrics.pct_roofline = std::nan("");
  return r;
}

std::vector<std::string> column(const sh::SheetTable& t, const std::string& name) {
  const auto c = static_cast<std::size_t>(std::find(t.columns.begin(), t.columns.end(), name) -
                                          t.columns.begin());
  REQUIRE(c < t.columns.size());
  std::vector<std::string> out;
  for (const auto& r : t.rows) {
    const sh::Cell& cell = r[c];
    switch (cell.kind()) {
      case sh::Cell::Kind::kText:
        out.push_back(cell.text_value());
        break;
      case sh::Cell::Kind::kMissing:
        out.emplace_back("<missing>");
        break;
      case sh::Cell::Kind::kInt:
        out.push_back(std::to_string(static_cast<long long>(cell.number_value())));
        break;
      case sh::Cell::Kind::kFloat:
        out.push_back(std::to_string(cell.number_value()) + "f");
        break;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("param columns follow first appearance over the rows; absent params group as 'nan'",
          "[prepare][perf_sheets]") {
  // A DataFrame built from dicts orders its columns by first appearance, which is why some
  // GEMM sheets of the pack start with `param: B` (a bmm came first) and others end with it.
  std::vector<sh::SheetRow> rows;
  rows.push_back(row(5, "aten::mm", {{"M", PyValue(std::int64_t{8})}}, 2.0, false));
  rows.push_back(row(7, "aten::bmm",
                     {{"B", PyValue(std::int64_t{3})}, {"M", PyValue(std::int64_t{8})}}, 4.0,
                     false));
  const auto table = sh::summarize_sheet_rows(rows);
  REQUIRE(table.columns.size() > 4);
  CHECK(table.columns[1] == "param: M");
  CHECK(table.columns[2] == "param: B");
  CHECK(table.columns[3] == "num_kernels");
  // An int column with a gap is float64 in pandas, so its str() is "3.0" next to the gap's "nan".
  CHECK(column(table, "param: B") == std::vector<std::string>{"3.0", "nan"});
  CHECK(column(table, "param: M") == std::vector<std::string>{"8", "8"});
}

TEST_CASE("param columns take the dtype pandas gives them", "[prepare][perf_sheets]") {
  // Ints next to a None or a float are float64 ("8.0", None as "nan"); Nones with a gap too; a
  // column of Nones alone, or of ints next to a bool or a string, stays object.
  std::vector<sh::SheetRow> rows;
  rows.push_back(row(5, "op_a",
                     {{"int_none", PyValue(std::int64_t{8})},
                      {"int_float", PyValue(std::int64_t{2})},
                      {"none_gap", PyValue()},
                      {"only_none", PyValue()},
                      {"int_bool", PyValue(std::int64_t{1})}},
                     2.0, false));
  rows.push_back(row(7, "op_b",
                     {{"int_none", PyValue()},
                      {"int_float", PyValue(0.5)},
                      {"only_none", PyValue()},
                      {"int_bool", PyValue(true)}},
                     4.0, false));
  const auto table = sh::summarize_sheet_rows(rows);  // op_b first: more kernel time
  CHECK(column(table, "param: int_none") == std::vector<std::string>{"nan", "8.0"});
  CHECK(column(table, "param: int_float") == std::vector<std::string>{"0.5", "2.0"});
  CHECK(column(table, "param: none_gap") == std::vector<std::string>{"nan", "nan"});
  CHECK(column(table, "param: only_none") == std::vector<std::string>{"None", "None"});
  CHECK(column(table, "param: int_bool") == std::vector<std::string>{"True", "1"});
}

TEST_CASE("groups split by kernel count, sort by kernel time then first UID",
          "[prepare][perf_sheets]") {
  const perf::Params p = {{"M", PyValue(std::int64_t{8})}};
  std::vector<sh::SheetRow> rows;
  rows.push_back(row(10, "aten::mm", p, 0.0, true));  // no kernels: its own group
  rows.push_back(row(11, "aten::mm", p, 3.0, false));
  rows.push_back(row(12, "aten::mm", p, 3.0, false));
  rows.push_back(row(13, "aten::addmm", p, 6.0, false));  // same sum as the mm group
  const auto table = sh::summarize_sheet_rows(rows);
  CHECK(column(table, "name") == std::vector<std::string>{"aten::mm", "aten::addmm", "aten::mm"});
  CHECK(column(table, "num_kernels") == std::vector<std::string>{"1", "1", "0"});
  CHECK(column(table, "name_count") == std::vector<std::string>{"2", "1", "1"});
  // One float row makes the whole Kernel Time column float64.
  CHECK(column(table, "Kernel Time (µs)_sum")[2] == "0.000000f");
  // No arch in these rows: the roofline block is absent (b200_eager's Reduce_fwd.csv).
  CHECK(std::find(table.columns.begin(), table.columns.end(), "Roofline Time (µs)_first") ==
        table.columns.end());
  // Args are str() of the trace's lists, not tuples; an empty kernel summary leaves the
  // truncated details empty.
  CHECK(column(table, "Input Dims_first")[0] == "[[8, 4], [4, 2]]");
  CHECK(column(table, "trunc_kernel_details")[2] == "<missing>");
  CHECK(column(table, "kernel_details__summarize_kernel_stats")[2] == "[]");
}

TEST_CASE("ops without kernels keep an int kernel time of 0", "[prepare][perf_sheets]") {
  // b200_eager's Reduce_fwd.csv: aten::max twice with no kernels -> mean/median/std 0.0 but
  // min/max/sum 0 (busy time of nothing is the int 0).
  std::vector<sh::SheetRow> rows;
  rows.push_back(row(3, "aten::max", {}, 0.0, true));
  rows.push_back(row(4, "aten::max", {}, 0.0, true));
  const auto table = sh::summarize_sheet_rows(rows);
  const std::string csv = sh::to_csv(table);
  INFO(csv);
  CHECK(csv.ends_with(",[],,\"[[8, 4], [4, 2]]\",,,,0.0,0.0,0.0,0,0,0,2,3\n"));
}
