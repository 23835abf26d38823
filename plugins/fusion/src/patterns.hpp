// Deterministic pattern naming and rejection rules (spec §4.6), replacing the LLM's
// Decisions 1-3 of the TraceLens kernel-fusion agent.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "candidate.hpp"
#include "estimate.hpp"

namespace loupe::fusion {

enum class Pattern {
  Attention,
  LayerNorm,
  RMSNorm,
  BatchNorm,
  RoPE,
  SwiGLU,
  GELU,
  GemmEpilogue,
  ConvEpilogue,
  DropoutResidual,
  ReductionChain,
  ElementwiseChain,
  DecomposedOp,
};

struct PatternMatch {
  Pattern pattern = Pattern::DecomposedOp;
  bool novel = false;           // rows 9-12 (not one of the agent's known patterns)
  bool from_name_only = false;  // row 8: the module name decided it
  std::string evidence;         // the kernel evidence that matched, e.g. "rsqrt with mean/pow"
};

PatternMatch classify_pattern(const Candidate& c, const Estimate& e);

std::string pattern_name(Pattern p);
// The concrete recommendation for the pattern (Decision 3).
std::string pattern_action(Pattern p);

// Decision 1, R5: a container module (Sequential, decoder layer, ...), judged by name.
std::optional<std::string> container_reason(const Candidate& c);

}  // namespace loupe::fusion
