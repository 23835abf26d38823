#include "elementwise_analyzer.hpp"

#include <cmath>

#include "elementwise_prose.hpp"
#include "host_transfer.hpp"
#include "loupe/compute/efficiency.hpp"
#include "loupe/python_format.hpp"

namespace loupe::elementwise {

namespace {

constexpr std::string_view kKernelDetails = "trunc_kernel_details";

bool host_transfer_row(const compute::CategoryInputs& inputs, size_t row) {
  const auto details = inputs.text(row, kKernelDetails);
  return details && only_host_device_copies(*details);
}

Json elementwise_category_specific(const compute::CategoryInputs& inputs) {
  Json block = Json::object();
  block["peak_hbm_bw_tbs"] = compute::metadata_member(inputs.metadata(), "peak_hbm_bw_tbs");
  return block;
}

// Default mode: the host<->device copies left out of the roofline, named with their time so
// that nothing is dropped silently.
Json default_category_specific(const compute::CategoryInputs& inputs) {
  Json block = elementwise_category_specific(inputs);
  Json left_out = Json::array();
  for (size_t r = 0; r < inputs.rows(); ++r) {
    if (!host_transfer_row(inputs, r)) continue;
    Json op = Json::object();
    op["name"] = inputs.text(r, "name").value_or("");
    op["kernels"] = inputs.text(r, kKernelDetails).value_or("");
    const double us = inputs.number(r, "Kernel Time (\xC2\xB5s)_sum");
    op["time_ms"] = std::isnan(us) ? Json() : Json(py::round_half_even(us / 1000.0, 3));
    left_out.push_back(std::move(op));
  }
  block["host_device_copies"] = std::move(left_out);
  block["host_device_copies_note"] =
      "copies between host and device memory run at the host link's speed, not HBM's: they are "
      "not judged against the roofline here (the multi_kernel analysis judges them against the "
      "host link)";
  return block;
}

}  // namespace

compute::AnalysisOptions elementwise_analysis_options(const compute::CategoryRunOptions& options) {
  compute::AnalysisOptions analysis;
  analysis.category = options.category;
  analysis.comparative = options.comparative;
  analysis.tracelens_compat = options.tracelens_compat;
  analysis.extra_fields = {"Input Dims", "Input type", "FLOPS/Byte"};
  analysis.extra_field_kinds = {{"FLOPS/Byte", compute::ExtraFieldKind::Number}};
  analysis.category_specific = &elementwise_category_specific;
  if (!options.tracelens_compat) {
    analysis.keep_row = [](const compute::CategoryInputs& inputs, size_t row) {
      return !host_transfer_row(inputs, row);
    };
    analysis.category_specific = &default_category_specific;
  }
  return analysis;
}

compute::CategoryRun run_elementwise_analysis(const ModelView& model,
                                              const compute::CategoryRunOptions& options) {
  const compute::CategoryInputs inputs(model, options.category);
  const ElementwiseProse prose(!options.tracelens_compat);
  return compute::run_category(inputs, elementwise_analysis_options(options), prose);
}

}  // namespace loupe::elementwise
