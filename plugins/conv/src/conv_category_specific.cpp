#include "conv_category_specific.hpp"

#include <array>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "loupe/compute/category_analysis.hpp"
#include "loupe/compute/efficiency.hpp"
#include "loupe/compute/op_fields.hpp"
#include "loupe/python_format.hpp"
#include "loupe/text.hpp"

namespace loupe::conv {

namespace {

Json metadata_value(const JsonView& v) { return v.present() ? v.to_json() : Json(); }

Json bf16_peak(const JsonView& metadata) {
  const JsonView maf = metadata["max_achievable_tflops"];
  if (maf.is_object()) return metadata_value(maf["matrix_bf16"]);
  return metadata_value(metadata["peak_bf16_maf_tflops"]);
}

}  // namespace

bool is_layout_transform_kernel(std::string_view kernel_name) {
  static constexpr std::array<std::string_view, 5> kPatterns{"transpose", "nchw2nhwc", "nhwc2nchw",
                                                             "nchwtonhwc", "nhwctonchw"};
  const std::string name = text::ascii_lower(kernel_name);
  for (const auto p : kPatterns) {
    if (name.find(p) != std::string::npos) return true;
  }
  return false;
}

Json conv_category_specific_tracelens(const compute::CategoryInputs& inputs) {
  std::vector<size_t> transpose_rows;
  for (size_t r = 0; r < inputs.rows(); ++r) {
    const auto name = inputs.text(r, "name");
    if (name && text::ascii_lower(*name).find("transpose") != std::string::npos)
      transpose_rows.push_back(r);
  }
  const bool has_kt = inputs.has_column(compute::kKernelTimeSum);
  const double tot_ms = has_kt ? compute::column_sum(inputs, compute::kKernelTimeSum) / 1000 : 0.0;
  Json block = Json::object();
  block["transpose_count"] = static_cast<std::int64_t>(transpose_rows.size());
  if (transpose_rows.empty()) {
    block["transpose_time_ms"] = 0;
    block["transpose_overhead_percent"] = tot_ms > 0 ? Json(0.0) : Json(0);
  } else {
    const double tt_ms =
        has_kt ? compute::column_sum(inputs, compute::kKernelTimeSum, transpose_rows) / 1000 : 0.0;
    block["transpose_time_ms"] = py::numpy_round(tt_ms, 3);
    block["transpose_overhead_percent"] =
        tot_ms > 0 ? Json(py::numpy_round(tt_ms / tot_ms * 100, 2)) : Json(0);
  }
  block["peak_maf_tflops"] = bf16_peak(inputs.metadata());
  block["peak_hbm_bw_tbs"] = metadata_value(inputs.metadata()["peak_hbm_bw_tbs"]);
  return block;
}

Json conv_category_specific_corrected(const compute::CategoryInputs& inputs) {
  double layout_us = 0.0;
  double all_us = 0.0;
  double layout_launches = 0.0;
  std::map<std::string, double> time_by_spec;
  for (size_t r = 0; r < inputs.rows(); ++r) {
    if (const auto kernels =
            compute::parse_kernel_details(inputs.text(r, "kernel_details_summary").value_or(""))) {
      for (const auto& k : *kernels) {
        all_us += k.total_duration_us;
        if (is_layout_transform_kernel(k.name)) {
          layout_us += k.total_duration_us;
          layout_launches += k.count;
        }
      }
    }
    const double kt = inputs.number(r, compute::kKernelTimeSum);
    if (const auto spec = inputs.text(r, "Compute Spec"); spec && !std::isnan(kt)) {
      time_by_spec[*spec] += kt;
    }
  }
  std::optional<std::string> dominant_spec;
  double dominant_us = -1.0;
  for (const auto& [spec, us] : time_by_spec) {
    if (us > dominant_us) {
      dominant_spec = spec;
      dominant_us = us;
    }
  }
  const double layout_ms = py::numpy_round(layout_us / 1000, 3);
  const double layout_pct = all_us > 0 ? py::numpy_round(layout_us / all_us * 100, 2) : 0.0;
  const auto launches = static_cast<std::int64_t>(layout_launches);

  Json block = Json::object();
  block["transpose_count"] = launches;
  block["transpose_time_ms"] = layout_ms;
  block["transpose_overhead_percent"] = layout_pct;
  block["peak_maf_tflops"] = dominant_spec
                                 ? compute::resolve_peak_maf(inputs.metadata(), dominant_spec)
                                 : bf16_peak(inputs.metadata());
  block["peak_maf_tflops_bf16"] = bf16_peak(inputs.metadata());
  block["peak_hbm_bw_tbs"] = metadata_value(inputs.metadata()["peak_hbm_bw_tbs"]);
  block["layout_transform_kernel_count"] = launches;
  block["layout_transform_time_ms"] = layout_ms;
  block["layout_transform_percent"] = layout_pct;
  return block;
}

}  // namespace loupe::conv
