#include "loupe/compute/category_analysis.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <optional>

#include "loupe/compute/efficiency.hpp"
#include "loupe/compute/impact.hpp"
#include "loupe/compute/numeric.hpp"
#include "loupe/python_format.hpp"

namespace loupe::compute {

namespace {

constexpr size_t kMaxOpsWithCallChain = 100;

double np_round(double v, int n) { return py::numpy_round(v, n); }

const char* scope_name(const AnalysisOptions& options) {
  return options.comparative ? "comparative" : "standalone";
}

Json error_metrics(const AnalysisOptions& options, const std::string& message) {
  Json m = Json::object();
  m["category"] = options.category;
  m["status"] = "ERROR";
  m["error"] = message;
  m["comparison_scope"] = scope_name(options);
  // Keeps the ERROR findings file valid for the compute validator (relaxed-empty mode).
  if (!options.tracelens_compat) m["category_findings"] = Json::array();
  return m;
}

Json no_data_metrics(const CategoryInputs& inputs, const AnalysisOptions& options) {
  Json m = Json::object();
  m["category"] = options.category;
  m["status"] = "NO_DATA";
  m["comparison_scope"] = scope_name(options);
  m["total_time_ms"] = 0.0;
  m["percent_of_compute"] = 0.0;
  m["operation_count"] = 0;
  m["operations"] = Json::array();
  m["category_specific"] =
      options.category_specific ? options.category_specific(inputs) : Json::object();
  m["impact_estimates"] = Json::array();
  m["category_findings"] = Json::array();
  return m;
}

// E2E GPU time from metadata.gpu_utilization.total_time_ms; nullopt when absent.
std::optional<double> e2e_ms(const JsonView& metadata) {
  const JsonView v = metadata["gpu_utilization"]["total_time_ms"];
  if (!v.is_number()) return std::nullopt;
  return v.as_double();
}

// The numeric columns the analysis reads; text in any of them is bad input.
std::vector<std::string_view> numeric_columns() {
  return {kKernelTimeSum,
          kKernelTimeMean,
          kKernelTimeStd,
          "operation_count",
          "count",
          "FLOPS/Byte",
          "TFLOPS/s_mean",
          "TB/s_mean",
          "Pct Roofline_mean",
          "delta_us (trace2 - trace1)",
          "speedup (trace2/trace1)",
          "lca_total_kernel_time_trace2_us",
          "lca_count_trace2"};
}

struct OpBuild {
  Json json;
  OpImpactInput impact;
};

class OperationsBuilder {
 public:
  OperationsBuilder(const CategoryInputs& inputs, const AnalysisOptions& options)
      : in_(inputs), opt_(options) {}

  // Operation order of the kept rows: kernel time descending, stable, NaN last (pandas
  // nlargest keep="first").
  std::vector<size_t> order(const std::vector<double>& kt, std::vector<size_t> rows) const {
    if (!in_.has_column(kKernelTimeSum)) return rows;
    std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) {
      if (std::isnan(kt[a])) return false;
      if (std::isnan(kt[b])) return true;
      return kt[a] > kt[b];
    });
    return rows;
  }

