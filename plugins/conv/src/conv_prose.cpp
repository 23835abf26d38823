#include "conv_prose.hpp"

#include <algorithm>
#include <cmath>

#include "conv_classification.hpp"

namespace loupe::conv {

namespace {

constexpr const char* kDash = "\xE2\x80\x94";

bool contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

double transpose_percent_of(const Json& metrics) {
  const Json* block = metrics.find("category_specific");
  const Json* v = block == nullptr ? nullptr : block->find("transpose_overhead_percent");
  return v != nullptr && v->is_number() ? v->as_double() : 0.0;
}

}  // namespace

std::string transpose_band(double percent) {
  if (percent > 20) return "high";
  if (percent >= 10) return "moderate";
  return "acceptable";
}

double ConvProse::transpose_overhead(const compute::FindingContext& f) {
  // Default mode (docs/deviations.md C1): the layout-conversion finding carries the
  // channels-last action, so the tuning findings do not repeat it.
  if (f.metrics.find("layout_conversion_finding") != nullptr) return 0.0;
  return transpose_percent_of(f.metrics);
}

std::string ConvProse::document_title(const std::string& category) const {
  std::string display = "Convolutions (" + category + ")";
  if (category == "conv_fwd") display = "Forward convolutions (conv_fwd)";
  if (category == "conv_bwd") display = "Backward convolutions (conv_bwd)";
  return "Convolution Findings: " + display;
}

std::vector<std::string> ConvProse::overview(const Json& metrics) const {
  auto items = FindingsProse::overview(metrics);
  const Json* block = metrics.find("category_specific");
  const Json* tp = block == nullptr ? nullptr : block->find("transpose_overhead_percent");
  if (tp != nullptr && !tp->is_null()) {
    items.push_back("Transpose overhead: " + compute::jnum(*tp) + "% of category kernel time (" +
                    transpose_band(tp->as_double()) + ")");
  }
  return items;
}

std::string ConvProse::no_data_message() const {
  return "No Convolution operations found in trace.";
}

std::vector<std::string> ConvProse::member_types(const compute::FindingContext& f) const {
  std::vector<std::string> found;
  for (const Json* op : f.operations) {
    if (op == nullptr) continue;
    const Json* name = op->find("name");
    const Json* dims = op->find("Input Dims");
    found.push_back(classify_conv(name != nullptr && name->is_string() ? name->as_string() : "",
                                  dims != nullptr && dims->is_string()
                                      ? std::optional<std::string>(dims->as_string())
                                      : std::nullopt));
  }
  std::vector<std::string> ordered;
  for (const auto& label : conv_type_order()) {
    if (contains(found, label)) ordered.push_back(label);
  }
  return ordered;
}

std::string ConvProse::action(const compute::FindingContext& f) const {
  if (f.heuristic()) return FindingsProse::action(f);
  const std::string bound = f.bound_type();
  if (bound == "compute") {
    std::string text = FindingsProse::action(f);
    if (contains(member_types(f), "Depthwise")) {
      text += " Depthwise members naturally show lower efficiency due to limited parallelism.";
    }
    return text;
  }
  if (bound == "memory" && transpose_overhead(f) > 10) {
    return "Convert the model to channels-last layout "
           "(`model.to(memory_format=torch.channels_last)`) to eliminate transpose overhead.";
  }
  return FindingsProse::action(f);
}

std::string ConvProse::resolution(const compute::FindingContext& f) const {
  if (f.heuristic()) return FindingsProse::resolution(f);
  const std::string bound = f.bound_type();
  if (bound == "memory" && transpose_overhead(f) > 10) {
    return "Channels-last tensors match the layout the convolution kernels consume, so the "
           "separate layout-transform kernels and their extra memory round trips disappear.";
  }
  if (bound == "compute") {
    return "Tile shapes matched to the convolution's implicit-GEMM dimensions raise data reuse "
           "and keep more waves in flight, so the fixed FLOP count completes sooner.";
  }
  return FindingsProse::resolution(f);
}

std::vector<std::string> ConvProse::expectation_sentences(const compute::FindingContext& f) const {
  std::vector<std::string> out;
  for (const auto& type : member_types(f)) {
    if (type == "Standard 2D") {
      out.push_back(
          "Standard 3x3 convolutions are expected to exceed 70% of peak TFLOPS and be "
          "compute-bound.");
    } else if (type == "Pointwise 1x1") {
      out.push_back(
          "Pointwise 1x1 convolutions are expected to exceed 60% of peak HBM bandwidth and be "
          "memory-bound.");
    } else if (type == "Large kernel") {
      out.push_back(
          "Large-kernel (5x5 and larger) convolutions are expected to exceed 70% of peak TFLOPS "
          "and be compute-bound.");
    } else if (type == "Depthwise") {
      out.push_back(
          "Depthwise convolutions are expected to reach only about 50% because of limited "
          "parallelism.");
    }
  }
  return out;
}

std::vector<std::string> ConvProse::identification_extras(const compute::FindingContext& f) const {
  const double tp = transpose_overhead(f);
  if (f.heuristic() || f.bound_type() != "memory" || !(tp > 10)) return {};
  const Json* value = f.category_specific("transpose_overhead_percent");
  return {"Aggregate transpose overhead is " + (value ? compute::jnum(*value) : kDash) +
          "% of convolution kernel time (" + transpose_band(tp) + ")."};
}

std::vector<std::string> ConvProse::reasoning_extras(const compute::FindingContext& f) const {
  if (f.heuristic() || f.comparative || f.bound_type() != "memory") return {};
  return {
      "Per-op layout not visible \xE2\x80\x94 refer to aggregate "
      "`transpose_overhead_percent`."};
}

}  // namespace loupe::conv
