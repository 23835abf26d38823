// One compute category end to end: analyze_category, then the findings document. In the
// default mode (not --compat tracelens) every finding of an OK document also gets its expected
// savings in ms (savings.hpp), and each card's Impact line quotes them.
#pragma once

#include <string>

#include "loupe/compute/category_analysis.hpp"
#include "loupe/compute/category_inputs.hpp"
#include "loupe/compute/findings_builder.hpp"
#include "loupe/findings.hpp"
#include "loupe/model.hpp"

namespace loupe::compute {

// What the host tells a plugin about one analyze call.
struct CategoryRunOptions {
  std::string category;
  bool comparative = false;
  bool tracelens_compat = false;
};

struct CategoryRun {
  AnalysisResult analysis;
  findings::Document findings;
};

CategoryRun run_category(const CategoryInputs& inputs, const AnalysisOptions& options,
                         const FindingsProse& prose);

// The findings document for metrics that are already final (OK, NO_DATA or ERROR), with the
// default-mode savings quoted on the cards when the metrics carry them.
findings::Document findings_for(const AnalysisResult& analysis, const AnalysisOptions& options,
                                const FindingsProse& prose);

}  // namespace loupe::compute
