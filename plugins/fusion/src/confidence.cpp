#include "confidence.hpp"

#include <array>
#include <utility>

#include "loupe/text.hpp"

namespace loupe::fusion {

namespace {

struct HintGroup {
  std::string_view signal;
  std::vector<std::string_view> hints;
};

const std::vector<HintGroup>& hint_groups() {
  static const std::vector<HintGroup> groups = {
      {"attention", {"attention", "sdpa", "self_attn"}},
      {"norm", {"rmsnorm", "rms_norm", "layernorm", "layer_norm", "batchnorm", "batch_norm"}},
      {"mlp", {"mlp"}},
      {"rope", {"rotary", "rope", "apply_rotary"}},
      {"siglu", {"silu", "swiglu"}},
  };
  return groups;
}

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_alnum(char c) { return is_alpha(c) || is_digit(c); }

// A token boundary sits between positions i-1 and i.
bool boundary_at(std::string_view s, size_t i) {
  if (i == 0 || i >= s.size()) return true;
  const char a = s[i - 1];
  const char b = s[i];
  if (!is_alnum(a) || !is_alnum(b)) return true;
  if (is_lower(a) && is_upper(b)) return true;
  if (is_upper(a) && is_upper(b) && i + 1 < s.size() && is_lower(s[i + 1])) return true;
  if (is_digit(a) != is_digit(b)) return true;
  return false;
}

bool hint_in(std::string_view original, const std::string& lower, std::string_view hint,
             bool token_hints) {
  if (!token_hints) return contains(lower, hint);
  return hint_matches_token(original, hint);
}

}  // namespace

bool hint_matches_token(std::string_view name, std::string_view hint) {
  const std::string lower = text::ascii_lower(name);
  for (size_t pos = lower.find(hint); pos != std::string::npos; pos = lower.find(hint, pos + 1)) {
    if (boundary_at(name, pos) && boundary_at(name, pos + hint.size())) return true;
  }
  return false;
}

std::optional<std::string> name_signal(std::string_view base_name, std::string_view module_name,
                                       bool token_hints) {
  const std::string bn = text::ascii_lower(base_name);
  const std::string mn = text::ascii_lower(module_name);
  for (const auto& group : hint_groups()) {
    for (auto hint : group.hints) {
      if (hint_in(base_name, bn, hint, token_hints) ||
          hint_in(module_name, mn, hint, token_hints)) {
        return std::string(group.signal);
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> composition_signal(const std::vector<EnrichedKernel>& kernels) {
  size_t gemms = 0;
  bool softmax = false;
  bool rsqrt = false;
  bool neg = false;
  bool cat = false;
  for (const auto& k : kernels) {
    if (is_matrix(k)) ++gemms;
    const std::string name = text::ascii_lower(k.name);
    softmax = softmax || contains(name, "softmax");
    rsqrt = rsqrt || contains(name, "rsqrt");
    neg = neg || contains(name, "neg");
    cat = cat || contains(name, "catarray") || contains(name, "cat_");
  }
  const size_t others = kernels.size() - gemms;
  if (gemms >= 2 && softmax) return "attention";
  if (rsqrt) return "norm";
  if (gemms >= 2 && others >= 1) return "mlp";
  if (neg && cat) return "rope";
  if (gemms == 0 && kernels.size() >= 3) return "elementwise_chain";
  return std::nullopt;
}

namespace {

bool signals_agree(const std::string& name, const std::string& comp) {
  if (name == comp) return true;
  // A SiLU/SwiGLU module is the gated MLP the composition rule recognises.
  return name == "siglu" && comp == "mlp";
}

}  // namespace

Confidence classify_confidence(std::string_view base_name, std::string_view module_name,
                               const std::vector<EnrichedKernel>& kernels,
                               const ConfidenceOptions& options) {
  Confidence c;
  c.name_signal = name_signal(base_name, module_name, options.token_hints);
  c.comp_signal = composition_signal(kernels);
  if (c.name_signal && c.comp_signal) {
    const bool agree = !options.require_agreement || signals_agree(*c.name_signal, *c.comp_signal);
    c.level = agree ? "high" : "medium";
  } else if (c.name_signal || c.comp_signal) {
    c.level = "medium";
  } else {
    c.level = "low";
  }
  return c;
}

}  // namespace loupe::fusion
