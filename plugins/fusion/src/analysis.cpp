#include "analysis.hpp"

#include <algorithm>

#include "filter.hpp"
#include "findings_builder.hpp"
#include "metrics.hpp"
#include "selection.hpp"

namespace loupe::fusion {

namespace {

AnalysisResult error_result(const std::string& message, bool comparative) {
  AnalysisResult r;
  r.error = true;
  r.metrics = error_metrics(message);
  r.findings = error_findings("kernel_fusion_metrics.json: " + message, comparative);
  r.log.push_back("Error: " + message);
  return r;
}

EstimateOptions estimate_options(bool compat) {
  EstimateOptions o;
  if (!compat) {
    o.measured_time = true;                 // Q1, M1
    o.bytes_per_mb = kBytesPerMiB;          // Q5
    o.moe_finalize_not_epilogue = true;     // M2
    o.confidence.token_hints = true;        // Q13
    o.confidence.require_agreement = true;  // Q13
  }
  return o;
}

std::string python_number(double value, bool is_int) {
  if (is_int) return std::to_string(static_cast<long long>(value));
  return py::float_repr(value);
}

// M1: each candidate's instances measured in the trace, by file_index; the candidates' totals
// become the measured ones so that the 2% floor judges measured time.
struct MeasuredCandidates {
  std::vector<Candidate> candidates;
  std::vector<InstanceMeasurement> measurements;  // by file_index
};

MeasuredCandidates measure_candidates(const Inputs& in) {
  MeasuredCandidates out;
  out.candidates = in.candidates;
  const KernelTimeline* timeline = in.timeline ? &*in.timeline : nullptr;
  for (auto& c : out.candidates) {
    InstanceMeasurement m = measure_instances(c, timeline);
    if (m.status == MeasurementStatus::Measured) c.total_us = m.total_us;
    if (out.measurements.size() <= c.file_index) out.measurements.resize(c.file_index + 1);
    out.measurements[c.file_index] = std::move(m);
  }
  return out;
}

}  // namespace

AnalysisResult analyze_inputs(const Inputs& in, const ArchResolver& resolve_arch,
                              const AnalysisOptions& options) {
  AnalysisResult result;
  const bool measure = !options.compat && !options.comparative;
  const MeasuredCandidates measured = measure ? measure_candidates(in) : MeasuredCandidates{};
  const std::vector<Candidate> candidates =
      filter_and_dedup(measure ? measured.candidates : in.candidates, in.baseline_ms);
  result.log.push_back("  Filtered: " + std::to_string(in.candidates.size()) + " -> " +
                       std::to_string(candidates.size()) + " candidates (max 15 kernels, deduped)");

  FindingsContext ctx;
  ctx.comparative = options.comparative;
  ctx.first_instance_time = options.compat;
  ctx.baseline_ms = in.baseline_ms;
  ctx.raw_candidate_count = in.candidates.size();
  ctx.candidates = &candidates;

  if (candidates.empty()) {
    result.metrics = no_data_metrics();
    result.findings = build_findings({}, ctx);
    result.log.push_back("No fusion candidates found.");
    return result;
  }

  auto arch = resolve_arch(in.platform);
  if (auto* err = std::get_if<InputError>(&arch)) {
    return error_result(err->message, options.comparative);
  }
  const ArchConfig& config = std::get<ArchConfig>(arch);

  std::vector<Estimate> estimates;
  std::vector<GateRejection> gates;
  if (!(in.baseline_ms > 0)) {
    result.log.push_back("[kernel_fusion_analysis.compute_fusion_impact_estimates] baseline_ms=" +
                         python_number(in.baseline_ms, in.baseline_is_int) +
                         " is invalid; skipping impact_score computation");
  } else {
    const EstimateOptions eo = estimate_options(options.compat);
    for (size_t i = 0; i < candidates.size(); ++i) {
      const std::size_t file_index = candidates[i].file_index;
      const InstanceMeasurement* m =
          file_index < measured.measurements.size() ? &measured.measurements[file_index] : nullptr;
      EstimateResult r = options.comparative
                             ? comparative_estimate(candidates[i], i, in.baseline_ms, eo)
                             : standalone_estimate(candidates[i], i, in.lookup, config.peaks,
                                                   in.baseline_ms, eo, m);
      if (r.estimate) {
        if (m != nullptr && m->status == MeasurementStatus::Measured &&
            r.estimate->time_source == TimeSource::MeasuredInstances) {
          r.estimate->kernel_uids = m->kernel_uids;
        }
        estimates.push_back(std::move(*r.estimate));
      } else {
        gates.push_back({i, r.rejection});
      }
    }
    std::stable_sort(estimates.begin(), estimates.end(), [](const Estimate& a, const Estimate& b) {
      return a.impact_mid > b.impact_mid;
    });
  }

  std::vector<RejectedEstimate> rejected;
  if (!options.compat) {
    SelectionOptions so;
    so.run_total_ms = in.baseline_ms;
    Selection s = select_estimates(std::move(estimates), candidates, so);
    estimates = std::move(s.kept);
    rejected = std::move(s.rejected);
  }

  OkMetricsInput mi;
  mi.candidates = &candidates;
  mi.estimates = &estimates;
  mi.platform = in.platform;
  mi.peak_hbm_bw_tbs = config.peak_hbm_bw_tbs;
  mi.compat = options.compat;
  mi.gate_rejections = &gates;
  mi.rejected = &rejected;
  result.metrics = ok_metrics(mi);

  ctx.gate_rejections = &gates;
  ctx.rejected = &rejected;
  result.findings = build_findings(estimates, ctx);
  result.log.push_back("Kernel fusion analysis complete: " + std::to_string(candidates.size()) +
                       " candidates, " + std::to_string(estimates.size()) + " with estimates");
  return result;
}

AnalysisResult run_analysis(const ModelView& model, const AnalysisOptions& options) {
  auto loaded = load_inputs(model, options.comparative);
  if (auto* err = std::get_if<InputError>(&loaded)) {
    return error_result(err->message, options.comparative);
  }
  Inputs& inputs = std::get<Inputs>(loaded);
  if (!options.compat && !options.comparative) inputs.timeline = KernelTimeline::from_model(model);
  const ArchResolver resolver = [&model](const std::string& platform) {
    return resolve_arch(model, platform);
  };
  return analyze_inputs(inputs, resolver, options);
}

}  // namespace loupe::fusion