  // Returns an error message for rows TraceLens cannot process.
  std::optional<std::string> build(size_t row, double kt_us, double cat_total_ms,
                                   std::optional<double> e2e, OpBuild& out) const {
    const bool compat = opt_.tracelens_compat;
    Json& op = out.json;
    op = Json::object();
    const auto name = in_.text(row, "name");
    if (!name) {
      return in_.csv_name() + ": row " + std::to_string(row + 1) + " has no operation name";
    }
    op["name"] = *name;

    const char* count_column = in_.has_column("count")             ? "count"
                               : in_.has_column("operation_count") ? "operation_count"
                                                                   : nullptr;
    std::int64_t count = 1;
    if (count_column != nullptr) {
      const double c = in_.number(row, count_column);
      if (std::isnan(c) || std::isinf(c)) {
        return in_.csv_name() + ": column '" + count_column + "' row " + std::to_string(row + 1) +
               " is empty (an operation count is required)";
      }
      count = static_cast<std::int64_t>(c);
    }
    op["count"] = count;

    const bool has_kt = in_.has_column(kKernelTimeSum);
    const double t = (has_kt ? kt_us : 0.0) / 1000;
    const double time_ms = py::round_half_even(t, 3);
    op["time_ms"] = time_ms;
    op["percent_of_category"] =
        cat_total_ms > 0 ? Json(np_round(t / cat_total_ms * 100, 2)) : Json(0);
    const double e2e_value = e2e.value_or(0.0);
    std::optional<double> pct_total;
    if (e2e_value > 0) pct_total = py::round_half_even(t / e2e_value * 100, 2);
    op["percent_of_total"] = pct_total ? Json(*pct_total) : Json();

    EfficiencyInputs eff_in;
    eff_in.tflops_mean = in_.number(row, "TFLOPS/s_mean");
    eff_in.tb_s_mean = in_.number(row, "TB/s_mean");
    eff_in.pct_roofline_mean = in_.number(row, "Pct Roofline_mean");
    eff_in.flops_per_byte = in_.number(row, "FLOPS/Byte");
    eff_in.compute_spec = in_.text(row, "Compute Spec");
    eff_in.roofline_bound = in_.text(row, "Roofline Bound");
    eff_in.kernel_time_us = in_.number(row, kKernelTimeSum);
    eff_in.delta_us = in_.number(row, "delta_us (trace2 - trace1)");
    eff_in.speedup = in_.number(row, "speedup (trace2/trace1)");
    if (!compat && std::isnan(eff_in.kernel_time_us)) eff_in.kernel_time_us = 0.0;
    const Efficiency eff = compute_efficiency(eff_in, in_.metadata(), opt_.comparative);
    op["efficiency"] = eff.json;
    if (eff.warning) op["efficiency_warning"] = *eff.warning;

    for (const auto& field : opt_.extra_fields) {
      if (auto value = extra_field(row, field)) op[field] = std::move(*value);
    }
    auto args = format_args(in_.text(row, "Input Dims"), in_.text(row, "Input type"), !compat);
    if (!args && !compat) args = *name;
    if (args) op["args"] = *args;

    if (opt_.comparative) {
      const double t2 = in_.number(row, "lca_total_kernel_time_trace2_us");
      if (!std::isnan(t2)) op["t2_time_ms"] = py::round_half_even(t2 / 1000, 3);
      const double count2 = in_.number(row, "lca_count_trace2");
      if (!std::isnan(count2)) op["count_trace2"] = static_cast<std::int64_t>(count2);
      const double delta = in_.number(row, "delta_us (trace2 - trace1)");
      if (!std::isnan(delta)) op["difference_ms"] = py::round_half_even(delta / 1000, 3);
    }

    const double frac = e2e_value > 0 ? t / e2e_value : 1.0;
    const double kt_std = in_.number(row, kKernelTimeStd);
    const double kt_mean = in_.number(row, kKernelTimeMean);
    if (count > 10 && frac >= 0.05 && !std::isnan(kt_std) && !std::isnan(kt_mean) && kt_mean > 0) {
      const double cov = py::round_half_even(kt_std / kt_mean, 3);
      op["cov"] = cov;
      op["high_variance"] = cov > 1.0;
    }
    if (opt_.operation_classifier) op["classification"] = opt_.operation_classifier(in_, row);

    const std::string kernels = in_.text(row, "kernel_details_summary").value_or("");
    const auto library = compat ? classify_library_tracelens(*name, kernels)
                                : classify_library(*name, kernels, opt_.library_rules);
    op["library"] = library ? Json(*library) : Json();

    bool fusion_flagged = false;
    if (!in_.fusion_map().empty() && !kernels.empty()) {
      if (const auto candidate = match_fusion_candidate(kernels, in_.fusion_map())) {
        op["fusion_flagged"] = true;
        op["fusion_candidate_name"] = *candidate;
        fusion_flagged = true;
      }
    }

    const std::string stack = in_.text(row, "call_stack_full").value_or("");
    const auto module_chain = extract_module_chain(stack);
    op["launcher_path"] = launcher_path(row, module_chain, library);
    const auto [kernel_name, kernel_trunc] = extract_kernel_names(stack);
    op["kernel_name"] = kernel_name;
    op["kernel_name_trunc"] = kernel_trunc;
    op["module_chain"] = string_array(module_chain);
    if (opt_.annotate_operation) opt_.annotate_operation(in_, row, op);

    out.impact.name = *name;
    out.impact.time_ms = time_ms;
    out.impact.percent_of_total = pct_total;
    out.impact.efficiency_percent = eff.efficiency_percent;
    out.impact.is_anomaly = eff.is_anomaly;
    out.impact.bound_type = eff.bound_type;
    out.impact.library = library;
    out.impact.fusion_flagged = fusion_flagged;
    if (!compat) {
      const double ex_uid = in_.number(row, "ex_UID");
      if (!std::isnan(ex_uid) && std::isfinite(ex_uid)) {
        out.impact.ex_uid = static_cast<std::int64_t>(ex_uid);
      }
    }
    return std::nullopt;
  }

