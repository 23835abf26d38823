#include "generic_category_specific.hpp"

#include <cstdint>

#include "generic_sub_category.hpp"
#include "loupe/compute/efficiency.hpp"

namespace loupe::generic {

namespace {

constexpr const char* kSkippedMessage =
    "Communication kernels detected. Use TraceLens's NCCL Analyzer for detailed collective "
    "communication analysis (see TraceLens/NcclAnalyser/).";

SubCategory row_sub_category(const compute::CategoryInputs& inputs, size_t row) {
  // A missing name reads as the text "nan", which is miscellaneous.
  return classify_sub_category(inputs.text(row, "name").value_or("nan"));
}

}  // namespace

bool keeps_row(const compute::CategoryInputs& inputs, size_t row) {
  return inputs.category() != "other" ||
         row_sub_category(inputs, row) != SubCategory::Communication;
}

Json generic_category_specific(const compute::CategoryInputs& inputs, bool tracelens_compat) {
  std::int64_t communication = 0;
  std::int64_t graph = 0;
  std::int64_t misc = 0;
  Json skipped_names = Json::array();
  for (size_t r = 0; r < inputs.rows(); ++r) {
    const SubCategory sub = row_sub_category(inputs, r);
    if (!keeps_row(inputs, r)) {
      skipped_names.push_back(inputs.text(r, "name").value_or("nan"));
      if (!tracelens_compat) ++communication;
      continue;
    }
    if (sub == SubCategory::Graph) {
      ++graph;
    } else if (sub == SubCategory::Communication && !tracelens_compat) {
      ++communication;
    } else {
      ++misc;
    }
  }
  Json block = Json::object();
  block["communication_count"] = communication;
  block["graph_count"] = graph;
  block["miscellaneous_count"] = misc;
  compute::append_peak_specs(block, inputs.metadata());
  if (skipped_names.size() > 0) {
    Json skipped = Json::object();
    skipped["count"] = static_cast<std::int64_t>(skipped_names.size());
    skipped["op_names"] = std::move(skipped_names);
    skipped["message"] = kSkippedMessage;
    block["communication_ops_skipped"] = std::move(skipped);
  }
  return block;
}

}  // namespace loupe::generic
