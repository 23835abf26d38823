#include "estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "loupe/python_format.hpp"
#include "loupe/text.hpp"

namespace loupe::fusion {

namespace {

std::string fmt(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, value);
  return buf;
}

EstimateResult reject(std::string rule, std::string reason) {
  EstimateResult r;
  r.rejection = {std::move(rule), std::move(reason)};
  return r;
}

double round2(double v) { return py::round_half_even(v, 2); }

// Per kernel position: the fraction of its measured time the fusion removes, from the first
// instance (GEMM epilogue kernels: all of it; elementwise runs: the roofline saving spread
// over the run's time).
std::vector<double> savings_fractions(const std::vector<Subgroup>& subgroups, const Peaks& peaks,
                                      double bytes_per_mb) {
  std::vector<double> out;
  for (const auto& sg : subgroups) {
    if (sg.kind == SubgroupKind::GemmEpilogue) {
      for (const auto& e : sg.kernels) out.push_back(is_matrix(e) ? 0.0 : 1.0);
    } else if (sg.kind == SubgroupKind::Elementwise) {
      double time = 0.0;
      for (const auto& e : sg.kernels) time += e.dur_us;
      const double saving = roofline_savings_us(sg.kernels, peaks, 100.0, bytes_per_mb);
      const double fraction = time > 0 ? std::min(1.0, saving / time) : 0.0;
      out.insert(out.end(), sg.kernels.size(), fraction);
    } else {
      out.insert(out.end(), sg.kernels.size(), 0.0);
    }
  }
  return out;
}
double round3(double v) { return py::round_half_even(v, 3); }

// Whether a measured group's kernel is a matrix kernel: one of the first instance's matrix
// kernels by name, else what its perf row says (M2).
bool matrix_in_group(const std::string& name, const std::vector<EnrichedKernel>& first,
                     const PerfLookup& lookup, const Candidate& c) {
  for (const auto& e : first) {
    if (e.name == name) return is_matrix(e);
  }
  EnrichedKernel e;
  e.name = name;
  if (const PerfEntry* perf = lookup.find(name, compute::first_shape_key(c.input_dims))) {
    e.compute_spec = perf->compute_spec;
  }
  return is_matrix(e);
}

}  // namespace