 private:
  // An extra field's value, typed like pandas' column; nullopt for an empty cell.
  std::optional<Json> extra_field(size_t row, const std::string& field) const {
    const auto kind_it = opt_.extra_field_kinds.find(field);
    const ExtraFieldKind kind =
        kind_it == opt_.extra_field_kinds.end() ? ExtraFieldKind::Text : kind_it->second;
    const auto text = in_.text(row, field);
    if (!text) return std::nullopt;
    if (kind == ExtraFieldKind::Bool) {
      if (*text == "True") return Json(true);
      if (*text == "False") return Json(false);
      return Json(*text);
    }
    if (kind == ExtraFieldKind::Number) {
      const double v = in_.number(row, field);
      if (std::isnan(v)) return Json(*text);
      if (integer_column(field)) return Json(static_cast<std::int64_t>(v));
      return Json(v);
    }
    return Json(*text);
  }

  // pandas reads a numeric column as int64 only when every cell is an integer literal.
  bool integer_column(const std::string& field) const {
    for (size_t r = 0; r < in_.rows(); ++r) {
      const auto text = in_.text(r, field);
      if (!text || text->empty()) return false;
      for (const char c : *text) {
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+')) return false;
      }
    }
    return true;
  }

  Json launcher_path(size_t row, const std::vector<std::string>& module_chain,
                     const std::optional<std::string>& library) const {
    std::string entry;
    if (in_.has_column("entry_point")) {
      const auto value = in_.text(row, "entry_point");
      // TraceLens: a NaN cell is truthy and is written as NaN (Q8).
      if (!value && opt_.tracelens_compat) return Json(std::nan(""));
      entry = value.value_or("");
    }
    if (!entry.empty() && entry != "Not found") return Json(entry);
    if (!module_chain.empty()) {
      std::string joined;
      for (size_t i = 0; i < module_chain.size() && i < 3; ++i) {
        joined += (i > 0 ? " > " : "") + module_chain[i];
      }
      return Json(joined);
    }
    if (library) return Json(*library + " (vendor)");
    return Json("Not found");
  }

  const CategoryInputs& in_;
  const AnalysisOptions& opt_;
};

}  // namespace

double column_sum(const CategoryInputs& inputs, std::string_view column,
                  const std::vector<size_t>& rows) {
  std::vector<double> values;
  const auto add = [&](size_t r) {
    const double v = inputs.number(r, column);
    values.push_back(std::isnan(v) ? 0.0 : v);
  };
  if (rows.empty()) {
    for (size_t r = 0; r < inputs.rows(); ++r) add(r);
  } else {
    for (const size_t r : rows) add(r);
  }
  return numpy_sum(values);
}

void replace_non_finite_with_null(Json& value) {
  if (value.is_double() && !std::isfinite(value.as_double())) {
    value = Json();
  } else if (value.is_array()) {
    for (auto& item : value.as_array()) replace_non_finite_with_null(item);
  } else if (value.is_object()) {
    for (auto& member : value.as_object()) replace_non_finite_with_null(member.second);
  }
}

