// Inductor kernel names -> fused ATen ops, and the per-element flop charge of each op.
#include "triton_kernel_name.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <optional>
#include <utility>

namespace loupe::core::prepare::perf::detail {
namespace {

// Op names (without namespace) inductor can write into a fused kernel's name, sorted.
constexpr std::string_view kOpNames[] = {
#include "known_aten_ops.inc"
};

bool known_op(std::string_view name) {
  return std::binary_search(std::begin(kOpNames), std::end(kOpNames), name);
}

// Per-element flop charge of the ops the model prices; the rest cost nothing.
constexpr std::array kFlopsPerElement = std::to_array<std::pair<std::string_view, int>>({
    {"aten.add", 1},  {"aten.sub", 1},   {"aten.mul", 1},  {"aten.div", 1},  {"aten.pow", 2},
    {"aten.sqrt", 2}, {"aten.rsqrt", 2}, {"aten.exp", 4},  {"aten.log", 4},  {"aten.sigmoid", 4},
    {"aten.tanh", 4}, {"aten.relu", 1},  {"aten.silu", 4}, {"aten.gelu", 8}, {"aten.mean", 1},
    {"aten.sum", 1},  {"aten.var", 2},   {"aten.abs", 1},  {"aten.neg", 1},  {"aten.reciprocal", 2},
    {"aten.ne", 1},   {"aten.eq", 1},    {"aten.lt", 1},   {"aten.gt", 1},
});

// `<ops>` of `triton_{poi,red,per}_fused_<ops>_<digits>`, or empty.
std::string_view fused_part(std::string_view name) {
  std::string_view rest;
  for (const std::string_view prefix :
       {"triton_poi_fused_", "triton_red_fused_", "triton_per_fused_"}) {
    if (name.starts_with(prefix)) rest = name.substr(prefix.size());
  }
  const auto underscore = rest.rfind('_');
  if (underscore == std::string_view::npos || underscore == 0) return {};
  const std::string_view digits = rest.substr(underscore + 1);
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
      })) {
    return {};
  }
  return rest.substr(0, underscore);
}

}  // namespace

std::vector<std::string> inductor_fused_ops(std::string_view kernel_name) {
  // The underscore-separated words of `<ops>`; an op may span several ("all_to_all_single") and
  // start with an empty word ("_to_copy").
  std::vector<std::string_view> words;
  std::string_view rest = fused_part(kernel_name);
  if (rest.empty()) return {};
  for (;;) {
    const auto underscore = rest.find('_');
    words.push_back(rest.substr(0, underscore));
    if (underscore == std::string_view::npos) break;
    rest.remove_prefix(underscore + 1);
  }
  // reach[i]: the longest known op ending at word i whose start is reachable from the first word
  // (its start index), or nullopt. A segmentation of all words is read back from the end, longest
  // op first; a name with no full segmentation names no op.
  const std::string_view ops_text = fused_part(kernel_name);
  std::vector<std::size_t> offset(words.size() + 1, 0);  // character offset of each word
  for (std::size_t w = 0; w < words.size(); ++w) offset[w + 1] = offset[w] + words[w].size() + 1;
  std::vector<std::optional<std::size_t>> reach(words.size() + 1);
  reach[0] = 0;
  for (std::size_t i = 1; i <= words.size(); ++i) {
    for (std::size_t j = 0; j < i && !reach[i]; ++j) {  // the smallest j is the longest op
      if (!reach[j]) continue;
      if (known_op(ops_text.substr(offset[j], offset[i] - offset[j] - 1))) reach[i] = j;
    }
  }
  if (!reach[words.size()]) return {};
  std::vector<std::string> ops;
  for (std::size_t end = words.size(); end > 0; end = *reach[end]) {
    const std::size_t begin = *reach[end];
    ops.push_back(std::string("aten.").append(
        ops_text.substr(offset[begin], offset[end] - offset[begin] - 1)));
  }
  std::reverse(ops.begin(), ops.end());
  return ops;
}

int inductor_flops_per_element(std::string_view aten_op) {
  for (const auto& [op, flops] : kFlopsPerElement) {
    if (op == aten_op) return flops;
  }
  return 0;
}

}  // namespace loupe::core::prepare::perf::detail
