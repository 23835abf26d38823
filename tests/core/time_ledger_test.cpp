// The time ledger's rules on hand-made claims whose answer is known: one owner per GPU op, merge
// or trim by overlap, savings capped by owned time and by the run's time, evidence in the order.
#include <catch2/catch.hpp>

#include "loupe/core/report/time_ledger.hpp"

using namespace loupe::core::ledger;
using loupe::findings::Evidence;

namespace {

// GPU ops 1..10 of 1 ms each, 11..12 of 5 ms each.
std::unordered_map<std::int64_t, std::int64_t> durations() {
  std::unordered_map<std::int64_t, std::int64_t> d;
  for (std::int64_t k = 1; k <= 10; ++k) d[k] = 1'000'000;
  d[11] = 5'000'000;
  d[12] = 5'000'000;
  return d;
}

Claim claim(std::vector<std::int64_t> kernels, double low, double mid, double high,
            Evidence e = Evidence::Modeled) {
  return {std::move(kernels), {low, mid, high}, e};
}

}  // namespace

TEST_CASE("a finding on GPU ops a higher finding owns is merged into it as a part", "[ledger]") {
  // A fused-attention finding (ops 1-6, 5 ms saved), a GEMM finding on ops 1-2 of it, a softmax
  // finding on ops 3 and 7 (half its time is the attention's).
  const std::vector<Claim> claims = {claim({3, 7}, 0.5, 1.0, 1.5),
                                     claim({1, 2, 3, 4, 5, 6}, 4, 5, 6), claim({1, 2}, 1, 1.5, 2)};
  const Ledger l = settle(claims, durations(), 100.0);
  REQUIRE(l.ranking == std::vector<std::size_t>{1});
  CHECK(l.findings[2].disposition == Disposition::Merged);
  CHECK(l.findings[2].merged_into == 1);
  CHECK(l.findings[0].disposition == Disposition::Merged);  // overlap 1 ms of 2 ms: half
  CHECK(l.findings[1].parts == std::vector<std::size_t>{2, 0});
  // The softmax's free op (7) and half its saving join the attention finding.
  CHECK(l.findings[1].owned == std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7});
  CHECK(l.findings[1].owned_ns == 7'000'000);
  CHECK(l.findings[1].saving.low == Approx(4.25));
  CHECK(l.findings[1].saving.mid == Approx(5.5));
  CHECK(l.findings[1].saving.high == Approx(6.75));  // below the 7 ms it owns: not capped
  CHECK_FALSE(l.findings[1].capped);
  CHECK(l.findings[0].saving.mid == 0.0);
}

TEST_CASE("a finding that overlaps a higher one a little keeps only its free GPU ops", "[ledger]") {
  const std::vector<Claim> claims = {claim({1, 2, 3, 4}, 2, 3, 4),
                                     claim({4, 5, 6, 7, 8, 9}, 1, 2, 3)};
  const Ledger l = settle(claims, durations(), 100.0);
  REQUIRE(l.ranking == std::vector<std::size_t>{0, 1});
  CHECK(l.findings[1].disposition == Disposition::Trimmed);
  CHECK(l.findings[1].owned == std::vector<std::int64_t>{5, 6, 7, 8, 9});
  CHECK(l.findings[1].saving.mid == Approx(2.0 * 5 / 6));
  // No GPU op has two owners.
  for (const auto k : l.findings[0].owned) {
    CHECK(std::find(l.findings[1].owned.begin(), l.findings[1].owned.end(), k) ==
          l.findings[1].owned.end());
  }
}

TEST_CASE("a saving never exceeds the measured time of what the finding owns", "[ledger]") {
  // 9.1e12 ms claimed on two 1 ms ops.
  const std::vector<Claim> claims = {claim({1, 2}, 1, 9.1e12, 9.2e12)};
  const Ledger l = settle(claims, durations(), 100.0);
  CHECK(l.findings[0].saving.high == Approx(2.0));
  CHECK(l.findings[0].saving.mid == Approx(2.0));
  CHECK(l.findings[0].saving.low == Approx(1.0));
  CHECK(l.findings[0].capped);
}

TEST_CASE("the ranked savings together fit in the run's time", "[ledger]") {
  // Findings without GPU ops (idle time, host work) are capped by what the run has left.
  const std::vector<Claim> claims = {claim({}, 30, 40, 50, Evidence::Measured),
                                     claim({}, 20, 30, 40, Evidence::Measured),
                                     claim({11, 12}, 5, 8, 10)};
  const Ledger l = settle(claims, durations(), 60.0);
  CHECK(l.ranked_total.high <= 60.0 + 1e-9);
  CHECK(l.ranked_total.mid <= 60.0 + 1e-9);
  CHECK(l.ranked_total.low <= 60.0 + 1e-9);
  for (const auto& s : l.findings) {
    CHECK(s.saving.low <= s.saving.mid);
    CHECK(s.saving.mid <= s.saving.high);
  }
  CHECK(l.findings[1].capped);
  CHECK(l.findings[1].saving.high == Approx(10.0));  // 60 - 50
}

TEST_CASE("a heuristic saving never ranks above a modeled one of the same size class", "[ledger]") {
  const std::vector<Claim> claims = {claim({11}, 3, 4.9, 5, Evidence::Heuristic),
                                     claim({12}, 1, 1.2, 2, Evidence::Modeled),
                                     claim({1}, 0.2, 0.5, 0.9, Evidence::Measured)};
  const Ledger l = settle(claims, durations(), 100.0);
  // 4.9 (heuristic) and 1.2 (modeled) are both in 1-10 ms: modeled first; 0.5 ms is smaller.
  CHECK(l.ranking == std::vector<std::size_t>{1, 0, 2});
  CHECK(ranks_before({0, 12, 0}, Evidence::Heuristic, {0, 9, 0}, Evidence::Modeled));
}

TEST_CASE("claims on GPU ops the trace does not have are counted and ignored", "[ledger]") {
  const std::vector<Claim> claims = {claim({1, 999}, 0.1, 0.2, 0.3)};
  const Ledger l = settle(claims, durations(), 10.0);
  CHECK(l.unknown_kernels == 1);
  CHECK(l.findings[0].owned == std::vector<std::int64_t>{1});
}
