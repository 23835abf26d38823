#include "patterns.hpp"

#include <regex>

#include "loupe/text.hpp"

namespace loupe::fusion {

namespace {

struct Tokens {
  bool softmax = false, rsqrt = false, mean = false, pow = false, mul = false, add = false;
  bool sub = false, neg = false, cat = false, silu = false, gelu = false, dropout = false;
  bool reduce = false;
  size_t gelu_kernels = 0;
};

bool search(const std::string& name, const std::regex& re) { return std::regex_search(name, re); }

std::regex token_regex(const char* pattern) {
  return std::regex(pattern, std::regex::ECMAScript | std::regex::icase);
}

Tokens scan_tokens(const std::vector<EnrichedKernel>& kernels) {
  static const std::regex kMul = token_regex("mulfunctor|mul_kernel|(^|[^a-z])mul([^a-z]|$)");
  static const std::regex kAdd =
      token_regex("functor_add|functoronself_add|addfunctor|add_kernel|(^|[^a-z])add([^a-z]|$)");
  static const std::regex kSub =
      token_regex("subfunctor|sub_kernel|subtensorop|(^|[^a-z])sub([^a-z]|$)");
  static const std::regex kNeg = token_regex("neg_kernel|(^|[^a-z])neg([^a-z]|$)");
  Tokens t;
  for (const auto& k : kernels) {
    if (is_matrix(k)) continue;
    const std::string name = text::ascii_lower(k.name);
    t.softmax = t.softmax || contains(name, "softmax");
    t.rsqrt = t.rsqrt || contains(name, "rsqrt");
    t.mean = t.mean || contains(name, "mean");
    t.pow = t.pow || contains(name, "pow");
    t.mul = t.mul || search(name, kMul);
    t.add = t.add || search(name, kAdd);
    t.sub = t.sub || search(name, kSub);
    t.neg = t.neg || search(name, kNeg);
    t.cat = t.cat || contains(name, "catarray") || contains(name, "cat_");
    t.silu = t.silu || contains(name, "silu") || contains(name, "swish");
    if (contains(name, "gelu")) {
      t.gelu = true;
      ++t.gelu_kernels;
    }
    t.dropout = t.dropout || contains(name, "dropout") || contains(name, "bernoulli");
    t.reduce = t.reduce || contains(name, "reduce_kernel") || contains(name, "reduceop") ||
               contains(name, "_red_") || contains(name, "softmax") || contains(name, "mean");
  }
  return t;
}

bool any_of(const std::string& nm, std::initializer_list<const char*> hints) {
  for (const char* h : hints) {
    if (contains(nm, h)) return true;
  }
  return false;
}

}  // namespace

PatternMatch classify_pattern(const Candidate& c, const Estimate& e) {
  const Tokens t = scan_tokens(e.kernels);
  size_t gemms = 0;
  for (const auto& k : e.kernels) gemms += is_matrix(k) ? 1 : 0;
  const size_t n = e.kernels.size();
  const std::string nm = text::ascii_lower(c.base_name + " " + c.module_name);
  PatternMatch m;

  if (gemms >= 2 && t.softmax) {
    m.pattern = Pattern::Attention;
    m.evidence = "two or more GEMM kernels around a softmax kernel";
  } else if (gemms == 0 && t.rsqrt && (t.mean || t.pow)) {
    if (any_of(nm, {"layernorm", "layer_norm"})) {
      m.pattern = Pattern::LayerNorm;
    } else if (any_of(nm, {"rmsnorm", "rms_norm"})) {
      m.pattern = Pattern::RMSNorm;
    } else {
      m.pattern = t.sub ? Pattern::LayerNorm : Pattern::RMSNorm;
    }
    m.evidence = std::string("an rsqrt kernel next to ") + (t.mean ? "a mean" : "a power") +
                 " kernel, the steps of a normalization";
  } else if (gemms == 0 && t.mul && t.add && any_of(nm, {"batchnorm", "batch_norm"})) {
    m.pattern = Pattern::BatchNorm;
    m.evidence = "separate multiply and add kernels that apply a per-channel scale and shift";
  } else if (t.neg && t.cat) {
    m.pattern = Pattern::RoPE;
    m.evidence =
        "a negate kernel and a concatenate kernel, the rotate-half step of a rotary embedding";
  } else if (t.silu && t.mul) {
    m.pattern = Pattern::SwiGLU;
    m.evidence = "a SiLU kernel followed by a separate gating multiply";
  } else if ((gemms == 0 && contains(nm, "gelu") && n >= 2) || (n >= 2 && t.gelu)) {
    m.pattern = Pattern::GELU;
    m.evidence = "a GELU kernel next to its component kernels";
  } else if (e.has_gemm_epilogue) {
    m.pattern = contains(nm, "conv") ? Pattern::ConvEpilogue : Pattern::GemmEpilogue;
    m.evidence = "a matrix kernel followed by separate elementwise kernels";
  } else {
    // Row 8: the module name decides among the known patterns.
    struct NameRule {
      std::initializer_list<const char*> hints;
      Pattern pattern;
    };
    static const NameRule kNameRules[] = {
        {{"attention"}, Pattern::Attention},
        {{"rmsnorm", "rms_norm"}, Pattern::RMSNorm},
        {{"layernorm", "layer_norm"}, Pattern::LayerNorm},
        {{"batchnorm", "batch_norm"}, Pattern::BatchNorm},
        {{"rotary", "rope", "apply_rotary"}, Pattern::RoPE},
        {{"silu", "swiglu"}, Pattern::SwiGLU},
        {{"gelu"}, Pattern::GELU},
    };
    for (const auto& rule : kNameRules) {
      if (any_of(nm, rule.hints)) {
        m.pattern = rule.pattern;
        m.from_name_only = true;
        m.evidence = "the module name; the kernel names alone do not show the pattern";
        return m;
      }
    }
    m.novel = true;
    if (t.dropout && t.add) {
      m.pattern = Pattern::DropoutResidual;
      m.evidence = "a dropout kernel and a residual add kernel";
    } else if (gemms == 0 && t.reduce && n >= 2) {
      m.pattern = Pattern::ReductionChain;
      m.evidence = "a reduction kernel next to elementwise kernels";
    } else if (gemms == 0 && n >= 2) {
      m.pattern = Pattern::ElementwiseChain;
      m.evidence = "no GEMM or convolution kernel among them";
    } else {
      m.pattern = Pattern::DecomposedOp;
      m.evidence = "several small kernels launched for one module call";
    }
  }
  return m;
}

std::string pattern_name(Pattern p) {
  switch (p) {
    case Pattern::Attention:
      return "Unfused Attention";
    case Pattern::LayerNorm:
      return "Unfused LayerNorm";
    case Pattern::RMSNorm:
      return "Unfused RMSNorm";
    case Pattern::BatchNorm:
      return "Unfused BatchNorm";
    case Pattern::RoPE:
      return "Unfused RoPE";
    case Pattern::SwiGLU:
      return "Unfused SwiGLU";
    case Pattern::GELU:
      return "Unfused GELU";
    case Pattern::GemmEpilogue:
      return "GEMM Epilogue";
    case Pattern::ConvEpilogue:
      return "Convolution Epilogue";
    case Pattern::DropoutResidual:
      return "Dropout + Residual Add";
    case Pattern::ReductionChain:
      return "Reduction + Elementwise Chain";
    case Pattern::ElementwiseChain:
      return "Elementwise Chain";
    case Pattern::DecomposedOp:
      return "Multi-Kernel Decomposed Op";
  }
  return "Multi-Kernel Decomposed Op";
}

std::string pattern_action(Pattern p) {
  switch (p) {
    case Pattern::Attention:
      return "Replace the separate score GEMM, softmax and value GEMM kernels with a single fused "
             "attention kernel so the score matrix never round-trips through memory.";
    case Pattern::LayerNorm:
    case Pattern::RMSNorm:
      return "Fuse the normalization chain (power/mean/rsqrt/scale) into one kernel that reads the "
             "input once and writes the normalized output once.";
    case Pattern::BatchNorm:
      return "Fold the per-channel scale and shift into one fused normalization kernel (or into "
             "the preceding convolution for inference).";
    case Pattern::RoPE:
      return "Fuse the rotate-half (negate + concatenate) and the cos/sin multiply-add into a "
             "single rotary-embedding kernel.";
    case Pattern::SwiGLU:
      return "Fuse the SiLU activation with the gating multiply, and where possible into the "
             "preceding projection GEMM epilogue.";
    case Pattern::GELU:
      return "Use a single fused GELU kernel instead of its decomposed component kernels.";
    case Pattern::GemmEpilogue:
      return "Fold the trailing elementwise kernels (bias, activation, residual) into the GEMM "
             "epilogue.";
    case Pattern::ConvEpilogue:
      return "Fold the trailing elementwise kernels (bias, activation, residual) into the "
             "convolution epilogue.";
    case Pattern::DropoutResidual:
      return "Fuse dropout, residual add and neighbouring elementwise work into one kernel.";
    case Pattern::ReductionChain:
      return "Fuse the reduction with its neighbouring elementwise kernels into one kernel.";
    case Pattern::ElementwiseChain:
    case Pattern::DecomposedOp:
      return "Fuse the chain of elementwise kernels into a single kernel via compiler or "
             "graph-level fusion, removing intermediate memory round-trips.";
  }
  return "";
}

std::optional<std::string> container_reason(const Candidate& c) {
  const std::string nm = text::ascii_lower(c.base_name + " " + c.module_name);
  static const std::regex kContainer(
      "sequential|modulelist|moduledict|decoderlayer|encoderlayer|transformerblock|basicblock|"
      "bottleneck",
      std::regex::ECMAScript);
  std::smatch match;
  if (std::regex_search(nm, match, kContainer)) {
    return "the module is a container (" + match.str() +
           ") whose kernels belong to independent child modules";
  }
  static const std::regex kCallImpl("module\\.py\\(\\d+\\): _call_impl", std::regex::ECMAScript);
  if (std::regex_search(nm, kCallImpl)) {
    return "the frame is the generic module-call wrapper, shared by every module type";
  }
  return std::nullopt;
}

}  // namespace loupe::fusion
