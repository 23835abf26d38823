// metadata/model_info.json: which model the trace shows (model, architecture, scale,
// precision), inferred deterministically from module names, operator names, shapes and dtypes
// (docs/report.md, "model_info.json"). Every field the evidence does not settle reads
// "Cannot be inferred from trace".
#pragma once

#include <string>
#include <vector>

#include "loupe/json_value.hpp"

namespace loupe::core {

class Model;
class CsvTable;

inline constexpr const char* kModelInfoFile = "metadata/model_info.json";
inline constexpr const char* kCannotInfer = "Cannot be inferred from trace";

struct ModelInfo {
  std::string model = kCannotInfer;
  std::string architecture = kCannotInfer;
  std::string scale = kCannotInfer;
  std::string precision = kCannotInfer;
  std::vector<std::string> evidence;  // one line per decided field: what settled it
};

// The evidence the inference reads, gathered from the analysis directory.
struct ModelEvidence {
  std::vector<std::string> modules;  // nn.Module class names (no instance suffix), unique
  // Model files of a serving engine the call stacks run through (vllm/model_executor/models/
  // qwen3.py, sglang/srt/models/llama.py -> "qwen3", "llama"), unique.
  std::vector<std::string> engine_model_files;
  struct Op {
    std::string name;
    std::string input_type;       // e.g. "('c10::BFloat16', 'c10::BFloat16')"
    std::string input_dims;       // e.g. "((1, 128, 512), (512, 512))"
    double count = 0.0;           // operation_count
    double kernel_time_us = 0.0;  // Kernel Time (us)_sum
  };
  std::vector<Op> ops;
};

// From perf_report_csvs/unified_perf_summary.csv (comparative: perf_report_trace1_csvs/).
ModelEvidence gather_model_evidence(const Model& model, bool comparative);
ModelEvidence evidence_from_unified_summary(const CsvTable& table);

ModelInfo identify_model(const ModelEvidence& evidence);

// Exactly {"model", "architecture", "scale", "precision"}, the four keys TraceLens's schema
// has; the evidence lines go into the report's appendix.
Json model_info_json(const ModelInfo& info);

}  // namespace loupe::core
