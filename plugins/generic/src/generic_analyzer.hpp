// Runs the analysis of one uncategorized-operations category (any name: the fallback category
// comes from the host) on the model: the compute library with the generic options, the
// sub-category classification, the category_specific block and the generic prose.
#pragma once

#include <string>
#include <vector>

#include "loupe/compute/category_analysis.hpp"
#include "loupe/findings.hpp"
#include "loupe/model.hpp"

namespace loupe::generic {

struct GenericRunOptions {
  std::string category = "other";
  bool comparative = false;
  bool tracelens_compat = false;
};

struct GenericRun {
  compute::AnalysisResult analysis;
  findings::Document findings;
  std::vector<std::string> console;  // informational lines TraceLens prints
};

GenericRun run_generic_analysis(const ModelView& model, const GenericRunOptions& options);

}  // namespace loupe::generic
