#include "analysis.hpp"

#include "card_selection.hpp"
#include "error_outputs.hpp"
#include "findings_builder.hpp"

namespace loupe::multi_kernel {

namespace {

// Compat: the CSV directory follows the manifest's comparison_scope (spec §4.1 step 3);
// default mode follows the host's scope (the manifest's unless --scope overrides it).
bool comparative_csvs(const AnalysisInputs& inputs, const AnalysisOptions& options) {
  if (!options.compat) return options.scope == Scope::Comparative;
  if (!inputs.manifest) return false;
  const Json* scope = inputs.manifest->find("comparison_scope");
  return scope != nullptr && scope->is_string() && scope->as_string() == "comparative";
}

void check_manifest(const AnalysisInputs& inputs) {
  if (!inputs.manifest_load_error.empty()) {
    throw InputProblem(std::string(kManifestFile) + ": " + inputs.manifest_load_error);
  }
  if (inputs.manifest && !inputs.manifest->is_object()) {
    throw InputProblem(std::string(kManifestFile) + ": the document is " +
                       describe_type(*inputs.manifest) + ", expected an object");
  }
}

Timeline load_timeline(const AnalysisInputs& inputs, bool comparative) {
  const std::string file =
      std::string(comparative ? "perf_report_trace1_csvs" : "perf_report_csvs") +
      "/gpu_timeline.csv";
  const auto table = inputs.tables.find(file);
  std::string reason = file + " is missing";
  if (const auto err = inputs.table_load_errors.find(file); err != inputs.table_load_errors.end()) {
    reason = file + " could not be parsed (" + err->second + ")";
  }
  return read_timeline(file, table == inputs.tables.end() ? nullptr : &table->second, reason);
}

void read_comm_kernels(const Json& nccl_summary, AnalysisResult& result) {
  const std::string where = std::string(kDataFile) + ": nccl_summary";
  result.comm_kernel_count =
      number_member(nccl_summary, "total_count", PyNumber::integer(0), where);
  result.comm_kernel_sum_ms =
      py_div(number_member(nccl_summary, "total_time_us", PyNumber::integer(0), where), 1000.0);
  const Json* top = nccl_summary.find("top_ops");
  if (top == nullptr || !top->is_array() || top->size() == 0) return;
  const Json& first = top->as_array().front();
  const Json* name = first.find("name");
  const Json* duration = first.find("duration_us");
  if (name != nullptr && name->is_string() && duration != nullptr && duration->is_number()) {
    result.longest_comm_kernel = name->as_string();
    result.longest_comm_kernel_us = duration->as_double();
  }
}

void choose_denominator(AnalysisResult& result, bool compat) {
  if (compat) {
    result.denominator_ms = result.timeline_total_ms;
    result.denominator_population = "linked_gpu_events";
    return;
  }
  if (result.all_events_span_ms && *result.all_events_span_ms > 0.0) {
    result.denominator_ms = PyNumber::real(*result.all_events_span_ms);
    result.denominator_population = "all_gpu_events";
  } else if (result.timeline_source == TotalTime::Source::TimelineRow &&
             result.timeline_total_ms.value() > 0.0) {
    result.denominator_ms = result.timeline_total_ms;
    result.denominator_population = "linked_gpu_events";
  } else {
    result.denominator_ms = PyNumber::integer(0);
    result.denominator_population = "none";
  }
}

AnalysisOutput analyze_data(const Json& data, const AnalysisInputs& inputs,
                            const AnalysisOptions& options) {
  const DataSections sections = split_data_document(data);
  AnalysisResult result;
  result.corrected = !options.compat;
  result.scope = options.scope;
  result.workload = choose_workload(inputs.manifest, options.workload, options.workload_evidence);
  result.timeline = load_timeline(inputs, comparative_csvs(inputs, options));

  const TotalTime total = timeline_total_time(result.timeline, sections.overlap);
  result.timeline_total_ms = total.ms;
  result.timeline_source = total.source;
  if (const auto span = optional_number_member(sections.overlap, "total_time_us", kOverlapPath)) {
    result.all_events_span_ms = py_div(*span, 1000.0);
  }
  choose_denominator(result, options.compat);

  result.memcpy = assess_memcpy(sections.memcpy_summary, result.denominator_ms, result.corrected,
                                inputs.host_link_gbps);
  result.blocking = assess_blocking(sections.overlap, result.corrected);
  result.overlap = assess_overlap(sections.overlap, result.corrected);
  result.cross = cross_validate(sections.overlap, result.timeline);
  result.patterns = detect_patterns(result);
  read_comm_kernels(sections.nccl_summary, result);
  if (result.corrected && result.scope == Scope::Standalone) {
    result.sync_idle = assess_sync_idle(inputs.gpu_events ? &*inputs.gpu_events : nullptr);
    if (inputs.cpu_idle_metrics) {
      result.sync_idle.host_blocked_ms = cpu_idle_host_blocked_ms(*inputs.cpu_idle_metrics);
    }
  }

  AnalysisOutput out;
  out.metrics = build_success_metrics(sections, result);
  out.findings = build_findings(result, select_cards(result));
  return out;
}

}  // namespace

WorkloadChoice choose_workload(const std::optional<Json>& manifest, const std::string& option,
                               const std::string& evidence) {
  if (manifest && manifest->is_object()) {
    for (const char* key : {"analysis_mode", "workload"}) {
      const Json* value = manifest->find(key);
      if (value == nullptr || !value->is_string()) continue;
      const std::string& text = value->as_string();
      const std::string source = std::string("taken from the manifest's `") + key + "` field";
      if (text == "inference") return {WorkloadMode::Inference, source};
      if (text == "training" || text == "default") return {WorkloadMode::Training, source};
    }
  }
  const std::string source =
      evidence.empty() || evidence.rfind("--workload", 0) == 0
          ? std::string("taken from the --workload option")
          : "detected from the trace: " + loupe::findings::inline_text(evidence);
  if (option == "inference") return {WorkloadMode::Inference, source};
  if (option == "training") return {WorkloadMode::Training, source};
  return {WorkloadMode::Training,
          "the default because neither the manifest nor the --workload option names a workload"};
}

AnalysisOutput run_analysis(const AnalysisInputs& inputs, const AnalysisOptions& options) {
  // Same order as TraceLens: the data file is checked before the manifest is read.
  try {
    if (!inputs.data) {
      if (!inputs.data_load_error.empty()) {
        throw InputProblem(std::string(kDataFile) + ": " + inputs.data_load_error);
      }
      const std::string message = options.compat
                                      ? std::string(kTraceLensMissingDataError)
                                      : std::string(kDataFile) +
                                            " is missing from the analysis directory (TraceLens's "
                                            "orchestrator_prepare.py writes it)";
      return error_output(message, options.scope);
    }
    check_manifest(inputs);
    return analyze_data(*inputs.data, inputs, options);
  } catch (const InputProblem& problem) {
    return error_output(problem.what(), options.scope);
  }
}

}  // namespace loupe::multi_kernel
