// Runs the convolution analysis of one category (conv_fwd or conv_bwd) on the model: the
// compute library with the conv options, the conv category_specific block and the conv prose.
#pragma once

#include <string>

#include "loupe/compute/category_analysis.hpp"
#include "loupe/findings.hpp"
#include "loupe/model.hpp"

namespace loupe::conv {

struct ConvRunOptions {
  std::string category = "conv_fwd";
  bool comparative = false;
  bool tracelens_compat = false;
};

struct ConvRun {
  compute::AnalysisResult analysis;
  findings::Document findings;
};

ConvRun run_conv_analysis(const ModelView& model, const ConvRunOptions& options);

}  // namespace loupe::conv
