#include "generic_analyzer.hpp"

#include <algorithm>

#include "generic_category_specific.hpp"
#include "generic_prose.hpp"
#include "generic_sub_category.hpp"
#include "loupe/compute/findings_builder.hpp"
#include "loupe/compute/savings.hpp"

namespace loupe::generic {

namespace {

Json classification(const compute::CategoryInputs& inputs, size_t row) {
  Json c = Json::object();
  c["sub_category"] =
      sub_category_name(classify_sub_category(inputs.text(row, "name").value_or("nan")));
  return c;
}

// TraceLens's generic script writes a file-not-found ERROR without the scope.
void drop_scope_from_error(Json& metrics) {
  auto& members = metrics.as_object();
  members.erase(std::remove_if(members.begin(), members.end(),
                               [](const auto& m) { return m.first == "comparison_scope"; }),
                members.end());
}

// The analyzer prompt's Data-table extension: a Sub-Category column after the 10 standard ones
// (the sub-category is a function of the op name, the table's first column).
void add_sub_category_column(findings::Document& doc) {
  for (auto& detail : doc.details) {
    for (auto& block : detail.data) {
      const Json* type = block.find("type");
      if (type == nullptr || !type->is_string() || type->as_string() != "table") continue;
      block["columns"].push_back("Sub-Category");
      for (auto& row : block["rows"].as_array()) {
        const auto& cells = row.as_array();
        const std::string name = !cells.empty() && cells[0].is_string() ? cells[0].as_string() : "";
        row.push_back(sub_category_name(classify_sub_category(name)));
      }
    }
  }
}

// Kernel name -> the graph launch that replayed it (the first launch holding it; the count is over
// all launches that hold it), from the trace's serving summary when the run has one.
GraphReplayCallers graph_replay_callers(const ModelView& model) {
  GraphReplayCallers out;
  const JsonView replays = model.document("trace/serving_summary.json")["graph_replays"];
  for (size_t i = 0; i < replays.size(); ++i) {
    const JsonView r = replays[i];
    const JsonView kernels = r["kernels"];
    for (size_t k = 0; k < kernels.size(); ++k) {
      auto [it, inserted] = out.try_emplace(std::string(kernels[k]["name"].as_string()));
      GraphReplayCaller& c = it->second;
      if (inserted) {
        c.launch = std::string(r["launch"].as_string());
        c.caller = std::string(r["caller"].as_string());
        c.step = std::string(r["step"].as_string());
        c.kernels_per_launch = r["kernel_count"].as_int();
      }
      c.launches += 1;
    }
  }
  return out;
}

}  // namespace

GenericRun run_generic_analysis(const ModelView& model, const GenericRunOptions& options) {
  compute::AnalysisOptions analysis;
  analysis.category = options.category;
  analysis.comparative = options.comparative;
  analysis.tracelens_compat = options.tracelens_compat;
  analysis.operation_classifier = &classification;
  analysis.keep_row = &keeps_row;
  const bool compat = options.tracelens_compat;
  analysis.category_specific = [compat](const compute::CategoryInputs& inputs) {
    return generic_category_specific(inputs, compat);
  };

  const compute::CategoryInputs inputs(model, options.category);
  GenericRun run;
  run.analysis = compute::analyze_category(inputs, analysis);
  const GenericProse prose(compat, compat ? GraphReplayCallers{} : graph_replay_callers(model));
  if (run.analysis.status == compute::AnalysisStatus::Error) {
    const auto problem = inputs.problem();
    if (compat && (problem == compute::InputProblem::CsvMissing ||
                   problem == compute::InputProblem::MetadataMissing)) {
      drop_scope_from_error(run.analysis.metrics);
    }
    run.findings = compute::build_error_findings(options.category, options.comparative, prose,
                                                 run.analysis.message);
    return run;
  }
  if (run.analysis.status == compute::AnalysisStatus::Ok) {
    const Json* block = run.analysis.metrics.find("category_specific");
    const Json* skipped = block == nullptr ? nullptr : block->find("communication_ops_skipped");
    if (skipped != nullptr) {
      run.console.push_back("Skipping " + compute::jnum(*skipped->find("count")) +
                            " communication kernel(s) \xE2\x80\x94 use TraceLens's NCCL Analyzer "
                            "instead.");
    }
  }
  if (!compat) compute::add_savings_to_findings(run.analysis.metrics);
  run.findings = compute::build_compute_findings(run.analysis.metrics, options.category,
                                                 options.comparative, prose);
  if (!compat) compute::append_savings_to_cards(run.findings, run.analysis.metrics);
  add_sub_category_column(run.findings);
  return run;
}

}  // namespace loupe::generic
