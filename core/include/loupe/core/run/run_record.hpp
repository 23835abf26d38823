// loupe_run.json: what ran, with which plugin binaries, and how each category ended.
#pragma once

#include <filesystem>

#include "loupe/core/run/analysis_runner.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core {

// One plugin file of the search path as loupe_run.json and `loupe plugins --json` list it.
Json found_plugin_json(const FoundPlugin& found);
// The record of a category a preference moved away from its first-found plugin.
Json displacement_json(const Displacement& displaced);

// What the run wrote: its `outputs` (the prepared files, then the analyzers' files, the report's
// and loupe_run.json itself).
RecordedOutputs run_outputs(const AnalyzeReport& report, const AnalyzeOptions& options);

std::string run_record_json(const Model& model, const AnalyzeReport& report,
                            const AnalyzeOptions& options);

// Writes <output_dir>/loupe_run.json atomically.
void write_run_record(const std::filesystem::path& output_dir, const Model& model,
                      const AnalyzeReport& report, const AnalyzeOptions& options);

}  // namespace loupe::core