AnalysisResult analyze_category(const CategoryInputs& inputs_in, const AnalysisOptions& options) {
  AnalysisResult result;
  CategoryInputs inputs = inputs_in;
  if (inputs.ok()) inputs.require_numeric_columns(numeric_columns());
  if (inputs.ok() && !inputs.has_column("name")) {
    inputs.set_problem(InputProblem::BadValue, inputs.csv_name() + " has no 'name' column");
  }
  if (!inputs.ok()) {
    const InputProblem problem = inputs.problem();
    const bool no_data = problem == InputProblem::CsvMissing || problem == InputProblem::CsvEmpty;
    result.message = inputs.problem_message();
    if (no_data && !options.tracelens_compat) {
      result.status = AnalysisStatus::NoData;
      result.metrics = no_data_metrics(inputs, options);
    } else {
      result.status = AnalysisStatus::Error;
      result.metrics = error_metrics(options, result.message);
    }
    return result;
  }

  const bool compat = options.tracelens_compat;
  const bool has_kt = inputs.has_column(kKernelTimeSum);
  std::vector<double> kt(inputs.rows());
  for (size_t r = 0; r < inputs.rows(); ++r) {
    kt[r] = inputs.number(r, kKernelTimeSum);
    if (!compat && std::isnan(kt[r])) kt[r] = 0.0;  // I-8
  }
  std::vector<size_t> kept;
  for (size_t r = 0; r < inputs.rows(); ++r) {
    if (!options.keep_row || options.keep_row(inputs, r)) kept.push_back(r);
  }
  const auto kept_sum = [&](std::string_view column) {
    std::vector<double> values;
    for (const size_t r : kept) {
      const double v = inputs.number(r, column);
      values.push_back(std::isnan(v) ? 0.0 : v);
    }
    return numpy_sum(values);
  };
  const double total_us = has_kt ? kept_sum(kKernelTimeSum) : 0.0;
  const double total_ms = total_us / 1000;
  const std::optional<double> e2e = e2e_ms(inputs.metadata());

  Json metrics = Json::object();
  metrics["category"] = options.category;
  metrics["status"] = "OK";
  metrics["comparison_scope"] = scope_name(options);
  if (has_kt) {
    metrics["total_time_ms"] = np_round(total_ms, 3);
    const double denom = e2e.value_or(1.0);
    if (!compat && !e2e) {
      metrics["percent_of_compute"] = nullptr;  // Q11: unknown E2E time
    } else {
      metrics["percent_of_compute"] =
          denom > 0 ? Json(np_round(total_ms / denom * 100, 2)) : Json(0);
    }
  } else {
    metrics["total_time_ms"] = 0;
    metrics["percent_of_compute"] = 0;
  }
  metrics["operation_count"] = inputs.has_column("operation_count")
                                   ? Json(static_cast<std::int64_t>(kept_sum("operation_count")))
                                   : Json(static_cast<std::int64_t>(kept.size()));

  const OperationsBuilder builder(inputs, options);
  std::vector<OpImpactInput> impact_inputs;
  Json operations = Json::array();
  const std::vector<size_t> rows = builder.order(kt, kept);
  for (const size_t row : rows) {
    OpBuild op;
    if (auto error = builder.build(row, kt[row], total_ms, e2e, op)) {
      result.status = AnalysisStatus::Error;
      result.message = *error;
      result.metrics = error_metrics(options, *error);
      return result;
    }
    operations.push_back(std::move(op.json));
    impact_inputs.push_back(std::move(op.impact));
  }
  if (operations.size() <= kMaxOpsWithCallChain) {
    for (size_t i = 0; i < rows.size(); ++i) {
      const std::string stack = inputs.text(rows[i], "call_stack_full").value_or("");
      operations.as_array()[i]["call_chain"] = string_array(extract_call_chain(stack));
    }
  }
  metrics["operations"] = std::move(operations);
  metrics["category_specific"] =
      options.category_specific ? options.category_specific(inputs) : Json::object();

  const double baseline_ms = e2e.value_or(0.0);
  if (!(baseline_ms > 0)) {
    result.warnings.push_back("[analysis_utils.compute_impact_estimates] baseline_ms=" +
                              (e2e ? py::float_repr(*e2e) : std::string("0")) +
                              " is invalid; skipping impact_score computationfor category='" +
                              options.category + "'");
  }
  Json estimates =
      compute_impact_estimates(impact_inputs, options.category, baseline_ms, options.comparative);
  Json findings = build_category_findings(estimates, options.comparative);
  metrics["impact_estimates"] = std::move(estimates);
  metrics["category_findings"] = std::move(findings);
  if (!compat) replace_non_finite_with_null(metrics);

  result.status = AnalysisStatus::Ok;
  result.metrics = std::move(metrics);
  return result;
}

}  // namespace loupe::compute
