// Standalone candidate filter (spec docs/contracts/fusion.md §2.5) and the final order (§1.2).
#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "candidate.hpp"

namespace loupe::core::prepare::fusion {
namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

}  // namespace

bool is_gemm_norm_only(const Candidate& c) {
  constexpr std::array<std::string_view, 5> kNorms = {"batchnorm", "layernorm", "groupnorm",
                                                      "instancenorm", "rmsnorm"};
  std::size_t gemm = 0;
  std::size_t other = 0;
  bool all_norm = true;
  for (const auto& k : c.kernels) {
    const std::string low = lower_ascii(k.name);
    const std::string type = upper(k.type);
    if (type == "GEMM" || type == "GEMM (GENERIC)" || low.find("conv") != std::string::npos) {
      ++gemm;
      continue;
    }
    ++other;
    const bool norm = std::any_of(kNorms.begin(), kNorms.end(), [&](std::string_view n) {
      return low.find(n) != std::string::npos;
    });
    if (!norm && k.type != "Elementwise Add" && k.type != "Copy/Cast") all_norm = false;
  }
  return gemm >= 1 && other >= 1 && all_norm;
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
