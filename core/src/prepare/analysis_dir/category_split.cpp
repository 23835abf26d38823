#include "category_split.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>

#include "loupe/core/prepare/pandas_numerics.hpp"
#include "loupe/python_format.hpp"
#include "pandas_csv_roundtrip.hpp"
#include "pandas_float.hpp"

namespace loupe::core::prepare::analysis_dir {
namespace {

// (file key, display name) of one row's `op category` (NaN or "" -> other / Other).
std::pair<std::string, std::string> normalize_category(const CsvTable& table, std::size_t row,
                                                       std::optional<std::size_t> col) {
  if (!col || table.cell(row, *col).kind == CsvCell::Kind::Empty) return {"other", "Other"};
  const std::string_view display = table.cell(row, *col).text;
  return {category_file_key(display), std::string(display)};
}

// A numeric cell as pandas holds it (NaN when empty or not a number).
double number_at(const CsvTable& table, std::size_t row, std::optional<std::size_t> col) {
  if (!col) return std::numeric_limits<double>::quiet_NaN();
  const CsvCellView cell = table.cell(row, *col);
  if (cell.kind == CsvCell::Kind::Empty) return std::numeric_limits<double>::quiet_NaN();
  return pandas_parse_float(cell.text).value_or(std::numeric_limits<double>::quiet_NaN());
}

// Series.sum() / 1000 (NaN skipped), then Python round(x, 3) on the numpy float.
double summed_ms(const CsvTable& table, const std::vector<std::size_t>& rows,
                 std::optional<std::size_t> col) {
  std::vector<double> values;
  values.reserve(rows.size());
  for (const std::size_t r : rows) {
    const double v = number_at(table, r, col);
    values.push_back(std::isnan(v) ? 0.0 : v);
  }
  return numpy::sum(values) / 1000;  // Series.sum(): numpy pairwise summation
}

Json time_breakdown(const CsvTable& table, const std::vector<std::size_t>& rows) {
  const auto kernel_col = table.find_column("Kernel Time (µs)_sum");
  const auto duration_col = table.find_column("total_duration_us");
  const double gpu_ms = kernel_col ? summed_ms(table, rows, kernel_col) : 0.0;
  const double cpu_ms = duration_col ? summed_ms(table, rows, duration_col) : gpu_ms;
  std::optional<double> sync_ms;  // stays the int 0 until an op counts
  std::int64_t sync_ops = 0;
  if (kernel_col && duration_col) {
    for (const std::size_t r : rows) {
      const double kernel_us = number_at(table, r, kernel_col);
      const double duration_us = number_at(table, r, duration_col);
      if (kernel_us > 0 && duration_us > kernel_us * 5) {
        sync_ms = sync_ms.value_or(0.0) + (duration_us - kernel_us) / 1000;
        ++sync_ops;
      }
    }
  }
  const double gpu_rounded = loupe::py::numpy_round(gpu_ms, 3);
  const double sync_rounded = sync_ms ? loupe::py::numpy_round(*sync_ms, 3) : 0.0;
  Json out = Json::object();
  out["gpu_kernel_time_ms"] = gpu_rounded;
  out["cpu_duration_ms"] = loupe::py::numpy_round(cpu_ms, 3);
  out["sync_time_ms"] = sync_ms ? Json(sync_rounded) : Json(0);
  out["sync_ops_count"] = sync_ops;
  const double sync_raw = sync_ms.value_or(0.0);  // the test uses the unrounded values
  out["has_sync_bottleneck"] = sync_raw > 0.1 * gpu_ms && sync_raw > 1;
  return out;
}

}  // namespace

std::string category_skill(std::string_view category_name) {
  static const std::vector<std::pair<std::string_view, std::string_view>> kSkills = {
      {"cpu_idle", "cpu-idle-analyzer"},
      {"gemm", "gemm-analyzer"},
      {"groupedgemm_fwd", "gemm-analyzer"},
      {"groupedgemm_bwd", "gemm-analyzer"},
      {"moe_fused", "moe-analyzer"},
      {"moe_unfused", "moe-analyzer"},
      {"sdpa_fwd", "sdpa-analyzer"},
      {"sdpa_bwd", "sdpa-analyzer"},
      {"inferenceattention", "sdpa-analyzer"},
      {"elementwise", "elementwise-analyzer"},
      {"reduce", "reduce-analyzer"},
      {"triton", "triton-analyzer"},
      {"norm", "norm-analyzer"},
      {"norm_fwd", "norm-analyzer"},
      {"norm_bwd", "norm-analyzer"},
      {"rmsnorm", "norm-analyzer"},
      {"convolution", "convolution-analyzer"},
      {"conv_fwd", "convolution-analyzer"},
      {"conv_bwd", "convolution-analyzer"},
  };
  for (const auto& [name, skill] : kSkills) {
    if (name == category_name) return std::string(skill);
  }
  return "generic-op-analyzer";
}

std::string category_file_key(std::string_view op_category) {
  if (op_category.empty()) return "other";
  std::string key;
  key.reserve(op_category.size());
  for (const char c : op_category) {
    const char mapped = c == ' ' || c == '/' ? '_' : c;
    key.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(mapped))));
  }
  return key;
}

std::vector<CategoryExport> split_categories(const CsvTable& unified) {
  const auto category_col = unified.find_column("op category");
  std::vector<std::string> order;
  std::vector<std::pair<std::string, std::string>> row_keys;
  row_keys.reserve(unified.row_count());
  for (std::size_t r = 0; r < unified.row_count(); ++r) {
    row_keys.push_back(normalize_category(unified, r, category_col));
    if (std::find(order.begin(), order.end(), row_keys.back().first) == order.end()) {
      order.push_back(row_keys.back().first);
    }
  }
  const PandasCsvRoundTrip roundtrip(unified);
  const std::string header = roundtrip.header_line({"enhanced_category", "display_name"});
  std::vector<CategoryExport> out;
  for (const auto& key : order) {
    CategoryExport category;
    category.name = key;
    std::vector<std::size_t> rows;
    for (std::size_t r = 0; r < unified.row_count(); ++r) {
      if (row_keys[r].first == key) rows.push_back(r);
    }
    category.display_name = row_keys[rows.front()].second;
    category.csv_text = header + "\n";
    for (const std::size_t r : rows) {
      category.csv_text += roundtrip.row_line(r, {row_keys[r].first, row_keys[r].second});
      category.csv_text += "\n";
    }
    category.ops_count = rows.size();
    category.time_breakdown = time_breakdown(unified, rows);
    out.push_back(std::move(category));
  }
  return out;
}

}  // namespace loupe::core::prepare::analysis_dir
