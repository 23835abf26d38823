// Runs the attention analysis of one category (sdpa_fwd, sdpa_bwd, inferenceattention, or any
// category whose manifest skill is sdpa-analyzer) on the model: the compute library with the SDPA
// options, the per-op classification, the category_specific block and the attention prose.
#pragma once

#include <string>

#include "loupe/compute/category_analysis.hpp"
#include "loupe/findings.hpp"
#include "loupe/model.hpp"

namespace loupe::sdpa {

struct SdpaRunOptions {
  std::string category = "sdpa_fwd";
  bool comparative = false;
  bool tracelens_compat = false;
};

struct SdpaRun {
  compute::AnalysisResult analysis;
  findings::Document findings;
};

SdpaRun run_sdpa_analysis(const ModelView& model, const SdpaRunOptions& options);

}  // namespace loupe::sdpa
