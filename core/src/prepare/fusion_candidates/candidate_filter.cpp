// Standalone candidate filter (spec docs/contracts/fusion.md §2.5) and the final order (§1.2).
#include <algorithm>
#include <array>
#include <string>

#include "candidate.hpp"
#include "loupe/text.hpp"

namespace loupe::core::prepare::fusion {
namespace {

// `text` equals the upper-case `upper_text` ignoring ASCII case (Python's str.upper() ==).
bool equals_upper(std::string_view text, std::string_view upper_text) {
  if (text.size() != upper_text.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if ((c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c) != upper_text[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

// Whether the module's kernels are GEMMs plus only normalizations / adds / casts. The answer is
// known as soon as one non-GEMM kernel is neither: the walk stops there (a whole-model module
// holds tens of thousands of kernels on a big trace).
bool is_gemm_norm_only(const Candidate& c) {
  constexpr std::array<std::string_view, 5> kNorms = {"batchnorm", "layernorm", "groupnorm",
                                                      "instancenorm", "rmsnorm"};
  std::size_t gemm = 0;
  std::size_t other = 0;
  std::string low;
  for (const auto& k : c.kernels) {
    low.assign(k.name);
    for (char& ch : low) ch = text::ascii_lower(ch);
    if (equals_upper(k.type, "GEMM") || equals_upper(k.type, "GEMM (GENERIC)") ||
        low.find("conv") != std::string::npos) {
      ++gemm;
      continue;
    }
    ++other;
    const bool norm = std::any_of(kNorms.begin(), kNorms.end(), [&](std::string_view n) {
      return low.find(n) != std::string::npos;
    });
    if (!norm && k.type != "Elementwise Add" && k.type != "Copy/Cast") return false;
  }
  return gemm >= 1 && other >= 1;
}

std::vector<Candidate> filter_candidates(ModuleWalk walk, std::vector<Candidate> siblings) {
  std::vector<Candidate> out;
  for (auto& m : walk.entries) {
    if (m.has_fused_kernel || m.eligible_kernel_count < 2) continue;
    if (is_gemm_norm_only(m)) continue;
    out.push_back(std::move(m));
  }
  for (auto& s : siblings) {
    if (s.kernels.size() < 2) continue;
    s.kernel_count = static_cast<std::int64_t>(s.kernels.size());
    s.eligible_kernel_count = s.kernel_count;
    s.has_fused_kernel = false;
    out.push_back(std::move(s));
  }
  return out;
}

void sort_by_total_time(std::vector<Candidate>& candidates) {
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) {
                     return a.total_kernel_time_us > b.total_kernel_time_us;
                   });
}

}  // namespace loupe::core::prepare::fusion
