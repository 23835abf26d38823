// Parsing and resolving `--scale SELECTOR=FACTOR` (docs/what-if.md, "CLI").
#include "loupe/core/whatif/scale_selector.hpp"
#include "loupe/text.hpp"

#include <algorithm>

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace loupe::core::whatif {

namespace {}  // namespace

std::variant<ScaleSelector, std::string> parse_scale(std::string_view argument) {
  const std::size_t eq = argument.rfind('=');
  if (eq == std::string_view::npos) {
    return "'" + std::string(argument) + "': expected SELECTOR=FACTOR (e.g. category:gemm=0.5)";
  }
  ScaleSelector s;
  s.text = std::string(argument.substr(0, eq));
  const std::string factor(argument.substr(eq + 1));
  char* end = nullptr;
  s.factor = std::strtod(factor.c_str(), &end);
  if (factor.empty() || end != factor.c_str() + factor.size() || !std::isfinite(s.factor) ||
      s.factor <= 0) {
    return "'" + std::string(argument) + "': the factor '" + factor +
           "' is not a finite number above 0";
  }
  const std::size_t colon = s.text.find(':');
  const std::string form = colon == std::string::npos ? s.text : s.text.substr(0, colon);
  s.pattern = colon == std::string::npos ? std::string() : s.text.substr(colon + 1);
  if (form == "category") {
    s.kind = SelectorKind::kCategory;
  } else if (form == "op") {
    s.kind = SelectorKind::kOp;
  } else if (form == "kernel") {
    s.kind = SelectorKind::kKernel;
  } else if (form == "finding") {
    s.kind = SelectorKind::kFinding;
  } else {
    return "'" + s.text +
           "': unknown selector form (use category:NAME, op:REGEX, kernel:REGEX or finding:ID)";
  }
  if (s.pattern.empty())
    return "'" + s.text + "': the selector names nothing after '" + form + ":'";
  if (s.kind == SelectorKind::kCategory) {
    s.pattern = text::ascii_lower(s.pattern);
    return s;
  }
  if (s.kind == SelectorKind::kFinding) return s;  // its GPU ops come from a findings.json
  try {
    auto flags = std::regex::ECMAScript | std::regex::optimize;
    if (s.kind == SelectorKind::kKernel) flags |= std::regex::icase;
    s.regex = std::regex(s.pattern, flags);
  } catch (const std::regex_error& e) {
    return "'" + s.text + "': bad regular expression: " + e.what();
  }
  return s;
}

ScaledOps resolve_scales(const RunGraph& graph, std::span<const ScaleSelector> selectors) {
  ScaledOps out;
  out.matched.assign(selectors.size(), 0);
  // Each distinct string is matched once per selector (1 = yes, 2 = no, 0 = not yet).
  std::vector<double> factor(graph.ops().size(), 0);
  for (std::size_t k = 0; k < selectors.size(); ++k) {
    const ScaleSelector& s = selectors[k];
    std::vector<std::uint8_t> memo(graph.strings().size(), 0);
    const auto matches = [&](std::uint32_t id) {
      if (memo[id] == 0) {
        const std::string& text = graph.strings()[id];
        bool yes = false;
        switch (s.kind) {
          case SelectorKind::kCategory:
            yes = !text.empty() && text::ascii_lower(text) == s.pattern;
            break;
          case SelectorKind::kOp:
            yes = !text.empty() && std::regex_match(text, s.regex);
            break;
          case SelectorKind::kKernel:
            yes = std::regex_search(text, s.regex);
            break;
          case SelectorKind::kFinding:
            break;
        }
        memo[id] = yes ? 1 : 2;
      }
      return memo[id] == 1;
    };
    if (s.kind == SelectorKind::kFinding) {
      for (std::size_t i = 0; i < graph.ops().size(); ++i) {
        if (!std::binary_search(s.uids.begin(), s.uids.end(), graph.ops()[i].uid)) continue;
        factor[i] = s.factor;
        ++out.matched[k];
      }
      continue;
    }
    for (std::size_t i = 0; i < graph.ops().size(); ++i) {
      const GpuOp& op = graph.ops()[i];
      const std::uint32_t id = s.kind == SelectorKind::kCategory ? op.category
                               : s.kind == SelectorKind::kOp     ? op.op_name
                                                                 : op.name;
      if (!matches(id)) continue;
      factor[i] = s.factor;
      ++out.matched[k];
    }
  }
  for (std::size_t i = 0; i < graph.ops().size(); ++i) {
    if (factor[i] <= 0) continue;
    const GpuOp& op = graph.ops()[i];
    out.targets.push_back({op.uid, std::llround(static_cast<double>(op.dur) * factor[i])});
  }
  return out;
}

}  // namespace loupe::core::whatif
