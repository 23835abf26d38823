#include "sdpa_classification.hpp"

#include <cmath>

#include "sdpa_detection.hpp"
#include "sdpa_kernel_breakdown.hpp"
#include "sdpa_workload.hpp"

namespace loupe::sdpa {

bool has_perf_model(const compute::CategoryInputs& inputs, size_t row) {
  if (!inputs.has_column("has_perf_model")) return false;
  const auto cell = inputs.text(row, "has_perf_model");
  if (!cell) return true;  // bool(NaN)
  if (*cell == "True" || *cell == "true") return true;
  if (*cell == "False" || *cell == "false") return false;
  const double v = inputs.number(row, "has_perf_model");
  return std::isnan(v) ? !cell->empty() : v != 0;
}

Json sdpa_classification(const compute::CategoryInputs& inputs, size_t row, bool tracelens_compat) {
  const std::string name = inputs.text(row, "name").value_or("nan");
  const bool has_details_column = inputs.has_column("kernel_details_summary");
  // An empty cell is pandas NaN, whose text "nan" matches nothing.
  const std::string details =
      has_details_column ? inputs.text(row, "kernel_details_summary").value_or("nan") : "";
  const bool flash = is_flash_attention(name);
  const bool paged = is_paged_attention(name, details);

  Json out = Json::object();
  out["is_flash_attention"] = flash;
  out["is_paged_attention"] = paged;
  out["has_perf_model"] = has_perf_model(inputs, row);
  out["attention_type"] = attention_type_name(attention_type(name, details));
  if (paged && !details.empty()) {
    const std::string cell = inputs.text(row, "kernel_details_summary").value_or("");
    const KernelBreakdown breakdown = parse_kernel_breakdown(cell, tracelens_compat);
    if (!breakdown.kernels.empty()) {
      out["kernel_breakdown"] = breakdown_json(breakdown, tracelens_compat);
    }
  }
  if (inputs.has_column("perf_params")) {
    out["workload_profile"] =
        workload_profile_json(parse_perf_params(inputs.text(row, "perf_params").value_or("")));
  }
  return out;
}

}  // namespace loupe::sdpa
