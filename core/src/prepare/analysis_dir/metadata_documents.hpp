// The JSON documents orchestrator_prepare writes besides the data files:
// metadata/<cat>_metadata.json, metadata/model_info.json and the category manifest's entries
// (docs/contracts/multi_kernel.md §2.4-§2.5, docs/contracts/conv.md §1.4, docs/contracts/fusion.md §1.4).
#pragma once

#include <string>

#include "loupe/core/prepare/analysis_dir_writer.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare::analysis_dir {

struct DocumentContext {
  std::string platform;
  Json arch_spec;
  std::string trace_path;  // as recorded
  std::string output_dir;  // as recorded; file paths in documents are built on it
  Json gpu_utilization;
};

// platform ... gpu_utilization: the keys every metadata file starts with.
Json metadata_base(const DocumentContext& ctx, const std::string& display_name,
                   const std::string& category_name);

Json model_info_document();

Json cpu_idle_entry(const DocumentContext& ctx);
Json multi_kernel_entry(const DocumentContext& ctx);
Json kernel_fusion_entry(const DocumentContext& ctx, std::size_t candidate_count);

}  // namespace loupe::core::prepare::analysis_dir
