#include "sdpa_category_specific.hpp"

#include <cmath>
#include <cstdint>

#include "loupe/compute/efficiency.hpp"
#include "loupe/python_format.hpp"
#include "sdpa_detection.hpp"
#include "sdpa_kernel_breakdown.hpp"
#include "sdpa_workload.hpp"

namespace loupe::sdpa {

namespace {

// pandas Series.sum() of the has_perf_model column: True counts 1, NaN is skipped.
std::int64_t perf_model_count(const compute::CategoryInputs& inputs) {
  double sum = 0.0;
  for (size_t r = 0; r < inputs.rows(); ++r) {
    const auto cell = inputs.text(r, "has_perf_model");
    if (!cell) continue;
    if (*cell == "True" || *cell == "true") {
      sum += 1;
    } else if (const double v = inputs.number(r, "has_perf_model"); !std::isnan(v)) {
      sum += v;
    }
  }
  return static_cast<std::int64_t>(sum);
}

}  // namespace

Json sdpa_category_specific(const compute::CategoryInputs& inputs, bool tracelens_compat) {
  std::int64_t flash_count = 0;
  std::int64_t paged_count = 0;
  std::int64_t breakdown_count = 0;
  double reshape_pct = 0.0;
  double fwd_pct = 0.0;
  double paged_pct = 0.0;
  PyNumber ctx_tokens;
  PyNumber gen_tokens;
  const bool has_details = inputs.has_column("kernel_details_summary");
  const bool has_params = inputs.has_column("perf_params");
  for (size_t r = 0; r < inputs.rows(); ++r) {
    const std::string name = inputs.text(r, "name").value_or("nan");
    const std::string details =
        has_details ? inputs.text(r, "kernel_details_summary").value_or("nan") : "";
    if (is_flash_attention(name)) ++flash_count;
    if (is_paged_attention(name, details)) {
      ++paged_count;
      const KernelBreakdown b = parse_kernel_breakdown(
          has_details ? inputs.text(r, "kernel_details_summary").value_or("") : "",
          tracelens_compat);
      if (!b.kernels.empty()) {
        ++breakdown_count;
        for (const auto& k : b.kernels) {
          const double pct = k.percent.value_or(0.0);
          if (k.role == KernelRole::ReshapeCache) reshape_pct += pct;
          if (k.role == KernelRole::FwdKernel) fwd_pct += pct;
          if (k.role == KernelRole::PagedAttention) paged_pct += pct;
        }
      }
    }
    if (has_params) {
      const WorkloadProfile p = parse_perf_params(inputs.text(r, "perf_params").value_or(""));
      // TraceLens adds `value or 0`: a falsy or missing count adds the integer 0.
      if (p.ctx_tokens && p.ctx_tokens->value() != 0) ctx_tokens = ctx_tokens + *p.ctx_tokens;
      if (p.gen_tokens && p.gen_tokens->value() != 0) gen_tokens = gen_tokens + *p.gen_tokens;
    }
  }

  Json block = Json::object();
  block["flash_attention_count"] = flash_count;
  block["paged_attention_count"] = paged_count;
  block["has_perf_model_count"] =
      inputs.has_column("has_perf_model") ? perf_model_count(inputs) : std::int64_t{0};
  block["flash_attention_detected"] = flash_count > 0;
  block["paged_attention_detected"] = paged_count > 0;
  compute::append_peak_specs(block, inputs.metadata());
  if (breakdown_count > 0) {
    const auto avg = [&](double sum) {
      return py::round_half_even(sum / static_cast<double>(breakdown_count), 2);
    };
    Json averages = Json::object();
    averages["avg_reshape_cache_percent"] = avg(reshape_pct);
    averages["avg_fwd_kernel_percent"] = avg(fwd_pct);
    averages["avg_paged_attention_percent"] = avg(paged_pct);
    block["kernel_breakdown_avg"] = std::move(averages);
  }
  const PyNumber total = ctx_tokens + gen_tokens;
  if (total.value() > 0) {
    const double ratio = ctx_tokens.value() / total.value();
    Json profile = Json::object();
    profile["total_ctx_tokens"] = ctx_tokens.to_json();
    profile["total_gen_tokens"] = gen_tokens.to_json();
    profile["ctx_ratio"] = py::round_half_even(ratio, 3);
    profile["profile_type"] = workload_type_name(workload_type_for(ratio));
    block["workload_profile"] = std::move(profile);
  }
  return block;
}

}  // namespace loupe::sdpa
