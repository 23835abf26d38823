#include "workload_detection.hpp"
#include "loupe/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <vector>

namespace loupe::core {

namespace {

struct Engine {
  std::string_view marker;  // lowercase text that appears in its module paths or op names
  std::string_view name;
};

// In priority order: engines that reuse another's kernels come first (SGLang runs vllm:: ops).
constexpr std::array<Engine, 8> kServingEngines = {{{"sglang", "SGLang"},
                                                    {"sgl_kernel", "SGLang"},
                                                    {"xfuser", "xDiT"},
                                                    {"xdit", "xDiT"},
                                                    {"text_generation_server", "TGI"},
                                                    {"tensorrt_llm", "TensorRT-LLM"},
                                                    {"lmdeploy", "LMDeploy"},
                                                    {"vllm", "vLLM"}}};

bool is_backward(std::string_view name) {
  return name.find("Backward") != std::string_view::npos ||
         name.find("_backward") != std::string_view::npos ||
         name.find("autograd::engine::evaluate_function") != std::string_view::npos;
}

// The module path or op name around `pos` (letters, digits and _ . / : -), at most 90 bytes:
// safe to quote in a findings sentence.
std::string excerpt(std::string_view text, std::size_t pos) {
  auto word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '/' ||
           c == ':' || c == '-';
  };
  std::size_t start = pos;
  while (start > 0 && word(text[start - 1]) && pos - start < 40) --start;
  std::size_t end = pos;
  while (end < text.size() && word(text[end]) && end - start < 90) ++end;
  return std::string(text.substr(start, end - start));
}

}  // namespace

WorkloadDetection detect_workload(const Model& model) {
  const CsvTable* table = model.table("perf_report_csvs/unified_perf_summary.csv");
  if (table == nullptr) table = model.table("perf_report_trace1_csvs/unified_perf_summary.csv");
  if (table == nullptr) return {};
  const auto name_col = table->find_column("name");
  const auto stack_col = table->find_column("call_stack_full");
  if (!name_col) return {};
  std::size_t backward = 0;
  std::vector<std::string> texts;  // each row's op name and call stack, lowercased
  texts.reserve(table->row_count());
  for (std::size_t r = 0; r < table->row_count(); ++r) {
    const std::string_view name = table->cell(r, *name_col).text;
    if (is_backward(name)) ++backward;
    texts.push_back(text::ascii_lower(name) + "\n" +
                    (stack_col ? text::ascii_lower(table->cell(r, *stack_col).text) : ""));
  }
  for (const auto& engine : kServingEngines) {
    for (std::size_t r = 0; r < texts.size(); ++r) {
      const auto pos = texts[r].find(engine.marker);
      if (pos == std::string::npos) continue;
      const std::string_view name = table->cell(r, *name_col).text;
      const std::string original(pos <= name.size() ? name : table->cell(r, *stack_col).text);
      const std::size_t at = pos <= name.size() ? pos : pos - name.size() - 1;
      return {Workload::Inference, "call stacks show the serving engine " +
                                       std::string(engine.name) + " (`" + excerpt(original, at) +
                                       "`)"};
    }
  }
  if (backward > 0) {
    return {Workload::Training,
            std::to_string(backward) + " backward op signatures in unified_perf_summary.csv"};
  }
  if (table->row_count() == 0) return {};
  return {Workload::Inference, "no backward op among the " + std::to_string(table->row_count()) +
                                   " op signatures of unified_perf_summary.csv"};
}

}  // namespace loupe::core
