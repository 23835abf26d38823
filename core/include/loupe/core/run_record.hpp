// loupe_run.json: what ran, with which plugin binaries, and how each category ended.
#pragma once

#include <filesystem>

#include "loupe/core/analysis_runner.hpp"

namespace loupe::core {

std::string run_record_json(const Model& model, const AnalyzeReport& report,
                            const AnalyzeOptions& options);

// Writes <output_dir>/loupe_run.json atomically.
void write_run_record(const std::filesystem::path& output_dir, const Model& model,
                      const AnalyzeReport& report, const AnalyzeOptions& options);

}  // namespace loupe::core