std::vector<EnrichedKernel> enrich(const Candidate& c, const PerfLookup& lookup) {
  // shape_aware_lookup keys only a truthy input_dims; a falsy one has the none key, which is
  // what first_shape_key gives for it.
  const ShapeKey shape = compute::first_shape_key(c.input_dims);
  std::vector<EnrichedKernel> out;
  out.reserve(c.kernels.size());
  for (const auto& k : c.kernels) {
    EnrichedKernel e;
    e.name = k.name;
    e.type = k.type;
    e.dur_us = k.dur_us;
    e.data_in_mb = k.data_in_mb;
    e.data_out_mb = k.data_out_mb;
    e.gpu_op_uid = k.gpu_op_uid;
    if (const PerfEntry* perf = lookup.find(k.name, shape)) {
      e.data_moved_mb = perf->data_moved_mb;
      e.gflops = perf->gflops;
      e.compute_spec = perf->compute_spec;
    }
    e.has_perf_data = e.data_moved_mb.has_value();
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<Subgroup> split_into_subgroups(const std::vector<EnrichedKernel>& kernels) {
  std::vector<std::vector<EnrichedKernel>> groups;
  std::vector<EnrichedKernel> current;
  for (const auto& k : kernels) {
    if (is_matrix(k) && !current.empty()) {
      groups.push_back(std::move(current));
      current.clear();
    }
    current.push_back(k);
  }
  if (!current.empty()) groups.push_back(std::move(current));

  std::vector<Subgroup> out;
  for (auto& g : groups) {
    bool any_matrix = false;
    bool any_other = false;
    for (const auto& k : g) (is_matrix(k) ? any_matrix : any_other) = true;
    const SubgroupKind kind = any_matrix && any_other ? SubgroupKind::GemmEpilogue
                              : any_matrix            ? SubgroupKind::GemmOnly
                                                      : SubgroupKind::Elementwise;
    out.push_back({kind, std::move(g)});
  }
  return out;
}

const char* time_source_name(TimeSource source) {
  switch (source) {
    case TimeSource::FirstInstanceScaled:
      return "first_instance_x_instance_count";
    case TimeSource::MeasuredInstances:
      return "measured_instances";
    case TimeSource::AccumulatedTotal:
      return "accumulated_total";
    case TimeSource::FirstInstanceOnly:
      return "first_instance_only";
  }
  return "unknown";
}

bool total_is_first_instance_scaled(const Candidate& c) {
  if (!c.total_us || c.instances_or_one() <= 1 || c.kernels.size() < 3) return false;
  // The narrowed attention core the candidate scan writes (docs/deviations.md M1): a
  // matrix kernel, a softmax kernel, a matrix kernel.
  const auto matrix = [](const Kernel& k) {
    EnrichedKernel e;
    e.name = k.name;
    e.type = k.type;
    return is_matrix(e);
  };
  bool softmax = false;
  for (const auto& k : c.kernels)
    softmax = softmax || contains(text::ascii_lower(k.name), "softmax");
  if (!softmax || !matrix(c.kernels.front()) || !matrix(c.kernels.back())) return false;
  double first = 0.0;
  for (const auto& k : c.kernels) first += k.dur_us;
  const double scaled = first * static_cast<double>(c.instances_or_one());
  return std::fabs(*c.total_us - scaled) <= 1e-9 * std::max(1.0, std::fabs(scaled));
}

EstimateResult standalone_estimate(const Candidate& c, std::size_t index, const PerfLookup& lookup,
                                   const Peaks& peaks, double baseline_ms,
                                   const EstimateOptions& options,
                                   const InstanceMeasurement* measured) {
  const std::int64_t ic = c.instances_or_one();
  if (c.kernels.size() < 2) return reject("G1", "it has fewer than 2 kernels");
  if (c.has_fused_kernel) return reject("G2", "it already contains a fused kernel");

  std::vector<EnrichedKernel> enriched = enrich(c, lookup);
  size_t modeled = 0;
  size_t matrix = 0;
  bool triton = false;
  for (const auto& e : enriched) {
    modeled += e.has_perf_data ? 1 : 0;
    matrix += is_matrix(e) ? 1 : 0;
    triton = triton || e.name.rfind("triton_", 0) == 0;
  }
  if (modeled == 0) return reject("G3", "no kernel has a perf model");
  if (matrix == enriched.size()) {
    return reject("G4", "every kernel is a matrix (GEMM or convolution) kernel");
  }
  if (triton) return reject("G5", "a kernel is already compiler-generated (triton_ prefix)");
  if (matrix > 0) {
    bool all_norm = true;
    for (const auto& e : enriched) {
      if (!is_matrix(e) && !is_norm(e)) all_norm = false;
    }
    if (all_norm) return reject("G6", "its only non-matrix kernels are normalization kernels");
    // M2 (default mode): a MoE finalize kernel is the top-k combine (each token's output sums
    // the rows its experts wrote, scattered back to token order), not a per-tile epilogue.
    bool all_moe_finalize = options.moe_finalize_not_epilogue;
    for (const auto& e : enriched) {
      if (!is_matrix(e) && e.type != "MoE Finalize") all_moe_finalize = false;
    }
    if (all_moe_finalize) {
      return reject("G11",
                    "its only non-matrix kernels are MoE finalize kernels: the top-k combine sums "
                    "each token's rows written by several experts' GEMM tiles, which a per-tile "
                    "GEMM epilogue cannot do");
    }
  }
  const double modeled_frac = static_cast<double>(modeled) / static_cast<double>(enriched.size());
  const double min_frac = enriched.size() < 5 ? 0.5 : 0.75;
  if (modeled_frac < min_frac) {
    return reject("G7", "only " + std::to_string(modeled) + " of " +
                            std::to_string(enriched.size()) + " kernels have perf models (needs " +
                            fmt("%.0f", min_frac * 100) + "%)");
  }
  double current = 0.0;
  for (const auto& e : enriched) current += e.dur_us;
  if (current <= 0) return reject("G8", "its kernels have no measured time");

  const std::vector<Subgroup> subgroups = split_into_subgroups(enriched);
  double total_savings_us = 0.0;
  bool has_epilogue = false;
  for (const auto& sg : subgroups) {
    if (sg.kind == SubgroupKind::GemmEpilogue) {
      has_epilogue = true;
      double non_gemm = 0.0;
      for (const auto& e : sg.kernels) {
        if (!is_matrix(e)) non_gemm += e.dur_us;
      }
      total_savings_us += non_gemm;
    } else if (sg.kind == SubgroupKind::Elementwise) {
      total_savings_us += roofline_savings_us(sg.kernels, peaks, 100.0, options.bytes_per_mb);
    }
  }

  const double gap_high = total_savings_us / current;
  const double gap_low = (75.0 / 100.0) * gap_high;
  const double gap_mid = (87.5 / 100.0) * gap_high;
  const double ic_d = static_cast<double>(ic);

  double time_ms = current * ic_d / 1000;
  double savings_high_ms = total_savings_us * ic_d / 1000;
  TimeSource source = TimeSource::FirstInstanceScaled;
  std::int64_t measured_instances = ic;
  std::vector<GroupAccount> groups;
  if (options.measured_time) {
    if (measured != nullptr && measured->status == MeasurementStatus::Measured) {
      const std::vector<double> fractions =
          savings_fractions(subgroups, peaks, options.bytes_per_mb);
      source = TimeSource::MeasuredInstances;
      measured_instances = measured->matched_instances;
      time_ms = 0.0;
      savings_high_ms = 0.0;
      for (const auto& g : measured->groups) {
        GroupAccount account;
        account.instances = g.instances;
        account.kernel_names = g.kernel_names;
        for (size_t i = 0; i < g.dur_us.size() && i < fractions.size(); ++i) {
          account.time_ms += g.dur_us[i] / 1000;
          // A position's saving is the first instance's judgement of a non-matrix kernel; a
          // group that launches a matrix kernel there (the launching ops matched, the kernels
          // did not: e.g. two matmul_ogs calls under one vllm::moe_forward) keeps its time but
          // gains nothing from it.
          const bool removable =
              i < g.kernel_names.size() && !matrix_in_group(g.kernel_names[i], enriched, lookup, c);
          if (removable) account.savings_high_ms += fractions[i] * g.dur_us[i] / 1000;
        }
        time_ms += account.time_ms;
        savings_high_ms += account.savings_high_ms;
        groups.push_back(account);
      }
    } else if (c.total_us && *c.total_us > 0 && !total_is_first_instance_scaled(c)) {
      source = TimeSource::AccumulatedTotal;
      time_ms = *c.total_us / 1000;
      savings_high_ms = gap_high * time_ms;
    } else {
      source = TimeSource::FirstInstanceOnly;
      measured_instances = 1;
      time_ms = current / 1000;
      savings_high_ms = total_savings_us / 1000;
    }
    // The invariant of docs/deviations.md (M1): a saving never exceeds the measured time of
    // the kernels it names.
    if (!(savings_high_ms <= time_ms)) {
      return reject("I1", "its projected savings " + fmt("%.3f", savings_high_ms) +
                              " ms exceed the measured kernel time " + fmt("%.3f", time_ms) +
                              " ms");
    }
  }
  if (savings_high_ms < kMinSavingsMs) {
    return reject("G9", "projected savings " + fmt("%.3f", savings_high_ms) +
                            " ms are below the 0.1 ms minimum");
  }
  double impact_high = gap_high * time_ms / baseline_ms * 100;
  double impact_low = gap_low * time_ms / baseline_ms * 100;
  double impact_mid = gap_mid * time_ms / baseline_ms * 100;
  if (source == TimeSource::MeasuredInstances) {
    impact_high = savings_high_ms / baseline_ms * 100;
    impact_low = (75.0 / 100.0) * savings_high_ms / baseline_ms * 100;
    impact_mid = (87.5 / 100.0) * savings_high_ms / baseline_ms * 100;
  }
  if (impact_high < kMinImpactScore) {
    return reject("G10",
                  "impact_score_high " + fmt("%.2f", impact_high) + " is below the 2.0% minimum");
  }

  Estimate e;
  e.candidate = index;
  e.operation = c.operation;
  e.impact_mid = round2(impact_mid);
  e.impact_low = round2(impact_low);
  e.impact_high = round2(impact_high);
  e.estimation = modeled == enriched.size() ? "full" : "partial";
  e.bound_type = has_epilogue ? "compute" : "memory";
  e.fusion_type = matrix > 0 ? "matrix_compute" : "memory_bound";
  e.time_ms = round3(time_ms);
  e.instance_count = ic;
  e.kernel_count = c.kernels.size();
  e.modeled_count = modeled;
  e.confidence = classify_confidence(c.base_name, c.module_name, enriched, options.confidence);
  e.has_gemm_epilogue = has_epilogue;
  e.savings_high_ms = savings_high_ms;
  e.savings_mid_ms = (87.5 / 100.0) * savings_high_ms;
  e.time_source = source;
  e.measured_instances = measured_instances;
  e.groups = std::move(groups);
  const size_t unmodeled = enriched.size() - modeled;
  if (unmodeled > 0) {
    e.warning = std::to_string(unmodeled) + " of " + std::to_string(c.kernels.size()) +
                " kernels lack perf models; savings estimate uses trace time for unmodeled kernels";
  }
  e.kernels = std::move(enriched);
  EstimateResult r;
  r.estimate = std::move(e);
  return r;
}

EstimateResult comparative_estimate(const Candidate& c, std::size_t index, double baseline_ms,
                                    const EstimateOptions& options) {
  if (c.kernels.empty()) return reject("C1", "trace1 has no kernels for it");
  const double total_t1 = c.total_us.value_or(0);
  const double total_t2 = c.total_us_trace2.value_or(0);
  const double gap_us = total_t1 - total_t2;
  if (gap_us <= 0) return reject("C2", "trace1 is not slower than trace2 for it");
  const double savings_high = gap_us / 1000;
  if (savings_high < kMinSavingsMs) {
    return reject(
        "C3", "the measured gap " + fmt("%.3f", savings_high) + " ms is below the 0.1 ms minimum");
  }
  const double savings_low = (75.0 / 100.0) * savings_high;
  const double savings_mid = (87.5 / 100.0) * savings_high;
  const double time_ms = total_t1 / 1000;
  const double impact_high = savings_high / baseline_ms * 100;
  const double impact_low = savings_low / baseline_ms * 100;
  const double impact_mid = savings_mid / baseline_ms * 100;
  if (impact_high < kMinImpactScore) {
    return reject("C4",
                  "impact_score_high " + fmt("%.2f", impact_high) + " is below the 2.0% minimum");
  }

  std::vector<EnrichedKernel> t1;
  bool has_matrix = false;
  for (const auto& k : c.kernels) {
    EnrichedKernel e;
    e.name = k.name;
    e.type = k.type;
    e.dur_us = k.dur_us;
    e.gpu_op_uid = k.gpu_op_uid;
    has_matrix = has_matrix || is_matrix(e);
    t1.push_back(std::move(e));
  }

  Estimate e;
  e.candidate = index;
  e.comparative = true;
  e.operation = c.operation;
  e.impact_mid = round2(impact_mid);
  e.impact_low = round2(impact_low);
  e.impact_high = round2(impact_high);
  e.estimation = "measured";
  e.bound_type = has_matrix ? "compute" : "memory";
  e.fusion_type = has_matrix ? "matrix_compute" : "memory_bound";
  e.time_ms = round3(time_ms);
  e.instance_count = c.instances_or_one();
  e.kernel_count = t1.size();
  e.modeled_count = t1.size();
  e.delta_kernel_count = c.delta.is_null() ? Json(0) : c.delta;
  e.confidence = classify_confidence(c.base_name, c.module_name, t1, options.confidence);
  e.savings_high_ms = savings_high;
  e.savings_mid_ms = savings_mid;
  e.time_source = TimeSource::AccumulatedTotal;
  e.measured_instances = c.instances_or_one();
  e.kernels = std::move(t1);
  EstimateResult r;
  r.estimate = std::move(e);
  return r;
}

}  // namespace loupe::fusion
