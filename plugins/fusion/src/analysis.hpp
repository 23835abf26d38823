// The whole analysis (spec §3.2): inputs -> filter -> estimates -> selection -> metrics and
// findings. Compat mode reproduces TraceLens; the default mode applies the corrections of
// docs/deviations.md.
#pragma once

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "inputs.hpp"
#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"

namespace loupe::fusion {

struct AnalysisOptions {
  bool compat = false;       // --compat tracelens
  bool comparative = false;  // scope chooses the estimator
};

struct AnalysisResult {
  Json metrics;
  findings::Document findings;
  bool error = false;
  std::vector<std::string> log;  // TraceLens's console lines, for the host log
};

using ArchResolver = std::function<std::variant<ArchConfig, InputError>(const std::string&)>;

// The analysis after loading: pure, so tests can run it on hand-built inputs.
AnalysisResult analyze_inputs(const Inputs& inputs, const ArchResolver& resolve_arch,
                              const AnalysisOptions& options);

// Loads from the host model, then analyze_inputs. Bad input gives status ERROR.
AnalysisResult run_analysis(const ModelView& model, const AnalysisOptions& options);

}  // namespace loupe::fusion
