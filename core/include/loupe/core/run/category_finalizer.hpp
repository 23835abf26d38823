// Turning what a plugin handed back for one category into files: status decision, metrics,
// rendered and validated findings, atomically written; ERROR documents when anything failed.
#pragma once

#include <filesystem>
#include <string>

#include "loupe/core/model/model.hpp"
#include "loupe/core/run/analysis_runner.hpp"
#include "loupe/core/run/plugin_executor.hpp"

namespace loupe::core {

struct FinalizeOptions {
  std::filesystem::path output_dir;
  Scope scope = Scope::Standalone;
  Compat compat = Compat::None;
};

// The file-name stem of a category's outputs: <cat> for its primary analyzer, <cat>.<plugin> for
// a contributing one (docs/plugin-abi.md, "Contributing analyzers").
std::string category_output_stem(const PluginInfo& plugin, const std::string& category,
                                 CategoryRole role);

// Writes <out>/category_data/<stem>_metrics.json and the findings file, and publishes the
// metrics to the model for later plugins. Never throws for plugin problems; a failure to write
// an output file is reported as ERROR too.
CategoryOutcome finalize_category(Model& model, const PluginInfo& plugin,
                                  const std::string& category, const ExecutionResult& result,
                                  const FinalizeOptions& options,
                                  CategoryRole role = CategoryRole::Primary);

}  // namespace loupe::core
