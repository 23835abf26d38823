#include "diff_stats_csv.hpp"

#include <algorithm>
#include <cmath>

namespace loupe::core::prepare::trace_diff {
namespace {

CsvValue number_cell(double value, bool column_is_int) {
  return column_is_int ? CsvValue::integer(static_cast<std::int64_t>(value))
                       : CsvValue::real(value);
}

}  // namespace

DiffStatsFormat::DiffStatsFormat(const std::vector<DiffStatsRow>& rows)
    : kernel_time_int_(std::all_of(rows.begin(), rows.end(),
                                   [](const DiffStatsRow& r) { return r.kernel_time.is_int; })),
      busy_time_int_(std::all_of(rows.begin(), rows.end(),
                                 [](const DiffStatsRow& r) { return r.busy_time.is_int; })),
      lca_id_float_(
          std::any_of(rows.begin(), rows.end(), [](const DiffStatsRow& r) { return !r.lca_id; })) {}

double DiffStatsFormat::busy_time(const DiffStatsRow& row) const {
  if (busy_time_int_) return row.busy_time.value;
  return std::nearbyint(row.busy_time.value * 1000.0) / 1000.0;  // numpy: round half to even
}

std::string DiffStatsFormat::lca_id_text(std::size_t id) const {
  return lca_id_float_ ? CsvValue::real(static_cast<double>(id)).str()
                       : CsvValue::integer(static_cast<std::int64_t>(id)).str();
}

std::vector<CsvValue> DiffStatsFormat::cells(const DiffStatsRow& row, bool with_source) const {
  std::vector<CsvValue> c;
  c.push_back(CsvValue::text(row.name));
  c.push_back(CsvValue::text(row.cpu_op_name));
  c.push_back(CsvValue::integer(row.cpu_op_uid));
  if (with_source) {
    c.push_back(CsvValue::text(row.source == DiffSource::kTrace1 ? "trace1" : "trace2"));
  }
  c.push_back(CsvValue::text(row.input_dims));
  c.push_back(CsvValue::text(row.input_strides));
  c.push_back(CsvValue::text(row.input_type));
  c.push_back(CsvValue::text(row.concrete_inputs));
  c.push_back(number_cell(row.kernel_time.value, kernel_time_int_));
  c.push_back(number_cell(busy_time(row), busy_time_int_));
  c.push_back(row.lca_name ? CsvValue::text(*row.lca_name) : CsvValue::empty());
  c.push_back(row.lca_id ? CsvValue::text(lca_id_text(*row.lca_id)) : CsvValue::empty());
  c.push_back(CsvValue::integer(row.gpu_op_uid));
  c.push_back(CsvValue::text(row.nn_module_stack));
  c.push_back(CsvValue::text(row.nn_module_parent));
  return c;
}

std::vector<std::string> diff_stats_header(bool with_source) {
  std::vector<std::string> h = {"name", "cpu_op_name", "cpu_op_uid"};
  if (with_source) h.emplace_back("source");
  for (const char* c :
       {"Input Dims", "Input Strides", "Input type", "Concrete Inputs", "kernel_time", "busy_time",
        "lowest_common_ancestor_name", "lowest_common_ancestor_id", "gpu_op_uid", "nn_module_stack",
        "nn_module_parent"}) {
    h.emplace_back(c);
  }
  return h;
}

}  // namespace loupe::core::prepare::trace_diff
