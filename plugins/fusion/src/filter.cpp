#include "filter.hpp"

#include <tuple>

#include "estimate.hpp"
#include "loupe/python_format.hpp"

namespace loupe::fusion {

std::size_t code_point_length(const std::string& utf8) {
  std::size_t n = 0;
  for (const char c : utf8) {
    if ((static_cast<unsigned char>(c) & 0xC0U) != 0x80U) ++n;
  }
  return n;
}

std::vector<Candidate> filter_and_dedup(const std::vector<Candidate>& candidates,
                                        double baseline_ms) {
  std::vector<const Candidate*> kept;
  for (const auto& c : candidates) {
    if (c.kernel_count.value_or(0) > kMaxFusionKernelCount) continue;
    if (baseline_ms > 0) {
      const double min_time_us = baseline_ms * 10 * kMinImpactScore;
      if (!(c.total_us.value_or(0) >= min_time_us)) continue;
    }
    kept.push_back(&c);
  }

  // Signature (instance_count, kernel_count, round(T, 1)); the first candidate claims the slot,
  // a later one replaces it only with a strictly shorter module_name. Slot order is first use.
  using Signature = std::tuple<std::int64_t, std::int64_t, double>;
  std::vector<std::pair<Signature, const Candidate*>> slots;
  for (const Candidate* c : kept) {
    const Signature sig{c->instance_count.value_or(0), c->kernel_count.value_or(0),
                        py::round_half_even(c->total_us.value_or(0), 1)};
    bool found = false;
    for (auto& [slot_sig, occupant] : slots) {
      if (slot_sig == sig) {
        if (code_point_length(c->module_name) < code_point_length(occupant->module_name)) {
          occupant = c;
        }
        found = true;
        break;
      }
    }
    if (!found) slots.emplace_back(sig, c);
  }
  std::vector<Candidate> out;
  out.reserve(slots.size());
  for (const auto& slot : slots) out.push_back(*slot.second);
  return out;
}

}  // namespace loupe::fusion
