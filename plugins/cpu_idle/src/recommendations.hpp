// From the idle breakdown to findings: one candidate per mechanism (launch-bound,
// synchronization, data loading, host work, queued device wait) with its measured idle time and
// the saving if the mechanism were removed. Shared by the metrics (impact_estimates) and the
// findings cards, so both carry the same numbers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gap_attribution.hpp"
#include "loupe/json_value.hpp"
#include "trace_inputs.hpp"

namespace loupe::cpu_idle {

// A mechanism gets a card when its idle time reaches this share of the GPU span (percent).
inline constexpr double kCardPercentOfSpan = 1.0;
// Saving fractions of the measured idle time (high = all of it, an upper bound).
inline constexpr double kSavingLow = 0.5;
inline constexpr double kSavingMid = 0.75;

enum class Mechanism { LaunchBound, Synchronization, DataLoading, HostWork, QueuedWait };
const char* to_string(Mechanism m);  // launch_bound | synchronization | data_loading | ...

struct Candidate {
  Mechanism mechanism = Mechanism::LaunchBound;
  std::int64_t idle_ns = 0;
  std::int64_t gaps = 0;  // gaps where this mechanism holds the largest share of time
  double low_ms = 0, mid_ms = 0, high_ms = 0;
  Json impact_low, impact_mid, impact_high;  // percent of the GPU span, rounded to 2 decimals
  bool reported = false;                     // passes kCardPercentOfSpan
};

// The idle time of `m` in one gap, and the mechanism holding the largest share of the gap
// (nullopt when none does: unlinked time only).
std::int64_t mechanism_ns(const Gap& g, Mechanism m);
std::optional<Mechanism> dominant_mechanism(const Gap& g);

// What a gap's time is, for tables: its dominant mechanism, else "device_switch" when the op
// ending it had a recorded launch (it was queued) and "unlinked" when it had none.
std::string gap_label(const Gap& g);

// Every mechanism with idle time, largest first.
std::vector<Candidate> candidates(const Breakdown& b);

// The metrics block for the breakdown (times in ms, rounded to 3 decimals).
Json breakdown_json(const Breakdown& b, const std::vector<Candidate>& cands);
Json estimates_json(const std::vector<Candidate>& cands);
// The GPU work outside the analysis window (trace/recording_window.json), in ms.
Json outside_window_json(const RecordingWindow& window);

double ms(std::int64_t ns);
// Round half-even to `digits` and print with that many decimals.
std::string fixed_ms(std::int64_t ns, int digits = 3);
std::string fixed(double value, int digits);

}  // namespace loupe::cpu_idle
