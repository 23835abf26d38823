// Attention narrowing, kernel-set dedup and data-split enrichment (spec docs/contracts/fusion.md
// §2.6).
#include "postprocess.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace loupe::core::prepare::fusion {
namespace {

bool has_softmax(std::string_view name) {
  std::string low(name);
  std::transform(low.begin(), low.end(), low.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return low.find("softmax") != std::string::npos;
}

void narrow(Candidate& c, const PerfLookup& lookup) {
  std::size_t first = 0;
  std::size_t last = 0;
  if (!attention_core(c.kernels, lookup, first, last)) return;
  std::vector<CandidateKernel> core(c.kernels.begin() + static_cast<std::ptrdiff_t>(first),
                                    c.kernels.begin() + static_cast<std::ptrdiff_t>(last) + 1);
  c.kernels = std::move(core);
  c.kernel_count = static_cast<std::int64_t>(c.kernels.size());
  c.eligible_kernel_count = c.kernel_count;
  c.type_signature.clear();
  double sum = 0.0;
  bool sum_int = true;
  for (const auto& k : c.kernels) {
    c.type_signature.push_back(k.type.empty() ? "Unknown" : k.type);
    sum += k.dur_us;
    sum_int = sum_int && k.dur_is_int;
  }
  c.total_is_int = sum_int;
  c.total_kernel_time_us = sum * static_cast<double>(c.instance_count);
}

}  // namespace

bool attention_core(const std::vector<CandidateKernel>& kernels, const PerfLookup& lookup,
                    std::size_t& first, std::size_t& last) {
  // Whether each kernel is a GEMM, looked up only for the kernels the search reaches (most
  // modules have no softmax kernel, and a whole-model module has tens of thousands of kernels).
  constexpr std::int8_t kUnknown = -1;
  std::vector<std::int8_t> gemm_memo(kernels.size(), kUnknown);
  const auto gemm = [&](std::size_t j) {
    if (gemm_memo[j] == kUnknown) gemm_memo[j] = lookup.is_gemm(kernels[j].name) ? 1 : 0;
    return gemm_memo[j] != 0;
  };
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    if (!has_softmax(kernels[i].name)) continue;
    std::optional<std::size_t> qk;
    for (std::size_t j = i; j-- > 0;) {
      if (gemm(j)) {
        qk = j;
        break;
      }
    }
    std::optional<std::size_t> pv;
    for (std::size_t j = i + 1; j < kernels.size(); ++j) {
      if (gemm(j)) {
        pv = j;
        break;
      }
    }
    if (qk && pv) {
      first = *qk;
      last = *pv;
      return true;
    }
  }
  return false;
}

void postprocess(std::vector<Candidate>& candidates, const PerfLookup& lookup) {
  for (auto& c : candidates) narrow(c, lookup);
  candidates = dedup_by_kernel_set(std::move(candidates));
  for (auto& c : candidates) {
    for (auto& k : c.kernels) {
      if (k.data_in_mb) continue;
      const PerfEntry* e = lookup.lookup(k.name, c.input_dims);
      if (e == nullptr || !e->split.in_mb) continue;
      k.data_in_mb = e->split.in_mb;
      k.data_out_mb = e->split.out_mb;
    }
  }
}

}  // namespace loupe::core::prepare::fusion
