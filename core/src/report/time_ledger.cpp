#include "loupe/core/report/time_ledger.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace loupe::core::ledger {

namespace {

using findings::Evidence;

// Decades of the mid saving: 0.1-1 ms, 1-10 ms, ... (a zero saving is below every class).
int size_class(double mid_ms) {
  if (!(mid_ms > 0.0)) return -1000;
  return static_cast<int>(std::floor(std::log10(mid_ms)));
}

int evidence_rank(Evidence e) { return e == Evidence::Heuristic ? 1 : 0; }

Saving scaled(const Saving& s, double factor) {
  return {s.low * factor, s.mid * factor, s.high * factor};
}

// low <= mid <= high after independent cuts.
void order_levels(Saving& s) {
  s.mid = std::min(s.mid, s.high);
  s.low = std::min(s.low, s.mid);
}

bool cap_at(Saving& s, double limit) {
  bool cut = false;
  for (double* v : {&s.low, &s.mid, &s.high}) {
    if (*v > limit) {
      *v = std::max(0.0, limit);
      cut = true;
    }
  }
  order_levels(s);
  return cut;
}

}  // namespace

const char* to_string(Disposition d) {
  switch (d) {
    case Disposition::Owner:
      return "owner";
    case Disposition::Trimmed:
      return "trimmed";
    case Disposition::Merged:
      return "merged";
  }
  return "owner";
}

bool ranks_before(const Saving& a, Evidence ea, const Saving& b, Evidence eb) {
  const int ca = size_class(a.mid);
  const int cb = size_class(b.mid);
  if (ca != cb) return ca > cb;
  if (evidence_rank(ea) != evidence_rank(eb)) return evidence_rank(ea) < evidence_rank(eb);
  return a.mid > b.mid;
}

Ledger settle(std::span<const Claim> claims,
              const std::unordered_map<std::int64_t, std::int64_t>& kernel_ns, double budget_ms) {
  Ledger ledger;
  ledger.budget_ms = budget_ms;
  ledger.findings.resize(claims.size());

  std::vector<std::size_t> order(claims.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return ranks_before(claims[a].saving, claims[a].evidence, claims[b].saving, claims[b].evidence);
  });

  std::unordered_map<std::int64_t, std::size_t> owner_of;
  for (const std::size_t i : order) {
    Settlement& s = ledger.findings[i];
    s.saving = claims[i].saving;
    std::vector<std::int64_t> kernels = claims[i].kernels;
    std::sort(kernels.begin(), kernels.end());
    kernels.erase(std::unique(kernels.begin(), kernels.end()), kernels.end());

    // What it claims, split into what is free and what higher findings own (by owner).
    std::vector<std::int64_t> free;
    std::unordered_map<std::size_t, std::int64_t> overlap_by_owner;
    std::int64_t free_ns = 0;
    for (const std::int64_t k : kernels) {
      const auto d = kernel_ns.find(k);
      if (d == kernel_ns.end()) {
        ++ledger.unknown_kernels;
        continue;
      }
      s.claimed_ns += d->second;
      if (const auto o = owner_of.find(k); o != owner_of.end()) {
        overlap_by_owner[o->second] += d->second;
      } else {
        free.push_back(k);
        free_ns += d->second;
      }
    }
    const std::int64_t overlap_ns = s.claimed_ns - free_ns;
    if (s.claimed_ns > 0 && overlap_ns > 0 && 2 * overlap_ns >= s.claimed_ns) {
      // Mostly someone else's time: one change, one finding. The owner holding the most of it
      // takes this finding as a part, with its free GPU ops and their share of its saving.
      std::size_t owner = 0;
      std::int64_t best = -1;
      for (const auto& [o, ns] : overlap_by_owner) {
        if (ns > best || (ns == best && o < owner)) {
          owner = o;
          best = ns;
        }
      }
      s.disposition = Disposition::Merged;
      s.merged_into = owner;
      Settlement& into = ledger.findings[owner];
      into.parts.push_back(i);
      if (free_ns > 0) {
        const Saving extra = scaled(
            claims[i].saving, static_cast<double>(free_ns) / static_cast<double>(s.claimed_ns));
        into.saving.low += extra.low;
        into.saving.mid += extra.mid;
        into.saving.high += extra.high;
        for (const std::int64_t k : free) {
          owner_of.emplace(k, owner);
          into.owned.push_back(k);
        }
        into.owned_ns += free_ns;
        into.claimed_ns += free_ns;
      }
      s.saving = {};
      continue;
    }
    if (overlap_ns > 0) {
      s.disposition = Disposition::Trimmed;
      s.saving = scaled(claims[i].saving,
                        static_cast<double>(free_ns) / static_cast<double>(s.claimed_ns));
    }
    for (const std::int64_t k : free) owner_of.emplace(k, i);
    s.owned = std::move(free);
    s.owned_ns = free_ns;
  }

  // A saving cannot exceed the measured time of what its finding owns.
  for (std::size_t i = 0; i < claims.size(); ++i) {
    Settlement& s = ledger.findings[i];
    if (s.disposition == Disposition::Merged) continue;
    std::sort(s.owned.begin(), s.owned.end());
    if (s.claimed_ns > 0 && cap_at(s.saving, static_cast<double>(s.owned_ns) / 1e6)) {
      s.capped = true;
    }
  }

  for (const std::size_t i : order) {
    if (ledger.findings[i].disposition != Disposition::Merged) ledger.ranking.push_back(i);
  }
  std::stable_sort(ledger.ranking.begin(), ledger.ranking.end(), [&](std::size_t a, std::size_t b) {
    return ranks_before(ledger.findings[a].saving, claims[a].evidence, ledger.findings[b].saving,
                        claims[b].evidence);
  });

  // Together the ranked savings fit in the run's time.
  Saving left{budget_ms, budget_ms, budget_ms};
  for (const std::size_t i : ledger.ranking) {
    Settlement& s = ledger.findings[i];
    if (budget_ms > 0) {
      bool cut = false;
      for (auto [v, rest] :
           {std::pair{&s.saving.low, &left.low}, std::pair{&s.saving.mid, &left.mid},
            std::pair{&s.saving.high, &left.high}}) {
        if (*v > *rest) {
          *v = std::max(0.0, *rest);
          cut = true;
        }
        *rest -= *v;
      }
      order_levels(s.saving);
      if (cut) s.capped = true;
    }
    ledger.ranked_total.low += s.saving.low;
    ledger.ranked_total.mid += s.saving.mid;
    ledger.ranked_total.high += s.saving.high;
  }
  return ledger;
}

}  // namespace loupe::core::ledger
