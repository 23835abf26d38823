// `--scale SELECTOR=FACTOR` of `loupe what-if` (docs/what-if.md, "CLI"): which GPU ops of a
// RunGraph a selector names, and the targets that scale them.
//   category:NAME  the perf-model category of the op that launched the kernel (GEMM, SDPA_fwd,
//                  elementwise, ...; case-insensitive)
//   op:REGEX       the name of that op (the nearest cpu_op above the launch), whole-name match
//   kernel:REGEX   the kernel's name, matched anywhere in it, case-insensitive
//   finding:ID     the GPU ops a finding of a run owns (findings.json `owns.kernel_uids`; the
//                  caller fills `uids` from the run's findings.json)
#pragma once

#include <cstddef>
#include <regex>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "loupe/core/whatif/run_graph.hpp"
#include "loupe/core/whatif/simulate.hpp"

namespace loupe::core::whatif {

enum class SelectorKind : std::uint8_t { kCategory, kOp, kKernel, kFinding };

struct ScaleSelector {
  std::string text;  // as given, for messages
  SelectorKind kind = SelectorKind::kKernel;
  std::string pattern;
  std::regex regex;  // op / kernel
  double factor = 1;
  std::vector<std::uint32_t> uids;  // finding: the GPU ops it owns, sorted
};

// The selector, or why it cannot be used (unknown form, bad regex, factor not > 0 and finite).
std::variant<ScaleSelector, std::string> parse_scale(std::string_view argument);

struct ScaledOps {
  std::vector<KernelTarget> targets;  // one per op; the last selector naming an op wins
  std::vector<std::size_t> matched;   // per selector: ops it names
};
ScaledOps resolve_scales(const RunGraph& graph, std::span<const ScaleSelector> selectors);

}  // namespace loupe::core::whatif
